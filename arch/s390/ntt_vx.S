/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ML-DSA NTT and inverse NTT (FIPS 204, Section 7.5) for s390x with the vector facility
 * (z13). Each function runs the butterflies of its portable counterpart in ntt.rs, layer
 * by layer, on the same values, four lanes at a time: its results are those of ntt.rs
 * (which the host harness and the KUnit case vx_matches_portable check). The arrays are 256
 * int32_t each, 4-byte aligned. The functions are leaves that use no stack; in the kernel
 * they run in a kernel FPU section on %v16-%v31 (KERNEL_VXR_HIGH; arch/s390/vx.rs).
 *
 * void mldsa_ntt_vx(int32_t a[256]): ntt::ntt, in place. In: |a[i]| < q, natural order.
 *   Out: bit-reversed order, |a[i]| < 9q.
 * void mldsa_invntt_vx(int32_t a[256]): ntt::invntt_tomont, in place. In: |a[i]| < q, in
 *   the order ntt produces. Out: natural order, |a[i]| < q.
 *
 * Montgomery multiplication of four words by zeta: with zq = zeta * QINV mod 2^32,
 * t = x * zq mod 2^32 (VMLF), and x * zeta - t * q is a multiple of 2^32, so
 * montgomery_reduce(x * zeta) = high(x * zeta) - high(t * q) exactly (VMHF, signed).
 *
 * Registers: %v24 = q and %v25 = QINV in every word; %v16 zeta, %v17 zeta * QINV;
 * %v18-%v23 and %v26-%v29 data and scratch.
 */
#include <linux/linkage.h>
#include <asm/nospec-insn.h>

#define Q	8380417
#define QINV	58728449	/* q^-1 mod 2^32 */
#define F	41978		/* 2^64 / 256 mod q, as ntt.rs */
#define ZETA_F	3975713		/* montgomery_reduce(-ZETAS[1] * F), as ntt.rs */

	GEN_BR_THUNK %r14

/* %v\r = montgomery_reduce(%v\x * zeta) with zeta in %v16 and zeta * QINV in %v17. */
.macro montmul r, x
	vmlf	%v22, %v\x, %v17
	vmhf	%v\r, %v\x, %v16
	vmhf	%v22, %v22, %v24
	vsf	%v\r, %v\r, %v22
.endm

/* Cooley-Tukey (ntt.rs ct_butterfly): (%v\l, %v\h) = (l + zeta h, l - zeta h). */
.macro ct l, h
	montmul	23, \h
	vsf	%v\h, %v\l, %v23
	vaf	%v\l, %v\l, %v23
.endm

/* Gentleman-Sande (ntt.rs gs_butterfly): (%v\l, %v\h) = (l + h, zeta (l - h)). */
.macro gs l, h
	vsf	%v23, %v\l, %v\h
	vaf	%v\l, %v\l, %v\h
	montmul	\h, 23
.endm

/* %v17 = %v16 * QINV mod 2^32. */
.macro zq
	vmlf	%v17, %v16, %v25
.endm

/*
 * A layer with len >= 4 (in coefficients): for each block of 2 len, one zeta, read in
 * turn from \table at byte \off, and the butterfly \bf on words j and j + len.
 */
.macro layer bf, len, table, off
	larl	%r4, \table + \off
	lgr	%r5, %r2
	lghi	%r0, 128 / \len
0:	vlrepf	%v16, 0(%r4)
	zq
	lgr	%r1, %r5
	lghi	%r3, \len / 4
1:	vl	%v18, 0(%r1)
	vl	%v19, 4 * \len(%r1)
	\bf	18, 19
	vst	%v18, 0(%r1)
	vst	%v19, 4 * \len(%r1)
	la	%r1, 16(%r1)
	brctg	%r3, 1b
	la	%r5, 8 * \len(%r5)
	la	%r4, 4(%r4)
	brctg	%r0, 0b
.endm

/*
 * The layer with len = 2: eight words [a0..a7] at a time are two blocks, (a0 a1 | a2 a3)
 * and (a4 a5 | a6 a7); %v18 = [a0 a1 a4 a5] and %v19 = [a2 a3 a6 a7] take the zetas
 * [z z z' z'] of the two blocks, read in turn from \table at byte \off.
 */
