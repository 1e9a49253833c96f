//! Independent ML-DSA implementations from crates.io, behind one shape, for the
//! differential tests and the benchmark.
//!
//! pqcrypto-mldsa is built without its `avx2` feature: its AVX2 verifier skips the
//! ||z|| check (pq-crystals/dilithium#113), so only the clean one is an oracle.

use crate::params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};

/// A verifier's accept/reject decision for (pk, msg, ctx, sig).
pub type Verify = fn(&[u8], &[u8], &[u8], &[u8]) -> bool;
/// A deterministic signature of (msg, ctx) under the key from a seed.
pub type Sign = fn(&[u8; 32], &[u8], &[u8]) -> Vec<u8>;
/// HashML-DSA.Sign by `fips204`: (seed, M, ctx, PH) -> sig.
pub type HashSign = fn(&[u8; 32], &[u8], &[u8], &fips204::Ph) -> Vec<u8>;
/// HashML-DSA.Verify by `fips204`: (pk, M, ctx, PH, sig) -> decision.
pub type HashVerify = fn(&[u8], &[u8], &[u8], &fips204::Ph, &[u8]) -> bool;

/// One parameter set with a signer and its peer verifiers.
pub struct Set {
    pub p: &'static Params,
    pub name: &'static str,
    /// Deterministic key pair from a seed: (pk, signing key as its seed).
    pub keypair: fn(&[u8; 32]) -> Vec<u8>,
    /// Deterministic signature of (msg, ctx) under the key from `seed`.
    pub sign: Sign,
    /// Verify_internal and external mu by RustCrypto `ml-dsa`: (pk, M' or mu, sig).
    pub rustcrypto_internal: fn(&[u8], &[u8], &[u8]) -> bool,
    pub rustcrypto_mu: fn(&[u8], &[u8; 64], &[u8]) -> bool,
    /// ML-DSA.Sign_internal by RustCrypto `ml-dsa`, deterministic: (seed, M') -> sig.
    pub sign_internal: fn(&[u8; 32], &[u8]) -> Vec<u8>,
    /// HashML-DSA.Sign and HashML-DSA.Verify by `fips204`, which hashes M itself:
    /// (seed, M, ctx, PH) -> sig and (pk, M, ctx, PH, sig) -> decision.
    pub fips204_hash_sign: HashSign,
    pub fips204_hash_verify: HashVerify,
    pub peers: [(&'static str, Verify); 4],
    /// Peers with SIMD code, for the benchmark only (aws-lc with `--features aws-lc`). They
    /// take an empty context only.
    pub simd_peers: &'static [(&'static str, Verify)],
}

