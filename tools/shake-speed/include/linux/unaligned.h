/* SPDX-License-Identifier: GPL-2.0 */
#include <string.h>
#define get_unaligned(p) ({ __typeof__(*(p)) v_; memcpy(&v_, (p), sizeof(v_)); v_; })
