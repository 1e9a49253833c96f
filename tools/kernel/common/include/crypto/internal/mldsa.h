/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calls between the two halves of the mldsa module (crypto/mldsa/): the
 * Rust verifier (mldsa_api.rs, selftest.rs) and exports.c, which defines on
 * them the library interface of <crypto/mldsa.h>. The Rust side checks its
 * definitions against these declarations (#[export]). Each verifying call
 * returns -EINVAL if @key or @ws is NULL or not aligned for its type, and
 * -ELIBBAD until the module's self-tests have passed.
 */
#ifndef _CRYPTO_INTERNAL_MLDSA_H
#define _CRYPTO_INTERNAL_MLDSA_H

#include <crypto/mldsa.h>

#if IS_ENABLED(CONFIG_CRYPTO_MLDSA_EXTENDED)
/* What mldsa_rust_verify() verifies a signature over */
enum mldsa_rust_msg {
	MLDSA_RUST_PURE,	/* M and a context string (FIPS 204, Algorithm 3) */
	MLDSA_RUST_PREHASH,	/* PH(M) and a context string (Algorithm 5) */
	MLDSA_RUST_MU,		/* mu (Algorithm 8 from line 7 on) */
};

/* mldsa_pubkey_init(), as <crypto/mldsa.h> describes it */
int mldsa_rust_pubkey_init(struct mldsa_pubkey *key, enum mldsa_alg alg,
			   const u8 *pk, size_t pk_len,
			   struct mldsa_workspace *ws);

/*
 * Verifies @sig under @key over @m: M, PH(M) made with @ph, or mu, as @kind
 * says, with the context string @ctx unless @kind is MLDSA_RUST_MU.
 */
int mldsa_rust_verify(const struct mldsa_pubkey *key, const u8 *sig,
		      size_t sig_len, enum mldsa_rust_msg kind,
		      enum mldsa_prehash ph, const u8 *m, size_t m_len,
		      const u8 *ctx, size_t ctx_len, struct mldsa_workspace *ws);
#endif

/*
 * mldsa_verify(), as <crypto/mldsa.h> describes it, in the workspace @ws: the
 * key is its encoding @pk, decoded a row at a time.
 */
int mldsa_rust_verify_pk(enum mldsa_alg alg, const u8 *sig, size_t sig_len,
			 const u8 *msg, size_t msg_len, const u8 *pk,
			 size_t pk_len, struct mldsa_workspace *ws);

/*
 * Runs the module's known-answer self-tests, once; later calls give the first
 * one's result: 0 or -ELIBBAD. With @fault, on a corrupted known answer. Under
 * fips=1 a failure panics. Only when the module is built in.
 */
int mldsa_rust_selftest(bool fault);

#endif /* _CRYPTO_INTERNAL_MLDSA_H */
