# kunit.py, as kernel developers run the module's suites: the .kunitconfig of
# the module's directory, on Linux 7.3 x86_64 under QEMU.
# shellcheck shell=bash

# QEMU for kunit.py: it runs qemu-system-x86_64 from PATH with "-accel kvm
# -accel hvf -accel tcg", and QEMU takes the first that opens; /dev/kvm exists
# on this machine but hangs, so this wrapper (in $CACHE/kunit-qemu, first on
# PATH) drops every -accel but tcg and runs the QEMU of the cache.
kunit_qemu() {
	local dir=$CACHE/kunit-qemu
	mkdir -p "$dir" && cat >"$dir/qemu-system-x86_64" <<-WRAPPER && chmod +x "$dir/qemu-system-x86_64"
		#!/bin/bash
		args=()
		while [ \$# -gt 0 ]; do
			if [ "\$1" = -accel ] && [ "\$2" != tcg ]; then
				shift 2
				continue
			fi
			args+=("\$1")
			shift
		done
		exec "$QEMU_PREFIX/usr/bin/qemu-system-x86_64" "\${args[@]}"
	WRAPPER
}

# `kunit.py run --kunitconfig=crypto/mldsa --arch=x86_64` in the selected
# kernel's tree, with the kernel's Rust toolchain as make options and its own
# build directory ($CACHE/kunit-$KVER, kept between runs). Prints one line; fails
# unless the three suites ran and every case passed or was skipped.
kunit_py() {
	local build=$CACHE/kunit-$KVER log=$LOGS/kunit-py-$KVER.log rust_lib_src suite summary rc=0
	rust_lib_src=/usr/src/rustc-$(/usr/bin/rustc --version | cut -d' ' -f2)/library
	kunit_qemu || return 1
	phase "kunit.py: run --kunitconfig=crypto/mldsa --arch=x86_64, Linux $KVER, in $build (log: $log)"
	(cd "$KSRC" && PATH=$CACHE/kunit-qemu:$PATH LIBCLANG_PATH=/usr/lib/llvm-19/lib \
		./tools/testing/kunit/kunit.py run --kunitconfig=crypto/mldsa --arch=x86_64 \
		--build_dir="$build" --jobs="$JOBS" --timeout=600 \
		--make_options RUSTC=/usr/bin/rustc --make_options RUSTDOC=/usr/bin/rustdoc \
		--make_options HOSTRUSTC=/usr/bin/rustc --make_options BINDGEN="$BINDGEN" \
		--make_options RUST_LIB_SRC="$rust_lib_src") >"$log" 2>&1 || rc=1
	for suite in mldsa_rust mldsa_api mldsa; do
		grep -qE "=+ $suite \([0-9]+ subtests\) =+" "$log" || {
			echo "kunit.py: suite $suite did not run" >&2
			rc=1
		}
	done
	# "Testing complete. Ran N tests: passed: P, skipped: S" (failed: F when some failed).
	summary=$(sed -nE 's/.*Testing complete\. Ran ([0-9]+) tests: (.*)$/\2/p' "$log" | tail -n 1)
	awk -v s="$summary" -v what="kunit.py run --kunitconfig=crypto/mldsa --arch=x86_64, Linux $KVER (QEMU TCG)" 'BEGIN {
		n = split(s, kv, /, /)
		for (i = 1; i <= n; i++) { split(kv[i], p, /: /); c[p[1]] = p[2] }
		print what ": " c["passed"] + 0 " passed, " c["failed"] + c["crashed"] + 0 " failed, " c["skipped"] + 0 " skipped"
	}' | tee "$LOGS/kunit-py-$KVER.txt"
	if [ "$rc" != 0 ] || [ -z "$summary" ] || grep -qE 'failed|crashed' <<<"$summary"; then
		tail -n 30 "$log"
		echo "FAILED: kunit.py, Linux $KVER (log: $log)" >&2
		return 1
	fi
}
