//! The mldsa-verify CLI answers every ACVP case right, one line per input line, and
//! answers EINVAL to lines it cannot use; it answers each line at once, bounds a line's
//! memory, and fails on a write error.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A valid pure ML-DSA-65 line with context "ctx", with `extra` inserted before its `}`.
fn valid_line(extra: &str) -> Vec<u8> {
    let set = &mldsa_host::peers::sets()[1];
    let seed = [9u8; 32];
    let (pk, sig) = ((set.keypair)(&seed), (set.sign)(&seed, b"module", b"ctx"));
    format!(
        "{{\"alg\":\"ML-DSA-65\",\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"ctx\":\"{}\"{extra}}}\n",
        hex::encode(&pk),
        hex::encode(&sig),
        hex::encode(b"module"),
        hex::encode(b"ctx")
    )
    .into_bytes()
}

fn spawn() -> Child {
    common::bin(env!("CARGO_BIN_EXE_mldsa-verify"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The answers to `input`, all written at once.
fn answers(input: &[u8]) -> Vec<String> {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// A key given twice, or a line that is not UTF-8, gets EINVAL even where the line would
/// verify otherwise; so does a line over 4 MiB, and the next line is answered as usual.
#[test]
fn cli_refuses_duplicate_keys_bad_utf8_and_long_lines() {
    let mut input = valid_line("");
    input.extend(valid_line(",\"ctx\":\"637478\""));
    input.extend(valid_line(",\"note\":\"\u{e9}\""));
    let mut latin1 = valid_line(",\"note\":\"\u{e9}\"");
    let at = latin1.len() - 5;
    assert_eq!(latin1[at..at + 2], [0xc3, 0xa9]);
    latin1.splice(at..at + 2, [0xe9]); // é in Latin-1
    input.extend(latin1);
    // Lines of exactly 4 MiB and one byte more, with the valid line at their end.
    let valid = valid_line("");
    for pad in [0, 1] {
        input.extend(vec![b' '; (4 << 20) - (valid.len() - 1) + pad]);
        input.extend(&valid);
    }
    input.extend(&valid);
    let want = ["ok", "EINVAL", "ok", "EINVAL", "ok", "EINVAL", "ok"];
    assert_eq!(answers(&input), want);
}

/// Each answer comes while stdin is still open: a caller can write a line and wait.
#[test]
fn cli_answers_each_line_at_once() {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines() {
            tx.send(line.unwrap()).unwrap();
        }
    });
    for (line, want) in [(valid_line(""), "ok"), (b"{}\n".to_vec(), "EINVAL")] {
        stdin.write_all(&line).unwrap();
        stdin.flush().unwrap();
        let got = rx.recv_timeout(Duration::from_secs(60));
        assert_eq!(got.as_deref(), Ok(want));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// A write error (stdout on /dev/full) ends the run with a failure status.
#[test]
fn cli_fails_on_write_error() {
    let mut child = common::bin(env!("CARGO_BIN_EXE_mldsa-verify"))
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{}\n").unwrap();
    assert!(!child.wait().unwrap().success());
}

#[test]
fn cli_answers_acvp_and_bad_lines() {
    let cases = common::acvp_cases();
    let mut input = String::new();
    let mut want = Vec::new();
    for c in &cases {
        input += &format!(
            "{{\"alg\":\"{}\",\"pk\":\"{}\",\"sig\":\"{}\",\"mprime\":\"{}\"}}\n",
            c.alg,
            hex::encode(&c.pk),
            hex::encode(&c.sig),
            hex::encode(&c.mprime)
        );
        want.push(if c.passed { "ok" } else { "rejected" });
    }
    // Pure ML-DSA with a context, right and wrong.
    let set = &mldsa_host::peers::sets()[1];
    let seed = [9u8; 32];
    let (pk, sig) = ((set.keypair)(&seed), (set.sign)(&seed, b"module", b"ctx"));
    for (ctx, answer) in [("ctx", "ok"), ("cty", "EKEYREJECTED")] {
        input += &format!(
            "{{\"alg\":\"ML-DSA-65\",\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"ctx\":\"{}\"}}\n",
            hex::encode(&pk),
            hex::encode(&sig),
            hex::encode(b"module"),
            hex::encode(ctx)
        );
        want.push(answer);
    }
    // HashML-DSA: M' = 1 || |ctx| || ctx || OID(SHA2-256) || PH(M), PH(M) given.
    let phm = [7u8; 32];
    let mprime = [
        &[1u8, 0][..],
        &hex::decode("0609608648016503040201").unwrap(),
        &phm,
    ];
    let sig = (set.sign_internal)(&seed, &mprime.concat());
    for (ph, ctx, answer) in [
        ("SHA2-256", "", "ok"),
        ("SHA3-256", "", "EKEYREJECTED"),
        ("SHA2-256", "00", "EKEYREJECTED"),
        ("SHA2-512", "", "EINVAL"),
        ("MD5", "", "EINVAL"),
    ] {
        input += &format!(
            "{{\"alg\":\"ML-DSA-65\",\"pk\":\"{}\",\"sig\":\"{}\",\"ph\":\"{ph}\",\"phm\":\"{}\",\"ctx\":\"{ctx}\"}}\n",
            hex::encode(&pk),
            hex::encode(&sig),
            hex::encode(phm),
        );
        want.push(answer);
    }
    for line in [
        "{\"alg\":\"ML-DSA-44\",\"pk\":\"00\",\"sig\":\"00\",\"ph\":\"SHA2-256\"}",
        "{\"alg\":\"ML-DSA-44\",\"pk\":\"00\",\"sig\":\"00\",\"ph\":\"SHA2-256\",\"phm\":\"00\",\"msg\":\"00\"}",
        "not json",
        "{\"alg\":\"ML-DSA-99\",\"pk\":\"00\",\"sig\":\"00\",\"msg\":\"\"}",
        "{\"alg\":\"ML-DSA-44\",\"pk\":\"zz\",\"sig\":\"00\",\"msg\":\"\"}",
        "{\"alg\":\"ML-DSA-44\",\"pk\":\"00\",\"sig\":\"00\",\"mu\":\"00\"}",
        "",
    ] {
        input += line;
        input += "\n";
        want.push("EINVAL");
    }
    let mut child = common::bin(env!("CARGO_BIN_EXE_mldsa-verify"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let got: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        match *w {
            "rejected" => assert!(*g == "EKEYREJECTED" || *g == "EBADMSG", "line {i}: {g}"),
            w => assert_eq!(g, &w, "line {i}"),
        }
    }
}
