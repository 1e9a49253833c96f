/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Four Keccak-f[1600] permutations in parallel, with AVX2.
 *
 * void mldsa_keccak_x4_avx2(u64 st[25][4]);
 *
 * st[i][s] is lane i = x + 5y (FIPS 202 order) of state s, so row st[i] is one ymm
 * register holding lane i of the four states. All 24 rounds are applied to each of
 * the four states, in place. st needs only 8-byte alignment. The caller must own the
 * FPU (kernel_fpu_begin()). Clobbers %rax, %rcx and %ymm0-%ymm15; uses no stack.
 *
 * The state stays in the caller's buffer. A round keeps the column parities C[x] and
 * theta's D[x] in registers and then, for each output plane y, reads the five lanes
 * that chi combines into it (the "B" lanes), computes the plane and writes it back
 * into the five rows it was read from, while accumulating the next round's C[x].
 * Output lane (x, y) is written to the row that held input lane G(x, y), with
 * G(x, y) = (2x + y, 2x + 3y), so lane (x, y) sits in row (x, y) before even rounds
 * and in row G(x, y) before odd rounds; G is an involution, so every second round
 * the lanes are back in place and two rounds make one loop iteration.
 */

#include <linux/linkage.h>

#define C0	%ymm0		/* column parities, then the next round's */
#define C1	%ymm1
#define C2	%ymm2
#define C3	%ymm3
#define C4	%ymm4
#define D0	%ymm5		/* theta: D[x] = C[x-1] ^ ROL(C[x+1], 1) */
#define D1	%ymm6
#define D2	%ymm7
#define D3	%ymm8
#define D4	%ymm9
#define B0	%ymm10		/* the plane being computed, after theta, rho and pi */
#define B1	%ymm11
#define B2	%ymm12
#define B3	%ymm13
#define B4	%ymm14
#define TMP	%ymm15

#define MOD5(v)		((v) - 5 * ((v) / 5))
/* Byte offset of the row holding lane (x, y) before a round of parity p. */
#define ROW(p, x, y)	(32 * (MOD5((x) + (p) * ((x) + (y))) + \
			       5 * MOD5((y) + (p) * 2 * ((x) + (y)))))

/* dst = ROL(src, n) in each 64-bit lane; dst may be src. Clobbers TMP. */
.macro rol dst, src, n
.if \n == 8
	vpshufb		.Lrol8(%rip), \src, \dst
.elseif \n == 56
	vpshufb		.Lrol56(%rip), \src, \dst
.else
	vpsrlq		$64 - \n, \src, TMP
.if \n == 1
	vpaddq		\src, \src, \dst
.else
	vpsllq		$\n, \src, \dst
.endif
	vpor		TMP, \dst, \dst
.endif
.endm

/* Theta: C[x] = A[x, 0] ^ ... ^ A[x, 4] of the input. */
.macro column c, x
	vmovdqu		32 * \x(%rdi), \c
.irp y, 1, 2, 3, 4
	vpxor		32 * (\x + 5 * \y)(%rdi), \c, \c
.endr
.endm

/* Theta: d = cl ^ ROL(cr, 1), i.e. D[x] from C[x-1] and C[x+1]. */
.macro theta_d d, cl, cr
	rol		\d, \cr, 1
	vpxor		\cl, \d, \d
.endm

/* Theta, rho and pi: b = ROL(A[x', y'] ^ D[x'], n), the lane read from byte offset off. */
.macro theta_rho b, d, n, off
	vpxor		\off(%rdi), \d, \b
.if \n
	rol		\b, \b, \n
.endif
.endm

/*
 * Chi: A[x, y] = B[x] ^ (~B[x+1] & B[x+2]), plus iota for lane (0, 0), stored to the
 * row that held input lane G(x, y). The plane y = 0 starts the next round's C[x] =
 * c, the others are xored into it.
 */
.macro chi p, x, y, c, b0, b1, b2
.if \y == 0
	vpandn		\b2, \b1, \c
	vpxor		\b0, \c, \c
.if \x == 0
	vpxor		32 * \p(%rax), \c, \c		/* iota */
