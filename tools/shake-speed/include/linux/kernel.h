/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHAKE_SPEED_LINUX_KERNEL_H
#define _SHAKE_SPEED_LINUX_KERNEL_H
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define WARN_ON_ONCE(c)		((void)(c))
#define panic(...)		(fprintf(stderr, __VA_ARGS__), abort())
#define __maybe_unused		__attribute__((unused))
#define le64_to_cpu(x)		(x)
#define cpu_to_le64(x)		(x)

static inline u64 rol64(u64 w, unsigned int s)
{
	return (w << (s & 63)) | (w >> ((-s) & 63));
}
#endif
