# Boots in QEMU, and what their console logs say.
# shellcheck shell=bash

BOOT_TIMEOUT=${MLDSA_BOOT_TIMEOUT:-300}


# Boot the kernel; KUnit runs the built-in suites, then reboots (QEMU exits).
# $1: the QEMU CPU model (default max: on x86_64 it has AVX2, on s390x the
# vector facility); $2: the console log (default $LOGS/console.log); $3: an
# initramfs, whose /init runs instead of KUnit (after it, with BOOT_KUNIT=1) and
# ends the run by rebooting. BOOT_APPEND: more kernel parameters; BOOT_SMP: the
# number of CPUs (default 2).
boot_kernel() {
	local rc=0 cpu=${1:-max} console=${2:-$LOGS/console.log} initrd=${3:-}
	local tty=ttyS0 qemu=("$QEMU_PREFIX/usr/bin/qemu-system-x86_64" -machine q35 -bios qboot.rom
		-display none -monitor none -serial stdio)
	[ "$KARCH" != s390 ] || {
		tty=ttysclp0 qemu=("$QEMU_PREFIX/usr/bin/qemu-system-s390x" -machine s390-ccw-virtio -nographic)
	}
	local args=(-append "console=$tty kunit.enable=1 kunit_shutdown=reboot panic=-1 oops=panic ${BOOT_APPEND:-}")
	[ -z "$initrd" ] ||
		args=(-initrd "$initrd" -append "console=$tty kunit.enable=${BOOT_KUNIT:-0} panic=-1 oops=panic printk.devkmsg=on ${BOOT_APPEND:-}")
	phase "boot: ${qemu[0]##*/} TCG -cpu $cpu${initrd:+ -initrd $initrd}, timeout ${BOOT_TIMEOUT}s (console: $console)"
	# shellcheck disable=SC2086 # BOOT_QEMU_EXTRA: more QEMU arguments, split at spaces
	timeout "$BOOT_TIMEOUT" "${qemu[@]}" -L "$QEMU_PREFIX/usr/share/qemu" -cpu "$cpu" -m 512 -smp "${BOOT_SMP:-2}" -no-reboot \
		-kernel "$KBUILD/$KIMAGE" "${args[@]}" ${BOOT_QEMU_EXTRA:-} </dev/null >"$console" 2>&1 || rc=$?
	if [ "$rc" = 124 ]; then
		echo "boot: QEMU timed out after ${BOOT_TIMEOUT}s" >&2
	elif [ "$rc" != 0 ]; then
		echo "boot: QEMU exited with status $rc" >&2
	fi
	return "$rc"
}

# Console log $1 as text: no carriage returns, no printk timestamps.
console_text() {
	sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$1"
}

# The module's own console lines ("mldsa_rust: ...") in $1 (default $LOGS/console.log).
module_lines() {
	console_text "${1:-$LOGS/console.log}" | grep -E '^mldsa_rust: ' || true
}

# Checks the KTAP results in console log $1 (tools/ktap.py): the suites "${@:2}"
# ran, and nothing failed or crashed. Prints its per-suite lines, also kept in $1.ktap.
kunit_results() {
	local console=$1 s args=()
	shift
	for s; do args+=(--expect "$s"); done
	python3 "$REPO/tools/ktap.py" "${args[@]}" "$console" | tee "$console.ktap"
	return "${PIPESTATUS[0]}"
}

# Reports of the kernel's checkers in console log $1, one line each: BUG and WARNING
# splats (lockdep's and DEBUG_LIST's among them), UBSAN, KASAN, KFENCE and
# debugobjects reports, kmemleak's suspected leaks (its summary, and each object
# that tools/kmemleak-init.sh prints), oopses and Rust panics. A WARNING that a
# KUnit case announced ("expected WARNING at FILE", as tools/ktap.py takes it)
# is none of them.
checker_reports() {
	console_text "$1" |
		awk '/# [^:]*: expected WARNING at / { expected = $NF; next }
			expected != "" && /^WARNING: CPU: / && index($0, " at " expected ":") { expected = ""; next }
			{ print }' |
		grep -E '^(BUG:|WARNING:|UBSAN:|KASAN:|ODEBUG:|Oops:)|kmemleak: .*suspected memory leak|^kmemleak-report: unreferenced object|^=+$|possible (circular|recursive) locking|inconsistent lock state|panicked at|list_(add|del) corruption' |
		grep -vE '^=+$' || true
}

# How many of the lines "${@:2}" console log $1 lacks (each found as a part of a
# line); each missing one is named on stderr. (grep -c reads all its input: an
# early exit would fail the pipe under pipefail.)
missing_lines() {
	local console=$1 line n=0
	shift
	for line; do
		console_text "$console" | grep -cF -- "$line" >/dev/null && continue
		echo "no \"$line\" in $console" >&2
		n=$((n + 1))
	done
	echo "$n"
}

