// SPDX-License-Identifier: GPL-2.0

//! Arithmetic modulo q and the NTT (FIPS 204, Section 7.5).
//!
//! Multiplications use Montgomery reduction with R = 2^32: `montgomery_reduce(a)` returns
//! a * 2^-32 mod q. The zetas carry a factor R, so a butterfly's product comes out in the
//! normal domain. A pointwise product of two NTT-domain polynomials carries an extra 2^-32,
//! which `invntt_tomont` removes together with the 1/256 scaling. Additions are lazy: the
//! bounds in each function's comment show why no i32 overflows.

use crate::params::{N, Q};

/// A polynomial in R_q, coefficients as i32 (not always reduced: see each function).
pub type Poly = [i32; N];

/// q^-1 mod 2^32.
const QINV: i32 = 58728449;

/// Returns a * 2^-32 mod q, in (-q, q), for |a| < 2^31 * q.
pub fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - t as i64 * Q as i64) >> 32) as i32
}

/// Returns a * b * 2^-32 mod q, in (-q, q), for |a * b| < 2^31 * q.
pub fn mont_mul(a: i32, b: i32) -> i32 {
    montgomery_reduce(a as i64 * b as i64)
}

/// Returns a representative of a mod q in [-6283009, 6283008], for a < 2^31 - 2^22.
pub fn reduce32(a: i32) -> i32 {
    a - ((a + (1 << 22)) >> 23) * Q
}

/// Returns the representative of a mod q in [0, q), for a in (-q, 2^31 - 2^22).
pub fn freeze(a: i32) -> i32 {
    let a = reduce32(a);
    a + ((a >> 31) & Q)
}

/// x * 2^32 mod q, centred, for 0 <= x < q.
const fn to_mont(x: i64) -> i32 {
    let r = (x << 32) % Q as i64;
    (if r > Q as i64 / 2 { r - Q as i64 } else { r }) as i32
}

/// zetas[i] = zeta^BitRev8(i) * 2^32 mod q with zeta = 1753 (FIPS 204, Appendix B).
const ZETAS: [i32; N] = {
    let mut z = [0; N];
    let mut i = 0;
    while i < N {
        let mut x = 1i64;
        let mut e = 0;
        while e < (i as u8).reverse_bits() {
            x = x * 1753 % Q as i64;
            e += 1;
        }
        z[i] = to_mont(x);
        i += 1;
    }
    z
};

/// NTT (Algorithm 41), in place, output in bit-reversed order.
///
/// Each of the 8 layers grows |a| by less than q: |input| < q gives |output| < 9q.
pub fn ntt(a: &mut Poly) {
    let mut k = 0;
    let mut len = N / 2;
    while len > 0 {
        for block in a.chunks_exact_mut(2 * len) {
            k += 1;
            let zeta = ZETAS[k];
            let (lo, hi) = block.split_at_mut(len);
            for j in 0..len {
                let t = mont_mul(zeta, hi[j]);
                hi[j] = lo[j] - t;
                lo[j] += t;
            }
        }
        len /= 2;
    }
}

/// NTT^-1 (Algorithm 42) times 2^32, in place.
///
/// |input| < q; sums double per layer, so |a| < 256q < 2^31 before the final
/// multiplication, and |output| < q.
pub fn invntt_tomont(a: &mut Poly) {
    // 2^64 / 256 mod q: undoes one Montgomery factor and scales by 1/256.
    const F: i32 = to_mont((1 << 24) % Q as i64);
    let mut k = N;
    let mut len = 1;
    while len < N {
        for block in a.chunks_exact_mut(2 * len) {
            k -= 1;
            let zeta = -ZETAS[k];
            let (lo, hi) = block.split_at_mut(len);
            for j in 0..len {
                let t = lo[j];
                lo[j] = t + hi[j];
                hi[j] = mont_mul(zeta, t - hi[j]);
            }
        }
        len *= 2;
    }
    for x in a.iter_mut() {
        *x = mont_mul(F, *x);
    }
}
