// SPDX-License-Identifier: GPL-2.0

//! Known-answer self-tests: the CAST that FIPS 140-3 asks of a module that verifies ML-DSA
//! signatures. At module init, before anything is registered, each parameter set must
//! accept its known answer (`kat.rs`) and reject a copy of the signature with one bit
//! flipped, through the code of the crypto API algorithms: a [`Key`] set by
//! `SigAlg::set_pub_key`, and `SigAlg::verify` in a [`Scratch`] (`alg.rs`).

use crate::alg::{AlgSet, Key, MlDsa, Scratch};
use crate::init_zeroed;
use crate::params::{MlDsa44, MlDsa65, MlDsa87};
use crate::simd;
use kat::Kat;
use kernel::crypto::sig::SigAlg;
use kernel::prelude::*;

// The known answers, in selftest/kat.rs.
pub(crate) mod kat;

/// The known answers for ML-DSA-44, ML-DSA-65 and ML-DSA-87.
pub(crate) static KATS: [&Kat; 3] = [&kat::ML_DSA_44, &kat::ML_DSA_65, &kat::ML_DSA_87];

/// Runs the self-tests with `kats` (in the order of [`KATS`]) on each code path the machine
/// can run (`simd::levels`): the portable code, which runs where the FPU is not usable, and
/// each set of SIMD routines. A failure is logged and gives `ELIBBAD`, as a failed crypto
/// self-test does.
pub(crate) fn run(kats: &[&Kat; 3]) -> Result {
    simd::levels().try_for_each(|l| simd::at_level(l, || run_once(kats)))
}

/// The self-tests on the code the current level allows.
fn run_once(kats: &[&Kat; 3]) -> Result {
    cast::<MlDsa44>(kats[0])?;
    cast::<MlDsa65>(kats[1])?;
    cast::<MlDsa87>(kats[2])
}

/// The self-test of the set `S`.
fn cast<S: AlgSet>(kat: &Kat) -> Result {
    let mut key = KBox::<Key<S>>::init(init_zeroed(), GFP_KERNEL)?;
    let mut scratch = KBox::<Scratch<S>>::init(init_zeroed(), GFP_KERNEL)?;
    let mut bad = KVec::with_capacity(kat.sig.len(), GFP_KERNEL)?;
    bad.extend_from_slice(kat.sig, GFP_KERNEL)?;
    bad[0] ^= 1;
    let valid = MlDsa::<S>::set_pub_key(&mut key, kat.pk)
        .and_then(|()| MlDsa::verify_slices(&key, &mut scratch, kat.sig, kat.msg));
    let corrupted = MlDsa::verify_slices(&key, &mut scratch, &bad, kat.msg);
    if valid.is_ok() && corrupted == Err(EKEYREJECTED) {
        return Ok(());
    }
    let (name, code) = (S::NAME, simd::name());
    pr_err!("{name:?} self-test failed on the {code} code: valid signature: {valid:?}, corrupted: {corrupted:?}\n");
    Err(ELIBBAD)
}
