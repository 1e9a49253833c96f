// SPDX-License-Identifier: GPL-2.0

//! ML-DSA signature verification (FIPS 204, Algorithms 3, 5 and 8).
//!
//! No allocation: a public key is decoded once into a [`PublicKey`], and all per-verify
//! state lives in a [`Workspace`]; the caller provides both.
//! A is never stored: four entries of a row of A at a time are sampled and multiplied into
//! row i as they stream out of four SHAKE128s, and NTT(z) is kept packed to 3 bytes a
//! coefficient. w1 is absorbed into the SHAKE256 that produces c~' one row at a time.
//!
//! The NTTs and the Keccak permutations go through `crate::arch`, which runs an arch
//! routine where the machine has one and the portable code otherwise.

use crate::arch;
use crate::keccak::{self, shake128_start, StateX4, SHAKE128_RATE};
use crate::ntt::{caddq, freeze, mont_mul, PackedPoly, Poly};
use crate::params::{ParamSet, Params, PolyVec, D, N, Q};
use crate::shake::Shake;

/// Why a signature was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// Malformed input: a wrong length, ||z|| >= gamma1 - beta or a malformed hint.
    BadMsg,
    /// A well-formed signature that does not verify.
    KeyRejected,
    /// A bad parameter: a context string over 255 bytes, or a PH(M) of the wrong length.
    Inval,
}

/// Everything one verification needs besides the inputs, for the set `S`.
pub struct Workspace<S: ParamSet> {
    /// NTT(z), one packed polynomial per column.
    zhat: S::Cols,
    s: Scratch,
}

/// 32-byte aligned, with `st` first: the vector routines permute `st` a row of 32 bytes at a
/// time, 5 to 10 % faster when no row straddles two cache lines.
#[repr(C, align(32))]
struct Scratch {
    /// ExpandA's four SHAKE128s; before, between and after its rows, mu, a row of
    /// w1Encode(w1) or c~' (see [`mu`]).
    st: StateX4,
    /// NTT(-c * 2^d), packed.
    chat: PackedPoly,
    /// One row of w, from NTT(-c * 2^d) * NTT(t1) to w1.
    w: Poly,
    /// SHAKE256 for tr, mu, SampleInBall and c~'.
    h: Shake,
    /// The SHAKE128 state of a fifth entry of A while the four of `st` run others (see
    /// [`expand_a_mul_acc`]).
    parked: [[u8; 8]; 25],
}

// The states' memory `st` is free outside ExpandA's rows, and Algorithm 8 keeps three
// values in it in turn, each at its start: mu (line 7) until it is absorbed into c~' (line
// 12), after SampleInBall; then each row of w1Encode(w1) while it is absorbed (line 12),
// after that row of ExpandA; and c~' (line 12) at the end. As the C verifier's named union
// does, each has its accessor.

/// mu (Algorithm 8, line 7), in `st`.
fn mu(st: &mut StateX4) -> &mut [u8] {
    &mut st.as_flattened_mut()[..64]
}

/// A row of w1Encode(w1) (Algorithm 28) of `len` bytes (128 or 192), in `st`.
fn w1_row(st: &mut StateX4, len: usize) -> &mut [u8] {
    &mut st.as_flattened_mut()[..len]
}

/// c~' (Algorithm 8, line 12) of `len` bytes (32 to 64), in `st`.
fn c_tilde(st: &mut StateX4, len: usize) -> &mut [u8] {
    &mut st.as_flattened_mut()[..len]
}

impl<S: ParamSet> Default for Workspace<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: ParamSet> Workspace<S> {
    /// A zeroed workspace.
    pub const fn new() -> Self {
        Self {
            zhat: S::Cols::ZERO,
            s: Scratch {
                chat: [0; 3 * N + 1],
                w: [0; N],
                st: [[0; 32]; 25],
                h: Shake::new(),
                parked: [[0; 8]; 25],
            },
        }
    }
}

