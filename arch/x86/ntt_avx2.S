/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ML-DSA NTT and inverse NTT (FIPS 204, Section 7.5) for x86_64
 * with AVX2. Each function equals its portable counterpart in ntt.rs modulo q: it runs the
 * same butterflies, in the same layer order, on the same values, only 8 lanes at a time
 * (its results are in fact bit for bit those of ntt.rs, but only the congruence and the
 * bounds below are promised). The arrays are 256 int32_t each, with no alignment
 * requirement beyond that of int32_t. The functions are leaves that use no stack; in the
 * kernel they must run between kernel_fpu_begin() and kernel_fpu_end().
 *
 * void mldsa_ntt_avx2(int32_t a[256]): ntt::ntt, in place. In: |a[i]| < q, natural order.
 *   Out: the standard bit-reversed order of ntt.rs, |a[i]| <= 42082244 < 5.03q (each
 *   layer adds at most max|zeta * a| / 2^32 + q / 2 < 0.51q to the bound).
 * void mldsa_invntt_avx2(int32_t a[256]): ntt::reduce32 of each coefficient, then
 *   ntt::invntt_tomont, in place. In: -2^31 <= a[i] < 2^31 - 2^22, in the order ntt
 *   produces. Out: natural order, |a[i]| < q.
 *
 * Montgomery multiplication of 8 lanes: vpmuldq multiplies the even (low) dwords of each
 * qword into signed 64-bit products, so the odd lanes go through a copy shifted down by
 * vmovshdup. With t = x * (zeta * QINV mod 2^32) mod 2^32, x * zeta - t * q is a multiple
 * of 2^32 whose high dword is montgomery_reduce(x * zeta); the high dwords of the even and
 * odd lanes are then merged. The zeta operands are tables of 8 lanes of zeta * QINV mod
 * 2^32 followed by 8 lanes of zeta (see the zetas macro).
 *
 * Registers: %ymm8 = q in every lane; %ymm9-%ymm11 scratch of the butterflies; the data in
 * %ymm0-%ymm7 and, as the shuffles rename them, %ymm12-%ymm15.
 */

#include <linux/linkage.h>

#define Q	8380417
#define QINV	58728449	/* q^-1 mod 2^32 */

/*
 * %ymm\o = x * zeta * 2^-32 mod q, in (-q, q), for |x * zeta| < 2^31 q; x is %ymm\x
 * (clobbered), zeta the table at \z. If \odd = 4 the odd lanes take their own zetas, read
 * at \z + 4 so they land in the even dwords; if \odd = 0 each odd lane shares the zeta of
 * the even lane below it.
 */
.macro montmul x, o, z, odd
	vmovshdup	%ymm\x, %ymm\o				/* odd lanes of x */
	vpmuldq		\z, %ymm\x, %ymm10			/* t, even lanes */
	vpmuldq		\odd+\z, %ymm\o, %ymm11			/* t, odd lanes */
	vpmuldq		32+\z, %ymm\x, %ymm\x			/* x * zeta */
	vpmuldq		\odd+32+\z, %ymm\o, %ymm\o
	vpmuldq		%ymm8, %ymm10, %ymm10			/* t * q */
	vpmuldq		%ymm8, %ymm11, %ymm11
	vpsubq		%ymm10, %ymm\x, %ymm\x
	vpsubq		%ymm11, %ymm\o, %ymm\o
	vmovshdup	%ymm\x, %ymm\x				/* high dwords to the even lanes */
	vpblendd	$0xaa, %ymm\o, %ymm\x, %ymm\o		/* and odd lanes */
.endm

/* Cooley-Tukey butterfly (ntt.rs ct_butterfly): (l, h) = (l + zeta h, l - zeta h). */
.macro ct l, h, z, odd=0
	montmul		\h, 9, \z, \odd
	vpsubd		%ymm9, %ymm\l, %ymm\h
	vpaddd		%ymm9, %ymm\l, %ymm\l
.endm

/*
 * Gentleman-Sande butterfly: (l, h) = (l + h, zeta (h - l)), which is ntt.rs gs_butterfly
 * with its -ZETAS[k] (a zeta of Algorithm 42) applied as ZETAS[k] to h - l.
 */
