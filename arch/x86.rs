// SPDX-License-Identifier: GPL-2.0

//! The AVX2 routines of `arch/x86/*.S`, as safe methods of [`Avx2`], the proof that they may
//! run. The kernel (`simd.rs`) makes one in a kernel FPU section, the host harness
//! (tools/host) on a CPU with AVX2; both build this file. Each routine reads and writes
//! only the arrays it is given (256 coefficients, a packed polynomial's 737 bytes, or the
//! 800 bytes of four Keccak states), with no alignment requirement, and takes the same
//! bounds on its inputs as the portable function it replaces.

use crate::keccak::StateX4;
use crate::params::{PackedPoly, Poly, Q};
use core::marker::PhantomData;

extern "C" {
    fn mldsa_ntt_avx2(a: *mut i32);
    fn mldsa_invntt_avx2(a: *mut i32);
    fn mldsa_pointwise_avx2(c: *mut i32, a: *const u8, b: *const u8);
    fn mldsa_pointwise_in_place_avx2(c: *mut i32, b: *const u8);
    fn mldsa_pack_avx2(out: *mut u8, a: *const i32);
    fn mldsa_w1_encode_avx2(out: *mut u8, w: *const i32, gamma2: i32);
    fn mldsa_keccak_x4_avx2(st: *mut StateX4);
    fn mldsa_keccak_x4_avx512(st: *mut StateX4);
    fn mldsa_rej_ntt_mul_acc_avx2(
        w: *mut i32,
        zhat: *const u8,
        lane0: *const u8,
        m: *mut usize,
    ) -> usize;
}

/// The proof that the AVX2 routines (and with `avx512` the AVX-512VL 4-way Keccak) may run
/// here while it lives. Not `Send`: in the kernel, the FPU section is this CPU's.
pub struct Avx2 {
    avx512: bool,
    _not_send: PhantomData<*mut ()>,
}

impl Avx2 {
    /// Allows the AVX2 routines, and the AVX-512VL one if `avx512`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and AVX-512VL if `avx512`, with their registers enabled; in
    /// the kernel, the caller must be in a kernel FPU section that lasts as long as the
    /// returned value.
    pub unsafe fn new(avx512: bool) -> Self {
        Self {
            avx512,
            _not_send: PhantomData,
        }
    }

    /// `ntt::ntt` of `a`.
    pub fn ntt(&self, a: &mut Poly) {
        // SAFETY: `self` allows AVX2; the routine transforms the 256 coefficients of `a`.
        unsafe { mldsa_ntt_avx2(a.as_mut_ptr()) }
    }

    /// `ntt::invntt_tomont` of `a` for `a[i]` < 2^31 - 2^22, which the routine first brings
    /// below q as `ntt::reduce32` does.
    pub fn invntt_tomont(&self, a: &mut Poly) {
        // SAFETY: `self` allows AVX2; the routine transforms the 256 coefficients of `a`.
        unsafe { mldsa_invntt_avx2(a.as_mut_ptr()) }
    }

    /// c = a * b pointwise (Montgomery), from packed polynomials.
    pub fn pointwise(&self, c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
        // SAFETY: `self` allows AVX2; the routine writes the 256 coefficients of `c` and
        // reads the 737 bytes of `a` and of `b`.
        unsafe { mldsa_pointwise_avx2(c.as_mut_ptr(), a.as_ptr(), b.as_ptr()) }
    }

    /// c = c * b pointwise (Montgomery), from a packed `b`, for any c.
    pub fn pointwise_in_place(&self, c: &mut Poly, b: &PackedPoly) {
        // SAFETY: `self` allows AVX2; the routine reads and writes the 256 coefficients of
        // `c` and reads the 737 bytes of `b`.
        unsafe { mldsa_pointwise_in_place_avx2(c.as_mut_ptr(), b.as_ptr()) }
    }

    /// Packs `a`, each coefficient reduced to [0, q), into `out`.
    pub fn pack(&self, a: &Poly, out: &mut PackedPoly) {
        // SAFETY: `self` allows AVX2; the routine reads the 256 coefficients of `a` and
        // writes the 737 bytes of `out`.
        unsafe { mldsa_pack_avx2(out.as_mut_ptr(), a.as_ptr()) }
    }

    /// w1Encode (Algorithm 28) of HighBits of `w` into `out`: 128 bytes if gamma2 =
    /// (q - 1) / 32, else 192.
    pub fn w1_encode(&self, gamma2: i32, w: &Poly, out: &mut [u8]) {
        let out = &mut out[..32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 }];
        // SAFETY: `self` allows AVX2; the routine reads the 256 coefficients of `w` and
        // writes 128 bytes (gamma2 = (q - 1) / 32) or 192, the length of `out`.
        unsafe { mldsa_w1_encode_avx2(out.as_mut_ptr(), w.as_ptr(), gamma2) }
    }

    /// Keccak-f\[1600\] of the four states of `st`.
    pub fn keccak_f1600_x4(&self, st: &mut StateX4) {
        // SAFETY: `self` allows AVX2, and AVX-512VL if `self.avx512`; each routine
        // permutes the four states of `st` in place.
        unsafe {
            if self.avx512 {
                mldsa_keccak_x4_avx512(st)
            } else {
                mldsa_keccak_x4_avx2(st)
            }
        }
    }

    /// Takes the first groups of one SHAKE128 block of state `t` of `st` as
    /// `poly::rej_ntt_mul_acc` would, and returns how many it took.
    pub fn rej_ntt_mul_acc(
        &self,
        w: &mut Poly,
        zhat: &PackedPoly,
        st: &StateX4,
        t: usize,
        m: &mut usize,
    ) -> usize {
        // Lanes 0..20 of state t: what the routine may read.
        let lanes = &st.as_flattened()[8 * t..][..32 * 20 + 8];
        // SAFETY: `self` allows AVX2; the routine reads `lanes`, the 737 bytes of `zhat` and `*m`, and
        // writes only the 256 coefficients of `w` and `*m`.
        unsafe { mldsa_rej_ntt_mul_acc_avx2(w.as_mut_ptr(), zhat.as_ptr(), lanes.as_ptr(), m) }
    }
}
