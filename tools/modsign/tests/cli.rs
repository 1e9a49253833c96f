//! Round trips through the `mldsa-sign` binary: its outputs are parsed with `x509-cert` and
//! `cms` and their signatures checked with `ml-dsa`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use cms::{
    content_info::{CmsVersion, ContentInfo},
    signed_data::{SignedData, SignerIdentifier, SignerInfo},
};
use const_oid::{
    ObjectIdentifier,
    db::{
        fips204,
        rfc5280::{
            ID_CE_AUTHORITY_KEY_IDENTIFIER, ID_CE_BASIC_CONSTRAINTS, ID_CE_KEY_USAGE,
            ID_CE_SUBJECT_KEY_IDENTIFIER,
        },
        rfc5911::{ID_CONTENT_TYPE, ID_DATA, ID_MESSAGE_DIGEST, ID_SIGNED_DATA},
        rfc5912::ID_SHA_512,
    },
};
use der::{Decode, Encode, asn1::OctetString, flagset::FlagSet};
use ml_dsa::{
    EncodedVerifyingKey, Keypair, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Seed, Signature,
    SigningKey, VerifyingKey, pkcs8::PrivateKeyInfoRef,
};
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};
use x509_cert::{
    Certificate,
    certificate::Version,
    ext::pkix::{
        AuthorityKeyIdentifier, BasicConstraints, KeyUsage, KeyUsages, SubjectKeyIdentifier,
    },
    time::Time,
};

const MAGIC: &[u8] = b"~Module signature appended~\n";

/// `SOURCE_DATE_EPOCH` for every run: 2023-11-14T22:13:20Z.
const EPOCH: u64 = 1_700_000_000;

/// Runs `mldsa-sign` with `args`.
fn mldsa_sign(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mldsa-sign"))
        .args(args)
        .env("SOURCE_DATE_EPOCH", EPOCH.to_string())
        .output()
        .unwrap()
}

/// Runs `mldsa-sign` with `args` and asserts that it succeeds.
fn ok(args: &[&str]) {
    let out = mldsa_sign(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `mldsa-sign` with `args` and asserts that it fails with one line containing `message`.
fn fails(args: &[&str], message: &str) {
    let out = mldsa_sign(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("mldsa-sign: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(message), "{stderr}");
}

/// A new empty directory for the test `name`.
fn tmpdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The path `name` in `dir`, as a string.
fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_owned()
}

/// A seed of 32 bytes `byte`.
fn seed(byte: u8) -> Seed {
    [byte; 32].into()
}

/// Generates `NAME.key` and `NAME.der` in `dir` from `seed(byte)`; returns their paths.
fn keygen(dir: &Path, alg: &str, name: &str, byte: u8) -> (String, String) {
    let (key, cert) = (
        path(dir, &format!("{name}.key")),
        path(dir, &format!("{name}.der")),
    );
    let seed = hex::encode(seed(byte));
    ok(&[
        "keygen", "--alg", alg, "--cn", name, "--key", &key, "--cert", &cert, "--seed", &seed,
    ]);
    (key, cert)
}

/// The arguments to sign `module` into `out`.
fn sign<'a>(key: &'a str, cert: &'a str, module: &'a str, out: &'a str) -> [&'a str; 8] {
    ["sign", "--key", key, "--cert", cert, module, "-o", out]
}

/// The arguments to write the IMA signature of `file` into `out`.
fn ima<'a>(key: &'a str, cert: &'a str, file: &'a str, out: &'a str) -> [&'a str; 8] {
    ["ima", "--key", key, "--cert", cert, file, "-o", out]
}

/// A fake module of `len` bytes.
fn module(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 251) as u8).collect()
}

/// The verifying key in `cert`.
fn verifying_key<P: MlDsaParams>(cert: &Certificate) -> VerifyingKey<P> {
    let spki = cert.tbs_certificate().subject_public_key_info();
    let encoded = spki.subject_public_key.as_bytes().unwrap();
    VerifyingKey::decode(&EncodedVerifyingKey::<P>::try_from(encoded).unwrap())
}

