//! The arithmetic against direct transcriptions of FIPS 204, and the SHAKE seam against
//! an independent SHAKE.

use mldsa_host::keccak::{self, shake128_start, StateX4, SHAKE128_RATE};
use mldsa_host::ntt::{freeze, invntt_tomont, mont_mul, ntt};
use mldsa_host::params::{Poly, ML_DSA_44, ML_DSA_65, ML_DSA_87};
use mldsa_host::params::{PackedPoly, N, PACKED_POLY_BYTES, Q};
use mldsa_host::poly::{decompose, pack, pointwise, pointwise_in_place, use_hint};
use mldsa_host::shake::Shake;
use rand::{Rng, SeedableRng};

/// Decompose (Algorithm 36), word for word, with r0 = r mod+- 2*gamma2 (Algorithm 35 style).
fn fips_decompose(gamma2: i32, r: i32) -> (i32, i32) {
    let rp = r.rem_euclid(Q);
    let mut r0 = rp.rem_euclid(2 * gamma2);
    if r0 > gamma2 {
        r0 -= 2 * gamma2;
    }
    if rp - r0 == Q - 1 {
        (0, r0 - 1)
    } else {
        ((rp - r0) / (2 * gamma2), r0)
    }
}

/// UseHint (Algorithm 40), word for word.
fn fips_use_hint(gamma2: i32, r: i32, h: bool) -> i32 {
    let m = (Q - 1) / (2 * gamma2);
    let (r1, r0) = fips_decompose(gamma2, r);
    if h && r0 > 0 {
        (r1 + 1).rem_euclid(m)
    } else if h && r0 <= 0 {
        (r1 - 1).rem_euclid(m)
    } else {
        r1
    }
}

#[test]
fn decompose_and_use_hint_for_every_r() {
    for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
        for r in 0..Q {
            assert_eq!(
                decompose(gamma2, r),
                fips_decompose(gamma2, r),
                "gamma2 {gamma2} r {r}"
            );
            for h in [false, true] {
                assert_eq!(
                    use_hint(gamma2, r, h),
                    fips_use_hint(gamma2, r, h),
                    "gamma2 {gamma2} r {r} h {h}"
                );
            }
        }
    }
}

/// The verifier applies a hint by replacing r with UseHint(1, r) * 2 * gamma2, so the
/// HighBits of that must be UseHint(1, r) for every value UseHint can return.
#[test]
fn high_bits_of_each_multiple_of_2_gamma2() {
    for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
        for r1 in 0..(Q - 1) / (2 * gamma2) {
            let r = r1 * 2 * gamma2;
            assert_eq!(decompose(gamma2, r), fips_decompose(gamma2, r));
            assert_eq!(decompose(gamma2, r).0, r1, "gamma2 {gamma2} r1 {r1}");
        }
    }
}

fn schoolbook(a: &Poly, b: &Poly) -> Poly {
    let mut c = [0i64; N];
    for i in 0..N {
        for j in 0..N {
            let t = a[i] as i64 * b[j] as i64 % Q as i64;
            if i + j < N {
                c[i + j] += t;
            } else {
                c[i + j - N] -= t;
            }
        }
    }
    c.map(|x| x.rem_euclid(Q as i64) as i32)
}

#[test]
fn ntt_product_matches_schoolbook() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for round in 0..50 {
        // Inputs anywhere in (-q, q), as the verifier's are; the first round at the edges.
        let mut a: Poly = std::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
        let mut b: Poly = std::array::from_fn(|_| rng.gen_range(-Q + 1..Q));
        if round == 0 {
            a = std::array::from_fn(|i| if i % 2 == 0 { Q - 1 } else { -(Q - 1) });
            b = [Q - 1; N];
        }
        let want = schoolbook(&a, &b);
        ntt(&mut a);
        ntt(&mut b);
        let mut c: Poly = std::array::from_fn(|i| mont_mul(a[i], b[i]));
        invntt_tomont(&mut c);
        assert_eq!(c.map(freeze), want, "round {round}");
    }
}

