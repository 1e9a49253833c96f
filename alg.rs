// SPDX-License-Identifier: GPL-2.0

//! The algorithms `mldsa44`, `mldsa65` and `mldsa87` of the crypto API, as [`SigAlg`]s.
//!
//! The public key is decoded once, by `set_pub_key`, into the tfm (a [`Key`]). A
//! verification works in a [`Scratch`]: the workspace of `mldsa_verify` and a copy of the
//! signature, so that the caller's buffer is read once. The message is streamed into
//! SHAKE256 as the crypto API hands it over (scatterlist pieces on Linux 6.12), and nothing
//! is allocated. [`kernel::crypto::sig`] places the key and the scratch: on Linux 6.12 the
//! scratch is in the akcipher request, later kernels keep one per tfm.

use crate::mldsa_verify::{self, PublicKey, VerifyingKey, Workspace};
use crate::params::{MlDsa44, MlDsa65, MlDsa87, ParamSet, ML_DSA_87};
use crate::{init_zeroed, Zeroable};
use core::ffi::CStr;
use core::marker::PhantomData;
use kernel::crypto::sig::{Input, SigAlg};
use kernel::prelude::*;

/// The largest signature, of ML-DSA-87.
const MAX_SIG_LEN: usize = ML_DSA_87.sig_len();

/// A parameter set as an algorithm of the crypto API: its names.
pub(crate) trait AlgSet: ParamSet + Send + Sync + 'static {
    /// The algorithm name, as Linux 7.x's `crypto/mldsa.c` registers it.
    const NAME: &'static CStr;
    /// This module's driver name.
    const DRIVER_NAME: &'static CStr;
}

impl AlgSet for MlDsa44 {
    const NAME: &'static CStr = c"mldsa44";
    const DRIVER_NAME: &'static CStr = c"mldsa44-rust";
}

impl AlgSet for MlDsa65 {
    const NAME: &'static CStr = c"mldsa65";
    const DRIVER_NAME: &'static CStr = c"mldsa65-rust";
}

impl AlgSet for MlDsa87 {
    const NAME: &'static CStr = c"mldsa87";
    const DRIVER_NAME: &'static CStr = c"mldsa87-rust";
}

/// ML-DSA of the parameter set `S`.
pub(crate) struct MlDsa<S>(PhantomData<S>);

/// A tfm's public key, and whether it holds one.
pub(crate) struct Key<S: ParamSet> {
    pk: PublicKey<S>,
    set: bool,
}

// SAFETY: A `Key` is made of byte arrays and a `bool`, for which all-zero bytes are valid
// (no key set). (`#[derive(Zeroable)]` would also ask it of `S`, a marker type.)
unsafe impl<S: ParamSet> Zeroable for Key<S> {}

/// What one verification works in: the workspace, and the signature read once from the
/// caller.
pub(crate) struct Scratch<S: ParamSet> {
    ws: Workspace<S>,
    sig: [u8; MAX_SIG_LEN],
}

// SAFETY: A `Scratch` is made of integers only (the `Workspace` is, see `mldsa_main.rs`).
unsafe impl<S: ParamSet> Zeroable for Scratch<S> {}

#[vtable]
impl<S: AlgSet> SigAlg for MlDsa<S> {
    const NAME: &'static CStr = S::NAME;
    const DRIVER_NAME: &'static CStr = S::DRIVER_NAME;
    /// Above the 5000 of Linux 7.x's `crypto/mldsa.c` (drivers `mldsaNN-lib`), so that
    /// `crypto_alloc_sig("mldsa65", 0, 0)` picks this module.
    const PRIORITY: i32 = 5100;
    /// In bytes, as `crypto/mldsa.c` gives it.
    const KEY_SIZE: u32 = S::P.pk_len() as u32;
    const MAX_SIZE: u32 = S::P.sig_len() as u32;

    type Key = Key<S>;
    type Scratch = Scratch<S>;

    /// pkDecode (FIPS 204, Algorithm 23), with tr and NTT(t1); on failure `key` holds no
    /// key. The workspace this needs is allocated for the call.
    fn set_pub_key(key: &mut Key<S>, bytes: &[u8]) -> Result {
        key.set = false;
        if bytes.len() != S::P.pk_len() {
            return Err(EINVAL);
        }
        let mut ws = KBox::<Workspace<S>>::init(init_zeroed(), GFP_KERNEL)?;
        key.pk.decode(&mut ws, bytes)?;
        key.set = true;
        Ok(())
    }

    /// ML-DSA.Verify (FIPS 204, Algorithm 3) with an empty context string.
    fn verify(key: &Key<S>, scratch: &mut Scratch<S>, sig: Input<'_>, msg: Input<'_>) -> Result {
        if !key.set {
            return Err(EINVAL);
        }
        let copy = scratch.sig.get_mut(..sig.len()).ok_or(EBADMSG)?;
        sig.copy_to(copy)?;
        let pk = VerifyingKey::Decoded(&key.pk);
        let h = scratch.ws.start_pure(pk, &[])?;
        msg.for_each_piece(|piece| h.update(piece))?;
        Ok(mldsa_verify::verify_absorbed(&mut scratch.ws, pk, copy)?)
    }
}

impl<S: AlgSet> MlDsa<S> {
    /// Verifies `sig` over `msg` as `verify` does, from slices: for the self-tests.
    pub(crate) fn verify_slices(
        key: &Key<S>,
        scratch: &mut Scratch<S>,
        sig: &[u8],
        msg: &[u8],
    ) -> Result {
        Self::verify(key, scratch, Input::from_slice(sig), Input::from_slice(msg))
    }
}
