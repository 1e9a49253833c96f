# Kernel builds: the arch, configuration, Kconfig rules, build, and the
# lints of a build.
# shellcheck shell=bash

# Parallel jobs of the kernel builds: one per CPU (MLDSA_JOBS overrides it).
JOBS=${MLDSA_JOBS:-$(nproc)}


# The architecture: x86_64 (the default) or s390x, each with its build directory
# $KBUILD (one per kernel) and config fragment tools/$KNAME.config (on x86_64
# after tools/x86_64-qemu.config, and before the consumer cases'
# tools/consumers.config), merged with the kernel's own, tools/linux-$KVER.config.
select_arch() {
	KNAME=$1
	KBUILD=$CACHE/build-$KVER-$1
	KCONFIG_FRAGMENTS=("$REPO/tools/$1.config" "$REPO/tools/linux-$KVER.config")
	KCONFIG_BASE=
	case $1 in
	x86_64) KARCH=x86_64 KCROSS= KIMAGE=arch/x86/boot/bzImage KTARGETS=(bzImage modules)
		KCONFIG_FRAGMENTS=("$REPO/tools/x86_64-qemu.config" "$REPO/tools/x86_64.config"
			"$REPO/tools/consumers.config" "$REPO/tools/linux-$KVER.config") ;;
	s390x) KARCH=s390 KCROSS=s390x-linux-gnu- KIMAGE=arch/s390/boot/bzImage KTARGETS=(bzImage modules) ;;
	esac
}

# rustup's rustc (first on PATH) has no rust-src: always use Debian's
# (rustc-web), with the library sources of its own version (rust-web-src); with
# KTOOLCHAIN=rustc-min, Debian 12's at Kconfig's minimum. OpenSSL is 4.0 from
# the cache (tools/lib/openssl.sh), which has ML-DSA: Kconfig offers the ML-DSA
# module signing keys only where `openssl` makes them. KTOOLCHAIN=debian13
# builds in the Debian 13 root with its own gcc 14, rustc, bindgen and OpenSSL,
# as Debian builds Linux 7.3 (tools/lib/toolchains.sh).
kmake() {
	local bin=/usr/bin root= rust_lib_src
	case ${KTOOLCHAIN:-} in
	debian13)
		in_buildroot /usr/bin/env LIBCLANG_PATH=/usr/lib/llvm-19/lib make -C "$KSRC" O="$KBUILD" \
			ARCH="$KARCH" CC=x86_64-linux-gnu-gcc-14 RUSTC=rustc RUSTDOC=rustdoc HOSTRUSTC=rustc \
			BINDGEN=bindgen "$@"
		return
		;;
	rustc-min) bin=$RUSTC_MIN/bin root=$RUSTC_MIN/root ;;
	esac
	rust_lib_src=$root/usr/src/rustc-$("$bin/rustc" --version | cut -d' ' -f2)/library
	LIBCLANG_PATH=/usr/lib/llvm-19/lib with_openssl 4.0 make -C "$KSRC" O="$KBUILD" ARCH="$KARCH" \
		${KCROSS:+CROSS_COMPILE=$KCROSS} ${KLLVM:+LLVM=$KLLVM} \
		RUSTC="$bin/rustc" RUSTDOC="$bin/rustdoc" HOSTRUSTC="$bin/rustc" \
		BINDGEN="$BINDGEN" RUST_LIB_SRC="$rust_lib_src" "$@"
}

# usr/gen_init_cpio of the selected kernel's build, run with "$@"; for a build
# in the Debian 13 root, whose C library is newer than this machine's, compiled
# again here.
gen_init_cpio() {
	local tool=$KBUILD/usr/gen_init_cpio
	if [ "${KTOOLCHAIN:-}" = debian13 ]; then
		tool=$KBUILD/usr/gen_init_cpio.here
		[ "$tool" -nt "$KSRC/usr/gen_init_cpio.c" ] || cc -O2 -o "$tool" "$KSRC/usr/gen_init_cpio.c" || return 1
	fi
	"$tool" "$@"
}

# Called through `logged`, i.e. in an `if` where errexit is off: chain with &&.
_configure_kernel() {
	kmake tinyconfig &&
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" "$KBUILD/.config" \
			${KCONFIG_BASE:+"$KCONFIG_BASE"} "${KCONFIG_FRAGMENTS[@]}" &&
		"$KSRC/scripts/config" --file "$KBUILD/.config" \
			--set-str SYSTEM_TRUSTED_KEYS "$MODSIGN/trusted.pem" &&
		_configure_blacklist && kmake olddefconfig
}