.macro gs l, h, z, odd=0
	vpsubd		%ymm\l, %ymm\h, %ymm9
	vpaddd		%ymm\h, %ymm\l, %ymm\l
	montmul		9, \h, \z, \odd
.endm

/*
 * The last layer of the inverse, with the scaling by F = 2^56 mod q folded in:
 * (%ymm\o, h) = (F (l + h), F ZETAS[1] (h - l)); l is clobbered.
 */
.macro gs_scaled l, h, o
	vpsubd		%ymm\l, %ymm\h, %ymm9
	vpaddd		%ymm\h, %ymm\l, %ymm\l
	montmul		9, \h, .Lscale+64(%rip), 0
	montmul		\l, \o, .Lscale(%rip), 0
.endm

/*
 * ntt.rs reduce32 of %ymm\r, with %ymm11 = 2^22 in every lane: r - ((r + 2^22) >> 23) q.
 */
.macro reduce32 r
	vpaddd		%ymm11, %ymm\r, %ymm9
	vpsrad		$23, %ymm9, %ymm9
	vpmulld		%ymm8, %ymm9, %ymm9
	vpsubd		%ymm9, %ymm\r, %ymm\r
.endm

/*
 * Vectors 4k + c, k = 0..7, of the polynomial at %rsi - 32c into %ymm0..%ymm7, and back
 * from %ymm\r0..%ymm\r7.
 */
.macro load_cols
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu		128*\k(%rsi), %ymm\k
	.endr
.endm

.macro store_cols r0, r1, r2, r3, r4, r5, r6, r7
	vmovdqu		%ymm\r0, 0*128(%rsi)
	vmovdqu		%ymm\r1, 1*128(%rsi)
	vmovdqu		%ymm\r2, 2*128(%rsi)
	vmovdqu		%ymm\r3, 3*128(%rsi)
	vmovdqu		%ymm\r4, 4*128(%rsi)
	vmovdqu		%ymm\r5, 5*128(%rsi)
	vmovdqu		%ymm\r6, 6*128(%rsi)
	vmovdqu		%ymm\r7, 7*128(%rsi)
.endm

/*
 * Layers 16 to 1 work on blocks of 64 coefficients, whose index bits c5..c0 name vector
 * V_(c5 c4 c3) of the block and lane (c2 c1 c0) in it. A block is loaded with the 128-bit
 * halves of its vectors exchanged: register R_(c2 c4 c3) holds half c2 of V_(0 c4 c3) in
 * its low half and half c2 of V_(1 c4 c3) in its high half. The 128-bit lane then holds
 * c5, the dword within it (c1 c0), and layers 16, 8 and 4 (c4, c3, c2) pair whole
 * registers: R_i with R_(i+2), R_(i+1) and R_(i+4). Layers 2 and 1 pair the registers
 * R_2k and R_(2k+1) after these have been shuffled (see below) to bring c1 and then c0
 * to the register bit.
 *
 * ld_halves i, r, s: R_i in %ymm\r, R_(i+4) in %ymm\s, from the block at %rdi.
 * st_halves i, r, s: the inverse.
 */
.macro ld_halves i, r, s
	vmovdqu		32*\i(%rdi), %xmm\r
	vinserti128	$1, 128+32*\i(%rdi), %ymm\r, %ymm\r
	vmovdqu		16+32*\i(%rdi), %xmm\s
	vinserti128	$1, 144+32*\i(%rdi), %ymm\s, %ymm\s
.endm

.macro st_halves i, r, s
	vmovdqu		%xmm\r, 32*\i(%rdi)
	vextracti128	$1, %ymm\r, 128+32*\i(%rdi)
	vmovdqu		%xmm\s, 16+32*\i(%rdi)
	vextracti128	$1, %ymm\s, 144+32*\i(%rdi)
.endm

.macro load_block
	ld_halves	0, 0, 4
	ld_halves	1, 1, 5
	ld_halves	2, 2, 6
	ld_halves	3, 3, 7
.endm

