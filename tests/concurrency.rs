// SPDX-License-Identifier: GPL-2.0

//! Concurrent verifications on one tfm, from several kthreads.

use super::*;

/// What each concurrent worker checks, and its result.
struct Work {
    tfm: *const Tfm,
    seed: usize,
    wrong: AtomicUsize,
    done: AtomicBool,
}

const ROUNDS: usize = 12;

/// Kthread body: verifies valid and corrupted signatures in turn on the shared tfm, records
/// the number of wrong answers, then waits to be stopped.
///
/// # Safety
///
/// `data` must point to a [`Work`] whose tfm holds a key, both outliving the thread.
unsafe extern "C" fn worker(data: *mut c_void) -> c_int {
    // SAFETY: `data` is a `Work`, and its tfm, that outlive the thread (`kthread_stop` waits
    // for it).
    let w = unsafe { &*data.cast::<Work>() };
    // SAFETY: `w.tfm` is the test's tfm, which outlives the thread as `w` does.
    let tfm = unsafe { &*w.tfm };
    let k = &kat::ML_DSA_65;
    let mut sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL).unwrap();
    for i in 0..ROUNDS {
        sig.copy_from_slice(k.sig);
        let corrupt = (i + w.seed) % 2 == 1;
        if corrupt {
            sig[(i * 97 + w.seed) % 32] ^= 4;
        }
        let want = if corrupt {
            neg(bindings::EKEYREJECTED)
        } else {
            0
        };
        if tfm.verify(&sig, k.msg) != want {
            w.wrong.fetch_add(1, Ordering::Relaxed);
        }
    }
    w.done.store(true, Ordering::Release);
    // SAFETY: Plain kthread API calls from a kthread.
    while !unsafe { bindings::kthread_should_stop() } {
        // SAFETY: A kthread may sleep.
        unsafe { bindings::schedule_timeout_uninterruptible(1) };
    }
    0
}

/// Several kthreads share one tfm, each with its own requests; every answer is right.
pub(super) fn concurrent_requests() {
    let k = &kat::ML_DSA_65;
    let tfm = tfm_with_key!(c"mldsa65", k);
    let works = [0, 1, 2, 3].map(|seed| Work {
        tfm: &tfm,
        seed,
        wrong: AtomicUsize::new(0),
        done: AtomicBool::new(false),
    });
    let mut tasks = [null_mut(); 4];
    for (t, w) in tasks.iter_mut().zip(works.iter()) {
        // SAFETY: `worker` matches the thread function type; `w` outlives the thread, which
        // `kthread_stop` below waits for.
        *t = unsafe {
            bindings::kthread_create_on_node(
                Some(worker),
                core::ptr::from_ref(w).cast_mut().cast(),
                -1,
                c_ptr(c"mldsa-kunit"),
            )
        };
    }
    let started = tasks.iter().all(|&t| from_err_ptr(t).is_ok());
    let tasks = tasks
        .iter()
        .zip(works.iter())
        .filter(|(&t, _)| from_err_ptr(t).is_ok());
    for (&t, _) in tasks.clone() {
        // SAFETY: `t` is a kthread created above and not yet woken.
        unsafe { bindings::wake_up_process(t) };
    }
    let mut stopped = 0;
    for (&t, w) in tasks {
        while !w.done.load(Ordering::Acquire) {
            // SAFETY: Sleeping is allowed in a KUnit case.
            unsafe { bindings::schedule_timeout_uninterruptible(1) };
        }
        // SAFETY: `t` is a running kthread created above, stopped once.
        if unsafe { bindings::kthread_stop(t) } == 0 {
            stopped += 1;
        }
    }
    check!(started && stopped == works.len());
    for w in &works {
        check!(w.wrong.load(Ordering::Relaxed) == 0);
    }
}
