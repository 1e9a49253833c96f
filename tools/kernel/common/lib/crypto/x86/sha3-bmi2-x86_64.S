/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keccak-f[1600] for x86_64 with BMI1 and BMI2, in general-purpose registers
 *
 * void sha3_keccakf_bmi2(struct sha3_state *state);
 *
 * Permutes the 25 lanes of state in place: lane x + 5y, (x, y) in FIPS 202's
 * order, is the little-endian word at 8 * (x + 5y).  BMI2's rorx rotates
 * into another register and BMI1's andn does chi's complement and AND in one
 * instruction, so a round is 130 ALU instructions, besides 45 loads and 25
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
 * two rounds make one loop iteration.  The last plane a round computes stays
 * in registers, where the next round's column parities start: its lanes were
 * stored last, and reading them back from memory would wait on those stores.
 * The two banks of five registers swap roles (C and B, D and the last plane)
 * every round.
 */

#include <linux/linkage.h>

#define STATE	%rdi
#define RC	%rax		/* points to this round's constant for iota */
#define RC_END	%rcx
#define X0	%r11		/* two banks of five: C[x], then the plane's B[x] */
#define X1	%rbx
#define X2	%r12
#define X3	%r13
#define X4	%r14
#define Y0	%rsi		/* and D[x], then the round's last plane */
#define Y1	%rdx
#define Y2	%r8
#define Y3	%r9
#define Y4	%r10
#define T	%r15

#define MOD5(v)		((v) - 5 * ((v) / 5))
/* Byte offset of the word holding lane (x, y) before a round of parity p. */
#define LANE(p, x, y)	(8 * (MOD5((x) + (p) * ((x) + (y))) + \
			      5 * MOD5((y) + (p) * 2 * ((x) + (y)))))

/* Theta: c = A[x, 0] ^ ... ^ A[x, 4], where c holds A[x, 4] already. */
.macro column p, c, x
.irp y, 0, 1, 2, 3
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
 * Chi: A[x, y] = B[x] ^ (~B[x+1] & B[x+2]), plus iota for lane (0, 0), in
 * register a and stored to the word that held input lane G(x, y).
 */
.macro chi p, x, y, b0, b1, b2, a
	andnq		\b2, \b1, \a
	xorq		\b0, \a
.if \x == 0 && \y == 0
	xorq		(RC), \a
.endif
	movq		\a, LANE(\p, 2 * \x + \y, 2 * \x + 3 * \y)(STATE)
.endm

/*
 * Output plane y of a round of parity p, from the B lanes in b0 ... b4, its
 * lane x in register ax.  Its lane x comes from input lane (x', y') =
 * (x + 3y, x), with D[x'] = dx and rotation rx.
 */
.macro plane p, y, d0, d1, d2, d3, d4, r0, r1, r2, r3, r4, b0, b1, b2, b3, b4, a0, a1, a2, a3, a4
	theta_rho	\b0, \d0, \r0, LANE(\p, 3 * \y, 0)
	theta_rho	\b1, \d1, \r1, LANE(\p, 1 + 3 * \y, 1)
	theta_rho	\b2, \d2, \r2, LANE(\p, 2 + 3 * \y, 2)
	theta_rho	\b3, \d3, \r3, LANE(\p, 3 + 3 * \y, 3)
	theta_rho	\b4, \d4, \r4, LANE(\p, 4 + 3 * \y, 4)
	chi		\p, 0, \y, \b0, \b1, \b2, \a0
	chi		\p, 1, \y, \b1, \b2, \b3, \a1
	chi		\p, 2, \y, \b2, \b3, \b4, \a2
	chi		\p, 3, \y, \b3, \b4, \b0, \a3
	chi		\p, 4, \y, \b4, \b0, \b1, \a4
.endm

/*
 * One round of parity p: C[x] in cx, which holds A[x, 4] on entry; D[x] in
 * dx, then the output plane 4, which the next round starts from (its lanes
 * are the last written: they come from registers, not memory).
 */
.macro round p, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4
	column		\p, \c0, 0
	column		\p, \c1, 1
	column		\p, \c2, 2
	column		\p, \c3, 3
	column		\p, \c4, 4
	theta_d		\d0, \c4, \c1
	theta_d		\d1, \c0, \c2
	theta_d		\d2, \c1, \c3
	theta_d		\d3, \c2, \c4
	theta_d		\d4, \c3, \c0
	plane		\p, 0, \d0, \d1, \d2, \d3, \d4,  0, 44, 43, 21, 14, \
			\c0, \c1, \c2, \c3, \c4, T, T, T, T, T
	plane		\p, 1, \d3, \d4, \d0, \d1, \d2, 28, 20,  3, 45, 61, \
			\c0, \c1, \c2, \c3, \c4, T, T, T, T, T
	plane		\p, 2, \d1, \d2, \d3, \d4, \d0,  1,  6, 25,  8, 18, \
			\c0, \c1, \c2, \c3, \c4, T, T, T, T, T
	plane		\p, 3, \d4, \d0, \d1, \d2, \d3, 27, 36, 10, 15, 56, \
			\c0, \c1, \c2, \c3, \c4, T, T, T, T, T
	plane		\p, 4, \d2, \d3, \d4, \d0, \d1, 62, 55, 39, 41,  2, \
			\c0, \c1, \c2, \c3, \c4, \d0, \d1, \d2, \d3, \d4
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
	movq		LANE(0, 0, 4)(STATE), X0
	movq		LANE(0, 1, 4)(STATE), X1
	movq		LANE(0, 2, 4)(STATE), X2
	movq		LANE(0, 3, 4)(STATE), X3
	movq		LANE(0, 4, 4)(STATE), X4
.Lround_pair:
	round		0, X0, X1, X2, X3, X4, Y0, Y1, Y2, Y3, Y4
	round		1, Y0, Y1, Y2, Y3, Y4, X0, X1, X2, X3, X4
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
