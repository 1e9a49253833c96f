/* SPDX-License-Identifier: GPL-2.0 */
/* Static keys as plain flags, and the CPU's features as the compiler reads them. */
#define __ro_after_init
#define asmlinkage
#define DEFINE_STATIC_KEY_FALSE(k)	bool k
#define static_branch_likely(k)		(*(k))
#define static_branch_enable(k)		(*(k) = true)
#define boot_cpu_has(f)			__builtin_cpu_supports(f)
#define X86_FEATURE_BMI1		"bmi"
#define X86_FEATURE_BMI2		"bmi2"
