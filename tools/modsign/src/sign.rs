//! The kernel's appended module signature: a detached PKCS#7 (CMS) SignedData, then
//! `struct module_signature`, then [`MAGIC`].

use anyhow::Result;
use cms::{
    cert::IssuerAndSerialNumber,
    content_info::{CmsVersion, ContentInfo},
    signed_data::{
        EncapsulatedContentInfo, SignedAttributes, SignedData, SignerIdentifier, SignerInfo,
        SignerInfos,
    },
};
use const_oid::{
    ObjectIdentifier,
    db::{
        rfc5911::{ID_CONTENT_TYPE, ID_DATA, ID_MESSAGE_DIGEST, ID_SIGNED_DATA},
        rfc5912::ID_SHA_512,
    },
};
use der::{
    Any, Encode, Tagged,
    asn1::{OctetString, SetOfVec},
};
use ml_dsa::{Signature, Signer, pkcs8::PrivateKeyInfoRef};
use sha2::{Digest, Sha512};
use x509_cert::{Certificate, attr::Attribute, spki::AlgorithmIdentifierOwned};

use crate::{Params, signing_key};

/// `MODULE_SIG_STRING` of `include/linux/module_signature.h`.
pub(crate) const MAGIC: &[u8] = b"~Module signature appended~\n";

/// `PKEY_ID_PKCS7`, the `id_type` of a PKCS#7 module signature.
const PKEY_ID_PKCS7: u8 = 2;

/// Returns `module` followed by the PKCS#7 message `p7`, `struct module_signature` and
/// [`MAGIC`].
pub(crate) fn signed_module(module: &[u8], p7: &[u8]) -> Result<Vec<u8>> {
    let sig_len = u32::try_from(p7.len())?.to_be_bytes();
    // algo, hash, id_type, signer_len, key_id_len and __pad[3]: all zero but id_type.
    let info = [0, 0, PKEY_ID_PKCS7, 0, 0, 0, 0, 0];
    Ok([module, p7, &info, &sig_len, MAGIC].concat())
}

/// Signs `module` with `key` and returns the DER of the PKCS#7 message that `sign-file`
/// appends: SignedData without the content (detached) or certificates, and one SignerInfo
/// naming `cert` by issuer and serial number, with SHA-512 as its digest algorithm.
///
/// The pure ML-DSA signature (empty context) is over the module itself, or with `with_attrs`
/// over the DER SET OF the signed attributes, which hold the SHA-512 digest of the module.
pub(crate) fn pkcs7<P: Params>(
    key: PrivateKeyInfoRef<'_>,
    cert: &Certificate,
    module: &[u8],
    with_attrs: bool,
) -> Result<Vec<u8>> {
    let sk = signing_key::<P>(key, cert)?;
    let tbs = cert.tbs_certificate();
    let signed_attrs = with_attrs.then(|| signed_attributes(module)).transpose()?;
    let signature: Signature<P> = match &signed_attrs {
        Some(attrs) => sk.try_sign(&attrs.to_der()?)?,
        None => sk.try_sign(module)?,
    };
    let sha512 = algorithm(ID_SHA_512);
    let signer_info = SignerInfo {
        // Version 1 goes with issuerAndSerialNumber (RFC 5652, 5.3).
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: sha512.clone(),
        signed_attrs,
        signature_algorithm: algorithm(P::ALGORITHM_IDENTIFIER.oid),
        signature: OctetString::new(signature.encode().as_slice())?,
        unsigned_attrs: None,
    };
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![sha512])?,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: None,
        crls: None,
        signer_infos: SignerInfos(SetOfVec::try_from(vec![signer_info])?),
    };
    let content_info = ContentInfo {
        content_type: ID_SIGNED_DATA,
        content: Any::encode_from(&signed_data)?,
    };
    Ok(content_info.to_der()?)
}

/// An algorithm identifier with absent parameters, as RFC 5754 and RFC 9882 want for SHA-512
/// and ML-DSA.
fn algorithm(oid: ObjectIdentifier) -> AlgorithmIdentifierOwned {
    AlgorithmIdentifierOwned {
        oid,
        parameters: None,
    }
}

/// The signed attributes OpenSSL's CMS writes under `sign-file`'s flags (no signingTime, no
/// S/MIME capabilities): contentType id-data and the SHA-512 messageDigest of `module`.
fn signed_attributes(module: &[u8]) -> Result<SignedAttributes> {
    let digest = OctetString::new(Sha512::digest(module).as_slice())?;
    Ok(SetOfVec::try_from(vec![
        attribute(ID_CONTENT_TYPE, &ID_DATA)?,
        attribute(ID_MESSAGE_DIGEST, &digest)?,
    ])?)
}

/// The attribute `oid` with the single value `value`.
fn attribute(oid: ObjectIdentifier, value: &(impl Tagged + der::EncodeValue)) -> Result<Attribute> {
    Ok(Attribute {
        oid,
        values: SetOfVec::try_from(vec![Any::encode_from(value)?])?,
    })
}
