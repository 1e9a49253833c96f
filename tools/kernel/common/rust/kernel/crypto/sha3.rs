// SPDX-License-Identifier: GPL-2.0

//! SHAKE, the extendable-output functions of SHA-3 (FIPS 202).
//!
//! C header: [`include/crypto/sha3.h`](srctree/include/crypto/sha3.h)

use crate::bindings;
use pin_init::Zeroable;

/// A SHAKE128 or SHAKE256 context: a `struct shake_ctx`.
///
/// A context is started by [`Shake::init256`], absorbs input through [`Shake::update`], then
/// produces output through [`Shake::squeeze`]. Input absorbed after the first squeeze is
/// ignored and makes the C library warn. A context that sits in a larger structure is
/// created all-zero ([`Shake::new`], or as a [`Zeroable`] field) and started where it is.
///
/// # Examples
///
/// ```
/// use kernel::crypto::sha3::Shake;
///
/// let mut h = Shake::new();
/// let mut out = [0u8; 4];
/// h.init256();
/// h.update(b"");
/// h.squeeze(&mut out);
/// assert_eq!(out, [0x46, 0xb9, 0xdd, 0x2b]);
/// ```
#[repr(transparent)]
pub struct Shake(bindings::shake_ctx);

// SAFETY: `struct shake_ctx` holds only integers, for which all-zero bytes are valid.
unsafe impl Zeroable for Shake {}

impl Shake {
    /// A context of all-zero bytes, not started.
    pub const fn new() -> Self {
        pin_init::zeroed()
    }

    /// Starts SHAKE256, dropping whatever the context held.
    #[inline]
    pub fn init256(&mut self) {
        // SAFETY: `self.0` is a `struct shake_ctx` we have exclusive access to.
        unsafe { bindings::shake256_init(&mut self.0) }
    }

    /// Absorbs `data`.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        // SAFETY: `self.0` is ours, and `data` is valid for reads of `data.len()` bytes.
        unsafe { bindings::shake_update(&mut self.0, data.as_ptr(), data.len()) }
    }

    /// Squeezes the next `out.len()` bytes of output into `out`.
    #[inline]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        // SAFETY: `self.0` is ours, and `out` is valid for writes of `out.len()` bytes.
        unsafe { bindings::shake_squeeze(&mut self.0, out.as_mut_ptr(), out.len()) }
    }
}

impl Default for Shake {
    fn default() -> Self {
        Self::new()
    }
}