/// Whether `sig` is a pure ML-DSA signature of `msg` with an empty context by `cert`'s key.
fn verifies<P: MlDsaParams>(cert: &Certificate, msg: &[u8], sig: &[u8]) -> bool {
    let sig = Signature::<P>::try_from(sig).unwrap();
    verifying_key::<P>(cert).verify_with_context(msg, &[], &sig)
}

/// Splits a signed module into the module and the PKCS#7 DER, checking the trailer.
fn split_signed(signed: &[u8]) -> (&[u8], &[u8]) {
    let rest = signed.strip_suffix(MAGIC).expect("no magic");
    let (rest, info) = rest.split_at(rest.len() - 12);
    // algo, hash, id_type = PKEY_ID_PKCS7, signer_len, key_id_len, __pad[3].
    assert_eq!(info[..8], [0, 0, 2, 0, 0, 0, 0, 0]);
    let sig_len = u32::from_be_bytes(info[8..].try_into().unwrap()) as usize;
    rest.split_at(rest.len() - sig_len)
}

/// Parses the PKCS#7 message `p7`, checks what is the same in both modes and returns its
/// only SignerInfo.
fn signer_info(p7: &[u8], cert: &Certificate, alg: ObjectIdentifier) -> SignerInfo {
    let content_info = ContentInfo::from_der(p7).unwrap();
    assert_eq!(content_info.content_type, ID_SIGNED_DATA);
    let signed_data: SignedData = content_info.content.decode_as().unwrap();
    assert_eq!(signed_data.version, CmsVersion::V1);
    let digests: Vec<_> = signed_data.digest_algorithms.iter().collect();
    assert_eq!(digests.len(), 1);
    assert_eq!(
        (digests[0].oid, &digests[0].parameters),
        (ID_SHA_512, &None)
    );
    // Detached, no certificates, as sign-file's CMS_DETACHED | CMS_NOCERTS.
    assert_eq!(signed_data.encap_content_info.econtent_type, ID_DATA);
    assert!(signed_data.encap_content_info.econtent.is_none());
    assert!(signed_data.certificates.is_none());
    assert!(signed_data.crls.is_none());
    let infos: Vec<_> = signed_data.signer_infos.0.iter().collect();
    assert_eq!(infos.len(), 1);
    let info = infos[0].clone();
    assert_eq!(info.version, CmsVersion::V1);
    let SignerIdentifier::IssuerAndSerialNumber(sid) = &info.sid else {
        panic!("not issuerAndSerialNumber");
    };
    assert_eq!(&sid.issuer, cert.tbs_certificate().issuer());
    assert_eq!(&sid.serial_number, cert.tbs_certificate().serial_number());
    assert_eq!(
        (info.digest_alg.oid, &info.digest_alg.parameters),
        (ID_SHA_512, &None)
    );
    let sig_alg = &info.signature_algorithm;
    assert_eq!((sig_alg.oid, &sig_alg.parameters), (alg, &None));
    assert!(info.unsigned_attrs.is_none());
    info
}

