// SPDX-License-Identifier: GPL-2.0

//! The core's arch seam (`crate::arch`): the AVX2 routines of `arch/x86/` where the CPU has
//! AVX2 and the FPU is usable in the calling context, the s390 vector-facility NTT of
//! `arch/s390/` where the machine has the facility, the portable code otherwise. Each call
//! is its own short FPU section (one NTT or one 4-way permutation), so preemption is never
//! held off for long.

use crate::keccak::{keccak_f1600, StateX4};
use crate::mldsa_verify::PackedPoly;
use crate::ntt::{self, Poly};
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
use crate::params::Q;

#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub(crate) mod avx2 {
    use core::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use kernel::cpufeature::{boot_cpu_has, cpu_has_xfeatures, Feature, XFeatures};

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

    /// Finds out whether the CPU has AVX2, and AVX-512VL, as the x86 crypto glue does.
    pub(crate) fn init() {
        let ymm = XFeatures::SSE | XFeatures::YMM;
        let avx2 =
            boot_cpu_has(Feature::AVX) && boot_cpu_has(Feature::AVX2) && cpu_has_xfeatures(ymm);
        let avx512 = boot_cpu_has(Feature::AVX512F)
            && boot_cpu_has(Feature::AVX512VL)
            && cpu_has_xfeatures(ymm | XFeatures::AVX512);
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
        usable() && kernel::fpu::with_kernel_fpu(f).is_some()
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
pub(crate) fn init() {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    avx2::init();
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    vx::init();
}

/// The routines in use where the FPU is usable: "AVX2", "AVX2 + AVX-512VL Keccak",
/// "vector facility" or "portable".
pub(crate) fn name() -> &'static str {
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

pub(crate) fn ntt(a: &mut Poly) {
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
pub(crate) fn invntt_tomont(a: &mut Poly) {
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
pub(crate) fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    // SAFETY: See above; the routine reads a[..768] and b[..768].
    if avx2::run(|| unsafe { avx2::mldsa_pointwise_avx2(c.as_mut_ptr(), a.as_ptr(), b.as_ptr()) }) {
        return;
    }
    crate::mldsa_verify::pointwise(c, a, b)
}

/// Packs `a`, each coefficient reduced to [0, q), into `out`.
pub(crate) fn pack(a: &Poly, out: &mut PackedPoly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    // SAFETY: See above; the routine writes the 769 bytes of `out`.
    if avx2::run(|| unsafe { avx2::mldsa_pack_avx2(out.as_mut_ptr(), a.as_ptr()) }) {
        return;
    }
    crate::mldsa_verify::pack(a, out)
}

/// w1Encode of HighBits of `w` into `out`, 4-bit fields if gamma2 = (q - 1) / 32 and
/// 6-bit ones otherwise.
pub(crate) fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    {
        let out = &mut out[..32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 }];
        // SAFETY: See above; the routine writes 128 bytes (gamma2 = (q - 1) / 32) or
        // 192, the length of `out`.
        if avx2::run(|| unsafe { avx2::mldsa_w1_encode_avx2(out.as_mut_ptr(), w.as_ptr(), gamma2) })
        {
            return;
        }
    }
    crate::mldsa_verify::w1_encode(gamma2, w, out)
}

/// Permutes states 0..`states`; the others are scratch, which the AVX-512VL routine
/// permutes too: it is faster than the single-state one.
pub(crate) fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
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
pub(crate) fn rej_ntt_mul_acc(
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
            taken =
                avx2::mldsa_rej_ntt_mul_acc_avx2(w.as_mut_ptr(), zhat.as_ptr(), lanes.as_ptr(), m)
        }) {
            return taken;
        }
    }
    #[cfg(not(CONFIG_CRYPTO_MLDSA_AVX2))]
    let _ = (w, zhat, st, t, m);
    0
}
