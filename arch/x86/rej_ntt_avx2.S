/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ExpandA's rejection sampling, with AVX2: RejNTTPoly (FIPS 204, Algorithm 30) and
 * CoeffFromThreeBytes (Algorithm 14) on one SHAKE128 output block, where each accepted
 * coefficient a of A[i][j] is at once multiplied by NTT(z)[j] and added to row i of w, as
 * mldsa_verify.rs rej_ntt_mul_acc does. A itself is never stored. Also the pointwise
 * product of two polynomials in the same packed form, and the packing itself (below).
 *
 * size_t mldsa_rej_ntt_mul_acc_avx2(int32_t w[256], const u8 zhat[769], const u8 *lane0,
 *				     size_t *m);
 *
 * lane0 points to the first 64-bit lane of a state of the 4-way interleaved Keccak
 * state (keccak.rs), so lane i of the block is the little-endian u64 at lane0 + 32 i.
 * The 168-byte block is 7 groups of 24 bytes (lanes 3g..3g+2), each holding 8 candidates.
 * Group by group, from the first, while at least 8 coefficients are missing (*m <= 248),
 * every candidate a = 3 bytes & 0x7fffff with a < q is accepted in order:
 *
 *	w[*m] += montgomery_reduce(a * zhat[*m]); *m += 1;
 *
 * with zhat[k] the 3-byte little-endian value at zhat + 3 k (the caller keeps it in
 * [0, q)). Returns the number of groups taken; the caller finishes the block from there.
 * The results are bit for bit those of the portable loop. Reads at most zhat[0..768] and
 * lane0[0..32 * 20 + 8] (lanes 0..20); writes only w. A leaf that uses no stack; in the
 * kernel it must run between kernel_fpu_begin() and kernel_fpu_end().
 *
 * Per group: the 8 candidates are spread to dwords, compared with q, the rejected ones
 * zeroed, and the accepted ones moved to the low lanes by vpermd with a table indexed by
 * the comparison's bit mask, whose other entries point to a zeroed lane. The Montgomery
 * product of zero is zero, so all 8 lanes of w[*m..*m + 8] can be updated.
 */

#include <linux/linkage.h>

#define Q	8380417
#define QINV	58728449	/* q^-1 mod 2^32 */

#define W	%rdi
#define ZHAT	%rsi
#define LANES	%rdx
#define MPTR	%rcx
#define G	%rax
#define M	%r8
#define BITS	%r9
#define TABLE	%r10
#define OFF	%r11

#define VQ	%ymm15
#define VQINV	%ymm14
#define VMASK	%ymm13		/* 0x7fffff in each dword */
#define VSPREAD	%ymm12		/* vpshufb: 24 bytes (as bytes 0-15, 8-23) to 8 dwords */

/* The constants both routines keep in %ymm12-%ymm15. */
.macro load_constants
	vpbroadcastd	.Lq(%rip), VQ
	vpbroadcastd	.Lqinv(%rip), VQINV
	vpbroadcastd	.Lmask23(%rip), VMASK
	vmovdqa		.Lspread(%rip), VSPREAD
.endm

/*
 * A group of 24 bytes holds 8 3-byte little-endian fields. To spread them to the dwords of
 * %ymm\r, its bytes 0-15 go to the low half of %ymm\r and 8-23 to the high half, then
 * VSPREAD takes each field's 3 bytes in each half. From packed memory at \base + \off:
 */
.macro spread_packed r, off, base
	vmovdqu		\off(\base), %xmm\r
	vinserti128	$1, \off + 8(\base), %ymm\r, %ymm\r
	vpshufb		VSPREAD, %ymm\r, %ymm\r
.endm

/*
 * %ymm\a = montgomery_reduce(%ymm\a * %ymm\b) in each dword, in (-q, q), for products
 * below 2^31 q; clobbers %ymm\b, %ymm\t and %ymm\u. vpmuldq multiplies the even dwords
 * of each qword, so the odd lanes go through copies shifted down by vpsrlq (not the
 * NTT's vmovshdup: here the shuffle port is busy with the spreading); with
 * t = a * b * QINV mod 2^32, a * b - t * q is a multiple of 2^32 whose high dword is the
 * result, and the high dwords of the even and odd lanes are then merged.
 */