# The consumer cases' blacklisted certificate (tools/lib/consumers.sh), as
# their CA is among the trusted keys, in a distribution's configuration too.
_configure_blacklist() {
	"$KSRC/scripts/config" --file "$KBUILD/.config" \
		--set-str SYSTEM_BLACKLIST_HASH_LIST "$CONSUMERS/blacklist-hashes"
}

# The lines of config fragments "$@" that set an option, the last for each
# option (a later fragment overrides an earlier one, as merge_config.sh merges).
last_settings() {
	sed -nE 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1 &/p; s/^(CONFIG_[A-Za-z0-9_]+)=.*/\1 &/p' "$@" |
		awk '{ o = $1; sub(/^[^ ]+ /, ""); if (!(o in v)) k[n++] = o; v[o] = $0 }
			END { for (i = 0; i < n; i++) print v[k[i]] }'
}

# tinyconfig + the config fragments, redone only when an input changed. Fails
# if any option of the fragments did not survive (e.g. RUST silently dropped).
# KCONFIG_BASE, if set, is a config merged before the fragments and not
# checked: Debian's settings, some of which need what a QEMU kernel leaves out.
configure_kernel() {
	local want stamp=$KBUILD/.mldsa-config-stamp log=configure-$KVER-$KNAME
	want="$( (cat ${KCONFIG_BASE:+"$KCONFIG_BASE"} "${KCONFIG_FRAGMENTS[@]}" "$REPO/Kconfig" "$KSRC.stamp"
		echo "$MODSIGN ${KLLVM:-} ${KTOOLCHAIN:-}") | sha256sum | cut -d' ' -f1)"
	mkdir -p "$KBUILD"
	if [ -f "$KBUILD/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		phase "configure: $KBUILD/.config is up to date"
		return 0
	fi
	phase "configure: Linux $KVER $KNAME, tinyconfig + ${KCONFIG_FRAGMENTS[*]#"$REPO/"} (log: $LOGS/$log.log)"
	logged "rustavailable-$KVER" kmake rustavailable
	logged "$log" _configure_kernel
	local line opt bad=0
	while IFS= read -r line; do
		case $line in
		'# '*) # "# CONFIG_X is not set": X must not be y or m.
			opt=${line#\# }
			opt=${opt%% *}
			! grep -qE "^$opt=[ym]$" "$KBUILD/.config" || {
				echo "config: $opt is set, which a fragment unsets" >&2
				bad=1
			}
			continue
			;;
		esac
		if ! grep -qxF -- "$line" "$KBUILD/.config"; then
			echo "config: $line did not survive olddefconfig (got: $(grep -E "^(# )?${line%%=*}[= ]" "$KBUILD/.config" || echo unset))" >&2
			bad=1
		fi
	done < <(last_settings "${KCONFIG_FRAGMENTS[@]}")
	[ "$bad" = 0 ] || {
		echo "FAILED: configure (see $LOGS/$log.log and $LOGS/rustavailable-$KVER.log)" >&2
		return 1
	}
	echo "$want" >"$stamp"
}

# Kconfig rules, each checked with tinyconfig + a fragment + olddefconfig (no
# build) in $CACHE/kconfig-$KVER-$1: $1 the case's name, $2 ARCH, $3 the
# fragment (lines), $4 the options that must come out =y, $5 those that must
# not. Chain with && (logged).
_kconfig_case() {
	local dir=$CACHE/kconfig-$KVER-$1 opt
	mkdir -p "$dir" && printf '%s\n' "$3" >"$dir/fragment" &&
		KBUILD=$dir KARCH=$2 KCROSS= kmake tinyconfig &&
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" "$dir/fragment" &&
		KBUILD=$dir KARCH=$2 KCROSS= kmake olddefconfig || return 1
	for opt in $4; do
		grep -qx "CONFIG_$opt=y" "$dir/.config" || { echo "kconfig $1: CONFIG_$opt is not y"; return 1; }
	done
	for opt in ${5:-}; do
		! grep -qE "^CONFIG_$opt=[ym]" "$dir/.config" || { echo "kconfig $1: CONFIG_$opt is set"; return 1; }
	done
}

# The Kconfig rules of the module on Linux $KVER: no AVX2 code for ARCH=um
# (whose x86_64 is no X86), the KUnit suites only with KUNIT=y, and module
# signing with ML-DSA keys builds the verifier in (6.12: tools/patches/6.12/0019;
# 7.x: through CRYPTO_MLDSA and CRYPTO_LIB_MLDSA_RUST). Prints one line.
kconfig_tests() {
	local rust="CONFIG_RUST=y
CONFIG_CRYPTO=y" modsign="CONFIG_MODULES=y
CONFIG_MODULE_SIG=y
CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_65=y
CONFIG_CRYPTO_MLDSA_RUST=m" lib=
	[ "$KVER" = 6.12 ] || lib="CONFIG_CRYPTO_LIB_MLDSA_RUST=y"
	phase "kconfig: the module's Kconfig rules on Linux $KVER (logs: $LOGS/kconfig-$KVER-*.log)"
	logged "kconfig-$KVER-um" _kconfig_case um um "$rust
CONFIG_64BIT=y
CONFIG_CRYPTO_MLDSA_RUST=y" "CRYPTO_MLDSA_RUST X86_64" CRYPTO_MLDSA_AVX2 &&
		logged "kconfig-$KVER-kunit-m" _kconfig_case kunit-m x86_64 "$rust
CONFIG_CRYPTO_MLDSA_RUST=y
CONFIG_MODULES=y
CONFIG_KUNIT=m
CONFIG_CRYPTO_MLDSA_KUNIT_TEST=y" CRYPTO_MLDSA_RUST CRYPTO_MLDSA_KUNIT_TEST &&
		logged "kconfig-$KVER-modsign" _kconfig_case modsign x86_64 "$rust
$modsign
$lib" "CRYPTO_MLDSA_RUST MODULE_SIG_KEY_TYPE_MLDSA_65" || return 1
	echo "kconfig, Linux $KVER: ARCH=um without AVX2, KUnit only with KUNIT=y," \
		"ML-DSA module signing builds the verifier in: 3 rules hold"
}

# A build directory made for the first time starts as a copy of $1, a build
# of the same kernel and architecture in another configuration, if there is
# one: kbuild records which options each object depends on, so the build then
# recompiles only what the options that differ reach (and the Rust crates,
# whose commands name the build directory). Saves most of a build from nothing
# for the configurations that differ from the test kernel's in a few options.
seed_build_dir() {
	[ ! -e "$KBUILD/.config" ] && [ -f "$1/vmlinux" ] || return 0
	phase "seed: $KBUILD from $1"
	mkdir -p "$KBUILD" &&
		tar -C "$1" --exclude=./concurrent --exclude=./modroot --exclude='./*.cpio' -cf - . |
		tar -C "$KBUILD" -xf -
}

build_kernel() {
	phase "build: Linux $KVER $KNAME ${KTARGETS[*]} in $KBUILD (log: $LOGS/build-$KVER-$KNAME.log)"
	# On x86_64, `modules` also writes Module.symvers, which the test module is built against.
	logged "build-$KVER-$KNAME" kmake -j"$JOBS" "${KTARGETS[@]}"
}

# Lines of rustc, clippy or rustdoc diagnostics (warnings and errors) in the log $1.
count_diagnostics() {
	{ grep -E '^(warning|error)(\[[A-Za-z0-9]+\])?: ' "$1" || true; } |
		{ grep -vE 'warnings? emitted|generated [0-9]+ warnings?|aborting due to' || true; } | wc -l
}

# rustdoc of the module, with the flags of its last build (its .cmd file), as
# `make rustdoc` documents the kernel's crates, private items included.
module_rustdoc() {
	local cmd
	cmd=$(sed -n 's/^savedcmd_crypto\/mldsa\/mldsa_main.o := //p' "$KBUILD/crypto/mldsa/.mldsa_main.o.cmd")
	cmd=$(sed -E 's# ; .*##; s#/usr/bin/(clippy-driver|rustc) #/usr/bin/rustdoc #;
		s# --emit=[^ ]+##g; s# --crate-type [a-z]+##; s# --remap-path-[a-z]+=[^ ]+##g;
		s# -[WA]clippy::[^ ]+##g; s# --out-dir [^ ]+# -o Documentation/output/mldsa --document-private-items#' <<<"$cmd")
	(cd "$KBUILD" && export RUSTC_BOOTSTRAP=1 && eval "$cmd")
}

# The lints of the selected kernel's (x86_64) build, as "clippy N, rustdoc N" in
# $LOGS/lints-$KVER: clippy on the kernel crate, with the abstractions of the
# patches, and on the module, both rebuilt for it with CLIPPY=1 (Debian's
# clippy-driver of the same rustc); rustdoc warnings of `make rustdoc` (rerun
# when the tree or the config changes) and of the module. Call it after the
# boots: clippy-driver turns off MIR optimizations, so its objects differ from
# rustc's (the next build_kernel rebuilds them).
kernel_lints() {
	local want stamp=$KBUILD/.mldsa-rustdoc-stamp clippy doc
	phase "lint: clippy and rustdoc, Linux $KVER $KNAME (logs: $LOGS/clippy-$KVER.log, $LOGS/rustdoc-$KVER.log)"
	rm -f "$KBUILD/rust/kernel.o" "$KBUILD/crypto/mldsa/mldsa_main.o"
	logged "clippy-$KVER" kmake -j"$JOBS" CLIPPY=1 CLIPPY_DRIVER=/usr/bin/clippy-driver "${KTARGETS[@]}"
	clippy=$(count_diagnostics "$LOGS/clippy-$KVER.log")
	want=$( (cat "$KSRC.stamp" "$KBUILD/.config") | sha256sum | cut -d' ' -f1)
	if [ "$(head -n 1 "$stamp" 2>/dev/null)" != "$want" ]; then
		logged "rustdoc-$KVER" kmake -j"$JOBS" rustdoc
		printf '%s\n%s\n' "$want" "$(count_diagnostics "$LOGS/rustdoc-$KVER.log")" >"$stamp"
	fi
	logged "rustdoc-module-$KVER" module_rustdoc
	doc=$(($(tail -n 1 "$stamp") + $(count_diagnostics "$LOGS/rustdoc-module-$KVER.log")))
	echo "clippy $clippy, rustdoc $doc" | tee "$LOGS/lints-$KVER"
}

# Builds the build-time check CHECK (tools/compile-fail/CHECK.rs) against the
# selected kernel's build, with standard input as its file FILE, under the name
# CASE: it must build if WANT is empty, and fail with WANT in its log otherwise.
compile_fail() {
	local check=$1 case=$2 file=$3 want=$4 dir log
	dir=$CACHE/compile-fail-$KVER/$case log=$LOGS/compile-fail-$KVER-$case.log
	rm -rf "$dir" && mkdir -p "$dir" && cp "$REPO"/tools/compile-fail/{Kbuild,"$check".rs} "$dir" &&
		cat >"$dir/$file" || return 1
	if kmake M="$dir" COMPILE_FAIL_CHECK="$check" modules >"$log" 2>&1; then
		[ -z "$want" ] && return
		echo "compile-fail: $case built (log: $log)" >&2
	elif [ -z "$want" ]; then
		tail -n 20 "$log"
		echo "compile-fail: $case did not build (log: $log)" >&2
	elif grep -qF -- "$want" "$log"; then
		return
	else
		tail -n 20 "$log"
		echo "compile-fail: $case failed, but not on $want (log: $log)" >&2
	fi
	return 1
}

# An algorithm name of $1 bytes and its NUL.
name_of() {
	head -c "$1" /dev/zero | tr '\0' x
	printf '\0'
}

# The build-time checks of the kernel crate's abstractions (tools/compile-fail):
# a SigAlg's name must fit cra_name (NAMES_FIT), and a SHAKE context takes no
# input once squeezed. Prints one line.
compile_fail_checks() {
	local ok=1
	name_of 127 | compile_fail sig_name_check name-127 name '' || ok=0
	name_of 128 | compile_fail sig_name_check name-128 name NAMES_FIT || ok=0
	echo '()' | compile_fail shake_squeezed shake-squeezed late '' || ok=0
	echo 'squeezing.update(b"late")' |
		compile_fail shake_squeezed shake-update-squeezing late \
			'no method named `update` found for struct `Squeezing' || ok=0
	echo 'absorbing.update(b"late")' |
		compile_fail shake_squeezed shake-update-absorbed late \
			'borrow of moved value: `absorbing`' || ok=0
	[ "$ok" = 1 ] || return 1
	echo "build-time checks, Linux $KVER: a SigAlg named in 127 bytes builds, in 128 fails" \
		"on NAMES_FIT; a squeezed SHAKE context takes no update (2 cases)"
}
