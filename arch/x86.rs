// SPDX-License-Identifier: GPL-2.0

//! The AVX2 routines of `arch/x86/*.S`, as safe methods of [`Avx2`], the proof that they may
//! run. The kernel (`simd.rs`) makes one in a kernel FPU section, the host harness
//! (tools/host) on a CPU with AVX2; both build this file. Each routine reads and writes
//! only the arrays its references give (256 coefficients, a packed polynomial's 737 bytes,
//! a row of w1, the 800 bytes of four Keccak states or the lanes of one), with no alignment
//! requirement, and takes the same bounds on its inputs as the portable function it
//! replaces. Each also takes the proof as a last argument, which it never reads.

use crate::keccak::StateX4;
use crate::params::{PackedPoly, Poly, W1Row};
use core::marker::PhantomData;

/// Lanes 0..20 of one state of a [`StateX4`], from its first byte: what
/// `mldsa_rej_ntt_mul_acc_avx2` reads of a SHAKE128 block.
const BLOCK_LANES: usize = 32 * 20 + 8;

// Declared safe: each routine follows the C calling convention and reads and writes only
// the memory its references give, for any values there. It needs AVX2 and, in the kernel, a
// kernel FPU section, which its last argument proves: an `Avx2` is made only by
// `Avx2::new`, whose caller promises both for as long as it lives (the routines never read
// it). `mldsa_keccak_x4_avx512` also needs AVX-512VL: private to this file, it is called
// only where the proof says so.
unsafe extern "C" {
    safe fn mldsa_ntt_avx2(a: &mut Poly, proof: &Avx2);
    safe fn mldsa_invntt_avx2(a: &mut Poly, proof: &Avx2);
    safe fn mldsa_pointwise_avx2(c: &mut Poly, a: &PackedPoly, b: &PackedPoly, proof: &Avx2);
    safe fn mldsa_pointwise_in_place_avx2(c: &mut Poly, b: &PackedPoly, proof: &Avx2);
    safe fn mldsa_pack_avx2(out: &mut PackedPoly, a: &Poly, proof: &Avx2);
    safe fn mldsa_w1_encode_avx2(out: &mut W1Row, w: &Poly, gamma2: i32, proof: &Avx2);
    safe fn mldsa_keccak_x4_avx2(st: &mut StateX4, proof: &Avx2);
    safe fn mldsa_keccak_x4_avx512(st: &mut StateX4, proof: &Avx2);
    safe fn mldsa_rej_ntt_mul_acc_avx2(
        w: &mut Poly,
        zhat: &PackedPoly,
        lanes: &[u8; BLOCK_LANES],
        m: &mut usize,
        proof: &Avx2,
    ) -> usize;
}

/// The proof that the AVX2 routines (and with `avx512` the AVX-512VL 4-way Keccak) may run
/// here while it lives. Not `Send`: in the kernel, the FPU section is this CPU's.
#[repr(C)]
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
        mldsa_ntt_avx2(a, self)
    }

    /// `ntt::invntt_tomont` of `a` for `a[i]` < 2^31 - 2^22, which the routine first brings
    /// below q as `ntt::reduce32` does.
    pub fn invntt_tomont(&self, a: &mut Poly) {
        mldsa_invntt_avx2(a, self)
    }

    /// c = a * b pointwise (Montgomery), from packed polynomials.
    pub fn pointwise(&self, c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
        mldsa_pointwise_avx2(c, a, b, self)
    }

    /// c = c * b pointwise (Montgomery), from a packed `b`, for any c.
    pub fn pointwise_in_place(&self, c: &mut Poly, b: &PackedPoly) {
        mldsa_pointwise_in_place_avx2(c, b, self)
    }

    /// Packs `a`, each coefficient reduced to [0, q), into `out`.
    pub fn pack(&self, a: &Poly, out: &mut PackedPoly) {
        mldsa_pack_avx2(out, a, self)
    }

    /// w1Encode (Algorithm 28) of HighBits of `w` into the first 128 bytes of `out` if
    /// gamma2 = (q - 1) / 32, else into all 192.
    pub fn w1_encode(&self, gamma2: i32, w: &Poly, out: &mut W1Row) {
        mldsa_w1_encode_avx2(out, w, gamma2, self)
    }

    /// Keccak-f\[1600\] of the four states of `st`.
    pub fn keccak_f1600_x4(&self, st: &mut StateX4) {
        if self.avx512 {
            mldsa_keccak_x4_avx512(st, self)
        } else {
            mldsa_keccak_x4_avx2(st, self)
        }
    }

    /// Takes the first groups of one SHAKE128 block of state `t` (0 to 3) of `st` as
    /// `poly::rej_ntt_mul_acc` would, and returns how many it took.
    pub fn rej_ntt_mul_acc(
        &self,
        w: &mut Poly,
        zhat: &PackedPoly,
        st: &StateX4,
        t: usize,
        m: &mut usize,
    ) -> usize {
        match st.as_flattened().get(8 * t..).and_then(<[u8]>::first_chunk) {
            Some(lanes) => mldsa_rej_ntt_mul_acc_avx2(w, zhat, lanes, m, self),
            None => 0,
        }
    }
}