.macro montmul a, b, t, u
	vpsrlq		$32, %ymm\a, %ymm\t			/* odd lanes of a */
	vpsrlq		$32, %ymm\b, %ymm\u			/* and of b */
	vpmuldq		%ymm\b, %ymm\a, %ymm\a		/* a * b, even lanes */
	vpmuldq		%ymm\u, %ymm\t, %ymm\b		/* and odd lanes */
	vpmuldq		VQINV, %ymm\a, %ymm\t		/* t */
	vpmuldq		VQINV, %ymm\b, %ymm\u
	vpmuldq		VQ, %ymm\t, %ymm\t			/* t * q */
	vpmuldq		VQ, %ymm\u, %ymm\u
	vpsubq		%ymm\t, %ymm\a, %ymm\a
	vpsubq		%ymm\u, %ymm\b, %ymm\b
	vpsrlq		$32, %ymm\a, %ymm\a			/* high dwords to the even lanes */
	vpblendd	$0xaa, %ymm\b, %ymm\a, %ymm\a		/* and the odd ones */
.endm

SYM_FUNC_START(mldsa_rej_ntt_mul_acc_avx2)
	load_constants
	lea		.Lcompress(%rip), TABLE
	mov		(MPTR), M
	xor		%eax, %eax
1:	cmp		$256 - 8, M
	ja		2f
	cmp		$7, G
	jae		2f

	/*
	 * The candidates a, from the group's qwords x, y and z at LANES, + 32 and + 64
	 * (broadcast, which are loads only, where inserts would take the shuffle port), the
	 * rejected ones zeroed and the others compressed to the low lanes.
	 */
	vpbroadcastq	(LANES), %ymm0
	vpbroadcastq	32(LANES), %ymm1
	vpbroadcastq	64(LANES), %ymm2
	vpblendd	$0x3c, %ymm1, %ymm0, %ymm0		/* x, y, y, x */
	vpblendd	$0xc0, %ymm2, %ymm0, %ymm0		/* x, y, y, z */
	vpshufb		VSPREAD, %ymm0, %ymm0
	vpand		VMASK, %ymm0, %ymm0
	vpcmpgtd	%ymm0, VQ, %ymm1			/* a < q */
	vpand		%ymm1, %ymm0, %ymm0
	vmovmskps	%ymm1, %r9d
	vpmovzxbd	(TABLE, BITS, 8), %ymm2
	movzbl		.Lcount-.Lcompress(TABLE, BITS), %r9d
	vpermd		%ymm0, %ymm2, %ymm0

	/* b = zhat[m..m + 8]. */
	lea		(ZHAT, M, 2), OFF
	add		M, OFF
	spread_packed	3, 0, OFF

	/* w[m..m + 8] += montgomery_reduce(a * b). */
	montmul		0, 3, 1, 4
	vpaddd		(W, M, 4), %ymm0, %ymm0
	vmovdqu		%ymm0, (W, M, 4)

	add		BITS, M
	add		$3 * 32, LANES
	inc		G
	jmp		1b

2:	mov		M, (MPTR)
	vzeroupper
	RET
SYM_FUNC_END(mldsa_rej_ntt_mul_acc_avx2)

/*
 * The pointwise product of two packed polynomials (mldsa_verify.rs pointwise):
 *
 * void mldsa_pointwise_avx2(int32_t c[256], const u8 a[769], const u8 b[769]);
 *
 * c[k] = montgomery_reduce(a[k] * b[k]), in (-q, q), with a[k] and b[k] the 3-byte
 * little-endian values at a + 3 k and b + 3 k (in [0, q), as the caller keeps them), bit
 * for bit as the portable loop. Reads a[0..768] and b[0..768]. A leaf that uses no stack,
 * like the routine above.
 */
.macro pointwise8 off, r0, r1, r2, r3
	spread_packed	\r0, \off, %rsi
	spread_packed	\r1, \off, %rdx
	montmul		\r0, \r1, \r2, \r3
	vmovdqu		%ymm\r0, \off / 3 * 4(%rdi)
.endm

SYM_FUNC_START(mldsa_pointwise_avx2)
	load_constants
	lea		768(%rsi), %rcx
1:	pointwise8	0, 0, 1, 2, 3
	pointwise8	24, 4, 5, 6, 7
	add		$48, %rsi
	add		$48, %rdx
	add		$64, %rdi
	cmp		%rcx, %rsi
	jne		1b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_pointwise_avx2)

