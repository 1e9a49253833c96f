//! IMA file signatures, version 3 (`security/integrity/integrity.h`): the value of a file's
//! `security.ima`, a `struct signature_v2_hdr` and then a pure ML-DSA signature (empty
//! context) over the file's `struct ima_file_id`, which is how Linux 7.2 and later verify a
//! signature by an ML-DSA key (`asymmetric_verify_v3()`).

use anyhow::{Context, Result};
use ml_dsa::{Signature, Signer, pkcs8::PrivateKeyInfoRef};
use sha2::{Digest, Sha256};
use x509_cert::{Certificate, ext::pkix::SubjectKeyIdentifier};

use crate::{Params, signing_key};

/// `EVM_IMA_XATTR_DIGSIG`: the type of a signature among the values of `security.ima`.
const EVM_IMA_XATTR_DIGSIG: u8 = 3;

/// The signature format version whose signed data is `struct ima_file_id`.
const VERSION: u8 = 3;

/// `HASH_ALGO_SHA256` (`include/uapi/linux/hash_info.h`): the algorithm of the file's digest.
const HASH_ALGO_SHA256: u8 = 4;

/// The IMA signature of `file` by `key`, whose certificate `cert` names the key.
///
/// The header is type, version, hash algorithm, the key identifier (big-endian) and the
/// signature's length (big-endian `u16`); `struct ima_file_id` is the type, the hash algorithm
/// and the file's SHA-256 digest, only the 32 bytes of it the digest takes.
pub(crate) fn xattr<P: Params>(
    key: PrivateKeyInfoRef<'_>,
    cert: &Certificate,
    file: &[u8],
) -> Result<Vec<u8>> {
    let sk = signing_key::<P>(key, cert)?;
    let file_id = [
        &[EVM_IMA_XATTR_DIGSIG, HASH_ALGO_SHA256][..],
        &Sha256::digest(file),
    ]
    .concat();
    let signature: Signature<P> = sk.try_sign(&file_id)?;
    let signature = signature.encode();
    let sig_size = u16::try_from(signature.len())?.to_be_bytes();
    let header = [EVM_IMA_XATTR_DIGSIG, VERSION, HASH_ALGO_SHA256];
    Ok([&header[..], &key_id(cert)?, &sig_size, &signature].concat())
}

/// The IMA key identifier of `cert`: the last four bytes of its subjectKeyIdentifier, which
/// the kernel looks up as the asymmetric key `id:` and their hex digits.
fn key_id(cert: &Certificate) -> Result<[u8; 4]> {
    let (_, skid) = cert
        .tbs_certificate()
        .get_extension::<SubjectKeyIdentifier>()?
        .context("the certificate has no subjectKeyIdentifier")?;
    skid.0
        .as_bytes()
        .last_chunk::<4>()
        .copied()
        .context("the subjectKeyIdentifier is shorter than 4 bytes")
}
