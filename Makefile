# SPDX-License-Identifier: GPL-2.0
#
# ML-DSA (FIPS 204) signature verification, in Rust. The crate root is
# mldsa.rs; rustc finds the other source files through its `mod` items.

obj-$(CONFIG_CRYPTO_MLDSA) += mldsa.o
