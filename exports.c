// SPDX-License-Identifier: GPL-2.0
/*
 * Exports the library interface of <crypto/mldsa.h>, which mldsa_api.rs
 * implements: on 6.12, a Rust module cannot export symbols by itself.
 * Including the header checks the exports against its declarations.
 */
#include <crypto/mldsa.h>
#include <linux/export.h>

EXPORT_SYMBOL_GPL(mldsa_verify);
EXPORT_SYMBOL_GPL(mldsa_verify_noalloc);
EXPORT_SYMBOL_GPL(mldsa_pubkey_init);
EXPORT_SYMBOL_GPL(mldsa_verify_ctx);
EXPORT_SYMBOL_GPL(mldsa_verify_prehash);
EXPORT_SYMBOL_GPL(mldsa_verify_mu);
