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

/*
 * One Keccak-f[1600] permutation, with AVX2: state 0 of the same buffer.
 *
 * void mldsa_keccak_avx2(u64 st[25][4]);
 *
 * Permutes lanes st[i][0] in place; the other states are left alone. Same conventions as
 * mldsa_keccak_x4_avx2 (8-byte alignment, the FPU owned by the caller; clobbers %rax, %rcx,
 * %ymm0-%ymm15; uses no stack). Used where a single state is needed (the last entry of an
 * ML-DSA-65 row of A), at about half the instructions of the 4-way routine.
 *
 * The 24 lanes other than A[0][0] are held as six groups of four, one group per register,
 * chosen so that every step of a round is a few whole-register operations:
 *   Z = A[0][0] in every qword,  R = A[1..4][0] (row 0),  C = A[0][1..4] (column 0),
 *   Sk = A[x][k x mod 5] for x = 1..4 (k = 1..4: the lines of slope k).
 * Theta: the column parities of x = 1..4 are R ^ S1 ^ S2 ^ S3 ^ S4, and column 0's is Z
 * with C's four qwords. Rho: a variable rotation per register. Pi maps (x, y) to
 * (y, 2x + 3y), which takes each group to a group: S1 to R, R to C, C to S3, S2 to S4,
 * S3 to S2 and S4 to S1, with the qwords permuted within the register. Chi works along
 * rows: a transpose (four 4x4 qword swaps with vpunpck[lh]qdq and vperm2i128, then one
 * vpermq per register) turns S1..S4 into the columns T1..T4 = A[x][1..4] (T0 is C), where
 * chi is T[x] ^= ~T[x+1] & T[x+2]; row 0 is done on R and Z. The inverse transpose brings
 * the lines back.
 */
#define Z	%ymm0
#define R	%ymm1
#define C	%ymm2
#define S1	%ymm3
#define S2	%ymm4
#define S3	%ymm5
#define S4	%ymm6

/* vpermq immediate for the qword order [a, b, c, d] */
#define QO(a, b, c, d)	((a) | (b) << 2 | (c) << 4 | (d) << 6)

/* %ymm\r = st[\i0][0], st[\i1][0], st[\i2][0], st[\i3][0] */
.macro gather r, i0, i1, i2, i3
	vmovq		32 * \i0(%rdi), %xmm\r
	vpinsrq		$1, 32 * \i1(%rdi), %xmm\r, %xmm\r
	vmovq		32 * \i2(%rdi), %xmm15
	vpinsrq		$1, 32 * \i3(%rdi), %xmm15, %xmm15
	vinserti128	$1, %xmm15, %ymm\r, %ymm\r
.endm

/* The inverse of gather. */
.macro scatter r, i0, i1, i2, i3
	vmovq		%xmm\r, 32 * \i0(%rdi)
	vpextrq		$1, %xmm\r, 32 * \i1(%rdi)
	vextracti128	$1, %ymm\r, %xmm15
	vmovq		%xmm15, 32 * \i2(%rdi)
	vpextrq		$1, %xmm15, 32 * \i3(%rdi)
.endm

/* \r = ROL(\r, counts at .Lrho + 64 \n), with the right shifts at + 32. */
.macro rho r, n
	vpsllvq		.Lrho + 64 * \n(%rip), \r, %ymm15
	vpsrlvq		.Lrho + 64 * \n + 32(%rip), \r, \r
	vpor		%ymm15, \r, \r
.endm

/* The 4x4 qword transpose: rows %ymm\a..%ymm\d to %ymm\w..%ymm\z (columns). */
.macro transpose a, b, c, d, w, x, y, z
	vpunpcklqdq	%ymm\b, %ymm\a, %ymm11
	vpunpckhqdq	%ymm\b, %ymm\a, %ymm12
	vpunpcklqdq	%ymm\d, %ymm\c, %ymm13
	vpunpckhqdq	%ymm\d, %ymm\c, %ymm14
	vperm2i128	$0x20, %ymm13, %ymm11, %ymm\w
	vperm2i128	$0x20, %ymm14, %ymm12, %ymm\x
	vperm2i128	$0x31, %ymm13, %ymm11, %ymm\y
	vperm2i128	$0x31, %ymm14, %ymm12, %ymm\z
.endm

SYM_FUNC_START(mldsa_keccak_avx2)
	vpbroadcastq	(%rdi), Z
	gather		1, 1, 2, 3, 4
	gather		2, 5, 10, 15, 20
	gather		3, 6, 12, 18, 24
	gather		4, 11, 22, 8, 19
	gather		5, 16, 7, 23, 14
	gather		6, 21, 17, 13, 9
	leaq		.Lkeccak_rc(%rip), %rax
	movl		$24, %ecx
