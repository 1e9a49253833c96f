/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host stand-ins for the kernel headers that lib/crypto/sha3.c and
 * lib/crypto/x86/sha3.h include, for tools/shake-speed: just what they use.
 */
#ifndef _SHAKE_SPEED_LINUX_TYPES_H
#define _SHAKE_SPEED_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint64_t __le64;
#endif
