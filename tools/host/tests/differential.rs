//! Differential tests: the same accept/reject decision as four independent
//! implementations, on valid signatures and on every kind of mutation, over random keys,
//! messages and contexts (including empty and 255-byte contexts).

mod common;

use mldsa_host::mldsa_verify::Error;
use mldsa_host::peers::{sets, Set};
use mldsa_host::{internal_mu, verify, Message};
use rand::{rngs::StdRng, Rng, SeedableRng};

/// Keys per parameter set; each key is checked on a valid signature and ~20 mutations.
const KEYS: usize = 120;

fn flip_bit(rng: &mut StdRng, v: &mut [u8]) {
    let i = rng.gen_range(0..v.len() * 8);
    v[i / 8] ^= 1 << (i % 8);
}

/// Checks (pk, msg, ctx, sig) with us and every peer; returns our result.
fn check(
    set: &Set,
    what: &str,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let ours = verify(set.p, pk, sig, Message::Pure { msg, ctx });
    for (peer, f) in set.peers {
        assert_eq!(
            ours.is_ok(),
            f(pk, msg, ctx, sig),
            "{} {what}: we say {ours:?}, {peer} differs",
            set.name
        );
    }
    ours
}

fn random_case(rng: &mut StdRng, set: &Set) {
    let seed: [u8; 32] = rng.gen();
    let pk = (set.keypair)(&seed);
    let msg: Vec<u8> = (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect();
    let ctx_len = match rng.gen_range(0..4) {
        0 => 0,
        1 => 255,
        _ => rng.gen_range(1..255),
    };
    let ctx: Vec<u8> = (0..ctx_len).map(|_| rng.gen()).collect();
    let sig = (set.sign)(&seed, &msg, &ctx);
    let p = set.p;

    assert_eq!(check(set, "valid", &pk, &msg, &ctx, &sig), Ok(()));

    let mut m = pk.clone();
    flip_bit(rng, &mut m);
    assert_eq!(
        check(set, "pk bit flip", &m, &msg, &ctx, &sig),
        Err(Error::Rejected)
    );
    let mut m = sig.clone();
    flip_bit(rng, &mut m);
    assert!(check(set, "sig bit flip", &pk, &msg, &ctx, &m).is_err());
    if !msg.is_empty() {
        let mut m = msg.clone();
        flip_bit(rng, &mut m);
        assert_eq!(
            check(set, "msg bit flip", &pk, &m, &ctx, &sig),
            Err(Error::Rejected)
        );
    }
    if !ctx.is_empty() {
        let mut m = ctx.clone();
        flip_bit(rng, &mut m);
        assert_eq!(
            check(set, "ctx bit flip", &pk, &msg, &m, &sig),
            Err(Error::Rejected)
        );
    }
    let long_ctx = [7u8; 256];
    assert_eq!(
        check(set, "256-byte ctx", &pk, &msg, &long_ctx, &sig),
        Err(Error::BadParameter)
    );

    // Wrong lengths: truncated, empty and extended keys and signatures.
    let longer = |v: &[u8]| [v, &[0]].concat();
    let (long_pk, long_sig) = (longer(&pk), longer(&sig));
    for (what, k, s) in [
        ("truncated pk", &pk[..pk.len() - 1], &sig[..]),
        ("empty pk", &[][..], &sig[..]),
        ("extended pk", &long_pk[..], &sig[..]),
        ("truncated sig", &pk[..], &sig[..sig.len() - 1]),
        ("empty sig", &pk[..], &[][..]),
        ("extended sig", &pk[..], &long_sig[..]),
    ] {
        assert_eq!(check(set, what, k, &msg, &ctx, s), Err(Error::Malformed));
    }

    // z at the edges of the range: gamma1 - beta - 1 is allowed, gamma1 - beta is not.
    let bound = (1 << p.gamma1_bits) - p.beta;
    let poly = rng.gen_range(0..p.l);
    let idx = rng.gen_range(0..256);
    for (z, want) in [
        (bound - 1, Err(Error::Rejected)),
        (bound, Err(Error::Malformed)),
    ] {
        for z in [z, -z] {
            let mut m = sig.clone();
            common::set_z(p, &mut m, poly, idx, z);
            assert_eq!(common::get_z(p, &m, poly, idx), z);
            if common::get_z(p, &sig, poly, idx) == z {
                continue;
            }
            assert_eq!(check(set, &format!("z = {z}"), &pk, &msg, &ctx, &m), want);
        }
    }

    for kind in 0..4 {
        let mut m = sig.clone();
        if common::malform_hint(p, &mut m, kind) {
            assert_eq!(
                check(
                    set,
                    &format!("hint malformation {kind}"),
                    &pk,
                    &msg,
                    &ctx,
                    &m
                ),
                Err(Error::Malformed)
            );
        }
    }
}

/// `KEYS` random cases of set `set_index` of `sets()`, on each code path. A test per set, so
/// that the test threads share the work (under qemu-s390x it takes minutes).
fn random_keys_and_mutations(set_index: usize) {
    let set = &sets()[set_index];
    common::on_each_path(|| {
        let mut rng = StdRng::seed_from_u64(0x6d6c6473 + set_index as u64);
        for _ in 0..KEYS {
            random_case(&mut rng, set);
        }
    });
}

#[test]
fn differential_random_keys_and_mutations_44() {
    random_keys_and_mutations(0);
}

#[test]
fn differential_random_keys_and_mutations_65() {
    random_keys_and_mutations(1);
}

#[test]
fn differential_random_keys_and_mutations_87() {
    random_keys_and_mutations(2);
}

/// Verify_internal and external mu against RustCrypto `ml-dsa`, which offers both.
#[test]
fn differential_internal_and_external_mu() {
    common::on_each_path(|| {
        use sha3::digest::{ExtendableOutput, Update, XofReader};
        let mut rng = StdRng::seed_from_u64(2);
        for set in sets() {
            for n in 0..40 {
                let seed: [u8; 32] = rng.gen();
                let pk = (set.keypair)(&seed);
                let mprime: Vec<u8> = (0..rng.gen_range(0..200)).map(|_| rng.gen()).collect();
                // A signature over M' = 0 || 0 || mprime is a valid Verify_internal signature
                // for [0, 0] ++ mprime; flip a bit in half the cases.
                let mut sig = (set.sign)(&seed, &mprime, &[]);
                if n % 2 == 1 {
                    flip_bit(&mut rng, &mut sig);
                }
                let full: Vec<u8> = [&[0u8, 0][..], &mprime].concat();
                let ours = verify(set.p, &pk, &sig, Message::Mu(&internal_mu(&pk, &full)));
                assert_eq!(
                    ours.is_ok(),
                    (set.rustcrypto_internal)(&pk, &full, &sig),
                    "{} internal",
                    set.name
                );
                assert_eq!(
                    ours.is_ok(),
                    n % 2 == 0,
                    "{} internal, flipped: {}",
                    set.name,
                    n % 2
                );

                let mut tr = [0u8; 64];
                let mut h = sha3::Shake256::default();
                h.update(&pk);
                h.finalize_xof().read(&mut tr);
                let mut mu = [0u8; 64];
                let mut h = sha3::Shake256::default();
                h.update(&tr);
                h.update(&full);
                h.finalize_xof().read(&mut mu);
                let ours_mu = verify(set.p, &pk, &sig, Message::Mu(&mu));
                assert_eq!(ours_mu, ours, "{} mu", set.name);
                assert_eq!(
                    ours_mu.is_ok(),
                    (set.rustcrypto_mu)(&pk, &mu, &sig),
                    "{} mu",
                    set.name
                );
            }
        }
    });
}
