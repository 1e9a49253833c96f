/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The <asm/nospec-insn.h> macros that arch/s390/ntt_vx.S uses, without expolines, for
 * assembling them on the host (tools/host/build.rs). In the kernel the real header is used.
 */
#ifndef _HOST_ASM_NOSPEC_INSN_H
#define _HOST_ASM_NOSPEC_INSN_H

	.macro GEN_BR_THUNK reg
	.endm

	.macro BR_EX reg
	br	\reg
	.endm

#endif
