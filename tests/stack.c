// SPDX-License-Identifier: GPL-2.0
/*
 * Stack measurement for the KUnit suite mldsa_rust (tests/stack.rs): how many
 * bytes of stack a function uses below its caller's stack pointer.
 */

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "stack.h"

/* The stack painted below the stack pointer: the budget is 1.5 KiB at most. */
#define MLDSA_STACK_WINDOW	4096
#define MLDSA_STACK_PAINT	0x535441434b504e54UL

/*
 * Paints the MLDSA_STACK_WINDOW bytes under the stack pointer (less a margin of
 * eight words), calls @fn(@arg), and returns the bytes from the stack pointer
 * down to the deepest word @fn overwrote. Interrupts are off meanwhile, as an
 * interrupt entry would write its frame on this stack: @fn must not sleep.
 */
size_t mldsa_kunit_stack_used(void (*fn)(void *arg), void *arg)
{
	unsigned long sp = current_stack_pointer, flags;
	unsigned long *base = (unsigned long *)((sp - MLDSA_STACK_WINDOW) &
						~(sizeof(long) - 1));
	size_t words = (sp - (unsigned long)base) / sizeof(long) - 8, i;

	local_irq_save(flags);
	for (i = 0; i < words; i++)
		WRITE_ONCE(base[i], MLDSA_STACK_PAINT);
	fn(arg);
	for (i = 0; i < words && READ_ONCE(base[i]) == MLDSA_STACK_PAINT; i++)
		;
	local_irq_restore(flags);
	return sp - (unsigned long)(base + i);
}
