// SPDX-License-Identifier: GPL-2.0

//! ML-DSA signature verification (FIPS 204, Algorithms 3, 5 and 8).
//!
//! No allocation: all per-verify state lives in a [`Workspace`] that the caller provides,
//! and the key is a [`VerifyingKey`]: decoded once into a [`PublicKey`] (for many
//! verifications), or the encoding pk itself, whose rows of t1 are decoded as the rows of w
//! need them (for one). The signature is read once: c~ and the hint are copied into the
//! workspace, and each polynomial of z is read as it is decoded, so a caller's buffer that
//! changes meanwhile can make a verification fail but not pass.
//! A is never stored: four entries of a row of A at a time are sampled and multiplied into
//! row i as they stream out of four SHAKE128s, and NTT(z) is kept packed to 23 bits a
//! coefficient. w1 is absorbed into the SHAKE256 that produces c~' one row at a time.
//!
//! The NTTs and the Keccak permutations go through `crate::arch`, which runs an arch
//! routine where the machine has one and the portable code otherwise.

use crate::arch;
use crate::keccak::{shake128_start, StateX4};
use crate::ntt::caddq;
use crate::params::{
    PackedPoly, ParamSet, Params, Poly, PolyVec, W1Row, D, N, PACKED_POLY_BYTES, Q,
};
use crate::poly::{bit_unpack, use_hint};
use crate::shake::{Absorbing, Shake};

/// Why a signature was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// Malformed input: a wrong length, ||z|| >= gamma1 - beta or a malformed hint.
    Malformed,
    /// A well-formed signature that does not verify.
    Rejected,
    /// A bad parameter: a context string over 255 bytes, or a PH(M) of the wrong length.
    BadParameter,
}

/// Everything one verification needs besides the inputs, for the set `S`.
pub struct Workspace<S: ParamSet> {
    /// NTT(z), one packed polynomial per column.
    zhat: S::Cols,
    b: Buffers,
    /// The SHAKE128 state of a fifth entry of A while the four of `b.st` run others, for
    /// the sets whose rows take five entries at once (see [`expand_a_mul_acc`]).
    parked: S::Parked,
}

/// 32-byte aligned, with `st` first: the vector routines permute `st` a row of 32 bytes at a
/// time, 5 to 10 % faster when no row straddles two cache lines.
#[repr(C, align(32))]
struct Buffers {
    /// ExpandA's four SHAKE128s; before, between and after its rows, mu, a row of
    /// w1Encode(w1), or c~' (see [`mu`]).
    st: StateX4,
    /// NTT(-c * 2^d), packed.
    chat: PackedPoly,
    /// One row of w, from NTT(-c * 2^d) * NTT(t1) to w1.
    w: Poly,
    /// SHAKE256 for tr, mu, SampleInBall and c~'.
    h: Shake,
    /// c~ of the signature, `c_tilde_len()` bytes of it.
    c_tilde: [u8; 64],
    /// The hint of the signature (Algorithm 21's y), `omega + k` bytes of it.
    hint: [u8; MAX_HINT_LEN],
}

/// The largest hint encoding, of ML-DSA-44 (omega + k = 84; `verify_from_mu` checks it).
const MAX_HINT_LEN: usize = 84;

// The states' memory `st` is free outside ExpandA's rows, and Algorithm 8 keeps three
// values in it in turn, each at its start: mu (line 7) until it is absorbed into c~' (line
// 12), after SampleInBall; then in each row, the row of w1Encode(w1) while it is absorbed
// (line 12); and c~' (line 12) at the end. As the C verifier's named union does, each has
// its accessor.

/// mu (Algorithm 8, line 7), in `st`.
fn mu(st: &mut StateX4) -> &mut [u8] {
    &mut st.as_flattened_mut()[..64]
}

/// A row of w1Encode(w1) (Algorithm 28), in `st`.
fn w1_row(st: &mut StateX4) -> &mut W1Row {
    st.as_flattened_mut().first_chunk_mut().unwrap()
}

