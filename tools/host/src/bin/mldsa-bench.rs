//! mldsa-bench: this verifier, AVX2 and portable, next to its peers, per parameter set. This
//! verifier runs twice on each path: decoding the public key in every verify, as a one-shot
//! call does, and with the key decoded once beforehand (a prepared key).
//!
//! For each implementation it reports instructions per verify (callgrind: the binary runs
//! itself under valgrind with 1 and 11 verifies and takes the difference, so setup cancels
//! out), verifies per second (interleaved runs, see [`per_second`]), and the stack and heap
//! one verify uses; then, per set, the verifies/s of its SIMD paths over its portable path.
//! `mldsa-bench footprint` prints only this verifier's workspace, stack and heap figures.
//! `mldsa-bench cold` prints, per set and implementation, the first verify of a fresh
//! process (see [`cold`]).

use mldsa_host::measure::{heap_used, stack_used};
use mldsa_host::peers::{sets, Set, Verify};
use mldsa_host::{Message, Workspaces};
use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

const MSG: &[u8] = b"benchmark message";
/// This verifier's code paths.
#[derive(Clone, Copy, PartialEq)]
enum Path {
    Portable,
    /// The AVX2 routines, with the AVX2 4-way Keccak.
    Avx2,
    /// The AVX2 routines, with the AVX-512VL 4-way Keccak: what runs on a CPU with both.
    Avx512,
}

/// This verifier's variants: the name, its code path, and whether the key is decoded once
/// before the verifies (a prepared key) rather than in each.
const OURS: [(&str, Path, bool); 6] = [
    (
        "mldsa (this module), AVX2 + AVX-512VL Keccak",
        Path::Avx512,
        false,
    ),
    (
        "mldsa (this module), AVX2 + AVX-512VL Keccak, key decoded once",
        Path::Avx512,
        true,
    ),
    ("mldsa (this module), AVX2", Path::Avx2, false),
    (
        "mldsa (this module), AVX2, key decoded once",
        Path::Avx2,
        true,
    ),
    ("mldsa (this module), portable", Path::Portable, false),
    (
        "mldsa (this module), portable, key decoded once",
        Path::Portable,
        true,
    ),
];

/// If `imp` is this verifier, chooses its code path and tells whether its key is decoded
/// once.
fn ours(imp: &str) -> Option<bool> {
    let &(_, path, once) = OURS.iter().find(|o| o.0 == imp)?;
    mldsa_host::simd::use_avx2(path != Path::Portable);
    mldsa_host::simd::use_avx512(path == Path::Avx512);
    Some(once)
}

/// A key pair's public key and a valid signature of `MSG` for `set`.
fn inputs(set: &Set) -> (Vec<u8>, Vec<u8>) {
    let seed = [42; 32];
    ((set.keypair)(&seed), (set.sign)(&seed, MSG, b""))
}

/// Runs `iters` verifies of the valid signature `sig` with implementation `imp` of `set`.
fn run(set: &Set, imp: &str, pk: &[u8], sig: &[u8], iters: usize) -> usize {
    let mut ok = 0;
    if let Some(once) = ours(imp) {
        let m = Message::Pure { msg: MSG, ctx: b"" };
        let mut ws = Workspaces::boxed();
        if once {
            ws.decode(set.p, pk).unwrap();
        }
        for _ in 0..iters {
            let r = if once {
                ws.verify_decoded(set.p, black_box(sig), m)
            } else {
                ws.verify(set.p, black_box(pk), sig, m)
            };
            ok += r.is_ok() as usize;
        }
    } else {
        let f = peer(set, imp);
        for _ in 0..iters {
            ok += f(black_box(pk), MSG, b"", sig) as usize;
        }
    }
    assert_eq!(ok, iters, "{imp} rejected a valid signature");
    ok
}

/// One verify with implementation `imp` of `set`, this verifier's workspace (or a peer's
/// state) included: what `cold` measures, by this function's name.
#[inline(never)]
fn first_verify(set: &Set, imp: &str, pk: &[u8], sig: &[u8]) -> bool {
    match ours(imp) {
        Some(_) => {
            let m = Message::Pure { msg: MSG, ctx: b"" };
            Workspaces::boxed()
                .verify(set.p, black_box(pk), sig, m)
                .is_ok()
        }
        None => peer(set, imp)(black_box(pk), MSG, b"", sig),
    }
}

