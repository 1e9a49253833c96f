// SPDX-License-Identifier: GPL-2.0

//! The kernel's `crate::simd`, which the core's arch seam (`arch.rs`) asks before it runs
//! an arch routine: the AVX2 routines of `arch/x86/` run where the CPU has AVX2 and the
//! FPU is usable in the calling context, the s390 vector-facility NTT of `arch/s390/`
//! where the machine has the facility. Each call is its own short FPU section (one NTT or
//! one 4-way permutation), so preemption is never held off for long. Without the AVX2
//! Keccak, ExpandA's SHAKE128 states are permuted by the SHA-3 library where its
//! permutation is arch code (x86 BMI2, s390 CPACF), else by the portable one. The
//! self-tests force each [`Level`] in turn, so that every path the machine can take is
//! tested.

use core::fmt::{self, Write};
use core::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

/// How much of the arch code may run, from none to all that the machine has; below
/// [`Level::All`] only while the self-tests cover each code path ([`at_level`]).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Level {
    /// The portable code only.
    Portable,
    /// The portable code, with the SHA-3 library's permutation where it is arch code.
    Library,
    /// The SIMD routines, but not the AVX-512VL Keccak.
    Simd,
    /// Everything the machine can run.
    All,
}

/// The current [`Level`].
static LEVEL: AtomicU8 = AtomicU8::new(Level::All as u8);

/// Whether the SHA-3 library's Keccak-f\[1600\] is arch code on this CPU; set by [`init`].
static LIBRARY_KECCAK: AtomicBool = AtomicBool::new(false);

/// Whether the current level allows the code of level `l`.
fn allows(l: Level) -> bool {
    LEVEL.load(Relaxed) >= l as u8
}

/// Whether ExpandA's permutations, where no SIMD routine runs, are the SHA-3 library's.
pub(crate) fn library_keccak() -> bool {
    LIBRARY_KECCAK.load(Relaxed) && allows(Level::Library)
}

/// Runs `f` with ExpandA permuting through the SHA-3 library where [`Level::Library`] allows,
/// whether or not the library's permutation is arch code here, then as [`init`] found: so
/// that KUnit checks that route on every machine. Callers running meanwhile take it too,
/// with the same results.
#[cfg(CONFIG_CRYPTO_MLDSA_KUNIT_TEST)]
pub(crate) fn with_library_keccak<R>(f: impl FnOnce() -> R) -> R {
    let was = LIBRARY_KECCAK.swap(true, Relaxed);
    let r = f();
    LIBRARY_KECCAK.store(was, Relaxed);
    r
}

/// Runs `f` with the code of level `l` at most, then allows all again. Callers running
/// meanwhile get the code of that level too, which gives the same results, more slowly.
pub(crate) fn at_level<R>(l: Level, f: impl FnOnce() -> R) -> R {
    LEVEL.store(l as u8, Relaxed);
    let r = f();
    LEVEL.store(Level::All as u8, Relaxed);
    r
}

/// The levels whose code differs on this machine: the portable code, and each set of
/// SIMD routines it can run.
pub(crate) fn levels() -> impl Iterator<Item = Level> {
    let mut prev = None;
    [Level::Portable, Level::Library, Level::Simd, Level::All]
        .into_iter()
        .filter(move |&l| {
            let name = at_level(l, name);
            prev.replace(name) != Some(name)
        })
}

/// The names of the code of each of [`levels`], as "portable, AVX2".
pub(crate) struct Paths {
    buf: [u8; 96],
    len: usize,
}

impl Paths {
    pub(crate) fn new() -> Self {
        let mut p = Paths {
            buf: [0; 96],
            len: 0,
        };
        for (i, l) in levels().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            // The names fit: at most 85 bytes.
            let _ = write!(p, "{sep}{}", at_level(l, name));
        }
        p
    }

    pub(crate) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("?")
    }
}

impl fmt::Write for Paths {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let dst = self
            .buf
            .get_mut(self.len..self.len + s.len())
            .ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len += s.len();
        Ok(())
    }
}

#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub(crate) mod avx2 {
    use crate::arch::x86::Avx2;
    use core::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use kernel::cpufeature::{boot_cpu_has, cpu_has_xfeatures, Feature, XFeatures};

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
        USABLE.load(Relaxed) && super::allows(super::Level::Simd)
    }

    /// Whether the AVX-512VL 4-way Keccak runs in place of the AVX2 ones.
    pub(crate) fn avx512() -> bool {
        AVX512.load(Relaxed) && super::allows(super::Level::All)
    }

    /// Runs `f` with the AVX2 routines in a kernel FPU section and returns its value, if
    /// the CPU has AVX2 and the FPU is usable here; otherwise returns `None`.
    pub(crate) fn run<R>(f: impl FnOnce(&Avx2) -> R) -> Option<R> {
        run_with(avx512(), f)
    }

    /// As [`run`], with the AVX-512VL Keccak if `avx512` (`None` if the CPU has none).
    pub(crate) fn run_with<R>(avx512: bool, f: impl FnOnce(&Avx2) -> R) -> Option<R> {
        if !usable() || avx512 && !self::avx512() {
            return None;
        }
        kernel::fpu::with_kernel_fpu(|| {
            // SAFETY: The CPU has AVX2, and AVX-512VL if `avx512` (see `init`), and this
            // closure runs in a kernel FPU section; `f` gets the value only by reference, so
            // it does not outlive the section.
            f(&unsafe { Avx2::new(avx512) })
        })
    }
}

#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
pub(crate) mod vx {
    use crate::arch::s390::Vx;
    use core::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use kernel::fpu::{with_kernel_fpu, VxRegs};

    /// Whether the machine has the vector facility; set by [`init`].
    static USABLE: AtomicBool = AtomicBool::new(false);

    pub(crate) fn init() {
        USABLE.store(kernel::cpufeature::cpu_has_vx(), Relaxed);
    }

    /// Whether the vector routines run.
    pub(crate) fn usable() -> bool {
        USABLE.load(Relaxed) && super::allows(super::Level::Simd)
    }

    /// Runs `f` with the vector routines in a kernel FPU section on %v16-%v31, the
    /// registers they use (so that a section interrupted in process context, on %v0-%v15,
    /// needs no save), and returns its value, if the machine has the facility; otherwise
    /// returns `None`. Not inlined: the section's register save area (264 bytes) is on the
    /// stack only while it runs, not while the caller goes deeper.
    #[inline(never)]
    pub(crate) fn run<R>(f: impl FnOnce(&Vx) -> R) -> Option<R> {
        if !usable() {
            return None;
        }
        with_kernel_fpu(VxRegs::HIGH, || {
            // SAFETY: The machine has the vector facility (see `init`), and this closure
            // runs in a kernel FPU section on %v16-%v31; `f` gets the value only by
            // reference, so it does not outlive the section.
            f(&unsafe { Vx::new() })
        })
    }
}

/// Finds out whether the arch routines can run, and whether the SHA-3 library's permutation
/// is arch code.
pub(crate) fn init() {
    LIBRARY_KECCAK.store(kernel::crypto::sha3::keccak_f1600_is_optimized(), Relaxed);
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    avx2::init();
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    vx::init();
}

/// The routines in use where the FPU is usable: "AVX2", "AVX2 + AVX-512VL Keccak",
/// "vector facility" or "portable", the last two with " + SHA-3 library Keccak-f" where
/// the library permutes ExpandA's states.
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
        return match library_keccak() {
            true => "vector facility + SHA-3 library Keccak-f",
            false => "vector facility",
        };
    }
    match library_keccak() {
        true => "portable + SHA-3 library Keccak-f",
        false => "portable",
    }
}
