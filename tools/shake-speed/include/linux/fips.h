/* SPDX-License-Identifier: GPL-2.0 */
#define fips_enabled 0
#define __initconst