/// Packing: coefficient k, reduced to [0, q), is the 23 bits from bit 23 k of the packed
/// bytes, little-endian, and the spare byte is zero; the packed pointwise products are the
/// Montgomery products of the coefficients.
#[test]
fn packed_layout_and_pointwise() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    for n in 0..1000 {
        let a: Poly = std::array::from_fn(|k| match n {
            0 => Q - 1,
            1 => k as i32 - 128,
            _ => rng.gen_range(-9 * Q..9 * Q),
        });
        let mut packed: PackedPoly = std::array::from_fn(|_| rng.gen());
        pack(&a, &mut packed);
        assert_eq!(packed[PACKED_POLY_BYTES], 0);
        for (k, &c) in a.iter().enumerate() {
            let field = (0..23).fold(0, |v, i| {
                let bit = 23 * k + i;
                v | i32::from(packed[bit / 8] >> (bit % 8) & 1) << i
            });
            assert_eq!(field, freeze(c), "coefficient {k}");
        }
        let b: Poly = std::array::from_fn(|_| rng.gen_range(0..Q));
        let mut packed_b = [0; PACKED_POLY_BYTES + 1];
        pack(&b, &mut packed_b);
        let mut c = [0; N];
        pointwise(&mut c, &packed, &packed_b);
        for k in 0..N {
            assert_eq!(c[k], mont_mul(freeze(a[k]), b[k]));
        }
        let wide: Poly = std::array::from_fn(|k| match k {
            0 => i32::MIN,
            1 => i32::MAX,
            _ => rng.gen(),
        });
        let mut c = wide;
        pointwise_in_place(&mut c, &packed_b);
        for k in 0..N {
            assert_eq!(c[k], mont_mul(wide[k], b[k]));
        }
    }
}

#[test]
fn shake_seam_matches_sha3_crate() {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    for len in (0..600).step_by(7) {
        let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        for (kind, out_len) in [(128, 500), (256, 300)] {
            let mut h = Shake::new();
            let mut ours = if kind == 128 {
                h.init128()
            } else {
                h.init256()
            };
            // Absorb and squeeze in uneven pieces, as the verifier does.
            let split = len / 3;
            ours.update(&data[..split]);
            ours.update(&data[split..]);
            let mut got = vec![0u8; out_len];
            let (x, y) = got.split_at_mut(out_len / 5);
            ours.squeeze(x).squeeze(y);
            let mut want = vec![0u8; out_len];
            if kind == 128 {
                let mut h = sha3::Shake128::default();
                h.update(&data);
                h.finalize_xof().read(&mut want);
            } else {
                let mut h = sha3::Shake256::default();
                h.update(&data);
                h.finalize_xof().read(&mut want);
            }
            assert_eq!(got, want, "SHAKE{kind} of {len} bytes");
        }
    }
}

#[test]
fn portable_keccak_matches_keccak_crate_in_each_state() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..2000 {
        let mut st: StateX4 = [[0; 32]; 25];
        st.iter_mut().for_each(|row| rng.fill(row));
        let s = rng.gen_range(0..4);
        let lanes = |st: &StateX4, s| core::array::from_fn(|i| keccak::lane(st, i, s));
        let mut want: [u64; 25] = lanes(&st, s);
        ::keccak::f1600(&mut want);
        let before = st;
        keccak::keccak_f1600(&mut st, s);
        assert_eq!(lanes(&st, s), want);
        for other in (0..4).filter(|&o| o != s) {
            assert_eq!(
                lanes(&st, other),
                lanes(&before, other),
                "state {other} changed"
            );
        }
    }
}

#[test]
fn shake128_start_and_squeeze_match_sha3_crate() {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for len in 0..SHAKE128_RATE {
        let input: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let s = len % 4;
        let mut want = vec![0; 2 * SHAKE128_RATE];
        let mut h = sha3::Shake128::default();
        h.update(&input);
        h.finalize_xof().read(&mut want);
        let mut st: StateX4 = [[0xa5; 32]; 25];
        let (seed, nonce) = input.split_at(rng.gen_range(0..=len));
        shake128_start(&mut st, s, seed, nonce);
        let mut got = Vec::new();
        for _ in 0..2 {
            keccak::keccak_f1600(&mut st, s);
            got.extend((0..SHAKE128_RATE).map(|k| *keccak::byte(&mut st, s, k)));
        }
        assert_eq!(got, want, "{len} bytes");
    }
}

#[test]
fn w1_bits_is_bitlen_of_the_largest_w1() {
    for p in [ML_DSA_44, ML_DSA_65, ML_DSA_87] {
        let largest = (Q - 1) / (2 * p.gamma2) - 1;
        assert_eq!(p.w1_bits(), u32::BITS - largest.leading_zeros());
    }
}
