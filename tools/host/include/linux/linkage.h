/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few <linux/linkage.h> macros that the module's .S files use, for assembling them
 * on the host (tools/host/build.rs). In the kernel the real header is used.
 */
#ifndef _HOST_LINUX_LINKAGE_H
#define _HOST_LINUX_LINKAGE_H

#define SYM_FUNC_START(name)	.globl name; .type name, @function; .p2align 4; name:
#define SYM_FUNC_END(name)	.size name, . - name
#define RET			ret

#endif