/// A public key decoded for verification: pkDecode (Algorithm 23) with t1 taken to the NTT
/// domain, and tr = H(pk, 64) (Algorithm 8, line 6), for the set `S`. A caller that
/// verifies many signatures under one key decodes it once.
pub struct PublicKey<S: ParamSet> {
    rho: [u8; 32],
    tr: [u8; 64],
    /// NTT(t1), one packed polynomial per row.
    t1hat: S::Rows,
}

impl<S: ParamSet> Default for PublicKey<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: ParamSet> PublicKey<S> {
    /// A zeroed key, to be set by [`PublicKey::decode`].
    pub const fn new() -> Self {
        Self {
            rho: [0; 32],
            tr: [0; 64],
            t1hat: S::Rows::ZERO,
        }
    }

    /// Decodes `pk`, using `ws` as scratch.
    pub fn decode(&mut self, ws: &mut Workspace<S>, pk: &[u8]) -> Result<(), Error> {
        if pk.len() != S::P.pk_len() {
            return Err(Error::BadMsg);
        }
        let s = &mut ws.s;
        s.h.init256();
        s.h.update(pk);
        s.h.squeeze(&mut self.tr);
        let (rho, t1) = pk.split_at(32);
        self.rho.copy_from_slice(rho);
        for (t1hat, t1) in self.t1hat.as_mut().iter_mut().zip(t1.chunks_exact(320)) {
            bit_unpack::<10>(t1, &mut s.w, |v| v);
            arch::ntt(&mut s.w);
            arch::pack(&s.w, t1hat);
        }
        Ok(())
    }
}

/// Starts mu = H(tr || M', 64) with M' = domain || |ctx| || ctx || ... (Algorithm 3, line 5,
/// domain 0; Algorithm 5, line 18, domain 1; Algorithm 8, line 7): absorbs tr and the
/// first three fields of M'.
fn absorb_mu_prefix(h: &mut Shake, tr: &[u8], domain: u8, ctx: &[u8]) -> Result<(), Error> {
    let ctx_len = u8::try_from(ctx.len()).map_err(|_| Error::Inval)?;
    h.init256();
    h.update(tr);
    h.update(&[domain, ctx_len]);
    h.update(ctx);
    Ok(())
}

/// A pre-hash function of HashML-DSA (FIPS 204, Section 5.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreHash {
    Sha2_256,
    Sha2_384,
    Sha2_512,
    Sha3_256,
    Sha3_512,
    /// SHAKE128 with 256 bits of output.
    Shake128,
    /// SHAKE256 with 512 bits of output.
    Shake256,
}

impl PreHash {
    /// The DER encoding of the function's OID, 2.16.840.1.101.3.4.2.n (NIST hash algorithms).
    fn oid(self) -> [u8; 11] {
        let n = match self {
            PreHash::Sha2_256 => 1,
            PreHash::Sha2_384 => 2,
            PreHash::Sha2_512 => 3,
            PreHash::Sha3_256 => 8,
            PreHash::Sha3_512 => 10,
            PreHash::Shake128 => 11,
            PreHash::Shake256 => 12,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, n,
        ]
    }

    /// Bytes of PH(M).
    pub fn output_len(self) -> usize {
        match self {
            PreHash::Sha2_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }
}

impl<S: ParamSet> Workspace<S> {
    /// Starts mu for ML-DSA.Verify under `key` with a context string, and returns the
    /// SHAKE256 into which the caller absorbs M, in as many pieces as it likes, before
    /// calling [`verify_mu_absorbed`].
    pub fn absorb_mu_prefix(
        &mut self,
        key: &PublicKey<S>,
        ctx: &[u8],
    ) -> Result<&mut Shake, Error> {
        absorb_mu_prefix(&mut self.s.h, &key.tr, 0, ctx)?;
        Ok(&mut self.s.h)
    }
}

/// ML-DSA.Verify (Algorithm 3).
pub fn verify<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    ws.absorb_mu_prefix(key, ctx)?.update(msg);
    verify_mu_absorbed(ws, key, sig)
}

