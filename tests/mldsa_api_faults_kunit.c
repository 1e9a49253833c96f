// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite mldsa_api_faults: the library interface and a crypto_sig tfm
 * of mldsa65 under allocation failures: every allocation of the test's task
 * from the nth on fails, for each n (fail-nth, then the task filter;
 * Documentation/fault-injection/fault-injection.rst). failslab and
 * fail_page_alloc do that only as user space sets them up in debugfs, so
 * this suite is a module of its own, to be loaded after, for each of
 * failslab and fail_page_alloc:
 *
 *	ignore-gfp-wait N, task-filter Y, probability 100, interval 1,
 *	times -1, verbose 0; and for fail_page_alloc, min-order 0.
 *
 * Without that its case skips.
 */
#include <crypto/mldsa.h>
#include <crypto/sig.h>
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "mldsa_api_kunit.h"

/*
 * Whether fault injection is set up as the suite needs: with fail-nth 1,
 * this task's first GFP_KERNEL allocation fails, and so do the slab object
 * and the single page it asks for next.
 */
static bool gfp_kernel_faults(void)
{
	struct page *pg;
	void *p, *q;
	bool nth;

	current->make_it_fail = 1;
	WRITE_ONCE(current->fail_nth, 1);
	p = kmalloc(16, GFP_KERNEL);
	nth = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	q = kmalloc(16, GFP_KERNEL);
	pg = alloc_page(GFP_KERNEL);
	current->make_it_fail = 0;
	kfree(p);
	kfree(q);
	if (pg)
		__free_page(pg);
	return nth && !p && !q && !pg;
}

/*
 * The calls that allocate, run with the fault-injection points of this task
 * failing from the @nth on. Returns whether that point was reached (else all
 * succeeded).
 */
static bool alloc_calls_failing(struct kunit *test, unsigned int nth,
				const struct vector *v, const u8 *bad,
				int *enomem)
{
	struct crypto_sig *tfm;
	bool injected;
	int r[5];

	current->make_it_fail = 1;
	WRITE_ONCE(current->fail_nth, nth);
	r[0] = mldsa_verify(v->alg, v->sig, v->sig_len, v->msg, v->msg_len,
			    v->pk, v->pk_len);
	r[1] = mldsa_verify(v->alg, bad, v->sig_len, v->msg, v->msg_len,
			    v->pk, v->pk_len);
	tfm = crypto_alloc_sig("mldsa65", 0, 0);
	r[2] = PTR_ERR_OR_ZERO(tfm);
	r[3] = -ENOMEM;
	r[4] = -ENOMEM;
	if (!IS_ERR(tfm)) {
		r[3] = crypto_sig_set_pubkey(tfm, v->pk, v->pk_len);
		if (!r[3])
			r[4] = crypto_sig_verify(tfm, bad, v->sig_len, v->msg,
						 v->msg_len);
		crypto_free_sig(tfm);
	}
	injected = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	current->make_it_fail = 0;

	/* An allocation failure is -ENOMEM, never an accept of a bad signature. */
	KUNIT_EXPECT_TRUE(test, r[0] == 0 || r[0] == -ENOMEM);
	KUNIT_EXPECT_TRUE(test, r[1] == -EKEYREJECTED || r[1] == -ENOMEM);
	KUNIT_EXPECT_TRUE(test, r[2] == 0 || r[2] == -ENOMEM);
	KUNIT_EXPECT_TRUE(test, r[3] == 0 || r[3] == -ENOMEM);
	KUNIT_EXPECT_TRUE(test, r[4] == -EKEYREJECTED || r[4] == -ENOMEM);
	if (!injected)
		KUNIT_EXPECT_TRUE(test, !r[0] && r[1] == -EKEYREJECTED &&
				  !r[2] && !r[3] && r[4] == -EKEYREJECTED);
	*enomem += (r[0] == -ENOMEM) + (r[1] == -ENOMEM) + (r[2] == -ENOMEM);
	return injected;
}

/*
 * Each allocation of mldsa_verify() and of a crypto_sig tfm of mldsa65 (its
 * key set, a verification) made to fail in turn, with fail-nth: the caller
 * gets -ENOMEM or the right answer, never an accept or a crash. Leaks would
 * show in the kmemleak scan of the debug kernel. Also: mldsa_verify() refuses
 * a wrong length before it allocates.
 */
static void allocation_failures(struct kunit *test)
{
	const struct vector *v = &vectors[1];
	u8 *bad = corrupted_sig(test, v);
	unsigned int nth = 0;
	int bad_len, enomem = 0;
	bool reached;

	if (!gfp_kernel_faults())
		kunit_skip(test, "fault injection is not set up for GFP_KERNEL");
	/* Wrong lengths are -EBADMSG before anything is allocated, as in 7.0. */
	current->make_it_fail = 1;
	WRITE_ONCE(current->fail_nth, 1);
	bad_len = mldsa_verify(v->alg, v->sig, v->sig_len - 1, v->msg,
			       v->msg_len, v->pk, v->pk_len);
	reached = READ_ONCE(current->fail_nth) != 1;
	WRITE_ONCE(current->fail_nth, 0);
	current->make_it_fail = 0;
	while (++nth < 1000 && alloc_calls_failing(test, nth, v, bad, &enomem))
		;

	kunit_info(test, "failing from each of %u allocations on: %d calls gave -ENOMEM\n",
		   nth - 1, enomem);
	KUNIT_EXPECT_EQ(test, bad_len, -EBADMSG);
	KUNIT_EXPECT_FALSE(test, reached);
	KUNIT_EXPECT_LT(test, nth, 1000);
	/* Each of the first three calls allocates, so gave -ENOMEM once at least. */
	KUNIT_EXPECT_GE(test, enomem, 3);
}

static struct kunit_case mldsa_api_faults_cases[] = {
	KUNIT_CASE(allocation_failures),
	{}
};

static struct kunit_suite mldsa_api_faults_suite = {
	.name = "mldsa_api_faults",
	.test_cases = mldsa_api_faults_cases,
};

kunit_test_suite(mldsa_api_faults_suite);

MODULE_DESCRIPTION("KUnit test of the ML-DSA library interface under allocation failures");
MODULE_LICENSE("GPL");
