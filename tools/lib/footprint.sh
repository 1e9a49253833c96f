# The object code of the verifiers that stays in memory, next to the C's.
# shellcheck shell=bash

# The sections that stay in memory: text (.ref.text, code that may read init
# memory, included), rodata and data. Init and exit sections, initcall and KUnit
# tables, and the kernel's metadata (bug and exception tables, ORC,
# alternatives) are not.
RESIDENT='^\.(text|ref\.text|rodata|data)'

# Bytes of the resident sections of objects "$@".
resident_bytes() {
	size -A "$@" | awk -v re="$RESIDENT" '$1 ~ re {n += $2} END {print n + 0}'
}

# The bytes of the module's objects by where they come from: each symbol of
# mldsa_main.o that has a size, by the Rust module it is in (the first
# component of its path), the rest of mldsa_main.o (constants that have no symbol: tables,
# strings), then the objects of the module's other files. Lines "BYTES WHERE",
# largest first.
resident_by_origin() {
	local main=crypto/mldsa/mldsa_main.o o
	{
		# objdump -t: address, flags, section, then size and name after a tab.
		objdump -tC "$main" |
			awk -F'\t' -v total="$(resident_bytes "$main")" -v re="$RESIDENT" '
			function hex(h, i, v) {
				v = 0; h = tolower(h)
				for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
				return v
			}
			NF == 2 && (k = split($1, a, " ")) >= 3 && a[k] ~ re {
				size = $2; sub(/ .*/, "", size)
				name = $2; sub(/^[0-9a-f]+ +/, "", name)
				sub(/^</, "", name); sub(/^mldsa_main::/, "", name)
				split(name, p, "::"); where = p[1]
				sub(/[ <(>].*/, "", where)
				if (where ~ /^mldsa_rust_/) where = "mldsa_api (the C entry points)"
				n[where] += hex(size); named += hex(size)
			}
			END {
				for (w in n) print n[w], "mldsa_main.o: " w
				print total - named, "mldsa_main.o: constants and strings without a symbol"
			}'
		for o in $(ar t crypto/mldsa/built-in.a); do
			[ "$o" = "$main" ] || echo "$(resident_bytes "$o") $o"
		done
	} | sort -rn
}

# Linux $KVER x86_64 built twice more, from the instruction-count kernel's tree
# (tools/perf.config: lib/crypto/mldsa.c beside the module) without the module's
# KUnit suites and with the default interface, mldsa_verify() and the crypto API
# (tools/footprint.config): with the x86 assembly and portable-only
# (tools/footprint-portable.config). Prints "object code (default interface),
# Linux V x86_64: C N bytes, Rust portable N bytes, Rust x86 N bytes": the C is
# lib/crypto/mldsa.o and crypto/mldsa.o (the library and its crypto API
# algorithms), the Rust the module's objects (both). Where the module's bytes go: $LOGS/footprint-$KVER-*.txt.
footprint() {
	local name c rust=() out=$LOGS/footprint-$KVER.txt
	for name in x86 portable; do
		# The arch settings are this function's own (select_arch sets them here).
		select_arch x86_64
		KNAME=x86_64-footprint-$name KBUILD=$CACHE/build-$KVER-footprint-$name KTARGETS=(vmlinux)
		KCONFIG_FRAGMENTS+=("$REPO/tools/perf.config" "$REPO/tools/footprint.config")
		[ "$name" = x86 ] || KCONFIG_FRAGMENTS+=("$REPO/tools/footprint-portable.config")
		seed_build_dir "$CACHE/build-$KVER-perf"
		configure_kernel
		build_kernel
		# shellcheck disable=SC2046 # one word an object
		rust+=("$(cd "$KBUILD" && resident_bytes $(ar t crypto/mldsa/built-in.a))")
		(cd "$KBUILD" && resident_by_origin) >"$LOGS/footprint-$KVER-$name.txt"
	done
	c=$(cd "$KBUILD" && resident_bytes lib/crypto/mldsa.o crypto/mldsa.o)
	echo "object code (default interface), Linux $KVER x86_64: C $c bytes, Rust portable ${rust[1]} bytes," \
		"Rust x86 ${rust[0]} bytes (where they go: $LOGS/footprint-$KVER-*.txt)" | tee "$out"
}
