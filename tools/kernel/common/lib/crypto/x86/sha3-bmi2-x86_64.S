/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keccak-f[1600] for x86_64 with BMI1 and BMI2, in general-purpose registers
 *
 * void sha3_keccakf_bmi2(struct sha3_state *state);
 *
 * Permutes the 25 lanes of state in place: lane x + 5y, (x, y) in FIPS 202's
 * order, is the little-endian word at 8 * (x + 5y).  BMI2's rorx rotates
 * into another register and BMI1's andn does chi's complement and AND in one
 * instruction, so a round is 130 ALU instructions, besides 50 loads and 25
 * stores, with no register copies.  The caller needs no FPU section.
 *
 * A round first reads the column parities C[x] and forms theta's
 * D[x] = C[x-1] ^ ROL(C[x+1], 1).  Then, for each output plane y, it reads
 * the five lanes that chi combines into it (the "B" lanes, after theta, rho
 * and pi), computes the plane and writes each of its lanes back where an
 * input lane was read.  Output lane (x, y) goes to the word that held input
 * lane G(x, y) = (2x + y, 2x + 3y), so lane (x, y) sits in word (x, y)
 * before even rounds and in word G(x, y) before odd ones; G is an
 * involution, so after every second round the lanes are back in place and
 * two rounds make one loop iteration.
 */

#include <linux/linkage.h>

#define STATE	%rdi
#define RC	%rax		/* points to this round's constant for iota */
#define RC_END	%rcx
#define D0	%rsi		/* theta: D[x] */
#define D1	%rdx
#define D2	%r8
#define D3	%r9
#define D4	%r10
#define B0	%r11		/* C[x], then the plane being computed */
#define B1	%rbx
#define B2	%r12
#define B3	%r13
#define B4	%r14
#define T	%r15

#define MOD5(v)		((v) - 5 * ((v) / 5))
/* Byte offset of the word holding lane (x, y) before a round of parity p. */
#define LANE(p, x, y)	(8 * (MOD5((x) + (p) * ((x) + (y))) + \
			      5 * MOD5((y) + (p) * 2 * ((x) + (y)))))

/* Theta: c = A[x, 0] ^ ... ^ A[x, 4]. */
.macro column p, c, x
	movq		LANE(\p, \x, 0)(STATE), \c
.irp y, 1, 2, 3, 4
	xorq		LANE(\p, \x, \y)(STATE), \c
.endr
.endm

/* Theta: d = cl ^ ROL(cr, 1), i.e. D[x] from C[x-1] and C[x+1]. */
.macro theta_d d, cl, cr
	rorxq		$63, \cr, \d
	xorq		\cl, \d
.endm

/* Theta, rho and pi: b = ROL(A[x', y'] ^ D[x'], n), with (x', y') at offset off. */
.macro theta_rho b, d, n, off
	movq		\off(STATE), \b
	xorq		\d, \b
.if \n
	rorxq		$64 - \n, \b, \b
.endif
.endm

/*
 * Chi: A[x, y] = B[x] ^ (~B[x+1] & B[x+2]), plus iota for lane (0, 0), stored
 * to the word that held input lane G(x, y).
 */
.macro chi p, x, y, b0, b1, b2
	andnq		\b2, \b1, T
	xorq		\b0, T
.if \x == 0 && \y == 0
	xorq		(RC), T
.endif
	movq		T, LANE(\p, 2 * \x + \y, 2 * \x + 3 * \y)(STATE)
.endm

/*
 * Output plane y of a round of parity p.  Its lane x comes from input lane
 * (x', y') = (x + 3y, x), with D[x'] = dx and rotation rx.
 */
.macro plane p, y, d0, d1, d2, d3, d4, r0, r1, r2, r3, r4
	theta_rho	B0, \d0, \r0, LANE(\p, 3 * \y, 0)
	theta_rho	B1, \d1, \r1, LANE(\p, 1 + 3 * \y, 1)
	theta_rho	B2, \d2, \r2, LANE(\p, 2 + 3 * \y, 2)
	theta_rho	B3, \d3, \r3, LANE(\p, 3 + 3 * \y, 3)
	theta_rho	B4, \d4, \r4, LANE(\p, 4 + 3 * \y, 4)
	chi		\p, 0, \y, B0, B1, B2
	chi		\p, 1, \y, B1, B2, B3
	chi		\p, 2, \y, B2, B3, B4
	chi		\p, 3, \y, B3, B4, B0
	chi		\p, 4, \y, B4, B0, B1
.endm

/* One round of parity p. */
.macro round p
	column		\p, B0, 0
	column		\p, B1, 1
	column		\p, B2, 2
	column		\p, B3, 3
	column		\p, B4, 4
	theta_d		D0, B4, B1
	theta_d		D1, B0, B2
	theta_d		D2, B1, B3
	theta_d		D3, B2, B4
	theta_d		D4, B3, B0
	plane		\p, 0, D0, D1, D2, D3, D4,  0, 44, 43, 21, 14
	plane		\p, 1, D3, D4, D0, D1, D2, 28, 20,  3, 45, 61
	plane		\p, 2, D1, D2, D3, D4, D0,  1,  6, 25,  8, 18
	plane		\p, 3, D4, D0, D1, D2, D3, 27, 36, 10, 15, 56
	plane		\p, 4, D2, D3, D4, D0, D1, 62, 55, 39, 41,  2
	addq		$8, RC
.endm

SYM_FUNC_START(sha3_keccakf_bmi2)
	pushq		%rbx
	pushq		%r12
	pushq		%r13
	pushq		%r14
	pushq		%r15
	leaq		.Lsha3_rc(%rip), RC
	leaq		.Lsha3_rc + 24 * 8(%rip), RC_END
.Lround_pair:
	round		0
	round		1
	cmpq		RC_END, RC
	jne		.Lround_pair
	popq		%r15
	popq		%r14
	popq		%r13
	popq		%r12
	popq		%rbx
	RET
SYM_FUNC_END(sha3_keccakf_bmi2)

.section .rodata
.balign 8
/* Iota's round constants. */
.Lsha3_rc:
	.quad	0x0000000000000001, 0x0000000000008082, 0x800000000000808a
	.quad	0x8000000080008000, 0x000000000000808b, 0x0000000080000001
	.quad	0x8000000080008081, 0x8000000000008009, 0x000000000000008a
	.quad	0x0000000000000088, 0x0000000080008009, 0x000000008000000a
	.quad	0x000000008000808b, 0x800000000000008b, 0x8000000000008089
	.quad	0x8000000000008003, 0x8000000000008002, 0x8000000000000080
	.quad	0x000000000000800a, 0x800000008000000a, 0x8000000080008081
	.quad	0x8000000000008080, 0x0000000080000001, 0x8000000080008008
