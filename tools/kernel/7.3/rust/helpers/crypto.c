// SPDX-License-Identifier: GPL-2.0

#include <crypto/internal/sig.h>
#include <crypto/sha3.h>
#include <linux/fips.h>

/*
 * The crypto API and the SHA-3 library may be modules, which built-in code
 * cannot call: their helpers exist only where the Rust abstractions that use
 * them are selected, and with them the C built in.
 */
#ifdef CONFIG_RUST_CRYPTO_SIG
__rust_helper void *rust_helper_crypto_sig_ctx(struct crypto_sig *tfm)
{
	return crypto_sig_ctx(tfm);
}

__rust_helper void rust_helper_crypto_free_sig(struct crypto_sig *tfm)
{
	crypto_free_sig(tfm);
}

__rust_helper unsigned int rust_helper_crypto_sig_maxsize(struct crypto_sig *tfm)
{
	return crypto_sig_maxsize(tfm);
}

__rust_helper int rust_helper_crypto_sig_set_pubkey(struct crypto_sig *tfm,
						    const void *key,
						    unsigned int keylen)
{
	return crypto_sig_set_pubkey(tfm, key, keylen);
}

__rust_helper int rust_helper_crypto_sig_verify(struct crypto_sig *tfm,
						const void *src,
						unsigned int slen,
						const void *digest,
						unsigned int dlen)
{
	return crypto_sig_verify(tfm, src, slen, digest, dlen);
}

__rust_helper const char *
rust_helper_crypto_sig_driver_name(struct crypto_sig *tfm)
{
	return crypto_tfm_alg_driver_name(crypto_sig_tfm(tfm));
}
#endif

#ifdef CONFIG_RUST_CRYPTO_SHA3
__rust_helper void rust_helper_shake128_init(struct shake_ctx *ctx)
{
	shake128_init(ctx);
}

__rust_helper void rust_helper_shake256_init(struct shake_ctx *ctx)
{
	shake256_init(ctx);
}

__rust_helper void rust_helper_shake_update(struct shake_ctx *ctx,
					    const u8 *in, size_t in_len)
{
	shake_update(ctx, in, in_len);
}
#endif

__rust_helper bool rust_helper_fips_enabled(void)
{
	return fips_enabled;
}
