// SPDX-License-Identifier: GPL-2.0

//! The Rust half of the library interface of `<crypto/mldsa.h>`: [`mldsa_rust_verify_pk`], on
//! which `exports.c` defines `mldsa_verify()`, and with `CONFIG_CRYPTO_MLDSA_EXTENDED` the
//! calls of [`extended`] (all declared in `<crypto/internal/mldsa.h>`, which `#[export]` checks
//! them against).
//!
//! Each call checks that the caller's key (if it takes one) and workspace pointers are
//! non-null and aligned, and that a buffer is non-null unless it is empty (`EINVAL`
//! otherwise), turns the pointers into references in its one `unsafe` block, and is safe
//! code from there on. The calls fail with `ELIBBAD` until the module's self-tests have
//! passed ([`enable`]). A `struct mldsa_workspace` holds a `Workspace` of the set of the
//! call; it is sized for ML-DSA-87, and the assertions below check that it is large and
//! aligned enough.

use crate::mldsa_verify::{self, Error, Message, VerifyingKey, Workspace};
use crate::params::{MlDsa44, MlDsa65, MlDsa87};
use core::ffi::c_int;
use core::mem::{align_of, size_of};
use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::bindings::{
    mldsa_alg, mldsa_alg_MLDSA44 as MLDSA44, mldsa_alg_MLDSA65 as MLDSA65,
    mldsa_alg_MLDSA87 as MLDSA87, mldsa_workspace,
};
use kernel::error::code::{EINVAL, ELIBBAD};
use kernel::prelude::export;

/// Whether the self-tests have passed.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Lets the calls run: the module's init calls this once the self-tests have passed.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Release);
}

const _: () = assert!(size_of::<Workspace<MlDsa87>>() <= size_of::<mldsa_workspace>());
const _: () = assert!(align_of::<Workspace<MlDsa87>>() <= align_of::<mldsa_workspace>());

/// `EINVAL` unless `ws` is non-null and aligned for its C type; `ELIBBAD` unless [`enable`]
/// was called.
fn check_ws(ws: *const mldsa_workspace) -> Result<(), c_int> {
    if ws.is_null() || !ws.is_aligned() {
        return Err(EINVAL.to_errno());
    }
    if !ENABLED.load(Ordering::Acquire) {
        return Err(ELIBBAD.to_errno());
    }
    Ok(())
}

/// The `len` bytes at `ptr`, for the caller to turn into a reference: `ptr` may be null if
/// `len` is 0 (the slice then points nowhere, but not to null, as a reference must not),
/// and is refused otherwise.
fn bytes(ptr: *const u8, len: usize) -> Result<*const [u8], Error> {
    match (len, ptr.is_null()) {
        (0, _) => Ok(ptr::slice_from_raw_parts(NonNull::dangling().as_ptr(), 0)),
        (_, true) => Err(Error::BadParameter),
        (_, false) => Ok(ptr::slice_from_raw_parts(ptr, len)),
    }
}

/// The result of a call as a C return code.
fn to_errno(r: Result<(), Error>) -> c_int {
    match r {
        Ok(()) => 0,
        Err(e) => kernel::error::Error::from(e).to_errno(),
    }
}

/// Evaluates `$e` with the type `$s` bound to the parameter set of `$alg`, an
/// `enum mldsa_alg`; [`Error::BadParameter`] if it names none.
macro_rules! on_set {
    ($alg:expr, $s:ident => $e:expr) => {
        match $alg {
            MLDSA44 => {
                type $s = MlDsa44;
                $e
            }
            MLDSA65 => {
                type $s = MlDsa65;
                $e
            }
            MLDSA87 => {
                type $s = MlDsa87;
                $e
            }
            _ => Err(Error::BadParameter),
        }
    };
}

#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
mod extended;

/// `mldsa_verify()`: verifies `sig` over `msg`, with an empty context string, under the
/// encoded key `pk` of the set `alg`, decoded a row at a time, in `ws`.
///
/// # Safety
///
/// `sig`, `msg` and `pk` must be valid for reads of their lengths (or be null, which gives
/// `EINVAL` unless the length is 0), none of them written during the call, and `ws` valid
/// for writes of a `struct mldsa_workspace` and used by nothing else during the call.
#[export]
unsafe extern "C" fn mldsa_rust_verify_pk(
    alg: mldsa_alg,
    sig: *const u8,
    sig_len: usize,
    msg: *const u8,
    msg_len: usize,
    pk: *const u8,
    pk_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_ws(ws) {
        return e;
    }
    // SAFETY: `ws` is aligned (checked above) and the caller's, and `sig`, `msg` and `pk`
    // are readable or empty (`bytes`), as the function's safety section says; a
    // `struct mldsa_workspace` is large enough for the `Workspace` of any set (assertions
    // above), which needs no more alignment, and is cleared through the pointer before a
    // reference to it is made: all-zero bytes are a valid `Workspace` (`Zeroable`).
    let r = unsafe {
        match (bytes(sig, sig_len), bytes(msg, msg_len), bytes(pk, pk_len)) {
            (Ok(sig), Ok(msg), Ok(pk)) => on_set!(alg, S => {
                let ws = ws.cast::<Workspace<S>>();
                ws.write_bytes(0, 1);
                let (ws, key) = (&mut *ws, VerifyingKey::Encoded(&*pk));
                let m = Message::Pure { msg: &*msg, ctx: &[] };
                mldsa_verify::verify::<S>(ws, key, m, &*sig)
            }),
            _ => Err(Error::BadParameter),
        }
    };
    to_errno(r)
}

/// `mldsa_use_hint()`, which Linux 7.x exports for its KUnit suite only: UseHint (FIPS 204,
/// Algorithm 40) of `r`, taken mod q, with hint bit `h` (0 or not), for gamma2 = (q - 1) / 32
/// or else (q - 1) / 88.
#[cfg(all(CONFIG_CRYPTO_LIB_MLDSA_RUST, CONFIG_CRYPTO_LIB_MLDSA_KUNIT_TEST))]
#[export]
extern "C" fn mldsa_use_hint(h: u8, r: i32, gamma2: i32) -> i32 {
    use crate::params::Q;
    let gamma2 = if gamma2 == (Q - 1) / 32 {
        gamma2
    } else {
        (Q - 1) / 88
    };
    crate::poly::use_hint(gamma2, r.rem_euclid(Q), h != 0)
}
