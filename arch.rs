// SPDX-License-Identifier: GPL-2.0

//! The core's arch seam (`crate::arch`): the AVX2 routines of `arch/x86/` (through the safe
//! methods of `arch/x86/avx2.rs`, shared with the host harness) where the CPU has AVX2 and
//! the FPU is usable in the calling context, the s390 vector-facility NTT of
//! `arch/s390/` (through `arch/s390/vx.rs`, shared too) where the machine has the
//! facility, the portable code otherwise. Each call
//! is its own short FPU section (one NTT or one 4-way permutation), so preemption is never
//! held off for long.

use crate::keccak::{keccak_f1600, StateX4};
use crate::ntt::{self, PackedPoly, Poly};
use core::fmt::{self, Write};
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// How much of the arch code may run, from none to all that the machine has; below
/// [`Level::All`] only while the self-tests cover each code path ([`at_level`]).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Level {
    /// The portable code only.
    Portable,
    /// The SIMD routines, but not the AVX-512VL Keccak.
    Simd,
    /// Everything the machine can run.
    All,
}

/// The current [`Level`].
static LEVEL: AtomicU8 = AtomicU8::new(Level::All as u8);

/// Whether the current level allows the code of level `l`.
fn allows(l: Level) -> bool {
    LEVEL.load(Relaxed) >= l as u8
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
    [Level::Portable, Level::Simd, Level::All]
        .into_iter()
        .filter(move |&l| {
            let name = at_level(l, name);
            prev.replace(name) != Some(name)
        })
}

/// The names of the code of each of [`levels`], as "portable, AVX2".
pub(crate) struct Paths {
    buf: [u8; 64],
    len: usize,
}

impl Paths {
    pub(crate) fn new() -> Self {
        let mut p = Paths {
            buf: [0; 64],
            len: 0,
        };
        for (i, l) in levels().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            // The names fit: at most 42 bytes.
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
    use crate::avx2::Avx2;
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
    use crate::vx::Vx;
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
        Some(with_kernel_fpu(VxRegs::HIGH, || {
            // SAFETY: The machine has the vector facility (see `init`), and this closure
            // runs in a kernel FPU section on %v16-%v31; `f` gets the value only by
            // reference, so it does not outlive the section.
            f(&unsafe { Vx::new() })
        }))
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

pub(crate) fn ntt(a: &mut Poly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.ntt(a)).is_some() {
        return;
    }
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    if vx::run(|v| v.ntt(a)).is_some() {
        return;
    }
    ntt::ntt(a)
}

/// `ntt::invntt_tomont` of `a` for any `a[i]` < 2^31 - 2^22: each is first brought below
/// q by `ntt::reduce32` (which the AVX2 routine does as it loads them).
pub(crate) fn invntt_tomont(a: &mut Poly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.invntt_tomont(a)).is_some() {
        return;
    }
    a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    if vx::run(|v| v.invntt_tomont(a)).is_some() {
        return;
    }
    ntt::invntt_tomont(a)
}

/// c = a * b pointwise, from packed polynomials.
pub(crate) fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.pointwise(c, a, b)).is_some() {
        return;
    }
    crate::mldsa_verify::pointwise(c, a, b)
}

/// Packs `a`, each coefficient reduced to [0, q), into `out`.
pub(crate) fn pack(a: &Poly, out: &mut PackedPoly) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.pack(a, out)).is_some() {
        return;
    }
    crate::mldsa_verify::pack(a, out)
}

/// w1Encode of HighBits of `w` into `out`, 4-bit fields if gamma2 = (q - 1) / 32 and
/// 6-bit ones otherwise.
pub(crate) fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.w1_encode(gamma2, w, out)).is_some() {
        return;
    }
    crate::mldsa_verify::w1_encode(gamma2, w, out)
}

/// Permutes states 0..`states`; the others are scratch, which the vector routines
/// permute too.
pub(crate) fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    if avx2::run(|s| s.keccak_f1600_x4(st)).is_some() {
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
    if let Some(taken) = avx2::run(|s| s.rej_ntt_mul_acc(w, zhat, st, t, m)) {
        return taken;
    }
    #[cfg(not(CONFIG_CRYPTO_MLDSA_AVX2))]
    let _ = (w, zhat, st, t, m);
    0
}