/// Checks the certificate of `seed(byte)` and the signatures of one parameter set.
fn round_trip<P: MlDsaParams>(name: &str, alg: ObjectIdentifier) {
    let dir = tmpdir(name);
    let (key, cert_path) = keygen(&dir, name, "Kernel module key", 1);
    let pem = path(&dir, "c.pem");
    ok(&[
        "keygen",
        "--alg",
        name,
        "--cn",
        "Kernel module key",
        "--key",
        &path(&dir, "k2"),
        "--cert",
        &path(&dir, "c2"),
        "--pem",
        &pem,
        "--seed",
        &hex::encode(seed(1)),
    ]);

    // The private key: PKCS#8 with the seed form [0] of the private key CHOICE.
    let key_der = fs::read(&key).unwrap();
    let info = PrivateKeyInfoRef::from_der(&key_der).unwrap();
    assert_eq!((info.algorithm.oid, info.algorithm.parameters), (alg, None));
    assert_eq!(
        info.private_key.as_bytes(),
        [&[0x80, 32][..], &seed(1)].concat()
    );

    // The certificate.
    let cert_der = fs::read(&cert_path).unwrap();
    let pem = fs::read(&pem).unwrap();
    let (label, pem_der) = der::pem::decode_vec(&pem).unwrap();
    assert_eq!((label, &pem_der), ("CERTIFICATE", &cert_der));
    let cert = Certificate::from_der(&cert_der).unwrap();
    let tbs = cert.tbs_certificate();
    assert_eq!(tbs.version(), Version::V3);
    assert_eq!(
        (
            cert.signature_algorithm().oid,
            &cert.signature_algorithm().parameters
        ),
        (alg, &None)
    );
    assert_eq!(tbs.signature(), cert.signature_algorithm());
    let spki = tbs.subject_public_key_info();
    assert_eq!(
        (spki.algorithm.oid, &spki.algorithm.parameters),
        (alg, &None)
    );
    let public_key = SigningKey::<P>::from_seed(&seed(1))
        .verifying_key()
        .encode();
    assert_eq!(
        spki.subject_public_key.as_bytes().unwrap(),
        public_key.as_slice()
    );
    assert_eq!(tbs.subject(), tbs.issuer());
    assert_eq!(tbs.subject().to_string(), "CN=Kernel module key");
    assert!(tbs.serial_number().as_bytes().len() >= 8);
    let validity = tbs.validity();
    assert!(matches!(validity.not_before, Time::UtcTime(_)));
    assert!(matches!(validity.not_after, Time::GeneralTime(_)));
    assert_eq!(validity.not_before.to_unix_duration().as_secs(), EPOCH);
    assert_eq!(
        validity.not_after.to_unix_duration().as_secs(),
        EPOCH + 36500 * 86400
    );
    let (critical, basic) = tbs.get_extension::<BasicConstraints>().unwrap().unwrap();
    assert!(critical && !basic.ca && basic.path_len_constraint.is_none());
    let (critical, usage) = tbs.get_extension::<KeyUsage>().unwrap().unwrap();
    assert!(critical && usage.0 == FlagSet::from(KeyUsages::DigitalSignature));
    let (critical, ski) = tbs
        .get_extension::<SubjectKeyIdentifier>()
        .unwrap()
        .unwrap();
    assert!(!critical);
    assert_eq!(ski.0.as_bytes(), Sha1::digest(&public_key).as_slice());
    let ima_key_id = ski.0.as_bytes()[16..].to_vec();
    let (_, aki) = tbs
        .get_extension::<AuthorityKeyIdentifier>()
        .unwrap()
        .unwrap();
    assert_eq!(aki.key_identifier, Some(ski.0));
    let ids: Vec<_> = tbs
        .extensions()
        .unwrap()
        .iter()
        .map(|e| e.extn_id)
        .collect();
    assert_eq!(
        ids,
        [
            ID_CE_BASIC_CONSTRAINTS,
            ID_CE_KEY_USAGE,
            ID_CE_SUBJECT_KEY_IDENTIFIER,
            ID_CE_AUTHORITY_KEY_IDENTIFIER
        ]
    );
    let signature = cert.signature().as_bytes().unwrap();
    assert!(verifies::<P>(&cert, &tbs.to_der().unwrap(), signature));

    // The default: pure ML-DSA over the module, no signed attributes.
    let data = module(10_000);
    let (input, output) = (path(&dir, "m.ko"), path(&dir, "s.ko"));
    fs::write(&input, &data).unwrap();
    ok(&[
        "sign", "--key", &key, "--cert", &cert_path, &input, "-o", &output,
    ]);
    assert_eq!(fs::read(&input).unwrap(), data);
    let signed = fs::read(&output).unwrap();
    let (prefix, p7) = split_signed(&signed);
    assert_eq!(prefix, data);
    let info = signer_info(p7, &cert, alg);
    assert!(info.signed_attrs.is_none());
    assert!(verifies::<P>(&cert, &data, info.signature.as_bytes()));
    assert!(!verifies::<P>(&cert, &data[1..], info.signature.as_bytes()));

    // With --signed-attrs: contentType and messageDigest, signed as a DER SET OF.
    ok(&[
        "sign",
        "--key",
        &key,
        "--cert",
        &cert_path,
        "--signed-attrs",
        &input,
        "-o",
        &output,
    ]);
    let signed = fs::read(&output).unwrap();
    let (prefix, p7) = split_signed(&signed);
    assert_eq!(prefix, data);
    let info = signer_info(p7, &cert, alg);
    let attrs: Vec<_> = info
        .signed_attrs
        .as_ref()
        .unwrap()
        .iter()
        .map(|a| (a.oid, a.values.iter().collect::<Vec<_>>()))
        .collect();
    assert_eq!(attrs.len(), 2);
    assert_eq!((attrs[0].0, attrs[0].1.len()), (ID_CONTENT_TYPE, 1));
    assert_eq!(
        attrs[0].1[0].decode_as::<ObjectIdentifier>().unwrap(),
        ID_DATA
    );
    assert_eq!((attrs[1].0, attrs[1].1.len()), (ID_MESSAGE_DIGEST, 1));
    let digest = attrs[1].1[0].decode_as::<OctetString>().unwrap();
    assert_eq!(digest.as_bytes(), Sha512::digest(&data).as_slice());
    // Signed: the attributes' DER as SET OF; in the message: the same bytes tagged [0].
    let set_of = info.signed_attrs.as_ref().unwrap().to_der().unwrap();
    let implicit = [&[0xa0], &set_of[1..]].concat();
    assert_eq!(set_of[0], 0x31);
    assert!(p7.windows(implicit.len()).any(|w| w == implicit));
    assert!(verifies::<P>(&cert, &set_of, info.signature.as_bytes()));
    assert!(!verifies::<P>(&cert, &data, info.signature.as_bytes()));

    // IMA: type EVM_IMA_XATTR_DIGSIG, version 3, HASH_ALGO_SHA256, the key identifier, the
    // length, and the signature over struct ima_file_id (type, algorithm, digest).
    let value_path = path(&dir, "ima");
    ok(&ima(&key, &cert_path, &input, &value_path));
    let value = fs::read(&value_path).unwrap();
    let (header, signature) = value.split_at(9);
    assert_eq!(header[..3], [3, 3, 4]);
    assert_eq!(header[3..7], ima_key_id);
    let sig_size = u16::from_be_bytes([header[7], header[8]]);
    assert_eq!(usize::from(sig_size), signature.len());
    let file_id = [&[3, 4][..], &Sha256::digest(&data)].concat();
    assert!(verifies::<P>(&cert, &file_id, signature));
    assert!(!verifies::<P>(&cert, &data, signature));
}

