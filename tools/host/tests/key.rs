//! The decoded public key (`PublicKey`): decoded once, it verifies many signatures; decoding
//! another key replaces it; bad keys are refused, and keys and workspaces are typed by their set.
//! The encoded key (`VerifyingKey::Encoded`) verifies as the decoded one does.

mod common;

use mldsa_host::mldsa_verify::{self, Error, PreHash, PublicKey, VerifyingKey, Workspace};
use mldsa_host::params::MlDsa44;
use mldsa_host::peers::sets;
use mldsa_host::{Message, Workspaces};

#[test]
fn one_decode_many_verifies() {
    common::on_each_path(|| {
        let mut ws = Workspaces::boxed();
        for set in sets().iter() {
            let (a, b) = ([1; 32], [2; 32]);
            let pk_a = (set.keypair)(&a);
            assert_eq!(ws.decode(set.p, &pk_a), Ok(()));
            for n in 0..4u8 {
                let msg = [n; 33];
                let ctx = &msg[..n as usize * 5];
                let sig = (set.sign)(&a, &msg, ctx);
                let m = Message::Pure { msg: &msg, ctx };
                assert_eq!(ws.verify_decoded(set.p, &sig, m), Ok(()), "{}", set.name);
                let other = Message::Pure {
                    msg: &msg[1..],
                    ctx,
                };
                let r = ws.verify_decoded(set.p, &sig, other);
                assert_eq!(r, Err(Error::Rejected), "{}", set.name);
            }
            // A signature by key b fails under a, and verifies once b replaces a.
            let sig_b = (set.sign)(&b, b"m", b"");
            let m = Message::Pure {
                msg: b"m",
                ctx: b"",
            };
            let r = ws.verify_decoded(set.p, &sig_b, m);
            assert_eq!(r, Err(Error::Rejected), "{}", set.name);
            assert_eq!(ws.decode(set.p, &(set.keypair)(&b)), Ok(()));
            assert_eq!(ws.verify_decoded(set.p, &sig_b, m), Ok(()), "{}", set.name);
        }
    });
}

#[test]
fn bad_keys_refused() {
    let mut ws = Workspaces::boxed();
    for set in sets().iter() {
        let pk = (set.keypair)(&[3; 32]);
        assert_eq!(ws.decode(set.p, &pk[1..]), Err(Error::Malformed));
        assert_eq!(
            ws.decode(set.p, &[pk.as_slice(), &[0]].concat()),
            Err(Error::Malformed)
        );
        assert_eq!(ws.decode(set.p, &[]), Err(Error::Malformed));
    }
}

/// A key decoded for its set verifies through the typed interface; one of another set, or
/// a workspace of another set, does not compile (see the crate's documentation).
#[test]
fn typed_key_and_workspace() {
    let pk = (sets()[0].keypair)(&[4; 32]);
    let sig = (sets()[0].sign)(&[4; 32], b"m", b"");
    let mut ws = Box::new(Workspace::<MlDsa44>::default());
    let mut key = Box::new(PublicKey::<MlDsa44>::default());
    assert_eq!(key.decode(&mut ws, &pk[1..]), Err(Error::Malformed));
    assert_eq!(key.decode(&mut ws, &pk), Ok(()));
    let m = |msg| Message::Pure { msg, ctx: b"" };
    let v = mldsa_verify::verify(&mut ws, VerifyingKey::Decoded(&key), m(b"m"), &sig);
    assert_eq!(v, Ok(()));
    let v = mldsa_verify::verify(&mut ws, VerifyingKey::Decoded(&key), m(b"n"), &sig);
    assert_eq!(v, Err(Error::Rejected));
}

/// The encoded key: the same results as the decoded one (every test through
/// `mldsa_host::verify` compares the two), and an encoding of the wrong length is malformed
/// whatever the rest of the input.
#[test]
fn encoded_key() {
    let pk = (sets()[0].keypair)(&[5; 32]);
    let sig = (sets()[0].sign)(&[5; 32], b"m", b"");
    let mut ws = Box::new(Workspace::<MlDsa44>::default());
    let m = |msg| Message::Pure { msg, ctx: b"" };
    let v = mldsa_verify::verify(&mut ws, VerifyingKey::Encoded(&pk), m(b"m"), &sig);
    assert_eq!(v, Ok(()));
    let v = mldsa_verify::verify(&mut ws, VerifyingKey::Encoded(&pk), m(b"n"), &sig);
    assert_eq!(v, Err(Error::Rejected));
    for pk in [&pk[1..], &[pk.as_slice(), &[0]].concat(), &[]] {
        for m in [
            m(b"m"),
            Message::Mu(&[0; 64]),
            Message::PreHash {
                ph: PreHash::Sha2_256,
                phm: &[0; 32],
                ctx: b"",
            },
        ] {
            let v = mldsa_verify::verify(&mut ws, VerifyingKey::Encoded(pk), m, &sig);
            assert_eq!(v, Err(Error::Malformed));
        }
        let key = VerifyingKey::Encoded(pk);
        let v = mldsa_verify::verify_pieces(&mut ws, key, b"", &sig, |_| Ok::<_, Error>(()));
        assert_eq!(v, Err(Error::Malformed));
    }
}

/// A message absorbed in pieces (`verify_pieces`, the crypto API's scatterlist walk)
/// verifies as the whole does; an error of the walk ends the verification with that error.
#[test]
fn message_in_pieces() {
    let (msg, ctx) = ([7; 300], b"ctx");
    let pk = (sets()[0].keypair)(&[6; 32]);
    let sig = (sets()[0].sign)(&[6; 32], &msg, ctx);
    let mut ws = Box::new(Workspace::<MlDsa44>::default());
    let key = VerifyingKey::Encoded(&pk);
    let pieces = |h: &mut mldsa_host::shake::Absorbing<'_>| {
        msg.chunks(136).for_each(|piece| h.update(piece));
        Ok::<_, Error>(())
    };
    assert_eq!(mldsa_verify::verify_pieces(&mut ws, key, ctx, &sig, pieces), Ok(()));
    let short = |h: &mut mldsa_host::shake::Absorbing<'_>| {
        h.update(&msg[1..]);
        Ok::<_, Error>(())
    };
    let v = mldsa_verify::verify_pieces(&mut ws, key, ctx, &sig, short);
    assert_eq!(v, Err(Error::Rejected));
    let v = mldsa_verify::verify_pieces(&mut ws, key, ctx, &sig, |_| Err(Error::BadParameter));
    assert_eq!(v, Err(Error::BadParameter));
}
