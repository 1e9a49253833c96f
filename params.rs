// SPDX-License-Identifier: GPL-2.0

//! ML-DSA parameter sets (FIPS 204, Section 4, Table 1 and Table 2), as values
//! ([`Params`]) and as types ([`ParamSet`]), and the shapes of the polynomials they size.

/// The modulus q = 2^23 - 2^13 + 1.
pub const Q: i32 = 8380417;
/// Dropped bits of t (d).
pub const D: u32 = 13;
/// Polynomial degree n.
pub const N: usize = 256;

/// A polynomial in R_q, coefficients as i32 (not always reduced: each function says).
pub type Poly = [i32; N];

/// A polynomial with coefficients in [0, q) < 2^23, as 256 little-endian 23-bit fields (8
/// in every 23 bytes), and one spare byte so that every coefficient can be read as a 4-byte
/// word (`poly::coeff`) and every eight from two 16-byte loads (the AVX2 routines).
pub type PackedPoly = [u8; PACKED_POLY_BYTES + 1];

/// The bytes of the 256 fields of a [`PackedPoly`].
pub const PACKED_POLY_BYTES: usize = 23 * N / 8;

/// A row of w1 as w1Encode (Algorithm 28) packs it: 192 bytes for gamma2 = (q - 1) / 88,
/// the first 128 otherwise.
pub type W1Row = [u8; 192];

/// One ML-DSA parameter set; only what verification needs.
#[derive(Debug, PartialEq, Eq)]
pub struct Params {
    /// Rows of A (k).
    pub k: usize,
    /// Columns of A (l).
    pub l: usize,
    /// Non-zero coefficients of the challenge c (tau).
    pub tau: usize,
    /// beta = tau * eta.
    pub beta: i32,
    /// log2(gamma1); gamma1 is the range of z.
    pub gamma1_bits: u32,
    /// Low-order rounding range gamma2.
    pub gamma2: i32,
    /// Maximum number of ones in the hint (omega).
    pub omega: usize,
    /// Collision strength of c~ in bits (lambda).
    pub lambda: usize,
}

/// ML-DSA-44 (NIST security category 2).
pub const ML_DSA_44: Params = Params {
    k: 4,
    l: 4,
    tau: 39,
    beta: 78,
    gamma1_bits: 17,
    gamma2: (Q - 1) / 88,
    omega: 80,
    lambda: 128,
};

/// ML-DSA-65 (NIST security category 3).
pub const ML_DSA_65: Params = Params {
    k: 6,
    l: 5,
    tau: 49,
    beta: 196,
    gamma1_bits: 19,
    gamma2: (Q - 1) / 32,
    omega: 55,
    lambda: 192,
};

/// ML-DSA-87 (NIST security category 5).
pub const ML_DSA_87: Params = Params {
    k: 8,
    l: 7,
    tau: 60,
    beta: 120,
    gamma1_bits: 19,
    gamma2: (Q - 1) / 32,
    omega: 75,
    lambda: 256,
};

impl Params {
    /// Bytes of c~ (lambda / 4).
    pub const fn c_tilde_len(&self) -> usize {
        self.lambda / 4
    }

    /// Bits per packed coefficient of z: 1 + bitlen(gamma1 - 1).
    pub const fn z_bits(&self) -> u32 {
        self.gamma1_bits + 1
    }

    /// Bits per packed coefficient of w1, bitlen((q - 1) / (2 * gamma2) - 1): 6 for gamma2 =
    /// (q - 1) / 88, else 4 ((q - 1) / 32). A comparison, not that division, which would
    /// bring a panic path into the kernel.
    pub const fn w1_bits(&self) -> u32 {
        if self.gamma2 == (Q - 1) / 88 {
            6
        } else {
            4
        }
    }

    /// Public key bytes: rho and k polynomials of 10-bit t1 (Algorithm 22).
    pub const fn pk_len(&self) -> usize {
        32 + self.k * 320
    }

    /// Signature bytes: c~, l packed polynomials z, and the hint (Algorithm 26).
    pub const fn sig_len(&self) -> usize {
        self.c_tilde_len() + self.l * 32 * self.z_bits() as usize + self.omega + self.k
    }
}

/// A parameter set as a type: [`MlDsa44`], [`MlDsa65`] or [`MlDsa87`]. Keys and workspaces
/// are made for one set (`PublicKey<MlDsa65>`), their arrays sized by it, so that using one
/// with another set's is a compile error and nothing maps a set's dimensions to it by hand.
pub trait ParamSet: Copy + 'static {
    /// The set's parameters.
    const P: Params;
    /// k packed polynomials, one per row of A.
    type Rows: PolyVec;
    /// l packed polynomials, one per column of A.
    type Cols: PolyVec;
    /// The lanes of a parked SHAKE128 state: 25 where l = 1 mod 4, whose rows of A take
    /// five entries at once, none for the other sets. Bytes only, so that any bytes are a
    /// valid value (the kernel's workspaces rely on it).
    type Parked: AsMut<[[u8; 8]]> + Default + Send + Sync + Unpin;
}

/// A vector of packed polynomials, `[PackedPoly; M]`.
pub trait PolyVec: AsRef<[PackedPoly]> + AsMut<[PackedPoly]> + Send + Sync + Unpin {
    /// The all-zero vector.
    const ZERO: Self;
}

impl<const M: usize> PolyVec for [PackedPoly; M] {
    const ZERO: Self = [[0; PACKED_POLY_BYTES + 1]; M];
}

/// Defines the marker type `$set` of the parameter set `$p`.
macro_rules! param_set {
    ($set:ident, $p:ident) => {
        #[doc = concat!("The type of [`", stringify!($p), "`].")]
        #[derive(Clone, Copy)]
        pub struct $set;

        impl ParamSet for $set {
            const P: Params = $p;
            type Rows = [PackedPoly; $p.k];
            type Cols = [PackedPoly; $p.l];
            type Parked = [[u8; 8]; if $p.l % 4 == 1 { 25 } else { 0 }];
        }
    };
}

param_set!(MlDsa44, ML_DSA_44);
param_set!(MlDsa65, ML_DSA_65);
param_set!(MlDsa87, ML_DSA_87);
