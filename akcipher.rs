// SPDX-License-Identifier: GPL-2.0

//! The crypto API binding of Linux 6.12: akcipher algorithms.
//!
//! The akcipher interface of 6.12 carries, for a verification, the signature and then the
//! message in `req->src` (`src_len` is the signature length, `dst_len` the message length),
//! which is also how `crypto_sig_verify()` calls it. The message is streamed from the
//! scatterlist into SHAKE256, and all per-request state (a [`Request`]) lives in the
//! request context: verification never allocates. The public key is decoded once, by
//! `set_pub_key`, into the tfm context (a [`Key`]).

use crate::mldsa_api::bytes;
use crate::mldsa_verify::{self, PublicKey, Workspace};
use crate::shake::Shake;
use crate::{
    aligned, errno, init_zeroed, padded_size, params_for, set_base, to_errno, MAX_SIG_LEN,
};
use core::ffi::{c_int, c_uint, c_void};
use kernel::bindings;
use kernel::init::Zeroable;
use kernel::prelude::*;

/// What the module registers.
pub(crate) type Alg = bindings::akcipher_alg;

/// The kind of algorithm, for the module's log.
pub(crate) const KIND: &str = "akcipher";

/// The tfm context: the public key of a set with `K` rows, decoded when it is set.
struct Key<const K: usize> {
    pk: PublicKey<K>,
    /// Whether `pk` holds a key.
    set: bool,
}

// SAFETY: All fields are `Zeroable` (`derive(Zeroable)` does not take const generics).
unsafe impl<const K: usize> Zeroable for Key<K> {}

/// The request context: everything one verification needs.
struct Request<const L: usize> {
    ws: Workspace<L>,
    sig: [u8; MAX_SIG_LEN],
}

// SAFETY: All fields are `Zeroable`.
unsafe impl<const L: usize> Zeroable for Request<L> {}

impl<const K: usize> Key<K> {
    /// Decodes `pk`, a public key of the set with `L` columns; the workspace it needs for
    /// that is allocated for the call.
    fn set<const L: usize>(&mut self, pk: &[u8]) -> Result {
        self.set = false;
        if pk.len() != params_for(L).pk_len() {
            return Err(EINVAL);
        }
        let mut ws = KBox::<Workspace<L>>::init(init_zeroed(), GFP_KERNEL)?;
        self.pk.decode(params_for(L), &mut ws, pk)?;
        self.set = true;
        Ok(())
    }

    /// ML-DSA.Verify (FIPS 204, Algorithm 3) with an empty context string, of the first
    /// `sig_len` bytes of `r.sig`; `absorb_msg` feeds the message to SHAKE256.
    fn verify<const L: usize>(
        &self,
        r: &mut Request<L>,
        sig_len: usize,
        absorb_msg: impl FnOnce(&mut Shake) -> Result,
    ) -> Result {
        if !self.set {
            return Err(EINVAL);
        }
        let sig = r.sig.get(..sig_len).ok_or(errno(bindings::EBADMSG))?;
        absorb_msg(r.ws.absorb_mu_prefix(&self.pk, &[])?)?;
        let p = params_for(L);
        Ok(mldsa_verify::verify_mu_absorbed(
            p, &mut r.ws, &self.pk, sig,
        )?)
    }
}

/// A key and a request context together: what the self-test verifies with, on the code
/// paths of `set_pub_key` and `verify`.
pub(crate) struct State<const K: usize, const L: usize> {
    key: Key<K>,
    req: Request<L>,
}

// SAFETY: All fields are `Zeroable`.
unsafe impl<const K: usize, const L: usize> Zeroable for State<K, L> {}

impl<const K: usize, const L: usize> State<K, L> {
    /// Decodes `pk` as `set_pub_key` does.
    pub(crate) fn set_key(&mut self, pk: &[u8]) -> Result {
        self.key.set::<L>(pk)
    }

    /// Verifies `sig` over `msg` as `verify` does, from flat buffers.
    pub(crate) fn verify(&mut self, sig: &[u8], msg: &[u8]) -> Result {
        let copy = self
            .req
            .sig
            .get_mut(..sig.len())
            .ok_or(errno(bindings::EBADMSG))?;
        copy.copy_from_slice(sig);
        self.key.verify(&mut self.req, sig.len(), |h| {
            h.update(msg);
            Ok(())
        })
    }
}

/// Feeds `len` bytes of `sgl`, from byte `skip` on, to `f`, one mapped piece at a time.
/// Fails with `EINVAL` if the scatterlist holds fewer bytes.
///
/// # Safety
///
/// `sgl` must be a valid scatterlist that stays valid and unchanged during the call.
unsafe fn sg_for_each(
    sgl: *mut bindings::scatterlist,
    skip: usize,
    mut len: usize,
    mut f: impl FnMut(&[u8]),
) -> Result {
    let mut miter = core::mem::MaybeUninit::<bindings::sg_mapping_iter>::uninit();
    let miter = miter.as_mut_ptr();
    let flags = bindings::SG_MITER_ATOMIC | bindings::SG_MITER_FROM_SG;
    // SAFETY: `sgl` is a valid scatterlist (function safety requirement) and `miter` points to
    // memory that `sg_miter_start()` initializes.
    unsafe { bindings::sg_miter_start(miter, sgl, bindings::sg_nents(sgl) as c_uint, flags) };
    // SAFETY: `miter` was started above.
    let skipped = unsafe { bindings::sg_miter_skip(miter, skip as _) };
    // SAFETY: `miter` was started above.
    while skipped && len > 0 && unsafe { bindings::sg_miter_next(miter) } {
        // SAFETY: After a successful `sg_miter_next()`, `addr` maps `length` readable bytes
        // until the next call on `miter`; we use them only in this iteration.
        let piece = unsafe {
            let n = len.min((*miter).length);
            core::slice::from_raw_parts((*miter).addr as *const u8, n)
        };
        f(piece);
        len -= piece.len();
    }
    // SAFETY: `miter` was started above; this releases the last mapping.
    unsafe { bindings::sg_miter_stop(miter) };
    if len == 0 {
        Ok(())
    } else {
        Err(EINVAL)
    }
}

