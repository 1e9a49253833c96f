// SPDX-License-Identifier: GPL-2.0

//! Kernel stack of a verification: through the crypto API and through the library calls. Not
//! built with KASAN, whose instrumentation grows the frames (see the list in `suite!`).

use super::*;
use core::ffi::c_void;

check_at!($ "tests/stack.rs", c"tests/stack.rs");

/// Bytes of stack that `f` uses below the caller's stack pointer, as `tests/stack.c`
/// measures them: with interrupts off (an interrupt entry would write its frame on this
/// stack), so `f` must not sleep.
pub(super) fn stack_used<F: FnOnce()>(f: F) -> usize {
    /// Runs the closure that `arg` points to.
    ///
    /// # Safety
    ///
    /// `arg` must point to an `Option<F>`, not otherwise in use while this runs.
    unsafe extern "C" fn call<F: FnOnce()>(arg: *mut c_void) {
        // SAFETY: As the function's safety section requires.
        if let Some(f) = unsafe { &mut *arg.cast::<Option<F>>() }.take() {
            f();
        }
    }
    extern "C" {
        fn mldsa_kunit_stack_used(f: unsafe extern "C" fn(*mut c_void), arg: *mut c_void) -> usize;
    }
    let mut f = Some(f);
    // SAFETY: `call::<F>` gets a pointer to `f`, an `Option<F>` that lives through the call
    // and that nothing else uses meanwhile; the helper calls it once, on this stack.
    unsafe { mldsa_kunit_stack_used(call::<F>, (&raw mut f).cast()) }
}

/// Bytes of kernel stack a verification may use: 1 KiB on x86_64. On s390x every call level
/// has a register save area (the packed stack frame of `-mpacked-stack`), so 1.5 KiB there.
pub(super) const STACK_LIMIT: usize = if cfg!(target_arch = "s390x") {
    1536
} else {
    1024
};

/// A verification through the crypto API uses at most [`STACK_LIMIT`] bytes of kernel stack:
/// the akcipher call, the module's `verify`, the scatterlist walk, SHAKE and Keccak-f included.
#[cfg(linux_6_12)]
pub(super) fn verify_stack_usage() {
    for (name, _, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        let mut used = 0;
        let rc = tfm.with_request(&[k.sig, k.msg], k.sig.len(), k.msg.len(), |req| {
            let mut rc = 0;
            // SAFETY: `req` is a prepared request on `tfm`; its verification never sleeps.
            used = stack_used(|| rc = unsafe { bindings::crypto_akcipher_verify(req) });
            rc
        });
        check!(rc == 0);
        pr_info!(
            "{}: verify used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}

/// A verification of the sig binding uses at most [`STACK_LIMIT`] bytes of kernel stack: the
/// module's `verify`, SHAKE and Keccak-f included. (Measured below the allocation of its
/// scratch, which may sleep, while `stack_used` runs with interrupts off.)
#[cfg(not(linux_6_12))]
pub(super) fn verify_stack_usage() {
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    for (used, (name, _, _)) in [
        sig_stack_used::<MlDsa44>(&kat::ML_DSA_44),
        sig_stack_used::<MlDsa65>(&kat::ML_DSA_65),
        sig_stack_used::<MlDsa87>(&kat::ML_DSA_87),
    ]
    .into_iter()
    .zip(SETS)
    {
        pr_info!(
            "{}: verify used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}

/// Stack bytes of [`SigAlg::verify`] of [`crate::alg::MlDsa`] on `k`, or a failed case.
///
/// [`SigAlg::verify`]: kernel::crypto::sig::SigAlg::verify
#[cfg(not(linux_6_12))]
pub(super) fn sig_stack_used<S: crate::alg::AlgSet>(k: &Kat) -> usize {
    use crate::alg::{Key, MlDsa, Scratch};
    use kernel::crypto::sig::{Input, SigAlg};
    let key = KBox::init(crate::init_zeroed::<Key>(), GFP_KERNEL);
    let scratch = KBox::init(crate::init_zeroed::<Scratch<S>>(), GFP_KERNEL);
    check!(key.is_ok() && scratch.is_ok());
    let (mut key, mut scratch) = (key.unwrap(), scratch.unwrap());
    check!(MlDsa::<S>::set_pub_key(&mut key, k.pk).is_ok());
    let mut rc = Err(EINVAL);
    let (sig, msg) = (Input::from_slice(k.sig), Input::from_slice(k.msg));
    let used = stack_used(|| rc = MlDsa::<S>::verify(&key, &mut scratch, sig, msg));
    check!(rc.is_ok());
    used
}

/// The library interface's `mldsa_verify_noalloc()`, called as C calls it, uses at most
/// [`STACK_LIMIT`] bytes of kernel stack as well; its memory is the caller's.
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
pub(super) fn library_stack_usage() {
    let buf = KBox::<bindings::mldsa_verify_buf>::new_uninit(GFP_KERNEL);
    check!(buf.is_ok());
    let mut buf = buf.unwrap();
    for ((name, _, k), alg) in SETS.into_iter().zip(ALGS) {
        let mut rc = -1;
        // The call does not sleep, as `stack_used` needs.
        let used = stack_used(|| rc = lib_verify_noalloc(&mut buf, alg, k.sig, k.msg, k.pk));
        check!(rc == 0);
        pr_info!(
            "{}: mldsa_verify_noalloc used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}
