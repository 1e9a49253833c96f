// SPDX-License-Identifier: GPL-2.0

//! The library interface of `<crypto/mldsa.h>` (tools/patches/0007), for C callers:
//! Linux 7.0's `mldsa_verify()`, and the calls that never allocate, under a public key
//! decoded once, with a context string, a pre-hash (HashML-DSA) or an external mu.
//! `exports.c` exports them.
//!
//! The calls fail with `ELIBBAD` until the module's self-tests have passed ([`enable`]).
//!
//! `struct mldsa_pubkey` holds a [`KeyBuf`] and `struct mldsa_workspace` a [`Workspace`], of
//! the set the key was decoded for; both C types are sized for ML-DSA-87, and the
//! assertions below check that they are large enough.

use crate::mldsa_verify::{self, Error, PreHash, PublicKey, Workspace};
use crate::params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use core::ffi::c_int;
use core::mem::{align_of, size_of};
use core::ptr::addr_of_mut;
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::alloc::{flags::GFP_KERNEL, KVBox};
use kernel::bindings::{self, mldsa_alg, mldsa_prehash, mldsa_pubkey, mldsa_workspace};

/// Whether the self-tests have passed.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Lets the calls run: the module's init calls this once the self-tests have passed.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Release);
}

/// `ELIBBAD` unless [`enable`] was called.
fn check_enabled() -> Result<(), c_int> {
    if ENABLED.load(Ordering::Acquire) {
        Ok(())
    } else {
        Err(kernel::error::code::ELIBBAD.to_errno())
    }
}

/// What a `struct mldsa_pubkey` holds.
#[repr(C)]
struct KeyBuf {
    /// The key's `enum mldsa_alg` plus one; 0 while it holds no key.
    alg: u64,
    /// A `PublicKey<K>` of that set.
    key: [u8; size_of::<PublicKey<8>>()],
}

const _: () = assert!(size_of::<KeyBuf>() <= size_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<KeyBuf>() <= align_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<PublicKey<8>>() <= align_of::<u64>());
const _: () = assert!(size_of::<Workspace<7>>() <= size_of::<mldsa_workspace>());
const _: () = assert!(align_of::<Workspace<7>>() <= align_of::<mldsa_workspace>());

/// What is verified, besides the signature.
#[derive(Clone, Copy)]
enum Message<'a> {
    /// ML-DSA.Verify (Algorithm 3): M and a context string.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// HashML-DSA.Verify (Algorithm 5): PH(M), its function and a context string.
    PreHash {
        ph: PreHash,
        phm: &'a [u8],
        ctx: &'a [u8],
    },
    /// External mu (Algorithm 8 from line 7 on).
    Mu(&'a [u8; 64]),
}

/// The `len` bytes at `ptr`; `ptr` may be null when `len` is 0.
///
/// # Safety
///
/// If `len` is not 0, `ptr` must be valid for reads of `len` bytes during `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: See the function's safety requirement.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// `ws`, zeroed, as the workspace of the set with `L` columns.
///
/// # Safety
///
/// `ws` must be valid for writes of a `struct mldsa_workspace` and used by nothing else
/// during `'a`.
unsafe fn workspace<'a, const L: usize>(ws: *mut mldsa_workspace) -> &'a mut Workspace<L> {
    // SAFETY: `ws` is large and aligned enough for any `Workspace` (see the assertions
    // above) and ours during `'a`; all-zero bytes are a valid `Workspace`.
    unsafe {
        ws.write_bytes(0, 1);
        &mut *ws.cast::<Workspace<L>>()
    }
}

/// The result of a verification as a C return code.
fn to_errno(r: Result<(), Error>) -> c_int {
    match r {
        Ok(()) => 0,
        Err(e) => kernel::error::Error::from(e).to_errno(),
    }
}

/// Decodes `pk` of the set `p` (`K` rows, `L` columns) into `key`.
///
/// # Safety
///
/// As for [`workspace`].
unsafe fn decode<const K: usize, const L: usize>(
    p: &Params,
    key: &mut KeyBuf,
    pk: &[u8],
    ws: *mut mldsa_workspace,
) -> Result<(), Error> {
    // SAFETY: `key.key` is large enough for a `PublicKey<8>`, hence a `PublicKey<K>`, and
    // aligned enough (assertions above); any bytes are a valid `PublicKey`.
    let k = unsafe { &mut *key.key.as_mut_ptr().cast::<PublicKey<K>>() };
    // SAFETY: The caller's guarantee for `ws`.
    k.decode(p, unsafe { workspace::<L>(ws) }, pk)
}