.macro store_block r0, r1, r2, r3, r4, r5, r6, r7
	st_halves	0, \r0, \r4
	st_halves	1, \r1, \r5
	st_halves	2, \r2, \r6
	st_halves	3, \r3, \r7
.endm

/*
 * Index the dwords of a pair (R_2k, R_2k+1) within a 128-bit lane by (p, d1, d0): the
 * register of the pair, and the position (d1 d0) in the lane. Per pair, unpack_pair
 * moves the index bits held by (p, d1, d0) to (d0, p, d1) and shuffle_pair moves them
 * back. Three unpacks are the
 * identity, and in the block layout above (p, d1, d0) hold (c3, c1, c0), so the forward
 * NTT unpacks before layer 2, which finds (c1, c0, c3), before layer 1, (c0, c3, c1), and
 * after it; the inverse shuffles before layer 1, before layer 2 and before layer 4.
 * The results go to %ymm\f and %ymm\b, leaving %ymm\a free.
 */
.macro unpack_pair a, b, f
	vpunpckldq	%ymm\b, %ymm\a, %ymm\f
	vpunpckhdq	%ymm\b, %ymm\a, %ymm\b
.endm

.macro shuffle_pair a, b, f
	vshufps		$0x88, %ymm\b, %ymm\a, %ymm\f
	vshufps		$0xdd, %ymm\b, %ymm\a, %ymm\b
.endm

/* R_0..R_7 in %ymm\r0..%ymm\r7 move to \f, r1, r0, r3, r2, r5, r4, r7, freeing \r6. */
.macro pairs op, r0, r1, r2, r3, r4, r5, r6, r7, f
	\op		\r0, \r1, \f
	\op		\r2, \r3, \r0
	\op		\r4, \r5, \r2
	\op		\r6, \r7, \r4
.endm

/*
 * The zetas of a block of 64 coefficients, at %rdx. Z1(k), Z2(k): the pair (R_2k, R_2k+1)
 * of layers 1 and 2. Z4(k): the pair (R_k, R_k+4) of layer 4. Z8(k): the pairs of layer 8
 * with c4 = k, (R_2k, R_2k+1) and (R_2k+4, R_2k+5). Z16: layer 16.
 */
#define Z1(k)		64*(k)(%rdx)
#define Z2(k)		256+64*(k)(%rdx)
#define Z4(k)		512+64*(k)(%rdx)
#define Z8(k)		768+64*(k)(%rdx)
#define Z16		896(%rdx)
#define ZBLOCK		960
/* ZETAS[k], k = 1..7, in every lane, for layers 128, 64 and 32. */
#define ZTOP(k)		.Lzetas_top+64*((k)-1)(%rip)

.text

SYM_FUNC_START(mldsa_ntt_avx2)
	vpbroadcastd	.Lq(%rip), %ymm8

	/* Layers 128, 64 and 32, on the columns c = 0..3 of vectors 4k + c. */
	mov		%rdi, %rsi
	lea		128(%rdi), %rcx
1:	load_cols
	ct		0, 4, ZTOP(1)
	ct		1, 5, ZTOP(1)
	ct		2, 6, ZTOP(1)
	ct		3, 7, ZTOP(1)
	ct		0, 2, ZTOP(2)
	ct		1, 3, ZTOP(2)
	ct		4, 6, ZTOP(3)
	ct		5, 7, ZTOP(3)
	ct		0, 1, ZTOP(4)
	ct		2, 3, ZTOP(5)
	ct		4, 5, ZTOP(6)
	ct		6, 7, ZTOP(7)
	store_cols	0, 1, 2, 3, 4, 5, 6, 7
	add		$32, %rsi
	cmp		%rcx, %rsi
	jne		1b

	/* Layers 16 to 1, on blocks of 64 coefficients. */
	lea		.Lzetas_blocks(%rip), %rdx
	lea		1024(%rdi), %rcx
