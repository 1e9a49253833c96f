# SPDX-License-Identifier: GPL-2.0
#
# ML-DSA (FIPS 204) signature verification, in Rust. The crate root is
# mldsa_main.rs; rustc finds the other source files through its `mod` items.
# exports.c exports the library calls of <crypto/mldsa.h> that mldsa_api.rs
# implements. On x86_64 the module also links the AVX2 routines of arch/x86/, on
# s390 the vector-facility NTT of arch/s390/.

# The module is called mldsa_rust so that it can sit next to Linux 7.x's
# crypto/mldsa.ko. The same source builds on Linux 6.12 and 7.x: rustc learns
# which from --cfg linux_6_12 (mldsa_main.rs has what differs), the C KUnit
# suite from MLDSA_LINUX_6_12.
ifeq ($(VERSION).$(PATCHLEVEL),6.12)
rustflags-y += --cfg linux_6_12
CFLAGS_tests/mldsa_api_kunit.o += -DMLDSA_LINUX_6_12
# Kconfig asks for Rust 1.80, above 6.12's minimum of 1.78; later kernels allow this
# lint tree-wide.
rustflags-y += -Aclippy::incompatible_msrv
endif

obj-$(CONFIG_CRYPTO_MLDSA_RUST) += mldsa_rust.o
mldsa_rust-y := mldsa_main.o exports.o
mldsa_rust-$(CONFIG_CRYPTO_MLDSA_AVX2) += arch/x86/ntt_avx2.o arch/x86/keccak_x4_avx2.o \
					arch/x86/keccak_x4_avx512.o \
					arch/x86/rej_ntt_avx2.o arch/x86/w1_encode_avx2.o
mldsa_rust-$(CONFIG_CRYPTO_MLDSA_S390_VX) += arch/s390/ntt_vx.o
# Vector instructions; the routines run only where the facility is (arch.rs).
AFLAGS_arch/s390/ntt_vx.o := -march=z13

# The stack measurement of the KUnit suite mldsa_rust (tests.rs), and the KUnit
# suites of the library interface, C callers of their own.
mldsa_rust-$(CONFIG_CRYPTO_MLDSA_KUNIT_TEST) += tests/stack.o
obj-$(CONFIG_CRYPTO_MLDSA_KUNIT_TEST) += tests/mldsa_api_kunit.o
obj-$(CONFIG_CRYPTO_MLDSA_FAULTS_KUNIT_TEST) += tests/mldsa_api_faults_kunit.o