.macro layer2 bf, table, off
	larl	%r4, \table + \off
	lgr	%r1, %r2
	lghi	%r3, 32
0:	vlrepg	%v16, 0(%r4)
	vmrhf	%v16, %v16, %v16
	zq
	vl	%v26, 0(%r1)
	vl	%v27, 16(%r1)
	vmrhg	%v18, %v26, %v27
	vmrlg	%v19, %v26, %v27
	\bf	18, 19
	vmrhg	%v26, %v18, %v19
	vmrlg	%v27, %v18, %v19
	vst	%v26, 0(%r1)
	vst	%v27, 16(%r1)
	la	%r1, 32(%r1)
	la	%r4, 8(%r4)
	brctg	%r3, 0b
.endm

/*
 * The layer with len = 1: eight words [a0..a7] at a time are four blocks; %v18 =
 * [a0 a2 a4 a6] and %v19 = [a1 a3 a5 a7] take the four zetas read in turn from \table at
 * byte \off.
 */
.macro layer1 bf, table, off
	larl	%r4, \table + \off
	lgr	%r1, %r2
	lghi	%r3, 32
0:	vl	%v16, 0(%r4)
	zq
	vl	%v26, 0(%r1)
	vl	%v27, 16(%r1)
	vmrhf	%v28, %v26, %v27
	vmrlf	%v29, %v26, %v27
	vmrhf	%v18, %v28, %v29
	vmrlf	%v19, %v28, %v29
	\bf	18, 19
	vmrhf	%v26, %v18, %v19
	vmrlf	%v27, %v18, %v19
	vst	%v26, 0(%r1)
	vst	%v27, 16(%r1)
	la	%r1, 32(%r1)
	la	%r4, 16(%r4)
	brctg	%r3, 0b
.endm

.macro constants
	larl	%r1, .Lqs
	vlrepf	%v24, 0(%r1)
	vlrepf	%v25, 4(%r1)
.endm

/* The forward NTT takes ZETAS[1], ZETAS[2..3], ..., ZETAS[128..255] in turn. */
SYM_FUNC_START(mldsa_ntt_vx)
	constants
	layer	ct, 128, .Lzetas, 4 * 1
	layer	ct, 64, .Lzetas, 4 * 2
	layer	ct, 32, .Lzetas, 4 * 4
	layer	ct, 16, .Lzetas, 4 * 8
	layer	ct, 8, .Lzetas, 4 * 16
	layer	ct, 4, .Lzetas, 4 * 32
	layer2	ct, .Lzetas, 4 * 64
	layer1	ct, .Lzetas, 4 * 128
	BR_EX	%r14
SYM_FUNC_END(mldsa_ntt_vx)

/*
 * The inverse NTT takes -ZETAS[255], -ZETAS[254], ..., -ZETAS[2] in turn (.Linv_zetas),
 * then its last layer multiplies the sums by F and the differences by ZETA_F, which folds
 * in the scaling by 2^64 / 256, as ntt.rs does.
 */
SYM_FUNC_START(mldsa_invntt_vx)
	constants
	layer1	gs, .Linv_zetas, 0
	layer2	gs, .Linv_zetas, 4 * 128
	layer	gs, 4, .Linv_zetas, 4 * 192
	layer	gs, 8, .Linv_zetas, 4 * 224
	layer	gs, 16, .Linv_zetas, 4 * 240
	layer	gs, 32, .Linv_zetas, 4 * 248
	layer	gs, 64, .Linv_zetas, 4 * 252
	larl	%r1, .Lqs
	vlrepf	%v26, 8(%r1)			/* F */
	vlrepf	%v27, 12(%r1)			/* ZETA_F */
	lgr	%r1, %r2
	lghi	%r3, 32
0:	vl	%v18, 0(%r1)
	vl	%v19, 512(%r1)
	vsf	%v20, %v18, %v19
	vaf	%v21, %v18, %v19
	vlr	%v16, %v26
	zq
	montmul	18, 21
	vlr	%v16, %v27
	zq
	montmul	19, 20
	vst	%v18, 0(%r1)
	vst	%v19, 512(%r1)
	la	%r1, 16(%r1)
	brctg	%r3, 0b
	BR_EX	%r14
SYM_FUNC_END(mldsa_invntt_vx)

.section .rodata
.balign 8
.Lqs:
	.long	Q, QINV, F, ZETA_F
