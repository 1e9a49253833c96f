// SPDX-License-Identifier: GPL-2.0

//! KUnit suite `mldsa_rust`, one file per subject in `tests/`:
//!
//! - `arith.rs`: the arithmetic of [`crate::ntt`] against schoolbook references;
//! - `binding.rs`: the algorithms `mldsa44`, `mldsa65` and `mldsa87` through the crypto API
//!   (on 6.12, akcipher requests and `crypto_sig`; on 7.x, `crypto_sig`) and the library calls,
//!   with the known answers of `selftest/kat.h` and the mutations of `vectors.rs`; the
//!   self-test;
//! - `sg.rs`: scatterlists of many uneven entries (6.12);
//! - `arch.rs`: the arch code against the portable code;
//! - `shake.rs`: the SHAKE abstraction of the kernel crate, in sequences of calls its C must
//!   never see;
//! - `stack.rs` (with `stack.c`): the kernel stack of a verification;
//! - `bench.rs`: with `CONFIG_CRYPTO_MLDSA_BENCHMARK`, `benchmark_mldsa44/65/87` and
//!   `count_instructions`;
//! - `calls.rs`: how the cases call the verifier; `suite.rs`: how the suite is declared.
//!
//! Each case is a `fn()` that checks with `check!` (`kunit_assert!`, defined per file by
//! `check_at!`); `suite!` lists them.
//! The C suite `mldsa_api` (`tests/mldsa_api_kunit.c`) is a module of its own; it also
//! verifies on one tfm from several kthreads.

use crate::ntt;
use crate::params::{Params, Poly, ML_DSA_44, ML_DSA_65, ML_DSA_87, N, Q};
use crate::selftest;
use crate::selftest::kat::{self, Kat};
use core::ffi::{c_int, CStr};
use kernel::{bindings, prelude::*};
use vectors::{Part, Want, MUTATIONS};

/// Defines `check!` for the file `$file` of the suite (`$c_file` is the same name as a C
/// string, as 7.x's `kunit_assert!` takes it): `check!(cond)` fails the running KUnit case,
/// and stops it, unless `cond` holds, and reports the file and the line of the `check!`.
/// `$d` is `$`, which the definition of `check!` needs and a macro cannot write itself.
// rustfmt takes the inner matchers, `$d cond:expr`, for code and indents them twice.
#[rustfmt::skip]
macro_rules! check_at {
    ($d:tt $file:literal, $c_file:literal) => {
        #[cfg(linux_6_12)]
        macro_rules! check {
            ($d cond:expr) => {
                kernel::kunit_assert!("mldsa_rust", $file, 0, $d cond)
            };
        }
        #[cfg(not(linux_6_12))]
        macro_rules! check {
            ($d cond:expr) => {
                kernel::kunit_assert!("mldsa_rust", $c_file, 0, $d cond)
            };
        }
    };
}

#[macro_use]
mod calls;
mod arch;
mod arith;
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
mod bench;
mod binding;
#[cfg(linux_6_12)]
mod sg;
mod shake;
#[cfg(not(CONFIG_KASAN))]
mod stack;
#[macro_use]
mod suite;
mod vectors;

use calls::*;
#[cfg(linux_6_12)]
use sg::uneven_pieces;

/// xorshift64: a tiny deterministic generator, enough to pick test inputs.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Fills `bytes` (for the AVX2 cases, which alone use it).
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    fn fill(&mut self, bytes: &mut [u8]) {
        for b in bytes {
            *b = self.next() as u8;
        }
    }

    /// A value in (-q, q).
    fn coeff(&mut self) -> i32 {
        (self.next() % (2 * Q as u64 - 1)) as i32 - (Q - 1)
    }

    fn poly(&mut self) -> Poly {
        let mut p = [0; N];
        for c in p.iter_mut() {
            *c = self.coeff();
        }
        p
    }
}

/// The three sets: algorithm name, parameters and known answer.
const SETS: [(&CStr, &Params, &Kat); 3] = [
    (c"mldsa44", &ML_DSA_44, &kat::ML_DSA_44),
    (c"mldsa65", &ML_DSA_65, &kat::ML_DSA_65),
    (c"mldsa87", &ML_DSA_87, &kat::ML_DSA_87),
];

/// The sets' `enum mldsa_alg` values, in the order of [`SETS`].
const ALGS: [bindings::mldsa_alg; 3] = [
    bindings::mldsa_alg_MLDSA44,
    bindings::mldsa_alg_MLDSA65,
    bindings::mldsa_alg_MLDSA87,
];

/// Marks the running case skipped, with `why` as its KTAP comment.
fn skip(why: &CStr) {
    // SAFETY: Called from a running case, whose `struct kunit` outlives it; nothing else
    // writes it while the case runs.
    let test = unsafe { &mut *bindings::kunit_get_current_test() };
    test.status = bindings::kunit_status_KUNIT_SKIPPED;
    for (d, &c) in test.status_comment.iter_mut().zip(why.to_bytes_with_nul()) {
        *d = c;
    }
}

suite! {
    arith::ntt_mul_matches_schoolbook,
    arith::reduce_matches_i64,
    binding::alloc_by_name,
    binding::bit_flips_rejected,
    binding::wrong_lengths_refused,
    binding::malformed_z_and_hints,
    binding::mutated_vectors,
    binding::long_message,
    binding::tfm_outlives_registration,
    sg::multi_entry_scatterlist if linux_6_12 else c"7.x's crypto_sig takes flat buffers",
    binding::selftest_detects_corruption,
    shake::shake_sequences,
    // KASAN's instrumentation grows the frames (as FRAME_WARN's KASAN default allows for):
    // the budget is that of the builds without it, measured in the other boots.
    stack::verify_stack_usage if not(CONFIG_KASAN) else c"KASAN grows stack frames",
    stack::library_stack_usage
        if all(not(CONFIG_KASAN), CONFIG_CRYPTO_MLDSA_EXTENDED)
        else c"KASAN grows stack frames, or no CONFIG_CRYPTO_MLDSA_EXTENDED",
    arch::avx2_matches_portable if CONFIG_CRYPTO_MLDSA_AVX2 else c"no AVX2 code in this build",
    arch::avx512_matches_portable if CONFIG_CRYPTO_MLDSA_AVX2 else c"no AVX2 code in this build",
    arch::library_keccak_matches_portable,
    arch::vx_matches_portable if CONFIG_CRYPTO_MLDSA_S390_VX else c"no s390 vector code here",
    bench::benchmark_mldsa44 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"no benchmark in this build",
    bench::benchmark_mldsa65 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"no benchmark in this build",
    bench::benchmark_mldsa87 if CONFIG_CRYPTO_MLDSA_BENCHMARK else c"no benchmark in this build",
    bench::count_instructions
        if all(CONFIG_CRYPTO_MLDSA_BENCHMARK, CONFIG_CRYPTO_MLDSA_EXTENDED)
        else c"no benchmark, or no CONFIG_CRYPTO_MLDSA_EXTENDED, in this build",
}
