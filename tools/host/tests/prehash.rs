//! HashML-DSA.Verify (FIPS 204, Algorithm 5): every pre-hash function against signatures
//! of M' = 1 || |ctx| || ctx || OID || PH(M) built here, and against `fips204`'s own
//! HashML-DSA for the functions it offers (SHA2-256, SHA2-512, SHAKE128).

mod common;

use mldsa_host::mldsa_verify::{Error, PreHash};
use mldsa_host::peers::sets;
use mldsa_host::{pre_hash, verify, Message};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// Each function by its ACVP name, with the DER of its OID (RFC 8702, NIST CSOR).
const FUNCTIONS: [(&str, &str); 7] = [
    ("SHA2-256", "0609608648016503040201"),
    ("SHA2-384", "0609608648016503040202"),
    ("SHA2-512", "0609608648016503040203"),
    ("SHA3-256", "0609608648016503040208"),
    ("SHA3-512", "060960864801650304020a"),
    ("SHAKE-128", "060960864801650304020b"),
    ("SHAKE-256", "060960864801650304020c"),
];

/// PH(M) with the function called `name`.
fn ph(name: &str, m: &[u8]) -> Vec<u8> {
    let xof = |mut h: Box<dyn XofReader>, n| {
        let mut out = vec![0; n];
        h.read(&mut out);
        out
    };
    match name {
        "SHA2-256" => sha2::Sha256::digest(m).to_vec(),
        "SHA2-384" => sha2::Sha384::digest(m).to_vec(),
        "SHA2-512" => sha2::Sha512::digest(m).to_vec(),
        "SHA3-256" => sha3::Sha3_256::digest(m).to_vec(),
        "SHA3-512" => sha3::Sha3_512::digest(m).to_vec(),
        "SHAKE-128" => xof(
            Box::new(sha3::Shake128::default().chain(m).finalize_xof()),
            32,
        ),
        "SHAKE-256" => xof(
            Box::new(sha3::Shake256::default().chain(m).finalize_xof()),
            64,
        ),
        _ => unreachable!(),
    }
}

#[test]
fn every_pre_hash_function() {
    common::on_each_path(|| {
        let mut rng = StdRng::seed_from_u64(5);
        for set in sets() {
            for (n, &(name, oid)) in FUNCTIONS.iter().enumerate() {
                let seed: [u8; 32] = rng.gen();
                let pk = (set.keypair)(&seed);
                let msg: Vec<u8> = (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect();
                let ctx: Vec<u8> = (0..[0, 1, 255][n % 3]).map(|_| rng.gen()).collect();
                let phm = ph(name, &msg);
                let mprime = [
                    &[1, ctx.len() as u8][..],
                    &ctx,
                    &hex::decode(oid).unwrap(),
                    &phm,
                ];
                let sig = (set.sign_internal)(&seed, &mprime.concat());
                let f = pre_hash(name).unwrap();
                let v = |f: PreHash, phm: &[u8], ctx: &[u8], sig: &[u8]| {
                    verify(set.p, &pk, sig, Message::PreHash { ph: f, phm, ctx })
                };
                assert_eq!(f.output_len(), phm.len(), "{name}");
                assert_eq!(v(f, &phm, &ctx, &sig), Ok(()), "{} {name}", set.name);

                // Another PH(M), function (of the same length), context or signature.
                let mut bad = phm.clone();
                let k = rng.gen_range(0..bad.len());
                bad[k] ^= 1 << rng.gen_range(0..8);
                assert_eq!(v(f, &bad, &ctx, &sig), Err(Error::Rejected));
                for &(other, _) in &FUNCTIONS {
                    let g = pre_hash(other).unwrap();
                    if g != f && g.output_len() == f.output_len() {
                        assert_eq!(v(g, &phm, &ctx, &sig), Err(Error::Rejected), "{other}");
                    }
                }
                assert_eq!(v(f, &phm, b"x", &sig), Err(Error::Rejected));
                let mut bad_sig = sig.clone();
                bad_sig[rng.gen_range(0..set.p.c_tilde_len())] ^= 1;
                assert_eq!(v(f, &phm, &ctx, &bad_sig), Err(Error::Rejected));
                // Not a pure ML-DSA signature of PH(M), nor the reverse (domain separation).
                let pure = Message::Pure {
                    msg: &phm,
                    ctx: &ctx,
                };
                assert_eq!(verify(set.p, &pk, &sig, pure), Err(Error::Rejected));
                let pure_sig = (set.sign)(&seed, &phm, &ctx);
                assert_eq!(v(f, &phm, &ctx, &pure_sig), Err(Error::Rejected));
                // Malformed parameters.
                assert_eq!(v(f, &phm[1..], &ctx, &sig), Err(Error::BadParameter));
                assert_eq!(
                    v(f, &[&phm[..], &[0]].concat(), &ctx, &sig),
                    Err(Error::BadParameter)
                );
                assert_eq!(v(f, &phm, &[0; 256], &sig), Err(Error::BadParameter));
            }
        }
    });
}

#[test]
fn differential_fips204_hash_ml_dsa() {
    common::on_each_path(|| {
        let mut rng = StdRng::seed_from_u64(6);
        let functions = [
            ("SHA2-256", fips204::Ph::SHA256),
            ("SHA2-512", fips204::Ph::SHA512),
            ("SHAKE-128", fips204::Ph::SHAKE128),
        ];
        for set in sets() {
            for n in 0..30 {
                let (name, fph) = &functions[n % 3];
                let seed: [u8; 32] = rng.gen();
                let pk = (set.keypair)(&seed);
                let msg: Vec<u8> = (0..rng.gen_range(0..300)).map(|_| rng.gen()).collect();
                let ctx: Vec<u8> = (0..rng.gen_range(0..=255)).map(|_| rng.gen()).collect();
                let mut sig = (set.fips204_hash_sign)(&seed, &msg, &ctx, fph);
                if n % 2 == 1 {
                    let k = rng.gen_range(0..sig.len());
                    sig[k] ^= 1 << rng.gen_range(0..8);
                }
                let phm = ph(name, &msg);
                let m = Message::PreHash {
                    ph: pre_hash(name).unwrap(),
                    phm: &phm,
                    ctx: &ctx,
                };
                let ours = verify(set.p, &pk, &sig, m);
                let theirs = (set.fips204_hash_verify)(&pk, &msg, &ctx, fph, &sig);
                assert_eq!(
                    ours.is_ok(),
                    theirs,
                    "{} {name}, flipped: {}",
                    set.name,
                    n % 2
                );
                assert_eq!(ours.is_ok(), n % 2 == 0, "{} {name}", set.name);
            }
        }
    });
}