/// Verifies `sig` and `m` under `key`, decoded for the set `p` (`K` rows, `L` columns).
///
/// # Safety
///
/// As for [`workspace`].
unsafe fn verify<const K: usize, const L: usize>(
    p: &Params,
    key: &KeyBuf,
    sig: &[u8],
    m: Message<'_>,
    ws: *mut mldsa_workspace,
) -> Result<(), Error> {
    // SAFETY: As in `decode`; `key.alg` says that the bytes are a `PublicKey<K>`.
    let key = unsafe { &*key.key.as_ptr().cast::<PublicKey<K>>() };
    // SAFETY: The caller's guarantee for `ws`.
    let ws = unsafe { workspace::<L>(ws) };
    match m {
        Message::Pure { msg, ctx } => mldsa_verify::verify(p, ws, key, msg, ctx, sig),
        Message::PreHash { ph, phm, ctx } => {
            mldsa_verify::verify_prehash(p, ws, key, ph, phm, ctx, sig)
        }
        Message::Mu(mu) => mldsa_verify::verify_mu(p, ws, key, mu, sig),
    }
}

/// `mldsa_pubkey_init()`.
///
/// # Safety
///
/// `key` must be valid for writes of a `struct mldsa_pubkey`, `pk` for reads of `pk_len`
/// bytes and `ws` as for [`workspace`], none of them used by anything else during the call.
#[no_mangle]
unsafe extern "C" fn mldsa_pubkey_init(
    key: *mut mldsa_pubkey,
    alg: mldsa_alg,
    pk: *const u8,
    pk_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_enabled() {
        return e;
    }
    // SAFETY: `key` is large and aligned enough for a `KeyBuf` (assertions above) and ours;
    // all-zero bytes are a valid `KeyBuf`, which holds no key.
    let buf = unsafe {
        key.write_bytes(0, 1);
        &mut *key.cast::<KeyBuf>()
    };
    // SAFETY: The caller's guarantees.
    let pk = unsafe { bytes(pk, pk_len) };
    // SAFETY: The caller's guarantee for `ws`.
    let r = unsafe {
        match alg {
            bindings::mldsa_alg_MLDSA44 => decode::<4, 4>(&ML_DSA_44, buf, pk, ws),
            bindings::mldsa_alg_MLDSA65 => decode::<6, 5>(&ML_DSA_65, buf, pk, ws),
            bindings::mldsa_alg_MLDSA87 => decode::<8, 7>(&ML_DSA_87, buf, pk, ws),
            _ => Err(Error::Inval),
        }
    };
    if r.is_ok() {
        buf.alg = u64::from(alg) + 1;
    }
    to_errno(r)
}

/// Verifies `sig` and `m` under the decoded key `key`.
///
/// # Safety
///
/// `key` must point to a `struct mldsa_pubkey` set by [`mldsa_pubkey_init`], `sig` be valid
/// for reads of `sig_len` bytes, and `ws` as for [`workspace`], none of them changed by
/// anything else during the call.
unsafe fn verify_under(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    m: Message<'_>,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_enabled() {
        return e;
    }
    // SAFETY: `key` holds a `KeyBuf`, initialized by `mldsa_pubkey_init()`.
    let key = unsafe { &*key.cast::<KeyBuf>() };
    // SAFETY: The caller's guarantees.
    let sig = unsafe { bytes(sig, sig_len) };
    // SAFETY: `key.alg` is the set of the `PublicKey` in `key`; the caller's guarantee for
    // `ws`.
    let r = unsafe {
        match key.alg.wrapping_sub(1) as mldsa_alg {
            bindings::mldsa_alg_MLDSA44 => verify::<4, 4>(&ML_DSA_44, key, sig, m, ws),
            bindings::mldsa_alg_MLDSA65 => verify::<6, 5>(&ML_DSA_65, key, sig, m, ws),
            bindings::mldsa_alg_MLDSA87 => verify::<8, 7>(&ML_DSA_87, key, sig, m, ws),
            _ => Err(Error::Inval),
        }
    };
    to_errno(r)
}

/// `mldsa_verify_ctx()`.
///
/// # Safety
///
/// As for [`verify_under`]; `msg` and `ctx` must be valid for reads of `msg_len` and
/// `ctx_len` bytes.
#[no_mangle]
unsafe extern "C" fn mldsa_verify_ctx(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    msg: *const u8,
    msg_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    // SAFETY: The caller's guarantees.
    unsafe {
        let (msg, ctx) = (bytes(msg, msg_len), bytes(ctx, ctx_len));
        verify_under(key, sig, sig_len, Message::Pure { msg, ctx }, ws)
    }
}