.endif
	vmovdqu		\c, ROW(\p, 2 * \x + \y, 2 * \x + 3 * \y)(%rdi)
.else
	vpandn		\b2, \b1, TMP
	vpxor		\b0, TMP, TMP
	vmovdqu		TMP, ROW(\p, 2 * \x + \y, 2 * \x + 3 * \y)(%rdi)
	vpxor		TMP, \c, \c
.endif
.endm

/*
 * Output plane y of a round of parity p. Its lane x comes from input lane
 * (x', y') = (x + 3y, x), with D[x'] = dx and rotation rx.
 */
.macro plane p, y, d0, d1, d2, d3, d4, r0, r1, r2, r3, r4
	theta_rho	B0, \d0, \r0, ROW(\p, 3 * \y, 0)
	theta_rho	B1, \d1, \r1, ROW(\p, 1 + 3 * \y, 1)
	theta_rho	B2, \d2, \r2, ROW(\p, 2 + 3 * \y, 2)
	theta_rho	B3, \d3, \r3, ROW(\p, 3 + 3 * \y, 3)
	theta_rho	B4, \d4, \r4, ROW(\p, 4 + 3 * \y, 4)
	chi		\p, 0, \y, C0, B0, B1, B2
	chi		\p, 1, \y, C1, B1, B2, B3
	chi		\p, 2, \y, C2, B2, B3, B4
	chi		\p, 3, \y, C3, B3, B4, B0
	chi		\p, 4, \y, C4, B4, B0, B1
.endm

/* One round of parity p, with C[x] in C0-C4 on entry and exit; iota from (%rax). */
.macro round p
	theta_d		D0, C4, C1
	theta_d		D1, C0, C2
	theta_d		D2, C1, C3
	theta_d		D3, C2, C4
	theta_d		D4, C3, C0
	plane		\p, 0, D0, D1, D2, D3, D4,  0, 44, 43, 21, 14
	plane		\p, 1, D3, D4, D0, D1, D2, 28, 20,  3, 45, 61
	plane		\p, 2, D1, D2, D3, D4, D0,  1,  6, 25,  8, 18
	plane		\p, 3, D4, D0, D1, D2, D3, 27, 36, 10, 15, 56
	plane		\p, 4, D2, D3, D4, D0, D1, 62, 55, 39, 41,  2
.endm

.text
SYM_FUNC_START(mldsa_keccak_x4_avx2)
	column		C0, 0
	column		C1, 1
	column		C2, 2
	column		C3, 3
	column		C4, 4
	leaq		.Lkeccak_rc(%rip), %rax
	leaq		.Lkeccak_rc + 24 * 32(%rip), %rcx
1:
	round		0
	round		1
	addq		$2 * 32, %rax
	cmpq		%rcx, %rax
	jne		1b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_keccak_x4_avx2)

.section .rodata
.balign 32
/* Iota's round constants, each broadcast to the four states. */
.Lkeccak_rc:
.irp rc, 0x0000000000000001, 0x0000000000008082, 0x800000000000808a, \
	 0x8000000080008000, 0x000000000000808b, 0x0000000080000001, \
	 0x8000000080008081, 0x8000000000008009, 0x000000000000008a, \
	 0x0000000000000088, 0x0000000080008009, 0x000000008000000a, \
	 0x000000008000808b, 0x800000000000008b, 0x8000000000008089, \
	 0x8000000000008003, 0x8000000000008002, 0x8000000000000080, \
	 0x000000000000800a, 0x800000008000000a, 0x8000000080008081, \
	 0x8000000000008080, 0x0000000080000001, 0x8000000080008008
	.quad		\rc, \rc, \rc, \rc
.endr
/* vpshufb masks rotating each 64-bit lane left by 8 and by 56 bits. */
.Lrol8:
	.quad		0x0605040302010007, 0x0e0d0c0b0a09080f
	.quad		0x0605040302010007, 0x0e0d0c0b0a09080f
.Lrol56:
	.quad		0x0007060504030201, 0x080f0e0d0c0b0a09
	.quad		0x0007060504030201, 0x080f0e0d0c0b0a09
