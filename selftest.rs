// SPDX-License-Identifier: GPL-2.0

//! Known-answer self-tests: the CAST that FIPS 140-3 asks of a module that verifies ML-DSA
//! signatures. At module init, before anything is registered, each parameter set must
//! accept its known answer (`kat.h`, decoded by `kat.rs`) and reject a copy of the signature
//! with one bit flipped, through the code of the crypto API algorithms: a [`Key`] set by
//! `SigAlg::set_pub_key`, and `SigAlg::verify` in a scratch of its own, freed cleared
//! ([`sig::verify_without_tfm`]).
//!
//! They run once ([`init()`]): built in, at `subsys_initcall_sync` (from `exports.c`), after
//! the SHA-3 library has chosen its arch code, and as Linux 7.x's `lib/crypto/mldsa.c` runs
//! its FIPS self-test at `subsys_initcall`, before any user of the library calls at a later
//! level; as a module, when it loads. Under `fips=1` a failure
//! panics, as the C's does; otherwise the calls and algorithms stay off. The known answers
//! are init memory, as the C's FIPS test vectors are (`__initconst`), unless the KUnit
//! suites, which read them after boot, are built.

use crate::alg::{AlgSet, Key, MlDsa};
use crate::init_zeroed;
use crate::mldsa_api;
use crate::params::{MlDsa44, MlDsa65, MlDsa87};
use crate::simd;
use core::sync::atomic::{AtomicU8, Ordering};
use kat::Kat;
use kernel::crypto::sig::{self, Input, SigAlg};
use kernel::crypto::{fips_enabled, fips_self_test_failed};
use kernel::prelude::*;

// The known answers of selftest/kat.h, decoded at build time.
pub(crate) mod kat;

pub(crate) use kat::KATS;

/// The values of [`OUTCOME`]: before [`init()`] has run, and after the self-tests passed or
/// failed.
const NOT_RUN: u8 = 0;
const PASSED: u8 = 1;
const FAILED: u8 = 2;

/// The outcome of the self-tests.
static OUTCOME: AtomicU8 = AtomicU8::new(NOT_RUN);

/// Runs the self-tests the first time it is called, after `simd::init` has chosen the code
/// to use, and enables the library calls if they pass; gives their outcome on every call.
/// With `fault` the known answer of ML-DSA-65 is corrupted, so that they fail (the boot
/// parameter of `CONFIG_CRYPTO_MLDSA_SELFTEST_FAULT`). Under `fips=1` a failure panics.
///
/// Initcalls and module inits run one at a time, so two calls never overlap. Kept out of
/// line in `.ref.text`, as C's `__ref`, where the kernel's section checks let it read the
/// known answers in init memory.
///
/// # Safety
///
/// The first call must come before the module's init memory is freed: from the module's
/// init, or built in, from an initcall. Unless the KUnit suites are built, the known
/// answers (`kat.rs`) are in init memory.
#[inline(never)]
#[unsafe(link_section = ".ref.text")]
pub(crate) unsafe fn init(fault: bool) -> Result {
    match OUTCOME.load(Ordering::Acquire) {
        PASSED => return Ok(()),
        FAILED => return Err(ELIBBAD),
        _ => {}
    }
    simd::init();
    let corrupted = Kat {
        msg: b"corrupted",
        ..kat::ML_DSA_65
    };
    let corrupted = [&kat::ML_DSA_44, &corrupted, &kat::ML_DSA_87];
    let r = run(if fault { &corrupted } else { &KATS });
    if let Err(e) = r {
        if fips_enabled() {
            fips_self_test_failed(c"mldsa", e);
        }
        OUTCOME.store(FAILED, Ordering::Release);
        return Err(e);
    }
    mldsa_api::enable();
    OUTCOME.store(PASSED, Ordering::Release);
    pr_info!(
        "self-tests passed for ML-DSA-44, ML-DSA-65 and ML-DSA-87 on: {} ({} code)\n",
        simd::Paths::new().as_str(),
        simd::name()
    );
    Ok(())
}

/// The module's self-tests ([`init()`]), which `exports.c` runs at `subsys_initcall_sync` when
/// the module is built in (`<crypto/internal/mldsa.h>`): 0, or `-ELIBBAD` if they failed. With
/// `fault`, on a corrupted known answer.
///
/// # Safety
///
/// Called from an initcall, as [`init()`] requires.
#[cfg(not(MODULE))]
#[export]
unsafe extern "C" fn mldsa_rust_selftest(fault: bool) -> core::ffi::c_int {
    // SAFETY: The caller is an initcall, which runs before init memory is freed.
    match unsafe { init(fault) } {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

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
    let mut key = KBox::<Key>::init(init_zeroed(), GFP_KERNEL)?;
    let mut bad = KVec::with_capacity(kat.sig.len(), GFP_KERNEL)?;
    bad.extend_from_slice(kat.sig, GFP_KERNEL)?;
    bad[0] ^= 1;
    // As a tfm verifies: each time in a scratch of its own, freed cleared.
    let verify = |key: &Key, sig| {
        let (sig, msg) = (Input::from_slice(sig), Input::from_slice(kat.msg));
        sig::verify_without_tfm::<MlDsa<S>>(key, sig, msg)
    };
    let valid = MlDsa::<S>::set_pub_key(&mut key, kat.pk).and_then(|()| verify(&key, kat.sig));
    let corrupted = verify(&key, &bad);
    if valid.is_ok() && corrupted == Err(EKEYREJECTED) {
        return Ok(());
    }
    let (name, code) = (S::NAME, simd::name());
    pr_err!(
        "{name:?} self-test failed on the {code} code: valid signature: {valid:?}, corrupted: {corrupted:?}\n"
    );
    Err(ELIBBAD)
}
