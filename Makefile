# SPDX-License-Identifier: GPL-2.0
#
# ML-DSA (FIPS 204) signature verification, in Rust. The crate root is
# mldsa_main.rs; rustc finds the other source files through its `mod` items.
# On x86_64 the module also links the AVX2 routines of arch/x86/.

obj-$(CONFIG_CRYPTO_MLDSA) += mldsa.o
mldsa-y := mldsa_main.o
mldsa-$(CONFIG_CRYPTO_MLDSA_AVX2) += arch/x86/ntt_avx2.o arch/x86/keccak_x4_avx2.o \
				   arch/x86/rej_ntt_avx2.o
