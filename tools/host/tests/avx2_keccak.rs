//! The 4-way Keccak-f[1600] routines, AVX2 (`arch/x86/keccak_x4_avx2.S`) and AVX-512VL
//! (`arch/x86/keccak_x4_avx512.S`), against the `keccak` crate applied to each of the four
//! states separately, and the SHA-3 library's single-state BMI2 one (of `tools/patches/7.3`)
//! against the `keccak` crate.
//!
//! Fails if the CPU lacks AVX2 (or BMI1 and BMI2, which every CPU with AVX2 has) or
//! AVX-512VL, unless `MLDSA_ALLOW_NO_AVX2` or `MLDSA_ALLOW_NO_AVX512` is set.

#![cfg(target_arch = "x86_64")]

// The assembly is built by build.rs into mldsa_host's library, which this links.
use mldsa_host::shake::keccakf_bmi2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Four lane-interleaved states: `st[i][s]` is lane `i` of state `s`.
type State4 = [[u64; 4]; 25];

extern "C" {
    /// `void mldsa_keccak_x4_avx2(u64 st[25][4])`: Keccak-f[1600] on each of the four
    /// states, in place. Needs AVX2 and an 8-byte aligned, writable 800-byte buffer.
    fn mldsa_keccak_x4_avx2(st: *mut State4);
    /// `void mldsa_keccak_x4_avx512(u64 st[25][4])`: the same, with AVX-512VL.
    fn mldsa_keccak_x4_avx512(st: *mut State4);
}

/// Whether to run: true with AVX2; without it, panics unless `MLDSA_ALLOW_NO_AVX2` is set.
fn have_avx2() -> bool {
    if std::is_x86_feature_detected!("avx2") {
        return true;
    }
    if std::env::var_os("MLDSA_ALLOW_NO_AVX2").is_some() {
        eprintln!("SKIPPED: no AVX2 on this CPU (MLDSA_ALLOW_NO_AVX2 is set)");
        return false;
    }
    panic!(
        "this CPU lacks AVX2, so the AVX2 Keccak is untested; set MLDSA_ALLOW_NO_AVX2=1 to skip"
    );
}

/// A 4-way routine: its name and entry point.
type Routine = (&'static str, unsafe extern "C" fn(*mut State4));

/// The 4-way routines this CPU runs. Only called after `have_avx2()`; without AVX-512VL,
/// panics unless `MLDSA_ALLOW_NO_AVX512` is set.
fn routines() -> Vec<Routine> {
    let mut r: Vec<Routine> = vec![("avx2", mldsa_keccak_x4_avx2)];
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
        r.push(("avx512", mldsa_keccak_x4_avx512));
    } else if std::env::var_os("MLDSA_ALLOW_NO_AVX512").is_some() {
        eprintln!("SKIPPED: no AVX-512VL on this CPU (MLDSA_ALLOW_NO_AVX512 is set)");
    } else {
        panic!("this CPU lacks AVX-512VL; set MLDSA_ALLOW_NO_AVX512=1 to skip its Keccak");
    }
    r
}

/// Routine `f` of [`routines`] on `st`.
fn keccak_x4(f: &Routine, st: &mut State4) {
    // SAFETY: `routines` lists only what the CPU supports; `st` is an exclusive reference
    // to 25 * 4 u64, exactly the buffer the function reads and writes, with the 8-byte
    // alignment it needs; the function touches no other memory except its own read-only
    // constants.
    unsafe { (f.1)(st) }
}

/// Keccak-f[1600] on each state with the `keccak` crate.
fn reference(st: &State4) -> State4 {
    let mut out = *st;
    for s in 0..4 {
        let mut a: [u64; 25] = std::array::from_fn(|i| st[i][s]);
        keccak::f1600(&mut a);
        for i in 0..25 {
            out[i][s] = a[i];
        }
    }
    out
}

fn check(fs: &[Routine], st: &State4) {
    let want = reference(st);
    for f in fs {
        let mut got = *st;
        keccak_x4(f, &mut got);
        assert_eq!(got, want, "{}, input {st:016x?}", f.0);
    }
}

#[test]
fn known_answer_all_zero() {
    let mut a = [0u64; 25];
    keccak::f1600(&mut a);
    assert_eq!(a[0], 0xF1258F7940E1DDE7);
    if !have_avx2() {
        return;
    }
    for f in &routines() {
        let mut st = [[0u64; 4]; 25];
        keccak_x4(f, &mut st);
        for (i, row) in st.iter().enumerate() {
            assert_eq!(*row, [a[i]; 4], "{}, lane {i}", f.0);
        }
    }
}

