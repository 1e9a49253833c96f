// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite mldsa_api: the library interface of <crypto/mldsa.h> (all of
 * it with CONFIG_CRYPTO_MLDSA_EXTENDED), called from C the way a C caller
 * calls it, with known answers made by another implementation
 * (mldsa_api_kunit_vectors.h). mu and PH(M) are computed here with the
 * kernel's SHAKE library.
 */
#include <crypto/mldsa.h>
#include <crypto/public_key.h>
#include <crypto/sha3.h>
#include <crypto/sig.h>
#include <kunit/test.h>
#include <linux/align.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "mldsa_api_kunit.h"

/* mldsa_verify(), the Linux 7.0 call, and its return codes. */
static void verify_like_linux_7_0(struct kunit *test)
{
	const struct vector *v;

	for (v = vectors; v < vectors + ARRAY_SIZE(vectors); v++) {
		const struct vector *other = &vectors[(v - vectors + 1) % 3];
		u8 *bad = corrupted_sig(test, v);

		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, v->sig, v->sig_len,
						   v->msg, v->msg_len,
						   v->pk, v->pk_len), 0);
		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, bad, v->sig_len,
						   v->msg, v->msg_len,
						   v->pk, v->pk_len),
				-EKEYREJECTED);
		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, v->sig, v->sig_len,
						   v->msg, v->msg_len - 1,
						   v->pk, v->pk_len),
				-EKEYREJECTED);
		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, v->sig,
						   v->sig_len - 1, v->msg,
						   v->msg_len, v->pk, v->pk_len),
				-EBADMSG);
		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, v->sig, v->sig_len,
						   v->msg, v->msg_len, v->pk,
						   v->pk_len + 1),
				-EBADMSG);
		/* Another set's key and signature, under this set. */
		KUNIT_EXPECT_EQ(test, mldsa_verify(v->alg, other->sig,
						   other->sig_len, other->msg,
						   other->msg_len, other->pk,
						   other->pk_len),
				-EBADMSG);
	}
	/* lib/crypto/mldsa.c's mldsa_verify() does not check the set. */
	if (!IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_GENERIC))
		KUNIT_EXPECT_EQ(test, mldsa_verify(MLDSA87 + 1, mldsa87_sig,
						   LEN(mldsa87_sig), mldsa87_msg,
						   LEN(mldsa87_msg), mldsa87_pk,
						   LEN(mldsa87_pk)),
				-EINVAL);
}

/* The calls beyond mldsa_verify(), with CONFIG_CRYPTO_MLDSA_EXTENDED */
#if IS_ENABLED(CONFIG_CRYPTO_MLDSA_EXTENDED)
/* A decoded key and a workspace, zeroed, from the test's memory. */
static void alloc_key_ws(struct kunit *test, struct mldsa_pubkey **key,
			 struct mldsa_workspace **ws)
{
	*key = kunit_kzalloc(test, sizeof(**key), GFP_KERNEL);
	*ws = kunit_kzalloc(test, sizeof(**ws), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *key);
	KUNIT_ASSERT_NOT_NULL(test, *ws);
}

/* mldsa_verify_noalloc(): the same answers, in the caller's memory. */
static void verify_noalloc(struct kunit *test)
{
	struct mldsa_verify_buf *buf = kunit_kmalloc(test, sizeof(*buf),
						     GFP_KERNEL);
	const struct vector *v;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (v = vectors; v < vectors + ARRAY_SIZE(vectors); v++) {
		u8 *bad = corrupted_sig(test, v);

		KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(buf, v->alg, v->sig,
							   v->sig_len, v->msg,
							   v->msg_len, v->pk,
							   v->pk_len), 0);
		KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(buf, v->alg, bad,
							   v->sig_len, v->msg,
							   v->msg_len, v->pk,
							   v->pk_len),
				-EKEYREJECTED);
		KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(buf, v->alg, v->sig,
							   v->sig_len, v->msg,
							   v->msg_len, v->pk,
							   v->pk_len - 1),
				-EBADMSG);
	}
}

