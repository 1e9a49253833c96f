//! The self-test's known answers (`selftest/kat.h`, decoded by `selftest/kat.rs`): exactly what
//! the generator prints, decoded as the C reads them, and right according to every peer and to
//! this verifier; a one-bit change makes each one fail.

/// The core's parameters, where `selftest/kat.rs` finds them in the module.
mod params {
    pub use mldsa_host::params::*;
}

#[allow(dead_code, unexpected_cfgs)]
#[path = "../../../selftest/kat.rs"]
mod kat;

#[allow(dead_code)]
#[path = "../../../tests/vectors.rs"]
mod vectors;

mod common;

use vectors::{Part, Want, MUTATIONS};
use mldsa_host::mldsa_verify::{Error, PreHash};
use mldsa_host::shake::Shake;
use mldsa_host::{peers::sets, Message, Workspaces};

#[test]
fn kat_file_is_generated() {
    let out = common::bin(env!("CARGO_BIN_EXE_mldsa-kat"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout == KAT_H.as_bytes(),
        "selftest/kat.h differs from the output of mldsa-kat"
    );
}

/// `selftest/kat.rs` decodes each array of `kat.h` at build time into the bytes a C compiler
/// makes of it.
#[test]
fn kat_rs_decodes_kat_h() {
    for (k, n) in kat::KATS.iter().zip(["44", "65", "87"]) {
        assert_eq!(k.pk, c_array(&format!("mldsa{n}_pk")));
        assert_eq!(k.msg, c_array(&format!("mldsa{n}_msg")));
        assert_eq!(k.sig, c_array(&format!("mldsa{n}_sig")));
    }
}

#[test]
fn c_vectors_file_is_generated() {
    let out = common::bin(env!("CARGO_BIN_EXE_mldsa-kat"))
        .arg("c")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout == C_VECTORS.as_bytes(),
        "tests/mldsa_api_kunit_vectors.h differs from the output of mldsa-kat c"
    );
}

const KAT_H: &str = include_str!("../../../selftest/kat.h");
const C_VECTORS: &str = include_str!("../../../tests/mldsa_api_kunit_vectors.h");

/// The bytes of the array `name` in `selftest/kat.h` or `mldsa_api_kunit_vectors.h`: a C string
/// of `\xHH` escapes or plain characters, without the terminating NUL.
fn c_array(name: &str) -> Vec<u8> {
    let decl = format!("static const u8 {name}[] =");
    let (file, start) = [KAT_H, C_VECTORS]
        .into_iter()
        .find_map(|f| f.find(&decl).map(|at| (f, at)))
        .unwrap_or_else(|| panic!("{name} not found"));
    let body = &file[start..];
    let body = &body[body.find('=').unwrap() + 1..body.find(';').unwrap()];
    let mut out = Vec::new();
    for piece in body.split('"').skip(1).step_by(2) {
        let mut rest = piece;
        while !rest.is_empty() {
            if let Some(hex) = rest.strip_prefix("\\x") {
                out.push(u8::from_str_radix(&hex[..2], 16).unwrap());
                rest = &hex[2..];
            } else {
                out.push(rest.as_bytes()[0]);
                rest = &rest[1..];
            }
        }
    }
    out
}

/// The C suite's vectors verify as their comments say, and not otherwise.
#[test]
fn c_vectors_verify() {
    let mut ws = Workspaces::boxed();
    let sets = sets();
    for (set, n) in sets.iter().zip(["44", "65", "87"]) {
        let (pk, msg) = (
            c_array(&format!("mldsa{n}_pk")),
            c_array(&format!("mldsa{n}_msg")),
        );
        let sig = c_array(&format!("mldsa{n}_sig"));
        assert_eq!(
            msg,
            format!("{} known-answer test message", set.name).as_bytes()
        );
        let pure = Message::Pure {
            msg: &msg,
            ctx: b"",
        };
        assert_eq!(ws.verify(set.p, &pk, &sig, pure), Ok(()), "{}", set.name);
    }
    let (p, pk, msg) = (sets[0].p, c_array("mldsa44_pk"), c_array("mldsa44_msg"));
    let ctx = c_array("mldsa44_ctx");
    let sig_ctx = c_array("mldsa44_sig_ctx");
    let with_ctx = Message::Pure {
        msg: &msg,
        ctx: &ctx,
    };
    assert_eq!(ws.verify(p, &pk, &sig_ctx, with_ctx), Ok(()));
    let no_ctx = Message::Pure {
        msg: &msg,
        ctx: b"",
    };
    assert!(ws.verify(p, &pk, &sig_ctx, no_ctx).is_err());
    let mut phm = [0; 64];
    let mut h = Shake::new();
    let mut absorbing = h.init256();
    absorbing.update(&msg);
    absorbing.squeeze(&mut phm);
    let sig_ph = c_array("mldsa44_sig_ph");
    let ph = |ph| Message::PreHash {
        ph,
        phm: &phm,
        ctx: b"",
    };
    assert_eq!(ws.verify(p, &pk, &sig_ph, ph(PreHash::Shake256)), Ok(()));
    assert!(ws.verify(p, &pk, &sig_ph, ph(PreHash::Sha2_512)).is_err());
    assert!(ws.verify(p, &pk, &sig_ph, no_ctx).is_err());
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
            (&sets[1], &vectors::ML_DSA_65_LONG),
        ];
        assert!(vectors::ML_DSA_65_LONG.msg.len() > 4096);
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

#[test]
fn mutations_file_is_generated() {
    let out = common::bin(env!("CARGO_BIN_EXE_mldsa-kat"))
        .arg("mutations")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout == include_bytes!("../../../tests/vectors.rs"),
        "tests/vectors.rs differs from the output of mldsa-kat mutations"
    );
}

/// The KUnit case's vectors give their results here too, on each code path; they cover
/// every byte of each hint.
#[test]
fn mutations_give_their_results() {
    let kats = [&kat::ML_DSA_44, &kat::ML_DSA_65, &kat::ML_DSA_87];
    let sets = sets();
    assert!(MUTATIONS.len() > 500);
    for (i, (set, k)) in sets.iter().zip(kats).enumerate() {
        let hint = k.sig.len() - set.p.omega - set.p.k;
        assert!((hint..k.sig.len()).all(|at| MUTATIONS
            .iter()
            .any(|m| m.set == i && m.part == Part::Sig && m.at == at)));
    }
    common::on_each_path(|| {
        let mut ws = Workspaces::boxed();
        for m in MUTATIONS {
            let (set, k) = (&sets[m.set], kats[m.set]);
            let (mut pk, mut msg, mut sig) = (k.pk.to_vec(), k.msg.to_vec(), k.sig.to_vec());
            match m.part {
                Part::Sig => sig[m.at] ^= m.xor,
                Part::Msg => msg[m.at] ^= m.xor,
                Part::Pk => pk[m.at] ^= m.xor,
            }
            let want = match m.want {
                Want::Accept => Ok(()),
                Want::Reject => Err(Error::Rejected),
                Want::Malformed => Err(Error::Malformed),
            };
            let pure = Message::Pure {
                msg: &msg,
                ctx: b"",
            };
            assert_eq!(
                ws.verify(set.p, &pk, &sig, pure),
                want,
                "{} {}",
                set.name,
                m.at
            );
        }
    });
}
