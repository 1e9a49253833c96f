// SPDX-License-Identifier: GPL-2.0

//! The core's arch seam: each function runs an arch routine where `crate::simd` lets one
//! run (the AVX2 routines of `arch/x86/`, the s390 vector-facility NTT of `arch/s390/`),
//! and the portable code otherwise, with the same result. The kernel and the host harness
//! build this file alike; each provides its own `crate::simd`, which decides whether the
//! routines may run and runs each call in its own short FPU section, and its own
//! `crate::shake`, whose Keccak-f\[1600\] is the SHA-3 library's.

use crate::keccak::{keccak_f1600, keccak_f1600_with, StateX4};
use crate::ntt;
use crate::params::{PackedPoly, Poly, W1Row};
use crate::poly;

#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
pub mod s390;
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub mod x86;

/// Returns from the calling function with the value of `$e`, `$s` bound to the AVX2
/// routines, if they may run.
macro_rules! avx2 {
    ($s:ident => $e:expr) => {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        if let Some(r) = crate::simd::avx2::run(|$s| $e) {
            return r;
        }
    };
}

/// As [`avx2!`], for the s390 vector-facility routines.
macro_rules! vx {
    ($v:ident => $e:expr) => {
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if let Some(r) = crate::simd::vx::run(|$v| $e) {
            return r;
        }
    };
}

/// `ntt::ntt` of `a`.
pub fn ntt(a: &mut Poly) {
    avx2!(s => s.ntt(a));
    vx!(v => v.ntt(a));
    ntt::ntt(a)
}

/// `ntt::invntt_tomont` of `a` for any `a[i]` < 2^31 - 2^22: each is first brought below
/// q by `ntt::reduce32` (which the AVX2 routine does as it loads them).
pub fn invntt_tomont(a: &mut Poly) {
    avx2!(s => s.invntt_tomont(a));
    a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
    vx!(v => v.invntt_tomont(a));
    ntt::invntt_tomont(a)
}

/// `poly::pointwise`: c = a * b pointwise, from packed polynomials.
pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    avx2!(s => s.pointwise(c, a, b));
    poly::pointwise(c, a, b)
}

/// `poly::pointwise_in_place`: c = c * b pointwise, for any c.
pub fn pointwise_in_place(c: &mut Poly, b: &PackedPoly) {
    avx2!(s => s.pointwise_in_place(c, b));
    poly::pointwise_in_place(c, b)
}

/// `poly::pack`: packs `a`, each coefficient reduced to [0, q), into `out`.
pub fn pack(a: &Poly, out: &mut PackedPoly) {
    avx2!(s => s.pack(a, out));
    poly::pack(a, out)
}

/// `poly::w1_encode`: w1Encode of HighBits of `w` into `out`.
pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut W1Row) {
    avx2!(s => s.w1_encode(gamma2, w, out));
    poly::w1_encode(gamma2, w, out)
}

/// Permutes states 0..`states`; the others are scratch, which the vector routines
/// permute too. Without those, the SHA-3 library permutes each state where its permutation
/// is arch code (`crate::simd::library_keccak`), faster than the portable one.
pub fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
    avx2!(s => s.keccak_f1600_x4(st));
    if crate::simd::library_keccak() {
        (0..states).for_each(|s| keccak_f1600_with(st, s, crate::shake::keccak_f1600));
    } else {
        (0..states).for_each(|s| keccak_f1600(st, s));
    }
}

/// `poly::rej_ntt_mul_acc` of one SHAKE128 block of state `t`, all its groups: the AVX2
/// routine takes the first ones where it runs.
pub fn rej_ntt_mul_acc(w: &mut Poly, zhat: &PackedPoly, st: &StateX4, t: usize, m: &mut usize) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    let from = crate::simd::avx2::run(|s| s.rej_ntt_mul_acc(w, zhat, st, t, m)).unwrap_or(0);
    #[cfg(not(CONFIG_CRYPTO_MLDSA_AVX2))]
    let from = 0;
    poly::rej_ntt_mul_acc(w, zhat, st, t, m, from)
}
