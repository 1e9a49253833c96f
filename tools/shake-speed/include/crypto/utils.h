/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/types.h>
static inline void crypto_xor(u8 *dst, const u8 *src, size_t len)
{
	while (len--)
		*dst++ ^= *src++;
}