/// HashML-DSA.Verify (Algorithm 5), given `phm` = PH(M) made with `ph`:
/// M' = 1 || |ctx| || ctx || OID(ph) || PH(M). A `phm` of the wrong length is
/// [`Error::Inval`].
pub fn verify_prehash<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    ph: PreHash,
    phm: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    if phm.len() != ph.output_len() {
        return Err(Error::Inval);
    }
    let h = &mut ws.s.h;
    absorb_mu_prefix(h, &key.tr, 1, ctx)?;
    h.update(&ph.oid());
    h.update(phm);
    verify_mu_absorbed(ws, key, sig)
}

/// ML-DSA.Verify_internal (Algorithm 8), with the formatted message M' given.
pub fn verify_internal<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    mprime: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let h = &mut ws.s.h;
    h.init256();
    h.update(&key.tr);
    h.update(mprime);
    verify_mu_absorbed(ws, key, sig)
}

/// Algorithm 8 from line 7 on, once tr || M' is absorbed (see
/// [`Workspace::absorb_mu_prefix`]): squeezes mu and verifies `sig` against it.
pub fn verify_mu_absorbed<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    sig: &[u8],
) -> Result<(), Error> {
    ws.s.h.squeeze(mu(&mut ws.s.st));
    verify_ws_mu(ws, key, sig)
}

/// Algorithm 8 from line 7 on, given mu = H(tr || M', 64) (external mu).
pub fn verify_mu<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    self::mu(&mut ws.s.st).copy_from_slice(mu);
    verify_ws_mu(ws, key, sig)
}

/// Algorithm 8 from line 7 on, with mu at the start of the workspace's buffer.
fn verify_ws_mu<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: &PublicKey<S>,
    sig: &[u8],
) -> Result<(), Error> {
    let p = &S::P;
    if sig.len() != p.sig_len() {
        return Err(Error::BadMsg);
    }
    // sigDecode (Algorithm 27).
    let z_len = 32 * p.z_bits() as usize;
    let (c_tilde, sig) = sig.split_at(p.c_tilde_len());
    let (z, hint) = sig.split_at(p.l * z_len);
    check_hint(p, hint)?;
    let s = &mut ws.s;
    let gamma1 = 1 << p.gamma1_bits;
    for (zhat, z) in ws.zhat.as_mut().iter_mut().zip(z.chunks_exact(z_len)) {
        match p.z_bits() {
            18 => bit_unpack::<18>(z, &mut s.w, |v| gamma1 - v),
            _ => bit_unpack::<20>(z, &mut s.w, |v| gamma1 - v),
        }
        // Line 13: ||z|| < gamma1 - beta, checked before any other work.
        if s.w.iter().fold(0, |m, c| m.max(c.abs())) >= gamma1 - p.beta {
            return Err(Error::BadMsg);
        }
        arch::ntt(&mut s.w);
        arch::pack(&s.w, zhat);
    }
    sample_in_ball(p, s, c_tilde);
    arch::ntt(&mut s.w);
    arch::pack(&s.w, &mut s.chat);
    // c~' = H(mu || w1Encode(w1)) starts with mu, which frees the buffer.
    s.h.init256();
    s.h.update(mu(&mut s.st));

    // Lines 9-12: w'approx = NTT^-1(A * NTT(z) + NTT(-c * 2^d) * NTT(t1)) row by row,
    // then w1 = UseHint(h, w'approx), absorbed into c~'.
    let (indices, ends) = hint.split_at(p.omega);
    let mut start = 0;
    // Entries of A are sampled four at a time; a row of five takes them together.
    let n = if p.l % 4 == 1 { 5 } else { 4 };
    for (i, (t1hat, &end)) in key.t1hat.as_ref().iter().zip(ends).enumerate() {
        arch::pointwise(&mut s.w, t1hat, &s.chat);
        for (j, zhat) in ws.zhat.as_ref().chunks(n).enumerate() {
            expand_a_mul_acc(s, &key.rho, i, n * j, zhat);
        }
        // |w| < (l + 1) q, which arch::invntt_tomont takes.
        arch::invntt_tomont(&mut s.w);
        // w1 = UseHint(h, w'approx). Each hinted coefficient r (the indices are distinct)
        // is first replaced by UseHint(1, r) * 2 * gamma2, whose HighBits is UseHint(1, r);
        // then every coefficient takes its HighBits (Algorithm 37), which is UseHint(0, r).
        // The hint was checked, but `sig` may be a caller's buffer that changes meanwhile:
        // a range no longer valid is a malformed signature, not a panic.
        let hinted = indices.get(start..end as usize).ok_or(Error::BadMsg)?;
        for &m in hinted {
            let w = &mut s.w[m as usize];
            *w = use_hint(p.gamma2, caddq(*w), true) * 2 * p.gamma2;
        }
        start = end as usize;
        let row = w1_row(&mut s.st, 32 * p.w1_bits() as usize);
        arch::w1_encode(p.gamma2, &s.w, row);
        s.h.update(row);
    }
    let c_tilde2 = self::c_tilde(&mut s.st, c_tilde.len());
    s.h.squeeze(c_tilde2);
    if *c_tilde2 == *c_tilde {
        Ok(())
    } else {
        Err(Error::KeyRejected)
    }
}

