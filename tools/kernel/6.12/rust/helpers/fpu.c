// SPDX-License-Identifier: GPL-2.0

#ifdef CONFIG_X86
#include <linux/cpufeature.h>
#include <asm/fpu/api.h>

bool rust_helper_boot_cpu_has(u16 bit)
{
	return boot_cpu_has(bit);
}

void rust_helper_kernel_fpu_begin(void)
{
	kernel_fpu_begin();
}
#endif

#ifdef CONFIG_S390
#include <linux/fpu.h>

bool rust_helper_cpu_has_vx(void)
{
	return cpu_has_vx();
}

/*
 * kernel_fpu_begin() and kernel_fpu_end() are macros that check at compile
 * time that the flags name as many vector registers as the save area holds.
 * Rust passes only 16-register ranges with a struct kernel_fpu_16 (see
 * rust/kernel/fpu.rs), so these wrap the functions behind the macros.
 */
void rust_helper__kernel_fpu_begin(struct kernel_fpu *state, int flags)
{
	_kernel_fpu_begin(state, flags);
}

void rust_helper__kernel_fpu_end(struct kernel_fpu *state, int flags)
{
	_kernel_fpu_end(state, flags);
}
#endif
