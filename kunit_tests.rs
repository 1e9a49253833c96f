// SPDX-License-Identifier: GPL-2.0

//! KUnit suite `mldsa`: the arithmetic of [`crate::ntt`] against schoolbook references.
//!
//! The 6.12 `kernel::kunit` module only offers `kunit_assert!`/`kunit_assert_eq!` (no
//! `#[kunit_tests]`), so the suite is laid out by hand the way `KUNIT_CASE()` and
//! `kunit_test_suite()` lay it out in C: a zero-terminated array of `kunit_case`, a
//! `kunit_suite`, and a pointer to the suite in the `.kunit_test_suites` section.

use crate::ntt::{self, Poly};
use crate::params::{N, Q};
use core::ffi::CStr;
use core::ptr::addr_of_mut;
use kernel::{bindings, prelude::*};

/// Fails the running KUnit case (and stops it) unless `$cond` holds.
macro_rules! check {
    ($cond:expr) => {
        kernel::kunit_assert!("mldsa", "crypto/mldsa/kunit_tests.rs", 0, $cond)
    };
}

/// xorshift64: a tiny deterministic generator, enough to pick test inputs.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in (-q, q).
    fn coeff(&mut self) -> i32 {
        (self.next() % (2 * Q as u64 - 1)) as i32 - (Q - 1)
    }

    fn poly(&mut self) -> Poly {
        let mut p = [0; N];
        for c in p.iter_mut() {
            *c = self.coeff();
        }
        p
    }
}

/// a * b in Z_q[X]/(X^256 + 1), coefficients in [0, q), computed the schoolbook way.
fn schoolbook_mul(a: &Poly, b: &Poly) -> Poly {
    let mut c = [0; N];
    for (k, ck) in c.iter_mut().enumerate() {
        let mut sum = 0i64;
        for (i, &ai) in a.iter().enumerate() {
            // X^i * X^j with i + j = k, or i + j = k + 256 where X^256 = -1.
            let p = ai as i64 * b[(k + N - i) % N] as i64;
            if i <= k {
                sum += p;
            } else {
                sum -= p;
            }
        }
        *ck = sum.rem_euclid(Q as i64) as i32;
    }
    c
}

/// NTT, pointwise Montgomery product and inverse NTT give the negacyclic product.
extern "C" fn ntt_mul_matches_schoolbook(_test: *mut bindings::kunit) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for round in 0..4 {
        let a = rng.poly();
        let b = rng.poly();
        let want = schoolbook_mul(&a, &b);

        let (mut fa, mut fb) = (a, b);
        ntt::ntt(&mut fa);
        ntt::ntt(&mut fb);
        for (x, &y) in fa.iter_mut().zip(fb.iter()) {
            *x = ntt::mont_mul(*x, y);
        }
        ntt::invntt_tomont(&mut fa);

        for (i, (&got, &want)) in fa.iter().zip(want.iter()).enumerate() {
            let got = ntt::freeze(got);
            if got != want {
                pr_err!("round {round}: coefficient {i}: NTT gives {got}, schoolbook {want}\n");
            }
            check!(got == want);
        }
    }
}

/// `montgomery_reduce`, `reduce32` and `freeze` against plain i64 arithmetic.
extern "C" fn reduce_matches_i64(_test: *mut bindings::kunit) {
    let q = Q as i64;
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..10_000 {
        // |a| < 2^31 * q, the documented input range of montgomery_reduce.
        let a = (rng.next() % (((q as u64) << 32) - 1)) as i64 - ((q << 31) - 1);
        let r = ntt::montgomery_reduce(a) as i64;
        check!(-q < r && r < q);
        // r = a * 2^-32 mod q  <=>  r * 2^32 = a mod q.
        check!(((r << 32) - a).rem_euclid(q) == 0);

        // Any i32 below 2^31 - 2^22 for reduce32, and (-q, 2^31 - 2^22) for freeze.
        let x = (rng.next() % ((1u64 << 32) - (1 << 22))) as i64 - (1 << 31);
        let x = x as i32;
        let r = ntt::reduce32(x);
        check!((-6283009..=6283008).contains(&r));
        check!((r as i64 - x as i64).rem_euclid(q) == 0);
        if x > -Q {
            check!(ntt::freeze(x) as i64 == (x as i64).rem_euclid(q));
        }
    }
    check!(ntt::freeze(-Q + 1) == 1);
    check!(ntt::freeze(0) == 0);
    check!(ntt::freeze(Q) == 0);
}

/// A `KUNIT_CASE()`.
const fn case(
    name: &'static CStr,
    run: extern "C" fn(*mut bindings::kunit),
) -> bindings::kunit_case {
    // SAFETY: `kunit_case` is plain C data for which all-zero bytes are a valid value: null
    // pointers, `None` function pointers and the zero variant of each enum.
    let mut case: bindings::kunit_case = unsafe { core::mem::zeroed() };
    case.run_case = Some(run);
    case.name = name.as_ptr().cast();
    case
}

static mut CASES: [bindings::kunit_case; 3] = [
    case(c"ntt_mul_matches_schoolbook", ntt_mul_matches_schoolbook),
    case(c"reduce_matches_i64", reduce_matches_i64),
    // SAFETY: An all-zero case terminates the array, as `{}` does in C.
    unsafe { core::mem::zeroed() },
];

/// The suite, named like the module.
static mut SUITE: bindings::kunit_suite = {
    // SAFETY: `kunit_suite` is plain C data for which all-zero bytes are a valid value.
    let mut suite: bindings::kunit_suite = unsafe { core::mem::zeroed() };
    let name = b"mldsa";
    let mut i = 0;
    while i < name.len() {
        suite.name[i] = name[i] as _;
        i += 1;
    }
    suite.test_cases = addr_of_mut!(CASES).cast();
    suite
};

/// What `kunit_test_suite()` emits: KUnit runs every suite listed in this section (built-in
/// suites at boot, a module's suites when it is loaded).
#[used]
#[link_section = ".kunit_test_suites"]
static mut SUITE_PTR: *mut bindings::kunit_suite = addr_of_mut!(SUITE);
