// SPDX-License-Identifier: GPL-2.0

//! The arithmetic of [`crate::ntt`] against schoolbook references and plain i64 arithmetic.

use super::*;

check_at!($ "tests/arith.rs", c"tests/arith.rs");

/// a * b in `Z_q[X]/(X^256 + 1)`, coefficients in [0, q), computed the schoolbook way.
pub(super) fn schoolbook_mul(a: &Poly, b: &Poly) -> Poly {
    let mut c = [0; N];
    for (k, ck) in c.iter_mut().enumerate() {
        let mut sum = 0i64;
        for (i, &ai) in a.iter().enumerate() {
            // X^i * X^j with i + j = k, or i + j = k + 256 where X^256 = -1.
            let p = i64::from(ai) * i64::from(b[(k + N - i) % N]);
            if i <= k {
                sum += p;
            } else {
                sum -= p;
            }
        }
        *ck = sum.rem_euclid(i64::from(Q)) as i32;
    }
    c
}

/// NTT, pointwise Montgomery product and inverse NTT give the negacyclic product.
pub(super) fn ntt_mul_matches_schoolbook() {
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
pub(super) fn reduce_matches_i64() {
    let q = i64::from(Q);
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..10_000 {
        // |a| < 2^31 * q, the documented input range of montgomery_reduce.
        let a = (rng.next() % (((q as u64) << 32) - 1)) as i64 - ((q << 31) - 1);
        let r = i64::from(ntt::montgomery_reduce(a));
        check!(-q < r && r < q);
        // r = a * 2^-32 mod q  <=>  r * 2^32 = a mod q.
        check!(((r << 32) - a).rem_euclid(q) == 0);

        // Any i32 below 2^31 - 2^22 for reduce32, and (-q, 2^31 - 2^22) for freeze.
        let x = (rng.next() % ((1u64 << 32) - (1 << 22))) as i64 - (1 << 31);
        let x = x as i32;
        let r = ntt::reduce32(x);
        check!((-6283009..=6283008).contains(&r));
        check!((i64::from(r) - i64::from(x)).rem_euclid(q) == 0);
        if x > -Q {
            check!(i64::from(ntt::freeze(x)) == i64::from(x).rem_euclid(q));
        }
    }
    check!(ntt::freeze(-Q + 1) == 1);
    check!(ntt::freeze(0) == 0);
    check!(ntt::freeze(Q) == 0);
}