/// Checks the hint encoding as HintBitUnpack (Algorithm 21) does: per row, indices
/// strictly increasing; the end positions non-decreasing and at most omega; the unused
/// index bytes zero.
fn check_hint(p: &Params, hint: &[u8]) -> Result<(), Error> {
    let (indices, ends) = hint.split_at(p.omega);
    let mut start = 0;
    for &end in ends {
        let end = end as usize;
        if end < start || end > p.omega || indices[start..end].windows(2).any(|x| x[0] >= x[1]) {
            return Err(Error::BadMsg);
        }
        start = end;
    }
    if indices[start..].iter().any(|&x| x != 0) {
        return Err(Error::BadMsg);
    }
    Ok(())
}

/// Decodes 256 little-endian `BITS`-bit fields, eight from every `BITS` bytes (Algorithms
/// 18 and 19), mapping each with `f`. A field is cut from the 8-byte word at its first
/// byte, or from the group's last 8 bytes.
fn bit_unpack<const BITS: usize>(bytes: &[u8], out: &mut Poly, f: impl Fn(i32) -> i32) {
    for g in 0..N / 8 {
        let b = &bytes[g * BITS..][..BITS];
        for k in 0..8 {
            let at = (k * BITS / 8).min(BITS - 8);
            let word = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
            out[8 * g + k] = f((word >> (k * BITS - 8 * at)) as i32 & ((1 << BITS) - 1));
        }
    }
}

/// w1Encode (Algorithm 28) of HighBits (Algorithm 37) of `w`, coefficients in (-q, q):
/// 256 fields of 4 bits (gamma2 = (q - 1) / 32) or 6 bits into `out`.
pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
    let high_bits = |r| decompose(gamma2, caddq(r)).0;
    if gamma2 == (Q - 1) / 32 {
        bit_pack::<4>(w, out, high_bits)
    } else {
        bit_pack::<6>(w, out, high_bits)
    }
}

/// Packs 256 coefficients, each mapped by `f` to [0, 2^`BITS`), as little-endian
/// `BITS`-bit fields, eight into every `BITS` bytes (Algorithm 16).
fn bit_pack<const BITS: usize>(a: &Poly, out: &mut [u8], f: impl Fn(i32) -> i32) {
    for (c, b) in a.chunks_exact(8).zip(out.chunks_exact_mut(BITS)) {
        let v = c.iter().rev().fold(0u64, |v, &x| v << BITS | f(x) as u64);
        b.copy_from_slice(&v.to_le_bytes()[..BITS]);
    }
}

/// SampleInBall (Algorithm 29): c with tau coefficients +-1, into `s.w` as -c * 2^d.
/// The SHAKE256 is `s.h`, squeezed 8 bytes at a time.
fn sample_in_ball(p: &Params, s: &mut Scratch, c_tilde: &[u8]) {
    let h = &mut s.h;
    let mut buf = [0; 8];
    h.init256();
    h.update(c_tilde);
    h.squeeze(&mut buf);
    let mut signs = u64::from_le_bytes(buf);
    let mut pos = buf.len();
    s.w = [0; N];
    for i in N - p.tau..N {
        let j = loop {
            if pos == buf.len() {
                h.squeeze(&mut buf);
                pos = 0;
            }
            let j = buf[pos] as usize;
            pos += 1;
            if j <= i {
                break j;
            }
        };
        s.w[i] = s.w[j];
        s.w[j] = (2 * (signs & 1) as i32 - 1) << D;
        signs >>= 1;
    }
}

