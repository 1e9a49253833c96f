// SPDX-License-Identifier: GPL-2.0

//! ML-DSA (FIPS 204) signature verification for the kernel crypto API.
//!
//! This file is the crate root and the whole kernel binding: the SHAKE seam over the
//! kernel's SHAKE library, the arch seam over the AVX2 routines of `arch/x86/`, the akcipher
//! algorithms `mldsa44`, `mldsa65` and `mldsa87`, and the module, which runs the
//! known-answer self-tests (`selftest.rs`) before it registers anything. The algorithm
//! itself (`params`, `ntt`, `keccak`, `mldsa_verify`) is plain Rust, built and tested on the
//! host as well (tools/host).
//!
//! The akcipher interface of 6.12 carries, for a verification, the signature and then the
//! message in `req->src` (`src_len` is the signature length, `dst_len` the message length),
//! which is also how `crypto_sig_verify()` calls it. The message is streamed from the
//! scatterlist into SHAKE256, and all per-request state (a [`Request`]) lives in the
//! request context: verification never allocates.

use core::ffi::{c_int, c_uint, c_void};
use core::mem::size_of;
use kernel::init::{zeroed, Zeroable};
use kernel::prelude::*;
use kernel::{bindings, error::to_result, init::pin_init_from_closure, types::Opaque};
use mldsa_verify::{PublicKey, Workspace};
use params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use shake::Shake;

// The core's items are public API for the host harness (tools/host), where the same files
// are built; here they are private modules and the binding does not use every item.
#[allow(dead_code, unreachable_pub)]
mod keccak;
#[allow(dead_code, unreachable_pub)]
mod mldsa_verify;
#[allow(dead_code, unreachable_pub)]
mod ntt;
#[allow(dead_code, unreachable_pub)]
mod params;

mod mldsa_api;
mod selftest;

#[cfg(CONFIG_CRYPTO_MLDSA_KUNIT_TEST)]
mod kunit_tests;

module! {
    type: MlDsaModule,
    name: "mldsa",
    author: "ML-DSA kernel module authors",
    description: "ML-DSA (FIPS 204) signature verification",
    license: "GPL",
    // MODULE_ALIAS_CRYPTO() for each algorithm and driver name.
    alias: [
        "crypto-mldsa44", "mldsa44", "crypto-mldsa44-rust", "mldsa44-rust",
        "crypto-mldsa65", "mldsa65", "crypto-mldsa65-rust", "mldsa65-rust",
        "crypto-mldsa87", "mldsa87", "crypto-mldsa87-rust", "mldsa87-rust",
    ],
}

/// The core's SHAKE seam (`crate::shake::Shake`), over the kernel's SHAKE library.
#[allow(unreachable_pub)]
mod shake {
    use kernel::bindings;

    /// A SHAKE context: the kernel's `struct shake_ctx`.
    pub struct Shake(bindings::shake_ctx);

    impl Shake {
        /// An all-zero context; `init256` starts it.
        pub const fn new() -> Self {
            // SAFETY: `shake_ctx` is made of integers only, so all-zero bytes are valid.
            Self(unsafe { core::mem::zeroed() })
        }

        /// Starts SHAKE256.
        pub fn init256(&mut self) {
            // SAFETY: `self.0` is a `shake_ctx` we have exclusive access to.
            unsafe { bindings::shake256_init(&mut self.0) }
        }

        /// Absorbs `data`.
        pub fn update(&mut self, data: &[u8]) {
            // SAFETY: `self.0` is ours; `data` is valid for reads of `data.len()` bytes.
            unsafe { bindings::shake_update(&mut self.0, data.as_ptr(), data.len()) }
        }

        /// Squeezes `out.len()` bytes into `out`.
        pub fn squeeze(&mut self, out: &mut [u8]) {
            // SAFETY: `self.0` is ours; `out` is valid for writes of `out.len()` bytes.
            unsafe { bindings::shake_squeeze(&mut self.0, out.as_mut_ptr(), out.len()) }
        }
    }
}

