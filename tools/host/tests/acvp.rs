//! NIST ACVP ML-DSA sigVer vectors (Verify_internal: the message is M').

mod common;

use mldsa_host::{errno_name, internal_mu, params, verify, Message};

#[test]
fn acvp_sigver_internal() {
    common::on_each_path(|| {
        let cases = common::acvp_cases();
        assert_eq!(cases.len(), 45);
        let mut accepted = 0;
        for (n, c) in cases.iter().enumerate() {
            let p = params(&c.alg).unwrap();
            let r = verify(
                p,
                &c.pk,
                &c.sig,
                Message::Mu(&internal_mu(&c.pk, &c.mprime)),
            );
            assert_eq!(
                r.is_ok(),
                c.passed,
                "case {n} ({}, {}): {}",
                c.alg,
                c.reason,
                errno_name(r)
            );
            accepted += r.is_ok() as usize;
            // The errno: a bad hint encoding is malformed input, a changed message is not.
            // The "z too large" and "modify signature" signatures here are well-formed
            // encodings, whose c~ does not match, or malformed ones, depending on the case.
            let allowed: &[&str] = match c.reason.as_str() {
                "no modification" => &["ok"],
                "modify message" => &["EKEYREJECTED"],
                "too many hints" => &["EBADMSG"],
                "modify signature" | "z too large" => &["EKEYREJECTED", "EBADMSG"],
                other => panic!("unknown ACVP reason {other}"),
            };
            assert!(
                allowed.contains(&errno_name(r)),
                "case {n} ({}, {}): {}",
                c.alg,
                c.reason,
                errno_name(r)
            );
        }
        assert_eq!(accepted, 9);
    });
}