/// c~' (Algorithm 8, line 12) of `len` bytes (32 to 64), in `st`.
fn c_tilde(st: &mut StateX4, len: usize) -> &mut [u8] {
    &mut st.as_flattened_mut()[..len]
}

impl<S: ParamSet> Default for Workspace<S> {
    /// A zeroed workspace.
    fn default() -> Self {
        Self {
            zhat: S::Cols::ZERO,
            b: Buffers {
                chat: [0; PACKED_POLY_BYTES + 1],
                w: [0; N],
                st: [[0; 32]; 25],
                h: Shake::new(),
                c_tilde: [0; 64],
                hint: [0; MAX_HINT_LEN],
            },
            parked: S::Parked::default(),
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
    /// A zeroed key, to be set by [`PublicKey::decode`].
    fn default() -> Self {
        Self {
            rho: [0; 32],
            tr: [0; 64],
            t1hat: S::Rows::ZERO,
        }
    }
}

impl<S: ParamSet> PublicKey<S> {
    /// Decodes `pk`, using `ws` as scratch.
    pub fn decode(&mut self, ws: &mut Workspace<S>, pk: &[u8]) -> Result<(), Error> {
        let (key, b) = (VerifyingKey::<S>::Encoded(pk), &mut ws.b);
        self.rho.copy_from_slice(key.rho()?);
        self.tr.copy_from_slice(key.tr(&mut b.h, &mut b.st));
        for (i, t1hat) in self.t1hat.as_mut().iter_mut().enumerate() {
            t1hat_row(pk, i, &mut b.w);
            arch::pack(&b.w, t1hat);
        }
        Ok(())
    }
}

/// The public key of a verification, for the set `S`.
#[derive(Clone, Copy)]
pub enum VerifyingKey<'a, S: ParamSet> {
    /// Decoded once, for many verifications.
    Decoded(&'a PublicKey<S>),
    /// The encoding pk (Algorithm 22), `S::P.pk_len()` bytes, for one: tr is hashed from it
    /// and each row of NTT(t1) decoded as that row of w is computed, as the C verifier
    /// does, so that no [`PublicKey`] is needed. The bytes must not change meanwhile.
    Encoded(&'a [u8]),
}

impl<S: ParamSet> VerifyingKey<'_, S> {
    /// rho (pkDecode, Algorithm 23); an encoding of the wrong length is malformed.
    fn rho(&self) -> Result<&[u8], Error> {
        match self {
            Self::Decoded(key) => Ok(&key.rho),
            Self::Encoded(pk) if pk.len() == S::P.pk_len() => Ok(&pk[..32]),
            Self::Encoded(_) => Err(Error::Malformed),
        }
    }

    /// tr = H(pk, 64) (Algorithm 8, line 6); of an encoded key, hashed with `h` into `st`,
    /// where mu is later.
    fn tr<'b>(&'b self, h: &mut Shake, st: &'b mut StateX4) -> &'b [u8] {
        match self {
            Self::Decoded(key) => &key.tr,
            Self::Encoded(pk) => {
                let mut h = h.init256();
                h.update(pk);
                h.squeeze(mu(st));
                mu(st)
            }
        }
    }

    /// w = NTT(-c * 2^d) * NTT(t1) of row i (Algorithm 8, line 9), from `chat`; of an
    /// encoded key whose length [`Self::rho`] checked, with the row decoded into `w`.
    fn mul_t1hat(&self, i: usize, chat: &PackedPoly, w: &mut Poly) {
        match self {
            Self::Decoded(key) => arch::pointwise(w, &key.t1hat.as_ref()[i], chat),
            Self::Encoded(pk) => {
                t1hat_row(pk, i, w);
                arch::pointwise_in_place(w, chat);
            }
        }
    }
}

/// Row i of NTT(t1) of the encoding `pk` (of the length pkDecode, Algorithm 23, takes):
/// its 10-bit row taken to the NTT domain, in `w`.
fn t1hat_row(pk: &[u8], i: usize, w: &mut Poly) {
    bit_unpack::<10>(&pk[32 + 320 * i..][..320], w, |v| v);
    arch::ntt(w);
}

/// A pre-hash function of HashML-DSA (FIPS 204, Section 5.4.1), numbered by the last arc of
/// its OID, 2.16.840.1.101.3.4.2.n (NIST hash algorithms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PreHash {
    Sha2_256 = 1,
    Sha2_384 = 2,
    Sha2_512 = 3,
    Sha3_256 = 8,
    Sha3_512 = 10,
    /// SHAKE128 with 256 bits of output.
    Shake128 = 11,
    /// SHAKE256 with 512 bits of output.
    Shake256 = 12,
}

/// The DER encoding of a pre-hash function's OID without its last arc, the function's
/// number (FIPS 204, Algorithm 5, line 18).
const NIST_HASH_OID: [u8; 10] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];

