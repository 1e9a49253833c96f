//! `mldsa-sign`: generate ML-DSA (FIPS 204) module signing keys, sign Linux kernel modules
//! in the appended PKCS#7 format that `scripts/sign-file` produces, and sign files for IMA.

mod ima;
mod keygen;
mod sign;

use std::{
    fs,
    io::Write,
    os::unix::fs::OpenOptionsExt,
    path::{Path, PathBuf},
    time::{Duration, SystemTime},
};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use const_oid::{ObjectIdentifier, db::fips204};
use der::{Decode, Encode, EncodePem, pem::LineEnding};
use ml_dsa::{
    Keypair, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Seed, SigningKey, pkcs8::PrivateKeyInfoRef,
};
use x509_cert::{
    Certificate,
    der::AnyRef,
    spki::{AssociatedAlgorithmIdentifier, SubjectPublicKeyInfoOwned},
};

#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a key pair and a self-signed module signing certificate.
    Keygen {
        /// ML-DSA parameter set.
        #[arg(long)]
        alg: Alg,
        /// Common name (CN) of the certificate's subject and issuer.
        #[arg(long)]
        cn: String,
        /// Output: the private key, PKCS#8 DER holding the 32-byte seed.
        #[arg(long)]
        key: PathBuf,
        /// Output: the certificate, DER.
        #[arg(long)]
        cert: PathBuf,
        /// Output: the certificate, PEM.
        #[arg(long)]
        pem: Option<PathBuf>,
        /// The seed xi as 64 hex digits, for reproducible test keys (random if omitted).
        #[arg(long, value_parser = parse_seed)]
        seed: Option<Seed>,
    },
    /// Append a PKCS#7 ML-DSA signature to a kernel module.
    Sign {
        /// Private key (PKCS#8, DER or PEM).
        #[arg(long)]
        key: PathBuf,
        /// The key's certificate (DER or PEM).
        #[arg(long)]
        cert: PathBuf,
        /// Sign the CMS signed attributes (contentType, messageDigest) instead of the module.
        #[arg(long)]
        signed_attrs: bool,
        /// The module to sign.
        module: PathBuf,
        /// Output module (the input is replaced if omitted).
        #[arg(short)]
        output: Option<PathBuf>,
    },
    /// Write the IMA signature of a file: the value of its `security.ima` (version 3).
    Ima {
        /// Private key (PKCS#8, DER or PEM).
        #[arg(long)]
        key: PathBuf,
        /// The key's certificate (DER or PEM), which names the key (subjectKeyIdentifier).
        #[arg(long)]
        cert: PathBuf,
        /// The file to sign.
        file: PathBuf,
        /// Output: the signature.
        #[arg(short)]
        output: PathBuf,
    },
}

/// An ML-DSA parameter set.
#[derive(Clone, Copy, ValueEnum)]
enum Alg {
    Mldsa44,
    Mldsa65,
    Mldsa87,
}

impl Alg {
    /// The parameter set whose `id-ml-dsa-*` object identifier is `oid`.
    fn from_oid(oid: ObjectIdentifier) -> Option<Self> {
        match oid {
            fips204::ID_ML_DSA_44 => Some(Self::Mldsa44),
            fips204::ID_ML_DSA_65 => Some(Self::Mldsa65),
            fips204::ID_ML_DSA_87 => Some(Self::Mldsa87),
            _ => None,
        }
    }
}

/// A parameter set of the `ml-dsa` crate together with its X.509 algorithm identifier.
trait Params: MlDsaParams + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>> {}

impl<P: MlDsaParams + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>> Params for P {}

fn main() {
    let result = match Cli::parse().command {
        Command::Keygen {
            alg,
            cn,
            key,
            cert,
            pem,
            seed,
        } => run_keygen(alg, &cn, &key, &cert, pem.as_deref(), seed),
        Command::Sign {
            key,
            cert,
            signed_attrs,
            module,
            output,
        } => run_sign(&key, &cert, signed_attrs, &module, output.as_deref()),
        Command::Ima {
            key,
            cert,
            file,
            output,
        } => run_ima(&key, &cert, &file, &output),
    };
    if let Err(e) = result {
        eprintln!("mldsa-sign: {e:#}");
        std::process::exit(1);
    }
}

/// The `keygen` command.
fn run_keygen(
    alg: Alg,
    cn: &str,
    key: &Path,
    cert: &Path,
    pem: Option<&Path>,
    seed: Option<Seed>,
) -> Result<()> {
    let seed = match seed {
        Some(seed) => seed,
        None => {
            let mut seed = Seed::default();
            getrandom::fill(&mut seed).context("getrandom")?;
            seed
        }
    };
    let generate = match alg {
        Alg::Mldsa44 => keygen::keygen::<MlDsa44>,
        Alg::Mldsa65 => keygen::keygen::<MlDsa65>,
        Alg::Mldsa87 => keygen::keygen::<MlDsa87>,
    };
    let (pkcs8, certificate) = generate(&seed, cn, build_time()?)?;
    write_private(key, pkcs8.as_bytes())?;
    write(cert, &certificate.to_der()?)?;
    if let Some(pem) = pem {
        write(pem, certificate.to_pem(LineEnding::LF)?.as_bytes())?;
    }
    Ok(())
}

