// SPDX-License-Identifier: GPL-2.0
/*
 * A module that only says it loaded: tools/lib/modsign.sh signs copies of it with
 * ML-DSA keys and checks which ones a CONFIG_MODULE_SIG_FORCE kernel loads.
 */
#include <linux/module.h>
#include <linux/printk.h>

static int __init mldsa_testmod_init(void)
{
	pr_info("mldsa_testmod: loaded\n");
	return 0;
}

static void __exit mldsa_testmod_exit(void)
{
}

module_init(mldsa_testmod_init);
module_exit(mldsa_testmod_exit);

MODULE_DESCRIPTION("Test module for ML-DSA module signatures");
MODULE_LICENSE("GPL");