impl PreHash {
    /// Bytes of PH(M).
    pub fn output_len(self) -> usize {
        match self {
            PreHash::Sha2_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }
}

/// What a signature is verified over, in each of the interfaces of FIPS 204.
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// ML-DSA.Verify (Algorithm 3): M and a context string.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// HashML-DSA.Verify (Algorithm 5): PH(M), made with `ph`, and a context string. A
    /// `phm` of the wrong length is [`Error::BadParameter`].
    PreHash {
        ph: PreHash,
        phm: &'a [u8],
        ctx: &'a [u8],
    },
    /// External mu: Algorithm 8 from line 7 on, given mu = H(tr || M', 64).
    Mu(&'a [u8; 64]),
}

/// Verifies `sig` over `m` under `key`. Inlined into its callers, the C entry points of the
/// library interface, each of which calls it for each set: a frame of its own would add to
/// the kernel stack of those calls.
#[inline(always)]
pub fn verify<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: VerifyingKey<'_, S>,
    m: Message<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    let b = &mut ws.b;
    let h = match m {
        Message::Pure { msg, ctx } => {
            let mut h = start_mu(&mut b.h, &mut b.st, key, 0, ctx)?;
            h.update(msg);
            h
        }
        Message::PreHash { ph, phm, ctx } => {
            if phm.len() != ph.output_len() {
                return Err(Error::BadParameter);
            }
            let mut h = start_mu(&mut b.h, &mut b.st, key, 1, ctx)?;
            h.update(&NIST_HASH_OID);
            h.update(&[ph as u8]);
            h.update(phm);
            h
        }
        Message::Mu(mu) => {
            self::mu(&mut b.st).copy_from_slice(mu);
            return verify_from_mu(ws, key, sig);
        }
    };
    h.squeeze(mu(&mut b.st));
    verify_from_mu(ws, key, sig)
}

/// Verifies `sig` over M under `key` with the context string `ctx` (ML-DSA.Verify, Algorithm
/// 3), where `absorb` gives M, in as many pieces as it likes, to the SHAKE256 of mu. An
/// error of `absorb` ends the verification with that error. It repeats the pure branch of
/// [`verify`] rather than share with it a helper that takes `absorb`: inlined, as `verify`
/// must be, such a helper took 160 more bytes of stack on s390x (`tests/footprint.rs`).
pub fn verify_pieces<S: ParamSet, E: From<Error>>(
    ws: &mut Workspace<S>,
    key: VerifyingKey<'_, S>,
    ctx: &[u8],
    sig: &[u8],
    absorb: impl FnOnce(&mut Absorbing<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let b = &mut ws.b;
    let mut h = start_mu(&mut b.h, &mut b.st, key, 0, ctx)?;
    absorb(&mut h)?;
    h.squeeze(mu(&mut b.st));
    Ok(verify_from_mu(ws, key, sig)?)
}

/// Starts mu = H(tr || M', 64) with M' = domain || |ctx| || ctx || ... (Algorithm 3, line 5,
/// domain 0; Algorithm 5, line 18, domain 1; Algorithm 8, line 7) in `h`, with `st` for tr:
/// absorbs tr and the first three fields of M', and returns the SHAKE256 for the rest.
fn start_mu<'h, S: ParamSet>(
    h: &'h mut Shake,
    st: &mut StateX4,
    key: VerifyingKey<'_, S>,
    domain: u8,
    ctx: &[u8],
) -> Result<Absorbing<'h>, Error> {
    let ctx_len = u8::try_from(ctx.len()).map_err(|_| Error::BadParameter)?;
    let tr = key.tr(h, st);
    // `tr` is in `st` or the key; `h` starts again only after it was squeezed into `st`.
    let mut h = h.init256();
    h.update(tr);
    h.update(&[domain, ctx_len]);
    h.update(ctx);
    Ok(h)
}

