// SPDX-License-Identifier: GPL-2.0

//! Portable polynomial code below the protocol: bit packing (FIPS 204, Section 7.1),
//! rounding and hints (Section 7.4), packed NTT-domain polynomials and their products, and
//! the rejection sampling of one SHAKE128 block into a row of A * NTT(z) (Section 7.3). The
//! arch seam (`crate::arch`) runs these where the machine has no faster routine.

use crate::keccak::{self, StateX4, SHAKE128_RATE};
use crate::ntt::{caddq, freeze, mont_mul};
use crate::params::{PackedPoly, Poly, N, PACKED_POLY_BYTES, Q};

/// Decodes 256 little-endian `BITS`-bit fields, eight from every `BITS` bytes (Algorithms
/// 18 and 19), mapping each with `f`.
pub fn bit_unpack<const BITS: usize>(bytes: &[u8], out: &mut Poly, f: impl Fn(i32) -> i32) {
    for (g, out) in out.chunks_exact_mut(8).enumerate() {
        let fields = fields8::<BITS>(bytes[g * BITS..][..BITS].try_into().unwrap());
        out.iter_mut().zip(fields).for_each(|(o, v)| *o = f(v));
    }
}

/// The eight little-endian `BITS`-bit fields of `b`. A field is cut from the 8-byte word at
/// its first byte, or from the last 8 bytes.
fn fields8<const BITS: usize>(b: &[u8; BITS]) -> [i32; 8] {
    // A field's bits lie within the word it is cut from.
    const { assert!(8 <= BITS && BITS <= 24) };
    core::array::from_fn(|k| {
        let at = (k * BITS / 8).min(BITS - 8);
        let word = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
        (word >> (k * BITS - 8 * at)) as i32 & ((1 << BITS) - 1)
    })
}

/// Packs 256 coefficients, each mapped by `f` to [0, 2^`BITS`), as little-endian
/// `BITS`-bit fields, eight into every `BITS` bytes (Algorithm 16).
fn bit_pack<const BITS: usize>(a: &Poly, out: &mut [u8], f: impl Fn(i32) -> i32) {
    // Eight fields fill three u64s.
    const { assert!(BITS <= 24) };
    for (c, b) in a.chunks_exact(8).zip(out.chunks_exact_mut(BITS)) {
        let mut words = [0u64; 3];
        for (j, &x) in c.iter().enumerate() {
            let (at, v) = (j * BITS, f(x) as u64);
            words[at / 64] |= v << (at % 64);
            if at % 64 + BITS > 64 {
                words[at / 64 + 1] |= v >> (64 - at % 64);
            }
        }
        let mut bytes = [0; 24];
        for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        b.copy_from_slice(&bytes[..BITS]);
    }
}

/// w1Encode (Algorithm 28) of HighBits (Algorithm 37) of `w`, coefficients in (-q, q):
/// 256 fields of 4 bits (gamma2 = (q - 1) / 32) or 6 bits into the first 128 or 192 bytes
/// of `out`.
pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    let high_bits = |r| decompose(gamma2, caddq(r)).0;
    if gamma2 == (Q - 1) / 32 {
        bit_pack::<4>(w, out, high_bits)
    } else {
        bit_pack::<6>(w, out, high_bits)
    }
}

/// UseHint (Algorithm 40) for r in [0, q), with Decompose (Algorithm 36) computed
/// without division as in the reference implementation.
pub fn use_hint(gamma2: i32, r: i32, hint: bool) -> i32 {
    let (r1, r0) = decompose(gamma2, r);
    let m = if gamma2 == (Q - 1) / 32 { 16 } else { 44 };
    // (r1 + 1) mod m and (r1 - 1) mod m, without a division.
    let up = if r1 == m - 1 { 0 } else { r1 + 1 };
    let down = if r1 == 0 { m - 1 } else { r1 - 1 };
    match (hint, r0 > 0) {
        (false, _) => r1,
        (true, true) => up,
        (true, false) => down,
    }
}

