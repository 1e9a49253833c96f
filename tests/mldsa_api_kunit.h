/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KUnit suites of the library interface share: the known answers
 * of the self-test (selftest/kat.h) as struct vector, the other vectors
 * (mldsa_api_kunit_vectors.h), and a corrupted signature.
 */
#ifndef _MLDSA_API_KUNIT_H
#define _MLDSA_API_KUNIT_H

#include <crypto/mldsa.h>
#include <kunit/test.h>
#include <linux/string.h>

#include "../selftest/kat.h"
#include "mldsa_api_kunit_vectors.h"

/* The vectors are C strings: their length is their size less the NUL. */
#define LEN(a) (sizeof(a) - 1)

struct vector {
	enum mldsa_alg alg;
	const u8 *pk, *msg, *sig;
	size_t pk_len, msg_len, sig_len;
};

#define VECTOR(n)							\
	{								\
		.alg = MLDSA##n,					\
		.pk = mldsa##n##_pk, .pk_len = LEN(mldsa##n##_pk),	\
		.msg = mldsa##n##_msg, .msg_len = LEN(mldsa##n##_msg),	\
		.sig = mldsa##n##_sig, .sig_len = LEN(mldsa##n##_sig),	\
	}

static const struct vector vectors[] = { VECTOR(44), VECTOR(65), VECTOR(87) };

/* A copy of @v's signature with one bit of c~ flipped: well-formed, invalid. */
static inline u8 *corrupted_sig(struct kunit *test, const struct vector *v)
{
	u8 *sig = kunit_kmalloc(test, v->sig_len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sig);
	memcpy(sig, v->sig, v->sig_len);
	sig[0] ^= 1;
	return sig;
}

#endif /* _MLDSA_API_KUNIT_H */
