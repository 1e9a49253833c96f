//! ExpandA's AVX2 rejection sampling with multiply-accumulate
//! (`arch/x86/rej_ntt_avx2.S`, alone and then through `arch::rej_ntt_mul_acc`) against a reference
//! written here from FIPS 204 (Algorithms 14 and 30): on random blocks rich in rejected
//! candidates, at every starting position, and for every pattern of accepted candidates.
//! Also the pointwise product of packed polynomials and the packing, in the same file
//! (`arch::pointwise`, `arch::pack`), against the portable ones, bit for bit.
//!
//! Fails if the CPU lacks AVX2, unless `MLDSA_ALLOW_NO_AVX2` is set.

#![cfg(target_arch = "x86_64")]

use mldsa_host::keccak::StateX4;
use mldsa_host::params::{PackedPoly, Poly, N, PACKED_POLY_BYTES, Q};
use mldsa_host::{arch, poly, simd};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const BLOCK: usize = 168;

/// Whether to run: true with AVX2; without it, panics unless `MLDSA_ALLOW_NO_AVX2` is set.
fn have_avx2() -> bool {
    if simd::avx2_available() {
        simd::use_avx2(true);
        return true;
    }
    if std::env::var_os("MLDSA_ALLOW_NO_AVX2").is_some() {
        eprintln!("SKIPPED: no AVX2 on this CPU (MLDSA_ALLOW_NO_AVX2 is set)");
        return false;
    }
    panic!("this CPU lacks AVX2, so the AVX2 sampling is untested; set MLDSA_ALLOW_NO_AVX2=1");
}

/// Byte k of the block of state t.
fn block_byte(st: &StateX4, t: usize, k: usize) -> u8 {
    st[k / 8][8 * t + k % 8]
}

/// a * b * 2^-32 mod q, as montgomery_reduce computes it.
fn mont(a: i32, b: i32) -> i32 {
    let p = a as i64 * b as i64;
    let t = (p as i32).wrapping_mul(58728449) as i64;
    ((p - t * Q as i64) >> 32) as i32
}

/// Algorithm 30's loop over the block's candidates from group `from` (24 bytes each) on,
/// multiplying each accepted a into w[m].
fn reference(w: &mut Poly, zhat: &PackedPoly, st: &StateX4, t: usize, m: &mut usize, from: usize) {
    for k in (24 * from..BLOCK).step_by(3) {
        let b = |i| block_byte(st, t, k + i) as i32;
        // CoeffFromThreeBytes (Algorithm 14).
        let a = b(0) | b(1) << 8 | (b(2) & 0x7f) << 16;
        if a < Q && *m < N {
            // The 23 bits from bit 23 m of zhat.
            let z = (0..23).fold(0, |z, i| {
                let bit = 23 * *m + i;
                z | i32::from(zhat[bit / 8] >> (bit % 8) & 1) << i
            });
            w[*m] += mont(a, z);
            *m += 1;
        }
    }
}

/// Runs the AVX2 routine and then the reference on the rest of the block, and checks
/// the result against the reference alone, and that the routine stopped only where it
/// must (at the block's end or with fewer than 8 coefficients to go); then the whole block
/// through the arch seam.
fn check(w: &Poly, zhat: &PackedPoly, st: &StateX4, t: usize, m: usize) {
    let (mut want_w, mut want_m) = (*w, m);
    reference(&mut want_w, zhat, st, t, &mut want_m, 0);
    let (mut seam_w, mut seam_m) = (*w, m);
    arch::rej_ntt_mul_acc(&mut seam_w, zhat, st, t, &mut seam_m);
    assert_eq!(
        (seam_m, seam_w),
        (want_m, want_w),
        "arch seam from m {m}, state {t}"
    );
    let (mut got_w, mut got_m) = (*w, m);
    let from = simd::avx2::run(|s| s.rej_ntt_mul_acc(&mut got_w, zhat, st, t, &mut got_m))
        .expect("this thread uses AVX2");
    assert!(from <= BLOCK / 24);
    assert!(
        from == BLOCK / 24 || got_m > N - 8,
        "stopped early: m {got_m}, group {from}"
    );
    assert!(m > N - 8 || from > 0, "took no group from m {m}");
    reference(&mut got_w, zhat, st, t, &mut got_m, from);
    assert_eq!(got_m, want_m, "m from {m}, state {t}");
    assert_eq!(got_w, want_w, "w from {m}, state {t}");
}

/// Random NTT(z), packed, each coefficient in [0, q).
fn random_zhat(rng: &mut StdRng) -> PackedPoly {
    packed(&std::array::from_fn(|_| rng.gen_range(0..Q)))
}

/// `a`, each coefficient in [0, q), packed by the portable code (whose layout `arith.rs`
/// checks).
fn packed(a: &Poly) -> PackedPoly {
    let mut out = [0; PACKED_POLY_BYTES + 1];
    poly::pack(a, &mut out);
    out
}

/// A random 24-bit candidate, often one that is rejected or at the edge: q - 1, q, 2^23 - 1,
/// and values whose ignored top bit is set.
fn candidate(rng: &mut StdRng) -> u32 {
    let top = if rng.gen() { 0x80_0000 } else { 0 };
    top | match rng.gen_range(0..6) {
        0 => Q as u32 - 1,
        1 => Q as u32,
        2 => 0x7f_ffff,
        3 => rng.gen_range(Q as u32..0x80_0000),
        _ => rng.gen_range(0..0x80_0000),
    }
}

