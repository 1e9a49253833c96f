/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ML-DSA (FIPS 204) signature verification: the library interface of the
 * mldsa module (crypto/mldsa, CONFIG_CRYPTO_MLDSA_RUST).
 *
 * mldsa_verify() is the call of Linux 7.0's <crypto/mldsa.h>, with the same
 * arguments and return codes, so that code written for 7.0 builds and works
 * here. With CONFIG_CRYPTO_MLDSA_EXTENDED, the other calls never allocate:
 * the caller provides a decoded public key (struct mldsa_pubkey, decoded
 * once and used for any number of verifications) and a workspace (struct
 * mldsa_workspace, one per concurrent verification), and may give a context
 * string, a pre-hash (HashML-DSA) or an external mu. Every call returns
 * -ELIBBAD if the module's known-answer self-tests have not passed: built
 * in, they run at subsys_initcall_sync (under fips=1 a failure panics), and
 * a module whose self-tests fail does not load. A NULL pointer with a
 * nonzero length gives -EINVAL. In hard interrupt
 * context, or wherever the FPU is not usable, the calls run the portable code:
 * a verification takes about 60 us (ML-DSA-44) to 180 us (ML-DSA-87) on a
 * current x86_64 core. See crypto/mldsa/Documentation/mldsa.rst.
 */
#ifndef _CRYPTO_MLDSA_H
#define _CRYPTO_MLDSA_H

#include <linux/types.h>

/* Identifier for an ML-DSA parameter set */
enum mldsa_alg {
	MLDSA44, /* ML-DSA-44 */
	MLDSA65, /* ML-DSA-65 */
	MLDSA87, /* ML-DSA-87 */
};

/* Lengths of ML-DSA public keys and signatures in bytes */
#define MLDSA44_PUBLIC_KEY_SIZE 1312
#define MLDSA65_PUBLIC_KEY_SIZE 1952
#define MLDSA87_PUBLIC_KEY_SIZE 2592
#define MLDSA44_SIGNATURE_SIZE 2420
#define MLDSA65_SIGNATURE_SIZE 3309
#define MLDSA87_SIGNATURE_SIZE 4627

/*
 * The state of one verification. Opaque; sized for ML-DSA-87, and 32-byte
 * aligned for the vector code: the calls return -EINVAL for a workspace
 * that is not (kmalloc(), kvmalloc() and the compiler align it as its type
 * says). Its contents do not outlive a call: one workspace serves any key,
 * one call at a time, and need not be initialised.
 */
#define MLDSA_WORKSPACE_SIZE 8192
struct mldsa_workspace {
	u64 opaque[MLDSA_WORKSPACE_SIZE / 8];
} __aligned(32);

/**
 * mldsa_verify() - Verify an ML-DSA signature
 * @alg: The ML-DSA parameter set to use
 * @sig: The signature
 * @sig_len: Length of the signature in bytes.  Should match the
 *	     MLDSA*_SIGNATURE_SIZE constant associated with @alg,
 *	     otherwise -EBADMSG will be returned.
 * @msg: The message
 * @msg_len: Length of the message in bytes
 * @pk: The public key
 * @pk_len: Length of the public key in bytes.  Should match the
 *	    MLDSA*_PUBLIC_KEY_SIZE constant associated with @alg,
 *	    otherwise -EBADMSG will be returned.
 *
 * Pure ML-DSA (FIPS 204, Algorithm 3) with an empty context string. This
 * allocates a struct mldsa_workspace (about 8.3 KiB) for the call, and decodes
 * the key a row at a time; use mldsa_verify_noalloc() to provide the memory
 * instead.
 *
 * Context: Might sleep
 * Return: 0 if the signature is valid, -EBADMSG if the signature or public
 *	   key is malformed, -EKEYREJECTED if the signature is well-formed but
 *	   invalid, -EINVAL if @alg is unknown, or -ENOMEM if out of memory so
 *	   the validity of the signature is unknown
 */
int mldsa_verify(enum mldsa_alg alg, const u8 *sig, size_t sig_len,
		 const u8 *msg, size_t msg_len, const u8 *pk, size_t pk_len);

#if IS_ENABLED(CONFIG_CRYPTO_MLDSA_EXTENDED)
/* The calls that never allocate (CONFIG_CRYPTO_MLDSA_EXTENDED) */

/* Length of mu, the message representative, in bytes */
#define MLDSA_MU_SIZE 64

/* The pre-hash functions of HashML-DSA (FIPS 204, section 5.4.1) */
enum mldsa_prehash {
	MLDSA_SHA256,	/* PH(M) is 32 bytes */
	MLDSA_SHA384,	/* 48 bytes */
	MLDSA_SHA512,	/* 64 bytes */
	MLDSA_SHA3_256,	/* 32 bytes */
	MLDSA_SHA3_512,	/* 64 bytes */
	MLDSA_SHAKE128,	/* 32 bytes of output */
	MLDSA_SHAKE256,	/* 64 bytes of output */
};

/*
 * A decoded public key: t1 in the NTT domain and tr = H(pk), computed once by
 * mldsa_pubkey_init(). Opaque; sized for ML-DSA-87, the largest set. The
 * calls take only a key that mldsa_pubkey_init() has written, whether it
 * succeeded or not (memory that it never wrote is no key), and return -EINVAL
 * for one that it could not decode, or that was cleared since.
 */
