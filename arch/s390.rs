// SPDX-License-Identifier: GPL-2.0

//! The s390 vector-facility NTT of `arch/s390/ntt_vx.S`, as safe methods of [`Vx`], the
//! proof that it may run. The kernel (`simd.rs`) makes one in a kernel FPU section on
//! %v16-%v31, the host harness (tools/host) on a machine with the facility; both build
//! this file. Each routine transforms the 256 coefficients it is given, in place, and
//! uses only %v16-%v31.

use crate::params::Poly;
use core::marker::PhantomData;

// Declared safe: each routine follows the C calling convention and transforms the 256
// coefficients its reference gives, in place, for any values. It needs the vector facility
// and, in the kernel, a kernel FPU section on %v16-%v31, which its last argument proves: a
// `Vx` is made only by `Vx::new`, whose caller promises both for as long as it lives (the
// routines never read it).
#[expect(improper_ctypes, reason = "the zero-sized proof is never read")]
unsafe extern "C" {
    safe fn mldsa_ntt_vx(a: &mut Poly, proof: &Vx);
    safe fn mldsa_invntt_vx(a: &mut Poly, proof: &Vx);
}

/// The proof that the vector-facility routines may run here while it lives. Not `Send`:
/// in the kernel, the FPU section is this task's.
#[repr(C)]
pub struct Vx {
    _not_send: PhantomData<*mut ()>,
}

impl Vx {
    /// Allows the vector-facility routines.
    ///
    /// # Safety
    ///
    /// The machine must have the vector facility; in the kernel, the caller must be in a
    /// kernel FPU section on %v16-%v31 that lasts as long as the returned value.
    pub unsafe fn new() -> Self {
        Self {
            _not_send: PhantomData,
        }
    }

    /// `ntt::ntt` of `a`, for |a[i]| < q: the same values, word for word.
    pub fn ntt(&self, a: &mut Poly) {
        mldsa_ntt_vx(a, self)
    }

    /// `ntt::invntt_tomont` of `a`, for |a[i]| < q: the same values, word for word.
    pub fn invntt_tomont(&self, a: &mut Poly) {
        mldsa_invntt_vx(a, self)
    }
}