#[test]
fn edge_inputs() {
    if !have_avx2() {
        return;
    }
    let fs = routines();
    let zero = [[0u64; 4]; 25];
    let ones = [[u64::MAX; 4]; 25];
    // Each state different: zero, all ones, a counter, a single set bit.
    let mixed: State4 = std::array::from_fn(|i| {
        [
            0,
            u64::MAX,
            i as u64 * 0x0101_0101_0101_0101,
            (i == 24) as u64 * (1 << 63),
        ]
    });
    // The four states equal, and not symmetric in any obvious way.
    let equal: State4 =
        std::array::from_fn(|i| [(i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15); 4]);
    for st in [zero, ones, mixed, equal] {
        check(&fs, &st);
    }
    // Every single-bit state, in each of the four positions, with the other states zero.
    for i in 0..25 {
        for bit in 0..64 {
            for s in 0..4 {
                let mut st = zero;
                st[i][s] = 1 << bit;
                check(&fs, &st);
            }
        }
    }
}

#[test]
fn random_inputs() {
    if !have_avx2() {
        return;
    }
    let fs = routines();
    let mut rng = StdRng::seed_from_u64(0x4b78_3441_5658_3221);
    for _ in 0..100_000 {
        let st: State4 = std::array::from_fn(|_| rng.gen());
        check(&fs, &st);
    }
}

#[test]
fn iterated_on_its_own_output() {
    if !have_avx2() {
        return;
    }
    for f in &routines() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut st: State4 = std::array::from_fn(|_| rng.gen());
        for _ in 0..1000 {
            let want = reference(&st);
            keccak_x4(f, &mut st);
            assert_eq!(st, want, "{}", f.0);
        }
    }
}

/// The buffer need only be 8-byte aligned: try each offset modulo 32 bytes, and check
/// that the words around it are left alone.
#[test]
fn only_8_byte_alignment_and_no_writes_outside() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(8);
    for (f, off) in routines().iter().flat_map(|f| (0..4).map(move |o| (f, o))) {
        let mut buf = vec![0x5555_aaaa_5555_aaaa_u64; 100 + 8];
        let st: State4 = std::array::from_fn(|_| rng.gen());
        for i in 0..25 {
            buf[off + 4 * i..off + 4 * i + 4].copy_from_slice(&st[i]);
        }
        let p = buf[off..].as_mut_ptr().cast::<State4>();
        // SAFETY: `routines` lists only what the CPU supports; `p` points to 100
        // initialised u64 inside `buf` (off + 100 <= buf.len()), 8-byte aligned, with no
        // other reference to them alive during the call; the function touches only those
        // 800 bytes.
        unsafe { (f.1)(p) };
        let want = reference(&st);
        for i in 0..25 {
            assert_eq!(
                buf[off + 4 * i..off + 4 * i + 4],
                want[i],
                "{}, offset {off}, lane {i}",
                f.0
            );
        }
        assert!(buf[..off]
            .iter()
            .chain(&buf[off + 100..])
            .all(|&w| w == 0x5555_aaaa_5555_aaaa));
    }
}

/// The SHA-3 library's BMI2 permutation equals the `keccak` crate's on all zero, all ones
/// and 100 000 random states, at each 8-byte offset modulo 32, and writes nothing outside
/// the state.
#[test]
fn sha3_library_keccakf_matches_keccak_crate() {
    if !have_avx2() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(0x7368_6133_2d78_3836);
    let fixed = [[0u64; 25], [u64::MAX; 25]];
    let random = (0..100_000).map(|_| std::array::from_fn(|_| rng.gen()));
    for (n, st) in fixed.into_iter().chain(random).enumerate() {
        let off = n % 4;
        let mut buf = [0x5555_aaaa_5555_aaaa_u64; 25 + 8];
        buf[off..off + 25].copy_from_slice(&st);
        keccakf_bmi2((&mut buf[off..off + 25]).try_into().unwrap());
        let mut want = st;
        keccak::f1600(&mut want);
        assert_eq!(buf[off..off + 25], want, "input {st:016x?}");
        assert!(buf[..off]
            .iter()
            .chain(&buf[off + 25..])
            .all(|&w| w == 0x5555_aaaa_5555_aaaa));
    }
}
