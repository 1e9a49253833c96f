// SPDX-License-Identifier: GPL-2.0

//! KUnit suite `mldsa_rust`: the arithmetic of [`crate::ntt`] against schoolbook references,
//! the self-test, and the algorithms `mldsa44`, `mldsa65` and `mldsa87` through the crypto API
//! (on 6.12, akcipher requests with scatterlists and `crypto_sig`; on 7.x, `crypto_sig`),
//! with the known answers of `kat.rs`; with `CONFIG_CRYPTO_MLDSA_BENCHMARK`, also
//! `benchmark_mldsa44/65/87`.
//!
//! Each case is a `fn()` that checks with `check!` (`kunit_assert!`); `suite!` lists them.
//! On 7.x the suite comes from `#[kunit_tests]`; the 6.12 `kernel::kunit` module only offers
//! `kunit_assert!`, so there the suite is laid out by hand as in C: a zero-terminated array
//! of `kunit_case`, a `kunit_suite`, and a pointer to the suite in `.kunit_test_suites`.

use crate::kunit_vectors::{Part, Want, MUTATIONS};
use crate::ntt;
use crate::params::{Params, Poly, ML_DSA_44, ML_DSA_65, ML_DSA_87, N, Q};
use crate::selftest;
use crate::selftest::kat::{self, Kat};
use core::ffi::{c_int, c_void, CStr};
use core::mem::MaybeUninit;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use kernel::{bindings, error::from_err_ptr, prelude::*};

