//! The s390x vector-facility NTT routines of arch/s390/ntt_vx.S, through
//! `arch/s390.rs`, against the portable ntt.rs, on 100 000 random inputs each and the
//! edges of the input range: the same values, word for word (the routines run the same
//! butterflies), so also equal modulo q and within the bounds of ntt.rs. Runs in the s390x host run (`qemu-s390x -cpu max` has the facility).
#![cfg(target_arch = "s390x")]

use mldsa_host::ntt::{invntt_tomont, ntt};
use mldsa_host::params::Poly;
use mldsa_host::params::{N, Q};
use mldsa_host::arch::s390::Vx;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const RANDOM_CASES: usize = 100_000;

fn vx() -> Vx {
    // SAFETY: The s390x run is on `qemu-s390x -cpu max`, which has the vector facility, and
    // user space may use the vector registers.
    unsafe { Vx::new() }
}

/// Inputs in (-q, q), the range both transforms take: random ones, then all at -(q - 1),
/// all at q - 1, and alternating.
fn inputs() -> impl Iterator<Item = Poly> {
    let mut rng = StdRng::seed_from_u64(0x5339_0078);
    let edges = [
        [1 - Q; N],
        [Q - 1; N],
        core::array::from_fn(|i| [1 - Q, Q - 1][i % 2]),
    ];
    (0..RANDOM_CASES)
        .map(move |_| core::array::from_fn(|_| rng.gen_range(1 - Q..Q)))
        .chain(edges)
}

#[test]
fn ntt_equals_portable() {
    for input in inputs() {
        let (mut got, mut want) = (input, input);
        vx().ntt(&mut got);
        ntt(&mut want);
        assert_eq!(got, want, "ntt of {input:?}");
    }
}

#[test]
fn invntt_equals_portable() {
    for input in inputs() {
        let (mut got, mut want) = (input, input);
        vx().invntt_tomont(&mut got);
        invntt_tomont(&mut want);
        assert_eq!(got, want, "invntt of {input:?}");
        assert!(got.iter().all(|c| c.abs() < Q));
    }
}
