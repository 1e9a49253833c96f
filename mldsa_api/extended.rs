// SPDX-License-Identifier: GPL-2.0

//! The calls of `<crypto/mldsa.h>` beyond `mldsa_verify()`, built with
//! `CONFIG_CRYPTO_MLDSA_EXTENDED`: [`mldsa_rust_pubkey_init`] and [`mldsa_rust_verify`], on
//! which `exports.c` defines `mldsa_pubkey_init()`, `mldsa_verify_ctx()`,
//! `mldsa_verify_prehash()` and `mldsa_verify_mu()` (and its `mldsa_verify_noalloc()` on
//! `mldsa_rust_verify_pk`).
//!
//! The calls take only a key that `mldsa_pubkey_init()` has written, as `<crypto/mldsa.h>`
//! says: its tag ([`KEY_TAG`]) names the set, and a key that could not be decoded, or was
//! cleared since, gives `EINVAL`. A `struct mldsa_pubkey` holds a [`KeyBuf`]: the set and a
//! `PublicKey` of that set. It is sized for ML-DSA-87; the assertions below check that it is
//! large and aligned enough.

use super::{bytes, check_ws, to_errno};
use crate::mldsa_verify::{self, Error, Message, PreHash, PublicKey, VerifyingKey, Workspace};
use crate::params::{MlDsa44, MlDsa65, MlDsa87};
use core::ffi::c_int;
use core::mem::{align_of, size_of};
use kernel::bindings::{
    mldsa_alg, mldsa_alg_MLDSA44 as MLDSA44, mldsa_alg_MLDSA65 as MLDSA65,
    mldsa_alg_MLDSA87 as MLDSA87, mldsa_prehash, mldsa_prehash_MLDSA_SHA256 as SHA256,
    mldsa_prehash_MLDSA_SHA384 as SHA384, mldsa_prehash_MLDSA_SHA3_256 as SHA3_256,
    mldsa_prehash_MLDSA_SHA3_512 as SHA3_512, mldsa_prehash_MLDSA_SHA512 as SHA512,
    mldsa_prehash_MLDSA_SHAKE128 as SHAKE128, mldsa_prehash_MLDSA_SHAKE256 as SHAKE256,
    mldsa_pubkey, mldsa_rust_msg, mldsa_rust_msg_MLDSA_RUST_MU as MU,
    mldsa_rust_msg_MLDSA_RUST_PREHASH as PREHASH, mldsa_rust_msg_MLDSA_RUST_PURE as PURE,
    mldsa_workspace,
};
use kernel::error::code::EINVAL;
use kernel::prelude::export;

/// What a `struct mldsa_pubkey` holds.
#[repr(C)]
struct KeyBuf {
    /// [`KEY_TAG`] with the key's `enum mldsa_alg` in its low byte, or 0 while it holds no
    /// key.
    tag: u64,
    /// A `PublicKey` of that set, which needs no alignment (it holds bytes only).
    key: [u8; size_of::<PublicKey<MlDsa87>>()],
}

/// The tag of a key, with the set in its low byte: a key that `mldsa_pubkey_init()` could
/// not decode (tag 0), or that was cleared or overwritten since, is refused with `EINVAL`.
const KEY_TAG: u64 = u64::from_be_bytes(*b"MLDSAKY\0");

/// The set of the key whose tag is `tag`, or `mldsa_alg::MAX`, which names no set, if the
/// tag is not one.
fn key_alg(tag: u64) -> mldsa_alg {
    if tag & !0xff == KEY_TAG {
        (tag & 0xff) as mldsa_alg
    } else {
        mldsa_alg::MAX
    }
}

const _: () = assert!(size_of::<KeyBuf>() <= size_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<KeyBuf>() <= align_of::<mldsa_pubkey>());
const _: () = assert!(align_of::<PublicKey<MlDsa87>>() == 1);

/// `EINVAL` unless `key` and `ws` are non-null and aligned for their C types; `ELIBBAD`
/// unless [`super::enable`] was called.
fn check_call(key: *const mldsa_pubkey, ws: *const mldsa_workspace) -> Result<(), c_int> {
    if key.is_null() || !key.is_aligned() {
        return Err(EINVAL.to_errno());
    }
    check_ws(ws)
}