2:	load_block
	ct		0, 2, Z16			/* layer 16 */
	ct		1, 3, Z16
	ct		4, 6, Z16
	ct		5, 7, Z16
	ct		0, 1, Z8(0)			/* layer 8 */
	ct		2, 3, Z8(1)
	ct		4, 5, Z8(0)
	ct		6, 7, Z8(1)
	ct		0, 4, Z4(0)			/* layer 4 */
	ct		1, 5, Z4(1)
	ct		2, 6, Z4(2)
	ct		3, 7, Z4(3)
	pairs		unpack_pair, 0, 1, 2, 3, 4, 5, 6, 7, 12
	ct		12, 1, Z2(0), 4			/* layer 2 */
	ct		0, 3, Z2(1), 4
	ct		2, 5, Z2(2), 4
	ct		4, 7, Z2(3), 4
	pairs		unpack_pair, 12, 1, 0, 3, 2, 5, 4, 7, 6
	ct		6, 1, Z1(0), 4			/* layer 1 */
	ct		12, 3, Z1(1), 4
	ct		0, 5, Z1(2), 4
	ct		2, 7, Z1(3), 4
	pairs		unpack_pair, 6, 1, 12, 3, 0, 5, 2, 7, 4
	store_block	4, 1, 6, 3, 12, 5, 0, 7
	add		$ZBLOCK, %rdx
	add		$256, %rdi
	cmp		%rcx, %rdi
	jne		2b

	vzeroupper
	RET
SYM_FUNC_END(mldsa_ntt_avx2)

SYM_FUNC_START(mldsa_invntt_avx2)
	vpbroadcastd	.Lq(%rip), %ymm8

	/*
	 * Layers 1 to 16, on blocks of 64 coefficients, each first reduced. As in ntt.rs,
	 * the bound |a| < q at most doubles per layer (the products stay in (-q, q)).
	 */
	mov		%rdi, %rsi
	lea		.Lzetas_inv_blocks(%rip), %rdx
	lea		1024(%rdi), %rcx
1:	load_block
	vpbroadcastd	.Lhalf(%rip), %ymm11
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	reduce32	\r
	.endr
	pairs		shuffle_pair, 0, 1, 2, 3, 4, 5, 6, 7, 12
	gs		12, 1, Z1(0), 4			/* layer 1 */
	gs		0, 3, Z1(1), 4
	gs		2, 5, Z1(2), 4
	gs		4, 7, Z1(3), 4
	pairs		shuffle_pair, 12, 1, 0, 3, 2, 5, 4, 7, 6
	gs		6, 1, Z2(0), 4			/* layer 2 */
	gs		12, 3, Z2(1), 4
	gs		0, 5, Z2(2), 4
	gs		2, 7, Z2(3), 4
	pairs		shuffle_pair, 6, 1, 12, 3, 0, 5, 2, 7, 4
	gs		4, 12, Z4(0)			/* layer 4 */
	gs		1, 5, Z4(1)
	gs		6, 0, Z4(2)
	gs		3, 7, Z4(3)
	gs		4, 1, Z8(0)			/* layer 8 */
	gs		6, 3, Z8(1)
	gs		12, 5, Z8(0)
	gs		0, 7, Z8(1)
	gs		4, 6, Z16			/* layer 16 */
	gs		1, 3, Z16
	gs		12, 0, Z16
	gs		5, 7, Z16
	store_block	4, 1, 6, 3, 12, 5, 0, 7
	add		$ZBLOCK, %rdx
	add		$256, %rdi
	cmp		%rcx, %rdi
	jne		1b

	/*
	 * Layers 32, 64 and 128, on the columns c = 0..3 of vectors 4k + c: |a| < 128q
	 * before the last layer, whose sums stay below 256q < 2^31.
	 */
	lea		128(%rsi), %rcx
2:	load_cols
	gs		0, 1, ZTOP(7)
	gs		2, 3, ZTOP(6)
	gs		4, 5, ZTOP(5)
	gs		6, 7, ZTOP(4)
	gs		0, 2, ZTOP(3)
	gs		1, 3, ZTOP(3)
	gs		4, 6, ZTOP(2)
	gs		5, 7, ZTOP(2)
	gs_scaled	0, 4, 12
	gs_scaled	1, 5, 13
	gs_scaled	2, 6, 14
	gs_scaled	3, 7, 15
	store_cols	12, 13, 14, 15, 4, 5, 6, 7
	add		$32, %rsi
	cmp		%rcx, %rsi
	jne		2b

	vzeroupper
	RET