/// The cold first verify: callgrind's cache simulation (its default caches, those of this
/// machine) of `first_verify` alone, in a process that has made its key pair and signature
/// and run nothing of the verifier. Prints instructions, I1, D1 and last-level misses and
/// the estimated cycles, Ir + 10 x L1 misses + 100 x LL misses, per set and
/// implementation (the one-shot variants: the key is decoded in the verify), then per set
/// this verifier's AVX2 path against the best peer and its portable path against the best
/// portable peer.
fn cold(all: &[Set]) {
    println!(
        "| set | implementation | instructions | I1 misses | D1 misses | LL misses | est. cycles |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut summary = Vec::new();
    for set in all {
        let mut ours = Vec::new();
        // The best peer of all, and the best portable one.
        let mut best: Option<(&str, u64)> = None;
        let mut best_portable = None;
        let impls = OURS
            .iter()
            .filter(|o| !o.2 && o.1 != Path::Avx512)
            .map(|o| (o.0, Some(o.1)))
            .chain(set.peers.iter().map(|(n, _)| (*n, None)))
            .chain(set.simd_peers.iter().map(|(n, _)| (*n, Some(Path::Avx2))));
        for (imp, path) in impls {
            let Some([ir, i1, d1, ll]) = cold_counts(set, imp) else {
                println!("| {} | {imp} | n/a (valgrind?) | | | | |", set.name);
                continue;
            };
            let cycles = ir + 10 * (i1 + d1) + 100 * ll;
            println!(
                "| {} | {imp} | {ir} | {i1} | {d1} | {ll} | {} k |",
                set.name,
                cycles / 1000
            );
            let better = |b: Option<(&str, u64)>| b.is_none_or(|(_, c)| cycles < c);
            if self::ours(imp).is_some() {
                ours.push((imp, path, cycles));
                continue;
            }
            if better(best) {
                best = Some((imp, cycles));
            }
            if path.is_none() && better(best_portable) {
                best_portable = Some((imp, cycles));
            }
        }
        for (imp, path, c) in ours {
            let peer = if path == Some(Path::Portable) {
                best_portable
            } else {
                best
            };
            let Some((peer, peer_cycles)) = peer else {
                continue;
            };
            summary.push(format!(
                "cold first verify, {}: {imp} {} k est. cycles, best {}peer ({peer}) {} k: {}",
                set.name,
                c / 1000,
                if path == Some(Path::Portable) {
                    "portable "
                } else {
                    ""
                },
                peer_cycles / 1000,
                if c < peer_cycles { "ahead" } else { "BEHIND" }
            ));
        }
    }
    for line in summary {
        println!("{line}");
    }
}

/// Instructions, I1 misses, D1 misses (reads and writes) and last-level misses of
/// `first_verify` for `imp`, from callgrind's cache simulation.
fn cold_counts(set: &Set, imp: &str) -> Option<[u64; 4]> {
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--cache-sim=yes",
            "--toggle-collect=*first_verify*",
        ])
        .arg(std::env::current_exe().ok()?)
        .args(["first", set.name, imp])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let err = String::from_utf8_lossy(&out.stderr);
    let field = |l: &str| l.rsplit(':').next().map(|v| v.trim().to_string());
    let events: Vec<String> = field(err.lines().find(|l| l.contains("Events    :"))?)?
        .split_whitespace()
        .map(String::from)
        .collect();
    let counts: Vec<u64> = field(err.lines().find(|l| l.contains("Collected :"))?)?
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0))
        .collect();
    // Callgrind leaves out trailing zero counts.
    let get = |e: &str| {
        let i = events.iter().position(|x| x == e)?;
        Some(counts.get(i).copied().unwrap_or(0))
    };
    Some([
        get("Ir")?,
        get("I1mr")?,
        get("D1mr")? + get("D1mw")?,
        get("ILmr")? + get("DLmr")? + get("DLmw")?,
    ])
}

/// The peer verifier called `imp`.
fn peer(set: &Set, imp: &str) -> Verify {
    let mut all = set.peers.iter().chain(set.simd_peers);
    all.find(|(n, _)| *n == imp)
        .expect("unknown implementation")
        .1
}

fn callgrind(set: &Set, imp: &str, iters: usize) -> Option<u64> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(std::env::current_exe().ok()?)
        .args(["one", set.name, imp, &iters.to_string()])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().find(|l| l.contains("Collected :"))?;
    line.rsplit(':').next()?.trim().parse().ok()
}