/* One decoded key serves many verifications; a failed decode leaves no key. */
static void pubkey_init_and_reuse(struct kunit *test)
{
	const struct vector *v = &vectors[1];
	struct mldsa_workspace *ws;
	struct mldsa_pubkey *key;
	u8 *bad = corrupted_sig(test, v);
	int i;

	alloc_key_ws(test, &key, &ws);
	KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk, v->pk_len,
						ws), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len,
						       v->msg, v->msg_len,
						       NULL, 0, ws), 0);
		KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, bad, v->sig_len,
						       v->msg, v->msg_len,
						       NULL, 0, ws),
				-EKEYREJECTED);
	}
	/* Another set's signature length under this key. */
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa87_sig,
					       LEN(mldsa87_sig), v->msg,
					       v->msg_len, NULL, 0, ws),
			-EBADMSG);

	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk,
						v->pk_len - 1, ws),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(key, MLDSA87 + 1, v->pk,
						v->pk_len, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
}

/*
 * Whatever bytes the caller's key and workspace memory held before (here every
 * byte 0xff, as no Rust value of the workspace's SHAKE context is), each call
 * gives the same answers: it writes the memory before it reads it.
 */
static void any_bytes_in_caller_memory(struct kunit *test)
{
	struct mldsa_verify_buf *buf = kunit_kmalloc(test, sizeof(*buf),
						     GFP_KERNEL);
	struct mldsa_workspace *ws;
	struct mldsa_pubkey *key;
	const struct vector *v;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	alloc_key_ws(test, &key, &ws);
	for (v = vectors; v < vectors + ARRAY_SIZE(vectors); v++) {
		u8 *bad = corrupted_sig(test, v);

		memset(buf, 0xff, sizeof(*buf));
		KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(buf, v->alg, v->sig,
							   v->sig_len, v->msg,
							   v->msg_len, v->pk,
							   v->pk_len), 0);
		memset(buf, 0xff, sizeof(*buf));
		KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(buf, v->alg, bad,
							   v->sig_len, v->msg,
							   v->msg_len, v->pk,
							   v->pk_len),
				-EKEYREJECTED);
		memset(key, 0xff, sizeof(*key));
		memset(ws, 0xff, sizeof(*ws));
		KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk,
							v->pk_len, ws), 0);
		memset(ws, 0xff, sizeof(*ws));
		KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len,
						       v->msg, v->msg_len,
						       NULL, 0, ws), 0);
		memset(ws, 0xff, sizeof(*ws));
		KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, bad, v->sig_len,
						       v->msg, v->msg_len,
						       NULL, 0, ws),
				-EKEYREJECTED);
	}
}

/* mldsa_verify_ctx(): the context string is part of what is signed. */
static void verify_with_context(struct kunit *test)
{
	struct mldsa_workspace *ws;
	struct mldsa_pubkey *key;
	u8 *long_ctx = kunit_kzalloc(test, 256, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, long_ctx);
	alloc_key_ws(test, &key, &ws);
	KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, MLDSA44, mldsa44_pk,
						LEN(mldsa44_pk), ws), 0);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ctx,
					       LEN(mldsa44_sig_ctx),
					       mldsa44_msg, LEN(mldsa44_msg),
					       mldsa44_ctx, LEN(mldsa44_ctx),
					       ws), 0);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ctx,
					       LEN(mldsa44_sig_ctx),
					       mldsa44_msg, LEN(mldsa44_msg),
					       NULL, 0, ws),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ctx,
					       LEN(mldsa44_sig_ctx),
					       mldsa44_msg, LEN(mldsa44_msg),
					       mldsa44_ctx, LEN(mldsa44_ctx) - 1,
					       ws),
			-EKEYREJECTED);
	/* The empty-context signature does not verify with a context. */
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig,
					       LEN(mldsa44_sig), mldsa44_msg,
					       LEN(mldsa44_msg), mldsa44_ctx,
					       LEN(mldsa44_ctx), ws),
			-EKEYREJECTED);
	/* 255 bytes is the most a context string can have. */
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ctx,
					       LEN(mldsa44_sig_ctx),
					       mldsa44_msg, LEN(mldsa44_msg),
					       long_ctx, 255, ws),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ctx,
					       LEN(mldsa44_sig_ctx),
					       mldsa44_msg, LEN(mldsa44_msg),
					       long_ctx, 256, ws),
			-EINVAL);
}

