// SPDX-License-Identifier: GPL-2.0

//! ML-DSA (FIPS 204) signature verification.
//!
//! This file is the crate root and the thin kernel binding: the module declaration and, when
//! `CONFIG_CRYPTO_MLDSA_KUNIT_TEST` is set, the KUnit suite `mldsa`. The algorithm itself lives
//! in plain Rust modules (`params`, `ntt`) that are also built and tested on the host.

use kernel::prelude::*;

// These files are shared with the host test crate (tools/host), where their items are public
// API; here they are private modules, and not every item is used by the kernel binding yet.
#[allow(dead_code, unreachable_pub)]
mod ntt;
#[allow(dead_code, unreachable_pub)]
mod params;

#[cfg(CONFIG_CRYPTO_MLDSA_KUNIT_TEST)]
mod kunit_tests;

module! {
    type: MlDsa,
    name: "mldsa",
    author: "ML-DSA kernel module authors",
    description: "ML-DSA (FIPS 204) signature verification",
    license: "GPL",
}

struct MlDsa;

impl kernel::Module for MlDsa {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        for (name, p) in [
            ("ML-DSA-44", &params::ML_DSA_44),
            ("ML-DSA-65", &params::ML_DSA_65),
            ("ML-DSA-87", &params::ML_DSA_87),
        ] {
            pr_info!(
                "{}: public key {} bytes, signature {} bytes\n",
                name,
                p.pk_len(),
                p.sig_len()
            );
        }
        pr_info!("loaded\n");
        Ok(MlDsa)
    }
}

impl Drop for MlDsa {
    fn drop(&mut self) {
        pr_info!("unloaded\n");
    }
}
