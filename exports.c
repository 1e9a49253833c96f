// SPDX-License-Identifier: GPL-2.0
/*
 * Exports the library interface of <crypto/mldsa.h>, which mldsa_api.rs
 * implements: on 6.12, a Rust module cannot export symbols by itself.
 * Including the header checks the exports against its declarations.
 *
 * On Linux 7.x, mldsa_verify() comes from here unless lib/crypto/mldsa.c is
 * chosen to provide the library (CRYPTO_LIB_MLDSA_GENERIC), and, for the
 * library's KUnit suite, so does mldsa_use_hint().
 */
#include <crypto/mldsa.h>
#include <kunit/visibility.h>
#include <linux/export.h>

#if !IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_GENERIC)
EXPORT_SYMBOL_GPL(mldsa_verify);
#endif
EXPORT_SYMBOL_GPL(mldsa_verify_noalloc);
EXPORT_SYMBOL_GPL(mldsa_pubkey_init);
EXPORT_SYMBOL_GPL(mldsa_verify_ctx);
EXPORT_SYMBOL_GPL(mldsa_verify_prehash);
EXPORT_SYMBOL_GPL(mldsa_verify_mu);
#if IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_RUST) && \
	IS_ENABLED(CONFIG_CRYPTO_LIB_MLDSA_KUNIT_TEST)
EXPORT_SYMBOL_IF_KUNIT(mldsa_use_hint);
#endif
