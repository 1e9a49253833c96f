/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Four Keccak-f[1600] permutations in parallel, with AVX-512VL: EVEX instructions on
 * ymm registers only (what arch/x86/crypto calls AVX10/256), so no 512-bit downclocking.
 *
 * void mldsa_keccak_x4_avx512(u64 st[25][4]);
 *
 * The same function as mldsa_keccak_x4_avx2 (see keccak_x4_avx2.S): st[i][s] is lane
 * i = x + 5y of state s, st needs only 8-byte alignment, and the caller must own the FPU.
 * Clobbers %rax, %rcx and %ymm0-%ymm31; uses no stack.
 *
 * The whole state stays in registers: 25 hold the lanes (each the same lane of the four
 * states) and seven, T0-T6, are scratch. vprolq rotates in one instruction and vpternlogq
 * computes chi's a ^ (~b & c), or a three-way xor, in one. Lanes change registers as they
 * change rows in mldsa_keccak_x4_avx2: before a round of parity p, lane (x, y) is in
 * %ymm REG(p, x, y), and each plane of chi writes its output lanes into the registers of
 * the five lanes it read. Two rounds make one loop iteration.
 */

#include <linux/linkage.h>

#define MOD5(v)		((v) - 5 * ((v) / 5))
/* The register of lane (x, y) before a round of parity p (the rows of keccak_x4_avx2.S). */
#define REG(p, x, y)	(MOD5((x) + (p) * ((x) + (y))) + \
			 5 * MOD5((y) + (p) * 2 * ((x) + (y))))
/* Scratch register k, T0-T6. */
#define T(k)		(25 + (k))

.altmacro

/*
 * The macros below take register numbers, so that the callers can compute them: with
 * .altmacro, %(...) in a macro argument is evaluated. The mode ends after the function.
 */

/* %ymm\d = %ymm\s */
.macro vmov d, s
	vmovdqa64	%ymm\s, %ymm\d
.endm

/* %ymm\d = %ymm\d ^ %ymm\a ^ %ymm\b */
.macro xor3 d, a, b
	vpternlogq	$0x96, %ymm\b, %ymm\a, %ymm\d
.endm

/* %ymm\d = %ymm\a ^ (~%ymm\b & %ymm\c), chi */
.macro chi d, a, b, c
	vmovdqa64	%ymm\a, %ymm\d
	vpternlogq	$0xd2, %ymm\c, %ymm\b, %ymm\d
.endm

/* %ymm\t = C[x] = A[x, 0] ^ ... ^ A[x, 4] */
.macro column p, x, t
	vmov		\t, %REG(\p, \x, 0)
	xor3		\t, %REG(\p, \x, 1), %REG(\p, \x, 2)
	xor3		\t, %REG(\p, \x, 3), %REG(\p, \x, 4)
.endm

/*
 * Theta for column x: A[x, y] ^= D[x] = C[x-1] ^ ROL(C[x+1], 1) for y = 0..4, with C[x-1]
 * in %ymm\cl, and ROL(C[x+1], 1) put in %ymm\r from %ymm\cr.
 */
.macro theta p, x, cl, cr, r
	vprolq		$1, %ymm\cr, %ymm\r
.irp y, 0, 1, 2, 3, 4
	xor3		%REG(\p, \x, \y), \cl, \r
.endr
.endm

/* %ymm\d = ROL(%ymm\s, n) */
.macro rol d, s, n
.if \n
	vprolq		$\n, %ymm\s, %ymm\d
.else
	vmov		\d, \s
.endif
.endm

/*
 * Rho, pi and chi for output plane y of a round of parity p. Its lane x is chi of lanes
 * x, x + 1, x + 2 of B: B[x] is input lane (x + 3y, x) rotated by rx, into T(x). It
 * goes to the register of input lane (2x + y, 2x + 3y), one of the five read.
 */
.macro plane p, y, r0, r1, r2, r3, r4
	rol		%T(0), %REG(\p, 3 * \y, 0), \r0
	rol		%T(1), %REG(\p, 1 + 3 * \y, 1), \r1
	rol		%T(2), %REG(\p, 2 + 3 * \y, 2), \r2
	rol		%T(3), %REG(\p, 3 + 3 * \y, 3), \r3
	rol		%T(4), %REG(\p, 4 + 3 * \y, 4), \r4
	chi		%REG(\p, \y, 3 * \y), %T(0), %T(1), %T(2)
	chi		%REG(\p, 2 + \y, 2 + 3 * \y), %T(1), %T(2), %T(3)
	chi		%REG(\p, 4 + \y, 4 + 3 * \y), %T(2), %T(3), %T(4)
	chi		%REG(\p, 6 + \y, 6 + 3 * \y), %T(3), %T(4), %T(0)
	chi		%REG(\p, 8 + \y, 8 + 3 * \y), %T(4), %T(0), %T(1)
.endm

/* One round of parity p; iota's constant at (%rax). */
.macro round p
	/* Theta: C[x] in T0-T4; ROL(C[x+1], 1) in T5, T6, T5, T6, then T1 (C[1] used). */
.irp x, 0, 1, 2, 3, 4
	column		\p, \x, %T(\x)
.endr
	theta		\p, 0, %T(4), %T(1), %T(5)
	theta		\p, 1, %T(0), %T(2), %T(6)
	theta		\p, 2, %T(1), %T(3), %T(5)
	theta		\p, 3, %T(2), %T(4), %T(6)
	theta		\p, 4, %T(3), %T(0), %T(1)
	plane		\p, 0,  0, 44, 43, 21, 14
	/* Iota: lane (0, 0) is always in %ymm0. */
	vpxorq		(%rax){1to4}, %ymm0, %ymm0
	plane		\p, 1, 28, 20,  3, 45, 61
	plane		\p, 2,  1,  6, 25,  8, 18
	plane		\p, 3, 27, 36, 10, 15, 56
	plane		\p, 4, 62, 55, 39, 41,  2
.endm

.text
SYM_FUNC_START(mldsa_keccak_x4_avx512)
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24
	vmovdqu64	32 * \i(%rdi), %ymm\i
.endr
	leaq		.Lkeccak_rc(%rip), %rax
	leaq		.Lkeccak_rc + 24 * 8(%rip), %rcx
1:
	round		0
	addq		$8, %rax
	round		1
	addq		$8, %rax
	cmpq		%rcx, %rax
	jne		1b
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24
	vmovdqu64	%ymm\i, 32 * \i(%rdi)
.endr
	vzeroupper
	RET
SYM_FUNC_END(mldsa_keccak_x4_avx512)
.noaltmacro

.section .rodata
.balign 8
/* Iota's round constants, broadcast to the four states as they are used. */
.Lkeccak_rc:
	.quad	0x0000000000000001, 0x0000000000008082, 0x800000000000808a
	.quad	0x8000000080008000, 0x000000000000808b, 0x0000000080000001
	.quad	0x8000000080008081, 0x8000000000008009, 0x000000000000008a
	.quad	0x0000000000000088, 0x0000000080008009, 0x000000008000000a
	.quad	0x000000008000808b, 0x800000000000008b, 0x8000000000008089
	.quad	0x8000000000008003, 0x8000000000008002, 0x8000000000000080
	.quad	0x000000000000800a, 0x800000008000000a, 0x8000000080008081
	.quad	0x8000000000008080, 0x0000000080000001, 0x8000000080008008