SYM_FUNC_END(mldsa_invntt_avx2)

/*
 * A zeta table for montmul: zetas z0..z7 (lane i takes zi), each ZETAS[k] of ntt.rs, i.e.
 * in Montgomery form, preceded by the zi * QINV mod 2^32 of its t.
 */
.macro zetas z0, z1, z2, z3, z4, z5, z6, z7
	.long	(\z0*QINV)&0xffffffff, (\z1*QINV)&0xffffffff
	.long	(\z2*QINV)&0xffffffff, (\z3*QINV)&0xffffffff
	.long	(\z4*QINV)&0xffffffff, (\z5*QINV)&0xffffffff
	.long	(\z6*QINV)&0xffffffff, (\z7*QINV)&0xffffffff
	.long	\z0, \z1, \z2, \z3, \z4, \z5, \z6, \z7
.endm

/* z0 in the low 128-bit lane, z1 in the high one. */
.macro zetas2 z0, z1
	zetas	\z0, \z0, \z0, \z0, \z1, \z1, \z1, \z1
.endm

.macro zetas1 z
	zetas	\z, \z, \z, \z, \z, \z, \z, \z
.endm

.section .rodata
.p2align 6
/*
 * Per block of 64 coefficients, in dword 4 L2 + 2 L1 + L0 of the tables of pair
 * k = 2 k1 + k0 (see Z1..Z16):
 * layer 1:  ZETAS[128 + 32 block + 16 L2 + 8 k0 + 4 L1 + 2 k1 + L0]
 * layer 2:  ZETAS[64 + 16 block + 8 L2 + 4 k0 + 2 L0 + k1]
 * layer 4:  ZETAS[32 + 8 block + 4 L2 + k]
 * layer 8:  ZETAS[16 + 4 block + 2 L2 + k]
 * layer 16: ZETAS[8 + 2 block + L2]
 * The last table of a block is never read at an offset of 4, so all reads stay inside.
 * The inverse NTT undoes the butterfly of each ZETAS[m + j] (m a power of 2, j < m) with
 * one of -ZETAS[2m - 1 - j], as Algorithm 42 does: its tables hold ZETAS[2m - 1 - j] in
 * place of ZETAS[m + j], and layers 32 to 128 take ZETAS[7 - j], ZETAS[3 - j] and ZETAS[1].
 */
