// SPDX-License-Identifier: GPL-2.0
/*
 * The test module with 5 MiB of data: its signature is checked over more than
 * KMALLOC_MAX_SIZE (4 MiB on x86_64), which 6.12's crypto_sig_verify() would
 * have to copy into one buffer.
 */
#include <linux/module.h>
#include <linux/printk.h>

static const u8 data[5 << 20] __used = { [0 ... (5 << 20) - 1] = 0x5a };

static int __init mldsa_testmod_big_init(void)
{
	pr_info("mldsa_testmod_big: loaded (%zu bytes of data, last %#x)\n",
		sizeof(data), data[sizeof(data) - 1]);
	return 0;
}

static void __exit mldsa_testmod_big_exit(void)
{
}

module_init(mldsa_testmod_big_init);
module_exit(mldsa_testmod_big_exit);

MODULE_DESCRIPTION("Test module over 4 MiB for ML-DSA module signatures");
MODULE_LICENSE("GPL");