macro_rules! set {
    ($p:expr, $name:literal, $rc:ty, $fips:ident, $pq:ident, $libcrux:ident, $awslc:ident) => {{
        use ml_dsa::{EncodedVerifyingKey, Signature, SigningKey, VerifyingKey};

        fn rc_key(pk: &[u8]) -> Option<VerifyingKey<$rc>> {
            Some(VerifyingKey::decode(
                &EncodedVerifyingKey::<$rc>::try_from(pk).ok()?,
            ))
        }
        fn rc_sig(sig: &[u8]) -> Option<Signature<$rc>> {
            Signature::<$rc>::try_from(sig).ok()
        }
        fn keypair(seed: &[u8; 32]) -> Vec<u8> {
            let sk = SigningKey::<$rc>::from_seed(&(*seed).into());
            sk.expanded_key().verifying_key().encode().to_vec()
        }
        fn sign(seed: &[u8; 32], msg: &[u8], ctx: &[u8]) -> Vec<u8> {
            let sk = SigningKey::<$rc>::from_seed(&(*seed).into());
            sk.expanded_key()
                .sign_deterministic(msg, ctx)
                .unwrap()
                .encode()
                .to_vec()
        }
        fn rustcrypto(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            match (rc_key(pk), rc_sig(sig)) {
                (Some(k), Some(s)) => k.verify_with_context(msg, ctx, &s),
                _ => false,
            }
        }
        fn rustcrypto_internal(pk: &[u8], mprime: &[u8], sig: &[u8]) -> bool {
            match (rc_key(pk), rc_sig(sig)) {
                (Some(k), Some(s)) => k.verify_internal(mprime, &s),
                _ => false,
            }
        }
        fn rustcrypto_mu(pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> bool {
            match (rc_key(pk), rc_sig(sig)) {
                (Some(k), Some(s)) => k.verify_mu(&(*mu).into(), &s),
                _ => false,
            }
        }
        fn fips204(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            use fips204::traits::{SerDes, Verifier};
            let (Ok(pk), Ok(sig)) = (
                pk.try_into(),
                <[u8; fips204::$fips::SIG_LEN]>::try_from(sig),
            ) else {
                return false;
            };
            match fips204::$fips::PublicKey::try_from_bytes(pk) {
                Ok(k) => k.verify(msg, &sig, ctx),
                Err(_) => false,
            }
        }
        fn sign_internal(seed: &[u8; 32], mprime: &[u8]) -> Vec<u8> {
            let sk = SigningKey::<$rc>::from_seed(&(*seed).into());
            sk.expanded_key()
                .sign_internal(&[mprime], &[0; 32].into())
                .encode()
                .to_vec()
        }
        fn fips204_hash_sign(seed: &[u8; 32], msg: &[u8], ctx: &[u8], ph: &fips204::Ph) -> Vec<u8> {
            use fips204::traits::{KeyGen, Signer};
            let (_, sk) = fips204::$fips::KG::keygen_from_seed(seed);
            sk.try_hash_sign_with_seed(&[0; 32], msg, ctx, ph)
                .unwrap()
                .to_vec()
        }
        fn fips204_hash_verify(
            pk: &[u8],
            msg: &[u8],
            ctx: &[u8],
            ph: &fips204::Ph,
            sig: &[u8],
        ) -> bool {
            use fips204::traits::{SerDes, Verifier};
            let (Ok(pk), Ok(sig)) = (
                pk.try_into(),
                <[u8; fips204::$fips::SIG_LEN]>::try_from(sig),
            ) else {
                return false;
            };
            match fips204::$fips::PublicKey::try_from_bytes(pk) {
                Ok(k) => k.hash_verify(msg, &sig, ctx, ph),
                Err(_) => false,
            }
        }
        fn pqclean(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            use pqcrypto_traits::sign::{DetachedSignature, PublicKey};
            let (Ok(pk), Ok(sig)) = (
                pqcrypto_mldsa::$pq::PublicKey::from_bytes(pk),
                pqcrypto_mldsa::$pq::DetachedSignature::from_bytes(sig),
            ) else {
                return false;
            };
            pqcrypto_mldsa::$pq::verify_detached_signature_ctx(&sig, msg, ctx, &pk).is_ok()
        }
        fn libcrux(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            use libcrux_ml_dsa::$libcrux as m;
            let (Ok(pk), Ok(sig)) = (pk.try_into(), sig.try_into()) else {
                return false;
            };
            let pk = libcrux_ml_dsa::MLDSAVerificationKey::new(pk);
            let sig = libcrux_ml_dsa::MLDSASignature::new(sig);
            m::portable::verify(&pk, msg, ctx, &sig).is_ok()
        }
        #[cfg(target_arch = "x86_64")]
        fn libcrux_avx2(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            use libcrux_ml_dsa::$libcrux as m;
            let (Ok(pk), Ok(sig)) = (pk.try_into(), sig.try_into()) else {
                return false;
            };
            let pk = libcrux_ml_dsa::MLDSAVerificationKey::new(pk);
            let sig = libcrux_ml_dsa::MLDSASignature::new(sig);
            m::avx2::verify(&pk, msg, ctx, &sig).is_ok()
        }
        #[cfg(feature = "aws-lc")]
        fn aws_lc(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
            use aws_lc_rs::signature::{$awslc, UnparsedPublicKey};
            assert!(ctx.is_empty(), "aws-lc: empty context only");
            UnparsedPublicKey::new(&$awslc, pk).verify(msg, sig).is_ok()
        }
        Set {
            p: &$p,
            name: $name,
            keypair,
            sign,
            rustcrypto_internal,
            rustcrypto_mu,
            sign_internal,
            fips204_hash_sign,
            fips204_hash_verify,
            peers: [
                ("RustCrypto ml-dsa", rustcrypto),
                ("fips204", fips204),
                ("PQClean clean", pqclean),
                ("libcrux portable", libcrux),
            ],
            simd_peers: &[
                #[cfg(target_arch = "x86_64")]
                ("libcrux AVX2", libcrux_avx2),
                #[cfg(feature = "aws-lc")]
                ("aws-lc", aws_lc),
            ],
        }
    }};
}

/// The three parameter sets.
pub fn sets() -> [Set; 3] {
    [
        set!(
            ML_DSA_44,
            "ML-DSA-44",
            ml_dsa::MlDsa44,
            ml_dsa_44,
            mldsa44,
            ml_dsa_44,
            ML_DSA_44
        ),
        set!(
            ML_DSA_65,
            "ML-DSA-65",
            ml_dsa::MlDsa65,
            ml_dsa_65,
            mldsa65,
            ml_dsa_65,
            ML_DSA_65
        ),
        set!(
            ML_DSA_87,
            "ML-DSA-87",
            ml_dsa::MlDsa87,
            ml_dsa_87,
            mldsa87,
            ml_dsa_87,
            ML_DSA_87
        ),
    ]
}