/// Fails the running KUnit case (and stops it) unless `$cond` holds.
#[cfg(linux_6_12)]
macro_rules! check {
    ($cond:expr) => {
        kernel::kunit_assert!("mldsa_rust", "crypto/mldsa/kunit_tests.rs", 0, $cond)
    };
}
/// Fails the running KUnit case (and stops it) unless `$cond` holds (7.x takes the file
/// name as a C string).
#[cfg(not(linux_6_12))]
macro_rules! check {
    ($cond:expr) => {
        kernel::kunit_assert!("mldsa_rust", c"crypto/mldsa/kunit_tests.rs", 0, $cond)
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

    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    fn fill(&mut self, bytes: &mut [u8]) {
        for b in bytes {
            *b = self.next() as u8;
        }
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

/// a * b in `Z_q[X]/(X^256 + 1)`, coefficients in [0, q), computed the schoolbook way.
fn schoolbook_mul(a: &Poly, b: &Poly) -> Poly {
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
fn ntt_mul_matches_schoolbook() {
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
fn reduce_matches_i64() {
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

/// The three sets: algorithm name, parameters and known answer.
const SETS: [(&CStr, &Params, &Kat); 3] = [
    (c"mldsa44", &ML_DSA_44, &kat::ML_DSA_44),
    (c"mldsa65", &ML_DSA_65, &kat::ML_DSA_65),
    (c"mldsa87", &ML_DSA_87, &kat::ML_DSA_87),
];

/// The sets' `enum mldsa_alg` values, in the order of [`SETS`].
const ALGS: [bindings::mldsa_alg; 3] = [
    bindings::mldsa_alg_MLDSA44,
    bindings::mldsa_alg_MLDSA65,
    bindings::mldsa_alg_MLDSA87,
];

/// `mldsa_verify()` of `<crypto/mldsa.h>`, called as C calls it.
fn lib_verify(alg: bindings::mldsa_alg, sig: &[u8], msg: &[u8], pk: &[u8]) -> c_int {
    // SAFETY: The inputs are readable for the lengths given.
    unsafe {
        bindings::mldsa_verify(
            alg,
            sig.as_ptr(),
            sig.len(),
            msg.as_ptr(),
            msg.len(),
            pk.as_ptr(),
            pk.len(),
        )
    }
}

/// `mldsa_verify_noalloc()` in `buf`, called as C calls it.
fn lib_verify_noalloc(
    buf: &mut MaybeUninit<bindings::mldsa_verify_buf>,
    alg: bindings::mldsa_alg,
    sig: &[u8],
    msg: &[u8],
    pk: &[u8],
) -> c_int {
    // SAFETY: `buf` is writable memory of the right type and alignment, which the call
    // needs no more of; the inputs are readable for the lengths given.
    unsafe {
        bindings::mldsa_verify_noalloc(
            buf.as_mut_ptr(),
            alg,
            sig.as_ptr(),
            sig.len(),
            msg.as_ptr(),
            msg.len(),
            pk.as_ptr(),
            pk.len(),
        )
    }
}

fn neg(e: u32) -> c_int {
    -(e as c_int)
}

/// An akcipher tfm, freed on drop.
#[cfg(linux_6_12)]
struct Tfm(*mut bindings::crypto_akcipher);

#[cfg(linux_6_12)]
impl Tfm {
    fn alloc(name: &CStr) -> Result<Self> {
        // SAFETY: `name` is a NUL-terminated string.
        let tfm = unsafe { bindings::crypto_alloc_akcipher(name.as_ptr().cast(), 0, 0) };
        Ok(Self(from_err_ptr(tfm)?))
    }

    fn set_pub_key(&mut self, pk: &[u8]) -> c_int {
        // SAFETY: `self.0` is a live tfm; `pk` is readable for `pk.len()` bytes.
        unsafe { bindings::crypto_akcipher_set_pub_key(self.0, pk.as_ptr().cast(), pk.len() as _) }
    }

    /// Verifies with the signature and message laid out in a scatterlist with one entry per
    /// piece of `pieces` (each piece copied to its own heap buffer, at an odd address), as a
    /// 6.12 caller does:
    /// `src_len` = `sig_len`, `dst_len` = `msg_len`.
    fn verify_sg(&self, pieces: &[&[u8]], sig_len: usize, msg_len: usize) -> c_int {
        // SAFETY: `req` is a prepared request on this tfm.
        self.with_request(pieces, sig_len, msg_len, |req| unsafe {
            bindings::crypto_akcipher_verify(req)
        })
    }

    /// Runs `f` on a verification request laid out as [`Tfm::verify_sg`] describes.
    fn with_request(
        &self,
        pieces: &[&[u8]],
        sig_len: usize,
        msg_len: usize,
        f: impl FnOnce(*mut bindings::akcipher_request) -> c_int,
    ) -> c_int {
        let mut bufs = KVec::new();
        let mut sg = KVec::new();
        for piece in pieces {
            // At an odd address: one byte before the piece.
            let mut b = KVec::with_capacity(piece.len() + 1, GFP_KERNEL).unwrap();
            b.push(0, GFP_KERNEL).unwrap();
            b.extend_from_slice(piece, GFP_KERNEL).unwrap();
            bufs.push(b, GFP_KERNEL).unwrap();
            // SAFETY: All-zero bytes are a valid `scatterlist`; `sg_init_table` sets it up.
            let entry: bindings::scatterlist = unsafe { core::mem::zeroed() };
            sg.push(entry, GFP_KERNEL).unwrap();
        }
        // SAFETY: `sg` holds `pieces.len()` entries; each `sg_set_buf` points at a live heap
        // buffer, which outlives the request. The request is allocated on `self.0`, used
        // synchronously (ML-DSA never returns -EINPROGRESS) and freed here.
        unsafe {
            bindings::sg_init_table(sg.as_mut_ptr(), pieces.len() as _);
            for (i, b) in bufs.iter().enumerate() {
                let (at, len) = (b.as_ptr().add(1), b.len() - 1);
                bindings::sg_set_buf(sg.as_mut_ptr().add(i), at.cast(), len as _);
            }
            let req = bindings::akcipher_request_alloc(self.0, bindings::GFP_KERNEL);
            if req.is_null() {
                return neg(bindings::ENOMEM);
            }
            bindings::akcipher_request_set_crypt(
                req,
                sg.as_mut_ptr(),
                null_mut(),
                sig_len as _,
                msg_len as _,
            );
            let rc = f(req);
            bindings::akcipher_request_free(req);
            rc
        }
    }

    /// Verifies `sig` over `msg`, in a two-entry scatterlist.
    fn verify(&self, sig: &[u8], msg: &[u8]) -> c_int {
        self.verify_sg(&[sig, msg], sig.len(), msg.len())
    }

    fn max_size(&self) -> u32 {
        // SAFETY: `self.0` is a live tfm.
        unsafe { bindings::crypto_akcipher_maxsize(self.0) }
    }
}

#[cfg(linux_6_12)]
impl Drop for Tfm {
    fn drop(&mut self) {
        // SAFETY: `self.0` came from `crypto_alloc_akcipher` and is freed only here.
        unsafe { bindings::crypto_free_akcipher(self.0) };
    }
}

/// `r` as a C return code.
#[cfg(not(linux_6_12))]
fn to_c(r: Result) -> c_int {
    r.map_or_else(|e| e.to_errno(), |()| 0)
}

/// A tfm of the sig API (`kernel::crypto::sig::Sig`), with results as C return codes.
#[cfg(not(linux_6_12))]
struct Tfm(kernel::crypto::sig::Sig);

#[cfg(not(linux_6_12))]
impl Tfm {
    fn alloc(name: &CStr) -> Result<Self> {
        kernel::crypto::sig::Sig::new(name).map(Self)
    }

    fn set_pub_key(&mut self, pk: &[u8]) -> c_int {
        to_c(self.0.set_pub_key(pk))
    }

    /// Verifies `sig` over `msg`.
    fn verify(&self, sig: &[u8], msg: &[u8]) -> c_int {
        to_c(self.0.verify(sig, msg))
    }

    fn max_size(&self) -> u32 {
        self.0.max_size()
    }

    /// The driver that serves the tfm.
    fn driver_name(&self) -> &CStr {
        self.0.driver_name()
    }
}

/// A tfm for `name` with the key of `k` set, or a failed case.
macro_rules! tfm_with_key {
    ($name:expr, $k:expr) => {{
        let tfm = Tfm::alloc($name);
        check!(tfm.is_ok());
        let mut tfm = tfm.unwrap();
        check!(tfm.set_pub_key($k.pk) == 0);
        tfm
    }};
}

/// Each algorithm is registered under its name, as sig (and, on 6.12, as akcipher), and on
/// 7.x it is this module's driver that the name picks.
fn alloc_by_name() {
    for (name, p, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        check!(tfm.max_size() as usize == p.sig_len());
        check!(tfm.verify(k.sig, k.msg) == 0);
        #[cfg(not(linux_6_12))]
        {
            let driver = tfm.driver_name().to_bytes();
            check!(driver.len() == name.to_bytes().len() + 5);
            check!(driver.starts_with(name.to_bytes()) && driver.ends_with(b"-rust"));
        }
        #[cfg(linux_6_12)]
        crypto_sig_over_akcipher(name, p, k);
    }
}

/// On 6.12, `crypto_sig` reaches the akcipher algorithm `name` too.
#[cfg(linux_6_12)]
fn crypto_sig_over_akcipher(name: &CStr, p: &Params, k: &Kat) {
    // SAFETY: `name` is NUL-terminated.
    let sig = from_err_ptr(unsafe { bindings::crypto_alloc_sig(name.as_ptr().cast(), 0, 0) });
    check!(sig.is_ok());
    let sig = sig.unwrap();
    // SAFETY: `sig` is a live tfm, freed last; the buffers are readable for the lengths
    // given.
    let (maxsize, rc) = unsafe {
        let maxsize = bindings::crypto_sig_maxsize(sig);
        let mut rc = bindings::crypto_sig_set_pubkey(sig, k.pk.as_ptr().cast(), k.pk.len() as _);
        if rc == 0 {
            rc = bindings::crypto_sig_verify(
                sig,
                k.sig.as_ptr().cast(),
                k.sig.len() as _,
                k.msg.as_ptr().cast(),
                k.msg.len() as _,
            );
        }
        bindings::crypto_free_sig(sig);
        (maxsize, rc)
    };
    check!(maxsize as usize == p.sig_len());
    check!(rc == 0);
}

/// Valid signatures verify; one-bit changes to signature, message or key give EKEYREJECTED.
fn bit_flips_rejected() {
    for (name, p, k) in SETS {
        let mut tfm = tfm_with_key!(name, k);
        check!(tfm.verify(k.sig, k.msg) == 0);
        let mut sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL).unwrap();
        let mut msg = KVec::from_elem(0u8, k.msg.len(), GFP_KERNEL).unwrap();
        let mut pk = KVec::from_elem(0u8, k.pk.len(), GFP_KERNEL).unwrap();
        // In c~ (first and last byte), in the message, in rho and in t1.
        for (byte, bit) in [(0, 0), (p.c_tilde_len() - 1, 7)] {
            sig.copy_from_slice(k.sig);
            sig[byte] ^= 1 << bit;
            check!(tfm.verify(&sig, k.msg) == neg(bindings::EKEYREJECTED));
        }
        for (byte, bit) in [(0, 0), (k.msg.len() - 1, 7)] {
            msg.copy_from_slice(k.msg);
            msg[byte] ^= 1 << bit;
            check!(tfm.verify(k.sig, &msg) == neg(bindings::EKEYREJECTED));
        }
        for (byte, bit) in [(0, 0), (31, 7), (32, 0), (k.pk.len() - 1, 7)] {
            pk.copy_from_slice(k.pk);
            pk[byte] ^= 1 << bit;
            check!(tfm.set_pub_key(&pk) == 0);
            check!(tfm.verify(k.sig, k.msg) == neg(bindings::EKEYREJECTED));
        }
    }
}

/// Wrong key, signature and request lengths are refused; a key must be set first.
fn wrong_lengths_refused() {
    for (name, p, k) in SETS {
        let tfm = Tfm::alloc(name);
        check!(tfm.is_ok());
        let mut tfm = tfm.unwrap();
        check!(tfm.verify(k.sig, k.msg) == neg(bindings::EINVAL));
        // EINVAL, as Linux 7.x's crypto/mldsa.c gives.
        check!(tfm.set_pub_key(&k.pk[..p.pk_len() - 1]) == neg(bindings::EINVAL));
        let mut long = KVec::from_elem(0u8, p.pk_len() + 1, GFP_KERNEL).unwrap();
        long[..p.pk_len()].copy_from_slice(k.pk);
        check!(tfm.set_pub_key(&long) == neg(bindings::EINVAL));
        check!(tfm.set_pub_key(&[]) == neg(bindings::EINVAL));
        // A refused key leaves the tfm without one.
        check!(tfm.verify(k.sig, k.msg) == neg(bindings::EINVAL));
        check!(tfm.set_pub_key(k.pk) == 0);
        let sig = k.sig;
        check!(tfm.verify(&sig[..sig.len() - 1], k.msg) == neg(bindings::EBADMSG));
        let mut sig2 = KVec::from_elem(0u8, sig.len() + 1, GFP_KERNEL).unwrap();
        sig2[..sig.len()].copy_from_slice(sig);
        check!(tfm.verify(&sig2, k.msg) == neg(bindings::EBADMSG));
        // dst_len larger than the message the scatterlist holds.
        #[cfg(linux_6_12)]
        check!(tfm.verify_sg(&[sig, k.msg], sig.len(), k.msg.len() + 1) == neg(bindings::EINVAL));
        check!(tfm.verify(sig, k.msg) == 0);
    }
}

/// Sets the first z coefficient of `sig` to `z` (BitPack with b = gamma1, Algorithm 17).
fn set_z0(p: &Params, sig: &mut [u8], z: i32) {
    let v = ((1 << p.gamma1_bits) - z) as u32;
    let at = p.c_tilde_len();
    let mut word = u32::from_le_bytes([sig[at], sig[at + 1], sig[at + 2], 0]);
    let mask = (1u32 << p.z_bits()) - 1;
    word = (word & !mask) | v;
    sig[at..at + 3].copy_from_slice(&word.to_le_bytes()[..3]);
}

/// ||z|| at gamma1 - beta and malformed hints give EBADMSG; just inside the bound, EKEYREJECTED.
fn malformed_z_and_hints() {
    for (name, p, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        let mut sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL).unwrap();
        let bound = (1 << p.gamma1_bits) - p.beta;
        for (z, want) in [
            (bound, bindings::EBADMSG),
            (-bound, bindings::EBADMSG),
            (bound - 1, bindings::EKEYREJECTED),
            (-(bound - 1), bindings::EKEYREJECTED),
        ] {
            sig.copy_from_slice(k.sig);
            set_z0(p, &mut sig, z);
            check!(tfm.verify(&sig, k.msg) == neg(want));
        }
        // HintBitUnpack (Algorithm 21): the last count above omega, a count that decreases,
        // and non-zero padding after the last index.
        let ends = sig.len() - p.k;
        let total = k.sig[ends + p.k - 1] as usize;
        sig.copy_from_slice(k.sig);
        sig[ends + p.k - 1] = p.omega as u8 + 1;
        check!(tfm.verify(&sig, k.msg) == neg(bindings::EBADMSG));
        sig.copy_from_slice(k.sig);
        sig[ends] = sig[ends + 1] + 1;
        check!(tfm.verify(&sig, k.msg) == neg(bindings::EBADMSG));
        check!(total < p.omega);
        sig.copy_from_slice(k.sig);
        sig[ends - 1] = 1;
        check!(tfm.verify(&sig, k.msg) == neg(bindings::EBADMSG));
    }
}

/// A message of several pages, in a scatterlist of many uneven entries (the signature split
/// across entries too, one entry holding the end of the signature and the start of the
/// message), verifies; the same with one message bit flipped does not. (6.12: 7.x's sig
/// interface takes flat buffers.)
#[cfg(linux_6_12)]
fn multi_entry_scatterlist() {
    let k = &kat::ML_DSA_65_LONG;
    let tfm = tfm_with_key!(c"mldsa65", k);
    let mut all = KVec::with_capacity(k.sig.len() + k.msg.len(), GFP_KERNEL).unwrap();
    all.extend_from_slice(k.sig, GFP_KERNEL).unwrap();
    all.extend_from_slice(k.msg, GFP_KERNEL).unwrap();
    for flip in [None, Some(k.sig.len() + 3000)] {
        if let Some(i) = flip {
            all[i] ^= 0x10;
        }
        let pieces = uneven_pieces(&all);
        check!(pieces.len() > 6);
        let want = if flip.is_some() {
            neg(bindings::EKEYREJECTED)
        } else {
            0
        };
        check!(tfm.verify_sg(&pieces, k.sig.len(), k.msg.len()) == want);
    }
}

/// `all` cut into pieces of 1, 10, 37, 118, ... bytes.
#[cfg(linux_6_12)]
fn uneven_pieces(all: &[u8]) -> KVec<&[u8]> {
    let mut pieces = KVec::new();
    let (mut at, mut n) = (0, 1);
    while at < all.len() {
        let end = (at + n).min(all.len());
        pieces.push(&all[at..end], GFP_KERNEL).unwrap();
        at = end;
        n = n * 3 + 7;
    }
    pieces
}

/// The vectors of `kunit_vectors.rs`, over a thousand known answers with one byte changed
/// (every byte of each hint; bits of c~, z, the message and the key), give their results
/// through the crypto API and through `mldsa_verify()`; on 6.12 also with the signature and
/// message in a scatterlist of uneven entries at odd addresses.
fn mutated_vectors() {
    for (i, ((name, _, k), alg)) in SETS.into_iter().zip(ALGS).enumerate() {
        let mut tfm = tfm_with_key!(name, k);
        let mut all = KVec::from_elem(0u8, k.sig.len() + k.msg.len(), GFP_KERNEL).unwrap();
        let mut pk = KVec::from_elem(0u8, k.pk.len(), GFP_KERNEL).unwrap();
        for m in MUTATIONS.iter().filter(|m| m.set == i) {
            all[..k.sig.len()].copy_from_slice(k.sig);
            all[k.sig.len()..].copy_from_slice(k.msg);
            pk.copy_from_slice(k.pk);
            match m.part {
                Part::Sig => all[m.at] ^= m.xor,
                Part::Msg => all[k.sig.len() + m.at] ^= m.xor,
                Part::Pk => pk[m.at] ^= m.xor,
            }
            let (sig, msg) = all.split_at(k.sig.len());
            let want = match m.want {
                Want::Accept => 0,
                Want::Reject => neg(bindings::EKEYREJECTED),
                Want::Malformed => neg(bindings::EBADMSG),
            };
            if m.part == Part::Pk {
                check!(tfm.set_pub_key(&pk) == 0);
            }
            let lib = lib_verify(alg, sig, msg, &pk);
            let api = tfm.verify(sig, msg);
            #[cfg(linux_6_12)]
            let sg = tfm.verify_sg(&uneven_pieces(&all), sig.len(), msg.len());
            #[cfg(not(linux_6_12))]
            let sg = api; // 7.x's crypto_sig takes flat buffers.
            if [api, sg, lib] != [want; 3] {
                let (at, xor) = (m.at, m.xor);
                pr_err!("{name:?} byte {at} ^ {xor:#x}: {api}, {sg}, {lib}, not {want}\n");
            }
            check!([api, sg, lib] == [want; 3]);
            if m.part == Part::Pk {
                check!(tfm.set_pub_key(k.pk) == 0);
            }
        }
    }
}

/// The self-test passes on the module's known answers and fails, so that init would stop
/// before registering anything, when one of them is corrupted.
fn selftest_detects_corruption() {
    check!(selftest::run(&selftest::KATS).is_ok());
    pr_info!("selftest_detects_corruption: two self-test failures are expected next\n");
    let bad_msg = Kat {
        msg: b"corrupted",
        ..kat::ML_DSA_65
    };
    let bad_pk = Kat {
        pk: kat::ML_DSA_87.pk,
        ..kat::ML_DSA_44
    };
    for bad in [
        [&kat::ML_DSA_44, &bad_msg, &kat::ML_DSA_87],
        [&bad_pk, &kat::ML_DSA_65, &kat::ML_DSA_87],
    ] {
        check!(selftest::run(&bad) == Err(ELIBBAD));
    }
}

/// `s` as the C string pointer bindings take (the kernel's `char` is unsigned).
fn c_ptr(s: &CStr) -> *const u8 {
    #[cfg(linux_6_12)]
    return s.as_ptr().cast();
    #[cfg(not(linux_6_12))]
    s.as_char_ptr()
}

/// Marks the running case skipped, with `why` as its KTAP comment.
fn skip(why: &CStr) {
    // SAFETY: Called from a running case, whose `struct kunit` outlives it; nothing else
    // writes it while the case runs.
    let test = unsafe { &mut *bindings::kunit_get_current_test() };
    test.status = bindings::kunit_status_KUNIT_SKIPPED;
    for (d, &c) in test.status_comment.iter_mut().zip(why.to_bytes_with_nul()) {
        *d = c;
    }
}

/// The AVX2 routines equal the portable code on random inputs: modulo q for the NTTs (inputs
/// in (-q, q), and for the inverse up to 255q, reduced first), and bit for bit for the
/// pointwise product of packed polynomials, the packing, w1Encode of HighBits, the 4-way
/// Keccak-f\[1600\] against portable permutations, and ExpandA's rejection sampling with
/// multiply-accumulate. Skipped on a CPU without AVX2 (QEMU `-cpu max` has it), where only
/// the portable code runs.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
fn avx2_matches_portable() {
    use crate::simd::avx2;

    if !avx2::usable() {
        skip(c"no AVX2 on this CPU: the portable code runs");
        return;
    }
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..300 {
        avx2_ntts_match(&mut rng);
        avx2_pointwise_matches(&mut rng);
        avx2_pack_matches(&mut rng);
        avx2_w1_encode_matches(&mut rng);
    }
    keccak_x4_matches(&mut rng, false);
    avx2_rej_ntt_matches(&mut rng);
}

// The checks of `avx2_matches_portable`, each in its own stack frame: together, their
// buffers would not fit in a kernel stack.

/// The NTT and the inverse NTT, modulo q, inputs in (-q, q) and for the inverse up to
/// 255q, reduced first.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
fn avx2_ntts_match(rng: &mut XorShift) {
    use crate::simd::avx2;

    let canonical = |a: &Poly| a.map(|c| c.rem_euclid(Q));
    let (a, b) = (rng.poly(), rng.poly().map(|c| c * 255));
    let mut got = [a, b];
    let mut want = [a, b.map(ntt::reduce32)];
    check!(avx2::run(|s| {
        let [x, y] = &mut got;
        s.ntt(x);
        s.invntt_tomont(y);
    })
    .is_some());
    ntt::ntt(&mut want[0]);
    ntt::invntt_tomont(&mut want[1]);
    check!(got.iter().map(canonical).eq(want.iter().map(canonical)));
    check!(got[1].iter().all(|c| c.abs() < Q));
}

/// The pointwise product, bit for bit, on packed operands in [0, q) with junk in the spare
/// bytes.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
fn avx2_pointwise_matches(rng: &mut XorShift) {
    use crate::params::PackedPoly;
    use crate::simd::avx2;

    let (mut pa, mut pb): (PackedPoly, PackedPoly) = ([0; 3 * N + 1], [0; 3 * N + 1]);
    rng.fill(&mut pa);
    rng.fill(&mut pb);
    for k in 0..N {
        let (x, y) = (rng.coeff().abs(), rng.coeff().abs());
        pa[3 * k..3 * k + 3].copy_from_slice(&x.to_le_bytes()[..3]);
        pb[3 * k..3 * k + 3].copy_from_slice(&y.to_le_bytes()[..3]);
    }
    let (mut got, mut want) = ([0; N], [0; N]);
    check!(avx2::run(|s| s.pointwise(&mut got, &pa, &pb)).is_some());
    crate::poly::pointwise(&mut want, &pa, &pb);
    check!(got == want);
}

/// Packing, bit for bit, into a junk buffer, from the input range (-q, 2^31 - 2^22): odd
/// coefficients of (-q, q) are spread over [0, 2^31 - 2^22).
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
fn avx2_pack_matches(rng: &mut XorShift) {
    use crate::params::PackedPoly;
    use crate::simd::avx2;

    let a = rng.poly().map(|c| {
        if c & 1 == 0 {
            c
        } else {
            c.wrapping_mul(256) & 0x7fbf_ffff
        }
    });
    let (mut got, mut want): (PackedPoly, PackedPoly) = ([0; 3 * N + 1], [0; 3 * N + 1]);
    rng.fill(&mut got);
    check!(avx2::run(|s| s.pack(&a, &mut got)).is_some());
    crate::poly::pack(&a, &mut want);
    check!(got == want);
}

/// w1Encode of HighBits, bit for bit, both gamma2, into a junk buffer.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
fn avx2_w1_encode_matches(rng: &mut XorShift) {
    use crate::simd::avx2;

    let w = rng.poly();
    for (gamma2, len) in [((Q - 1) / 88, 192), ((Q - 1) / 32, 128)] {
        let (mut got, mut want) = ([0; 192], [0; 192]);
        rng.fill(&mut got);
        let got = &mut got[..len];
        check!(avx2::run(|s| s.w1_encode(gamma2, &w, got)).is_some());
        crate::poly::w1_encode(gamma2, &w, &mut want[..len]);
        check!(*got == want[..len]);
    }
}

/// ExpandA's sampling: the AVX2 routine takes a block's first groups, the portable code the
/// rest, as the arch seam does in a verification; the result must be the portable one.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
#[inline(never)]
fn avx2_rej_ntt_matches(rng: &mut XorShift) {
    use crate::keccak::{StateX4, SHAKE128_RATE};
    use crate::params::PackedPoly;
    use crate::simd::avx2;
    use crate::{arch, poly};

    let mut st: StateX4 = [[0; 32]; 25];
    let mut zhat: PackedPoly = [0; 3 * N + 1];
    for i in 0..2000 {
        st.iter_mut().for_each(|row| rng.fill(row));
        let t = i % 4;
        // Make about half the candidates of state t at least q - 1, so mostly rejected.
        for k in (0..SHAKE128_RATE).step_by(3) {
            if rng.next() & 1 == 1 {
                st[(k + 1) / 8][8 * t + (k + 1) % 8] |= 0xe0;
                st[(k + 2) / 8][8 * t + (k + 2) % 8] |= 0x7f;
            }
        }
        for k in 0..N {
            let c = (rng.next() % Q as u64) as u32;
            zhat[3 * k..3 * k + 3].copy_from_slice(&c.to_le_bytes()[..3]);
        }
        let m = (rng.next() % (N as u64 + 1)) as usize;
        let w = rng.poly();
        let (mut got, mut got_m, mut want, mut want_m) = (w, m, w, m);
        let taken = avx2::run(|s| s.rej_ntt_mul_acc(&mut got, &zhat, &st, t, &mut got_m));
        check!(taken.is_some_and(|n| n > 0) || m > N - 8);
        poly::rej_ntt_mul_acc(&mut got, &zhat, &st, t, &mut got_m, taken.unwrap_or(0));
        poly::rej_ntt_mul_acc(&mut want, &zhat, &st, t, &mut want_m, 0);
        check!(got_m == want_m && got == want);
        let (mut seam, mut seam_m) = (w, m);
        arch::rej_ntt_mul_acc(&mut seam, &zhat, &st, t, &mut seam_m);
        check!(seam_m == want_m && seam == want);
    }
}

/// The AVX-512VL 4-way Keccak-f\[1600\] equals four portable permutations on random states.
/// Skipped on a CPU without AVX-512VL (QEMU's emulation has none), where the AVX2 one runs.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
fn avx512_matches_portable() {
    use crate::simd::avx2;

    if !avx2::avx512() {
        skip(c"no AVX-512VL on this CPU: the AVX2 Keccak runs");
        return;
    }
    keccak_x4_matches(&mut XorShift(0x7f4a_7c15_9e37_79b9), true);
}

/// Checks that the 4-way Keccak-f\[1600\] routine, the AVX-512VL one if `avx512`, equals four
/// portable permutations on 1000 random states.
#[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
fn keccak_x4_matches(rng: &mut XorShift, avx512: bool) {
    use crate::keccak::{keccak_f1600, StateX4};
    use crate::simd::avx2;

    let mut st: StateX4 = [[0; 32]; 25];
    for _ in 0..1000 {
        st.iter_mut().for_each(|row| rng.fill(row));
        let mut want = st;
        for s in 0..4 {
            keccak_f1600(&mut want, s);
        }
        check!(avx2::run_with(avx512, |s| s.keccak_f1600_x4(&mut st)).is_some());
        check!(st == want);
    }
}

/// Reads the stack pointer and disables interrupts; returns both the pointer and the
/// flags to give back to [`irq_restore`].
#[cfg(all(target_arch = "x86_64", not(CONFIG_KASAN)))]
fn sp_and_irq_save() -> (usize, usize) {
    let (sp, flags): (usize, usize);
    // SAFETY: Reads the stack pointer and saves the flags, then disables interrupts, as
    // `local_irq_save()` does on x86_64 without paravirt; [`irq_restore`] restores them.
    unsafe {
        core::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack));
        core::arch::asm!("pushfq", "pop {}", "cli", out(reg) flags, options(nomem));
    }
    (sp, flags)
}

/// Restores the flags that [`sp_and_irq_save`] returned.
#[cfg(all(target_arch = "x86_64", not(CONFIG_KASAN)))]
fn irq_restore(flags: usize) {
    // SAFETY: Restores the flags saved by `sp_and_irq_save`, as `local_irq_restore()` does.
    unsafe { core::arch::asm!("push {}", "popfq", in(reg) flags, options(nomem)) };
}

/// Reads the stack pointer (%r15) and disables interrupts; returns both the pointer and
/// the saved PSW system mask (in the top byte) to give back to [`irq_restore`].
#[cfg(all(target_arch = "s390x", not(CONFIG_KASAN)))]
fn sp_and_irq_save() -> (usize, usize) {
    let sp: usize;
    let mut mask: usize = 0;
    // SAFETY: Reads %r15; STNSM stores the PSW system mask into the first (most
    // significant) byte of `mask` and clears the I/O and external interrupt bits, as
    // `arch_local_irq_save()` does.
    unsafe {
        core::arch::asm!("lgr {}, %r15", out(reg) sp, options(nomem, nostack));
        core::arch::asm!("stnsm 0({}), 0xfc", in(reg_addr) &raw mut mask, options(nostack));
    }
    (sp, mask)
}

/// Restores the interrupt state that [`sp_and_irq_save`] saved.
#[cfg(all(target_arch = "s390x", not(CONFIG_KASAN)))]
fn irq_restore(mask: usize) {
    // ARCH_IRQ_ENABLED: the I/O and external interrupt bits of the system mask.
    if mask & (3 << 56) != 0 {
        let mut old: usize = 0;
        // SAFETY: Re-enables I/O and external interrupts, which were enabled when
        // saved, as `arch_local_irq_restore()` does.
        unsafe {
            core::arch::asm!("stosm 0({}), 0x03", in(reg_addr) &raw mut old, options(nostack))
        };
    }
}

/// The s390 vector-facility NTTs equal the portable code word for word on random inputs in
/// (-q, q), the range both take. Skipped without the facility (QEMU `-cpu max` has it).
#[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
fn vx_matches_portable() {
    use crate::simd::vx;

    if !vx::usable() {
        skip(c"no vector facility on this machine: the portable code runs");
        return;
    }
    let mut rng = XorShift(0x5339_0078_0d1c_e5a1);
    for _ in 0..2000 {
        let a = rng.poly();
        let (mut got, mut want) = ([a, a], [a, a]);
        let ran = vx::run(|v| {
            v.ntt(&mut got[0]);
            v.invntt_tomont(&mut got[1]);
        });
        check!(ran.is_some());
        ntt::ntt(&mut want[0]);
        ntt::invntt_tomont(&mut want[1]);
        check!(got == want);
    }
}

/// Bytes of stack that `f` uses below the caller's stack pointer: paints the 4 KiB under
/// it, runs `f`, and finds the deepest word `f` overwrote. Interrupts are off meanwhile (an
/// interrupt entry would write its frame on this stack), so `f` must not sleep. Not built
/// with KASAN, where the cases that use it are skipped (see the list in `suite!`).
#[cfg(not(CONFIG_KASAN))]
fn stack_used(f: impl FnOnce()) -> usize {
    const WINDOW: usize = 4096;
    const PAINT: u64 = 0x5354_4143_4b50_4e54;
    let (sp, flags) = sp_and_irq_save();
    let base = ((sp - WINDOW) & !7) as *mut u64;
    let words = (sp - base as usize) / 8 - 8;
    for i in 0..words {
        // SAFETY: The 4 KiB below the stack pointer are unused stack of this kthread (its
        // stack is 16 KiB and a KUnit case runs well above its bottom): nothing lives there
        // and no call is made while painting.
        unsafe { base.add(i).write_volatile(PAINT) };
    }
    f();
    // SAFETY: The words painted above, still unused stack of this kthread; only reads.
    let untouched = (0..words)
        .take_while(|&i| unsafe { base.add(i).read_volatile() } == PAINT)
        .count();
    irq_restore(flags);
    sp - (base as usize + untouched * 8)
}

/// Bytes of kernel stack a verification may use: 1 KiB on x86_64. On s390x every call level
/// has a register save area (the packed stack frame of `-mpacked-stack`), so 1.5 KiB there.
#[cfg(not(CONFIG_KASAN))]
const STACK_LIMIT: usize = if cfg!(target_arch = "s390x") {
    1536
} else {
    1024
};

/// A verification through the crypto API uses at most [`STACK_LIMIT`] bytes of kernel stack:
/// the akcipher call, the module's `verify`, the scatterlist walk, SHAKE and Keccak-f included.
#[cfg(all(linux_6_12, not(CONFIG_KASAN)))]
fn verify_stack_usage() {
    for (name, _, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        let mut used = 0;
        let rc = tfm.with_request(&[k.sig, k.msg], k.sig.len(), k.msg.len(), |req| {
            let mut rc = 0;
            // SAFETY: `req` is a prepared request on `tfm`; its verification never sleeps.
            used = stack_used(|| rc = unsafe { bindings::crypto_akcipher_verify(req) });
            rc
        });
        check!(rc == 0);
        pr_info!(
            "{}: verify used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}

/// A verification of the sig binding uses at most [`STACK_LIMIT`] bytes of kernel stack: the
/// module's `verify` under the tfm's lock, SHAKE and Keccak-f included. (Measured below the
/// lock, which may sleep, while `stack_used` runs with interrupts off.)
#[cfg(all(not(linux_6_12), not(CONFIG_KASAN)))]
fn verify_stack_usage() {
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};
    for (used, (name, _, _)) in [
        sig_stack_used::<MlDsa44>(&kat::ML_DSA_44),
        sig_stack_used::<MlDsa65>(&kat::ML_DSA_65),
        sig_stack_used::<MlDsa87>(&kat::ML_DSA_87),
    ]
    .into_iter()
    .zip(SETS)
    {
        pr_info!(
            "{}: verify used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}

/// Stack bytes of [`crate::alg::MlDsa::verify_slices`] on `k`, or a failed case.
#[cfg(all(not(linux_6_12), not(CONFIG_KASAN)))]
fn sig_stack_used<S: crate::alg::AlgSet>(k: &Kat) -> usize {
    use crate::alg::{Key, MlDsa, Scratch};
    use kernel::crypto::sig::SigAlg;
    let key = KBox::init(crate::init_zeroed::<Key<S>>(), GFP_KERNEL);
    let scratch = KBox::init(crate::init_zeroed::<Scratch<S>>(), GFP_KERNEL);
    check!(key.is_ok() && scratch.is_ok());
    let (mut key, mut scratch) = (key.unwrap(), scratch.unwrap());
    check!(MlDsa::<S>::set_pub_key(&mut key, k.pk).is_ok());
    let mut rc = Err(EINVAL);
    let used = stack_used(|| rc = MlDsa::verify_slices(&key, &mut scratch, k.sig, k.msg));
    check!(rc.is_ok());
    used
}

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
fn concurrent_requests() {
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

/// `benchmark_mldsaNN`: verifies per second through the crypto API, after a warm-up.
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn benchmark(name: &CStr, k: &Kat) {
    const WARMUP: u32 = 20;
    const ITERS: u32 = 200;
    let tfm = tfm_with_key!(name, k);
    for _ in 0..WARMUP {
        check!(tfm.verify(k.sig, k.msg) == 0);
    }
    // SAFETY: `ktime_get` may be called from any context.
    let t0 = unsafe { bindings::ktime_get() };
    for _ in 0..ITERS {
        check!(tfm.verify(k.sig, k.msg) == 0);
    }
    // SAFETY: `ktime_get` may be called from any context.
    let ns = (unsafe { bindings::ktime_get() } - t0).max(1) as u64;
    pr_info!(
        "{}: {} verifications/s, {} code ({} in {} us; under emulation such as QEMU TCG this is not hardware speed)\n",
        name.to_str().unwrap_or("?"),
        u64::from(ITERS) * 1_000_000_000 / ns,
        crate::simd::name(),
        ITERS,
        ns / 1000
    );
}

/// Starts an instruction-count interval labelled `L`: a no-op that the QEMU plugin
/// `tools/insn-count/mldsa-insns.c` recognises (`nopl 0x5344LLLL(%rax)`, `brcl 0,0x5344LLLL`).
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
#[inline(always)]
fn insns_start<const L: u16>() {
    // SAFETY: A no-op that touches no memory, register or flag.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            ".byte 0x0f, 0x1f, 0x80, {lo}, {hi}, 0x44, 0x53",
            lo = const L & 0xff,
            hi = const L >> 8,
            options(nomem, nostack, preserves_flags)
        )
    };
    // SAFETY: As above: a branch with an empty condition mask.
    #[cfg(target_arch = "s390x")]
    unsafe {
        core::arch::asm!(
            ".byte 0xc0, 0x04, 0x53, 0x44, {hi}, {lo}",
            lo = const L & 0xff,
            hi = const L >> 8,
            options(nomem, nostack, preserves_flags)
        )
    };
}

/// Ends an instruction-count interval (`nopl 0x53450000(%rax)`, `brcl 0,0x53450000`).
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
#[inline(always)]
fn insns_stop() {
    // SAFETY: A no-op that touches no memory, register or flag.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            ".byte 0x0f, 0x1f, 0x80, 0, 0, 0x45, 0x53",
            options(nomem, nostack, preserves_flags)
        )
    };
    // SAFETY: As above.
    #[cfg(target_arch = "s390x")]
    unsafe {
        core::arch::asm!(
            ".byte 0xc0, 0x04, 0x53, 0x45, 0, 0",
            options(nomem, nostack, preserves_flags)
        )
    };
}

/// Runs `f`, which must give 0, eight times, each between the markers of interval `L`.
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn counted<const L: u16>(mut f: impl FnMut() -> c_int) {
    for _ in 0..8 {
        insns_start::<L>();
        let r = f();
        insns_stop();
        check!(r == 0);
    }
}

/// The verifications of set `NN` that `count_instructions` counts, labelled `NN << 4 | i`:
/// i = 0 the C `mldsa_verify()` where `lib/crypto/mldsa.c` provides it, 1 and 2 this
/// module one-shot (`mldsa_verify_noalloc()`, the key decoded each time) on the portable
/// code and on all the arch code, 3 and 4 the same with a key decoded once
/// (`mldsa_verify_ctx()`).
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
macro_rules! count_set {
    ($nn:literal, $k:expr, $alg:expr) => {{
        use crate::simd::{at_level, Level};
        let (k, alg): (&Kat, _) = (&$k, $alg);
        let (sig, msg, pk) = (k.sig, k.msg, k.pk);
        let buf = KBox::<bindings::mldsa_verify_buf>::new_uninit(GFP_KERNEL);
        check!(buf.is_ok());
        let mut buf = buf.unwrap();
        #[cfg(CONFIG_CRYPTO_LIB_MLDSA_GENERIC)]
        counted::<{ $nn << 4 }>(|| lib_verify(alg, sig, msg, pk));
        let mut one_shot = || lib_verify_noalloc(&mut buf, alg, sig, msg, pk);
        at_level(Level::Portable, || {
            counted::<{ $nn << 4 | 1 }>(&mut one_shot)
        });
        counted::<{ $nn << 4 | 2 }>(&mut one_shot);
        let buf = buf.as_mut_ptr();
        // SAFETY: `buf` is valid for writes; only the fields' addresses are taken.
        let (key, ws) = unsafe { (&raw mut (*buf).key, &raw mut (*buf).ws) };
        // SAFETY: `key` and `ws` are ours, of the right types and alignment.
        let rc = unsafe { bindings::mldsa_pubkey_init(key, alg, pk.as_ptr(), pk.len(), ws) };
        check!(rc == 0);
        let prepared = || {
            // SAFETY: `key` holds a decoded key and `ws` is ours; the inputs are readable
            // for the lengths given.
            unsafe {
                bindings::mldsa_verify_ctx(
                    key,
                    sig.as_ptr(),
                    sig.len(),
                    msg.as_ptr(),
                    msg.len(),
                    core::ptr::null(),
                    0,
                    ws,
                )
            }
        };
        at_level(Level::Portable, || counted::<{ $nn << 4 | 3 }>(prepared));
        counted::<{ $nn << 4 | 4 }>(prepared);
    }};
}

/// `count_instructions`: each verification of `count_set!` eight times between the markers
/// that the QEMU plugin `tools/insn-count/mldsa-insns.c` counts the instructions between
/// (`./tools/test` takes the least of each eight, free of interrupts). Without the plugin,
/// it only checks that each verifies.
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn count_instructions() {
    count_set!(44, kat::ML_DSA_44, ALGS[0]);
    count_set!(65, kat::ML_DSA_65, ALGS[1]);
    count_set!(87, kat::ML_DSA_87, ALGS[2]);
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn benchmark_mldsa44() {
    benchmark(c"mldsa44", &kat::ML_DSA_44);
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn benchmark_mldsa65() {
    benchmark(c"mldsa65", &kat::ML_DSA_65);
}

/// The library interface's `mldsa_verify_noalloc()`, called as C calls it, uses at most
/// [`STACK_LIMIT`] bytes of kernel stack as well; its memory is the caller's.
#[cfg(not(CONFIG_KASAN))]
fn library_stack_usage() {
    let buf = KBox::<bindings::mldsa_verify_buf>::new_uninit(GFP_KERNEL);
    check!(buf.is_ok());
    let mut buf = buf.unwrap();
    for ((name, _, k), alg) in SETS.into_iter().zip(ALGS) {
        let mut rc = -1;
        // The call does not sleep, as `stack_used` needs.
        let used = stack_used(|| rc = lib_verify_noalloc(&mut buf, alg, k.sig, k.msg, k.pk));
        check!(rc == 0);
        pr_info!(
            "{}: mldsa_verify_noalloc used {used} bytes of stack\n",
            name.to_str().unwrap_or("?")
        );
        check!(used <= STACK_LIMIT);
    }
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
fn benchmark_mldsa87() {
    benchmark(c"mldsa87", &kat::ML_DSA_87);
}

/// Declares the suite `mldsa_rust` of the case functions listed: with `#[kunit_tests]` on
/// 7.x, and on 6.12, which has no such macro, laid out the way `KUNIT_CASE()` and
/// `kunit_test_suite()` lay it out in C. A case listed `if cfg else why` runs where `cfg`
/// holds, and elsewhere is skipped with the comment `why`.
macro_rules! suite {
    ($($case:ident $(if $cfg:meta else $why:literal)?,)*) => {
        #[cfg(not(linux_6_12))]
        #[kunit_tests(mldsa_rust)]
        mod cases {
            $(
                #[test]
                fn $case() {
                    $(#[cfg(not($cfg))] super::skip($why);)?
                    $(#[cfg($cfg)])? super::$case();
                }
            )*
        }

        #[cfg(linux_6_12)]
        mod cases {
            use core::ptr::addr_of_mut;
            use kernel::bindings;

            $(
                extern "C" fn $case(_test: *mut bindings::kunit) {
                    $(#[cfg(not($cfg))] super::skip($why);)?
                    $(#[cfg($cfg)])? super::$case();
                }
            )*

            /// A `KUNIT_CASE()` of `run`, named `name` (with its NUL).
            const fn case(
                name: &'static str,
                run: extern "C" fn(*mut bindings::kunit),
            ) -> bindings::kunit_case {
                // SAFETY: `kunit_case` is plain C data for which all-zero bytes are a valid
                // value: null pointers, `None` function pointers and the zero variant of each
                // enum.
                let mut case: bindings::kunit_case = unsafe { core::mem::zeroed() };
                case.run_case = Some(run);
                case.name = name.as_ptr();
                case
            }

            static mut CASES: [bindings::kunit_case; [$(stringify!($case)),*].len() + 1] = [
                $(case(concat!(stringify!($case), "\0"), $case),)*
                // SAFETY: An all-zero case terminates the array, as `{}` does in C.
                unsafe { core::mem::zeroed() },
            ];

            /// The suite, named like the module.
            static mut SUITE: bindings::kunit_suite = {
                // SAFETY: `kunit_suite` is plain C data for which all-zero bytes are a valid
                // value.
                let mut suite: bindings::kunit_suite = unsafe { core::mem::zeroed() };
                let name = b"mldsa_rust";
                let mut i = 0;
                while i < name.len() {
                    suite.name[i] = name[i];
                    i += 1;
                }
                suite.test_cases = addr_of_mut!(CASES).cast();
                suite
            };

            /// What `kunit_test_suite()` emits: KUnit runs every suite listed in this section
            /// (built-in suites at boot, a module's suites when it is loaded).
            #[used]
            #[link_section = ".kunit_test_suites"]
            static mut SUITE_PTR: *mut bindings::kunit_suite = addr_of_mut!(SUITE);
        }
    };
}

suite! {
    ntt_mul_matches_schoolbook,
    reduce_matches_i64,
    alloc_by_name,
    bit_flips_rejected,
    wrong_lengths_refused,
    malformed_z_and_hints,
    mutated_vectors,
    multi_entry_scatterlist if linux_6_12 else c"7.x's crypto_sig takes flat buffers",
    selftest_detects_corruption,
    concurrent_requests,
    // KASAN's instrumentation grows the frames (as FRAME_WARN's KASAN default allows for):
    // the budget is that of the builds without it, measured in the other boots.
    verify_stack_usage if not(CONFIG_KASAN) else c"KASAN grows stack frames",
    library_stack_usage if not(CONFIG_KASAN) else c"KASAN grows stack frames",
    avx2_matches_portable if CONFIG_CRYPTO_MLDSA_AVX2 else c"no AVX2 code in this build",
    avx512_matches_portable if CONFIG_CRYPTO_MLDSA_AVX2 else c"no AVX2 code in this build",
    vx_matches_portable if CONFIG_CRYPTO_MLDSA_S390_VX else c"no s390 vector code in this build",
    benchmark_mldsa44 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"CONFIG_CRYPTO_MLDSA_BENCHMARK is off",
    benchmark_mldsa65 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"CONFIG_CRYPTO_MLDSA_BENCHMARK is off",
    benchmark_mldsa87 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"CONFIG_CRYPTO_MLDSA_BENCHMARK is off",
    count_instructions if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"CONFIG_CRYPTO_MLDSA_BENCHMARK is off",
}