1:
	/* Theta. %ymm7 = [C1 C2 C3 C4], %ymm8 = C0 in every qword. */
	vpxor		S1, R, %ymm7
	vpxor		S2, %ymm7, %ymm7
	vpxor		S3, %ymm7, %ymm7
	vpxor		S4, %ymm7, %ymm7
	vpermq		$QO(2, 3, 0, 1), C, %ymm8
	vpxor		C, %ymm8, %ymm8
	vpermq		$QO(1, 0, 3, 2), %ymm8, %ymm9
	vpxor		%ymm9, %ymm8, %ymm8
	vpxor		Z, %ymm8, %ymm8
	/* %ymm9 = D[1..4] = [C0 C1 C2 C3] ^ ROL([C2 C3 C4 C0], 1) */
	vpermq		$QO(3, 0, 1, 2), %ymm7, %ymm9
	vpblendd	$0x03, %ymm8, %ymm9, %ymm9
	vpermq		$QO(1, 2, 3, 0), %ymm7, %ymm10
	vpblendd	$0xc0, %ymm8, %ymm10, %ymm10
	vpsrlq		$63, %ymm10, %ymm11
	vpaddq		%ymm10, %ymm10, %ymm10
	vpor		%ymm11, %ymm10, %ymm10
	vpxor		%ymm10, %ymm9, %ymm9
	/* %ymm10 = D0 = C4 ^ ROL(C1, 1) in every qword */
	vpermq		$QO(0, 0, 0, 0), %ymm7, %ymm10
	vpsrlq		$63, %ymm10, %ymm11
	vpaddq		%ymm10, %ymm10, %ymm10
	vpor		%ymm11, %ymm10, %ymm10
	vpermq		$QO(3, 3, 3, 3), %ymm7, %ymm11
	vpxor		%ymm11, %ymm10, %ymm10
	vpxor		%ymm9, R, R
	vpxor		%ymm9, S1, S1
	vpxor		%ymm9, S2, S2
	vpxor		%ymm9, S3, S3
	vpxor		%ymm9, S4, S4
	vpxor		%ymm10, C, C
	vpxor		%ymm10, Z, Z
	/* Rho. */
	rho		R, 0
	rho		C, 1
	rho		S1, 2
	rho		S2, 3
	rho		S3, 4
	rho		S4, 5
	/* Pi: the new lines S1..S4 are %ymm7, %ymm8, C and %ymm9, the new C %ymm10, R S1. */
	vpermq		$QO(3, 2, 1, 0), S4, %ymm7
	vpermq		$QO(1, 3, 0, 2), S3, %ymm8
	vpermq		$QO(2, 0, 3, 1), S2, %ymm9
	vpermq		$QO(2, 0, 3, 1), R, %ymm10
	vmovdqa		S1, R
	/* To columns: T1..T4 in %ymm3..%ymm6, T0 in %ymm10. */
	transpose	7, 8, 2, 9, 3, 4, 5, 6
	vpermq		$QO(2, 0, 3, 1), %ymm4, %ymm4
	vpermq		$QO(1, 3, 0, 2), %ymm5, %ymm5
	vpermq		$QO(3, 2, 1, 0), %ymm6, %ymm6
	/* Chi on rows 1..4: T[x] ^= ~T[x+1] & T[x+2]. */
	vpandn		%ymm4, %ymm3, %ymm2
	vpandn		%ymm5, %ymm4, %ymm7
	vpandn		%ymm6, %ymm5, %ymm8
	vpandn		%ymm10, %ymm6, %ymm9
	vpandn		%ymm3, %ymm10, %ymm11
	vpxor		%ymm2, %ymm10, %ymm10
	vpxor		%ymm7, %ymm3, %ymm3
	vpxor		%ymm8, %ymm4, %ymm4
	vpxor		%ymm9, %ymm5, %ymm5
	vpxor		%ymm11, %ymm6, %ymm6
	/* Chi on row 0: R ^= ~[A2 A3 A4 A0] & [A3 A4 A0 A1], Z ^= ~A1 & A2; then iota. */
	vpermq		$QO(1, 2, 3, 3), R, %ymm12
	vpblendd	$0xc0, Z, %ymm12, %ymm12
	vpermq		$QO(2, 3, 0, 0), R, %ymm13
	vpblendd	$0x30, Z, %ymm13, %ymm13
	vpermq		$QO(0, 0, 0, 0), R, %ymm14
	vpermq		$QO(1, 1, 1, 1), R, %ymm15
	vpandn		%ymm15, %ymm14, %ymm14
	vpxor		%ymm14, Z, Z
	vpandn		%ymm13, %ymm12, %ymm12
	vpxor		%ymm12, R, R
	vpxor		(%rax), Z, Z
	/* Back to lines: C, and S1..S4 from T1..T4. */
	vmovdqa		%ymm10, C
	vpermq		$QO(1, 3, 0, 2), %ymm4, %ymm4
	vpermq		$QO(2, 0, 3, 1), %ymm5, %ymm5
	vpermq		$QO(3, 2, 1, 0), %ymm6, %ymm6
	transpose	3, 4, 5, 6, 3, 4, 5, 6
	addq		$32, %rax
	decl		%ecx
	jnz		1b
	vmovq		%xmm0, (%rdi)
	scatter		1, 1, 2, 3, 4
	scatter		2, 5, 10, 15, 20
	scatter		3, 6, 12, 18, 24
	scatter		4, 11, 22, 8, 19
	scatter		5, 16, 7, 23, 14
	scatter		6, 21, 17, 13, 9
	vzeroupper
	RET
SYM_FUNC_END(mldsa_keccak_avx2)

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

/* Rho's rotations for R, C, S1..S4: for each, the left shifts, then the right shifts. */
.balign 32
.Lrho:
	.quad	1, 62, 28, 27
	.quad	63, 2, 36, 37
	.quad	36, 3, 41, 18
	.quad	28, 61, 23, 46
	.quad	44, 43, 21, 14
	.quad	20, 21, 43, 50
	.quad	10, 61, 55, 8
	.quad	54, 3, 9, 56
	.quad	45, 6, 56, 39
	.quad	19, 58, 8, 25
	.quad	2, 15, 25, 20
	.quad	62, 49, 39, 44
