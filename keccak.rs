// SPDX-License-Identifier: GPL-2.0

//! Four SHAKE instances side by side, so that ExpandA samples four entries of A at a time
//! (FIPS 204, Algorithm 32) and an arch routine can permute all four at once.
//!
//! The states are interleaved, lane by lane: lane i of state s is the little-endian word
//! at `st[i][8 * s..]`, so that row i is one 256-bit vector (as an arch routine loads it),
//! and byte k of state s is `st[k / 8][8 * s + k % 8]` on any machine. Between uses the 800
//! bytes also serve as a plain buffer. The inputs here are all shorter than one block, so
//! a SHAKE is started in one step ([`shake_start`]), then squeezed by permuting and
//! reading the state.

/// Four Keccak-f[1600] states, interleaved lane by lane.
pub type StateX4 = [[u8; 32]; 25];

/// The SHAKE128 and SHAKE256 rates, in bytes.
pub const SHAKE128_RATE: usize = 168;
pub const SHAKE256_RATE: usize = 136;

/// Starts SHAKE at `rate` in state `s`: absorbs `input`, shorter than a block, and pads
/// it (FIPS 202, Sections 5.1 and 6.2). The next permutation makes the first output block.
pub fn shake_start<'a>(
    st: &mut StateX4,
    s: usize,
    rate: usize,
    input: impl Iterator<Item = &'a u8>,
) {
    for row in st.iter_mut() {
        row[8 * s..8 * s + 8].fill(0);
    }
    let mut k = 0;
    for &b in input {
        *byte(st, s, k) = b;
        k += 1;
    }
    *byte(st, s, k) = 0x1f;
    *byte(st, s, rate - 1) |= 0x80;
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

fn set_lane(st: &mut StateX4, i: usize, s: usize, v: u64) {
    st[i][8 * s..8 * s + 8].copy_from_slice(&v.to_le_bytes());
}

const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// Keccak-f[1600] (FIPS 202, Algorithm 7) on state `s`: the portable permutation, for
/// machines without an arch routine and for lone states.
pub fn keccak_f1600(st: &mut StateX4, s: usize) {
    for &rc in &RC {
        round(st, s, rc);
    }
}

/// One round of Keccak-f[1600] (FIPS 202, Section 3.3) on state `s`, in place: out of
/// line, so that the rounds are not unrolled into one frame that spills the state.
#[inline(never)]
fn round(st: &mut StateX4, s: usize, rc: u64) {
    // Rho's rotations and pi's lane order, along pi's cycle through the lanes from lane 1.
    const RHO: [u32; 24] = [
        1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
    ];
    const PI: [usize; 24] = [
        10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
    ];
    assert!(s < 4);
    // Theta.
    let mut c = [0; 5];
    for i in 0..25 {
        c[i % 5] ^= lane(st, i, s);
    }
    for x in 0..5 {
        let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        for y in 0..5 {
            set_lane(st, x + 5 * y, s, lane(st, x + 5 * y, s) ^ d);
        }
    }
    // Rho and pi.
    let mut last = lane(st, 1, s);
    for (&p, &r) in PI.iter().zip(&RHO) {
        let next = lane(st, p, s);
        set_lane(st, p, s, last.rotate_left(r));
        last = next;
    }
    // Chi.
    for y in (0..25).step_by(5) {
        let mut row = [0; 5];
        for x in 0..5 {
            row[x] = lane(st, y + x, s);
        }
        for x in 0..5 {
            set_lane(
                st,
                y + x,
                s,
                row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]),
            );
        }
    }
    // Iota.
    set_lane(st, 0, s, lane(st, 0, s) ^ rc);
}
