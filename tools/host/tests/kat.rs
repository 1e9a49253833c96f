//! The self-test's known answers (`selftest/kat.rs`): exactly what the generator prints, and right
//! according to every peer and to this verifier; a one-bit change makes each one fail.

#[allow(dead_code)]
#[path = "../../../selftest/kat.rs"]
mod kat;

mod common;

use mldsa_host::{peers::sets, Message, Workspaces};
use std::process::Command;

#[test]
fn kat_file_is_generated() {
    let out = Command::new(env!("CARGO_BIN_EXE_mldsa-kat"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let committed = include_str!("../../../selftest/kat.rs");
    assert!(
        out.stdout == committed.as_bytes(),
        "selftest/kat.rs differs from the output of mldsa-kat"
    );
}

#[test]
fn kats_verify_everywhere_and_corruptions_fail() {
    common::on_each_path(|| {
        let mut ws = Workspaces::boxed();
        let sets = sets();
        let kats = [
            (&sets[0], &kat::ML_DSA_44),
            (&sets[1], &kat::ML_DSA_65),
            (&sets[2], &kat::ML_DSA_87),
            (&sets[1], &kat::ML_DSA_65_LONG),
        ];
        assert!(kat::ML_DSA_65_LONG.msg.len() > 4096);
        for (set, k) in kats {
            assert_eq!((k.pk.len(), k.sig.len()), (set.p.pk_len(), set.p.sig_len()));
            let pure = Message::Pure {
                msg: k.msg,
                ctx: b"",
            };
            assert_eq!(ws.verify(set.p, k.pk, k.sig, pure), Ok(()), "{}", set.name);
            for (name, peer) in set.peers {
                assert!(peer(k.pk, k.msg, b"", k.sig), "{} {name}", set.name);
            }
            let mut sig = k.sig.to_vec();
            sig[0] ^= 1;
            assert!(ws.verify(set.p, k.pk, &sig, pure).is_err(), "{}", set.name);
            for (name, peer) in set.peers {
                assert!(!peer(k.pk, k.msg, b"", &sig), "{} {name}", set.name);
            }
        }
    });
}
