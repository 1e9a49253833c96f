//! The mldsa-verify CLI answers every ACVP case right, one line per input line, and
//! answers EINVAL to lines it cannot use.

mod common;

use std::io::Write;
use std::process::Stdio;

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
