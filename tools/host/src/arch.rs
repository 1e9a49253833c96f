//! The host side of the arch seam (`crate::arch`): the module's x86_64 AVX2 routines,
//! assembled from the same `arch/x86/*.S` files the kernel builds, or the portable code.
//! The choice is per thread, so that tests run the verifier both ways side by side. On
//! other architectures (s390x, for the big-endian run) only the portable code exists.

use crate::keccak::{keccak_f1600, StateX4};
use crate::mldsa_verify::{self, PackedPoly};
use crate::ntt::{self, Poly};
use crate::params::Q;
use std::cell::Cell;

thread_local! {
    /// Whether this thread uses the AVX2 routines, and with them the AVX-512VL Keccak.
    static SIMD: Cell<(bool, bool)> = Cell::new((avx2_available(), avx512_available()));
}

#[cfg(target_arch = "x86_64")]
extern "C" {
    fn mldsa_ntt_avx2(a: *mut i32);
    fn mldsa_invntt_avx2(a: *mut i32);
    fn mldsa_pointwise_avx2(c: *mut i32, a: *const u8, b: *const u8);
    fn mldsa_pack_avx2(out: *mut u8, a: *const i32);
    fn mldsa_w1_encode_avx2(out: *mut u8, w: *const i32, gamma2: i32);
    fn mldsa_keccak_x4_avx2(st: *mut StateX4);
    fn mldsa_keccak_x4_avx512(st: *mut StateX4);
    fn mldsa_keccak_avx2(st: *mut StateX4);
    fn mldsa_rej_ntt_mul_acc_avx2(
        w: *mut i32,
        zhat: *const u8,
        lane0: *const u8,
        m: *mut usize,
    ) -> usize;
}

/// Whether this machine can run the AVX2 routines.
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether this machine can run the AVX-512VL 4-way Keccak too.
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    return avx2_available()
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Chooses the AVX2 routines (`true`) or the portable code for this thread.
///
/// # Panics
///
/// If `on` and the machine has no AVX2.
pub fn use_avx2(on: bool) {
    assert!(!on || avx2_available(), "this machine has no AVX2");
    SIMD.with(|a| a.set((on, a.get().1)));
}

/// Chooses, for when this thread uses the AVX2 routines, the AVX-512VL 4-way Keccak
/// (`true`, the default where the machine has it) or the AVX2 ones.
///
/// # Panics
///
/// If `on` and the machine has no AVX-512VL.
pub fn use_avx512(on: bool) {
    assert!(!on || avx512_available(), "this machine has no AVX-512VL");
    SIMD.with(|a| a.set((a.get().0, on)));
}

/// Whether this thread uses the AVX2 routines.
pub fn avx2() -> bool {
    SIMD.with(Cell::get).0
}

pub fn ntt(a: &mut Poly) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the thread chose AVX2 only if the CPU has it; `a` is the 256 coefficients
        // the routine transforms in place, |a[i]| < q as for `ntt::ntt`.
        unsafe { mldsa_ntt_avx2(a.as_mut_ptr()) };
        return;
    }
    ntt::ntt(a)
}

/// `ntt::invntt_tomont` of `a` for any a[i] < 2^31 - 2^22: each is first brought below q by
/// `ntt::reduce32` (which the AVX2 routine does as it loads them).
pub fn invntt_tomont(a: &mut Poly) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: as in `ntt`; the routine takes a[i] < 2^31 - 2^22.
        unsafe { mldsa_invntt_avx2(a.as_mut_ptr()) };
        return;
    }
    a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
    ntt::invntt_tomont(a)
}

pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the thread chose AVX2 only if the CPU has it; the routine writes the 256
        // coefficients of `c` and reads a[..768] and b[..768].
        unsafe { mldsa_pointwise_avx2(c.as_mut_ptr(), a.as_ptr(), b.as_ptr()) };
        return;
    }
    mldsa_verify::pointwise(c, a, b)
}

pub fn pack(a: &Poly, out: &mut PackedPoly) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the thread chose AVX2 only if the CPU has it; the routine reads the 256
        // coefficients of `a` and writes the 769 bytes of `out`.
        unsafe { mldsa_pack_avx2(out.as_mut_ptr(), a.as_ptr()) };
        return;
    }
    mldsa_verify::pack(a, out)
}

pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        let out = &mut out[..32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 }];
        // SAFETY: the thread chose AVX2 only if the CPU has it; the routine reads the 256
        // coefficients of `w` and writes 128 bytes (gamma2 = (q - 1) / 32) or 192 (the
        // other gamma2), the length of `out`.
        unsafe { mldsa_w1_encode_avx2(out.as_mut_ptr(), w.as_ptr(), gamma2) };
        return;
    }
    mldsa_verify::w1_encode(gamma2, w, out)
}

/// Permutes states 0..`states` of `st`; the others are scratch, which the AVX-512VL routine
/// permutes too: it is faster than the single-state one.
pub fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
    #[cfg(target_arch = "x86_64")]
    if let (true, avx512) = SIMD.with(Cell::get) {
        // SAFETY: the thread chose AVX2 (and AVX-512VL) only if the CPU has it, and `st`
        // is the 800-byte buffer the routines permute in place (they need no alignment);
        // the single-state routine permutes state 0 only.
        unsafe {
            if avx512 {
                mldsa_keccak_x4_avx512(st)
            } else if states == 1 {
                mldsa_keccak_avx2(st)
            } else {
                mldsa_keccak_x4_avx2(st)
            }
        };
        return;
    }
    for s in 0..states {
        keccak_f1600(st, s);
    }
}

/// Takes the first groups of one block of state `t` as `mldsa_verify::rej_ntt_mul_acc`
/// would, and returns how many it took: none on the portable path.
pub fn rej_ntt_mul_acc(
    w: &mut Poly,
    zhat: &PackedPoly,
    st: &StateX4,
    t: usize,
    m: &mut usize,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // Lanes 0..20 of state t: what the routine may read.
        let lanes = &st.as_flattened()[8 * t..][..32 * 20 + 8];
        // SAFETY: the thread chose AVX2 only if the CPU has it. The routine reads `lanes`,
        // zhat[..768] and `*m`, and writes only the 256 coefficients of `w` and `*m`.
        return unsafe {
            mldsa_rej_ntt_mul_acc_avx2(w.as_mut_ptr(), zhat.as_ptr(), lanes.as_ptr(), m)
        };
    }
    let _ = (w, zhat, st, t, m);
    0
}