#define MLDSA_PUBKEY_SIZE 6000
struct mldsa_pubkey {
	u64 opaque[MLDSA_PUBKEY_SIZE / 8];
};

/*
 * The memory of one mldsa_verify_noalloc() call: a workspace, as the key is
 * decoded a row at a time
 */
struct mldsa_verify_buf {
	struct mldsa_workspace ws;
};

/**
 * mldsa_verify_noalloc() - Verify an ML-DSA signature in caller memory
 * @buf: Memory for the call, used only during it
 *
 * Like mldsa_verify(), with the same other arguments and return codes,
 * except that it never allocates, so never returns -ENOMEM.
 *
 * Context: Any context but NMI
 */
int mldsa_verify_noalloc(struct mldsa_verify_buf *buf, enum mldsa_alg alg,
			 const u8 *sig, size_t sig_len, const u8 *msg,
			 size_t msg_len, const u8 *pk, size_t pk_len);

/**
 * mldsa_pubkey_init() - Decode an ML-DSA public key for verification
 * @key: The decoded key, written by this call
 * @alg: The ML-DSA parameter set of @pk
 * @pk: The public key
 * @pk_len: Length of the public key in bytes: MLDSA*_PUBLIC_KEY_SIZE
 * @ws: A workspace, used during the call
 *
 * Context: Any context but NMI
 * Return: 0, -EBADMSG if @pk_len does not match @alg, or -EINVAL if @alg is
 *	   unknown. On failure, @key holds no key and verifications under it
 *	   return -EINVAL.
 */
int mldsa_pubkey_init(struct mldsa_pubkey *key, enum mldsa_alg alg,
		      const u8 *pk, size_t pk_len, struct mldsa_workspace *ws);

/**
 * mldsa_verify_ctx() - Verify an ML-DSA signature with a context string
 * @key: A key decoded by mldsa_pubkey_init()
 * @sig: The signature
 * @sig_len: Length of the signature in bytes: MLDSA*_SIGNATURE_SIZE
 * @msg: The message
 * @msg_len: Length of the message in bytes
 * @ctx: The context string; may be NULL if @ctx_len is 0
 * @ctx_len: Length of the context string in bytes, 0 to 255
 * @ws: A workspace, used during the call
 *
 * Pure ML-DSA (FIPS 204, Algorithm 3).
 *
 * Context: Any context but NMI
 * Return: 0 if the signature is valid, -EBADMSG if it is malformed,
 *	   -EKEYREJECTED if it is well-formed but invalid, or -EINVAL if @key
 *	   holds no key or @ctx_len is over 255
 */
int mldsa_verify_ctx(const struct mldsa_pubkey *key, const u8 *sig,
		     size_t sig_len, const u8 *msg, size_t msg_len,
		     const u8 *ctx, size_t ctx_len, struct mldsa_workspace *ws);

/**
 * mldsa_verify_prehash() - Verify a HashML-DSA signature
 * @key: A key decoded by mldsa_pubkey_init()
 * @sig: The signature
 * @sig_len: Length of the signature in bytes: MLDSA*_SIGNATURE_SIZE
 * @ph: The pre-hash function
 * @phm: PH(M), the message hashed with @ph
 * @phm_len: Length of PH(M) in bytes, as given for @ph
 * @ctx: The context string; may be NULL if @ctx_len is 0
 * @ctx_len: Length of the context string in bytes, 0 to 255
 * @ws: A workspace, used during the call
 *
 * HashML-DSA (FIPS 204, Algorithm 5).
 *
 * Context: Any context but NMI
 * Return: as mldsa_verify_ctx(); also -EINVAL if @ph is unknown or @phm_len
 *	   does not match it
 */
int mldsa_verify_prehash(const struct mldsa_pubkey *key, const u8 *sig,
			 size_t sig_len, enum mldsa_prehash ph, const u8 *phm,
			 size_t phm_len, const u8 *ctx, size_t ctx_len,
			 struct mldsa_workspace *ws);

/**
 * mldsa_verify_mu() - Verify an ML-DSA signature given mu
 * @key: A key decoded by mldsa_pubkey_init()
 * @sig: The signature
 * @sig_len: Length of the signature in bytes: MLDSA*_SIGNATURE_SIZE
 * @mu: mu = SHAKE256(tr || M', 64), where tr = SHAKE256(pk, 64) and M' is
 *	the formatted message (FIPS 204, Algorithm 8, external mu)
 * @ws: A workspace, used during the call
 *
 * Context: Any context but NMI
 * Return: 0 if the signature is valid, -EBADMSG if it is malformed,
 *	   -EKEYREJECTED if it is well-formed but invalid, or -EINVAL if @key
 *	   holds no key
 */
int mldsa_verify_mu(const struct mldsa_pubkey *key, const u8 *sig,
		    size_t sig_len, const u8 mu[MLDSA_MU_SIZE],
		    struct mldsa_workspace *ws);
#endif /* IS_ENABLED(CONFIG_CRYPTO_MLDSA_EXTENDED) */

#endif /* _CRYPTO_MLDSA_H */