.Lzetas_blocks:
	/* Coefficients 0..63 */
	zetas	2091667, 3407706, -3342478, 2244091, 900702, 1859098, 495491, -1613174
	zetas	266997, 2434439, -3520352, -3759364, -655327, -3122442, -3556995, -525098
	zetas	2316500, 3817976, -2446433, -3562462, 909542, 819034, -43260, -522500
	zetas	-1235728, 3513181, -1197226, -3193378, 2031748, 3207046, -768622, -3595838
	zetas	-3930395, -3677745, -3930395, -3677745, -1257611, -4083598, -1257611, -4083598
	zetas	-1452451, 2176455, -1452451, 2176455, -3190144, -3632928, -3190144, -3632928
	zetas	-1528703, -3041255, -1528703, -3041255, 1939314, -1000202, 1939314, -1000202
	zetas	3475950, -1585221, 3475950, -1585221, -3157330, 126922, -3157330, 126922
	zetas2	2706023, -1661693
	zetas2	95776, -3592148
	zetas2	3077325, -2537516
	zetas2	3530437, 3915439
	zetas2	2725464, -1079900
	zetas2	1024112, 3585928
	zetas2	1826347, 2353451
	/* Coefficients 64..127 */
	zetas	342297, 286988, 3437287, -3342277, -3767016, 1250494, -2994039, 1869119
	zetas	2842341, 2691481, 4055324, 1247620, -1333058, 1237275, -451100, 1312455
	zetas	-2437823, 4108315, 1735879, 203044, 2635921, -3548272, 1903435, -1050970
	zetas	-2590150, 1265009, 2486353, 1595974, -3318210, -1430225, 3306115, -1962642
	zetas	3412210, 2147896, 3412210, 2147896, -671102, -22981, -671102, -22981
	zetas	-2967645, -411027, -2967645, -411027, -381987, 1852771, -381987, 1852771
	zetas	-983419, 2715295, -983419, 2715295, -1228525, -1308169, -1228525, -1308169
	zetas	-3693493, -2477047, -3693493, -2477047, 1349076, -1430430, 1349076, -1430430
	zetas2	-3861115, 3539968
	zetas2	-3043716, -300467
	zetas2	3574422, 2348700
	zetas2	-2867647, -539299
	zetas2	-549488, 2619752
	zetas2	-1119584, -2108549
	zetas2	-359251, -2091905
	/* Coefficients 128..191 */
	zetas	-1279661, 1917081, 1500165, 777191, -2013608, 2432395, 1957272, 3369112
	zetas	-542412, -2831860, -2584293, -3724270, -3183426, 162844, 810149, 1652634
	zetas	-2546312, -1374803, 2235880, 3406031, 2454455, -164721, 185531, -1207385
	zetas	-1671176, -1846953, 594136, -3776993, 1616392, 3014001, -3694233, -1799107
	zetas	-3343383, 508951, -3343383, 508951, -3724342, 1653064, -3724342, 1653064
	zetas	44288, 904516, 44288, 904516, 2389356, 759969, 2389356, 759969
	zetas	264944, 3097992, 264944, 3097992, -8578, -3249728, -8578, -3249728
	zetas	-1100098, 3958618, -1100098, 3958618, -210977, -1316856, -210977, -1316856
	zetas2	-1699267, 3507263
	zetas2	-1643818, -2140649
	zetas2	3505694, -1600420
	zetas2	-3821735, 3699596
	zetas2	-2118186, -1399561
	zetas2	-3859737, -3277672
	zetas2	3119733, -2884855
	/* Coefficients 192..255 */
	zetas	-3038916, 3523897, 2213111, -975884, -2939036, -2235985, 183443, -976891
	zetas	-426683, 1723600, -1667432, -1104333, -554416, 3919660, 3937738, 1400424
	zetas	3866901, 269760, 1717735, 472078, -420899, -2286327, 1612842, -3545687
	zetas	-1803090, 1910376, -260646, -3833893, -48306, -1362209, -846154, 1976782
	zetas	189548, 3159746, 189548, 3159746, 1285669, -812732, 1285669, -812732
	zetas	-2409325, 1315589, -2409325, 1315589, -3019102, -3628969, -3019102, -3628969
	zetas	-3553272, -1851402, -3553272, -1851402, -1584928, -1439742, -1584928, -1439742
	zetas	-177440, 1341330, -177440, 1341330, -3881060, 3839961, -3881060, 3839961
	zetas2	811944, 3900724
	zetas2	531354, -2556880
	zetas2	954230, 2071892
	zetas2	3881043, -2797779
	zetas2	1757237, 4010497
	zetas2	-19422, 280005
	zetas2	3111497, 2680103