/// `akcipher_alg.init`: sizes the request context.
unsafe extern "C" fn init_tfm<const L: usize>(tfm: *mut bindings::crypto_akcipher) -> c_int {
    // SAFETY: The crypto API passes a valid tfm of this algorithm.
    unsafe { bindings::akcipher_set_reqsize(tfm, padded_size::<Request<L>>()) };
    0
}

/// `akcipher_alg.set_pub_key`.
unsafe extern "C" fn set_pub_key<const K: usize, const L: usize>(
    tfm: *mut bindings::crypto_akcipher,
    key: *const c_void,
    keylen: c_uint,
) -> c_int {
    // SAFETY: The tfm context is `cra_ctxsize = size_of::<Key<K>>()` bytes, zeroed when the
    // tfm was allocated and suitably aligned (`CRYPTO_MINALIGN`), and the crypto API does
    // not run other operations on the tfm while its key is being set.
    let k = unsafe { &mut *bindings::akcipher_tfm_ctx(tfm).cast::<Key<K>>() };
    // SAFETY: The caller passes `keylen` readable bytes at `key`.
    let pk = unsafe { bytes(key.cast(), keylen as usize) };
    to_errno(k.set::<L>(pk))
}

/// `akcipher_alg.verify`: the signature then the message in `req->src`.
unsafe extern "C" fn verify<const K: usize, const L: usize>(
    req: *mut bindings::akcipher_request,
) -> c_int {
    // SAFETY: The crypto API passes a valid request on a tfm of this algorithm. Its tfm
    // context is a `Key<K>` (see `set_pub_key`), only read here. Its request context is
    // `padded_size::<Request<L>>()` bytes (`init_tfm`), ours alone during the call, so a
    // `Request<L>` fits at its first suitably aligned byte; zeroing it first makes it a valid
    // `Request`.
    let (k, r, src, sig_len, msg_len) = unsafe {
        let tfm = bindings::crypto_akcipher_reqtfm(req);
        let r = aligned::<Request<L>>(bindings::akcipher_request_ctx(req));
        r.write_bytes(0, 1);
        let k = &*bindings::akcipher_tfm_ctx(tfm).cast::<Key<K>>();
        (
            k,
            &mut *r,
            (*req).src,
            (*req).src_len as usize,
            (*req).dst_len as usize,
        )
    };
    if sig_len != params_for(L).sig_len() {
        return errno(bindings::EBADMSG).to_errno();
    }
    let mut n = 0;
    // SAFETY: `src` is the request's valid scatterlist, unchanged while we run.
    let result = unsafe {
        sg_for_each(src, 0, sig_len, |piece| {
            r.sig[n..n + piece.len()].copy_from_slice(piece);
            n += piece.len();
        })
    }
    .and_then(|()| {
        k.verify(r, sig_len, |h| {
            // SAFETY: As above.
            unsafe { sg_for_each(src, sig_len, msg_len, |piece| h.update(piece)) }
        })
    });
    to_errno(result)
}

/// `akcipher_alg.max_size`: the signature size.
unsafe extern "C" fn max_size<const L: usize>(_tfm: *mut bindings::crypto_akcipher) -> c_uint {
    params_for(L).sig_len() as c_uint
}

/// `sign`, `encrypt` and `decrypt`: this module only verifies.
unsafe extern "C" fn unsupported(_req: *mut bindings::akcipher_request) -> c_int {
    errno(bindings::EOPNOTSUPP).to_errno()
}

/// `set_priv_key`: this module only verifies.
unsafe extern "C" fn no_priv_key(
    _tfm: *mut bindings::crypto_akcipher,
    _key: *const c_void,
    _keylen: c_uint,
) -> c_int {
    errno(bindings::EOPNOTSUPP).to_errno()
}

/// The akcipher algorithm `name` (e.g. "mldsa65") for the set with `K` rows and `L` columns.
pub(crate) fn alg<const K: usize, const L: usize>(name: &str, module: &ThisModule) -> Alg {
    // SAFETY: `akcipher_alg` is plain C data for which all-zero bytes are valid: null
    // pointers and `None` callbacks.
    let mut alg: Alg = unsafe { core::mem::zeroed() };
    alg.verify = Some(verify::<K, L>);
    alg.set_pub_key = Some(set_pub_key::<K, L>);
    alg.max_size = Some(max_size::<L>);
    alg.init = Some(init_tfm::<L>);
    alg.sign = Some(unsupported);
    alg.encrypt = Some(unsupported);
    alg.decrypt = Some(unsupported);
    alg.set_priv_key = Some(no_priv_key);
    set_base(&mut alg.base, name, size_of::<Key<K>>() as c_uint, module);
    alg
}

/// Registers `alg`.
///
/// # Safety
///
/// `alg` must point to an initialized `akcipher_alg` that stays put until it is unregistered.
pub(crate) unsafe fn register(alg: *mut Alg) -> c_int {
    // SAFETY: The caller's guarantee.
    unsafe { bindings::crypto_register_akcipher(alg) }
}

/// Unregisters `alg`.
///
/// # Safety
///
/// `alg` must have been registered by [`register`], and not unregistered since.
pub(crate) unsafe fn unregister(alg: *mut Alg) {
    // SAFETY: The caller's guarantee.
    unsafe { bindings::crypto_unregister_akcipher(alg) }
}
