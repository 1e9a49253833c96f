/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-3 optimized for x86_64: Keccak-f[1600] with BMI1 and BMI2
 */
#include <linux/cpufeature.h>

static __ro_after_init DEFINE_STATIC_KEY_FALSE(have_bmi2);

asmlinkage void sha3_keccakf_bmi2(struct sha3_state *state);

static void sha3_absorb_blocks(struct sha3_state *state, const u8 *data,
			       size_t nblocks, size_t block_size)
{
	if (!static_branch_likely(&have_bmi2)) {
		sha3_absorb_blocks_generic(state, data, nblocks, block_size);
		return;
	}
	do {
		for (size_t i = 0; i < block_size; i += 8)
			state->words[i / 8] ^= get_unaligned((__le64 *)&data[i]);
		sha3_keccakf_bmi2(state);
		data += block_size;
	} while (--nblocks);
}

static void sha3_keccakf(struct sha3_state *state)
{
	if (static_branch_likely(&have_bmi2))
		sha3_keccakf_bmi2(state);
	else
		sha3_keccakf_generic(state);
}

#define sha3_keccakf_is_optimized sha3_keccakf_is_optimized
static bool sha3_keccakf_is_optimized(void)
{
	return static_branch_likely(&have_bmi2);
}

#define sha3_mod_init_arch sha3_mod_init_arch
static void sha3_mod_init_arch(void)
{
	if (boot_cpu_has(X86_FEATURE_BMI1) && boot_cpu_has(X86_FEATURE_BMI2))
		static_branch_enable(&have_bmi2);
}
