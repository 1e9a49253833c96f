// SPDX-License-Identifier: GPL-2.0

//! The Rust half of the library interface of `<crypto/mldsa.h>`: the calls
//! [`mldsa_rust_pubkey_init`], [`mldsa_rust_verify`] and [`mldsa_rust_verify_pk`]
//! (declared in `<crypto/internal/mldsa.h>`, which `#[export]` checks them against), on
//! which `exports.c` defines and exports the interface, and allocates for `mldsa_verify()`.
//!
//! Each call checks that the caller's key (if it takes one) and workspace pointers are
//! non-null and aligned, and that a buffer is non-null unless it is empty (`EINVAL`
//! otherwise), turns the pointers into references in its one `unsafe` block, and is safe
//! code from there on. The calls take only a key that `mldsa_pubkey_init()` has written,
//! as `<crypto/mldsa.h>` says: its tag ([`KEY_TAG`]) names the set, and a key that could
//! not be decoded, or was cleared since, gives `EINVAL`. The calls fail with `ELIBBAD`
//! until the module's self-tests have passed ([`enable`]).
//!
//! A `struct mldsa_pubkey` holds a [`KeyBuf`]: the set and a `PublicKey` of that set. A
//! `struct mldsa_workspace` holds a `Workspace` of the set of the call. Both C types are
//! sized for ML-DSA-87; the assertions below check that they are large and aligned enough.

use crate::mldsa_verify::{self, Error, Message, PreHash, PublicKey, VerifyingKey, Workspace};
use crate::params::{MlDsa44, MlDsa65, MlDsa87};
use core::ffi::c_int;
use core::mem::{align_of, size_of};
use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::bindings::{
    mldsa_alg, mldsa_alg_MLDSA44 as MLDSA44, mldsa_alg_MLDSA65 as MLDSA65,
    mldsa_alg_MLDSA87 as MLDSA87, mldsa_prehash, mldsa_prehash_MLDSA_SHA256 as SHA256,
    mldsa_prehash_MLDSA_SHA384 as SHA384, mldsa_prehash_MLDSA_SHA3_256 as SHA3_256,
    mldsa_prehash_MLDSA_SHA3_512 as SHA3_512, mldsa_prehash_MLDSA_SHA512 as SHA512,
    mldsa_prehash_MLDSA_SHAKE128 as SHAKE128, mldsa_prehash_MLDSA_SHAKE256 as SHAKE256,
    mldsa_pubkey, mldsa_rust_msg, mldsa_rust_msg_MLDSA_RUST_MU as MU,
    mldsa_rust_msg_MLDSA_RUST_PREHASH as PREHASH, mldsa_rust_msg_MLDSA_RUST_PURE as PURE,
    mldsa_workspace,
};
use kernel::error::code::{EINVAL, ELIBBAD};
use kernel::prelude::export;

/// Whether the self-tests have passed.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Lets the calls run: the module's init calls this once the self-tests have passed.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Release);
}

/// What a `struct mldsa_pubkey` holds.
#[repr(C)]
struct KeyBuf {
    /// [`KEY_TAG`] with the key's `enum mldsa_alg` in its low byte, or 0 while it holds no
    /// key.
    tag: u64,
    /// A `PublicKey` of that set, which needs no alignment (it holds bytes only).
    key: [u8; size_of::<PublicKey<MlDsa87>>()],
}

/// The tag of a key, with the set in its low byte: a key that `mldsa_pubkey_init()` could
/// not decode (tag 0), or that was cleared or overwritten since, is refused with `EINVAL`.
const KEY_TAG: u64 = u64::from_be_bytes(*b"MLDSAKY\0");

/// The set of the key whose tag is `tag`, or `mldsa_alg::MAX`, which names no set, if the
/// tag is not one.
fn key_alg(tag: u64) -> mldsa_alg {
    if tag & !0xff == KEY_TAG {
        (tag & 0xff) as mldsa_alg
    } else {
        mldsa_alg::MAX
    }
}

const _: () = assert!(size_of::<KeyBuf>() <= size_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<KeyBuf>() <= align_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<PublicKey<MlDsa87>>() == 1);
const _: () = assert!(size_of::<Workspace<MlDsa87>>() <= size_of::<mldsa_workspace>());
const _: () = assert!(align_of::<Workspace<MlDsa87>>() <= align_of::<mldsa_workspace>());

/// `EINVAL` unless `key` and `ws` are non-null and aligned for their C types; `ELIBBAD`
/// unless [`enable`] was called.
fn check_call(key: *const mldsa_pubkey, ws: *const mldsa_workspace) -> Result<(), c_int> {
    if key.is_null() || !key.is_aligned() {
        return Err(EINVAL.to_errno());
    }
    check_ws(ws)
}

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