#[test]
fn mldsa44() {
    round_trip::<MlDsa44>("mldsa44", fips204::ID_ML_DSA_44);
}

#[test]
fn mldsa65() {
    round_trip::<MlDsa65>("mldsa65", fips204::ID_ML_DSA_65);
}

#[test]
fn mldsa87() {
    round_trip::<MlDsa87>("mldsa87", fips204::ID_ML_DSA_87);
}

#[test]
fn keygen_with_seed_is_deterministic() {
    let dir = tmpdir("deterministic");
    let (key1, cert1) = keygen(&dir, "mldsa65", "a", 5);
    let (key2, cert2) = keygen(&dir, "mldsa65", "b", 5);
    let (key3, cert3) = keygen(&dir, "mldsa65", "c", 6);
    let read = |p: &String| fs::read(p).unwrap();
    assert_eq!(read(&key1), read(&key2));
    assert_ne!(read(&key1), read(&key3));
    let tbs = |p: &String| {
        Certificate::from_der(&read(p))
            .unwrap()
            .tbs_certificate()
            .clone()
    };
    assert_eq!(tbs(&cert1).serial_number(), tbs(&cert2).serial_number());
    assert_ne!(tbs(&cert1).serial_number(), tbs(&cert3).serial_number());
    // Same name too: the same certificate, to the byte.
    let (_, cert4) = keygen(&tmpdir("deterministic2"), "mldsa65", "a", 5);
    assert_eq!(read(&cert1), read(&cert4));
}

#[test]
fn random_keys_differ() {
    let dir = tmpdir("random");
    for name in ["a", "b"] {
        let (key, cert) = (
            path(&dir, &format!("{name}.key")),
            path(&dir, &format!("{name}.der")),
        );
        ok(&[
            "keygen", "--alg", "mldsa44", "--cn", name, "--key", &key, "--cert", &cert,
        ]);
    }
    assert_ne!(
        fs::read(path(&dir, "a.key")).unwrap(),
        fs::read(path(&dir, "b.key")).unwrap()
    );
}