/// Writes 3-byte candidates into the block of state t.
fn fill_block(st: &mut StateX4, t: usize, cands: impl Iterator<Item = u32>) {
    for (n, c) in cands.enumerate().take(BLOCK / 3) {
        for (i, &b) in c.to_le_bytes()[..3].iter().enumerate() {
            let k = 3 * n + i;
            st[k / 8][8 * t + k % 8] = b;
        }
    }
}

#[test]
fn random_blocks_match_reference() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(30);
    for i in 0..100_000 {
        let mut st: StateX4 = [[0; 32]; 25];
        rng.fill(st.as_flattened_mut());
        let t = rng.gen_range(0..4);
        if i % 2 == 0 {
            fill_block(&mut st, t, std::iter::repeat_with(|| candidate(&mut rng)));
        }
        let zhat = random_zhat(&mut rng);
        // w as it is mid-row: |w| < 6q.
        let w: Poly = std::array::from_fn(|_| rng.gen_range(-6 * Q + 1..6 * Q));
        let m = match i % 4 {
            0 => 0,
            1 => rng.gen_range(N - 24..=N),
            _ => rng.gen_range(0..=N),
        };
        check(&w, &zhat, &st, t, m);
    }
}

#[test]
fn every_acceptance_pattern() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(14);
    for pattern in 0..=255u32 {
        for t in 0..4 {
            let mut st: StateX4 = [[0; 32]; 25];
            rng.fill(st.as_flattened_mut());
            // Every group: candidate n accepted iff bit n % 8 of the pattern is set.
            let cands = (0..BLOCK / 3).map(|n| {
                if pattern >> (n % 8) & 1 == 1 {
                    rng.gen_range(0..Q as u32)
                } else {
                    rng.gen_range(Q as u32..0x80_0000)
                }
            });
            let cands: Vec<u32> = cands.collect();
            fill_block(&mut st, t, cands.into_iter());
            let zhat = random_zhat(&mut rng);
            let w: Poly = std::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
            for m in [0, 100, N - 9, N - 8, N - 7, N - 1, N] {
                check(&w, &zhat, &st, t, m);
            }
        }
    }
}

/// The packed pointwise products: random operands in [0, q), and the edges 0, 1 and q - 1
/// against each other, with junk in the spare byte, which neither may read; in place, also
/// from any unpacked first operand.
#[test]
fn pointwise_matches_portable() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(15);
    let mut cases: Vec<(PackedPoly, PackedPoly)> = Vec::new();
    let edges = [0, 1, Q - 1];
    let fixed = |c: i32| packed(&[c; N]);
    for &x in &edges {
        for &y in &edges {
            cases.push((fixed(x), fixed(y)));
        }
    }
    for _ in 0..100_000 {
        cases.push((random_zhat(&mut rng), random_zhat(&mut rng)));
    }
    for (a, b) in &mut cases {
        a[PACKED_POLY_BYTES] = rng.gen();
        b[PACKED_POLY_BYTES] = rng.gen();
        let mut want = [0; N];
        poly::pointwise(&mut want, a, b);
        let mut got = [0; N];
        arch::pointwise(&mut got, a, b);
        assert_eq!(got, want);
        assert!(got.iter().all(|c| c.abs() < Q));
        // In place, from any first operand: the edges of i32 and random ones.
        let c: Poly = std::array::from_fn(|k| match k % 64 {
            0 => i32::MIN,
            1 => i32::MAX,
            _ => rng.gen(),
        });
        let (mut want, mut got) = (c, c);
        poly::pointwise_in_place(&mut want, b);
        arch::pointwise_in_place(&mut got, b);
        assert_eq!(got, want);
        assert!(got.iter().all(|c| c.abs() < Q));
    }
}

/// The packing of 100 000 random polynomials over the whole input range (-q, 2^31 - 2^22),
/// and of the range's edges and the multiples of q around 0, bit for bit, into buffers
/// full of junk (every byte, the spare one included, must be written).
#[test]
fn pack_matches_portable() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(16);
    let (lo, hi) = (-Q + 1, i32::MAX - (1 << 22));
    let edges = [lo, -1, 0, 1, Q - 1, Q, 2 * Q, -Q / 2, hi - Q, hi];
    let mut cases: Vec<Poly> = edges.iter().map(|&c| [c; N]).collect();
    cases.push(std::array::from_fn(|k| edges[k % edges.len()]));
    for _ in 0..100_000 {
        let wide: Poly = std::array::from_fn(|_| rng.gen_range(lo..=hi));
        // Mostly the NTT's outputs, within a few q of 0.
        let near: Poly = std::array::from_fn(|_| rng.gen_range(-9 * Q..9 * Q));
        cases.extend([wide, near]);
    }
    for a in &cases {
        let mut want = [0; PACKED_POLY_BYTES + 1];
        poly::pack(a, &mut want);
        let mut got: PackedPoly = std::array::from_fn(|_| rng.gen());
        arch::pack(a, &mut got);
        assert_eq!(got, want, "input {a:?}");
    }
}