/* mldsa_verify_mu(), with mu = SHAKE256(SHAKE256(pk, 64) || 0 || 0 || M, 64). */
static void verify_external_mu(struct kunit *test)
{
	static const u8 empty_ctx_prefix[2] = { 0, 0 };
	const struct vector *v;
	struct mldsa_workspace *ws;
	struct mldsa_pubkey *key;
	struct shake_ctx h;
	u8 tr[64], mu[MLDSA_MU_SIZE];

	alloc_key_ws(test, &key, &ws);
	for (v = vectors; v < vectors + ARRAY_SIZE(vectors); v++) {
		shake256(v->pk, v->pk_len, tr, sizeof(tr));
		shake256_init(&h);
		shake_update(&h, tr, sizeof(tr));
		shake_update(&h, empty_ctx_prefix, sizeof(empty_ctx_prefix));
		shake_update(&h, v->msg, v->msg_len);
		shake_squeeze(&h, mu, sizeof(mu));

		KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk,
							v->pk_len, ws), 0);
		KUNIT_EXPECT_EQ(test, mldsa_verify_mu(key, v->sig, v->sig_len,
						      mu, ws), 0);
		mu[63] ^= 0x80;
		KUNIT_EXPECT_EQ(test, mldsa_verify_mu(key, v->sig, v->sig_len,
						      mu, ws),
				-EKEYREJECTED);
	}
}

/* mldsa_verify_prehash(), with PH(M) = SHAKE256(M, 64). */
static void verify_prehash(struct kunit *test)
{
	struct mldsa_workspace *ws;
	struct mldsa_pubkey *key;
	u8 phm[64];

	alloc_key_ws(test, &key, &ws);
	KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, MLDSA44, mldsa44_pk,
						LEN(mldsa44_pk), ws), 0);
	shake256(mldsa44_msg, LEN(mldsa44_msg), phm, sizeof(phm));
	KUNIT_EXPECT_EQ(test, mldsa_verify_prehash(key, mldsa44_sig_ph,
						   LEN(mldsa44_sig_ph),
						   MLDSA_SHAKE256, phm,
						   sizeof(phm), NULL, 0, ws), 0);
	/* Another function with a PH(M) of the same length. */
	KUNIT_EXPECT_EQ(test, mldsa_verify_prehash(key, mldsa44_sig_ph,
						   LEN(mldsa44_sig_ph),
						   MLDSA_SHA512, phm,
						   sizeof(phm), NULL, 0, ws),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, mldsa_verify_prehash(key, mldsa44_sig_ph,
						   LEN(mldsa44_sig_ph),
						   MLDSA_SHAKE256, phm,
						   sizeof(phm), mldsa44_ctx,
						   LEN(mldsa44_ctx), ws),
			-EKEYREJECTED);
	/* HashML-DSA and pure ML-DSA sign different messages. */
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, mldsa44_sig_ph,
					       LEN(mldsa44_sig_ph), mldsa44_msg,
					       LEN(mldsa44_msg), NULL, 0, ws),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, mldsa_verify_prehash(key, mldsa44_sig_ph,
						   LEN(mldsa44_sig_ph),
						   MLDSA_SHAKE256, phm, 32,
						   NULL, 0, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_prehash(key, mldsa44_sig_ph,
						   LEN(mldsa44_sig_ph),
						   MLDSA_SHAKE256 + 1, phm,
						   sizeof(phm), NULL, 0, ws),
			-EINVAL);
}

/*
 * A NULL or misaligned key or workspace, a NULL buffer of nonzero length, a key
 * that mldsa_pubkey_init() did not write, and an unknown set, are refused with
 * -EINVAL before anything is read or written.
 */
