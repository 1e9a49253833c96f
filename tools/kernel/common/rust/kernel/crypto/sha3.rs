// SPDX-License-Identifier: GPL-2.0

//! SHAKE, the extendable-output functions of SHA-3 (FIPS 202), and the permutation they are
//! built on.
//!
//! C header: [`include/crypto/sha3.h`](srctree/include/crypto/sha3.h)

use crate::bindings;
use pin_init::Zeroable;

/// The memory of a SHAKE256 context, a `struct shake_ctx`: integers only, so any bytes are a
/// valid `Shake`.
///
/// A context is used through the handles that [`Shake::init256`] returns, which borrow it: an
/// [`Absorbing`] takes input, and turns into a [`Squeezing`] at the first output. As FIPS 202
/// and `shake_update()` require, a context takes no more input once it has been squeezed:
/// [`Squeezing`] has no `update`. So the C functions see only contexts that
/// `shake256_init()` set up, in the order they allow.
///
/// # Examples
///
/// ```
/// use kernel::crypto::sha3::Shake;
///
/// let mut h = Shake::new();
/// let mut out = [0u8; 4];
/// let mut absorbing = h.init256();
/// absorbing.update(b"abc");
/// let mut squeezing = absorbing.squeeze(&mut out);
/// assert_eq!(out, [0x48, 0x33, 0x66, 0x60]);
/// squeezing.squeeze(&mut out);
/// assert_eq!(out, [0x13, 0x60, 0xa8, 0x77]);
/// ```
#[repr(transparent)]
pub struct Shake(bindings::shake_ctx);

// SAFETY: All-zero bytes are a valid `Shake`: `struct shake_ctx` holds only integers.
unsafe impl Zeroable for Shake {}

impl Shake {
    /// An all-zero context, to be started by [`Shake::init256`].
    pub const fn new() -> Self {
        pin_init::zeroed()
    }

    /// Starts SHAKE256, dropping whatever the context held, and returns it for input.
    #[inline]
    pub fn init256(&mut self) -> Absorbing<'_> {
        // SAFETY: `self.0` is a `struct shake_ctx` we have exclusive access to.
        unsafe { bindings::shake256_init(&mut self.0) };
        // INVARIANT: `shake256_init()` has just set up the context.
        Absorbing(&mut self.0)
    }
}

/// A SHAKE256 context that takes input: started, and not squeezed yet.
///
/// # Invariants
///
/// The context was set up by `shake256_init()` and has not been squeezed since.
pub struct Absorbing<'a>(&'a mut bindings::shake_ctx);

impl<'a> Absorbing<'a> {
    /// Absorbs `data`.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        // SAFETY: The context is ours (the borrow), set up by `shake256_init()` and not
        // squeezed (the type invariant); `data` is valid for reads of `data.len()` bytes.
        unsafe { bindings::shake_update(self.0, data.as_ptr(), data.len()) }
    }

    /// Squeezes the first `out.len()` bytes of output into `out`, and returns the context
    /// for the rest of the output.
    #[inline]
    pub fn squeeze(self, out: &mut [u8]) -> Squeezing<'a> {
        // INVARIANT: The context was set up by `shake256_init()` (the type invariant). This
        // consumes `self`, so nothing updates the context after it is squeezed.
        let mut squeezing = Squeezing(self.0);
        squeezing.squeeze(out);
        squeezing
    }
}

/// A SHAKE256 context that gives output, and takes no more input.
///
/// # Invariants
///
/// The context was set up by `shake256_init()`.
pub struct Squeezing<'a>(&'a mut bindings::shake_ctx);

impl Squeezing<'_> {
    /// Squeezes the next `out.len()` bytes of output into `out`.
    #[inline]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        // SAFETY: The context is ours (the borrow) and set up by `shake256_init()` (the type
        // invariant); `out` is valid for writes of `out.len()` bytes.
        unsafe { bindings::shake_squeeze(self.0, out.as_mut_ptr(), out.len()) };
    }
}

impl Default for Shake {
    /// An all-zero context, as [`Shake::new`].
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
