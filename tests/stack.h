/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stack measurement for the KUnit suite mldsa_rust: tests/stack.c, called
 * from tests/stack.rs.
 */
#ifndef _MLDSA_TESTS_STACK_H
#define _MLDSA_TESTS_STACK_H

#include <linux/types.h>

size_t mldsa_kunit_stack_used(void (*fn)(void *arg), void *arg);

#endif /* _MLDSA_TESTS_STACK_H */