/* Those of the inverse NTT, in the same layout. */
.Lzetas_inv_blocks:
	/* Coefficients 0..63 */
	zetas	1976782, -846154, -1362209, -48306, -3833893, -260646, 1910376, -1803090
	zetas	-3545687, 1612842, -2286327, -420899, 472078, 1717735, 269760, 3866901
	zetas	1400424, 3937738, 3919660, -554416, -1104333, -1667432, 1723600, -426683
	zetas	-976891, 183443, -2235985, -2939036, -975884, 2213111, 3523897, -3038916
	zetas	3839961, -3881060, 3839961, -3881060, 1341330, -177440, 1341330, -177440
	zetas	-1439742, -1584928, -1439742, -1584928, -1851402, -3553272, -1851402, -3553272
	zetas	-3628969, -3019102, -3628969, -3019102, 1315589, -2409325, 1315589, -2409325
	zetas	-812732, 1285669, -812732, 1285669, 3159746, 189548, 3159746, 189548
	zetas2	-2797779, 3881043
	zetas2	2071892, 954230
	zetas2	-2556880, 531354
	zetas2	3900724, 811944
	zetas2	280005, -19422
	zetas2	4010497, 1757237
	zetas2	2680103, 3111497
	/* Coefficients 64..127 */
	zetas	-1799107, -3694233, 3014001, 1616392, -3776993, 594136, -1846953, -1671176
	zetas	-1207385, 185531, -164721, 2454455, 3406031, 2235880, -1374803, -2546312
	zetas	1652634, 810149, 162844, -3183426, -3724270, -2584293, -2831860, -542412
	zetas	3369112, 1957272, 2432395, -2013608, 777191, 1500165, 1917081, -1279661
	zetas	-1316856, -210977, -1316856, -210977, 3958618, -1100098, 3958618, -1100098
	zetas	-3249728, -8578, -3249728, -8578, 3097992, 264944, 3097992, 264944
	zetas	759969, 2389356, 759969, 2389356, 904516, 44288, 904516, 44288
	zetas	1653064, -3724342, 1653064, -3724342, 508951, -3343383, 508951, -3343383
	zetas2	3699596, -3821735
	zetas2	-1600420, 3505694
	zetas2	-2140649, -1643818
	zetas2	3507263, -1699267
	zetas2	-3277672, -3859737
	zetas2	-1399561, -2118186
	zetas2	-2884855, 3119733
	/* Coefficients 128..191 */
	zetas	-1962642, 3306115, -1430225, -3318210, 1595974, 2486353, 1265009, -2590150
	zetas	-1050970, 1903435, -3548272, 2635921, 203044, 1735879, 4108315, -2437823
	zetas	1312455, -451100, 1237275, -1333058, 1247620, 4055324, 2691481, 2842341
	zetas	1869119, -2994039, 1250494, -3767016, -3342277, 3437287, 286988, 342297
	zetas	-1430430, 1349076, -1430430, 1349076, -2477047, -3693493, -2477047, -3693493
	zetas	-1308169, -1228525, -1308169, -1228525, 2715295, -983419, 2715295, -983419
	zetas	1852771, -381987, 1852771, -381987, -411027, -2967645, -411027, -2967645
	zetas	-22981, -671102, -22981, -671102, 2147896, 3412210, 2147896, 3412210
	zetas2	-539299, -2867647
	zetas2	2348700, 3574422
	zetas2	-300467, -3043716
	zetas2	3539968, -3861115
	zetas2	-2108549, -1119584
	zetas2	2619752, -549488
	zetas2	-2091905, -359251
	/* Coefficients 192..255 */
	zetas	-3595838, -768622, 3207046, 2031748, -3193378, -1197226, 3513181, -1235728
	zetas	-522500, -43260, 819034, 909542, -3562462, -2446433, 3817976, 2316500
	zetas	-525098, -3556995, -3122442, -655327, -3759364, -3520352, 2434439, 266997
	zetas	-1613174, 495491, 1859098, 900702, 2244091, -3342478, 3407706, 2091667
	zetas	126922, -3157330, 126922, -3157330, -1585221, 3475950, -1585221, 3475950
	zetas	-1000202, 1939314, -1000202, 1939314, -3041255, -1528703, -3041255, -1528703
	zetas	-3632928, -3190144, -3632928, -3190144, 2176455, -1452451, 2176455, -1452451
	zetas	-4083598, -1257611, -4083598, -1257611, -3677745, -3930395, -3677745, -3930395
	zetas2	3915439, 3530437
	zetas2	-2537516, 3077325
	zetas2	-3592148, 95776
	zetas2	-1661693, 2706023
	zetas2	3585928, 1024112
	zetas2	-1079900, 2725464
	zetas2	2353451, 1826347
.Lzetas_top:
	zetas1	25847		/* ZETAS[1] */
	zetas1	-2608894	/* ZETAS[2] */
	zetas1	-518909
	zetas1	237124		/* ZETAS[4] */
	zetas1	-777960
	zetas1	-876248
	zetas1	466468
/* F = 2^56 mod q (ntt.rs invntt_layer_pair's F) and F * ZETAS[1] * 2^-32 mod q. */
.Lscale:
	zetas1	41978
	zetas1	-3975713
.Lq:
	.long	Q
.Lhalf:
	.long	1 << 22
