//! The key pair and its self-signed certificate (RFC 9881), with the extensions of the
//! kernel's `certs/default_x509.genkey`.

use std::time::{Duration, SystemTime};

use anyhow::Result;
use const_oid::db::rfc4519::COMMON_NAME;
use der::{Any, Decode, Encode, SecretDocument, asn1::Utf8StringRef};
use ml_dsa::{Keypair, Seed, Signature, SigningKey, pkcs8::EncodePrivateKey};
use sha2::{Digest, Sha512};
use x509_cert::{
    Certificate,
    attr::AttributeTypeAndValue,
    builder::{self, Builder, CertificateBuilder, Profile},
    certificate::TbsCertificate,
    ext::{
        Extension, ToExtension,
        pkix::{
            AuthorityKeyIdentifier, BasicConstraints, KeyUsage, KeyUsages, SubjectKeyIdentifier,
        },
    },
    name::{Name, RdnSequence},
    serial_number::SerialNumber,
    spki::{SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef},
    time::{Time, Validity},
};

use crate::Params;

/// How long the certificate is valid: 36500 days, as `openssl req -days 36500` in
/// `certs/Makefile`.
const VALIDITY: Duration = Duration::from_secs(36500 * 24 * 60 * 60);

/// Generates the key pair of `seed` and returns its private key as PKCS#8 (the seed form) and
/// a self-signed certificate for `cn`, valid from `now`.
pub(crate) fn keygen<P: Params>(
    seed: &Seed,
    cn: &str,
    now: SystemTime,
) -> Result<(SecretDocument, Certificate)> {
    let sk = SigningKey::<P>::from_seed(seed);
    let spki = SubjectPublicKeyInfoOwned::from_key(&sk.verifying_key())?;
    let serial = serial_number(&spki)?;
    // UTCTime up to 2049, GeneralizedTime after, as RFC 5280 requires.
    let validity = Validity::new(Time::try_from(now)?, Time::try_from(now + VALIDITY)?);
    let builder = CertificateBuilder::new(SelfSigned(common_name(cn)?), serial, validity, spki)?;
    // Pure ML-DSA, deterministic, empty context, over the DER of the TBSCertificate.
    let cert = builder.build::<_, Signature<P>>(&sk)?;
    Ok((sk.to_pkcs8_der()?, cert))
}

/// A positive serial number of 128 bits taken from SHA-512 of the public key: as unpredictable
/// as the key when it is random, reproducible when it comes from `--seed`.
fn serial_number(spki: &SubjectPublicKeyInfoOwned) -> Result<SerialNumber> {
    let digest = Sha512::digest(spki.subject_public_key.raw_bytes());
    Ok(SerialNumber::new(&digest[..16])?)
}

/// The name `CN=cn`, as a UTF8String.
fn common_name(cn: &str) -> Result<Name> {
    let atv = AttributeTypeAndValue {
        oid: COMMON_NAME,
        value: Any::encode_from(&Utf8StringRef::new(cn)?)?,
    };
    let mut rdns = RdnSequence::default();
    rdns.push(vec![atv].try_into()?);
    Ok(Name::from_der(&rdns.to_der()?)?)
}

/// A self-signed end-entity certificate for module signing.
struct SelfSigned(Name);

impl Profile for SelfSigned {
    fn get_issuer(&self, subject: &Name) -> Name {
        subject.clone()
    }

    fn get_subject(&self) -> Name {
        self.0.clone()
    }

    /// basicConstraints (critical, CA:FALSE), keyUsage (critical, digitalSignature),
    /// subjectKeyIdentifier (SHA-1 of the public key) and authorityKeyIdentifier (the same).
    fn build_extensions(
        &self,
        spk: SubjectPublicKeyInfoRef<'_>,
        _issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> builder::Result<Vec<Extension>> {
        let ski = SubjectKeyIdentifier::try_from(spk)?;
        let aki = AuthorityKeyIdentifier {
            key_identifier: Some(ski.0.clone()),
            ..Default::default()
        };
        let ca_false = BasicConstraints {
            ca: false,
            path_len_constraint: None,
        };
        let usage = KeyUsage(KeyUsages::DigitalSignature.into());
        let subject = tbs.subject();
        Ok(vec![
            (true, &ca_false).to_extension(subject, &[])?,
            (true, &usage).to_extension(subject, &[])?,
            (false, &ski).to_extension(subject, &[])?,
            (false, &aki).to_extension(subject, &[])?,
        ])
    }
}