/// Decompose (Algorithm 36) for r in [0, q): r = r1 * 2 * gamma2 + r0.
pub fn decompose(gamma2: i32, r: i32) -> (i32, i32) {
    let r1 = (r + 127) >> 7;
    let r1 = if gamma2 == (Q - 1) / 32 {
        ((r1 * 1025 + (1 << 21)) >> 22) & 15
    } else {
        let r1 = (r1 * 11275 + (1 << 23)) >> 24;
        r1 ^ (((43 - r1) >> 31) & r1)
    };
    let r0 = r - r1 * 2 * gamma2;
    (r1, r0 - ((((Q - 1) / 2 - r0) >> 31) & Q))
}

/// Packs the coefficients of `a`, reduced to [0, q), into `out` (see [`PackedPoly`]).
pub fn pack(a: &Poly, out: &mut PackedPoly) {
    bit_pack::<23>(a, &mut out[..PACKED_POLY_BYTES], freeze);
    out[PACKED_POLY_BYTES] = 0;
}

/// Coefficient `m` of a packed polynomial, in [0, q), read as a word.
fn coeff(a: &PackedPoly, m: usize) -> i32 {
    let (at, shift) = (23 * m / 8, 23 * m % 8);
    (u32::from_le_bytes(a[at..at + 4].try_into().unwrap()) >> shift) as i32 & 0x7f_ffff
}

/// c = a * b in T_q times 2^-32 (a pointwise Montgomery product), |c| < q.
pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    mul_groups(c, b, |g, _| group(a, g))
}

/// c = c * b in T_q times 2^-32 for any c (|c * b| < 2^31 q), |c| < q after.
pub fn pointwise_in_place(c: &mut Poly, b: &PackedPoly) {
    mul_groups(c, b, |_, c| c)
}

/// c = a * b in T_q times 2^-32, eight coefficients at a time: `a(g, c)` gives those of a
/// from 8 g on, c being c's there.
fn mul_groups(c: &mut Poly, b: &PackedPoly, a: impl Fn(usize, [i32; 8]) -> [i32; 8]) {
    for (g, c) in c.chunks_exact_mut(8).enumerate() {
        let c: &mut [i32; 8] = c.try_into().unwrap();
        let (a, b) = (a(g, *c), group(b, g));
        for (k, c) in c.iter_mut().enumerate() {
            *c = mont_mul(a[k], b[k]);
        }
    }
}

/// Coefficients 8 g to 8 g + 7 of a packed polynomial.
fn group(a: &PackedPoly, g: usize) -> [i32; 8] {
    fields8::<23>(a[23 * g..][..23].try_into().unwrap())
}

/// One SHAKE128 block of RejNTTPoly (Algorithm 30), from state `t` of `st`, multiplied
/// into `w`: each candidate that CoeffFromThreeBytes (Algorithm 14) accepts becomes
/// `A[*m]`, and `w[*m] += A[*m] * zhat[*m]` (Montgomery, each term in (-q, q)), until `*m`
/// = 256. The block's 168 bytes are 7 groups of 24, each three lanes holding eight
/// candidates; this takes the groups from `from` on (an arch routine took those before).
pub fn rej_ntt_mul_acc(
    w: &mut Poly,
    zhat: &PackedPoly,
    st: &StateX4,
    t: usize,
    m: &mut usize,
    from: usize,
) {
    let mut k = *m;
    for g in from..SHAKE128_RATE / 24 {
        let lane = |k| keccak::lane(st, 3 * g + k, t);
        let (x, y, z) = (lane(0), lane(1), lane(2));
        for v in [
            x,
            x >> 24,
            x >> 48 | y << 16,
            y >> 8,
            y >> 32,
            y >> 56 | z << 8,
            z >> 16,
            z >> 40,
        ] {
            let a = (v & 0x7f_ffff) as i32;
            if k < N && a < Q {
                w[k] += mont_mul(a, coeff(zhat, k));
                k += 1;
            }
        }
    }
    *m = k;
}