/// The core's arch seam (`crate::arch`): the AVX2 routines of `arch/x86/` where the CPU has
/// AVX2 and the FPU is usable in the calling context, the portable code otherwise. Each
/// call is its own short FPU section (one NTT or one 4-way permutation), so preemption is
/// never held off for long.
#[allow(unreachable_pub)]
mod arch {
    use crate::keccak::{keccak_f1600, StateX4};
    use crate::mldsa_verify::PackedPoly;
    use crate::ntt::{self, Poly};
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    use crate::params::Q;

    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    pub(crate) mod avx2 {
        use core::sync::atomic::{AtomicBool, Ordering::Relaxed};
        use kernel::bindings;

        extern "C" {
            pub(crate) fn mldsa_ntt_avx2(a: *mut i32);
            pub(crate) fn mldsa_invntt_avx2(a: *mut i32);
            pub(crate) fn mldsa_pointwise_avx2(c: *mut i32, a: *const u8, b: *const u8);
            pub(crate) fn mldsa_pack_avx2(out: *mut u8, a: *const i32);
            pub(crate) fn mldsa_w1_encode_avx2(out: *mut u8, w: *const i32, gamma2: i32);
            pub(crate) fn mldsa_keccak_x4_avx2(st: *mut u8);
            pub(crate) fn mldsa_keccak_x4_avx512(st: *mut u8);
            pub(crate) fn mldsa_keccak_avx2(st: *mut u8);
            pub(crate) fn mldsa_rej_ntt_mul_acc_avx2(
                w: *mut i32,
                zhat: *const u8,
                lane0: *const u8,
                m: *mut usize,
            ) -> usize;
        }

        /// Whether the CPU has AVX2 and the kernel manages its registers; set by [`init`].
        static USABLE: AtomicBool = AtomicBool::new(false);
        /// Whether it also has AVX-512VL, for the faster 4-way Keccak; set by [`init`].
        static AVX512: AtomicBool = AtomicBool::new(false);

        /// Whether the boot CPU has each of `features` and the kernel manages the registers
        /// of each of `xfeatures`.
        fn has(features: &[u32], xfeatures: u64) -> bool {
            // SAFETY: These only read the boot CPU's feature bits and the xstate mask; a
            // null feature name pointer is allowed.
            unsafe {
                features.iter().all(|&f| bindings::boot_cpu_has(f as u16))
                    && bindings::cpu_has_xfeatures(xfeatures, core::ptr::null_mut()) != 0
            }
        }

        /// Finds out whether the CPU has AVX2, and AVX-512VL, as the x86 crypto glue does.
        pub(crate) fn init() {
            let ymm = bindings::XFEATURE_MASK_SSE | bindings::XFEATURE_MASK_YMM;
            let avx2 = has(
                &[bindings::X86_FEATURE_AVX, bindings::X86_FEATURE_AVX2],
                ymm,
            );
            let avx512 = has(
                &[
                    bindings::X86_FEATURE_AVX512F,
                    bindings::X86_FEATURE_AVX512VL,
                ],
                ymm | bindings::XFEATURE_MASK_AVX512,
            );
            USABLE.store(avx2, Relaxed);
            AVX512.store(avx2 && avx512, Relaxed);
        }

        /// Whether the AVX2 routines run (where the FPU is usable).
        pub(crate) fn usable() -> bool {
            USABLE.load(Relaxed)
        }

        /// Whether the AVX-512VL 4-way Keccak runs in place of the AVX2 ones.
        pub(crate) fn avx512() -> bool {
            AVX512.load(Relaxed)
        }

        /// Runs `f` in a kernel FPU section and returns true, if the CPU has AVX2 and the
        /// FPU is usable here; otherwise returns false. `f` may call the AVX2 routines.
        pub(crate) fn run(f: impl FnOnce()) -> bool {
            // SAFETY: `irq_fpu_usable()` may be called from any context.
            if !usable() || !unsafe { bindings::irq_fpu_usable() } {
                return false;
            }
            // SAFETY: The FPU is usable in this context (checked above), and the section
            // is ended below, in the same context; `f` does not sleep.
            unsafe { bindings::kernel_fpu_begin() };
            f();
            // SAFETY: Ends the section begun above.
            unsafe { bindings::kernel_fpu_end() };
            true
        }
    }

    /// The s390 vector-facility NTT of `arch/s390/`; `ntt_vx_glue.c` runs each call in its
    /// own `kernel_fpu_begin()`/`kernel_fpu_end()` section.
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    pub(crate) mod vx {
        use core::sync::atomic::{AtomicBool, Ordering::Relaxed};

        extern "C" {
            fn mldsa_vx_available() -> bool;
            pub(crate) fn mldsa_ntt_vx_fpu(a: *mut i32);
            pub(crate) fn mldsa_invntt_vx_fpu(a: *mut i32);
        }

        /// Whether the machine has the vector facility; set by [`init`].
        static USABLE: AtomicBool = AtomicBool::new(false);

        pub(crate) fn init() {
            // SAFETY: Only reads the machine's facility bits.
            USABLE.store(unsafe { mldsa_vx_available() }, Relaxed);
        }

        /// Whether the vector routines run.
        pub(crate) fn usable() -> bool {
            USABLE.load(Relaxed)
        }
    }

