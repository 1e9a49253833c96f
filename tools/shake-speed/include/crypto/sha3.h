/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's <crypto/sha3.h>, its functions named for the build of
 * lib/crypto/sha3.c that defines them: SHA3_SUFFIX is _x86 (with
 * lib/crypto/x86/sha3.h) or _generic.
 */
#define SHA3_CAT(a, b)		a##b
#define SHA3_NAME(a, b)		SHA3_CAT(a, b)
#define __sha3_update		SHA3_NAME(__sha3_update, SHA3_SUFFIX)
#define sha3_final		SHA3_NAME(sha3_final, SHA3_SUFFIX)
#define shake_squeeze		SHA3_NAME(shake_squeeze, SHA3_SUFFIX)
#define sha3_224		SHA3_NAME(sha3_224, SHA3_SUFFIX)
#define sha3_256		SHA3_NAME(sha3_256, SHA3_SUFFIX)
#define sha3_384		SHA3_NAME(sha3_384, SHA3_SUFFIX)
#define sha3_512		SHA3_NAME(sha3_512, SHA3_SUFFIX)
#define shake128		SHA3_NAME(shake128, SHA3_SUFFIX)
#define shake256		SHA3_NAME(shake256, SHA3_SUFFIX)
#define sha3_keccak_f1600	SHA3_NAME(sha3_keccak_f1600, SHA3_SUFFIX)
#define sha3_keccak_f1600_is_optimized \
	SHA3_NAME(sha3_keccak_f1600_is_optimized, SHA3_SUFFIX)
#define sha3_init_for_host	SHA3_NAME(sha3_init_for_host, SHA3_SUFFIX)
#include_next <crypto/sha3.h>