/* ZETAS of ntt.rs: zeta^BitRev8(i) * 2^32 mod q, centred. */
.Lzetas:
	.long	-4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468
	.long	1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103
	.long	2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549
	.long	-2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005
	.long	2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439
	.long	-3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299
	.long	-1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596
	.long	811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779
	.long	-3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221
	.long	-1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922
	.long	3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047
	.long	-671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430
	.long	-3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618
	.long	-3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856
	.long	189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330
	.long	1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961
	.long	2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462
	.long	266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378
	.long	900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500
	.long	-655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838
	.long	342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044
	.long	2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974
	.long	-3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970
	.long	-1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642
	.long	-1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031
	.long	-542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993
	.long	-2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385
	.long	-3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107
	.long	-3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078
	.long	-426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893
	.long	-2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687
	.long	-554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782
/* -ZETAS[255 - m] for m = 0..254, the order in which the inverse NTT takes them. */
.Linv_zetas:
	.long	-1976782, 846154, -1400424, -3937738, 1362209, 48306, -3919660, 554416
	.long	3545687, -1612842, 976891, -183443, 2286327, 420899, 2235985, 2939036
	.long	3833893, 260646, 1104333, 1667432, -1910376, 1803090, -1723600, 426683
	.long	-472078, -1717735, 975884, -2213111, -269760, -3866901, -3523897, 3038916
	.long	1799107, 3694233, -1652634, -810149, -3014001, -1616392, -162844, 3183426
	.long	1207385, -185531, -3369112, -1957272, 164721, -2454455, -2432395, 2013608
	.long	3776993, -594136, 3724270, 2584293, 1846953, 1671176, 2831860, 542412
	.long	-3406031, -2235880, -777191, -1500165, 1374803, 2546312, -1917081, 1279661
	.long	1962642, -3306115, -1312455, 451100, 1430225, 3318210, -1237275, 1333058
	.long	1050970, -1903435, -1869119, 2994039, 3548272, -2635921, -1250494, 3767016
	.long	-1595974, -2486353, -1247620, -4055324, -1265009, 2590150, -2691481, -2842341
	.long	-203044, -1735879, 3342277, -3437287, -4108315, 2437823, -286988, -342297
	.long	3595838, 768622, 525098, 3556995, -3207046, -2031748, 3122442, 655327
	.long	522500, 43260, 1613174, -495491, -819034, -909542, -1859098, -900702
	.long	3193378, 1197226, 3759364, 3520352, -3513181, 1235728, -2434439, -266997
	.long	3562462, 2446433, -2244091, 3342478, -3817976, -2316500, -3407706, -2091667
	.long	-3839961, 3628969, 3881060, 3019102, 1439742, 812732, 1584928, -1285669
	.long	-1341330, -1315589, 177440, 2409325, 1851402, -3159746, 3553272, -189548
	.long	1316856, -759969, 210977, -2389356, 3249728, -1653064, 8578, 3724342
	.long	-3958618, -904516, 1100098, -44288, -3097992, -508951, -264944, 3343383
	.long	1430430, -1852771, -1349076, 381987, 1308169, 22981, 1228525, 671102
	.long	2477047, 411027, 3693493, 2967645, -2715295, -2147896, 983419, -3412210
	.long	-126922, 3632928, 3157330, 3190144, 1000202, 4083598, -1939314, 1257611
	.long	1585221, -2176455, -3475950, 1452451, 3041255, 3677745, 1528703, 3930395
	.long	2797779, -2071892, 2556880, -3900724, -3881043, -954230, -531354, -811944
	.long	-3699596, 1600420, 2140649, -3507263, 3821735, -3505694, 1643818, 1699267
	.long	539299, -2348700, 300467, -3539968, 2867647, -3574422, 3043716, 3861115
	.long	-3915439, 2537516, 3592148, 1661693, -3530437, -3077325, -95776, -2706023
	.long	-280005, -4010497, 19422, -1757237, 3277672, 1399561, 3859737, 2118186
	.long	2108549, -2619752, 1119584, 549488, -3585928, 1079900, -1024112, -2725464
	.long	-2680103, -3111497, 2884855, -3119733, 2091905, 359251, -2353451, -1826347
	.long	-466468, 876248, 777960, -237124, 518909, 2608894, -25847, 0
