// SPDX-License-Identifier: GPL-2.0
/*
 * The library interface of <crypto/mldsa.h>, exported: each call on one of
 * mldsa_api.rs, which verifies (<crypto/internal/mldsa.h>). On 6.12 a Rust
 * module cannot export symbols by itself.
 *
 * The calls other than mldsa_verify() are built with
 * CONFIG_CRYPTO_MLDSA_EXTENDED.
 * On Linux 7.x, mldsa_verify() comes from here when CRYPTO_LIB_MLDSA_RUST
 * chooses this module to provide the library, or when nothing builds the
 * library, and, for the library's KUnit suite, so does mldsa_use_hint().
 */
#include <crypto/internal/mldsa.h>
#include <crypto/mldsa.h>
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#ifndef MODULE
#ifdef CONFIG_CRYPTO_MLDSA_SELFTEST_FAULT
static bool selftest_fault;
module_param(selftest_fault, bool, 0);
MODULE_PARM_DESC(selftest_fault,
		 "Corrupt a known answer of the self-tests, which then fail (testing only)");
#else
#define selftest_fault false
#endif

/*
 * Built in, the self-tests run at subsys_initcall_sync, as the FIPS self-test
 * of lib/crypto/mldsa.c runs at subsys_initcall: before the users of
 * mldsa_verify() at later levels, and after the SHA-3 library's own
 * subsys_initcall, which chooses its arch code (sha3_keccak_f1600_is_optimized()
 * tells the module whether to use it). Under fips=1 a failure panics there; the
 * module's init, at device_initcall, then only takes their result.
 */
static int __init mldsa_rust_selftest_init(void)
{
	return mldsa_rust_selftest(selftest_fault);
}
subsys_initcall_sync(mldsa_rust_selftest_init);
#endif

#ifdef CONFIG_CRYPTO_MLDSA_EXTENDED
int mldsa_pubkey_init(struct mldsa_pubkey *key, enum mldsa_alg alg,
		      const u8 *pk, size_t pk_len, struct mldsa_workspace *ws)
{
	return mldsa_rust_pubkey_init(key, alg, pk, pk_len, ws);
}
EXPORT_SYMBOL_GPL(mldsa_pubkey_init);

int mldsa_verify_ctx(const struct mldsa_pubkey *key, const u8 *sig,
		     size_t sig_len, const u8 *msg, size_t msg_len,
		     const u8 *ctx, size_t ctx_len, struct mldsa_workspace *ws)
{
	return mldsa_rust_verify(key, sig, sig_len, MLDSA_RUST_PURE, 0, msg,
				 msg_len, ctx, ctx_len, ws);
}
EXPORT_SYMBOL_GPL(mldsa_verify_ctx);

int mldsa_verify_prehash(const struct mldsa_pubkey *key, const u8 *sig,
			 size_t sig_len, enum mldsa_prehash ph, const u8 *phm,
			 size_t phm_len, const u8 *ctx, size_t ctx_len,
			 struct mldsa_workspace *ws)
{
	return mldsa_rust_verify(key, sig, sig_len, MLDSA_RUST_PREHASH, ph,
				 phm, phm_len, ctx, ctx_len, ws);
}
EXPORT_SYMBOL_GPL(mldsa_verify_prehash);

int mldsa_verify_mu(const struct mldsa_pubkey *key, const u8 *sig,
		    size_t sig_len, const u8 mu[MLDSA_MU_SIZE],
		    struct mldsa_workspace *ws)
{
	return mldsa_rust_verify(key, sig, sig_len, MLDSA_RUST_MU, 0, mu,
				 MLDSA_MU_SIZE, NULL, 0, ws);
}
EXPORT_SYMBOL_GPL(mldsa_verify_mu);

/* As mldsa_verify(), in the caller's workspace: the key is decoded a row at a time */
int mldsa_verify_noalloc(struct mldsa_verify_buf *buf, enum mldsa_alg alg,
			 const u8 *sig, size_t sig_len, const u8 *msg,
			 size_t msg_len, const u8 *pk, size_t pk_len)
{
	return mldsa_rust_verify_pk(alg, sig, sig_len, msg, msg_len, pk, pk_len,
				    buf ? &buf->ws : NULL);
}
EXPORT_SYMBOL_GPL(mldsa_verify_noalloc);
#endif

/* Unless lib/crypto/mldsa.c provides it (7.x without CRYPTO_LIB_MLDSA_RUST) */
#if IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_RUST) || !IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA)
#ifndef kvmalloc_obj	/* Linux 6.12 */
#define kvmalloc_obj(obj, gfp) kvmalloc(sizeof(obj), gfp)
#endif

/* The lengths of the public key and the signature of each set */
static const struct {
	size_t pk_len, sig_len;
} mldsa_lengths[] = {
	[MLDSA44] = { MLDSA44_PUBLIC_KEY_SIZE, MLDSA44_SIGNATURE_SIZE },
	[MLDSA65] = { MLDSA65_PUBLIC_KEY_SIZE, MLDSA65_SIGNATURE_SIZE },
	[MLDSA87] = { MLDSA87_PUBLIC_KEY_SIZE, MLDSA87_SIGNATURE_SIZE },
};

/*
 * As Linux 7.0's: the lengths are checked before anything is allocated, and
 * what was allocated is freed with its contents cleared (FIPS 204, Section
 * 3.6.3, although nothing here is secret). Only a workspace is allocated: the
 * key is decoded a row at a time, as the C does.
 */
int mldsa_verify(enum mldsa_alg alg, const u8 *sig, size_t sig_len,
		 const u8 *msg, size_t msg_len, const u8 *pk, size_t pk_len)
{
	struct mldsa_workspace *ws;
	int err;

	if ((unsigned int)alg >= ARRAY_SIZE(mldsa_lengths))
		return -EINVAL;
	if (pk_len != mldsa_lengths[alg].pk_len ||
	    sig_len != mldsa_lengths[alg].sig_len)
		return -EBADMSG;
	ws = kvmalloc_obj(*ws, GFP_KERNEL);
	if (!ws)
		return -ENOMEM;
	err = mldsa_rust_verify_pk(alg, sig, sig_len, msg, msg_len, pk, pk_len,
				   ws);
	kvfree_sensitive(ws, sizeof(*ws));
	return err;
}
EXPORT_SYMBOL_GPL(mldsa_verify);
#endif

#if IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_RUST) && \
	IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_KUNIT_TEST)
EXPORT_SYMBOL_IF_KUNIT(mldsa_use_hint);
#endif