#[test]
fn sign_in_place() {
    let dir = tmpdir("in_place");
    let (key, cert) = keygen(&dir, "mldsa44", "k", 1);
    let (module_path, copy) = (path(&dir, "m.ko"), path(&dir, "copy.ko"));
    fs::write(&module_path, module(5000)).unwrap();
    ok(&[
        "sign",
        "--key",
        &key,
        "--cert",
        &cert,
        &module_path,
        "-o",
        &copy,
    ]);
    ok(&["sign", "--key", &key, "--cert", &cert, &module_path]);
    // Deterministic ML-DSA: the same bytes either way, and no temporary file left.
    assert_eq!(fs::read(&module_path).unwrap(), fs::read(&copy).unwrap());
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["copy.ko", "k.der", "k.key", "m.ko"]);
}

/// An output that is not a regular file (here a FIFO; `/dev/null` alike) is written to, not
/// replaced by a rename.
#[test]
fn output_to_a_fifo_is_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tmpdir("fifo");
    let (key, cert) = keygen(&dir, "mldsa44", "k", 1);
    let (m, copy, fifo) = (
        path(&dir, "m.ko"),
        path(&dir, "copy.ko"),
        path(&dir, "fifo"),
    );
    fs::write(&m, module(3000)).unwrap();
    ok(&sign(&key, &cert, &m, &copy));
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    ok(&sign(&key, &cert, &m, &fifo));
    let kind = fs::metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
    assert_eq!(reader.join().unwrap(), fs::read(&copy).unwrap());
}

#[test]
fn errors() {
    let dir = tmpdir("errors");
    let (key, cert) = keygen(&dir, "mldsa65", "k", 1);
    let (other_key, other_cert) = keygen(&dir, "mldsa65", "other", 2);
    let (key44, _) = keygen(&dir, "mldsa44", "k44", 1);
    let (module_path, out) = (path(&dir, "m.ko"), path(&dir, "out.ko"));
    fs::write(&module_path, module(100)).unwrap();
    fails(
        &sign(&other_key, &cert, &module_path, &out),
        "does not match the private key",
    );
    fails(
        &sign(&key, &other_cert, &module_path, &out),
        "does not match the private key",
    );
    fails(
        &sign(&key44, &cert, &module_path, &out),
        "does not match the private key",
    );
    fails(
        &sign(&key, &cert, &path(&dir, "missing.ko"), &out),
        "missing.ko: No such file",
    );
    fails(
        &sign(&path(&dir, "missing.key"), &cert, &module_path, &out),
        "missing.key: No such file",
    );
    fails(
        &sign(&key, &path(&dir, "missing.der"), &module_path, &out),
        "missing.der: No such file",
    );
    fails(
        &sign(&cert, &cert, &module_path, &out),
        "not a PKCS#8 private key",
    );
    fails(
        &sign(&key, &key, &module_path, &out),
        "not an X.509 certificate",
    );
    // An Ed25519 key (RFC 8410, 10.3).
    let ed25519 = path(&dir, "ed25519.key");
    let ed25519_der = hex::decode(concat!(
        "302e020100300506032b657004220420",
        "d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f44755842"
    ))
    .unwrap();
    fs::write(&ed25519, ed25519_der).unwrap();
    fails(
        &sign(&ed25519, &cert, &module_path, &out),
        "not an ML-DSA private key",
    );
    assert!(!Path::new(&out).exists());
    fails(
        &ima(&other_key, &cert, &module_path, &out),
        "does not match the private key",
    );
    fails(
        &ima(&key, &cert, &path(&dir, "missing"), &out),
        "missing: No such file",
    );
    assert!(!Path::new(&out).exists());

    ok(&sign(&key, &cert, &module_path, &out));
    let signed = fs::read(&out).unwrap();
    fails(
        &sign(&key, &cert, &out, &out),
        "out.ko: module is already signed",
    );
    assert_eq!(fs::read(&out).unwrap(), signed);
}