    /// Finds out whether the arch routines can run.
    pub fn init() {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        avx2::init();
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        vx::init();
    }

    /// The routines in use where the FPU is usable: "AVX2", "AVX2 + AVX-512VL Keccak",
    /// "vector facility" or "portable".
    pub fn name() -> &'static str {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        if avx2::avx512() {
            return "AVX2 + AVX-512VL Keccak";
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        if avx2::usable() {
            return "AVX2";
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            return "vector facility";
        }
        "portable"
    }

    // In each function below, `run` calls the closure only on a CPU with AVX2, in an FPU
    // section, and the routine reads and writes only the arrays it is given (256
    // coefficients, or the 800-byte state), with no alignment requirement, under the same
    // bounds on the inputs as the portable function (see arch/x86/*.S). The s390 routines
    // (arch/s390/ntt_vx.S) likewise transform the 256 coefficients they are given, 4-byte
    // aligned as `Poly` is, in their own FPU section.

    pub fn ntt(a: &mut Poly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above.
        if avx2::run(|| unsafe { avx2::mldsa_ntt_avx2(a.as_mut_ptr()) }) {
            return;
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            // SAFETY: See above; the machine has the vector facility.
            unsafe { vx::mldsa_ntt_vx_fpu(a.as_mut_ptr()) };
            return;
        }
        ntt::ntt(a)
    }

    /// `ntt::invntt_tomont` of `a` for any a[i] < 2^31 - 2^22: each is first brought below
    /// q by `ntt::reduce32` (which the AVX2 routine does as it loads them).
    pub fn invntt_tomont(a: &mut Poly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine takes a[i] < 2^31 - 2^22.
        if avx2::run(|| unsafe { avx2::mldsa_invntt_avx2(a.as_mut_ptr()) }) {
            return;
        }
        a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            // SAFETY: See above; the machine has the vector facility.
            unsafe { vx::mldsa_invntt_vx_fpu(a.as_mut_ptr()) };
            return;
        }
        ntt::invntt_tomont(a)
    }

    /// c = a * b pointwise, from packed polynomials.
    pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine reads a[..768] and b[..768].
        if avx2::run(|| unsafe {
            avx2::mldsa_pointwise_avx2(c.as_mut_ptr(), a.as_ptr(), b.as_ptr())
        }) {
            return;
        }
        crate::mldsa_verify::pointwise(c, a, b)
    }

    /// Packs `a`, each coefficient reduced to [0, q), into `out`.
    pub fn pack(a: &Poly, out: &mut PackedPoly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine writes the 769 bytes of `out`.
        if avx2::run(|| unsafe { avx2::mldsa_pack_avx2(out.as_mut_ptr(), a.as_ptr()) }) {
            return;
        }
        crate::mldsa_verify::pack(a, out)
    }

    /// w1Encode of HighBits of `w` into `out`, 4-bit fields if gamma2 = (q - 1) / 32 and
    /// 6-bit ones otherwise.
    pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        {
            let out = &mut out[..32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 }];
            // SAFETY: See above; the routine writes 128 bytes (gamma2 = (q - 1) / 32) or
            // 192, the length of `out`.
            if avx2::run(|| unsafe {
                avx2::mldsa_w1_encode_avx2(out.as_mut_ptr(), w.as_ptr(), gamma2)
            }) {
                return;
            }
        }
        crate::mldsa_verify::w1_encode(gamma2, w, out)
    }

    /// Permutes states 0..`states`; the others are scratch, which the AVX-512VL routine
    /// permutes too: it is faster than the single-state one.
    pub fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the AVX-512VL routine runs only on a CPU with AVX-512VL.
        if avx2::run(|| unsafe {
            if avx2::avx512() {
                avx2::mldsa_keccak_x4_avx512(st.as_mut_ptr().cast())
            } else if states == 1 {
                avx2::mldsa_keccak_avx2(st.as_mut_ptr().cast())
            } else {
                avx2::mldsa_keccak_x4_avx2(st.as_mut_ptr().cast())
            }
        }) {
            return;
        }
        for s in 0..states {
            keccak_f1600(st, s);
        }
    }

    /// Takes the first groups of one SHAKE128 block of state `t` as
    /// `mldsa_verify::rej_ntt_mul_acc` would, and returns how many it took: none without
    /// AVX2.
    pub fn rej_ntt_mul_acc(
        w: &mut Poly,
        zhat: &PackedPoly,
        st: &StateX4,
        t: usize,
        m: &mut usize,
    ) -> usize {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        {
            // Lanes 0..20 of state t: what the routine may read.
            let lanes = &st.as_flattened()[8 * t..][..32 * 20 + 8];
            let mut taken = 0;
            // SAFETY: See above: the routine reads `lanes`, zhat[..768] and `*m`, and
            // writes only the 256 coefficients of `w` and `*m`.
            if avx2::run(|| unsafe {
                taken = avx2::mldsa_rej_ntt_mul_acc_avx2(
                    w.as_mut_ptr(),
                    zhat.as_ptr(),
                    lanes.as_ptr(),
                    m,
                )
            }) {
                return taken;
            }
        }
        #[cfg(not(CONFIG_CRYPTO_MLDSA_AVX2))]
        let _ = (w, zhat, st, t, m);
        0
    }
}

