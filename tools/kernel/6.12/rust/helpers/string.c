// SPDX-License-Identifier: GPL-2.0

#include <linux/string.h>

/*
 * On s390 (without KASAN/KMSAN), <asm/string.h> defines __HAVE_ARCH_MEMCHR
 * and __HAVE_ARCH_STRLEN and provides memchr() and strlen() only as static
 * inline functions, so bindgen emits no bindings for them, yet
 * rust/kernel/str.rs calls bindings::memchr and bindings::strlen. Where
 * bindgen does emit a binding (other architectures), that binding takes
 * precedence over these helpers (see rust/bindings/lib.rs).
 */
void *rust_helper_memchr(const void *s, int c, size_t n)
{
	return memchr(s, c, n);
}

size_t rust_helper_strlen(const char *s)
{
	return strlen(s);
}
