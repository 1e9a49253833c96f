// SPDX-License-Identifier: GPL-2.0

//! How the cases call the verifier: a tfm of the crypto API (on 6.12 akcipher requests with
//! scatterlists, on 7.x `kernel::crypto::sig::Sig`), and the library calls of
//! `<crypto/mldsa.h>` as C makes them.

use super::*;
#[cfg(linux_6_12)]
use core::ptr::null_mut;
#[cfg(linux_6_12)]
use kernel::error::from_err_ptr;

/// `mldsa_verify()` of `<crypto/mldsa.h>`, called as C calls it.
pub(super) fn lib_verify(alg: bindings::mldsa_alg, sig: &[u8], msg: &[u8], pk: &[u8]) -> c_int {
    // SAFETY: The inputs are readable for the lengths given.
    unsafe {
        bindings::mldsa_verify(
            alg,
            sig.as_ptr(),
            sig.len(),
            msg.as_ptr(),
            msg.len(),
            pk.as_ptr(),
            pk.len(),
        )
    }
}

/// `mldsa_verify_noalloc()` in `buf`, called as C calls it.
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
pub(super) fn lib_verify_noalloc(
    buf: &mut core::mem::MaybeUninit<bindings::mldsa_verify_buf>,
    alg: bindings::mldsa_alg,
    sig: &[u8],
    msg: &[u8],
    pk: &[u8],
) -> c_int {
    // SAFETY: `buf` is writable memory of the right type and alignment, which the call
    // needs no more of; the inputs are readable for the lengths given.
    unsafe {
        bindings::mldsa_verify_noalloc(
            buf.as_mut_ptr(),
            alg,
            sig.as_ptr(),
            sig.len(),
            msg.as_ptr(),
            msg.len(),
            pk.as_ptr(),
            pk.len(),
        )
    }
}

/// An akcipher tfm, freed on drop.
#[cfg(linux_6_12)]
pub(super) struct Tfm(*mut bindings::crypto_akcipher);

#[cfg(linux_6_12)]
impl Tfm {
    pub(super) fn alloc(name: &CStr) -> Result<Self> {
        // SAFETY: `name` is a NUL-terminated string.
        let tfm = unsafe { bindings::crypto_alloc_akcipher(name.as_ptr().cast(), 0, 0) };
        Ok(Self(from_err_ptr(tfm)?))
    }

    pub(super) fn set_pub_key(&mut self, pk: &[u8]) -> c_int {
        // SAFETY: `self.0` is a live tfm; `pk` is readable for `pk.len()` bytes.
        unsafe { bindings::crypto_akcipher_set_pub_key(self.0, pk.as_ptr().cast(), pk.len() as _) }
    }

    /// Verifies with the signature and message laid out in a scatterlist with one entry per
    /// piece of `pieces` (each piece copied to its own heap buffer, at an odd address), as a
    /// 6.12 caller does:
    /// `src_len` = `sig_len`, `dst_len` = `msg_len`.
    pub(super) fn verify_sg(&self, pieces: &[&[u8]], sig_len: usize, msg_len: usize) -> c_int {
        // SAFETY: `req` is a prepared request on this tfm.
        self.with_request(pieces, sig_len, msg_len, |req| unsafe {
            bindings::crypto_akcipher_verify(req)
        })
    }

    /// Runs `f` on a verification request laid out as [`Tfm::verify_sg`] describes.
    pub(super) fn with_request(
        &self,
        pieces: &[&[u8]],
        sig_len: usize,
        msg_len: usize,
        f: impl FnOnce(*mut bindings::akcipher_request) -> c_int,
    ) -> c_int {
        let mut bufs = KVec::new();
        let mut sg = KVec::new();
        for piece in pieces {
            // At an odd address: one byte before the piece.
            let mut b = KVec::with_capacity(piece.len() + 1, GFP_KERNEL).unwrap();
            b.push(0, GFP_KERNEL).unwrap();
            b.extend_from_slice(piece, GFP_KERNEL).unwrap();
            bufs.push(b, GFP_KERNEL).unwrap();
            // SAFETY: All-zero bytes are a valid `scatterlist`; `sg_init_table` sets it up.
            let entry: bindings::scatterlist = unsafe { core::mem::zeroed() };
            sg.push(entry, GFP_KERNEL).unwrap();
        }
        // SAFETY: `sg` holds `pieces.len()` entries; each `sg_set_buf` points at a live heap
        // buffer, which outlives the request. The request is allocated on `self.0`, used
        // synchronously (ML-DSA never returns -EINPROGRESS) and freed here.
        unsafe {
            bindings::sg_init_table(sg.as_mut_ptr(), pieces.len() as _);
            for (i, b) in bufs.iter().enumerate() {
                let (at, len) = (b.as_ptr().add(1), b.len() - 1);
                bindings::sg_set_buf(sg.as_mut_ptr().add(i), at.cast(), len as _);
            }
            let req = bindings::akcipher_request_alloc(self.0, bindings::GFP_KERNEL);
            if req.is_null() {
                return ENOMEM.to_errno();
            }
            bindings::akcipher_request_set_crypt(
                req,
                sg.as_mut_ptr(),
                null_mut(),
                sig_len as _,
                msg_len as _,
            );
            let rc = f(req);
            bindings::akcipher_request_free(req);
            rc
        }
    }

    /// Verifies `sig` over `msg`, in a two-entry scatterlist.
    pub(super) fn verify(&self, sig: &[u8], msg: &[u8]) -> c_int {
        self.verify_sg(&[sig, msg], sig.len(), msg.len())
    }

    pub(super) fn max_size(&self) -> u32 {
        // SAFETY: `self.0` is a live tfm.
        unsafe { bindings::crypto_akcipher_maxsize(self.0) }
    }
}

#[cfg(linux_6_12)]
impl Drop for Tfm {
    fn drop(&mut self) {
        // SAFETY: `self.0` came from `crypto_alloc_akcipher` and is freed only here.
        unsafe { bindings::crypto_free_akcipher(self.0) };
    }
}

/// `r` as a C return code.
#[cfg(not(linux_6_12))]
pub(super) fn to_c(r: Result) -> c_int {
    r.map_or_else(|e| e.to_errno(), |()| 0)
}

/// A tfm of the sig API (`kernel::crypto::sig::Sig`), with results as C return codes.
#[cfg(not(linux_6_12))]
pub(super) struct Tfm(kernel::crypto::sig::Sig);

#[cfg(not(linux_6_12))]
impl Tfm {
    pub(super) fn alloc(name: &CStr) -> Result<Self> {
        kernel::crypto::sig::Sig::new(name).map(Self)
    }

    pub(super) fn set_pub_key(&mut self, pk: &[u8]) -> c_int {
        to_c(self.0.set_pub_key(pk))
    }

    /// Verifies `sig` over `msg`.
    pub(super) fn verify(&self, sig: &[u8], msg: &[u8]) -> c_int {
        to_c(self.0.verify(sig, msg))
    }

    pub(super) fn max_size(&self) -> u32 {
        self.0.max_size()
    }

    /// The driver that serves the tfm.
    pub(super) fn driver_name(&self) -> &CStr {
        self.0.driver_name()
    }
}

/// A tfm for `name` with the key of `k` set, or a failed case.
macro_rules! tfm_with_key {
    ($name:expr, $k:expr) => {{
        let tfm = Tfm::alloc($name);
        check!(tfm.is_ok());
        let mut tfm = tfm.unwrap();
        check!(tfm.set_pub_key($k.pk) == 0);
        tfm
    }};
}
