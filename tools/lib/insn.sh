# In-kernel instruction counting with the QEMU plugin tools/insn-count/.
# shellcheck shell=bash

# The QEMU plugin tools/insn-count/mldsa-insns.c, built against qemu-plugin.h of
# the source package of the installed QEMU (Debian 12's 7.2), which a private apt
# configuration with deb-src lines of the same archive fetches into the cache.
INSN_PLUGIN=$CACHE/insn-count/libmldsa-insns.so
_build_insn_plugin() {
	local ver APT_DIR=$CACHE/apt-src
	ver=$(dpkg-deb -f "$CACHE"/qemu-debs/qemu-system-data_*.deb Version) || return 1
	if [ ! -f "$CACHE/qemu-src/$ver/qemu-plugin.h" ]; then
		mkdir -p "$CACHE/qemu-src/$ver" &&
			private_apt_sources deb-src "$DEBIAN_CODENAME" "$DEBIAN_CODENAME-security" &&
			(cd "$APT_DIR" && rm -f qemu_* && private_apt source --download-only "qemu=$ver") &&
			tar -xJOf "$APT_DIR"/qemu_*.orig.tar.xz --wildcards '*/include/qemu/qemu-plugin.h' \
				>"$CACHE/qemu-src/$ver/qemu-plugin.h" || return 1
	fi
	mkdir -p "${INSN_PLUGIN%/*}" &&
		gcc -O2 -Wall -shared -fPIC -I"$CACHE/qemu-src/$ver" -o "$INSN_PLUGIN" \
			"$REPO/tools/insn-count/mldsa-insns.c"
}

# Exact in-kernel instruction counts: Linux $KVER for arch $1 (x86_64 or
# s390x) with lib/crypto/mldsa.c and the module side by side (tools/perf.config),
# booted with the plugin (x86_64 twice, with and without AVX2 and BMI2, see below); the
# KUnit case count_instructions brackets each
# verification with its markers. Prints, per set, the least count of the eight
# runs of each verification (one that no interrupt came into): the C
# mldsa_verify(), and this module one-shot (mldsa_verify_noalloc(), the key
# decoded each time) and with a key decoded once, on the portable and SIMD code.
# "Rust portable" is what a CPU without the SIMD routines runs: the portable code,
# with the SHA-3 library's permutation for ExpandA where that is arch code (the
# x86 SHA-3 code of tools/patches/7.3 on a CPU with BMI2).
insn_counts() {
	local out=$LOGS/insns-$KVER-$1.txt plain simd=AVX2 dir=$CACHE/build-$KVER-perf
	[ "$1" = x86_64 ] || { simd="vector facility" dir=$CACHE/build-$KVER-$1-perf; }
	phase "insn-count: the QEMU plugin (log: $LOGS/insn-plugin.log)"
	logged insn-plugin _build_insn_plugin
	# The arch settings are this function's own (select_arch sets them here).
	local KNAME KBUILD KCONFIG_FRAGMENTS KCONFIG_BASE KARCH KCROSS KIMAGE KTARGETS
	select_arch "$1"
	KNAME=$1-perf KBUILD=$dir
	KCONFIG_FRAGMENTS+=("$REPO/tools/perf.config")
	seed_build_dir "$CACHE/build-$KVER-$1"
	configure_kernel
	build_kernel
	_insn_boot max "$out" || return 1
	# On x86_64 a second boot, on a CPU without AVX2 and BMI2, counts the C and the
	# portable Rust on the generic SHA-3 code, as on a kernel without the x86 SHA-3
	# arch code of tools/patches/7.3 (which Debian's is); the first counts what an AVX2
	# CPU (which has BMI2, for that arch code) runs.
	plain=$out
	if [ "$1" = x86_64 ]; then
		plain=$LOGS/insns-$KVER-$1-noavx2.txt
		_insn_boot max,avx2=off,bmi2=off "$plain" || return 1
	fi
	awk -v k="Linux $KVER $1" -v simd="$simd" -v x86="$([ "$1" = x86_64 ] && echo 1)" '
		{ f = (NR == FNR) ? "simd" : "plain"
		  if (!((f, $1) in min) || $2 < min[f, $1]) min[f, $1] = $2 }
		END {
			for (nn = 44; nn <= 87; nn += (nn == 44 ? 21 : 22)) {
				l = nn * 16
				printf "in-kernel instructions per verify, %s, mldsa%d: C %d, Rust portable %d, Rust %s %d\n",
					k, nn, min["plain", l], min["plain", l + 1], simd, min["simd", l + 2]
			}
			for (nn = 44; nn <= 87; nn += (nn == 44 ? 21 : 22)) {
				l = nn * 16
				printf "in-kernel instructions per verify with a prepared key, %s, mldsa%d: Rust portable %d, Rust %s %d\n",
					k, nn, min["plain", l + 3], simd, min["simd", l + 4]
			}
			for (nn = 44; x86 && nn <= 87; nn += (nn == 44 ? 21 : 22)) {
				l = nn * 16
				printf "in-kernel instructions per verify with the x86 SHA-3 arch code, %s, mldsa%d: C %d, Rust portable %d\n",
					k, nn, min["simd", l], min["simd", l + 1]
				# The arch code must be what runs there: fewer instructions.
				if (min["simd", l] >= min["plain", l]) bad = 1
			}
			exit bad
		}' "$out" "$plain" | tee "$LOGS/insns-$KVER-$1.summary" || {
		echo "FAILED: the C verifier ran no faster with the x86 SHA-3 arch code" >&2
		return 1
	}
	# The whole module signature check (tools/lib/modcheck.sh), on this kernel.
	[ "$1" != x86_64 ] || modcheck_counts
}

# A boot of the perf kernel on QEMU -cpu $1 under the plugin, its counts into $2.
_insn_boot() {
	local console=$LOGS/console-$KVER-$KNAME-${1//[,=]/-}.log rc=0
	rm -f "$2"
	# One vCPU, its clock driven by its instruction count: the boot runs the same way
	# each time, so the counts (interrupts and all) are identical from run to run.
	BOOT_QEMU_EXTRA="-plugin $INSN_PLUGIN,out=$2 -icount shift=0,sleep=off -smp 1" \
		boot_kernel "$1" "$console" || rc=$?
	kunit_results "$console" mldsa_rust mldsa_api >/dev/null || rc=1
	[ "$rc" = 0 ] && [ -s "$2" ] || {
		echo "FAILED: the instruction counts, Linux $KVER $KNAME, -cpu $1 (console: $console)" >&2
		return 1
	}
}