const MAX_SIG_LEN: usize = ML_DSA_87.sig_len();

/// The parameter set of the algorithm whose matrix A has `l` columns (4, 5 or 7).
const fn params_for(l: usize) -> &'static Params {
    match l {
        4 => &ML_DSA_44,
        5 => &ML_DSA_65,
        _ => &ML_DSA_87,
    }
}

/// A kernel error from a positive errno constant of `bindings`.
fn errno(e: u32) -> Error {
    Error::from_errno(-(e as c_int))
}

impl From<mldsa_verify::Error> for Error {
    fn from(e: mldsa_verify::Error) -> Self {
        match e {
            mldsa_verify::Error::BadMsg => errno(bindings::EBADMSG),
            mldsa_verify::Error::KeyRejected => errno(bindings::EKEYREJECTED),
            mldsa_verify::Error::Inval => EINVAL,
        }
    }
}

// SAFETY: A `Workspace` is made of integers only (polynomials, buffers and the kernel's
// `shake_ctx`), so all-zero bytes are a valid value.
unsafe impl<const L: usize> Zeroable for Workspace<L> {}

// SAFETY: A `PublicKey` is made of byte arrays only.
unsafe impl<const K: usize> Zeroable for PublicKey<K> {}

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
        let mut ws = KBox::<Workspace<L>>::init(zeroed(), GFP_KERNEL)?;
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

/// Bytes of request context: a `Request<L>` and room to align it, as the context is only
/// `CRYPTO_MINALIGN`-aligned.
const fn reqsize<const L: usize>() -> usize {
    size_of::<Request<L>>() + align_of::<Request<L>>() - 1
}

