// SPDX-License-Identifier: GPL-2.0

//! Scatterlists (6.12, where a signature algorithm is an akcipher one that takes the signature
//! and the message in one scatterlist): many uneven entries, at odd addresses.

use super::*;

check_at!($ "tests/sg.rs", c"tests/sg.rs");

/// A message of several pages, in a scatterlist of many uneven entries (the signature split
/// across entries too, one entry holding the end of the signature and the start of the
/// message), verifies; the same with one message bit flipped does not. (6.12: 7.x's sig
/// interface takes flat buffers.)
#[cfg(linux_6_12)]
pub(super) fn multi_entry_scatterlist() {
    let k = &vectors::ML_DSA_65_LONG;
    let tfm = tfm_with_key!(c"mldsa65", k);
    let mut all = KVec::with_capacity(k.sig.len() + k.msg.len(), GFP_KERNEL).unwrap();
    all.extend_from_slice(k.sig, GFP_KERNEL).unwrap();
    all.extend_from_slice(k.msg, GFP_KERNEL).unwrap();
    for flip in [None, Some(k.sig.len() + 3000)] {
        if let Some(i) = flip {
            all[i] ^= 0x10;
        }
        let pieces = uneven_pieces(&all);
        check!(pieces.len() > 6);
        let want = if flip.is_some() {
            EKEYREJECTED.to_errno()
        } else {
            0
        };
        check!(tfm.verify_sg(&pieces, k.sig.len(), k.msg.len()) == want);
    }
}

/// `all` cut into pieces of 1, 10, 37, 118, ... bytes.
#[cfg(linux_6_12)]
pub(super) fn uneven_pieces(all: &[u8]) -> KVec<&[u8]> {
    let mut pieces = KVec::new();
    let (mut at, mut n) = (0, 1);
    while at < all.len() {
        let end = (at + n).min(all.len());
        pieces.push(&all[at..end], GFP_KERNEL).unwrap();
        at = end;
        n = n * 3 + 7;
    }
    pieces
}