# Whether KUnit case $1 passed, not skipped, in console log $2. (grep -c reads
# all its input: an early exit would fail the pipe under pipefail.)
case_passed() {
	console_text "$2" | grep -cE "^ *ok [0-9]+ $1\$" >/dev/null
}

# The KUnit cases that check what safe code and the C entry points must not do
# whatever their caller passes (issue 47): caller memory of any bytes, bad
# pointers and keys, the SHAKE abstraction's handles, an algorithm that
# outlives its registration, and where the kernel crate's doctests are built
# (not on the debug kernel), those of kernel::crypto and on 6.12 the
# scatterlist walk's refusal of a skip that off_t cannot hold. Prints
# "soundness checks, $2: N passed, N failed" for console log $1 of the
# selected build; a case (or family of doctests) that never reported counts
# as failed.
soundness_checks() {
	local cases=(any_bytes_in_caller_memory bad_arguments shake_sequences tfm_outlives_registration)
	if grep -q '^CONFIG_RUST_KERNEL_DOCTESTS=y' "$KBUILD/.config"; then
		cases+=('rust_doctest_kernel_crypto_sha3_rs_[0-9]+' 'rust_doctest_kernel_crypto_sig_rs_[0-9]+')
		[ "$KVER" != 6.12 ] || cases+=('rust_doctest_kernel_scatterlist_rs_[0-9]+')
	fi
	console_text "$1" | awk -v what="$2" -v list="${cases[*]}" '
		BEGIN { n = split(list, pat, " ") }
		{
			for (i = 1; i <= n; i++) {
				if ($0 ~ "^ *ok [0-9]+ " pat[i] "$") { p++; seen[i] = 1 }
				else if ($0 ~ "^ *not ok [0-9]+ " pat[i] "( |$)") { f++; seen[i] = 1 }
			}
		}
		END {
			for (i = 1; i <= n; i++) f += !seen[i]
			print "soundness checks, " what ": " p + 0 " passed, " f + 0 " failed"
			exit f > 0
		}'
}

# The initramfs of the KUnit boots of the selected kernel and arch,
# $KBUILD/kunit-initramfs.cpio: tools/kunit-init.sh, which sets fault
# injection up and loads the module of the suite mldsa_api_faults (signed
# where the kernel enforces signatures), then $1 if given (as
# /kmemleak-init.sh).
kunit_initramfs() {
	local initrd=$KBUILD/kunit-initramfs.cpio busybox=/bin/busybox
	local ko=$KBUILD/crypto/mldsa/tests/mldsa_api_faults_kunit.ko
	if [ "$KARCH" = s390 ]; then
		logged s390x-userland fetch_s390x_userland || return 1
		busybox=$S390X_ROOT/bin/busybox
	fi
	if grep -q '^CONFIG_MODULE_SIG=y' "$KBUILD/.config"; then
		"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted65.key" --cert "$MODSIGN/trusted65.der" \
			"$ko" -o "$initrd.ko" || return 1
		ko=$initrd.ko
	fi
	{
		INITRAMFS_BUSYBOX=$busybox initramfs_list "$REPO/tools/kunit-init.sh" sh mkdir mount insmod reboot
		echo "file /mldsa_api_faults_kunit.ko $ko 0644 0 0"
		[ -z "${1:-}" ] || echo "file /kmemleak-init.sh $1 0755 0 0"
	} >"$initrd.list" && gen_init_cpio "$initrd.list" >"$initrd"
}

# Whether the case of mldsa_api_faults ran, with fault injection set up, and
# passed, in console log $1 (as tools/ktap.py parsed it: $1.ktap).
faults_ran() {
	grep -q '^suite mldsa_api_faults: 1 passed, 0 failed, 0 skipped: ok$' "$1.ktap" || {
		echo "mldsa_api_faults did not run with fault injection set up (console: $1)" >&2
		return 1
	}
}

# Whether KUnit case $1 was skipped in console log $2.
case_skipped() {
	console_text "$2" | grep -cE "^ *ok [0-9]+ $1 # SKIP" >/dev/null
}