/*
 * Packing (mldsa_verify.rs pack):
 *
 * void mldsa_pack_avx2(u8 out[769], const int32_t a[256]);
 *
 * out[3 k..3 k + 3] = freeze(a[k]) little-endian, and out[768] = 0, bit for bit as the
 * portable loop, for a[k] in (-q, 2^31 - 2^22): freeze(a) = reduce32(a), plus q if that
 * is negative, with reduce32(a) = a - ((a + 2^22) >> 23) q. Reads a[0..256], writes
 * out[0..769]. A leaf that uses no stack, like the routines above.
 *
 * pack8 r, t: %ymm\r = 8 coefficients frozen, their 24 bytes in its low 24; clobbers %ymm\t.
 */
.macro pack8 r, t
	vpaddd		%ymm10, %ymm\r, %ymm\t
	vpsrad		$23, %ymm\t, %ymm\t
	vpmulld		VQ, %ymm\t, %ymm\t
	vpsubd		%ymm\t, %ymm\r, %ymm\r
	vpsrad		$31, %ymm\r, %ymm\t
	vpand		VQ, %ymm\t, %ymm\t
	vpaddd		%ymm\t, %ymm\r, %ymm\r
	vpshufb		%ymm11, %ymm\r, %ymm\r		/* 12 bytes per 128-bit lane */
	vpermd		%ymm\r, %ymm9, %ymm\r		/* the two joined */
.endm

SYM_FUNC_START(mldsa_pack_avx2)
	vpbroadcastd	.Lq(%rip), VQ
	vpbroadcastd	.Lhalf(%rip), %ymm10
	vmovdqa		.Lgather(%rip), %ymm11
	vmovdqa		.Ljoin(%rip), %ymm9
	lea		744(%rdi), %rcx
	/* 32 bytes a store: the 8 beyond the group's 24 are the next group's. */
1:	vmovdqu		(%rsi), %ymm0
	pack8		0, 1
	vmovdqu		%ymm0, (%rdi)
	add		$32, %rsi
	add		$24, %rdi
	cmp		%rcx, %rdi
	jne		1b
	/* The last group: 24 bytes, then the spare byte. */
	vmovdqu		(%rsi), %ymm0
	pack8		0, 1
	vmovdqu		%xmm0, (%rdi)
	vextracti128	$1, %ymm0, %xmm0
	vmovq		%xmm0, 16(%rdi)
	movb		$0, 24(%rdi)
	vzeroupper
	RET
SYM_FUNC_END(mldsa_pack_avx2)

/*
 * Entry k of the compression table: the positions of the set bits of k in increasing
 * order, then, in the lanes left over, the position of its lowest clear bit.
 */
.macro compress k
	.set		.Lfill, 0
	.irp		b, 7, 6, 5, 4, 3, 2, 1, 0
	.if		((\k >> \b) & 1) == 0
	.set		.Lfill, \b
	.endif
	.endr
	.set		.Ltaken, 0
	.irp		b, 0, 1, 2, 3, 4, 5, 6, 7
	.if		(\k >> \b) & 1
	.byte		\b
	.set		.Ltaken, .Ltaken + 1
	.endif
	.endr
	.rept		8 - .Ltaken
	.byte		.Lfill
	.endr
.endm

.section .rodata
.balign 32
.Lspread:
	.byte		0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80
	.byte		4, 5, 6, 0x80, 7, 8, 9, 0x80, 10, 11, 12, 0x80, 13, 14, 15, 0x80
.Lcompress:
	.set		.Lk, 0
	.rept		256
	compress	.Lk
	.set		.Lk, .Lk + 1
	.endr
/* Entry k: the number of set bits of k. */
.Lcount:
	.set		.Lk, 0
	.rept		256
	.byte		(.Lk & 1) + ((.Lk >> 1) & 1) + ((.Lk >> 2) & 1) + ((.Lk >> 3) & 1) + \
			((.Lk >> 4) & 1) + ((.Lk >> 5) & 1) + ((.Lk >> 6) & 1) + ((.Lk >> 7) & 1)
	.set		.Lk, .Lk + 1
	.endr
.balign 32
.Lgather:
	.byte		0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80
	.byte		0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80
.Ljoin:
	.long		0, 1, 2, 4, 5, 6, 7, 7
.Lq:
	.long		Q
.Lqinv:
	.long		QINV
.Lmask23:
	.long		0x7fffff
.Lhalf:
	.long		1 << 22
