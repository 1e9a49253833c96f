// SPDX-License-Identifier: GPL-2.0

#include <crypto/akcipher.h>
#include <crypto/internal/akcipher.h>
#include <crypto/sha3.h>
#include <crypto/sig.h>
#include <linux/fips.h>
#include <linux/scatterlist.h>

/*
 * The crypto API and SHA-3 may be modules, which built-in code cannot call:
 * their helpers exist only where the Rust abstractions that use them are
 * selected, and with them the C built in.
 */
#ifdef CONFIG_RUST_CRYPTO_SIG
void *rust_helper_akcipher_tfm_ctx(struct crypto_akcipher *tfm)
{
	return akcipher_tfm_ctx(tfm);
}

void *rust_helper_akcipher_request_ctx(struct akcipher_request *req)
{
	return akcipher_request_ctx(req);
}

struct crypto_akcipher *
rust_helper_crypto_akcipher_reqtfm(struct akcipher_request *req)
{
	return crypto_akcipher_reqtfm(req);
}

void rust_helper_akcipher_set_reqsize(struct crypto_akcipher *tfm,
				      unsigned int reqsize)
{
	akcipher_set_reqsize(tfm, reqsize);
}

struct akcipher_request *
rust_helper_akcipher_request_alloc(struct crypto_akcipher *tfm, gfp_t gfp)
{
	return akcipher_request_alloc(tfm, gfp);
}

void rust_helper_akcipher_request_free(struct akcipher_request *req)
{
	akcipher_request_free(req);
}

void rust_helper_akcipher_request_set_crypt(struct akcipher_request *req,
					    struct scatterlist *src,
					    struct scatterlist *dst,
					    unsigned int src_len,
					    unsigned int dst_len)
{
	akcipher_request_set_crypt(req, src, dst, src_len, dst_len);
}

int rust_helper_crypto_akcipher_verify(struct akcipher_request *req)
{
	return crypto_akcipher_verify(req);
}

int rust_helper_crypto_akcipher_set_pub_key(struct crypto_akcipher *tfm,
					    const void *key,
					    unsigned int keylen)
{
	return crypto_akcipher_set_pub_key(tfm, key, keylen);
}

unsigned int rust_helper_crypto_akcipher_maxsize(struct crypto_akcipher *tfm)
{
	return crypto_akcipher_maxsize(tfm);
}

void rust_helper_crypto_free_akcipher(struct crypto_akcipher *tfm)
{
	crypto_free_akcipher(tfm);
}

void rust_helper_crypto_free_sig(struct crypto_sig *tfm)
{
	crypto_free_sig(tfm);
}

const char *rust_helper_crypto_sig_driver_name(struct crypto_sig *tfm)
{
	return crypto_tfm_alg_driver_name(crypto_sig_tfm(tfm));
}
#endif

#ifdef CONFIG_RUST_CRYPTO_SHA3
void rust_helper_shake128_init(struct shake_ctx *ctx)
{
	shake128_init(ctx);
}

void rust_helper_shake256_init(struct shake_ctx *ctx)
{
	shake256_init(ctx);
}

void rust_helper_shake_update(struct shake_ctx *ctx, const u8 *in,
			      size_t in_len)
{
	shake_update(ctx, in, in_len);
}
#endif

void rust_helper_sg_set_buf(struct scatterlist *sg, const void *buf,
			    unsigned int buflen)
{
	sg_set_buf(sg, buf, buflen);
}

bool rust_helper_fips_enabled(void)
{
	return fips_enabled;
}
