// SPDX-License-Identifier: GPL-2.0

//! Arithmetic modulo q and the NTT (FIPS 204, Section 7.5).
//!
//! Multiplications use Montgomery reduction with R = 2^32: `montgomery_reduce(a)` returns
//! a * 2^-32 mod q. The zetas carry a factor R, so a butterfly's product comes out in the
//! normal domain. A pointwise product of two NTT-domain polynomials carries an extra 2^-32,
//! which `invntt_tomont` removes together with the 1/256 scaling. Additions are lazy: the
//! bounds in each function's comment show why no i32 overflows.

use crate::params::{Poly, N, Q};

/// q^-1 mod 2^32.
const QINV: i32 = 58728449;

/// Returns a * 2^-32 mod q, in (-q, q), for |a| < 2^31 * q.
pub const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - t as i64 * Q as i64) >> 32) as i32
}

/// Returns a * b * 2^-32 mod q, in (-q, q), for |a * b| < 2^31 * q.
pub const fn mont_mul(a: i32, b: i32) -> i32 {
    montgomery_reduce(a as i64 * b as i64)
}

/// Returns a representative of a mod q in [-6283009, 6283008], for a < 2^31 - 2^22.
pub fn reduce32(a: i32) -> i32 {
    a - ((a + (1 << 22)) >> 23) * Q
}

/// Returns the representative of a mod q in [0, q), for a in (-q, q).
pub fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// Returns the representative of a mod q in [0, q), for a in (-q, 2^31 - 2^22).
pub fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// x * 2^32 mod q, centred, for 0 <= x < q.
const fn to_mont(x: i64) -> i32 {
    let r = (x << 32) % Q as i64;
    (if r > Q as i64 / 2 { r - Q as i64 } else { r }) as i32
}

/// `zetas[i]` = zeta^BitRev8(i) * 2^32 mod q with zeta = 1753 (FIPS 204, Appendix B).
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
/// The 8 layers run in pairs (see [`ntt_layer_pair`]). Each layer grows |a| by less than q:
/// |input| < q gives |output| < 9q.
pub fn ntt(a: &mut Poly) {
    ntt_layer_pair::<128>(a);
    ntt_layer_pair::<32>(a);
    ntt_layer_pair::<8>(a);
    ntt_layer_pair::<2>(a);
}

/// NTT layers LEN and LEN / 2 in one pass: each block of 2 LEN coefficients takes its
/// butterflies of layer LEN and then those of the two blocks of layer LEN / 2 inside it.
fn ntt_layer_pair<const LEN: usize>(a: &mut Poly) {
    let half = LEN / 2;
    for (b, block) in a.chunks_exact_mut(2 * LEN).enumerate() {
        // Layer LEN's block b takes ZETAS[k]; layer LEN / 2's blocks 2b and 2b + 1 take
        // ZETAS[2k] and ZETAS[2k + 1] (the zetas run up from ZETAS[1] as in Algorithm 41).
        let k = N / (2 * LEN) + b;
        for j in 0..half {
            let (a0, a2) = ct_butterfly(block[j], block[j + 2 * half], ZETAS[k]);
            let (a1, a3) = ct_butterfly(block[j + half], block[j + 3 * half], ZETAS[k]);
            (block[j], block[j + half]) = ct_butterfly(a0, a1, ZETAS[2 * k]);
            (block[j + 2 * half], block[j + 3 * half]) = ct_butterfly(a2, a3, ZETAS[2 * k + 1]);
        }
    }
}

/// (a + zeta * b, a - zeta * b), zeta in Montgomery form.
fn ct_butterfly(a: i32, b: i32, zeta: i32) -> (i32, i32) {
    let t = mont_mul(zeta, b);
    (a + t, a - t)
}

/// NTT^-1 (Algorithm 42) times 2^32, in place.
///
/// The layers run in pairs, as in [`ntt`]. |input| < q; sums double per layer, so
/// |a| < 128q before the last layer, whose multiplications also apply the final scaling,
/// and |output| < q.
pub fn invntt_tomont(a: &mut Poly) {
    invntt_layer_pair::<1>(a);
    invntt_layer_pair::<4>(a);
    invntt_layer_pair::<16>(a);
    invntt_layer_pair::<64>(a);
}

/// NTT^-1 layers LEN and 2 LEN in one pass over each block of 4 LEN coefficients.
fn invntt_layer_pair<const LEN: usize>(a: &mut Poly) {
    // 2^64 / 256 mod q: undoes one Montgomery factor and scales by 1/256.
    const F: i32 = to_mont((1 << 24) % Q as i64);
    // The last layer's zeta, times F.
    const ZETA_F: i32 = mont_mul(-ZETAS[1], F);
    for (b, block) in a.chunks_exact_mut(4 * LEN).enumerate() {
        // Layer LEN's blocks 2b and 2b + 1 take -ZETAS[2k - 1] and -ZETAS[2k - 2]; layer
        // 2 LEN's block b takes -ZETAS[k - 1] (the zetas run down from ZETAS[255] as in
        // Algorithm 42).
        let k = N / (2 * LEN) - b;
        for j in 0..LEN {
            let (a0, a1) = gs_butterfly(block[j], block[j + LEN], -ZETAS[2 * k - 1]);
            let (a2, a3) = gs_butterfly(block[j + 2 * LEN], block[j + 3 * LEN], -ZETAS[2 * k - 2]);
            let ((a0, a2), (a1, a3)) = if LEN < N / 4 {
                let zeta = -ZETAS[k - 1];
                (gs_butterfly(a0, a2, zeta), gs_butterfly(a1, a3, zeta))
            } else {
                // The last layer, with the scaling by F folded into its multiplications.
                let scaled = |a: i32, b: i32| (mont_mul(F, a + b), mont_mul(ZETA_F, a - b));
                (scaled(a0, a2), scaled(a1, a3))
            };
            (block[j], block[j + LEN]) = (a0, a1);
            (block[j + 2 * LEN], block[j + 3 * LEN]) = (a2, a3);
        }
    }
}

/// (a + b, zeta * (a - b)), zeta in Montgomery form.
fn gs_butterfly(a: i32, b: i32, zeta: i32) -> (i32, i32) {
    (a + b, mont_mul(zeta, a - b))
}