static void bad_arguments(struct kunit *test)
{
	const struct vector *v = &vectors[0];
	u8 *mem = kunit_kzalloc(test, sizeof(struct mldsa_pubkey) +
				sizeof(struct mldsa_workspace) + 64, GFP_KERNEL);
	struct mldsa_workspace *ws, *bad_ws;
	struct mldsa_pubkey *key, *bad_key;

	KUNIT_ASSERT_NOT_NULL(test, mem);
	ws = PTR_ALIGN((void *)mem, 32);
	key = (void *)(ws + 1);
	bad_ws = (void *)((u8 *)ws + 8);
	bad_key = (void *)((u8 *)key + 4);

	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk, v->pk_len,
						bad_ws), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(bad_key, v->alg, v->pk,
						v->pk_len, ws), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(NULL, v->alg, v->pk, v->pk_len,
						ws), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk, v->pk_len,
						NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk, v->pk_len,
						ws), 0);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, bad_ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(bad_key, v->sig, v->sig_len,
					       v->msg, v->msg_len, NULL, 0, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_mu(NULL, v->sig, v->sig_len,
					      mem, ws), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc(NULL, v->alg, v->sig,
						   v->sig_len, v->msg,
						   v->msg_len, v->pk,
						   v->pk_len), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_noalloc((void *)bad_ws, v->alg,
						   v->sig, v->sig_len, v->msg,
						   v->msg_len, v->pk,
						   v->pk_len), -EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws), 0);
	/* A NULL buffer with a length that is not 0. */
	KUNIT_EXPECT_EQ(test, mldsa_pubkey_init(key, v->alg, NULL, v->pk_len,
						ws), -EINVAL);
	KUNIT_ASSERT_EQ(test, mldsa_pubkey_init(key, v->alg, v->pk, v->pk_len,
						ws), 0);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, NULL, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, NULL,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 1, ws),
			-EINVAL);
	/*
	 * A key cleared or overwritten after mldsa_pubkey_init(): all-zero, or
	 * bytes with the set in the first word, as a small integer would be.
	 */
	memset(key, 0, sizeof(*key));
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
	memset(key, 0x5a, sizeof(*key));
	*(u64 *)key = v->alg + 1;
	KUNIT_EXPECT_EQ(test, mldsa_verify_ctx(key, v->sig, v->sig_len, v->msg,
					       v->msg_len, NULL, 0, ws),
			-EINVAL);
	/* lib/crypto/mldsa.c's mldsa_verify() does not check the set. */
	if (!IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_GENERIC))
		KUNIT_EXPECT_EQ(test, mldsa_verify(-1, v->sig, v->sig_len,
						   v->msg, v->msg_len, v->pk,
						   v->pk_len),
				-EINVAL);
}

struct hint_flipper {
	u8 *byte;
	u8 valid;
};

/* Sets *byte to 0 and back to its valid value, for a while each, until stopped. */
static int hint_flipper(void *data)
{
	struct hint_flipper *f = data;
	int i;

	while (!kthread_should_stop()) {
		WRITE_ONCE(*f->byte, 0);
		for (i = 0; i < 1000; i++)
			cpu_relax();
		WRITE_ONCE(*f->byte, f->valid);
		for (i = 0; i < 1000; i++)
			cpu_relax();
		cond_resched();
	}
	return 0;
}

/*
 * A C caller's signature changes during the call: another thread flips the
 * end of the hint's last row between its value and 0, which makes the hint
 * malformed. Each call gives 0 or -EBADMSG (the hint is copied once, then
 * checked and used); none panics.
 */
static void concurrent_hint_change(struct kunit *test)
{
	const struct vector *v = &vectors[0];
	struct mldsa_verify_buf *buf = kunit_kmalloc(test, sizeof(*buf),
						     GFP_KERNEL);
	u8 *sig = kunit_kmalloc(test, v->sig_len, GFP_KERNEL);
	struct hint_flipper f;
	struct task_struct *t;
	int i, r, bad = 0, malformed = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, sig);
	memcpy(sig, v->sig, v->sig_len);
	f.byte = &sig[v->sig_len - 1];
	f.valid = *f.byte;
	KUNIT_ASSERT_GT(test, f.valid, 0);
	t = kthread_run(hint_flipper, &f, "mldsa-kunit-flip");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 200; i++) {
		r = mldsa_verify_noalloc(buf, v->alg, sig, v->sig_len, v->msg,
					 v->msg_len, v->pk, v->pk_len);
		malformed += r == -EBADMSG;
		bad += r != 0 && r != -EBADMSG;
	}
	kthread_stop(t);
	kunit_info(test, "200 calls: %d malformed, %d unexpected\n",
		   malformed, bad);
	KUNIT_EXPECT_EQ(test, bad, 0);
}
#endif

/* One thread of concurrent_tfm_verify(), and its wrong answers. */
struct tfm_worker {
	struct crypto_sig *tfm;
	const struct vector *v;
	int seed, wrong;
	struct completion done;
};

#define TFM_WORKER_ROUNDS 12

