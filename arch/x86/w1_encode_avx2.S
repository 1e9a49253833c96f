/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1Encode (FIPS 204, Algorithm 28) of HighBits (Algorithm 37) of a row of w, with AVX2,
 * as mldsa_verify.rs w1_encode does:
 *
 * void mldsa_w1_encode_avx2(u8 *out, const int32_t w[256], int32_t gamma2);
 *
 * For each coefficient, r = w[k] mod q in [0, q) (w[k] in (-q, q)), its high bits
 * r1 = Decompose(r).0 computed without division as in mldsa_verify.rs decompose, and
 * out = the r1 as 6-bit fields (gamma2 = (q - 1) / 88: 192 bytes) or 4-bit fields
 * (gamma2 = (q - 1) / 32: 128 bytes), little-endian, bit for bit as the portable code.
 * Reads w[0..256], writes exactly those bytes of out. A leaf that uses no stack; in the
 * kernel it must run between kernel_fpu_begin() and kernel_fpu_end().
 *
 * 32 coefficients a step: their high bits, in four registers of dwords, are narrowed to
 * 32 bytes in order; vpmaddubsw then joins pairs of fields into words (and vpmaddwd, for
 * 6 bits, pairs of words into 24-bit dwords), whose bytes are gathered and stored.
 */

#include <linux/linkage.h>

#define Q	8380417

#define OUT	%rdi
#define IN	%rsi
#define END	%rcx

#define VQ	%ymm15
#define V127	%ymm14
#define VMUL	%ymm13		/* 11275 (gamma2 = (q - 1) / 88), 1025 otherwise */
#define VROUND	%ymm12		/* 2^23, or 2^21 */
#define V43	%ymm11		/* 43, or 15 */
#define VORDER	%ymm10		/* vpermd: the dwords of vpack*'s lanes in order */
#define VJOIN	%ymm9		/* vpermd: the 12 bytes of each 128-bit lane joined */

/*
 * %ymm\r = HighBits of each dword (caddq first); clobbers %ymm\t. g88: gamma2 = (q - 1) /
 * 88, where r1 = (r1 * 11275 + 2^23) >> 24, and 0 for 44; else ((r1 * 1025 + 2^21) >> 22)
 * & 15; r1 = (r + 127) >> 7 before.
 */
.macro highbits r, t, g88
	vpsrad		$31, %ymm\r, %ymm\t
	vpand		VQ, %ymm\t, %ymm\t
	vpaddd		%ymm\t, %ymm\r, %ymm\r
	vpaddd		V127, %ymm\r, %ymm\r
	vpsrld		$7, %ymm\r, %ymm\r
	vpmulld		VMUL, %ymm\r, %ymm\r
	vpaddd		VROUND, %ymm\r, %ymm\r
.if \g88
	vpsrld		$24, %ymm\r, %ymm\r
	vpsubd		%ymm\r, V43, %ymm\t
	vpsrad		$31, %ymm\t, %ymm\t
	vpand		%ymm\r, %ymm\t, %ymm\t
	vpxor		%ymm\t, %ymm\r, %ymm\r
.else
	vpsrld		$22, %ymm\r, %ymm\r
	vpand		V43, %ymm\r, %ymm\r
.endif
.endm

/* %ymm0 = the high bits of w[32 i..32 i + 32] at IN as bytes, in order; IN += 128. */
.macro highbits32 g88
	vmovdqu		(IN), %ymm0
	vmovdqu		32(IN), %ymm1
	vmovdqu		64(IN), %ymm2
	vmovdqu		96(IN), %ymm3
	highbits	0, 4, \g88
	highbits	1, 5, \g88
	highbits	2, 6, \g88
	highbits	3, 7, \g88
	vpackusdw	%ymm1, %ymm0, %ymm0
	vpackusdw	%ymm3, %ymm2, %ymm2
	vpackuswb	%ymm2, %ymm0, %ymm0
	vpermd		%ymm0, VORDER, %ymm0
	add		$128, IN
.endm

SYM_FUNC_START(mldsa_w1_encode_avx2)
	vpbroadcastd	.Lq(%rip), VQ
	vpbroadcastd	.L127(%rip), V127
	vmovdqa		.Lorder(%rip), VORDER
	lea		1024(IN), END
	cmp		$(Q - 1) / 88, %edx
	jne		2f

	vpbroadcastd	.L11275(%rip), VMUL
	vpbroadcastd	.L2_23(%rip), VROUND
	vpbroadcastd	.L43(%rip), V43
	vmovdqa		.Ljoin(%rip), VJOIN
	/* 32 fields of 6 bits, 24 bytes, a step; each store but the last writes 32. */
1:	highbits32	1
	vpmaddubsw	.Lby64(%rip), %ymm0, %ymm0	/* f0 + 64 f1 */
	vpmaddwd	.Lby4096(%rip), %ymm0, %ymm0	/* + 4096 (f2 + 64 f3) */
	vpshufb		.Lgather(%rip), %ymm0, %ymm0
	vpermd		%ymm0, VJOIN, %ymm0
	cmp		END, IN
	je		3f
	vmovdqu		%ymm0, (OUT)
	add		$24, OUT
	jmp		1b
3:	vmovdqu		%xmm0, (OUT)
	vextracti128	$1, %ymm0, %xmm0
	vmovq		%xmm0, 16(OUT)
	vzeroupper
	RET

	/* 32 fields of 4 bits, 16 bytes, a step. */
2:	vpbroadcastd	.L1025(%rip), VMUL
	vpbroadcastd	.L2_21(%rip), VROUND
	vpbroadcastd	.L15(%rip), V43
4:	highbits32	0
	vpmaddubsw	.Lby16(%rip), %ymm0, %ymm0	/* f0 + 16 f1 */
	vpackuswb	%ymm0, %ymm0, %ymm0
	vpermq		$0x08, %ymm0, %ymm0
	vmovdqu		%xmm0, (OUT)
	add		$16, OUT
	cmp		END, IN
	jne		4b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_w1_encode_avx2)

.section .rodata
.balign 32
.Lorder:
	.long		0, 4, 1, 5, 2, 6, 3, 7
.Ljoin:
	.long		0, 1, 2, 4, 5, 6, 7, 7
/* vpshufb: bytes 0-2 of each dword, 12 per 128-bit lane. */
.Lgather:
	.byte		0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80
	.byte		0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80
.Lby64:
	.rept		16
	.byte		1, 64
	.endr
.Lby16:
	.rept		16
	.byte		1, 16
	.endr
.Lby4096:
	.rept		8
	.word		1, 4096
	.endr
.Lq:
	.long		Q
.L127:
	.long		127
.L11275:
	.long		11275
.L2_23:
	.long		1 << 23
.L43:
	.long		43
.L1025:
	.long		1025
.L2_21:
	.long		1 << 21
.L15:
	.long		15