/// Samples A[i][j0 + t] = RejNTTPoly(rho || j0 + t || i) (Algorithms 30 and 32) for each
/// `zhat[t]`, up to five at once, and adds A[i][j0 + t] * NTT(z)[j0 + t] to `s.w` one
/// coefficient at a time as each is accepted. Four run in the lanes of `s.st`; a fifth
/// waits in `s.parked` and, after each block, changes places with the entry furthest
/// along, so that all five finish in about 25 / 4 permutations of the four lanes.
fn expand_a_mul_acc(s: &mut Scratch, rho: &[u8], i: usize, j0: usize, zhat: &[PackedPoly]) {
    let lanes = zhat.len().min(4);
    let Scratch { st, w, parked, .. } = s;
    // order[t]: the entry in lane t, and order[4] the one parked; m: the next coefficient
    // of each entry.
    let mut order = [0u8, 1, 2, 3, 4];
    let mut m = [0; 5];
    for t in (0..zhat.len()).rev() {
        shake128_start(st, t % 4, rho, &[(j0 + t) as u8, i as u8]);
        if t == 4 {
            swap_lane(st, 0, parked);
        }
    }
    // Permute the lanes up to the last one still sampling.
    while let Some(last) = (0..lanes).rev().find(|&t| m[order[t] as usize] < N) {
        arch::keccak_f1600_x4(st, last + 1);
        for (t, &j) in order[..=last].iter().enumerate() {
            let j = j as usize;
            if m[j] < N {
                let from = arch::rej_ntt_mul_acc(w, &zhat[j], st, t, &mut m[j]);
                rej_ntt_mul_acc(w, &zhat[j], st, t, &mut m[j], from);
            }
        }
        if zhat.len() == 5 && m[order[4] as usize] < N {
            // Into the lane furthest along (the first of those tied), done or not.
            let t = (0..4)
                .rev()
                .max_by_key(|&t| m[order[t] as usize])
                .unwrap_or(0);
            swap_lane(st, t, parked);
            order.swap(t, 4);
        }
    }
}

/// Exchanges state `t` of `st` with the state in `other`.
fn swap_lane(st: &mut StateX4, t: usize, other: &mut [[u8; 8]; 25]) {
    for (row, lane) in st.iter_mut().zip(other) {
        row[8 * t..8 * t + 8].swap_with_slice(lane);
    }
}

/// One SHAKE128 block of RejNTTPoly (Algorithm 30), from state `t` of `st`, multiplied
/// into `w`: each candidate that CoeffFromThreeBytes (Algorithm 14) accepts becomes
/// `A[*m]`, and `w[*m] += A[*m] * zhat[*m]` (Montgomery), until `*m` = 256. The block's 168
/// bytes are 7 groups of 24, each three lanes holding eight candidates; this takes the
/// groups from `from` on (those before are done, see `arch::rej_ntt_mul_acc`).
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

/// Packs the coefficients of `a`, reduced to [0, q), into `out`. Each is stored as a
/// 4-byte word whose zero top byte the next one overwrites.
pub fn pack(a: &Poly, out: &mut PackedPoly) {
    for (m, &c) in a.iter().enumerate() {
        out[3 * m..3 * m + 4].copy_from_slice(&freeze(c).to_le_bytes());
    }
}

/// Coefficient `m` of a packed polynomial, read as a word.
fn coeff(a: &PackedPoly, m: usize) -> i32 {
    i32::from_le_bytes(a[3 * m..3 * m + 4].try_into().unwrap()) & 0xff_ffff
}

/// c = a * b in T_q times 2^-32 (a pointwise Montgomery product), |c| < q.
pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
    for (m, c) in c.iter_mut().enumerate() {
        *c = mont_mul(coeff(a, m), coeff(b, m));
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