/// Algorithm 8 from line 8 on, with mu at the start of the workspace's buffer.
fn verify_from_mu<S: ParamSet>(
    ws: &mut Workspace<S>,
    key: VerifyingKey<'_, S>,
    sig: &[u8],
) -> Result<(), Error> {
    let p = &S::P;
    const { assert!(S::P.omega + S::P.k <= MAX_HINT_LEN && S::P.c_tilde_len() <= 64) };
    let rho = key.rho()?;
    if sig.len() != p.sig_len() {
        return Err(Error::Malformed);
    }
    // sigDecode (Algorithm 27), each byte read once: c~ and the hint into the workspace.
    let b = &mut ws.b;
    let z_len = 32 * p.z_bits() as usize;
    let (c_tilde, sig) = sig.split_at(p.c_tilde_len());
    let (z, hint) = sig.split_at(p.l * z_len);
    b.c_tilde[..c_tilde.len()].copy_from_slice(c_tilde);
    b.hint[..hint.len()].copy_from_slice(hint);
    check_hint(p, &b.hint[..hint.len()])?;
    let gamma1 = 1 << p.gamma1_bits;
    for (zhat, z) in ws.zhat.as_mut().iter_mut().zip(z.chunks_exact(z_len)) {
        match p.z_bits() {
            18 => bit_unpack::<18>(z, &mut b.w, |v| gamma1 - v),
            _ => bit_unpack::<20>(z, &mut b.w, |v| gamma1 - v),
        }
        // Line 13: ||z|| < gamma1 - beta, checked before any other work.
        if b.w.iter().fold(0, |m, c| m.max(c.abs())) >= gamma1 - p.beta {
            return Err(Error::Malformed);
        }
        arch::ntt(&mut b.w);
        arch::pack(&b.w, zhat);
    }
    sample_in_ball(p, b);
    arch::ntt(&mut b.w);
    arch::pack(&b.w, &mut b.chat);
    // c~' = H(mu || w1Encode(w1)) starts with mu, which frees the buffer.
    let mut h = b.h.init256();
    h.update(mu(&mut b.st));

    // Lines 9-12: w'approx = NTT^-1(A * NTT(z) + NTT(-c * 2^d) * NTT(t1)) row by row,
    // then w1 = UseHint(h, w'approx), absorbed into c~'.
    let mut start = 0;
    // Entries of A are sampled four at a time; a row of five takes them together.
    let n = if p.l % 4 == 1 { 5 } else { 4 };
    for i in 0..p.k {
        key.mul_t1hat(i, &b.chat, &mut b.w);
        for (j, zhat) in ws.zhat.as_ref().chunks(n).enumerate() {
            expand_a_mul_acc(&mut b.st, &mut b.w, ws.parked.as_mut(), rho, i, n * j, zhat);
        }
        // |w| < (l + 1) q: the product with NTT(t1) and l products with A, each in (-q, q).
        const { assert!((S::P.l as i64 + 1) * (Q as i64) < (1 << 31) - (1 << 22)) };
        arch::invntt_tomont(&mut b.w);
        // w1 = UseHint(h, w'approx). Each hinted coefficient r (the indices are distinct)
        // is first replaced by UseHint(1, r) * 2 * gamma2, whose HighBits is UseHint(1, r);
        // then every coefficient takes its HighBits (Algorithm 37), which is UseHint(0, r).
        // `check_hint` bounds the row's indices (start <= end <= omega): the check of `get`
        // costs nothing and keeps a panic out of the kernel.
        let end = b.hint[p.omega + i] as usize;
        for &m in b.hint.get(start..end).ok_or(Error::Malformed)? {
            let w = &mut b.w[m as usize];
            *w = use_hint(p.gamma2, caddq(*w), true) * 2 * p.gamma2;
        }
        start = end;
        let row = w1_row(&mut b.st);
        arch::w1_encode(p.gamma2, &b.w, row);
        h.update(&row[..32 * p.w1_bits() as usize]);
    }
    let c_tilde2 = self::c_tilde(&mut b.st, p.c_tilde_len());
    h.squeeze(c_tilde2);
    // Line 13: [[c~ = c~']].
    let accept = *c_tilde2 == b.c_tilde[..p.c_tilde_len()];
    accept.then_some(()).ok_or(Error::Rejected)
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
            return Err(Error::Malformed);
        }
        start = end;
    }
    let padded = indices[start..].iter().all(|&x| x == 0);
    padded.then_some(()).ok_or(Error::Malformed)
}