/// The `sign` command.
fn run_sign(
    key: &Path,
    cert: &Path,
    signed_attrs: bool,
    module: &Path,
    output: Option<&Path>,
) -> Result<()> {
    let data = fs::read(module).with_context(|| module.display().to_string())?;
    if data.ends_with(sign::MAGIC) {
        bail!("{}: module is already signed", module.display());
    }
    let (key_der, certificate, alg) = read_key(key, cert)?;
    let info = PrivateKeyInfoRef::from_der(&key_der)?;
    let pkcs7 = match alg {
        Alg::Mldsa44 => sign::pkcs7::<MlDsa44>,
        Alg::Mldsa65 => sign::pkcs7::<MlDsa65>,
        Alg::Mldsa87 => sign::pkcs7::<MlDsa87>,
    };
    let p7 = pkcs7(info, &certificate, &data, signed_attrs)
        .with_context(|| format!("{}, {}", key.display(), cert.display()))?;
    write(output.unwrap_or(module), &sign::signed_module(&data, &p7)?)
}

/// The `ima` command.
fn run_ima(key: &Path, cert: &Path, file: &Path, output: &Path) -> Result<()> {
    let data = fs::read(file).with_context(|| file.display().to_string())?;
    let (key_der, certificate, alg) = read_key(key, cert)?;
    let info = PrivateKeyInfoRef::from_der(&key_der)?;
    let xattr = match alg {
        Alg::Mldsa44 => ima::xattr::<MlDsa44>,
        Alg::Mldsa65 => ima::xattr::<MlDsa65>,
        Alg::Mldsa87 => ima::xattr::<MlDsa87>,
    };
    let value = xattr(info, &certificate, &data)
        .with_context(|| format!("{}, {}", key.display(), cert.display()))?;
    write(output, &value)
}

/// Reads the private key `key` (PKCS#8) and its certificate `cert`, each DER or PEM: the key's
/// DER, the certificate and the key's parameter set.
fn read_key(key: &Path, cert: &Path) -> Result<(Vec<u8>, Certificate, Alg)> {
    let key_der = read_der(key)?;
    let info = PrivateKeyInfoRef::from_der(&key_der)
        .with_context(|| format!("{}: not a PKCS#8 private key", key.display()))?;
    let oid = info.algorithm.oid;
    let Some(alg) = Alg::from_oid(oid) else {
        bail!(
            "{}: not an ML-DSA private key (algorithm {oid})",
            key.display()
        );
    };
    let cert_der = read_der(cert)?;
    let certificate = Certificate::from_der(&cert_der)
        .with_context(|| format!("{}: not an X.509 certificate", cert.display()))?;
    Ok((key_der, certificate, alg))
}

/// The signing key of `key`, checked to be the one whose public key `cert` holds.
fn signing_key<P: Params>(key: PrivateKeyInfoRef<'_>, cert: &Certificate) -> Result<SigningKey<P>> {
    let sk = SigningKey::<P>::try_from(key)?;
    let spki = cert.tbs_certificate().subject_public_key_info();
    if *spki != SubjectPublicKeyInfoOwned::from_key(&sk.verifying_key())? {
        bail!("certificate does not match the private key");
    }
    Ok(sk)
}

/// Parses the `--seed` argument: 32 bytes in hex.
fn parse_seed(s: &str) -> Result<Seed> {
    let bytes = hex::decode(s)?;
    Seed::try_from(bytes.as_slice())
        .map_err(|_| anyhow::anyhow!("expected 32 bytes, got {}", bytes.len()))
}

/// The certificate's notBefore: `SOURCE_DATE_EPOCH` if set (reproducible builds), else now.
fn build_time() -> Result<SystemTime> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(s) => {
            let secs = s.parse().context("SOURCE_DATE_EPOCH")?;
            Ok(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        }
        Err(_) => Ok(SystemTime::now()),
    }
}

/// Reads a DER file, or the DER inside a PEM file.
fn read_der(path: &Path) -> Result<Vec<u8>> {
    let data = fs::read(path).with_context(|| path.display().to_string())?;
    if !data.starts_with(b"-----BEGIN ") {
        return Ok(data);
    }
    let (_label, der) =
        der::pem::decode_vec(&data).with_context(|| format!("{}: bad PEM", path.display()))?;
    Ok(der)
}

/// Writes `path` through a temporary file and a rename, so that it is never left half written;
/// a path that is not a regular file (`/dev/null`, a FIFO) is written to, not replaced.
fn write(path: &Path, data: &[u8]) -> Result<()> {
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return fs::write(path, data).with_context(|| path.display().to_string());
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    fs::write(&tmp, data)
        .and_then(|()| fs::rename(&tmp, path))
        .with_context(|| path.display().to_string())
}

/// Creates `path` readable by its owner only and writes the private key `data` to it.
fn write_private(path: &Path, data: &[u8]) -> Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(data))
        .with_context(|| path.display().to_string())
}
