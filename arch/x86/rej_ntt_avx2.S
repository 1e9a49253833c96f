/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ExpandA's rejection sampling, with AVX2: RejNTTPoly (FIPS 204, Algorithm 30) and
 * CoeffFromThreeBytes (Algorithm 14) on one SHAKE128 output block, where each accepted
 * coefficient a of A[i][j] is at once multiplied by NTT(z)[j] and added to row i of w, as
 * poly.rs rej_ntt_mul_acc does. A itself is never stored. Also the pointwise
 * product of two polynomials in the same packed form, and the packing itself (below).
 *
 * size_t mldsa_rej_ntt_mul_acc_avx2(int32_t w[256], const u8 zhat[737], const u8 *lane0,
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
 * with zhat[k] the little-endian 23-bit field at bit 23 k of zhat (the caller keeps it in
 * [0, q)). Returns the number of groups taken; the caller finishes the block from there.
 * The results are bit for bit those of the portable loop. Reads at most zhat[0..737] and
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
 * A packed polynomial's eight 23-bit fields from bit s (0 to 7) of a byte go to the dwords
 * of a register so: the byte's next 16 bytes to the low half and its bytes 8-23 to the
 * high half, then vpshufb with entry s of .Lunpack takes the 4 bytes from each field's
 * first one, vpsrlvd by the entry's shifts moves the field down to bit 0, and VMASK
 * clears the bits above it. Where s = 0, as at the start of every 23-byte group, with the
 * first entry's shuffle and shifts in %ymm\shuffle and %ymm\shifts, from \base + \off:
 */
.macro unpack8 r, off, base, shuffle, shifts
	vmovdqu		\off(\base), %xmm\r
	vinserti128	$1, \off + 8(\base), %ymm\r, %ymm\r
	vpshufb		%ymm\shuffle, %ymm\r, %ymm\r
	vpsrlvd		%ymm\shifts, %ymm\r, %ymm\r
	vpand		VMASK, %ymm\r, %ymm\r
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
	 * b = zhat[m..m + 8], unpacked as unpack8 does from bit s = 23 m mod 8 of byte
	 * 23 m / 8, with entry s of .Lunpack at 64 s (here in BITS, until the mask needs it).
	 */
	imul		$23, M, OFF
	mov		OFF, BITS
	and		$7, BITS
	shl		$6, BITS
	shr		$3, OFF
	vmovdqu		(ZHAT, OFF), %xmm3
	vinserti128	$1, 8(ZHAT, OFF), %ymm3, %ymm3
	vpshufb		.Lunpack-.Lcompress(TABLE, BITS), %ymm3, %ymm3
	vpsrlvd		.Lunpack-.Lcompress+32(TABLE, BITS), %ymm3, %ymm3
	vpand		VMASK, %ymm3, %ymm3

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
 * The pointwise product of two packed polynomials (poly.rs pointwise):
 *
 * void mldsa_pointwise_avx2(int32_t c[256], const u8 a[737], const u8 b[737]);
 *
 * c[k] = montgomery_reduce(a[k] * b[k]), in (-q, q), with a[k] and b[k] the 23-bit
 * fields at bit 23 k of a and b (in [0, q), as the caller keeps them), bit for bit as the
 * portable loop. Reads a[0..737] and b[0..737]. A leaf that uses no stack, like the
 * routine above.
 */
.macro pointwise8 off, r0, r1, r2, r3
	unpack8		\r0, \off, %rsi, 11, 10
	unpack8		\r1, \off, %rdx, 11, 10
	montmul		\r0, \r1, \r2, \r3
	vmovdqu		%ymm\r0, \off / 23 * 32(%rdi)
.endm

SYM_FUNC_START(mldsa_pointwise_avx2)
	load_constants
	vmovdqa		.Lunpack(%rip), %ymm11
	vmovdqa		.Lunpack+32(%rip), %ymm10
	lea		736(%rsi), %rcx
1:	pointwise8	0, 0, 1, 2, 3
	pointwise8	23, 4, 5, 6, 7
	add		$46, %rsi
	add		$46, %rdx
	add		$64, %rdi
	cmp		%rcx, %rsi
	jne		1b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_pointwise_avx2)

/*
 * The same with an unpacked first operand, in place (poly.rs pointwise_in_place):
 *
 * void mldsa_pointwise_in_place_avx2(int32_t c[256], const u8 b[737]);
 *
 * c[k] = montgomery_reduce(c[k] * b[k]), in (-q, q), for any c[k] (|c[k] b[k]| < 2^31 q),
 * bit for bit as the portable loop. Reads b[0..737]. A leaf that uses no stack, like the
 * routines above.
 */
SYM_FUNC_START(mldsa_pointwise_in_place_avx2)
	load_constants
	vmovdqa		.Lunpack(%rip), %ymm11
	vmovdqa		.Lunpack+32(%rip), %ymm10
	lea		736(%rsi), %rcx
1:	vmovdqu		(%rdi), %ymm0
	unpack8		1, 0, %rsi, 11, 10
	montmul		0, 1, 2, 3
	vmovdqu		%ymm0, (%rdi)
	add		$23, %rsi
	add		$32, %rdi
	cmp		%rcx, %rsi
	jne		1b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_pointwise_in_place_avx2)

