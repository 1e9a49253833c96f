// SPDX-License-Identifier: GPL-2.0

//! Four SHAKE128 instances side by side, so that ExpandA samples four entries of A at a time
//! (FIPS 204, Algorithm 32) and an arch routine can permute all four at once.
//!
//! The states are interleaved, lane by lane: lane i of state s is the little-endian word
//! at `st[i][8 * s..]`, so that row i is one 256-bit vector (as an arch routine loads it),
//! and byte k of state s is `st[k / 8][8 * s + k % 8]` on any machine. Between uses the 800
//! bytes also serve as a plain buffer. The inputs here are all shorter than one block, so
//! a SHAKE128 is started in one step ([`shake128_start`]), then squeezed by permuting and
//! reading the state.

use crate::shake::KeccakState;

/// Four Keccak-f\[1600\] states, interleaved lane by lane.
pub type StateX4 = [[u8; 32]; 25];

/// The SHAKE128 rate, in bytes.
pub const SHAKE128_RATE: usize = 168;

/// Starts SHAKE128 in state `s`: absorbs `seed || nonce`, shorter than a block, and pads it
/// (FIPS 202, Sections 5.1 and 6.2). The next permutation makes the first output block.
pub fn shake128_start(st: &mut StateX4, s: usize, seed: &[u8], nonce: &[u8]) {
    let lanes = seed.chunks_exact(8);
    let tail = lanes.remainder();
    let k = seed.len() - tail.len();
    for row in st.iter_mut() {
        row[8 * s..8 * s + 8].fill(0);
    }
    for (row, lane) in st.iter_mut().zip(lanes) {
        row[8 * s..8 * s + 8].copy_from_slice(lane);
    }
    for (n, &b) in tail.iter().chain(nonce).chain(&[0x1f]).enumerate() {
        *byte(st, s, k + n) = b;
    }
    *byte(st, s, SHAKE128_RATE - 1) |= 0x80;
}

/// Byte k of state s.
pub fn byte(st: &mut StateX4, s: usize, k: usize) -> &mut u8 {
    &mut st[k / 8][8 * s + k % 8]
}

/// Lane i of state s.
pub fn lane(st: &StateX4, i: usize, s: usize) -> u64 {
    let b = &st[i][8 * s..];
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// The round constants (FIPS 202, Algorithms 5 and 6): bit 2^j - 1 of `RC[i]` is `rc(j + 7i)`,
/// the output of an LFSR over x^8 + x^6 + x^5 + x^4 + 1.
const RC: [u64; 24] = {
    let (mut rc, mut r, mut t) = ([0; 24], 1u8, 0);
    while t < 7 * 24 {
        rc[t / 7] |= ((r & 1) as u64) << ((1 << (t % 7)) - 1);
        r = (r << 1) ^ ((r >> 7) * 0x71);
        t += 1;
    }
    rc
};

/// Keccak-f\[1600\] (FIPS 202, Algorithm 7) on state `s` (taken modulo 4): the portable
/// permutation, for machines without an arch routine.
pub fn keccak_f1600(st: &mut StateX4, s: usize) {
    // In range whatever the callers, so that the lanes are read and written without bounds
    // checks, and the 25 lanes fit the frame with few spills.
    let s = s % 4;
    let mut a: [u64; 25] = core::array::from_fn(|i| lane(st, i, s));
    for &rc in &RC {
        round(&mut a, rc);
    }
    for (i, a) in a.into_iter().enumerate() {
        st[i][8 * s..8 * s + 8].copy_from_slice(&a.to_le_bytes());
    }
}

/// Keccak-f\[1600\] on state `s` (taken modulo 4) by `permute`, the SHA-3 library's
/// permutation of a state in its byte order (`crate::shake::KeccakState`), into which the
/// lanes are copied. Not inlined: the copy is in its frame only while it runs.
#[inline(never)]
pub fn keccak_f1600_with(st: &mut StateX4, s: usize, permute: fn(&mut KeccakState)) {
    let s = s % 4;
    let mut a = KeccakState([0; 200]);
    for (lane, row) in a.0.chunks_exact_mut(8).zip(st.iter()) {
        lane.copy_from_slice(&row[8 * s..8 * s + 8]);
    }
    permute(&mut a);
    for (lane, row) in a.0.chunks_exact(8).zip(st.iter_mut()) {
        row[8 * s..8 * s + 8].copy_from_slice(lane);
    }
}

/// One round of Keccak-f\[1600\] (FIPS 202, Section 3.3).
#[inline(always)]
fn round(a: &mut [u64; 25], rc: u64) {
    // Theta.
    let c: [u64; 5] = core::array::from_fn(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]);
    for x in 0..5 {
        let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        for y in 0..5 {
            a[x + 5 * y] ^= d;
        }
    }
    // Rho and pi, along pi's cycle through the lanes from lane 1: (lane, rotation). Spelt
    // out, as a loop over tables is not unrolled at the kernel's -O2.
    let mut last = a[1];
    macro_rules! rho_pi {
        ($(($p:literal, $r:literal))*) => {
            $((a[$p], last) = (last.rotate_left($r), a[$p]);)*
        };
    }
    rho_pi! {
        (10, 1) (7, 3) (11, 6) (17, 10) (18, 15) (3, 21) (5, 28) (16, 36)
        (8, 45) (21, 55) (24, 2) (4, 14) (15, 27) (23, 41) (19, 56) (13, 8)
        (12, 25) (2, 43) (20, 62) (14, 18) (22, 39) (9, 61) (6, 20)
    }
    a[1] = last.rotate_left(44);
    // Chi.
    for y in (0..25).step_by(5) {
        let row: [u64; 5] = core::array::from_fn(|x| a[y + x]);
        for x in 0..5 {
            a[y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
        }
    }
    // Iota.
    a[0] ^= rc;
}
