// SPDX-License-Identifier: GPL-2.0

//! The crypto API binding of Linux 6.13 and later: sig algorithms (`struct sig_alg`).
//!
//! `crypto_sig_verify()` hands over the signature and the message as flat buffers, and a
//! sig algorithm has no request context, so the tfm context holds all there is (a [`Ctx`]):
//! the public key, decoded once by `set_pub_key`, a workspace and room for the signature,
//! under a mutex. Verification never allocates; verifications on one tfm run one at a time
//! (a caller that verifies in parallel uses a tfm each, as `public_key_verify_signature()`
//! does).

use crate::mldsa_api::bytes;
use crate::mldsa_verify::{self, PublicKey, Workspace};
use crate::{
    aligned, errno, init_zeroed, padded_size, params_for, set_base, to_errno, MAX_SIG_LEN,
};
use core::ffi::{c_int, c_uint, c_void};
use kernel::prelude::*;
use kernel::{bindings, new_mutex, sync::Mutex};

/// What the module registers.
pub(crate) type Alg = bindings::sig_alg;

/// The kind of algorithm, for the module's log.
pub(crate) const KIND: &str = "sig";

/// The state of a tfm of the set with `K` rows and `L` columns.
pub(crate) struct State<const K: usize, const L: usize> {
    pk: PublicKey<K>,
    /// Whether `pk` holds a key.
    set: bool,
    ws: Workspace<L>,
    /// The signature being verified: the caller's buffer is read once, into here.
    sig: [u8; MAX_SIG_LEN],
}

// SAFETY: All fields are `Zeroable` (`derive(Zeroable)` does not take const generics).
unsafe impl<const K: usize, const L: usize> Zeroable for State<K, L> {}

/// The tfm context.
type Ctx<const K: usize, const L: usize> = Mutex<State<K, L>>;

impl<const K: usize, const L: usize> State<K, L> {
    /// Decodes `pk` (pkDecode, FIPS 204 Algorithm 23, with tr and NTT(t1)); on failure the
    /// state holds no key.
    pub(crate) fn set_key(&mut self, pk: &[u8]) -> Result {
        self.set = false;
        let p = params_for(L);
        if pk.len() != p.pk_len() {
            return Err(EINVAL);
        }
        self.pk.decode(p, &mut self.ws, pk)?;
        self.set = true;
        Ok(())
    }

    /// ML-DSA.Verify (FIPS 204, Algorithm 3) with an empty context string.
    pub(crate) fn verify(&mut self, sig: &[u8], msg: &[u8]) -> Result {
        if !self.set {
            return Err(EINVAL);
        }
        let copy = self
            .sig
            .get_mut(..sig.len())
            .ok_or(errno(bindings::EBADMSG))?;
        copy.copy_from_slice(sig);
        let p = params_for(L);
        Ok(mldsa_verify::verify(
            p,
            &mut self.ws,
            &self.pk,
            msg,
            &[],
            copy,
        )?)
    }
}

/// The context of `tfm`.
///
/// # Safety
///
/// `tfm` must be a tfm of the algorithm [`alg::<K, L>`] made, between its `init` and `exit`.
unsafe fn ctx<'a, const K: usize, const L: usize>(tfm: *mut bindings::crypto_sig) -> &'a Ctx<K, L> {
    // SAFETY: `init_tfm` initialized a `Ctx<K, L>` there, which stays until `exit_tfm`.
    unsafe { &*aligned::<Ctx<K, L>>(bindings::crypto_sig_ctx(tfm)) }
}

/// `sig_alg.init`: an empty state, in the tfm context.
unsafe extern "C" fn init_tfm<const K: usize, const L: usize>(
    tfm: *mut bindings::crypto_sig,
) -> c_int {
    let init = new_mutex!(init_zeroed::<State<K, L>>());
    // SAFETY: The crypto API passes a new tfm of this algorithm; its context is
    // `padded_size::<Ctx<K, L>>()` bytes, so the aligned slot holds a `Ctx`, and the tfm does
    // not move before `exit_tfm`.
    unsafe { pin_init::raw_init(aligned::<Ctx<K, L>>(bindings::crypto_sig_ctx(tfm)), init) };
    0
}

