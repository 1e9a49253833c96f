// SPDX-License-Identifier: GPL-2.0

//! Known answers for the self-test (`selftest.rs`): per parameter set, a public key, a
//! message and its signature with an empty context string (ML-DSA.Verify, Algorithm 3).
//!
//! The answers themselves are in `kat.h`, their one copy, which the C KUnit suites include
//! and this file decodes at build time ([`c_array`]): an array that is missing, or whose
//! length is not that of its set, fails the build.

/// A known answer: `sig` is a valid signature of `msg` under `pk`.
pub(crate) struct Kat {
    pub(crate) pk: &'static [u8],
    pub(crate) msg: &'static [u8],
    pub(crate) sig: &'static [u8],
}

/// `kat.h`, read only at build time.
const KAT_H: &str = include_str!("kat.h");

/// Where the bytes of `static const u8 name[] =` start in `h`: at its first `"`.
const fn c_array_start(h: &[u8], name: &[u8]) -> usize {
    const DECL: &[u8] = b"static const u8 ";
    let mut at = 0;
    while at + DECL.len() + name.len() + 2 <= h.len() {
        if starts_with(h, at, DECL)
            && starts_with(h, at + DECL.len(), name)
            && starts_with(h, at + DECL.len() + name.len(), b"[]")
        {
            let mut quote = at + DECL.len() + name.len();
            while h[quote] != b'"' {
                quote += 1;
            }
            return quote;
        }
        at += 1;
    }
    panic!("kat.h lacks an array of that name");
}

/// Whether `h[at..]` starts with `s`.
const fn starts_with(h: &[u8], at: usize, s: &[u8]) -> bool {
    let mut i = 0;
    while i < s.len() {
        if at + i >= h.len() || h[at + i] != s[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The value of the hex digit `c`.
const fn hex_digit(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("kat.h has a \\x escape that is not lower-case hex"),
    }
}

/// The `N` bytes of the C array `name` in `kat.h`, `static const u8 name[] = "..." "...";`
/// (string literals of `\xHH` escapes or plain characters, without the NUL).
const fn c_array<const N: usize>(name: &str) -> [u8; N] {
    let (h, mut out, mut n) = (KAT_H.as_bytes(), [0u8; N], 0);
    let mut at = c_array_start(h, name.as_bytes());
    // At a '"' that opens a literal, or at what follows the last one.
    while h[at] == b'"' {
        at += 1;
        while h[at] != b'"' {
            let byte = if h[at] == b'\\' {
                assert!(h[at + 1] == b'x', "kat.h has an escape other than \\x");
                at += 4;
                hex_digit(h[at - 2]) << 4 | hex_digit(h[at - 1])
            } else {
                at += 1;
                h[at - 1]
            };
            assert!(n < N, "an array of kat.h is longer than its type");
            out[n] = byte;
            n += 1;
        }
        at += 1;
        while h[at] == b' ' || h[at] == b'\n' || h[at] == b'\t' {
            at += 1;
        }
    }
    assert!(h[at] == b';' && n == N, "an array of kat.h is short");
    out
}

/// The length of the array `name` of `kat.h` that is one plain string (a message).
const fn msg_len(name: &str) -> usize {
    let h = KAT_H.as_bytes();
    let start = c_array_start(h, name.as_bytes()) + 1;
    let mut end = start;
    while h[end] != b'"' {
        end += 1;
    }
    end - start
}

// `init_memory!` puts the known answers, with their keys and signatures, in init memory,
// which the kernel frees once the module has initialised, unless the KUnit suites are
// built: they read them later. `selftest::init`, which reads them at init, says so in its
// contract.
macro_rules! init_memory {
    ($($item:item)*) => {
        $(
            #[cfg_attr(
                not(CONFIG_CRYPTO_MLDSA_KUNIT_TEST),
                unsafe(link_section = ".init.rodata")
            )]
            $item
        )*
    };
}

/// The known answer `$kat` of the set `$set`, from the arrays `mldsa$n_pk`, `_msg` and
/// `_sig` of `kat.h`, which the module `$m` holds, all in init memory.
macro_rules! kat {
    ($kat:ident, $m:ident, $set:ident, $n:literal) => {
        mod $m {
            use super::{c_array, msg_len};
            use crate::params::{$set, ParamSet};

            init_memory! {
                pub(super) static PK: [u8; <$set>::P.pk_len()] =
                    c_array(concat!("mldsa", $n, "_pk"));
                pub(super) static MSG: [u8; msg_len(concat!("mldsa", $n, "_msg"))] =
                    c_array(concat!("mldsa", $n, "_msg"));
                pub(super) static SIG: [u8; <$set>::P.sig_len()] =
                    c_array(concat!("mldsa", $n, "_sig"));
            }
        }

        init_memory! {
            pub(crate) static $kat: Kat = Kat {
                pk: &$m::PK,
                msg: &$m::MSG,
                sig: &$m::SIG,
            };
        }
    };
}

kat!(ML_DSA_44, ml_dsa_44, MlDsa44, "44");
kat!(ML_DSA_65, ml_dsa_65, MlDsa65, "65");
kat!(ML_DSA_87, ml_dsa_87, MlDsa87, "87");

init_memory! {
    /// The known answers for ML-DSA-44, ML-DSA-65, ML-DSA-87, in this order.
    pub(crate) static KATS: [&Kat; 3] = [&ML_DSA_44, &ML_DSA_65, &ML_DSA_87];
}
