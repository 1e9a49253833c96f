//! Host harness for the mldsa kernel module.
//!
//! It compiles the module's own algorithm files, unchanged, with a host SHAKE behind the
//! same seam the kernel binding provides. Everything else here is test and tooling code.

pub mod arch;
#[path = "../../../keccak.rs"]
pub mod keccak;
pub mod measure;
#[path = "../../../mldsa_verify.rs"]
pub mod mldsa_verify;
#[path = "../../../ntt.rs"]
pub mod ntt;
#[path = "../../../params.rs"]
pub mod params;
pub mod peers;
pub mod shake;

use mldsa_verify::{Error, PreHash, Workspace};
use params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};

/// What is being signed, in each of the interfaces FIPS 204 defines.
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// ML-DSA.Verify: the message M and a context string.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// ML-DSA.Verify_internal: the formatted message M'.
    Internal(&'a [u8]),
    /// External mu.
    Mu(&'a [u8; 64]),
    /// HashML-DSA.Verify: PH(M), the pre-hash function and a context string.
    PreHash {
        ph: PreHash,
        phm: &'a [u8],
        ctx: &'a [u8],
    },
}

/// The pre-hash function for a FIPS 204 / ACVP name such as "SHA2-512".
pub fn pre_hash(name: &str) -> Option<PreHash> {
    Some(match name {
        "SHA2-256" => PreHash::Sha2_256,
        "SHA2-384" => PreHash::Sha2_384,
        "SHA2-512" => PreHash::Sha2_512,
        "SHA3-256" => PreHash::Sha3_256,
        "SHA3-512" => PreHash::Sha3_512,
        "SHAKE-128" => PreHash::Shake128,
        "SHAKE-256" => PreHash::Shake256,
        _ => return None,
    })
}

/// The parameter set for a FIPS 204 name such as "ML-DSA-65".
pub fn params(alg: &str) -> Option<&'static Params> {
    match alg {
        "ML-DSA-44" => Some(&ML_DSA_44),
        "ML-DSA-65" => Some(&ML_DSA_65),
        "ML-DSA-87" => Some(&ML_DSA_87),
        _ => None,
    }
}

fn verify_with<const L: usize>(
    p: &Params,
    ws: &mut Workspace<L>,
    pk: &[u8],
    sig: &[u8],
    m: Message,
) -> Result<(), Error> {
    match m {
        Message::Pure { msg, ctx } => mldsa_verify::verify(p, ws, pk, msg, ctx, sig),
        Message::Internal(mprime) => mldsa_verify::verify_internal(p, ws, pk, mprime, sig),
        Message::Mu(mu) => mldsa_verify::verify_mu(p, ws, pk, mu, sig),
        Message::PreHash { ph, phm, ctx } => {
            mldsa_verify::verify_prehash(p, ws, pk, ph, phm, ctx, sig)
        }
    }
}

/// One workspace per parameter set, for callers that keep them off the stack (as the
/// kernel keeps its workspace in the request context).
pub struct Workspaces {
    w44: Workspace<4>,
    w65: Workspace<5>,
    w87: Workspace<7>,
}

impl Workspaces {
    pub fn boxed() -> Box<Self> {
        Box::new(Self {
            w44: Workspace::new(),
            w65: Workspace::new(),
            w87: Workspace::new(),
        })
    }

    /// Verifies with the workspace for `p`.
    pub fn verify(&mut self, p: &Params, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
        match p.l {
            4 => verify_with(p, &mut self.w44, pk, sig, m),
            5 => verify_with(p, &mut self.w65, pk, sig, m),
            _ => verify_with(p, &mut self.w87, pk, sig, m),
        }
    }

    /// Bytes of the workspace for `p`.
    pub fn size_of(p: &Params) -> usize {
        match p.l {
            4 => std::mem::size_of::<Workspace<4>>(),
            5 => std::mem::size_of::<Workspace<5>>(),
            _ => std::mem::size_of::<Workspace<7>>(),
        }
    }
}

/// Verifies with a workspace on the stack, as host callers may.
pub fn verify(p: &Params, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
    match p.l {
        4 => verify_with(p, &mut Workspace::<4>::new(), pk, sig, m),
        5 => verify_with(p, &mut Workspace::<5>::new(), pk, sig, m),
        7 => verify_with(p, &mut Workspace::<7>::new(), pk, sig, m),
        _ => Err(Error::Inval),
    }
}

/// The kernel errno name of a result, as the CLI prints it.
pub fn errno_name(r: Result<(), Error>) -> &'static str {
    match r {
        Ok(()) => "ok",
        Err(Error::BadMsg) => "EBADMSG",
        Err(Error::KeyRejected) => "EKEYREJECTED",
        Err(Error::Inval) => "EINVAL",
    }
}
