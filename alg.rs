// SPDX-License-Identifier: GPL-2.0

//! The algorithms `mldsa44`, `mldsa65` and `mldsa87` of the crypto API, as [`SigAlg`]s.
//!
//! The public key is decoded once, by `set_pub_key`, into the tfm (a [`Key`]). A
//! verification works in a [`Scratch`]: the workspace of `mldsa_verify` and a copy of the
//! signature, so that the caller's buffer is read once. The message is streamed into
//! SHAKE256 as the crypto API hands it over (scatterlist pieces on Linux 6.12), and nothing
//! is allocated. [`kernel::crypto::sig`] places the key and the scratch: on Linux 6.12 the
//! scratch is in the akcipher request, later kernels keep one per tfm.

use crate::mldsa_verify::{self, PublicKey, Workspace};
use crate::params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use crate::{init_zeroed, Zeroable};
use core::ffi::CStr;
use kernel::crypto::sig::{Input, SigAlg};
use kernel::prelude::*;

/// The largest signature, of ML-DSA-87.
const MAX_SIG_LEN: usize = ML_DSA_87.sig_len();

/// ML-DSA with `K` rows and `L` columns: ML-DSA-44 (4, 4), ML-DSA-65 (6, 5) or ML-DSA-87
/// (8, 7).
pub(crate) struct MlDsa<const K: usize, const L: usize>;

impl<const K: usize, const L: usize> MlDsa<K, L> {
    /// The parameter set.
    const P: &'static Params = match L {
        4 => &ML_DSA_44,
        5 => &ML_DSA_65,
        _ => &ML_DSA_87,
    };
}

/// A tfm's public key.
pub(crate) struct Key<const K: usize> {
    pk: PublicKey<K>,
    /// Whether `pk` holds a key.
    set: bool,
}

// SAFETY: All fields are `Zeroable` (`derive(Zeroable)` does not take const generics).
unsafe impl<const K: usize> Zeroable for Key<K> {}

/// What one verification works in.
pub(crate) struct Scratch<const L: usize> {
    ws: Workspace<L>,
    /// The signature, read once from the caller.
    sig: [u8; MAX_SIG_LEN],
}

// SAFETY: All fields are `Zeroable`.
unsafe impl<const L: usize> Zeroable for Scratch<L> {}

#[vtable]
impl<const K: usize, const L: usize> SigAlg for MlDsa<K, L> {
    const NAME: &'static CStr = match L {
        4 => c"mldsa44",
        5 => c"mldsa65",
        _ => c"mldsa87",
    };
    const DRIVER_NAME: &'static CStr = match L {
        4 => c"mldsa44-rust",
        5 => c"mldsa65-rust",
        _ => c"mldsa87-rust",
    };
    /// Above the 5000 of Linux 7.x's `crypto/mldsa.c` (drivers `mldsaNN-lib`), so that
    /// `crypto_alloc_sig("mldsa65", 0, 0)` picks this module.
    const PRIORITY: i32 = 5100;
    /// In bytes, as `crypto/mldsa.c` gives it.
    const KEY_SIZE: u32 = Self::P.pk_len() as u32;
    const MAX_SIZE: u32 = Self::P.sig_len() as u32;

    type Key = Key<K>;
    type Scratch = Scratch<L>;

    /// pkDecode (FIPS 204, Algorithm 23), with tr and NTT(t1); on failure `key` holds no
    /// key. The workspace this needs is allocated for the call.
    fn set_pub_key(key: &mut Key<K>, pk: &[u8]) -> Result {
        key.set = false;
        if pk.len() != Self::P.pk_len() {
            return Err(EINVAL);
        }
        let mut ws = KBox::<Workspace<L>>::init(init_zeroed(), GFP_KERNEL)?;
        key.pk.decode(Self::P, &mut ws, pk)?;
        key.set = true;
        Ok(())
    }

    /// ML-DSA.Verify (FIPS 204, Algorithm 3) with an empty context string.
    fn verify(key: &Key<K>, s: &mut Scratch<L>, sig: Input<'_>, msg: Input<'_>) -> Result {
        if !key.set {
            return Err(EINVAL);
        }
        let copy = s.sig.get_mut(..sig.len()).ok_or(EBADMSG)?;
        sig.copy_to(copy)?;
        let h = s.ws.absorb_mu_prefix(&key.pk, &[])?;
        msg.for_each_piece(|piece| h.update(piece))?;
        Ok(mldsa_verify::verify_mu_absorbed(
            Self::P,
            &mut s.ws,
            &key.pk,
            copy,
        )?)
    }
}

/// A key and a scratch together: what the self-test verifies with, through
/// [`SigAlg::set_pub_key`] and [`SigAlg::verify`].
pub(crate) struct State<const K: usize, const L: usize> {
    key: Key<K>,
    scratch: Scratch<L>,
}

// SAFETY: All fields are `Zeroable`.
unsafe impl<const K: usize, const L: usize> Zeroable for State<K, L> {}

impl<const K: usize, const L: usize> State<K, L> {
    /// Sets the key as `set_pub_key` does.
    pub(crate) fn set_key(&mut self, pk: &[u8]) -> Result {
        MlDsa::<K, L>::set_pub_key(&mut self.key, pk)
    }

    /// Verifies `sig` over `msg` as `verify` does.
    pub(crate) fn verify(&mut self, sig: &[u8], msg: &[u8]) -> Result {
        MlDsa::<K, L>::verify(
            &self.key,
            &mut self.scratch,
            Input::from_slice(sig),
            Input::from_slice(msg),
        )
    }
}
