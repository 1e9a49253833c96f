//! Bounded random fuzzing: arbitrary bytes as pk, sig and msg never panic, and the
//! decision agrees with the peers.

mod common;

use mldsa_host::peers::sets;
use mldsa_host::{verify, Message};
use rand::{rngs::StdRng, Rng, SeedableRng};

const CASES: usize = 1500;

fn bytes(rng: &mut StdRng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.gen()).collect()
}

/// `CASES` arbitrary inputs for set `set_index` of `sets()`, on each code path. A test per set,
/// so that the test threads share the work (under qemu-s390x it takes minutes).
fn arbitrary_inputs(set_index: usize) {
    let set = &sets()[set_index];
    common::on_each_path(|| {
        let mut rng = StdRng::seed_from_u64(0xf022 + set_index as u64);
        let seed: [u8; 32] = rng.gen();
        let good_pk = (set.keypair)(&seed);
        let good_sig = (set.sign)(&seed, b"fuzz", b"");
        let mut accepted = 0;
        for n in 0..CASES {
            let (pk, sig, msg) = match n % 4 {
                // Arbitrary lengths and bytes.
                0 => {
                    let (a, b, c) = (
                        rng.gen_range(0..3000),
                        rng.gen_range(0..5000),
                        rng.gen_range(0..64),
                    );
                    (bytes(&mut rng, a), bytes(&mut rng, b), bytes(&mut rng, c))
                }
                // Right lengths, arbitrary bytes.
                1 => (
                    bytes(&mut rng, set.p.pk_len()),
                    bytes(&mut rng, set.p.sig_len()),
                    bytes(&mut rng, 4),
                ),
                // A valid signature with a few bytes overwritten anywhere.
                _ => {
                    let mut sig = good_sig.clone();
                    for _ in 0..rng.gen_range(0..4) {
                        let i = rng.gen_range(0..sig.len());
                        sig[i] = rng.gen();
                    }
                    (good_pk.clone(), sig, b"fuzz".to_vec())
                }
            };
            let ours = verify(
                set.p,
                &pk,
                &sig,
                Message::Pure {
                    msg: &msg,
                    ctx: &[],
                },
            );
            for (peer, f) in set.peers {
                assert_eq!(
                    ours.is_ok(),
                    f(&pk, &msg, &[], &sig),
                    "{} case {n}: {peer} differs from {ours:?}",
                    set.name
                );
            }
            accepted += ours.is_ok() as usize;
        }
        // Overwriting zero bytes leaves the signature valid: some cases must pass.
        assert!(accepted > 0, "{}: nothing verified", set.name);
    });
}

#[test]
fn fuzz_arbitrary_inputs_44() {
    arbitrary_inputs(0);
}

#[test]
fn fuzz_arbitrary_inputs_65() {
    arbitrary_inputs(1);
}

#[test]
fn fuzz_arbitrary_inputs_87() {
    arbitrary_inputs(2);
}