/// `akcipher_alg.init`: sizes the request context.
unsafe extern "C" fn init_tfm<const L: usize>(tfm: *mut bindings::crypto_akcipher) -> c_int {
    // SAFETY: The crypto API passes a valid tfm of this algorithm.
    unsafe { bindings::akcipher_set_reqsize(tfm, reqsize::<L>() as c_uint) };
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
    if keylen as usize != params_for(L).pk_len() {
        k.set = false;
        return errno(bindings::EBADMSG).to_errno();
    }
    // SAFETY: The caller passes `keylen` readable bytes at `key`, and `keylen` is not zero.
    let pk = unsafe { core::slice::from_raw_parts(key.cast::<u8>(), keylen as usize) };
    match k.set::<L>(pk) {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

/// `akcipher_alg.verify`: the signature then the message in `req->src`.
unsafe extern "C" fn verify<const K: usize, const L: usize>(
    req: *mut bindings::akcipher_request,
) -> c_int {
    // SAFETY: The crypto API passes a valid request on a tfm of this algorithm. Its tfm
    // context is a `Key<K>` (see `set_pub_key`), only read here. Its request context is
    // `reqsize::<L>()` bytes (`init_tfm`), ours alone during the call, so a `Request<L>`
    // fits at its first suitably aligned byte; zeroing it first makes it a valid `Request`.
    let (k, r, src, sig_len, msg_len) = unsafe {
        let tfm = bindings::crypto_akcipher_reqtfm(req);
        let ctx = bindings::akcipher_request_ctx(req).cast::<u8>();
        let align = align_of::<Request<L>>();
        let r = ctx
            .add((align - ctx as usize % align) % align)
            .cast::<Request<L>>();
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
    match result {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
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

/// Copies `s`, NUL-terminated, into the C string field `dst`.
fn set_name(dst: &mut [kernel::ffi::c_char], s: &[u8]) {
    for (d, &c) in dst.iter_mut().zip(s) {
        *d = c as _;
    }
    dst[s.len()] = 0;
}

/// The akcipher algorithm `name` (e.g. "mldsa65", driver "mldsa65-rust") for the set with `K`
/// rows and `L` columns.
fn akcipher_alg<const K: usize, const L: usize>(
    name: &str,
    module: &'static ThisModule,
) -> bindings::akcipher_alg {
    // SAFETY: `akcipher_alg` is plain C data for which all-zero bytes are valid: null
    // pointers and `None` callbacks.
    let mut alg: bindings::akcipher_alg = unsafe { core::mem::zeroed() };
    alg.verify = Some(verify::<K, L>);
    alg.set_pub_key = Some(set_pub_key::<K, L>);
    alg.max_size = Some(max_size::<L>);
    alg.init = Some(init_tfm::<L>);
    alg.sign = Some(unsupported);
    alg.encrypt = Some(unsupported);
    alg.decrypt = Some(unsupported);
    alg.set_priv_key = Some(no_priv_key);
    set_name(&mut alg.base.cra_name, name.as_bytes());
    let mut driver = [0u8; 16];
    driver[..name.len()].copy_from_slice(name.as_bytes());
    driver[name.len()..name.len() + 5].copy_from_slice(b"-rust");
    set_name(&mut alg.base.cra_driver_name, &driver[..name.len() + 5]);
    alg.base.cra_priority = 100;
    alg.base.cra_ctxsize = size_of::<Key<K>>() as c_uint;
    alg.base.cra_module = module.as_ptr();
    alg
}

/// One registered akcipher algorithm, unregistered when dropped.
#[pin_data(PinnedDrop)]
struct Registration {
    #[pin]
    alg: Opaque<bindings::akcipher_alg>,
}

impl Registration {
    fn new<const K: usize, const L: usize>(
        name: &'static str,
        module: &'static ThisModule,
    ) -> impl PinInit<Self, Error> {
        try_pin_init!(Self {
            // SAFETY: The closure fully initializes the slot, then registers it; the slot is
            // pinned, so it stays put until `drop` unregisters it. On failure nothing is
            // registered and the slot may be freed.
            alg <- unsafe {
                pin_init_from_closure(move |slot: *mut Opaque<bindings::akcipher_alg>| {
                    let alg = Opaque::raw_get(slot);
                    alg.write(akcipher_alg::<K, L>(name, module));
                    to_result(bindings::crypto_register_akcipher(alg))
                })
            },
        })
    }
}

// SAFETY: Once registered, the algorithm belongs to the crypto API, which synchronizes all
// access to it; `Registration` itself only unregisters it, from any thread.
unsafe impl Send for Registration {}
// SAFETY: `Registration` offers no access to the algorithm through a shared reference.
unsafe impl Sync for Registration {}

#[pinned_drop]
impl PinnedDrop for Registration {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: A `Registration` exists only once `crypto_register_akcipher()` succeeded on
        // `alg`, and this is the only place that unregisters it.
        unsafe { bindings::crypto_unregister_akcipher(self.alg.get()) };
    }
}

struct MlDsaModule {
    _algs: [Pin<KBox<Registration>>; 3],
}

impl kernel::Module for MlDsaModule {
    fn init(module: &'static ThisModule) -> Result<Self> {
        arch::init();
        selftest::run(&selftest::KATS)?;
        mldsa_api::enable();
        pr_info!(
            "self-tests passed for ML-DSA-44, ML-DSA-65 and ML-DSA-87 ({} code)\n",
            arch::name()
        );
        let algs = [
            KBox::pin_init(Registration::new::<4, 4>("mldsa44", module), GFP_KERNEL)?,
            KBox::pin_init(Registration::new::<6, 5>("mldsa65", module), GFP_KERNEL)?,
            KBox::pin_init(Registration::new::<8, 7>("mldsa87", module), GFP_KERNEL)?,
        ];
        pr_info!("registered mldsa44, mldsa65, mldsa87 (drivers mldsaNN-rust)\n");
        Ok(MlDsaModule { _algs: algs })
    }
}
