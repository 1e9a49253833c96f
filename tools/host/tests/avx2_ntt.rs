//! The AVX2 NTT routines of arch/x86/ntt_avx2.S against the portable ntt.rs: equal modulo
//! q, within their stated output bounds, for random and extreme inputs. The inverse also
//! takes the wider range of `reduce32`, which it applies first.
#![cfg(target_arch = "x86_64")]

use mldsa_host::ntt::{invntt_tomont, ntt, reduce32};
use mldsa_host::params::Poly;
use mldsa_host::params::{N, Q};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

extern "C" {
    fn mldsa_ntt_avx2(a: *mut i32);
    fn mldsa_invntt_avx2(a: *mut i32);
}

/// The bound on |mldsa_ntt_avx2's output| stated in ntt_avx2.S (about 5.03q).
const NTT_BOUND: u32 = 42082244;

/// The bound on |mldsa_invntt_avx2 output|: strictly below q.
const BELOW_Q: u32 = Q as u32 - 1;

const RANDOM_CASES: usize = 100_000;

/// Whether the CPU can run the routines. Without AVX2 the tests fail, unless
/// MLDSA_ALLOW_NO_AVX2 is set, in which case they pass without running.
fn have_avx2() -> bool {
    if std::is_x86_feature_detected!("avx2") {
        return true;
    }
    assert!(
        std::env::var_os("MLDSA_ALLOW_NO_AVX2").is_some(),
        "this CPU lacks AVX2, so the AVX2 routines cannot be tested \
         (set MLDSA_ALLOW_NO_AVX2 to skip them)"
    );
    eprintln!("no AVX2: skipped");
    false
}

fn ntt_avx2(a: &mut [i32]) {
    assert!(a.len() == N && std::is_x86_feature_detected!("avx2"));
    // SAFETY: a is N = 256 writable i32s, all the routine reads and writes (it needs no
    // more than i32 alignment), and the CPU has AVX2 (both checked just above).
    unsafe { mldsa_ntt_avx2(a.as_mut_ptr()) }
}

fn invntt_avx2(a: &mut [i32]) {
    assert!(a.len() == N && std::is_x86_feature_detected!("avx2"));
    // SAFETY: as in ntt_avx2.
    unsafe { mldsa_invntt_avx2(a.as_mut_ptr()) }
}

/// The representative in [0, q), for any i32.
fn canon(a: i32) -> i64 {
    (a as i64).rem_euclid(Q as i64)
}

fn assert_eq_mod_q(got: &[i32], want: &[i32], what: &str, input: &[i32]) {
    for i in 0..N {
        assert_eq!(
            canon(got[i]),
            canon(want[i]),
            "{what}: coefficient {i} ({} vs {}) for input {input:?}",
            got[i],
            want[i]
        );
    }
}

fn assert_abs_at_most(a: &[i32], max: u32, what: &str, input: &[i32]) {
    for (i, &x) in a.iter().enumerate() {
        assert!(
            x.unsigned_abs() <= max,
            "{what}: coefficient {i} = {x} outside [-{max}, {max}] for input {input:?}"
        );
    }
}

/// The inputs every test starts with: constant ±(q - 1), alternating ±(q - 1), zero.
fn edge_inputs() -> Vec<Poly> {
    let m = Q - 1;
    vec![
        [m; N],
        [-m; N],
        core::array::from_fn(|i| if i % 2 == 0 { m } else { -m }),
        core::array::from_fn(|i| if i % 2 == 0 { -m } else { m }),
        [0; N],
    ]
}

/// Edge inputs, then random ones: half uniform in [-(q - 1), q - 1], half each
/// coefficient ±(q - 1) (the extremes, where the bounds are tightest).
fn inputs(seed: u64) -> impl Iterator<Item = Poly> {
    let mut rng = StdRng::seed_from_u64(seed);
    edge_inputs()
        .into_iter()
        .chain((0..RANDOM_CASES).map(move |n| {
            core::array::from_fn(|_| {
                if n % 2 == 0 {
                    rng.gen_range(-(Q - 1)..=Q - 1)
                } else if rng.gen() {
                    Q - 1
                } else {
                    -(Q - 1)
                }
            })
        }))
}

#[test]
fn ntt_matches_portable() {
    if !have_avx2() {
        return;
    }
    for input in inputs(1) {
        let mut want = input;
        ntt(&mut want);
        let mut got = input;
        ntt_avx2(&mut got);
        assert_eq_mod_q(&got, &want, "ntt", &input);
        assert_abs_at_most(&got, NTT_BOUND, "ntt", &input);
    }
}

/// The inverse's input range: any i32 below 2^31 - 2^22, which reduce32 takes.
const WIDE: core::ops::Range<i32> = i32::MIN..i32::MAX - (1 << 22) + 1;

/// The inputs of `inputs`, then constant and alternating ends of `WIDE`, then random ones
/// uniform in `WIDE`.
fn wide_inputs(seed: u64) -> impl Iterator<Item = Poly> {
    let (lo, hi) = (WIDE.start, WIDE.end - 1);
    let mut rng = StdRng::seed_from_u64(seed);
    inputs(seed)
        .chain([
            [lo; N],
            [hi; N],
            core::array::from_fn(|i| if i % 2 == 0 { lo } else { hi }),
        ])
        .chain((0..RANDOM_CASES).map(move |_| core::array::from_fn(|_| rng.gen_range(WIDE))))
}

/// ntt.rs reduce32 on each coefficient, then ntt.rs invntt_tomont.
fn reduce_invntt(a: &mut Poly) {
    a.iter_mut().for_each(|c| *c = reduce32(*c));
    invntt_tomont(a);
}

#[test]
fn invntt_matches_portable() {
    if !have_avx2() {
        return;
    }
    for input in wide_inputs(2) {
        let mut want = input;
        reduce_invntt(&mut want);
        let mut got = input;
        invntt_avx2(&mut got);
        assert_eq_mod_q(&got, &want, "invntt", &input);
        assert_abs_at_most(&got, BELOW_Q, "invntt", &input);
    }
}

/// The routines need no alignment beyond i32's: run each at every 4-byte offset within a
/// 32-byte line, checking too that they write nothing outside their array.
#[test]
fn unaligned_arrays() {
    if !have_avx2() {
        return;
    }
    const GUARD: i32 = 0x5a5a_5a5a;
    let untouched = |buf: &[i32], off: usize, what: &str| {
        let mut outside = buf[..off].iter().chain(&buf[off + N..]);
        assert!(outside.all(|&x| x == GUARD), "{what} wrote outside");
    };
    let mut rng = StdRng::seed_from_u64(4);
    let mut buf = [GUARD; N + 8];
    for off in 0..8 {
        buf.fill(GUARD);
        let a: Poly = core::array::from_fn(|_| rng.gen_range(-(Q - 1)..=Q - 1));

        let mut want = a;
        ntt(&mut want);
        buf[off..off + N].copy_from_slice(&a);
        ntt_avx2(&mut buf[off..off + N]);
        assert_eq_mod_q(&buf[off..off + N], &want, "unaligned ntt", &a);
        untouched(&buf, off, "ntt");

        let mut want = a;
        reduce_invntt(&mut want);
        buf[off..off + N].copy_from_slice(&a);
        invntt_avx2(&mut buf[off..off + N]);
        assert_eq_mod_q(&buf[off..off + N], &want, "unaligned invntt", &a);
        untouched(&buf, off, "invntt");
    }
}