/// `mldsa_pubkey_init()`: decodes `pk` of the set `alg` into `key`, which holds no key on
/// failure.
///
/// # Safety
///
/// `key` must be valid for writes of a `struct mldsa_pubkey`, `pk` for reads of `pk_len`
/// bytes (or be null, which gives `EINVAL` unless `pk_len` is 0) and `ws` for writes of a
/// `struct mldsa_workspace`, each used by nothing else during the call.
#[export]
unsafe extern "C" fn mldsa_rust_pubkey_init(
    key: *mut mldsa_pubkey,
    alg: mldsa_alg,
    pk: *const u8,
    pk_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_call(key, ws) {
        return e;
    }
    // SAFETY: `key` and `ws` are aligned (checked above) and the caller's as the function's
    // safety section says; their C types are large enough for a `KeyBuf` and for the
    // `PublicKey` and `Workspace` of any set (assertions above), which need no more
    // alignment. Any bytes are valid for a `KeyBuf` and a `PublicKey`, which hold integers
    // only. The workspace is cleared through the pointer before a reference to it is made,
    // and all-zero bytes are a valid `Workspace` (`Zeroable`). `pk` is the caller's too, or
    // points nowhere and is empty (`bytes`).
    let r = unsafe {
        let buf = &mut *key.cast::<KeyBuf>();
        buf.tag = 0;
        let r = bytes(pk, pk_len).and_then(|pk| {
            on_set!(alg, S => {
                let ws = ws.cast::<Workspace<S>>();
                ws.write_bytes(0, 1);
                (*buf.key.as_mut_ptr().cast::<PublicKey<S>>()).decode(&mut *ws, &*pk)
            })
        });
        if r.is_ok() {
            buf.tag = KEY_TAG | u64::from(alg);
        }
        r
    };
    to_errno(r)
}

/// The pre-hash function `ph` names.
fn pre_hash(ph: mldsa_prehash) -> Option<PreHash> {
    Some(match ph {
        SHA256 => PreHash::Sha2_256,
        SHA384 => PreHash::Sha2_384,
        SHA512 => PreHash::Sha2_512,
        SHA3_256 => PreHash::Sha3_256,
        SHA3_512 => PreHash::Sha3_512,
        SHAKE128 => PreHash::Shake128,
        SHAKE256 => PreHash::Shake256,
        _ => return None,
    })
}

/// The message of kind `kind` (`PURE`, `PREHASH` or `MU`): `m` (M, PH(M) made with `ph`,
/// or mu) and the context string `ctx`.
fn message<'a>(
    kind: mldsa_rust_msg,
    ph: mldsa_prehash,
    m: &'a [u8],
    ctx: &'a [u8],
) -> Result<Message<'a>, Error> {
    match kind {
        PURE => Ok(Message::Pure { msg: m, ctx }),
        PREHASH => {
            let ph = pre_hash(ph).ok_or(Error::BadParameter)?;
            Ok(Message::PreHash { ph, phm: m, ctx })
        }
        MU => Ok(Message::Mu(m.try_into().map_err(|_| Error::BadParameter)?)),
        _ => Err(Error::BadParameter),
    }
}

/// `mldsa_verify_ctx()`, `mldsa_verify_prehash()` and `mldsa_verify_mu()`: verifies `sig`
/// under `key` over the message of kind `kind` (`PURE`, `PREHASH` or `MU`), `m` (M, PH(M)
/// made with `ph`, or mu) and the context string `ctx`.
///
/// # Safety
///
/// `key` must be valid for reads of a `struct mldsa_pubkey` that `mldsa_pubkey_init()` has
/// written (so initialised: any such bytes are a valid `KeyBuf`), `sig`, `m` and `ctx` for
/// reads of their lengths (or be null, which gives `EINVAL` unless the length is 0), none of
/// them written during the call, and `ws` valid for writes of a `struct mldsa_workspace` and
/// used by nothing else during the call.
#[export]
unsafe extern "C" fn mldsa_rust_verify(
    key: *const mldsa_pubkey,
    sig: *const u8,
    sig_len: usize,
    kind: mldsa_rust_msg,
    ph: mldsa_prehash,
    m: *const u8,
    m_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    ws: *mut mldsa_workspace,
) -> c_int {
    if let Err(e) = check_call(key, ws) {
        return e;
    }
    // SAFETY: As in `mldsa_rust_pubkey_init`, for reads of `key`, and the caller's buffers
    // as the function's safety section says, or empty (`bytes`).
    let r = unsafe {
        let buf = &*key.cast::<KeyBuf>();
        match (bytes(sig, sig_len), bytes(m, m_len), bytes(ctx, ctx_len)) {
            (Ok(sig), Ok(m), Ok(ctx)) => message(kind, ph, &*m, &*ctx).and_then(|msg| {
                on_set!(key_alg(buf.tag), S => {
                    let key = &*buf.key.as_ptr().cast::<PublicKey<S>>();
                    let ws = ws.cast::<Workspace<S>>();
                    ws.write_bytes(0, 1);
                    let (ws, key) = (&mut *ws, VerifyingKey::Decoded(key));
                    mldsa_verify::verify::<S>(ws, key, msg, &*sig)
                })
            }),
            _ => Err(Error::BadParameter),
        }
    };
    to_errno(r)
}