/// `mldsa_pubkey_init()`: decodes `pk` of the set `alg` into `key`, which holds no key on
/// failure.
///
/// # Safety
///
/// `key` must be valid for writes of a `struct mldsa_pubkey`, `pk` for reads of `pk_len`
/// bytes (or be null, which gives `EINVAL` unless `pk_len` is 0) and `ws` for writes of a
/// `struct mldsa_workspace`, each used by nothing else during the call.
#[export]
unsafe extern "C" fn mldsa_rust_pubkey_init(
    key: *mut mldsa_pubkey,
    alg: mldsa_alg,
    pk: *const u8,
    pk_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_call(key, ws) {
        return e;
    }
    // SAFETY: `key` and `ws` are aligned (checked above) and the caller's as the function's
    // safety section says; their C types are large enough for a `KeyBuf` and for the
    // `PublicKey` and `Workspace` of any set (assertions above), which need no more
    // alignment. Any bytes are valid for a `KeyBuf` and a `PublicKey`, which hold integers
    // only. The workspace is cleared through the pointer before a reference to it is made,
    // and all-zero bytes are a valid `Workspace` (`Zeroable`). `pk` is the caller's too, or
    // points nowhere and is empty (`bytes`).
    let r = unsafe {
        let buf = &mut *key.cast::<KeyBuf>();
        buf.tag = 0;
        let r = bytes(pk, pk_len).and_then(|pk| {
            on_set!(alg, S => {
                let ws = ws.cast::<Workspace<S>>();
                ws.write_bytes(0, 1);
                (*buf.key.as_mut_ptr().cast::<PublicKey<S>>()).decode(&mut *ws, &*pk)
            })
        });
        if r.is_ok() {
            buf.tag = KEY_TAG | u64::from(alg);
        }
        r
    };
    to_errno(r)
}

/// The pre-hash function `ph` names.
fn pre_hash(ph: mldsa_prehash) -> Option<PreHash> {
    Some(match ph {
        SHA256 => PreHash::Sha2_256,
        SHA384 => PreHash::Sha2_384,
        SHA512 => PreHash::Sha2_512,
        SHA3_256 => PreHash::Sha3_256,
        SHA3_512 => PreHash::Sha3_512,
        SHAKE128 => PreHash::Shake128,
        SHAKE256 => PreHash::Shake256,
        _ => return None,
    })
}

/// The message of kind `kind` (`PURE`, `PREHASH` or `MU`): `m` (M, PH(M) made with `ph`,
/// or mu) and the context string `ctx`.
fn message<'a>(
    kind: mldsa_rust_msg,
    ph: mldsa_prehash,
    m: &'a [u8],
    ctx: &'a [u8],
) -> Result<Message<'a>, Error> {
    match kind {
        PURE => Ok(Message::Pure { msg: m, ctx }),
        PREHASH => {
            let ph = pre_hash(ph).ok_or(Error::BadParameter)?;
            Ok(Message::PreHash { ph, phm: m, ctx })
        }
        MU => Ok(Message::Mu(m.try_into().map_err(|_| Error::BadParameter)?)),
        _ => Err(Error::BadParameter),
    }
}

/// `mldsa_verify_ctx()`, `mldsa_verify_prehash()` and `mldsa_verify_mu()`: verifies `sig`
/// under `key` over the message of kind `kind` (`PURE`, `PREHASH` or `MU`), `m` (M, PH(M)
/// made with `ph`, or mu) and the context string `ctx`.
///
/// # Safety
///
/// `key` must be valid for reads of a `struct mldsa_pubkey` that `mldsa_pubkey_init()` has
/// written (so initialised: any such bytes are a valid `KeyBuf`), `sig`, `m` and `ctx` for
/// reads of their lengths (or be null, which gives `EINVAL` unless the length is 0), none of
/// them written during the call, and `ws` valid for writes of a `struct mldsa_workspace` and
/// used by nothing else during the call.
#[export]
unsafe extern "C" fn mldsa_rust_verify(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    kind: mldsa_rust_msg,
    ph: mldsa_prehash,
    m: *const u8,
    m_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_call(key, ws) {
        return e;
    }
    // SAFETY: As in `mldsa_rust_pubkey_init`, for reads of `key`, and the caller's buffers
    // as the function's safety section says, or empty (`bytes`).
    let r = unsafe {
        let buf = &*key.cast::<KeyBuf>();
        match (bytes(sig, sig_len), bytes(m, m_len), bytes(ctx, ctx_len)) {
            (Ok(sig), Ok(m), Ok(ctx)) => message(kind, ph, &*m, &*ctx).and_then(|msg| {
                on_set!(key_alg(buf.tag), S => {
                    let key = &*buf.key.as_ptr().cast::<PublicKey<S>>();
                    let ws = ws.cast::<Workspace<S>>();
                    ws.write_bytes(0, 1);
                    let (ws, key) = (&mut *ws, VerifyingKey::Decoded(key));
                    mldsa_verify::verify::<S>(ws, key, msg, &*sig)
                })
            }),
            _ => Err(Error::BadParameter),
        }
    };
    to_errno(r)
}

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
