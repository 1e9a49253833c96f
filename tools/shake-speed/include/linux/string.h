/* SPDX-License-Identifier: GPL-2.0 */
#include <string.h>
#define memzero_explicit(p, n)	explicit_bzero((p), (n))
