//! Shared test helpers: ACVP vectors, signature surgery, and the code paths to run.
#![allow(dead_code)]

use mldsa_host::simd;
use mldsa_host::params::Params;
use serde_json::Value;
use std::process::Command;

/// One ACVP sigVer case: (parameter set, pk, M', sig, expected decision, reason).
pub struct AcvpCase {
    pub alg: String,
    pub pk: Vec<u8>,
    pub mprime: Vec<u8>,
    pub sig: Vec<u8>,
    pub passed: bool,
    pub reason: String,
}

pub fn acvp_cases() -> Vec<AcvpCase> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/vectors/acvp-mldsa-sigver-internal.json"
    );
    let d: Value = serde_json::from_str(&std::fs::read_to_string(path).expect(path)).unwrap();
    let mut out = Vec::new();
    for g in d["testGroups"].as_array().unwrap() {
        let pk = hex::decode(g["pk"].as_str().unwrap()).unwrap();
        for t in g["tests"].as_array().unwrap() {
            out.push(AcvpCase {
                alg: g["parameterSet"].as_str().unwrap().to_string(),
                pk: pk.clone(),
                mprime: hex::decode(t["message"].as_str().unwrap()).unwrap(),
                sig: hex::decode(t["signature"].as_str().unwrap()).unwrap(),
                passed: t["testPassed"].as_bool().unwrap(),
                reason: t["reason"].as_str().unwrap().to_string(),
            });
        }
    }
    out
}

/// Offset of polynomial `poly` of z in a signature.
fn z_offset(p: &Params, poly: usize) -> usize {
    p.c_tilde_len() + poly * 32 * p.z_bits() as usize
}

/// Reads coefficient `idx` of z[poly] (sigDecode, Algorithm 27).
pub fn get_z(p: &Params, sig: &[u8], poly: usize, idx: usize) -> i32 {
    let bits = p.z_bits() as usize;
    let base = z_offset(p, poly) * 8 + idx * bits;
    let mut v = 0i32;
    for b in 0..bits {
        let bit = base + b;
        v |= (((sig[bit / 8] >> (bit % 8)) & 1) as i32) << b;
    }
    (1 << p.gamma1_bits) - v
}

/// Writes coefficient `idx` of z[poly] as `z` (sigEncode, Algorithm 26).
pub fn set_z(p: &Params, sig: &mut [u8], poly: usize, idx: usize, z: i32) {
    let bits = p.z_bits() as usize;
    let base = z_offset(p, poly) * 8 + idx * bits;
    let v = ((1 << p.gamma1_bits) - z) as u32;
    for b in 0..bits {
        let bit = base + b;
        sig[bit / 8] = (sig[bit / 8] & !(1 << (bit % 8))) | ((((v >> b) & 1) as u8) << (bit % 8));
    }
}

/// The kinds of hint malformation Algorithm 21 rejects. Each returns false when the
/// signature's hint has no room for that kind (for example no hints at all).
pub fn malform_hint(p: &Params, sig: &mut [u8], kind: usize) -> bool {
    let h = sig.len() - p.omega - p.k;
    let (idx, ends) = sig[h..].split_at_mut(p.omega);
    let total = ends[p.k - 1] as usize;
    match kind {
        // Indices not strictly increasing within a polynomial: duplicate one.
        0 => {
            let mut start = 0;
            for &e in ends.iter() {
                let e = e as usize;
                if e - start >= 2 {
                    idx[start + 1] = idx[start];
                    return true;
                }
                start = e;
            }
            false
        }
        // Cumulative counts decreasing.
        1 => {
            if ends[0] == 0 {
                return false;
            }
            ends.swap(0, p.k - 1);
            ends[p.k - 1] = 0;
            true
        }
        // A count above omega.
        2 => {
            ends[p.k - 1] = p.omega as u8 + 1;
            true
        }
        // Non-zero padding after the last index.
        3 => {
            if total >= p.omega {
                return false;
            }
            idx[p.omega - 1] = 1;
            true
        }
        _ => unreachable!(),
    }
}

/// Whether the code `what` needs can run here (`available`). If not, panics unless the
/// environment variable `allow` is set, and then says the test skips it.
pub fn can_run(available: bool, allow: &str, what: &str) -> bool {
    if !available {
        assert!(
            std::env::var_os(allow).is_some(),
            "{what} cannot run on this CPU, so it is untested (set {allow}=1 to allow)"
        );
        eprintln!("SKIPPED: {what} (not on this CPU)");
    }
    available
}

/// Runs `f` with the portable code, with it and the SHA-3 library's permutation for
/// ExpandA, then with the AVX2 routines, then with these and the AVX-512VL 4-way Keccak (the
/// arch seam's choice is per thread); on s390x, with the portable code, the library's
/// permutation, and then the vector facility. Fails on an x86_64 machine without AVX2 or
/// AVX-512VL, unless `MLDSA_ALLOW_NO_AVX2` or `MLDSA_ALLOW_NO_AVX512` is set.
pub fn on_each_path(f: impl Fn()) {
    simd::use_avx2(false);
    f();
    simd::use_library_keccak(true);
    f();
    simd::use_library_keccak(false);
    #[cfg(target_arch = "s390x")]
    {
        simd::use_vx(true);
        f();
        simd::use_vx(false);
    }
    let paths = [
        (
            simd::avx2_available(),
            "MLDSA_ALLOW_NO_AVX2",
            "the AVX2 path",
            false,
        ),
        (
            simd::avx512_available(),
            "MLDSA_ALLOW_NO_AVX512",
            "the AVX-512VL Keccak",
            true,
        ),
    ];
    for (available, allow, what, avx512) in paths {
        if !can_run(available, allow, what) {
            return;
        }
        simd::use_avx2(true);
        simd::use_avx512(avx512);
        f();
    }
}

/// A command that runs `exe`, one of this crate's binaries, through `MLDSA_TEST_RUNNER` when
/// it is set (`qemu-s390x -L /usr/s390x-linux-gnu` in the big-endian run), as cargo's target
/// runner runs the tests themselves.
pub fn bin(exe: &str) -> Command {
    let runner = std::env::var("MLDSA_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    let mut cmd = Command::new(words.next().unwrap_or(exe));
    cmd.args(words);
    if !runner.trim().is_empty() {
        cmd.arg(exe);
    }
    cmd
}