/* Ends a worker thread: signals @done, then waits for kthread_stop(). */
static int worker_done(struct completion *done)
{
	complete(done);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

/*
 * Verifies the valid signature and corrupted copies of it in turn on the
 * shared tfm, counts the wrong answers, then waits to be stopped.
 */
static int tfm_worker(void *data)
{
	struct tfm_worker *w = data;
	const struct vector *v = w->v;
	u8 *sig = kmemdup(v->sig, v->sig_len, GFP_KERNEL);
	int i, want;

	for (i = 0; i < TFM_WORKER_ROUNDS; i++) {
		if (!sig) {
			w->wrong++;
			continue;
		}
		memcpy(sig, v->sig, v->sig_len);
		want = 0;
		if ((i + w->seed) % 2) {
			sig[(i * 97 + w->seed) % 32] ^= 4;
			want = -EKEYREJECTED;
		}
		if (crypto_sig_verify(w->tfm, sig, v->sig_len, v->msg,
				      v->msg_len) != want)
			w->wrong++;
	}
	kfree(sig);
	return worker_done(&w->done);
}

/*
 * Four threads verify on one crypto_sig tfm at once (Linux 6.12: an
 * akcipher request each; 7.x: a workspace each, allocated for the call, and
 * no lock held while it runs): every answer is right.
 */
static void concurrent_tfm_verify(struct kunit *test)
{
	const struct vector *v = &vectors[1];
	struct tfm_worker w[4];
	struct task_struct *t[ARRAY_SIZE(w)];
	struct crypto_sig *tfm = crypto_alloc_sig("mldsa65", 0, 0);
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	KUNIT_ASSERT_EQ(test, crypto_sig_set_pubkey(tfm, v->pk, v->pk_len), 0);
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		w[i] = (struct tfm_worker){ .tfm = tfm, .v = v, .seed = i };
		init_completion(&w[i].done);
		t[i] = kthread_run(tfm_worker, &w[i], "mldsa-kunit-%d", i);
		KUNIT_EXPECT_FALSE(test, IS_ERR(t[i]));
	}
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (IS_ERR(t[i]))
			continue;
		wait_for_completion(&w[i].done);
		kthread_stop(t[i]);
		KUNIT_EXPECT_EQ(test, w[i].wrong, 0);
	}
	crypto_free_sig(tfm);
}

#ifndef MLDSA_LINUX_6_12
/*
 * The verifying thread of concurrent_set_pubkey(): its verifications under
 * the signer's key, and its answers that are neither that nor -EKEYREJECTED.
 */
struct pubkey_race {
	struct crypto_sig *tfm;
	const struct vector *v;
	int valid, other;
	struct completion done;
};

static int pubkey_race_verifier(void *data)
{
	struct pubkey_race *r = data;
	const struct vector *v = r->v;
	int i, err;

	for (i = 0; i < TFM_WORKER_ROUNDS; i++) {
		err = crypto_sig_verify(r->tfm, v->sig, v->sig_len, v->msg,
					v->msg_len);
		r->valid += err == 0;
		r->other += err && err != -EKEYREJECTED;
	}
	return worker_done(&r->done);
}

/*
 * Linux 7.x: one thread verifies on a tfm while this one replaces its key,
 * with the signer's and with another of the same length in turn. Each
 * verification runs under one key or the other (0 or -EKEYREJECTED), and the
 * key it took stays valid until it ends, though replaced meanwhile (KASAN and
 * kmemleak check it in the debug kernel). Afterwards the signer's key, set
 * again, verifies.
 */
static void concurrent_set_pubkey(struct kunit *test)
{
	const struct vector *v = &vectors[0];
	u8 *other = kunit_kmalloc(test, v->pk_len, GFP_KERNEL);
	struct pubkey_race r = { .v = v };
	struct task_struct *t;
	int i, set_err = 0;

	KUNIT_ASSERT_NOT_NULL(test, other);
	memcpy(other, v->pk, v->pk_len);
	other[v->pk_len - 1] ^= 1;
	r.tfm = crypto_alloc_sig("mldsa44", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r.tfm));
	KUNIT_EXPECT_EQ(test, crypto_sig_set_pubkey(r.tfm, v->pk, v->pk_len), 0);
	init_completion(&r.done);
	t = kthread_run(pubkey_race_verifier, &r, "mldsa-kunit-pk");
	KUNIT_EXPECT_FALSE(test, IS_ERR(t));
	for (i = 0; !IS_ERR(t) && !completion_done(&r.done); i++) {
		set_err |= crypto_sig_set_pubkey(r.tfm, i % 2 ? other : v->pk,
						 v->pk_len);
		cond_resched();
	}
	if (!IS_ERR(t))
		kthread_stop(t);
	kunit_info(test, "%d keys set during %d verifications, %d under the signer's\n",
		   i, TFM_WORKER_ROUNDS, r.valid);
	KUNIT_EXPECT_EQ(test, set_err, 0);
	KUNIT_EXPECT_EQ(test, r.other, 0);
	KUNIT_EXPECT_EQ(test, crypto_sig_set_pubkey(r.tfm, v->pk, v->pk_len), 0);
	KUNIT_EXPECT_EQ(test, crypto_sig_verify(r.tfm, v->sig, v->sig_len, v->msg,
						v->msg_len), 0);
	crypto_free_sig(r.tfm);
}
#else
static void concurrent_set_pubkey(struct kunit *test)
{
	kunit_skip(test, "Linux 6.12's akcipher callers set no key during requests");
}
#endif

