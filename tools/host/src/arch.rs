//! The host side of the arch seam (`crate::arch`): the module's x86_64 AVX2 routines,
//! assembled from the same `arch/x86/*.S` files the kernel builds and called through the
//! same `arch/x86/avx2.rs`, or the portable code. The choice is per thread, so that tests
//! run the verifier both ways side by side. On other architectures (s390x, for the
//! big-endian run) only the portable code exists.

#[cfg(target_arch = "x86_64")]
use crate::avx2::Avx2;
use crate::keccak::{keccak_f1600, StateX4};
use crate::mldsa_verify;
use crate::ntt::{self, PackedPoly, Poly};
use std::cell::Cell;

thread_local! {
    /// Whether this thread uses the AVX2 routines, and with them the AVX-512VL Keccak.
    static SIMD: Cell<(bool, bool)> = Cell::new((avx2_available(), avx512_available()));
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

/// Whether this thread uses the AVX2 routines with the AVX-512VL Keccak.
pub fn avx512() -> bool {
    SIMD.with(Cell::get) == (true, true)
}

/// The AVX2 routines, if this thread uses them.
#[cfg(target_arch = "x86_64")]
fn simd() -> Option<Avx2> {
    let (avx2, avx512) = SIMD.with(Cell::get);
    // SAFETY: a thread uses AVX2, and AVX-512VL, only where the CPU has them (`use_avx2`,
    // `use_avx512`), and user space needs no FPU section.
    avx2.then(|| unsafe { Avx2::new(avx512) })
}

/// Runs `$e` with `$s` bound to the AVX2 routines and returns its value, if this thread
/// uses them.
macro_rules! with_simd {
    ($s:ident => $e:expr) => {
        #[cfg(target_arch = "x86_64")]
        if let Some($s) = simd() {
            return $e;
        }
    };
}

pub fn ntt(a: &mut Poly) {
    with_simd!(s => s.ntt(a));
    ntt::ntt(a)
}

/// `ntt::invntt_tomont` of `a` for any a[i] < 2^31 - 2^22: each is first brought below q by
/// `ntt::reduce32` (which the AVX2 routine does as it loads them).
pub fn invntt_tomont(a: &mut Poly) {
    with_simd!(s => s.invntt_tomont(a));
    a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
    ntt::invntt_tomont(a)
}

pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    with_simd!(s => s.pointwise(c, a, b));
    mldsa_verify::pointwise(c, a, b)
}

pub fn pack(a: &Poly, out: &mut PackedPoly) {
    with_simd!(s => s.pack(a, out));
    mldsa_verify::pack(a, out)
}

pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    with_simd!(s => s.w1_encode(gamma2, w, out));
    mldsa_verify::w1_encode(gamma2, w, out)
}

/// Permutes states 0..`states` of `st`; the others are scratch, which the vector routines
/// permute too.
pub fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
    with_simd!(s => s.keccak_f1600_x4(st));
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
    with_simd!(s => s.rej_ntt_mul_acc(w, zhat, st, t, m));
    let _ = (w, zhat, st, t, m);
    0
}
