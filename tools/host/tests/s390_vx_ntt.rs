//! The s390x vector-facility NTT routines of arch/s390/ntt_vx.S against the portable ntt.rs,
//! on 100 000 random inputs each and the edges of the input range: the same values, word
//! for word (the routines run the same butterflies), so also equal modulo q and within the
//! bounds of ntt.rs. Runs in the s390x host run (`qemu-s390x -cpu max` has the facility).
#![cfg(target_arch = "s390x")]

use mldsa_host::ntt::{invntt_tomont, ntt, Poly};
use mldsa_host::params::{N, Q};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

extern "C" {
    fn mldsa_ntt_vx(a: *mut i32);
    fn mldsa_invntt_vx(a: *mut i32);
}

const RANDOM_CASES: usize = 100_000;

fn ntt_vx(a: &mut Poly) {
    // SAFETY: a is the 256 writable, 4-byte aligned i32s the routine transforms in place;
    // it uses only vector registers, which the user-mode run has (z13 and later).
    unsafe { mldsa_ntt_vx(a.as_mut_ptr()) }
}

fn invntt_vx(a: &mut Poly) {
    // SAFETY: as in ntt_vx.
    unsafe { mldsa_invntt_vx(a.as_mut_ptr()) }
}

/// Inputs in (-q, q), the range both transforms take: random ones, then all at -(q - 1),
/// all at q - 1, and alternating.
fn inputs() -> impl Iterator<Item = Poly> {
    let mut rng = StdRng::seed_from_u64(0x5339_0078);
    let edges = [[1 - Q; N], [Q - 1; N], core::array::from_fn(|i| [1 - Q, Q - 1][i % 2])];
    (0..RANDOM_CASES)
        .map(move |_| core::array::from_fn(|_| rng.gen_range(1 - Q..Q)))
        .chain(edges)
}

#[test]
fn ntt_equals_portable() {
    for input in inputs() {
        let (mut got, mut want) = (input, input);
        ntt_vx(&mut got);
        ntt(&mut want);
        assert_eq!(got, want, "ntt of {input:?}");
    }
}

#[test]
fn invntt_equals_portable() {
    for input in inputs() {
        let (mut got, mut want) = (input, input);
        invntt_vx(&mut got);
        invntt_tomont(&mut want);
        assert_eq!(got, want, "invntt of {input:?}");
        assert!(got.iter().all(|c| c.abs() < Q));
    }
}
