// SPDX-License-Identifier: GPL-2.0

//! Cryptography.
//!
//! C headers: [`include/crypto/`](srctree/include/crypto/)

#[cfg(CONFIG_CRYPTO_LIB_SHA3)]
pub mod sha3;
#[cfg(CONFIG_CRYPTO_SIG)]
pub mod sig;