/// `sig_alg.exit`: drops the state.
unsafe extern "C" fn exit_tfm<const K: usize, const L: usize>(tfm: *mut bindings::crypto_sig) {
    // SAFETY: The crypto API passes a tfm of this algorithm, which `init_tfm` initialized,
    // for the last time.
    unsafe { core::ptr::drop_in_place(aligned::<Ctx<K, L>>(bindings::crypto_sig_ctx(tfm))) };
}

/// `sig_alg.set_pub_key`.
unsafe extern "C" fn set_pub_key<const K: usize, const L: usize>(
    tfm: *mut bindings::crypto_sig,
    key: *const c_void,
    keylen: c_uint,
) -> c_int {
    // SAFETY: The crypto API passes a tfm of this algorithm, and `keylen` readable bytes at
    // `key`.
    let (ctx, pk) = unsafe { (ctx::<K, L>(tfm), bytes(key.cast(), keylen as usize)) };
    to_errno(ctx.lock().set_key(pk))
}

/// `sig_alg.verify`: the signature in `src`, the message in `digest`.
unsafe extern "C" fn verify<const K: usize, const L: usize>(
    tfm: *mut bindings::crypto_sig,
    src: *const c_void,
    slen: c_uint,
    digest: *const c_void,
    dlen: c_uint,
) -> c_int {
    // SAFETY: The crypto API passes a tfm of this algorithm, `slen` readable bytes at `src`
    // and `dlen` at `digest`.
    let (ctx, sig, msg) = unsafe {
        (
            ctx::<K, L>(tfm),
            bytes(src.cast(), slen as usize),
            bytes(digest.cast(), dlen as usize),
        )
    };
    to_errno(ctx.lock().verify(sig, msg))
}

/// `sig_alg.key_size`: the public key's size in bytes, as `crypto/mldsa.c` gives it.
unsafe extern "C" fn key_size<const L: usize>(_tfm: *mut bindings::crypto_sig) -> c_uint {
    params_for(L).pk_len() as c_uint
}

/// `sig_alg.max_size`: the signature size.
unsafe extern "C" fn max_size<const L: usize>(_tfm: *mut bindings::crypto_sig) -> c_uint {
    params_for(L).sig_len() as c_uint
}

/// `sig_alg.sign`: this module only verifies.
unsafe extern "C" fn sign(
    _tfm: *mut bindings::crypto_sig,
    _src: *const c_void,
    _slen: c_uint,
    _dst: *mut c_void,
    _dlen: c_uint,
) -> c_int {
    errno(bindings::EOPNOTSUPP).to_errno()
}

/// `sig_alg.set_priv_key`: this module only verifies.
unsafe extern "C" fn no_priv_key(
    _tfm: *mut bindings::crypto_sig,
    _key: *const c_void,
    _keylen: c_uint,
) -> c_int {
    errno(bindings::EOPNOTSUPP).to_errno()
}

/// The sig algorithm `name` (e.g. "mldsa65") for the set with `K` rows and `L` columns.
pub(crate) fn alg<const K: usize, const L: usize>(name: &str, module: &ThisModule) -> Alg {
    // SAFETY: `sig_alg` is plain C data for which all-zero bytes are valid: null pointers
    // and `None` callbacks.
    let mut alg: Alg = unsafe { core::mem::zeroed() };
    alg.verify = Some(verify::<K, L>);
    alg.set_pub_key = Some(set_pub_key::<K, L>);
    alg.key_size = Some(key_size::<L>);
    alg.max_size = Some(max_size::<L>);
    alg.init = Some(init_tfm::<K, L>);
    alg.exit = Some(exit_tfm::<K, L>);
    alg.sign = Some(sign);
    alg.set_priv_key = Some(no_priv_key);
    set_base(&mut alg.base, name, padded_size::<Ctx<K, L>>(), module);
    alg
}

/// Registers `alg`.
///
/// # Safety
///
/// `alg` must point to an initialized `sig_alg` that stays put until it is unregistered.
pub(crate) unsafe fn register(alg: *mut Alg) -> c_int {
    // SAFETY: The caller's guarantee.
    unsafe { bindings::crypto_register_sig(alg) }
}

/// Unregisters `alg`.
///
/// # Safety
///
/// `alg` must have been registered by [`register`], and not unregistered since.
pub(crate) unsafe fn unregister(alg: *mut Alg) {
    // SAFETY: The caller's guarantee.
    unsafe { bindings::crypto_unregister_sig(alg) }
}
