// SPDX-License-Identifier: GPL-2.0

//! The arch code against the portable code: the AVX2 and AVX-512VL routines of `arch/x86/`,
//! the SHA-3 library's permutation and the s390 vector-facility NTTs.

use super::*;

check_at!($ "tests/arch.rs", c"tests/arch.rs");

/// The AVX2 routines equal the portable code on random inputs: modulo q for the NTTs (inputs
/// in (-q, q), and for the inverse up to 255q, reduced first), and bit for bit for the
/// pointwise product of packed polynomials, the packing, w1Encode of HighBits, the 4-way
/// Keccak-f\[1600\] against portable permutations, and ExpandA's rejection sampling with
/// multiply-accumulate. Skipped on a CPU without AVX2 (QEMU `-cpu max` has it), where only
/// the portable code runs.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub(super) fn avx2_matches_portable() {
    use crate::simd::avx2;

    if !avx2::usable() {
        skip(c"no AVX2 on this CPU: the portable code runs");
        return;
    }
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..300 {
        avx2_ntts_match(&mut rng);
        avx2_pointwise_matches(&mut rng);
        avx2_pack_matches(&mut rng);
        avx2_w1_encode_matches(&mut rng);
    }
    keccak_x4_matches(&mut rng, false);
    avx2_rej_ntt_matches(&mut rng);
}

// The checks of `avx2_matches_portable`, each in its own stack frame: together, their
// buffers would not fit in a kernel stack.

/// The NTT and the inverse NTT, modulo q, inputs in (-q, q) and for the inverse up to
/// 255q, reduced first.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
pub(super) fn avx2_ntts_match(rng: &mut XorShift) {
    use crate::simd::avx2;

    let canonical = |a: &Poly| a.map(|c| c.rem_euclid(Q));
    let (a, b) = (rng.poly(), rng.poly().map(|c| c * 255));
    let mut got = [a, b];
    let mut want = [a, b.map(ntt::reduce32)];
    check!(avx2::run(|s| {
        let [x, y] = &mut got;
        s.ntt(x);
        s.invntt_tomont(y);
    })
    .is_some());
    ntt::ntt(&mut want[0]);
    ntt::invntt_tomont(&mut want[1]);
    check!(got.iter().map(canonical).eq(want.iter().map(canonical)));
    check!(got[1].iter().all(|c| c.abs() < Q));
}

/// The pointwise products, bit for bit, on packed operands in [0, q) with junk in the spare
/// bytes, and in place from any first operand.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
pub(super) fn avx2_pointwise_matches(rng: &mut XorShift) {
    use crate::params::{PackedPoly, PACKED_POLY_BYTES};
    use crate::simd::avx2;

    let (mut pa, mut pb): (PackedPoly, PackedPoly) =
        ([0; PACKED_POLY_BYTES + 1], [0; PACKED_POLY_BYTES + 1]);
    crate::poly::pack(&rng.poly().map(i32::abs), &mut pa);
    crate::poly::pack(&rng.poly().map(i32::abs), &mut pb);
    rng.fill(&mut pa[PACKED_POLY_BYTES..]);
    rng.fill(&mut pb[PACKED_POLY_BYTES..]);
    let (mut got, mut want) = ([0; N], [0; N]);
    check!(avx2::run(|s| s.pointwise(&mut got, &pa, &pb)).is_some());
    crate::poly::pointwise(&mut want, &pa, &pb);
    check!(got == want);
    // In place, from any first operand.
    got.iter_mut().for_each(|c| *c = rng.next() as i32);
    want = got;
    check!(avx2::run(|s| s.pointwise_in_place(&mut got, &pb)).is_some());
    crate::poly::pointwise_in_place(&mut want, &pb);
    check!(got == want);
}

/// Packing, bit for bit, into a junk buffer, from the input range (-q, 2^31 - 2^22): odd
/// coefficients of (-q, q) are spread over [0, 2^31 - 2^22).
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
pub(super) fn avx2_pack_matches(rng: &mut XorShift) {
    use crate::params::{PackedPoly, PACKED_POLY_BYTES};
    use crate::simd::avx2;

    let a = rng.poly().map(|c| {
        if c & 1 == 0 {
            c
        } else {
            c.wrapping_mul(256) & 0x7fbf_ffff
        }
    });
    let (mut got, mut want): (PackedPoly, PackedPoly) =
        ([0; PACKED_POLY_BYTES + 1], [0; PACKED_POLY_BYTES + 1]);
    rng.fill(&mut got);
    check!(avx2::run(|s| s.pack(&a, &mut got)).is_some());
    crate::poly::pack(&a, &mut want);
    check!(got == want);
}

/// w1Encode of HighBits, bit for bit, both gamma2, into a junk buffer.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
pub(super) fn avx2_w1_encode_matches(rng: &mut XorShift) {
    use crate::simd::avx2;

    let w = rng.poly();
    for (gamma2, len) in [((Q - 1) / 88, 192), ((Q - 1) / 32, 128)] {
        // The junk past the row must stay.
        let mut got = [0; 192];
        rng.fill(&mut got);
        let mut want = got;
        check!(avx2::run(|s| s.w1_encode(gamma2, &w, &mut got)).is_some());
        crate::poly::w1_encode(gamma2, &w, &mut want[..len]);
        check!(got == want);
    }
}

