// SPDX-License-Identifier: GPL-2.0

//! ML-DSA (FIPS 204) signature verification for the kernel crypto API.
//!
//! This file is the crate root and the module, which runs the known-answer self-tests
//! (`selftest.rs`) before it registers the algorithms of `alg.rs` and enables the library
//! calls of `mldsa_api.rs`. The algorithm itself (`params`, `ntt`, `keccak`, `poly`,
//! `arch`, `mldsa_verify`, from the bottom up) is plain Rust, built and tested on the host
//! as well (tools/host); it reaches the kernel through two seams: `crate::shake`, the
//! kernel's SHAKE library, and `crate::simd` (`simd.rs`), which lets the SIMD routines of
//! `arch/x86/` and `arch/s390/` run in kernel FPU sections.
//!
//! The module talks to the kernel through the `kernel` crate only: `kernel::crypto::sig`
//! registers the algorithms (akcipher on Linux 6.12, `sig_alg` later, behind one trait),
//! `kernel::crypto::sha3` hashes, and `kernel::fpu` and `kernel::cpufeature` guard the x86
//! SIMD code (tools/patches adds them). The same source builds on Linux 6.12 and on 7.x;
//! the Makefile tells rustc which (`--cfg linux_6_12`) for the few names that changed.

use kernel::crypto::sig::Registration;
use kernel::prelude::*;
use params::{MlDsa44, MlDsa65, MlDsa87, ParamSet};

// Items the kernel crate moved after 6.12 (to the `pin-init` crate), and renamed.
#[cfg(linux_6_12)]
use kernel::init::{zeroed as init_zeroed, Zeroable};
#[cfg(not(linux_6_12))]
use pin_init::{init_zeroed, Zeroable};

// The core's items are public API for the host harness (tools/host), where the same files
// are built; here they are private modules and the module does not use every item. `allow`,
// not `expect`: which items go unused depends on the configuration (the KUnit suites and the
// arch code use more), so an expected `dead_code` would go unfulfilled in some.
#[allow(dead_code, unreachable_pub)]
mod arch;
#[allow(dead_code, unreachable_pub)]
mod keccak;
#[allow(dead_code, unreachable_pub)]
mod mldsa_verify;
#[allow(dead_code, unreachable_pub)]
mod ntt;
#[allow(dead_code, unreachable_pub)]
mod params;
#[allow(dead_code, unreachable_pub)]
mod poly;

/// The core's SHAKE seam.
use kernel::crypto::sha3 as shake;

mod alg;
mod mldsa_api;
mod selftest;
mod simd;

#[cfg(CONFIG_CRYPTO_MLDSA_KUNIT_TEST)]
mod tests;

/// The `module!` of this module; `module!` took `authors` in place of `author` after 6.12.
macro_rules! mldsa_module {
    ($($authors:tt)*) => {
        module! {
            type: MlDsaModule,
            name: "mldsa_rust",
            $($authors)*,
            description: "ML-DSA (FIPS 204) signature verification",
            license: "GPL",
            // MODULE_ALIAS_CRYPTO() for each algorithm and driver name.
            alias: [
                "crypto-mldsa44", "mldsa44", "crypto-mldsa44-rust", "mldsa44-rust",
                "crypto-mldsa65", "mldsa65", "crypto-mldsa65-rust", "mldsa65-rust",
                "crypto-mldsa87", "mldsa87", "crypto-mldsa87-rust", "mldsa87-rust",
            ],
        }
    };
}
#[cfg(linux_6_12)]
mldsa_module!(
    author: "Seed 70e730ef maintainers <maintainers@users.noreply.a-seed-70e730ef.example>"
);
#[cfg(not(linux_6_12))]
mldsa_module!(
    authors: ["Seed 70e730ef maintainers <maintainers@users.noreply.a-seed-70e730ef.example>"]
);

impl From<mldsa_verify::Error> for Error {
    fn from(e: mldsa_verify::Error) -> Self {
        match e {
            mldsa_verify::Error::Malformed => EBADMSG,
            mldsa_verify::Error::Rejected => EKEYREJECTED,
            mldsa_verify::Error::BadParameter => EINVAL,
        }
    }
}

// SAFETY: All-zero bytes are a valid `Workspace<S>`: its `S::Cols` and `S::Parked` are
// `Zeroable` (the bounds), and its other fields are integers (polynomials and buffers) and a
// `Shake`, which is `Zeroable`.
unsafe impl<S: ParamSet> Zeroable for mldsa_verify::Workspace<S>
where
    S::Cols: Zeroable,
    S::Parked: Zeroable,
{
}

struct MlDsaModule {
    _mldsa44: Registration<alg::MlDsa<MlDsa44>>,
    _mldsa65: Registration<alg::MlDsa<MlDsa65>>,
    _mldsa87: Registration<alg::MlDsa<MlDsa87>>,
}

impl kernel::Module for MlDsaModule {
    fn init(module: &'static ThisModule) -> Result<Self> {
        // Built in, they ran at subsys_initcall_sync (exports.c), and this gives their outcome.
        // SAFETY: A module's init runs before its init memory is freed, and built in, an
        // initcall before the kernel's is.
        unsafe { selftest::init(false) }?;
        let m = MlDsaModule {
            _mldsa44: Registration::new(module)?,
            _mldsa65: Registration::new(module)?,
            _mldsa87: Registration::new(module)?,
        };
        pr_info!("registered mldsa44, mldsa65, mldsa87 (drivers mldsaNN-rust)\n");
        Ok(m)
    }
}
