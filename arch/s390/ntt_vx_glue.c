// SPDX-License-Identifier: GPL-2.0
/*
 * The FPU sections around the vector-facility NTT routines of ntt_vx.S, for the arch seam
 * of arch.rs. s390's kernel_fpu_begin() is a static inline that takes a save area on
 * the caller's stack, so the sections are opened here, one per transform (a few
 * microseconds). ntt_vx.S uses %v16-%v31 only.
 */
#include <linux/fpu.h>

#include "ntt_vx.h"

/* Whether the machine has the vector facility (z13 and later). */
bool mldsa_vx_available(void)
{
	return cpu_has_vx();
}

void mldsa_ntt_vx_fpu(s32 *a)
{
	DECLARE_KERNEL_FPU_ONSTACK16(vxstate);

	kernel_fpu_begin(&vxstate, KERNEL_VXR_HIGH);
	mldsa_ntt_vx(a);
	kernel_fpu_end(&vxstate, KERNEL_VXR_HIGH);
}

void mldsa_invntt_vx_fpu(s32 *a)
{
	DECLARE_KERNEL_FPU_ONSTACK16(vxstate);

	kernel_fpu_begin(&vxstate, KERNEL_VXR_HIGH);
	mldsa_invntt_vx(a);
	kernel_fpu_end(&vxstate, KERNEL_VXR_HIGH);
}
