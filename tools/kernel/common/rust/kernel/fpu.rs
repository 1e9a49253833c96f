// SPDX-License-Identifier: GPL-2.0

//! Kernel-mode FPU sections, in which kernel code may use the SIMD registers.
//!
//! C headers: [`arch/x86/include/asm/fpu/api.h`](srctree/arch/x86/include/asm/fpu/api.h),
//! [`arch/s390/include/asm/fpu.h`](srctree/arch/s390/include/asm/fpu.h)

use crate::bindings;
#[cfg(CONFIG_S390)]
use crate::ffi::c_int;
#[cfg(CONFIG_S390)]
use core::mem::MaybeUninit;

/// Runs `f` in a kernel FPU section and returns what it returns, or returns [`None`] without
/// running `f` where the FPU is not usable (in an interrupt that arrived while the FPU was in
/// use, for example).
///
/// In the section, code may use the registers of the features that
/// [`crate::cpufeature`] reports. Preemption and softirqs are off while `f` runs, so `f`
/// must not sleep and should be short. Not for NMI context, where `irq_fpu_usable()` warns.
///
/// # Examples
///
/// ```
/// use kernel::fpu::with_kernel_fpu;
///
/// // Where the FPU is usable (in a thread, say), the closure runs and its value comes back.
/// if let Some(n) = with_kernel_fpu(|| 6 * 7) {
///     assert_eq!(n, 42);
/// }
/// // A section is refused inside another: x86 sections do not nest.
/// assert!(!matches!(with_kernel_fpu(|| with_kernel_fpu(|| ())), Some(Some(()))));
/// ```
#[cfg(CONFIG_X86)]
#[must_use = "`None` means that the closure did not run"]
pub fn with_kernel_fpu<R>(f: impl FnOnce() -> R) -> Option<R> {
    // SAFETY: `irq_fpu_usable()` has no preconditions outside NMI context.
    if !unsafe { bindings::irq_fpu_usable() } {
        return None;
    }
    // SAFETY: The FPU is usable in this context (checked above), and the section is ended
    // below, in the same context.
    unsafe { bindings::kernel_fpu_begin() };
    let r = f();
    // SAFETY: Ends the section begun above.
    unsafe { bindings::kernel_fpu_end() };
    Some(r)
}

/// Sixteen of the 32 vector registers of s390, which a section names so that only those
/// an outer section uses are saved: as many as the save area of [`with_kernel_fpu`] holds.
#[cfg(CONFIG_S390)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VxRegs(c_int);

#[cfg(CONFIG_S390)]
impl VxRegs {
    /// V0 to V15, which overlap the floating-point registers: for code that runs in process
    /// context.
    pub const LOW: Self = Self(bindings::KERNEL_VXR_LOW);
    /// V16 to V31: for code that also runs in interrupt context, so that it rarely needs to
    /// save the registers of the section it interrupted.
    pub const HIGH: Self = Self(bindings::KERNEL_VXR_HIGH);
}

/// Runs `f` in a kernel FPU section in which it may use the vector registers `regs`, and
/// returns what it returns, as the x86 function does; s390 allows a section in any
/// context, so this is never [`None`].
///
/// A section may be nested in another. Where an outer section (in the task this
/// interrupted, say) uses some of `regs`, they are saved in a 264-byte area on this stack
/// and restored when `f` returns. Whether the machine has the registers is
/// [`crate::cpufeature::cpu_has_vx`].
///
/// # Examples
///
/// ```
/// use kernel::fpu::{with_kernel_fpu, VxRegs};
///
/// let n = with_kernel_fpu(VxRegs::HIGH, || with_kernel_fpu(VxRegs::LOW, || 6 * 7));
/// assert_eq!(n, Some(Some(42)));
/// ```
#[cfg(CONFIG_S390)]
#[must_use = "`None` means that the closure did not run"]
pub fn with_kernel_fpu<R>(regs: VxRegs, f: impl FnOnce() -> R) -> Option<R> {
    let mut save = MaybeUninit::<bindings::kernel_fpu_16>::uninit();
    let state = save.as_mut_ptr().cast::<bindings::kernel_fpu>();
    // SAFETY: `state` is a save area for 16 vector registers, as many as any `VxRegs` names
    // (the size that the `kernel_fpu_begin()` macro checks at compile time); it stays in
    // place, unused by anything else, until the section ends below.
    unsafe { bindings::_kernel_fpu_begin(state, regs.0) };
    let r = f();
    // SAFETY: Ends the section begun above, with the same save area and registers.
    unsafe { bindings::_kernel_fpu_end(state, regs.0) };
    Some(r)
}
