//! The AVX2 w1Encode of HighBits (`arch/x86/w1_encode_avx2.S`, through `arch::w1_encode`)
//! against the portable one, bit for bit, for both gamma2: on 100 000 random rows, and on
//! rows of every value around the multiples of 2 gamma2 (where HighBits changes), around
//! 0 and +-q.
//!
//! Fails if the CPU lacks AVX2, unless `MLDSA_ALLOW_NO_AVX2` is set.

#![cfg(target_arch = "x86_64")]

mod common;

use mldsa_host::{arch, simd};
use mldsa_host::poly;
use mldsa_host::params::Poly;
use mldsa_host::params::{N, Q};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn check(gamma2: i32, w: &Poly) {
    let len = 32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 };
    let mut want = vec![0; len];
    poly::w1_encode(gamma2, w, &mut want);
    simd::use_avx2(true);
    // The junk past the row must stay.
    let mut got = [0x5a; 192];
    arch::w1_encode(gamma2, w, &mut got);
    assert_eq!(got[..len], want, "gamma2 {gamma2}, input {w:?}");
    assert!(got[len..].iter().all(|&b| b == 0x5a));
}

#[test]
fn w1_encode_matches_portable() {
    if !common::can_run(
        simd::avx2_available(),
        "MLDSA_ALLOW_NO_AVX2",
        "the AVX2 w1Encode",
    ) {
        return;
    }
    let mut rng = StdRng::seed_from_u64(28);
    for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
        // Every value within 300 of a multiple of 2 gamma2 (q - 1 included), or of 0 and
        // -q + 1, 256 to a row.
        let mut edges: Vec<i32> = (0..=(Q - 1) / (2 * gamma2))
            .flat_map(|m| (-300..=300).map(move |d| m * 2 * gamma2 + d))
            .chain((-300..=300).map(|d| -Q + 301 + d))
            .filter(|&r| -Q < r && r < Q)
            .collect();
        edges.extend(edges.clone().iter().map(|r| r - Q).filter(|&r| r > -Q));
        for row in edges.chunks(N) {
            let w: Poly = std::array::from_fn(|k| row[k % row.len()]);
            check(gamma2, &w);
        }
        for _ in 0..100_000 {
            let w: Poly = std::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
            check(gamma2, &w);
        }
    }
}