/// Verifies per second of each of `impls` on `set`: 25 rounds, each running every
/// implementation for 40 ms in turn, so that a slow spell of this shared machine hits them
/// alike; each keeps its best round. The key pair and signature are made once, untimed.
fn per_second(set: &Set, impls: &[&str]) -> Vec<f64> {
    let (pk, sig) = inputs(set);
    let mut best = vec![0f64; impls.len()];
    for _ in 0..25 {
        for (imp, best) in impls.iter().zip(&mut best) {
            let (mut n, t) = (0, Instant::now());
            while t.elapsed() < Duration::from_millis(40) {
                n += run(set, imp, &pk, &sig, 20);
            }
            *best = best.max(n as f64 / t.elapsed().as_secs_f64());
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let all = sets();
    if args.len() == 5 && args[1] == "one" {
        let set = all.iter().find(|s| s.name == args[2]).unwrap();
        let (pk, sig) = inputs(set);
        run(set, &args[3], &pk, &sig, args[4].parse().unwrap());
        return;
    }
    if args.len() == 4 && args[1] == "first" {
        let set = all.iter().find(|s| s.name == args[2]).unwrap();
        let (pk, sig) = inputs(set);
        assert!(first_verify(set, &args[3], &pk, &sig));
        return;
    }
    if args.get(1).map(String::as_str) == Some("cold") {
        cold(&all);
        return;
    }
    let footprint_only = args.get(1).map(String::as_str) == Some("footprint");
    let impls: Vec<&str> = OURS
        .iter()
        .filter(|o| o.1 != Path::Avx512 || mldsa_host::simd::avx512_available())
        .map(|o| o.0)
        .chain(all[0].peers.iter().map(|(n, _)| *n))
        .chain(all[0].simd_peers.iter().map(|(n, _)| *n))
        .filter(|n| !footprint_only || ours(n).is_some())
        .collect();
    println!(
        "| set | implementation | instructions/verify | verifies/s | stack/verify | heap/verify |"
    );
    println!("|---|---|---|---|---|---|");
    let mut speedups = Vec::new();
    for set in &all {
        let rates = if footprint_only {
            Vec::new()
        } else {
            per_second(set, &impls)
        };
        for (n, imp) in impls.iter().enumerate() {
            let (stack, heap) = measure_one(set, imp);
            let (instr, rate) = if footprint_only {
                ("-".to_string(), "-".to_string())
            } else {
                let k = match (callgrind(set, imp, 1), callgrind(set, imp, 11)) {
                    (Some(a), Some(b)) => format!("{} k", (b - a) / 10 / 1000),
                    // Valgrind's CPU has no AVX-512, so the run stops at `use_avx512`.
                    _ if imp.contains("AVX-512") => "n/a (valgrind: no AVX-512)".to_string(),
                    _ => "n/a (valgrind?)".to_string(),
                };
                (k, format!("{:.0}", rates[n]))
            };
            println!(
                "| {} | {imp} | {instr} | {rate} | {stack} B | {heap} B |",
                set.name
            );
        }
        if !footprint_only {
            speedups.push(speedup(set.name, &impls, &rates));
        }
    }
    for line in speedups {
        println!("{line}");
    }
    if footprint_only {
        for set in &all {
            let (ws, key) = Workspaces::size_of(set.p);
            println!(
                "{}: workspace {ws} bytes, decoded key {key} bytes",
                set.name
            );
        }
    }
}

/// The verifies/s of this verifier's SIMD paths over its portable path on the set `name`,
/// one-shot and with the key decoded once, from the `rates` of `impls`.
fn speedup(name: &str, impls: &[&str], rates: &[f64]) -> String {
    let rate = |path: Path, once: bool| {
        let imp = OURS.iter().find(|o| o.1 == path && o.2 == once)?.0;
        impls.iter().position(|i| *i == imp).map(|n| rates[n])
    };
    let mut parts = Vec::new();
    for (path, label) in [
        (Path::Avx2, "AVX2"),
        (Path::Avx512, "AVX2 + AVX-512VL Keccak"),
    ] {
        for (once, how) in [(false, "one-shot"), (true, "key decoded once")] {
            if let (Some(a), Some(b)) = (rate(path, once), rate(Path::Portable, once)) {
                parts.push(format!("{label} {how} {:.2}x", a / b));
            }
        }
    }
    format!(
        "{name}: verifies/s over the portable path: {}",
        parts.join("; ")
    )
}

/// Stack and heap of one verify alone: inputs are made before the measured call.
fn measure_one(set: &Set, imp: &str) -> (usize, usize) {
    let (pk, sig) = inputs(set);
    let ((ok, heap), stack) = if let Some(once) = ours(imp) {
        let m = Message::Pure { msg: MSG, ctx: b"" };
        let mut ws = Workspaces::boxed();
        if once {
            ws.decode(set.p, &pk).unwrap();
            stack_used(|| heap_used(|| ws.verify_decoded(set.p, &sig, m).is_ok()))
        } else {
            stack_used(|| heap_used(|| ws.verify(set.p, &pk, &sig, m).is_ok()))
        }
    } else {
        let f = peer(set, imp);
        stack_used(|| heap_used(|| f(&pk, MSG, b"", &sig)))
    };
    assert!(ok, "{imp} rejected a valid signature");
    (stack, heap)
}