# The debug kernel: the selected kernel's x86_64 build with tools/debug.config
# (KASAN, UBSAN, lockdep, atomic-sleep and preemption checks, kmemleak, KFENCE,
# debugobjects, DEBUG_LIST, Rust overflow checks and debug assertions), built
# with LLVM 19 (Rust allows KASAN only with clang) in a build directory of its
# own, booted once with an initramfs that scans for leaks after KUnit: its
# suites must pass and the scan run, with no checker report. Then the fips=1
# boots, the module signing boot and the concurrent module loads
# (tools/lib/modsign.sh, tools/lib/concurrent.sh).
debug_kernel() {
	local console rc=0 reports KLLVM=-19 initrd
	# The arch settings are this function's own (select_arch sets them here).
	local KNAME KBUILD KCONFIG_FRAGMENTS KCONFIG_BASE KARCH KCROSS KIMAGE KTARGETS
	apt_install llvm-19 clang-19 lld-19
	select_arch x86_64
	KNAME=x86_64-debug KBUILD=$CACHE/build-$KVER-debug
	KCONFIG_FRAGMENTS+=("$REPO/tools/debug.config")
	console=$LOGS/console-$KVER-debug.log initrd=$KBUILD/kunit-initramfs.cpio
	configure_kernel
	build_kernel
	kunit_initramfs "$REPO/tools/kmemleak-init.sh" || return 1
	# Without 5-level paging: with it, Linux 7.3 under KASAN can report a wild access from
	# an interrupt taken while identify_cpu() rebuilds the boot CPU's feature bits (LA57
	# among them), before any module code runs.
	BOOT_KUNIT=1 boot_kernel max,la57=off "$console" "$initrd" || rc=$?
	phase "results: KUnit and a kmemleak scan on the debug kernel, Linux $KVER x86_64 (full console: $console)"
	kunit_results "$console" mldsa_rust mldsa_api mldsa_api_faults mldsa sha3 >/dev/null &&
		faults_ran "$console" || rc=1
	grep -q 'mldsa-debug: kmemleak scan done' "$console" || {
		echo "the kmemleak scan did not run" >&2
		rc=1
	}
	reports=$(checker_reports "$console" | wc -l)
	checker_reports "$console"
	awk -v what="debug kernel (KASAN, UBSAN, lockdep, kmemleak), Linux $KVER x86_64" -v n="$reports" \
		'/^[0-9]+ passed, [0-9]+ failed$/ {p = $1; f = $3} END {print what ": " p " passed, " f " failed, " n " reports"}' \
		"$console.ktap"
	if [ "$rc" != 0 ] || [ "$reports" != 0 ]; then
		echo "FAILED: the debug kernel, Linux $KVER x86_64" >&2
		return 1
	fi
	soundness_checks "$console" "Linux $KVER x86_64-debug" || return 1
	fips_boots "$initrd"
	modsign_boot max,la57=off
	concurrent_loads "Linux $KVER x86_64" max,la57=off
}

# FIPS mode on the debug kernel (CONFIG_CRYPTO_FIPS): booted with fips=1 and the
# boot parameter that makes the module's self-tests fail, it must panic at them
# as lib/crypto/mldsa.c's FIPS self-test would; with fips=1 alone, the self-tests
# pass and the boot reaches /init of initramfs $1 with no checker report.
fips_boots() {
	local fault=$LOGS/console-$KVER-fips-fault.log clean=$LOGS/console-$KVER-fips.log
	local passed=6 failed
	BOOT_APPEND="fips=1 mldsa_rust.selftest_fault" boot_kernel max,la57=off "$fault" "$1" || true
	BOOT_APPEND=fips=1 boot_kernel max,la57=off "$clean" "$1" || true
	phase "results: fips=1 boots, with and without a self-test failure (consoles: $fault, $clean)"
	failed=$(($(missing_lines "$fault" "fips mode: enabled" \
		"Kernel panic - not syncing: mldsa: FIPS self-test failed; err=-ELIBBAD") +
		$(missing_lines "$clean" "fips mode: enabled" \
			"mldsa_rust: self-tests passed for ML-DSA-44, ML-DSA-65 and ML-DSA-87" \
			"mldsa_rust: registered mldsa44, mldsa65, mldsa87" "mldsa-debug: kmemleak scan done")))
	passed=$((passed - failed))
	# The clean boot neither panics nor reports, and the failing one stops at the panic.
	if ! console_text "$clean" | grep -c 'Kernel panic' >/dev/null && [ "$(checker_reports "$clean" | wc -l)" = 0 ]; then
		passed=$((passed + 1))
	else
		echo "fips=1 boot: $clean has a panic or a checker report" >&2
		failed=$((failed + 1))
	fi
	if ! grep -q 'mldsa-debug:' "$fault"; then
		passed=$((passed + 1))
	else
		echo "fips=1 boot: $fault went on after the failed self-test" >&2
		failed=$((failed + 1))
	fi
	echo "fips=1 boots, Linux $KVER x86_64: $passed passed, $failed failed" | tee "$LOGS/fips-$KVER.txt"
	[ "$failed" = 0 ] || {
		echo "FAILED: the fips=1 boots, Linux $KVER x86_64" >&2
		return 1
	}
}
