// SPDX-License-Identifier: GPL-2.0

//! Cryptography.
//!
//! C headers: [`include/crypto/`](srctree/include/crypto/) and
//! [`include/linux/fips.h`](srctree/include/linux/fips.h).

use crate::{bindings, error::Error, str::CStrExt};
use core::ffi::CStr;

#[cfg(CONFIG_RUST_CRYPTO_SHA3)]
pub mod sha3;
#[cfg(CONFIG_RUST_CRYPTO_SIG)]
pub mod sig;

/// Whether the kernel runs in FIPS mode: booted with `fips=1` (with `CONFIG_CRYPTO_FIPS`).
///
/// In FIPS mode an algorithm whose self-test fails must not be used: see
/// [`fips_self_test_failed`].
///
/// # Examples
///
/// ```
/// use kernel::crypto::fips_enabled;
///
/// pr_info!("FIPS mode: {}\n", if fips_enabled() { "on" } else { "off" });
/// ```
pub fn fips_enabled() -> bool {
    // SAFETY: The helper only reads `fips_enabled`, which is set while the command line is
    // parsed and never written after.
    unsafe { bindings::fips_enabled() }
}

/// Stops the kernel because the FIPS self-test of the algorithm `alg` failed with `err`, as
/// the C algorithms do in FIPS mode (e.g. `lib/crypto/mldsa.c`): a panic with the message
/// "`alg`: FIPS self-test failed; err=`err`".
// Always inlined, so that objtool sees the caller end in `panic()`, which it knows does not
// return: it cannot see into a function of another object file.
#[inline(always)]
pub fn fips_self_test_failed(alg: &CStr, err: Error) -> ! {
    // SAFETY: The format takes a NUL-terminated string (`alg`) and an error pointer (`%pe`),
    // which `Error::to_ptr()` gives.
    unsafe {
        bindings::panic(
            c"%s: FIPS self-test failed; err=%pe\n".as_char_ptr(),
            alg.as_char_ptr(),
            err.to_ptr::<core::ffi::c_void>(),
        )
    }
}
