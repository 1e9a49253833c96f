//! The host's `crate::simd`, what the arch seam (`arch.rs`) asks before it runs an arch
//! routine: on x86_64 the module's AVX2 routines, assembled from the same `arch/x86/*.S`
//! files the kernel builds; on s390x its vector-facility NTT, from `arch/s390/*.S`. The
//! choice is per thread, so that tests run the verifier both ways side by side: AVX2 by
//! default where the CPU has it, the vector facility only where a thread asks for it.

use std::cell::Cell;

thread_local! {
    /// Whether this thread uses the SIMD routines, and with AVX2 the AVX-512VL Keccak.
    static SIMD: Cell<(bool, bool)> = Cell::new((avx2_available(), avx512_available()));
    /// Whether, without them, this thread permutes ExpandA's states with the SHA-3 library's
    /// permutation (`crate::shake::keccak_f1600`), as the kernel does where that is arch code.
    static LIBRARY_KECCAK: Cell<bool> = const { Cell::new(false) };
}

/// Chooses, for when this thread runs no SIMD Keccak, the SHA-3 library's permutation for
/// ExpandA (`true`: BMI2 where the CPU has it, else the `keccak` crate's, like the library's
/// generic C) or the portable one (the default).
pub fn use_library_keccak(on: bool) {
    LIBRARY_KECCAK.with(|l| l.set(on));
}

/// Whether this thread permutes ExpandA's states with the SHA-3 library's permutation.
pub fn library_keccak() -> bool {
    LIBRARY_KECCAK.with(Cell::get)
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
    cfg!(target_arch = "x86_64") && SIMD.with(Cell::get).0
}

/// Whether this thread uses the AVX2 routines with the AVX-512VL Keccak.
pub fn avx512() -> bool {
    avx2() && SIMD.with(Cell::get).1
}

#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub mod avx2 {
    use crate::arch::x86::Avx2;

    /// Runs `f` with the AVX2 routines, if this thread uses them.
    pub fn run<R>(f: impl FnOnce(&Avx2) -> R) -> Option<R> {
        // SAFETY: a thread uses AVX2, and AVX-512VL, only where the CPU has them
        // (`use_avx2`, `use_avx512`), and user space needs no FPU section.
        super::avx2().then(|| f(&unsafe { Avx2::new(super::avx512()) }))
    }
}

/// Chooses the vector-facility routines (`true`) or the portable code for this thread. The
/// machine must have the facility (the s390x host tests run under `qemu-s390x -cpu max`).
#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
pub fn use_vx(on: bool) {
    SIMD.with(|a| a.set((on, false)));
}

#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
pub mod vx {
    use crate::arch::s390::Vx;

    /// Runs `f` with the vector-facility routines, if this thread uses them.
    pub fn run<R>(f: impl FnOnce(&Vx) -> R) -> Option<R> {
        // SAFETY: a thread uses them only where it asked to (`use_vx`), on a machine with
        // the facility, and user space needs no FPU section.
        super::SIMD
            .with(std::cell::Cell::get)
            .0
            .then(|| f(&unsafe { Vx::new() }))
    }
}
