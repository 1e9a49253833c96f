// SPDX-License-Identifier: GPL-2.0

//! The algorithms `mldsa44`, `mldsa65` and `mldsa87` of the crypto API, as [`SigAlg`]s.
//!
//! The tfm keeps the public key as `set_pub_key` received it (a [`Key`], as the C
//! `crypto/mldsa.c` keeps it), and each verification decodes it a row at a time
//! (`VerifyingKey::Encoded`): a module signature check sets a key and verifies once. A
//! verification works in a [`Scratch`], the workspace of `mldsa_verify`, which reads the
//! caller's signature once; the message is streamed into SHAKE256 as the crypto API hands
//! it over. [`kernel::crypto::sig`] places the key and the scratch: on Linux 6.12 the
//! scratch is in the akcipher request, with a copy of the signature, which arrives in
//! scatterlist pieces; later kernels allocate it for each verification.

use crate::mldsa_verify::{self, VerifyingKey, Workspace};
use crate::params::{MlDsa44, MlDsa65, MlDsa87, ParamSet, ML_DSA_87};
use crate::Zeroable;
use core::ffi::CStr;
use core::marker::PhantomData;
use kernel::crypto::sig::{Input, SigAlg};
use kernel::prelude::*;

/// The largest signature, of ML-DSA-87.
#[cfg(linux_6_12)]
const MAX_SIG_LEN: usize = ML_DSA_87.sig_len();

/// The largest public key, of ML-DSA-87.
const MAX_PK_LEN: usize = ML_DSA_87.pk_len();

/// A parameter set as an algorithm of the crypto API: its names. Its vectors are
/// [`Zeroable`], so that a [`Scratch`] of it is.
pub(crate) trait AlgSet:
    ParamSet<Cols: Zeroable, Parked: Zeroable> + Send + Sync + 'static
{
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

/// A tfm's public key: the encoding pk (FIPS 204, Algorithm 22), and whether it holds one.
#[derive(Zeroable)]
pub(crate) struct Key {
    /// pk in the first `pk_len()` bytes of its set.
    pk: [u8; MAX_PK_LEN],
    set: bool,
}

/// What one verification works in: the workspace, and on Linux 6.12 the signature read
/// once from the request's scatterlist.
pub(crate) struct Scratch<S: AlgSet> {
    ws: Workspace<S>,
    #[cfg(linux_6_12)]
    sig: [u8; MAX_SIG_LEN],
}

// SAFETY: All-zero bytes are a valid `Scratch`: its `Workspace<S>` is `Zeroable` (`S` is an
// `AlgSet`, see `mldsa_main.rs`), and its signature is bytes.
unsafe impl<S: AlgSet> Zeroable for Scratch<S> where Workspace<S>: Zeroable {}

// On Linux 7.x each verification allocates its scratch (`kvmalloc()`): two pages at most,
// so that no allocation of a module signature check is above order 1.
#[cfg(not(linux_6_12))]
const _: () = assert!(size_of::<Scratch<MlDsa87>>() <= 2 * kernel::page::PAGE_SIZE);

impl<S: AlgSet> SigAlg for MlDsa<S> {
    const NAME: &'static CStr = S::NAME;
    const DRIVER_NAME: &'static CStr = S::DRIVER_NAME;
    /// Above the 5000 of Linux 7.x's `crypto/mldsa.c` (drivers `mldsaNN-lib`), so that
    /// `crypto_alloc_sig("mldsa65", 0, 0)` picks this module.
    const PRIORITY: i32 = 5100;
    /// In bytes, as `crypto/mldsa.c` gives it.
    const KEY_SIZE: u32 = S::P.pk_len() as u32;
    const MAX_SIZE: u32 = S::P.sig_len() as u32;

    type Key = Key;
    type Scratch = Scratch<S>;

    /// Keeps pk, which pkDecode (FIPS 204, Algorithm 23) accepts at its length; on failure
    /// `key` holds no key.
    fn set_pub_key(key: &mut Key, bytes: &[u8]) -> Result {
        key.set = bytes.len() == S::P.pk_len();
        if !key.set {
            return Err(EINVAL);
        }
        key.pk[..bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// ML-DSA.Verify (FIPS 204, Algorithm 3) with an empty context string.
    fn verify(key: &Key, scratch: &mut Scratch<S>, sig: Input<'_>, msg: Input<'_>) -> Result {
        if !key.set {
            return Err(EINVAL);
        }
        let pk = VerifyingKey::Encoded(&key.pk[..S::P.pk_len()]);
        #[cfg(linux_6_12)]
        let sig = {
            let copy = scratch.sig.get_mut(..sig.len()).ok_or(EBADMSG)?;
            sig.copy_to(copy)?;
            &*copy
        };
        #[cfg(not(linux_6_12))]
        let sig = sig.as_slice();
        mldsa_verify::verify_pieces(&mut scratch.ws, pk, &[], sig, |h| {
            msg.for_each_piece(|piece| h.update(piece))
        })
    }
}