/// ExpandA's sampling: the AVX2 routine takes a block's first groups, the portable code the
/// rest, as the arch seam does in a verification; the result must be the portable one.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
pub(super) fn avx2_rej_ntt_matches(rng: &mut XorShift) {
    use crate::keccak::{StateX4, SHAKE128_RATE};
    use crate::params::{PackedPoly, PACKED_POLY_BYTES};
    use crate::simd::avx2;
    use crate::{arch, poly};

    let mut st: StateX4 = [[0; 32]; 25];
    let mut zhat: PackedPoly = [0; PACKED_POLY_BYTES + 1];
    for i in 0..2000 {
        st.iter_mut().for_each(|row| rng.fill(row));
        let t = i % 4;
        // Make about half the candidates of state t at least q - 1, so mostly rejected.
        for k in (0..SHAKE128_RATE).step_by(3) {
            if rng.next() & 1 == 1 {
                st[(k + 1) / 8][8 * t + (k + 1) % 8] |= 0xe0;
                st[(k + 2) / 8][8 * t + (k + 2) % 8] |= 0x7f;
            }
        }
        poly::pack(&rng.poly().map(i32::abs), &mut zhat);
        let m = (rng.next() % (N as u64 + 1)) as usize;
        let w = rng.poly();
        let (mut got, mut got_m, mut want, mut want_m) = (w, m, w, m);
        let taken = avx2::run(|s| s.rej_ntt_mul_acc(&mut got, &zhat, &st, t, &mut got_m));
        check!(taken.is_some_and(|n| n > 0) || m > N - 8);
        poly::rej_ntt_mul_acc(&mut got, &zhat, &st, t, &mut got_m, taken.unwrap_or(0));
        poly::rej_ntt_mul_acc(&mut want, &zhat, &st, t, &mut want_m, 0);
        check!(got_m == want_m && got == want);
        let (mut seam, mut seam_m) = (w, m);
        arch::rej_ntt_mul_acc(&mut seam, &zhat, &st, t, &mut seam_m);
        check!(seam_m == want_m && seam == want);
    }
}

/// The AVX-512VL 4-way Keccak-f\[1600\] equals four portable permutations on random states.
/// Skipped on a CPU without AVX-512VL (QEMU's emulation has none), where the AVX2 one runs.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub(super) fn avx512_matches_portable() {
    use crate::simd::avx2;

    if !avx2::avx512() {
        skip(c"no AVX-512VL on this CPU: the AVX2 Keccak runs");
        return;
    }
    keccak_x4_matches(&mut XorShift(0x7f4a_7c15_9e37_79b9), true);
}

/// Checks that the 4-way Keccak-f\[1600\] routine, the AVX-512VL one if `avx512`, equals four
/// portable permutations on 1000 random states.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
pub(super) fn keccak_x4_matches(rng: &mut XorShift, avx512: bool) {
    use crate::keccak::{keccak_f1600, StateX4};
    use crate::simd::avx2;

    let mut st: StateX4 = [[0; 32]; 25];
    for _ in 0..1000 {
        st.iter_mut().for_each(|row| rng.fill(row));
        let mut want = st;
        for s in 0..4 {
            keccak_f1600(&mut want, s);
        }
        check!(avx2::run_with(avx512, |s| s.keccak_f1600_x4(&mut st)).is_some());
        check!(st == want);
    }
}

/// ExpandA through the SHA-3 library's permutation (`kernel::crypto::sha3::keccak_f1600`),
/// which it takes where no SIMD Keccak runs and the library's is arch code, gives the
/// verdicts of the portable permutation: on each set's known answer and three corruptions
/// of it, with the library's route forced, whatever code the library runs here (on s390x
/// under QEMU its generic C, through the big-endian byte order of the state). Says which
/// of the two ExpandA uses on this machine.
pub(super) fn library_keccak_matches_portable() {
    use crate::simd::{at_level, with_library_keccak, Level};

    pr_info!(
        "ExpandA without a SIMD Keccak permutes with {}\n",
        match crate::simd::library_keccak() {
            true => "the SHA-3 library's permutation, arch code here",
            false => "the portable permutation: the SHA-3 library's is generic C here",
        }
    );
    for ((_, p, k), alg) in SETS.into_iter().zip(ALGS) {
        let sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL);
        check!(sig.is_ok());
        let mut sig = sig.unwrap();
        // In c~, z and the hint.
        for flip in [None, Some(0), Some(p.c_tilde_len()), Some(k.sig.len() - 1)] {
            sig.copy_from_slice(k.sig);
            if let Some(byte) = flip {
                sig[byte] ^= 1;
            }
            let verify = || lib_verify(alg, &sig, k.msg, k.pk);
            let portable = at_level(Level::Portable, verify);
            let library = with_library_keccak(|| at_level(Level::Library, verify));
            check!(portable == library);
            check!((portable == 0) == flip.is_none());
        }
    }
}

/// The s390 vector-facility NTTs equal the portable code word for word on random inputs in
/// (-q, q), the range both take. Skipped without the facility (QEMU `-cpu max` has it).
#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
pub(super) fn vx_matches_portable() {
    use crate::simd::vx;

    if !vx::usable() {
        skip(c"no vector facility on this machine: the portable code runs");
        return;
    }
    let mut rng = XorShift(0x5339_0078_0d1c_e5a1);
    for _ in 0..2000 {
        let a = rng.poly();
        let (mut got, mut want) = ([a, a], [a, a]);
        let ran = vx::run(|v| {
            v.ntt(&mut got[0]);
            v.invntt_tomont(&mut got[1]);
        });
        check!(ran.is_some());
        ntt::ntt(&mut want[0]);
        ntt::invntt_tomont(&mut want[1]);
        check!(got == want);
    }
}
