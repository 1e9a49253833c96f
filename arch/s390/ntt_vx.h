/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vector-facility NTT of ntt_vx.S, and the calls of ntt_vx_glue.c that
 * arch.rs makes: each transform in its own FPU section.
 */
#ifndef _CRYPTO_MLDSA_NTT_VX_H
#define _CRYPTO_MLDSA_NTT_VX_H

#include <linux/types.h>

/* NTT and inverse NTT of 256 coefficients, in place; %v16-%v31 only */
void mldsa_ntt_vx(s32 *a);
void mldsa_invntt_vx(s32 *a);

bool mldsa_vx_available(void);
void mldsa_ntt_vx_fpu(s32 *a);
void mldsa_invntt_vx_fpu(s32 *a);

#endif /* _CRYPTO_MLDSA_NTT_VX_H */
