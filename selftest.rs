// SPDX-License-Identifier: GPL-2.0

//! Known-answer self-tests: the CAST that FIPS 140-3 asks of a module that verifies ML-DSA
//! signatures. At module init, before anything is registered, each parameter set must
//! accept its known answer (`kat.rs`) and reject a copy of the signature with one bit
//! flipped, through the code path of the akcipher `verify`: a [`Key`] set as
//! `set_pub_key` sets it and a [`Request`] context.

use crate::shake::Shake;
use crate::{errno, Key, Request};
use kat::Kat;
use kernel::{bindings, init::zeroed, prelude::*};

// The known answers, in selftest/kat.rs; ML_DSA_65_LONG is for the KUnit suite only.
#[allow(dead_code)]
pub(crate) mod kat;

/// The known answers for ML-DSA-44, ML-DSA-65 and ML-DSA-87.
pub(crate) static KATS: [&Kat; 3] = [&kat::ML_DSA_44, &kat::ML_DSA_65, &kat::ML_DSA_87];

/// Runs the self-tests with `kats` (in the order of [`KATS`]). A failure is logged and
/// gives `ELIBBAD`, as a failed crypto self-test does.
pub(crate) fn run(kats: &[&Kat; 3]) -> Result {
    cast::<4, 4>("ML-DSA-44", kats[0])?;
    cast::<6, 5>("ML-DSA-65", kats[1])?;
    cast::<8, 7>("ML-DSA-87", kats[2])
}

/// The self-test of the set with `K` rows and `L` columns.
fn cast<const K: usize, const L: usize>(name: &str, kat: &Kat) -> Result {
    let mut key = KBox::<Key<K>>::init(zeroed(), GFP_KERNEL)?;
    let mut r = KBox::<Request<L>>::init(zeroed(), GFP_KERNEL)?;
    let n = kat.sig.len().min(r.sig.len());
    r.sig[..n].copy_from_slice(&kat.sig[..n]);
    let msg = |h: &mut Shake| {
        h.update(kat.msg);
        Ok(())
    };
    let valid = key
        .set::<L>(kat.pk)
        .and_then(|()| key.verify(&mut r, kat.sig.len(), msg));
    r.sig[0] ^= 1;
    let corrupted = key.verify(&mut r, kat.sig.len(), msg);
    if valid.is_ok() && corrupted == Err(errno(bindings::EKEYREJECTED)) {
        return Ok(());
    }
    pr_err!("{name} self-test failed: valid signature: {valid:?}, corrupted: {corrupted:?}\n");
    Err(errno(bindings::ELIBBAD))
}