/// `mldsa_verify_prehash()`.
///
/// # Safety
///
/// As for [`verify_under`]; `phm` and `ctx` must be valid for reads of `phm_len` and
/// `ctx_len` bytes.
#[no_mangle]
unsafe extern "C" fn mldsa_verify_prehash(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    ph: mldsa_prehash,
    phm: *const u8,
    phm_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    let ph = match ph {
        bindings::mldsa_prehash_MLDSA_SHA256 => PreHash::Sha2_256,
        bindings::mldsa_prehash_MLDSA_SHA384 => PreHash::Sha2_384,
        bindings::mldsa_prehash_MLDSA_SHA512 => PreHash::Sha2_512,
        bindings::mldsa_prehash_MLDSA_SHA3_256 => PreHash::Sha3_256,
        bindings::mldsa_prehash_MLDSA_SHA3_512 => PreHash::Sha3_512,
        bindings::mldsa_prehash_MLDSA_SHAKE128 => PreHash::Shake128,
        bindings::mldsa_prehash_MLDSA_SHAKE256 => PreHash::Shake256,
        _ => return to_errno(Err(Error::Inval)),
    };
    // SAFETY: The caller's guarantees.
    unsafe {
        let (phm, ctx) = (bytes(phm, phm_len), bytes(ctx, ctx_len));
        verify_under(key, sig, sig_len, Message::PreHash { ph, phm, ctx }, ws)
    }
}

/// `mldsa_verify_mu()`.
///
/// # Safety
///
/// As for [`verify_under`]; `mu` must be valid for reads of 64 bytes.
#[no_mangle]
unsafe extern "C" fn mldsa_verify_mu(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    mu: *const [u8; 64],
    ws: *mut mldsa_workspace,
) -> c_int {
    // SAFETY: The caller's guarantees.
    unsafe { verify_under(key, sig, sig_len, Message::Mu(&*mu), ws) }
}

/// `mldsa_verify_noalloc()`.
///
/// # Safety
///
/// `buf` must be valid for writes of a `struct mldsa_verify_buf` and used by nothing else
/// during the call; `sig`, `msg` and `pk` valid for reads of their lengths.
#[no_mangle]
pub(crate) unsafe extern "C" fn mldsa_verify_noalloc(
    buf: *mut bindings::mldsa_verify_buf,
    alg: mldsa_alg,
    sig: *const u8,
    sig_len: usize,
    msg: *const u8,
    msg_len: usize,
    pk: *const u8,
    pk_len: usize,
) -> c_int {
    // SAFETY: The caller's guarantees; the key and the workspace are distinct fields of
    // `buf`.
    unsafe {
        let (key, ws) = (addr_of_mut!((*buf).key), addr_of_mut!((*buf).ws));
        match mldsa_pubkey_init(key, alg, pk, pk_len, ws) {
            0 => mldsa_verify_ctx(key, sig, sig_len, msg, msg_len, core::ptr::null(), 0, ws),
            e => e,
        }
    }
}

/// `mldsa_verify()`, as in Linux 7.0: allocates a `struct mldsa_verify_buf` for the call.
/// On Linux 7.x, unless `lib/crypto/mldsa.c` provides it instead.
///
/// # Safety
///
/// `sig`, `msg` and `pk` must be valid for reads of their lengths during the call.
#[cfg(not(CONFIG_CRYPTO_LIB_MLDSA_GENERIC))]
#[no_mangle]
unsafe extern "C" fn mldsa_verify(
    alg: mldsa_alg,
    sig: *const u8,
    sig_len: usize,
    msg: *const u8,
    msg_len: usize,
    pk: *const u8,
    pk_len: usize,
) -> c_int {
    let Ok(mut buf) = KVBox::<bindings::mldsa_verify_buf>::new_uninit(GFP_KERNEL) else {
        return kernel::error::code::ENOMEM.to_errno();
    };
    // SAFETY: `buf` is ours and large enough; `mldsa_verify_noalloc` only writes it before
    // reading. The caller's guarantees for the rest.
    unsafe {
        mldsa_verify_noalloc(
            buf.as_mut_ptr(),
            alg,
            sig,
            sig_len,
            msg,
            msg_len,
            pk,
            pk_len,
        )
    }
}

/// `mldsa_use_hint()`, which Linux 7.x exports for its KUnit suite only: UseHint (FIPS 204,
/// Algorithm 40) of `r`, taken mod q, with hint bit `h` (0 or not), for gamma2 = (q - 1) / 32
/// or else (q - 1) / 88.
#[cfg(all(CONFIG_CRYPTO_LIB_MLDSA_RUST, CONFIG_CRYPTO_LIB_MLDSA_KUNIT_TEST))]
#[no_mangle]
extern "C" fn mldsa_use_hint(h: u8, r: i32, gamma2: i32) -> i32 {
    use crate::params::Q;
    let gamma2 = if gamma2 == (Q - 1) / 32 {
        gamma2
    } else {
        (Q - 1) / 88
    };
    mldsa_verify::use_hint(gamma2, r.rem_euclid(Q), h != 0)
}
