// SPDX-License-Identifier: GPL-2.0

//! `kernel::crypto::sha3::Shake` in the sequences of calls that its C functions must never
//! see: no start, and input after output.

use kernel::crypto::sha3::Shake;

/// The first 8 bytes of SHAKE256("") and of SHAKE256("abc") (FIPS 202).
const EMPTY: [u8; 8] = [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13];
const ABC: [u8; 8] = [0x48, 0x33, 0x66, 0x60, 0x13, 0x60, 0xa8, 0x77];

/// An all-zero context is SHAKE256 at its start, whether squeezed or updated first; an
/// update after a squeeze leaves the output stream as it is; `init256` starts again.
pub(super) fn shake_sequences() {
    let mut out = [0u8; 8];
    let mut h = Shake::new();
    h.squeeze(&mut out);
    check!(out == EMPTY);
    let mut h = Shake::default();
    h.update(b"abc");
    h.squeeze(&mut out);
    check!(out == ABC);
    let mut h = Shake::new();
    h.update(b"abc");
    h.squeeze(&mut out[..3]);
    h.update(b"not absorbed");
    h.squeeze(&mut out[3..]);
    check!(out == ABC);
    h.init256();
    h.squeeze(&mut out);
    check!(out == EMPTY);
}
