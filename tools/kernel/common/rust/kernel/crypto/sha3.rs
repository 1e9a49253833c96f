// SPDX-License-Identifier: GPL-2.0

//! SHAKE, the extendable-output functions of SHA-3 (FIPS 202), and the permutation they are
//! built on.
//!
//! C header: [`include/crypto/sha3.h`](srctree/include/crypto/sha3.h)

use crate::bindings;
use pin_init::Zeroable;

/// A SHAKE256 context: a `struct shake_ctx`, and how far it has got.
///
/// A context absorbs input through [`Shake::update`], then produces output through
/// [`Shake::squeeze`]; [`Shake::init256`] starts it again. As in FIPS 202, a sponge takes no
/// more input once it has been squeezed: `update` then leaves the context as it is. A context
/// is created all-zero ([`Shake::new`], or as a [`Zeroable`] field of a larger structure, in
/// place): that is SHAKE256 at its start, which the first `update` or `squeeze` begins.
///
/// # Invariants
///
/// Unless `phase` is `Phase::Start`, `ctx` was set up by `shake256_init()` and then only
/// used by `shake_update()` and `shake_squeeze()`; it has been squeezed if and only if
/// `phase` is `Phase::Squeezing`. (The C functions must not see a context that
/// `shake256_init()` did not set up: on an all-zero one they would loop for ever.)
///
/// # Examples
///
/// ```
/// use kernel::crypto::sha3::Shake;
///
/// let mut h = Shake::new();
/// let mut out = [0u8; 4];
/// h.update(b"abc");
/// h.squeeze(&mut out);
/// assert_eq!(out, [0x48, 0x33, 0x66, 0x60]);
/// // Squeezed: more input is not taken, and the output goes on.
/// h.update(b"ignored");
/// h.squeeze(&mut out);
/// assert_eq!(out, [0x13, 0x60, 0xa8, 0x77]);
/// ```
pub struct Shake {
    ctx: bindings::shake_ctx,
    phase: Phase,
}

/// How far a [`Shake`] has got.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Phase {
    /// All-zero: not set up yet.
    Start = 0,
    Absorbing,
    Squeezing,
}

// SAFETY: All-zero bytes are a valid `Shake`: `struct shake_ctx` holds only integers, and zero
// is `Phase::Start`, under which the type invariant asks nothing of `ctx`.
unsafe impl Zeroable for Shake {}

impl Shake {
    /// SHAKE256 at its start: an all-zero context.
    pub const fn new() -> Self {
        pin_init::zeroed()
    }

    /// Starts SHAKE256 again, dropping whatever the context held.
    #[inline]
    pub fn init256(&mut self) {
        // SAFETY: `self.ctx` is a `struct shake_ctx` we have exclusive access to.
        unsafe { bindings::shake256_init(&mut self.ctx) };
        // INVARIANT: `shake256_init()` has just set up `ctx`, which is not squeezed.
        self.phase = Phase::Absorbing;
    }

    /// Absorbs `data`, unless the context has been squeezed.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        match self.phase {
            Phase::Start => self.init256(),
            Phase::Absorbing => {}
            Phase::Squeezing => return,
        }
        // SAFETY: `self.ctx` is ours, set up by `shake256_init()` and not squeezed (the type
        // invariant, `Phase::Absorbing`); `data` is valid for reads of `data.len()` bytes.
        unsafe { bindings::shake_update(&mut self.ctx, data.as_ptr(), data.len()) }
    }

    /// Squeezes the next `out.len()` bytes of output into `out`.
    #[inline]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if self.phase == Phase::Start {
            self.init256();
        }
        // SAFETY: `self.ctx` is ours and set up by `shake256_init()` (the type invariant, the
        // phase not being `Phase::Start`); `out` is valid for writes of `out.len()` bytes.
        unsafe { bindings::shake_squeeze(&mut self.ctx, out.as_mut_ptr(), out.len()) };
        // INVARIANT: `ctx` has been squeezed.
        self.phase = Phase::Squeezing;
    }
}

impl Default for Shake {
    /// SHAKE256 at its start, as [`Shake::new`].
    fn default() -> Self {
        Self::new()
    }
}

/// A Keccak-f\[1600\] state in the byte order of FIPS 202 (Section 3.1.2), as the SHA-3
/// library holds it: lane x + 5y of the state is the little-endian word at bytes
/// `8 * (x + 5 * y)..8 * (x + 5 * y) + 8`.
#[repr(C, align(8))]
#[derive(Clone, PartialEq, Eq)]
pub struct KeccakState(pub [u8; 200]);

// `struct sha3_state` has the layout of `KeccakState`, so that `keccak_f1600` passes one as
// the other.
const _: () = assert!(
    core::mem::size_of::<bindings::sha3_state>() == core::mem::size_of::<KeccakState>()
        && core::mem::align_of::<bindings::sha3_state>() <= core::mem::align_of::<KeccakState>()
);

/// Keccak-f\[1600\] (FIPS 202, Algorithm 7) on `state`: the SHA-3 library's permutation,
/// which runs the architecture's code where [`keccak_f1600_is_optimized`] says so.
///
/// # Examples
///
/// ```
/// use kernel::crypto::sha3::{keccak_f1600, KeccakState};
///
/// let mut state = KeccakState([0; 200]);
/// keccak_f1600(&mut state);
/// assert_eq!(state.0[..8], 0xf1258f7940e1dde7u64.to_le_bytes());
/// assert_eq!(state.0[8..16], 0x84d5ccf933c0478au64.to_le_bytes());
/// ```
#[inline]
pub fn keccak_f1600(state: &mut KeccakState) {
    // SAFETY: `struct sha3_state` is 200 bytes, the lanes little-endian, with no stricter
    // alignment than `KeccakState` (asserted above), and `state` is ours to write.
    unsafe { bindings::sha3_keccak_f1600(core::ptr::from_mut(state).cast()) };
}

/// Whether [`keccak_f1600`] runs the architecture's code on this CPU, rather than the
/// generic C: a caller with a faster permutation of its own uses the library's only then.
#[inline]
pub fn keccak_f1600_is_optimized() -> bool {
    // SAFETY: No requirements: it reads what the library found out about the CPU at its
    // initcall (before then, it says `false`).
    unsafe { bindings::sha3_keccak_f1600_is_optimized() }
}
