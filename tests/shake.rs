// SPDX-License-Identifier: GPL-2.0

//! `kernel::crypto::sha3::Shake` through its two handles: output in pieces is the output in
//! one, and a context started again after output is SHAKE256 at its start.
//! (`tools/compile-fail` checks that a context cannot be updated once squeezed.)

use kernel::crypto::sha3::Shake;

check_at!($ "tests/shake.rs", c"tests/shake.rs");

/// The first 8 bytes of SHAKE256("") and of SHAKE256("abc") (FIPS 202).
const EMPTY: [u8; 8] = [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13];
const ABC: [u8; 8] = [0x48, 0x33, 0x66, 0x60, 0x13, 0x60, 0xa8, 0x77];

/// Input and output in pieces give SHAKE256's answers; `init256` after output starts again.
pub(super) fn shake_sequences() {
    let mut out = [0u8; 8];
    let mut h = Shake::new();
    h.init256().squeeze(&mut out);
    check!(out == EMPTY);
    let mut absorbing = h.init256();
    absorbing.update(b"a");
    absorbing.update(b"");
    absorbing.update(b"bc");
    absorbing.squeeze(&mut out[..3]).squeeze(&mut out[3..]);
    check!(out == ABC);
    h.init256().squeeze(&mut out);
    check!(out == EMPTY);
}