#if defined(MLDSA_LINUX_6_12) && IS_BUILTIN(CONFIG_ASYMMETRIC_PUBLIC_KEY_SUBTYPE)
/*
 * Linux 6.12's public_key_verify_signature() hands ML-DSA the signature and
 * the signed data in place, page by page (tools/patches/6.12/0006), wherever
 * they are: here in a vmalloc area, the signature across a page boundary, the
 * data at the area's end. They verify; one byte more of data runs into the
 * unmapped guard page after the area, which has no page: -EINVAL, before
 * anything reads it. (Built as a module, the vectors themselves are in module
 * memory, which the crypto API path reads too.)
 */
static void public_key_data_in_place(struct kunit *test)
{
	const struct vector *v = &vectors[0];
	struct public_key pkey = {
		.key = (void *)v->pk, .keylen = v->pk_len,
		.id_type = "X509", .pkey_algo = "mldsa44",
	};
	struct public_key_signature sig = {
		.s_size = v->sig_len,
		.pkey_algo = "mldsa44", .hash_algo = "none", .encoding = "raw",
		.algo_takes_data = true,
	};
	u8 *area = vmalloc(3 * PAGE_SIZE);

	KUNIT_ASSERT_NOT_NULL(test, area);
	KUNIT_ASSERT_LE(test, v->sig_len, 2 * PAGE_SIZE - 16);
	KUNIT_ASSERT_LE(test, v->msg_len, PAGE_SIZE);
	sig.s = area + PAGE_SIZE - 16;
	memcpy(sig.s, v->sig, v->sig_len);
	sig.digest = area + 3 * PAGE_SIZE - v->msg_len;
	sig.digest_size = v->msg_len;
	memcpy(sig.digest, v->msg, v->msg_len);
	KUNIT_EXPECT_EQ(test, public_key_verify_signature(&pkey, &sig), 0);
	sig.digest_size++;
	KUNIT_EXPECT_EQ(test, public_key_verify_signature(&pkey, &sig),
			-EINVAL);
	vfree(area);
}
#else
static void public_key_data_in_place(struct kunit *test)
{
	kunit_skip(test, "Linux 6.12's ML-DSA path of public_key.c only");
}
#endif

static struct kunit_case mldsa_api_cases[] = {
	KUNIT_CASE(verify_like_linux_7_0),
#if IS_ENABLED(CONFIG_CRYPTO_MLDSA_EXTENDED)
	KUNIT_CASE(verify_noalloc),
	KUNIT_CASE(pubkey_init_and_reuse),
	KUNIT_CASE(any_bytes_in_caller_memory),
	KUNIT_CASE(verify_with_context),
	KUNIT_CASE(verify_external_mu),
	KUNIT_CASE(verify_prehash),
	KUNIT_CASE(bad_arguments),
	KUNIT_CASE(concurrent_hint_change),
#endif
	KUNIT_CASE(concurrent_tfm_verify),
	KUNIT_CASE(concurrent_set_pubkey),
	KUNIT_CASE(public_key_data_in_place),
	{}
};

static struct kunit_suite mldsa_api_suite = {
	.name = "mldsa_api",
	.test_cases = mldsa_api_cases,
};

kunit_test_suite(mldsa_api_suite);

MODULE_DESCRIPTION("KUnit tests for the ML-DSA library interface");
MODULE_LICENSE("GPL");