/// SampleInBall (Algorithm 29) of `b.c_tilde`: c with tau coefficients +-1, into `b.w` as
/// -c * 2^d. The SHAKE256 is `b.h`, squeezed 8 bytes at a time.
fn sample_in_ball(p: &Params, b: &mut Buffers) {
    let mut buf = [0; 8];
    let mut h = b.h.init256();
    h.update(&b.c_tilde[..p.c_tilde_len()]);
    let mut h = h.squeeze(&mut buf);
    let mut signs = u64::from_le_bytes(buf);
    let mut pos = buf.len();
    b.w = [0; N];
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
        b.w[i] = b.w[j];
        b.w[j] = (2 * (signs & 1) as i32 - 1) << D;
        signs >>= 1;
    }
}

/// Samples A[i][j0 + t] = RejNTTPoly(rho || j0 + t || i) (Algorithms 30 and 32) for each
/// `zhat[t]`, up to five at once, and adds A[i][j0 + t] * NTT(z)[j0 + t] to `w` one
/// coefficient at a time as each is accepted. Four run in the lanes of `st`; a fifth
/// waits in `parked` (25 lanes, where a row takes five) and, after each block, changes
/// places with the entry furthest along, so that all five finish in about 25 / 4
/// permutations of the four lanes.
fn expand_a_mul_acc(
    st: &mut StateX4,
    w: &mut Poly,
    parked: &mut [[u8; 8]],
    rho: &[u8],
    i: usize,
    j0: usize,
    zhat: &[PackedPoly],
) {
    let lanes = zhat.len().min(4);
    // order[t]: the entry in lane t, and order[4] the one parked; m: the next coefficient
    // of each entry.
    let mut order = [0u8, 1, 2, 3, 4];
    let mut m = [0; 5];
    for t in (0..zhat.len()).rev() {
        shake128_start(st, t % 4, rho, &[(j0 + t) as u8, i as u8]);
        if t == 4 {
            // Parked as it starts; lane 0 starts entry 0 next. (A copy: `parked` may hold
            // bytes never written, a caller's workspace as it was allocated.)
            for (row, lane) in st.iter().zip(parked.iter_mut()) {
                lane.copy_from_slice(&row[..8]);
            }
        }
    }
    // Permute the lanes up to the last one still sampling.
    while let Some(last) = (0..lanes).rev().find(|&t| m[order[t] as usize] < N) {
        arch::keccak_f1600_x4(st, last + 1);
        for (t, &j) in order[..=last].iter().enumerate() {
            let j = j as usize;
            if m[j] < N {
                arch::rej_ntt_mul_acc(w, &zhat[j], st, t, &mut m[j]);
            }
        }
        if zhat.len() == 5 && m[order[4] as usize] < N {
            // Into the lane furthest along (the first of those tied), done or not.
            let t = (0..4)
                .rev()
                .max_by_key(|&t| m[order[t] as usize])
                .unwrap_or(0);
            for (row, lane) in st.iter_mut().zip(parked.iter_mut()) {
                row[8 * t..8 * t + 8].swap_with_slice(lane);
            }
            order.swap(t, 4);
        }
    }
}
