// SPDX-License-Identifier: GPL-2.0

//! CPU features, and on x86 the register state the kernel manages.
//!
//! C headers: [`arch/x86/include/asm/cpufeature.h`](srctree/arch/x86/include/asm/cpufeature.h),
//! [`arch/s390/include/asm/cpufeature.h`](srctree/arch/s390/include/asm/cpufeature.h)

use crate::bindings;

/// A CPU feature: an `X86_FEATURE_*` bit.
#[cfg(CONFIG_X86)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature(u16);

#[cfg(CONFIG_X86)]
impl Feature {
    /// Advanced Vector Extensions.
    pub const AVX: Self = Self(bindings::X86_FEATURE_AVX as u16);
    /// AVX2.
    pub const AVX2: Self = Self(bindings::X86_FEATURE_AVX2 as u16);
    /// AVX-512 Foundation.
    pub const AVX512F: Self = Self(bindings::X86_FEATURE_AVX512F as u16);
    /// AVX-512 Vector Length extensions: AVX-512 instructions on ymm and xmm registers.
    pub const AVX512VL: Self = Self(bindings::X86_FEATURE_AVX512VL as u16);
}

/// A set of extended register states (`XFEATURE_MASK_*`).
#[cfg(CONFIG_X86)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XFeatures(u64);

#[cfg(CONFIG_X86)]
impl XFeatures {
    /// The SSE registers (xmm).
    pub const SSE: Self = Self(bindings::XFEATURE_MASK_SSE);
    /// The upper halves of the AVX registers (ymm).
    pub const YMM: Self = Self(bindings::XFEATURE_MASK_YMM);
    /// The AVX-512 registers: opmask, zmm upper halves and zmm16 to zmm31.
    pub const AVX512: Self = Self(bindings::XFEATURE_MASK_AVX512);
}

#[cfg(CONFIG_X86)]
impl core::ops::BitOr for XFeatures {
    type Output = Self;

    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

/// Whether the boot CPU, and so every CPU, has `feature`.
///
/// # Examples
///
/// ```
/// use kernel::cpufeature::{boot_cpu_has, Feature};
///
/// // AVX2 extends AVX.
/// assert!(!boot_cpu_has(Feature::AVX2) || boot_cpu_has(Feature::AVX));
/// ```
#[cfg(CONFIG_X86)]
#[inline]
pub fn boot_cpu_has(feature: Feature) -> bool {
    // SAFETY: Only reads the boot CPU's feature bits.
    unsafe { bindings::boot_cpu_has(feature.0) }
}

/// Whether the kernel saves and restores all of `states`: code may use those registers
/// only then, even if the CPU has the feature.
#[cfg(CONFIG_X86)]
#[inline]
pub fn cpu_has_xfeatures(states: XFeatures) -> bool {
    // SAFETY: Only reads the enabled xstate mask; a null feature name pointer is allowed.
    unsafe { bindings::cpu_has_xfeatures(states.0, core::ptr::null_mut()) != 0 }
}

/// Whether the machine has the vector facility (facility 129, z13 and later), whose
/// registers kernel code may use in a [`crate::fpu::with_kernel_fpu`] section.
///
/// # Examples
///
/// ```
/// use kernel::cpufeature::cpu_has_vx;
///
/// pr_info!("vector facility: {}\n", if cpu_has_vx() { "yes" } else { "no" });
/// ```
#[cfg(CONFIG_S390)]
#[inline]
pub fn cpu_has_vx() -> bool {
    // SAFETY: Only reads the facility bits stored at boot.
    unsafe { bindings::cpu_has_vx() }
}
