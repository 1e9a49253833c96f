//! Host harness for the mldsa kernel module.
//!
//! It compiles the module's own algorithm files, unchanged, with a host SHAKE behind the
//! same seam the kernel binding provides. Everything else here is test and tooling code.
//!
//! Keys and workspaces are typed by their parameter set, so that one set's cannot be used
//! with another's. This verifies:
//!
//! ```
//! use mldsa_host::mldsa_verify::{self, Error, Message, PublicKey, VerifyingKey, Workspace};
//! use mldsa_host::params::MlDsa65;
//! let (mut ws, key) = (Workspace::<MlDsa65>::default(), PublicKey::<MlDsa65>::default());
//! let m = Message::Pure { msg: b"m", ctx: b"" };
//! let v = mldsa_verify::verify(&mut ws, VerifyingKey::Decoded(&key), m, &[]);
//! assert_eq!(v, Err(Error::Malformed));
//! ```
//!
//! and this, with an ML-DSA-44 key, does not compile:
//!
//! ```compile_fail,E0308
//! use mldsa_host::mldsa_verify::{self, Message, PublicKey, VerifyingKey, Workspace};
//! use mldsa_host::params::{MlDsa44, MlDsa65};
//! let (mut ws, key) = (Workspace::<MlDsa65>::default(), PublicKey::<MlDsa44>::default());
//! let key = VerifyingKey::Decoded(&key);
//! let _ = mldsa_verify::verify(&mut ws, key, Message::Pure { msg: b"m", ctx: b"" }, &[]);
//! ```

// The module's kernel-independent files, built as they are: the module's directory is
// this crate's root for them, so their `mod` items find the same files as in the kernel.
#[path = "../../.."]
mod module {
    pub mod arch;
    pub mod keccak;
    pub mod mldsa_verify;
    pub mod ntt;
    pub mod params;
    pub mod poly;
}
pub use module::{arch, keccak, mldsa_verify, ntt, params, poly};

pub mod measure;
pub mod peers;
pub mod shake;
pub mod simd;

pub use mldsa_verify::Message;
use mldsa_verify::{Error, PreHash, PublicKey, VerifyingKey, Workspace};
use params::{MlDsa44, MlDsa65, MlDsa87, ParamSet, Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use std::mem::size_of;

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

/// A decoded public key and a workspace for the set `S`.
struct Slot<S: ParamSet> {
    key: PublicKey<S>,
    ws: Workspace<S>,
}

impl<S: ParamSet> Slot<S> {
    fn new() -> Self {
        Self {
            key: PublicKey::default(),
            ws: Workspace::default(),
        }
    }

    /// Verifies under the key last decoded into this slot.
    fn verify(&mut self, sig: &[u8], m: Message) -> Result<(), Error> {
        mldsa_verify::verify(&mut self.ws, VerifyingKey::Decoded(&self.key), m, sig)
    }

    fn decode_and_verify(&mut self, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
        self.key.decode(&mut self.ws, pk)?;
        self.verify(sig, m)
    }

    /// Verifies under the encoded key `pk`, decoded a row at a time.
    fn verify_encoded(&mut self, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
        mldsa_verify::verify(&mut self.ws, VerifyingKey::Encoded(pk), m, sig)
    }

    /// Bytes of the workspace and of the decoded key.
    const SIZES: (usize, usize) = (size_of::<Workspace<S>>(), size_of::<PublicKey<S>>());
}

/// A decoded key and a workspace per parameter set, for callers that keep them off the
/// stack (as the kernel keeps its workspace in the request context).
pub struct Workspaces {
    s44: Slot<MlDsa44>,
    s65: Slot<MlDsa65>,
    s87: Slot<MlDsa87>,
}

/// Evaluates `$e` with the type `$s` bound to the parameter set whose `Params` is `$p`.
macro_rules! on_set {
    ($p:expr, $s:ident => $e:expr) => {
        match $p {
            p if *p == MlDsa44::P => {
                type $s = MlDsa44;
                $e
            }
            p if *p == MlDsa65::P => {
                type $s = MlDsa65;
                $e
            }
            _ => {
                type $s = MlDsa87;
                $e
            }
        }
    };
}

/// Runs `$e` with `$s` bound to the slot of the set `$p`.
macro_rules! on_slot {
    ($self:expr, $p:expr, $s:ident => $e:expr) => {
        match $p {
            p if *p == MlDsa44::P => {
                let $s = &mut $self.s44;
                $e
            }
            p if *p == MlDsa65::P => {
                let $s = &mut $self.s65;
                $e
            }
            _ => {
                let $s = &mut $self.s87;
                $e
            }
        }
    };
}

impl Workspaces {
    pub fn boxed() -> Box<Self> {
        Box::new(Self {
            s44: Slot::new(),
            s65: Slot::new(),
            s87: Slot::new(),
        })
    }

    /// Verifies under the encoded key `pk` for `p`, as the kernel's crypto API algorithms
    /// do: one verification per key, no decoded key.
    pub fn verify(&mut self, p: &Params, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
        on_slot!(self, p, s => s.verify_encoded(pk, sig, m))
    }

    /// Decodes `pk` as the key for `p`, for [`Workspaces::verify_decoded`].
    pub fn decode(&mut self, p: &Params, pk: &[u8]) -> Result<(), Error> {
        on_slot!(self, p, s => s.key.decode(&mut s.ws, pk))
    }

    /// Verifies under the key last decoded for `p`.
    pub fn verify_decoded(&mut self, p: &Params, sig: &[u8], m: Message) -> Result<(), Error> {
        on_slot!(self, p, s => s.verify(sig, m))
    }

    /// Bytes of the workspace and of the decoded key for `p`.
    pub fn size_of(p: &Params) -> (usize, usize) {
        on_set!(p, S => Slot::<S>::SIZES)
    }
}

/// Verifies with the workspace and the decoded key on the stack, as host callers may, under
/// both forms of the key: decoded first ([`PublicKey`]) and encoded ([`VerifyingKey::Encoded`]).
/// Their result, which must be the same: a difference is a bug, and panics.
pub fn verify(p: &Params, pk: &[u8], sig: &[u8], m: Message) -> Result<(), Error> {
    on_set!(p, S => {
        let mut slot = Slot::<S>::new();
        let encoded = slot.verify_encoded(pk, sig, m);
        let decoded = slot.decode_and_verify(pk, sig, m);
        assert_eq!(encoded, decoded, "the encoded and the decoded key disagree");
        decoded
    })
}

/// mu = H(H(pk, 64) || M', 64) (FIPS 204, Algorithm 8, lines 6 and 7): ML-DSA.Verify_internal
/// over the formatted message M' is verifying against this mu ([`Message::Mu`]).
pub fn internal_mu(pk: &[u8], mprime: &[u8]) -> [u8; 64] {
    let (mut h, mut tr, mut mu) = (shake::Shake::new(), [0; 64], [0; 64]);
    let mut absorbing = h.init256();
    absorbing.update(pk);
    absorbing.squeeze(&mut tr);
    let mut absorbing = h.init256();
    absorbing.update(&tr);
    absorbing.update(mprime);
    absorbing.squeeze(&mut mu);
    mu
}

/// The kernel errno name of a result, as the CLI prints it.
pub fn errno_name(r: Result<(), Error>) -> &'static str {
    match r {
        Ok(()) => "ok",
        Err(Error::Malformed) => "EBADMSG",
        Err(Error::Rejected) => "EKEYREJECTED",
        Err(Error::BadParameter) => "EINVAL",
    }
}