/*
 * Packing (poly.rs pack):
 *
 * void mldsa_pack_avx2(u8 out[737], const int32_t a[256]);
 *
 * freeze(a[k]) as the little-endian 23-bit field at bit 23 k of out, and out[736] = 0, bit
 * for bit as the portable loop, for a[k] in (-q, 2^31 - 2^22): freeze(a) = reduce32(a),
 * plus q if that is negative, with reduce32(a) = a - ((a + 2^22) >> 23) q. Reads
 * a[0..256], writes out[0..737]. A leaf that uses no stack, like the routines above.
 *
 * pack8 r, t: %ymm\r = the 23 bytes of 8 coefficients, frozen, as bytes 0-15 in its low
 * half and 8-23 in its high half (byte 23 zero); clobbers %ymm\t. Field j goes to bit
 * 23 j = 8 b + s, b = 23 j / 8: shifted left by s (the shifts of .Lunpack's first entry),
 * its 4 bytes go to bytes b to b + 3. The fields of even j do not overlap, nor do those of
 * odd j: vpermd gathers the ones each half needs, vpshufb moves their bytes into place
 * (.Lplace_even, .Lplace_odd), and the two are ORed.
 */
.macro pack8 r, t
	vpaddd		%ymm10, %ymm\r, %ymm\t
	vpsrad		$23, %ymm\t, %ymm\t
	vpmulld		VQ, %ymm\t, %ymm\t
	vpsubd		%ymm\t, %ymm\r, %ymm\r
	vpsrad		$31, %ymm\r, %ymm\t
	vpand		VQ, %ymm\t, %ymm\t
	vpaddd		%ymm\t, %ymm\r, %ymm\r
	vpsllvd		%ymm9, %ymm\r, %ymm\r
	vpermd		%ymm\r, %ymm8, %ymm\t		/* j = 0, 2, 4, 6 | 2, 4, 6, - */
	vpermd		%ymm\r, %ymm7, %ymm\r		/* j = 1, 3, 5, 7 | 3, 5, 7, - */
	vpshufb		%ymm12, %ymm\t, %ymm\t
	vpshufb		%ymm11, %ymm\r, %ymm\r
	vpor		%ymm\t, %ymm\r, %ymm\r
.endm

SYM_FUNC_START(mldsa_pack_avx2)
	vpbroadcastd	.Lq(%rip), VQ
	vpbroadcastd	.Lhalf(%rip), %ymm10
	vmovdqa		.Lunpack+32(%rip), %ymm9
	vmovdqa		.Leven(%rip), %ymm8
	vmovdqa		.Lodd(%rip), %ymm7
	vmovdqa		.Lplace_even(%rip), %ymm12
	vmovdqa		.Lplace_odd(%rip), %ymm11
	lea		736(%rdi), %rcx
	/*
	 * Bytes 0-15 of a group, then 8-23: byte 23, zero, is the next group's first, which
	 * its own store then writes; the last group's is the spare byte.
	 */
1:	vmovdqu		(%rsi), %ymm0
	pack8		0, 1
	vmovdqu		%xmm0, (%rdi)
	vextracti128	$1, %ymm0, 8(%rdi)
	add		$32, %rsi
	add		$23, %rdi
	cmp		%rcx, %rdi
	jne		1b
	vzeroupper
	RET
SYM_FUNC_END(mldsa_pack_avx2)

/*
 * Entry s of the unpacking table (unpack8): for the eight 23-bit fields j from bit s of a
 * byte, the vpshufb indices of the 4 bytes from byte (s + 23 j) / 8 on (less 8 in the high
 * half, which holds bytes 8-23; a byte past 23 holds none of a field's bits, and is
 * zeroed), then the vpsrlvd shifts (s + 23 j) mod 8.
 */
.macro unpack s
	.irp		j, 0, 1, 2, 3, 4, 5, 6, 7
	.irp		b, 0, 1, 2, 3
	.if		\j < 4
	.byte		((\s + 23 * \j) >> 3) + \b
	.elseif		((\s + 23 * \j) >> 3) + \b < 24
	.byte		((\s + 23 * \j) >> 3) + \b - 8
	.else
	.byte		0x80
	.endif
	.endr
	.endr
	.irp		j, 0, 1, 2, 3, 4, 5, 6, 7
	.long		(\s + 23 * \j) & 7
	.endr
.endm

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
.Lunpack:
	.set		.Ls, 0
	.rept		8
	unpack		.Ls
	.set		.Ls, .Ls + 1
	.endr
/*
 * The vpshufb tables of pack8: bytes 0-15 of a group from fields 0, 2, 4 (even) or 1, 3,
 * 5 (odd) in the low half, bytes 8-23 from fields 2, 4, 6 or 3, 5, 7 in the high half.
 */
.Lplace_even:
	.byte		0, 1, 2, 3, 0x80, 4, 5, 6, 7, 0x80, 0x80, 8, 9, 10, 11, 0x80
	.byte		3, 0x80, 0x80, 4, 5, 6, 7, 0x80, 0x80, 8, 9, 10, 11, 0x80, 0x80, 0x80
.Lplace_odd:
	.byte		0x80, 0x80, 0, 1, 2, 3, 0x80, 0x80, 4, 5, 6, 7, 0x80, 0x80, 8, 9
	.byte		0, 1, 2, 3, 0x80, 0x80, 4, 5, 6, 7, 0x80, 0x80, 8, 9, 10, 11
/* The vpermd indices of pack8. */
.Leven:
	.long		0, 2, 4, 6, 2, 4, 6, 6
.Lodd:
	.long		1, 3, 5, 7, 3, 5, 7, 7
.Lq:
	.long		Q
.Lqinv:
	.long		QINV
.Lmask23:
	.long		0x7fffff
.Lhalf:
	.long		1 << 22
