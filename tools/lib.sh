# Shared helpers for ./tools/run and ./tools/test. Sourced, not executed.
# shellcheck shell=bash

set -euo pipefail
# Nothing here reads standard input; rustc probes read theirs (`rustc -`), so
# never let them see the caller's.
exec </dev/null

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything big lives outside the repository and is reused between runs.
CACHE=${MLDSA_CACHE:-$HOME/.cache/mldsa}
LOGS=$CACHE/logs
mkdir -p "$LOGS"

T0=$(date +%s)
phase() { printf '== [%4ss] %s\n' "$(($(date +%s) - T0))" "$*"; }

# Run "$@" with output in $LOGS/$1.log; on failure show its tail.
logged() {
	local name=$1
	shift
	if ! "$@" >"$LOGS/$name.log" 2>&1; then
		tail -n 40 "$LOGS/$name.log"
		echo "FAILED: $name (full log: $LOGS/$name.log)" >&2
		return 1
	fi
}

apt_install() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q '^install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Host side: what the cargo harness needs.
install_host_deps() {
	command -v cargo >/dev/null || {
		echo "cargo not found: the host harness needs a Rust toolchain" >&2
		return 1
	}
	apt_install valgrind
}

# Kernel side: Debian's kernel source, Rust 1.96, bindgen, build tools, QEMU 7.2.
install_kernel_deps() {
	apt_install linux-source-6.12 build-essential flex bison bc libelf-dev \
		libssl-dev openssl cpio kmod dwarves python3 python3-ply libclang-19-dev clang-19 lld-19 \
		rustc-web rust-web-src rust-web-clippy libstd-rust-web-dev cargo-web busybox-static \
		gcc-s390x-linux-gnu
	install_qemu
	local v
	for v in "${BINDGEN_VERS[@]}"; do
		"$CACHE/bindgen-$v/bin/bindgen" --version 2>/dev/null | grep -q "$v" ||
			LIBCLANG_PATH=/usr/lib/llvm-19/lib cargo install --locked \
				--root "$CACHE/bindgen-$v" bindgen-cli --version "$v" || return 1
	done
	fetch_linux_7_3
}

# The Debian archive of suite $1 for the private apt configurations below: the
# machine's apt sources' URI for it, so that they go where the machine's own go
# (mirror or proxy), or for a suite they do not list (trixie-backports), their
# URI for the machine's release, which MLDSA_DEBIAN_ARCHIVE overrides.
debian_archive() {
	local uri
	uri=$(apt_source_uri "$1")
	[ -n "$uri" ] || uri=${MLDSA_DEBIAN_ARCHIVE:-$(apt_source_uri "$DEBIAN_CODENAME")}
	[ -n "$uri" ] || {
		echo "no apt source of this machine lists suite $1 or $DEBIAN_CODENAME" \
			"(set MLDSA_DEBIAN_ARCHIVE)" >&2
		return 1
	}
	echo "${uri%/}"
}
apt_source_uri() {
	apt-get indextargets --format '$(RELEASE) $(REPO_URI)' | awk -v s="$1" '$1 == s && !n++ {print $2}'
}

# The machine's Debian release (bookworm), whose archive the private apt
# configurations use.
DEBIAN_CODENAME=$(. /etc/os-release && echo "$VERSION_CODENAME")

# Runs apt-get "$@" with the private configuration in directory $APT_DIR, whose
# sources.list lists only what it is for: nothing is installed and the
# machine's apt configuration is not touched.
private_apt() {
	apt-get -o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
		-o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache" \
		-o APT::Sandbox::User=root "$@"
}

# Writes $APT_DIR/sources.list, of type $1 (deb, deb-src) for suites $2...
# of their archives, and updates the private lists.
private_apt_sources() {
	local type=$1 archive s
	shift
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" || return 1
	for s in "$@"; do
		archive=$(debian_archive "$s") || return 1
		echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive $s main"
	done >"$APT_DIR/sources.list" && private_apt update
}

# Debian 12's QEMU 7.2, the system emulators, unpacked in the cache
# ($QEMU_PREFIX) rather than installed: a machine may have a newer qemu-utils,
# whose package Breaks Debian 12's qemu-system-common, and no host package is
# downgraded. Their libraries and firmware packages are installed as usual.
QEMU_PREFIX=$CACHE/qemu
QEMU_PKGS=(qemu-system-x86 qemu-system-misc qemu-system-common qemu-system-data)
install_qemu() {
	local ver deps
	ver=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ {print $2}')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
		apt-get update -q
		ver=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ {print $2}')
	}
	[ "$(cat "$QEMU_PREFIX.stamp" 2>/dev/null)" = "$ver" ] && return 0
	mapfile -t deps < <(apt-cache depends "${QEMU_PKGS[@]}" |
		awk '$1 ~ /^(Pre)?Depends:$/ && $2 !~ /^(qemu-|<)/ {print $2}' | sort -u)
	apt_install "${deps[@]}" &&
		rm -rf "$QEMU_PREFIX" "$QEMU_PREFIX.stamp" "$CACHE/qemu-debs" && mkdir -p "$CACHE/qemu-debs" &&
		(cd "$CACHE/qemu-debs" && apt-get download "${QEMU_PKGS[@]}") || return 1
	local d
	for d in "$CACHE"/qemu-debs/*.deb; do
		dpkg -x "$d" "$QEMU_PREFIX" || return 1
	done
	echo "$ver" >"$QEMU_PREFIX.stamp"
}

# Debian's linux-source-7.3 comes from trixie-backports, which the machine's apt
# sources do not list: a private apt configuration lists only that suite, of
# the machine's own archive, and `apt-get download` + `dpkg -x` unpack the
# package in the cache. The package is pinned (tools/kernel/sources): a
# changed pin fetches it again, and a download of another content fails.
fetch_linux_7_3() {
	local pkg ver sum deb dir=$CACHE/deb/linux-source-7.3 APT_DIR=$CACHE/apt
	read -r pkg ver sum < <(awk '$1 == "linux-source-7.3"' "$REPO/tools/kernel/sources")
	[ "$(cat "$dir.stamp" 2>/dev/null)" = "$ver $sum" ] && return 0
	deb=$APT_DIR/${pkg}_${ver//:/%3a}_all.deb
	if ! echo "$sum  $deb" | sha256sum -c --status 2>/dev/null; then
		private_apt_sources deb trixie-backports &&
			(cd "$APT_DIR" && rm -f "$pkg"_*.deb && private_apt download "$pkg=$ver") || {
			echo "cannot download $pkg $ver from trixie-backports: if the archive has moved on," \
				"update the pin in tools/kernel/sources (and the patches)" >&2
			return 1
		}
		echo "$sum  $deb" | sha256sum -c --status || {
			echo "$deb: not the sha256 that tools/kernel/sources pins" >&2
			return 1
		}
	fi
	rm -rf "$dir" "$dir.stamp" && mkdir -p "$dir" && dpkg -x "$deb" "$dir" &&
		echo "$ver $sum" >"$dir.stamp"
}

# The pristine source tarball of the selected kernel ($KSRC_TARBALL), fetched
# where it is missing.
fetch_kernel_source() {
	case $KVER in
	6.12) apt_install linux-source-6.12 ;;
	7.3) fetch_linux_7_3 ;;
	esac
}

# The host tests again, cross-built for s390x and run under qemu-s390x (user
# mode): the core on a big-endian machine. Debian ships no s390x std for
# rustc-web 1.96, so cargo builds it from rust-web-src (-Zbuild-std, an
# unstable flag: RUSTC_BOOTSTRAP=1, as the kernel's own Rust build sets).
# Tests that run this crate's binaries go through MLDSA_TEST_RUNNER; doctests
# (none but the host build's) are not cross-run.
host_tests_s390x() {
	# -cpu max: with the vector facility, for arch/s390/ntt_vx.S.
	local runner="qemu-s390x -cpu max -L /usr/s390x-linux-gnu"
	apt_install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user rustc-web rust-web-src
	MLDSA_TEST_RUNNER=$runner MLDSA_ALLOW_NO_AVX2=1 RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc \
		CARGO_TARGET_DIR="$CACHE/target-s390x" \
		CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc \
		CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="$runner" \
		cargo test --release -Zbuild-std --target s390x-unknown-linux-gnu --lib --bins --tests \
		--manifest-path "$REPO/tools/host/Cargo.toml"
}

# ---------------------------------------------------------------------------
# Kernel pipeline: unpack + patch, configure, build, boot, results.

# Parallel jobs of the kernel builds: one per CPU (MLDSA_JOBS overrides it).
JOBS=${MLDSA_JOBS:-$(nproc)}
BOOT_TIMEOUT=${MLDSA_BOOT_TIMEOUT:-300}
# bindgen for 6.12 and for 7.3 (scripts/min-tool-version.sh: 0.71.1).
BINDGEN_VERS=(0.69.5 0.71.1)

# The kernel the functions below build and boot: Debian's Linux 6.12 (the
# default) or 7.3, with the patches of tools/patches/$KVER.
select_kernel() {
	KVER=$1
	KSRC=$CACHE/src/linux-source-$KVER
	KPATCHES=$REPO/tools/patches/$KVER
	case $1 in
	6.12) KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz BINDGEN=$CACHE/bindgen-0.69.5/bin/bindgen ;;
	7.3) KSRC_TARBALL=$CACHE/deb/linux-source-7.3/usr/src/linux-source-7.3.tar.xz
		BINDGEN=$CACHE/bindgen-0.71.1/bin/bindgen ;;
	esac
	select_arch "${KNAME:-x86_64}"
}

# The architecture: x86_64 (the default) or s390x, each with its build directory
# $KBUILD (one per kernel) and config fragment tools/$KNAME.config, merged with
# the kernel's own, tools/linux-$KVER.config.
select_arch() {
	KNAME=$1
	KBUILD=$CACHE/build-$KVER-$1
	KCONFIG_FRAGMENTS=("$REPO/tools/$1.config" "$REPO/tools/linux-$KVER.config")
	case $1 in
	x86_64) KARCH=x86_64 KCROSS= KIMAGE=arch/x86/boot/bzImage KTARGETS=(bzImage modules) ;;
	s390x) KARCH=s390 KCROSS=s390x-linux-gnu- KIMAGE=arch/s390/boot/bzImage KTARGETS=(bzImage) ;;
	esac
}
select_kernel 6.12

# rustup's rustc (first on PATH) has no rust-src: always use Debian's
# (rustc-web), with the library sources of its own version (rust-web-src).
kmake() {
	local rust_lib_src
	rust_lib_src=/usr/src/rustc-$(/usr/bin/rustc --version | cut -d' ' -f2)/library
	LIBCLANG_PATH=/usr/lib/llvm-19/lib make -C "$KSRC" O="$KBUILD" ARCH="$KARCH" \
		${KCROSS:+CROSS_COMPILE=$KCROSS} ${KLLVM:+LLVM=$KLLVM} \
		RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc HOSTRUSTC=/usr/bin/rustc \
		BINDGEN="$BINDGEN" RUST_LIB_SRC="$rust_lib_src" "$@"
}

# Unpack the pristine tree and apply tools/patches/$KVER/*.patch. The stamp
# records the hashes of the tarball and the patches, so that a changed source
# package or patch gives a fresh unpack.
prepare_tree() {
	local want stamp=$KSRC.stamp
	want="$(sha256sum <"$KSRC_TARBALL" | cut -d' ' -f1) $(cat "$KPATCHES"/*.patch | sha256sum | cut -d' ' -f1)"
	if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		phase "unpack: $KSRC_TARBALL + tools/patches/$KVER -> $KSRC"
		rm -rf "$KSRC" "$stamp"
		mkdir -p "$CACHE/src"
		tar -xf "$KSRC_TARBALL" -C "$CACHE/src"
		local p
		for p in "$KPATCHES"/*.patch; do
			patch -d "$KSRC" -p1 --forward --batch --quiet <"$p"
		done
		echo "$want" >"$stamp"
	else
		phase "unpack: $KSRC is up to date"
	fi
	# The repository root is the module directory: a symlink, so edits are seen. When
	# it pointed at another checkout, drop the module's objects: make compares times,
	# and this checkout's files may be older than objects built from the other one.
	if [ "$(readlink "$KSRC/crypto/mldsa")" != "$REPO" ]; then
		rm -rf "$CACHE"/build-*/crypto/mldsa
	fi
	ln -sfn "$REPO" "$KSRC/crypto/mldsa"
}

# Called through `logged`, i.e. in an `if` where errexit is off: chain with &&.
_configure_kernel() {
	kmake tinyconfig &&
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" "$KBUILD/.config" \
			"${KCONFIG_FRAGMENTS[@]}" &&
		"$KSRC/scripts/config" --file "$KBUILD/.config" \
			--set-str SYSTEM_TRUSTED_KEYS "$MODSIGN/trusted.pem" &&
		kmake olddefconfig
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
configure_kernel() {
	local want stamp=$KBUILD/.mldsa-config-stamp log=configure-$KVER-$KNAME
	want="$( (cat "${KCONFIG_FRAGMENTS[@]}" "$REPO/Kconfig" "$KSRC.stamp"; echo "$MODSIGN ${KLLVM:-}") | sha256sum | cut -d' ' -f1)"
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
# not. Run with `openssl` on PATH a stub that lists ML-DSA key managers (as
# OpenSSL 3.5 does) if $KCONFIG_OPENSSL_STUB is set. Chain with && (logged).
_kconfig_case() {
	local dir=$CACHE/kconfig-$KVER-$1 opt path=$PATH
	if [ -n "${KCONFIG_OPENSSL_STUB:-}" ]; then
		mkdir -p "$dir/bin" &&
			printf '#!/bin/sh\necho "  ML-DSA-44 ML-DSA-65 ML-DSA-87"\n' >"$dir/bin/openssl" &&
			chmod +x "$dir/bin/openssl" && path=$dir/bin:$PATH
	fi
	mkdir -p "$dir" && printf '%s\n' "$3" >"$dir/fragment" &&
		PATH=$path KBUILD=$dir KARCH=$2 KCROSS= kmake tinyconfig &&
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" "$dir/fragment" &&
		PATH=$path KBUILD=$dir KARCH=$2 KCROSS= kmake olddefconfig || return 1
	for opt in $4; do
		grep -qx "CONFIG_$opt=y" "$dir/.config" || { echo "kconfig $1: CONFIG_$opt is not y"; return 1; }
	done
	for opt in ${5:-}; do
		! grep -qE "^CONFIG_$opt=[ym]" "$dir/.config" || { echo "kconfig $1: CONFIG_$opt is set"; return 1; }
	done
}

# The Kconfig rules of the module on Linux $KVER: no AVX2 code for ARCH=um
# (whose x86_64 is no X86), the KUnit suites only with KUNIT=y, and module
# signing with ML-DSA keys builds the verifier in (6.12: tools/patches/6.12/0015;
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
		KCONFIG_OPENSSL_STUB=1 logged "kconfig-$KVER-modsign" _kconfig_case modsign x86_64 "$rust
$modsign
$lib" "CRYPTO_MLDSA_RUST MODULE_SIG_KEY_TYPE_MLDSA_65" || return 1
	echo "kconfig, Linux $KVER: ARCH=um without AVX2, KUnit only with KUNIT=y," \
		"ML-DSA module signing builds the verifier in: 3 rules hold"
}

build_kernel() {
	phase "build: Linux $KVER $KNAME ${KTARGETS[*]} in $KBUILD (log: $LOGS/build-$KVER-$KNAME.log)"
	# On x86_64, `modules` also writes Module.symvers, which the test module is built against.
	logged "build-$KVER-$KNAME" kmake -j"$JOBS" "${KTARGETS[@]}"
}

# Boot the kernel; KUnit runs the built-in suites, then reboots (QEMU exits).
# $1: the QEMU CPU model (default max: on x86_64 it has AVX2, on s390x the
# vector facility); $2: the console log (default $LOGS/console.log); $3: an
# initramfs, whose /init runs instead of KUnit (after it, with BOOT_KUNIT=1) and
# ends the run by rebooting.
boot_kernel() {
	local rc=0 cpu=${1:-max} console=${2:-$LOGS/console.log} initrd=${3:-}
	local tty=ttyS0 qemu=("$QEMU_PREFIX/usr/bin/qemu-system-x86_64" -machine q35 -bios qboot.rom
		-display none -monitor none -serial stdio)
	[ "$KARCH" != s390 ] || {
		tty=ttysclp0 qemu=("$QEMU_PREFIX/usr/bin/qemu-system-s390x" -machine s390-ccw-virtio -nographic)
	}
	local args=(-append "console=$tty kunit.enable=1 kunit_shutdown=reboot panic=-1 oops=panic")
	[ -z "$initrd" ] ||
		args=(-initrd "$initrd" -append "console=$tty kunit.enable=${BOOT_KUNIT:-0} panic=-1 oops=panic printk.devkmsg=on")
	phase "boot: ${qemu[0]##*/} TCG -cpu $cpu${initrd:+ -initrd $initrd}, timeout ${BOOT_TIMEOUT}s (console: $console)"
	# shellcheck disable=SC2086 # BOOT_QEMU_EXTRA: more QEMU arguments, split at spaces
	timeout "$BOOT_TIMEOUT" "${qemu[@]}" -L "$QEMU_PREFIX/usr/share/qemu" -cpu "$cpu" -m 512 -smp 2 -no-reboot \
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
# that tools/kmemleak-init.sh prints), oopses and Rust panics.
checker_reports() {
	console_text "$1" |
		grep -E '^(BUG:|WARNING:|UBSAN:|KASAN:|ODEBUG:|Oops:)|kmemleak: .*suspected memory leak|^kmemleak-report: unreferenced object|^=+$|possible (circular|recursive) locking|inconsistent lock state|panicked at|list_(add|del) corruption' |
		grep -vE '^=+$' || true
}

# Whether KUnit case $1 passed, not skipped, in console log $2. (grep -c reads
# all its input: an early exit would fail the pipe under pipefail.)
case_passed() {
	console_text "$2" | grep -cE "^ *ok [0-9]+ $1\$" >/dev/null
}

# Whether KUnit case $1 was skipped in console log $2.
case_skipped() {
	console_text "$2" | grep -cE "^ *ok [0-9]+ $1 # SKIP" >/dev/null
}

# ---------------------------------------------------------------------------
# ML-DSA module signing (tools/patches/6.12/0008, tools/modsign): test keys, the
# test module signed in every variant, and an initramfs that loads them.

MODSIGN=$CACHE/modsign
MODSIGN_TOOL=$REPO/tools/modsign/target/release/mldsa-sign
# Fixed seeds and time give the same keys and certificates on every run and
# machine, so the kernel that embeds the trusted ones is not rebuilt for them.
MODSIGN_EPOCH=1764460800
SIG_LEN=([44]=2420 [65]=3309 [87]=4627)

# mldsa-sign, and per parameter set a trusted and an untrusted key pair. The
# trusted certificates, in one PEM file, are CONFIG_SYSTEM_TRUSTED_KEYS.
modsign_keys() {
	phase "modsign: mldsa-sign and the test keys in $MODSIGN (log: $LOGS/modsign-keys.log)"
	logged modsign-keys _modsign_keys
}

_modsign_keys() {
	local set kind pem=$MODSIGN/trusted.pem.new
	cargo build --release --manifest-path "$REPO/tools/modsign/Cargo.toml" &&
		mkdir -p "$MODSIGN" && : >"$pem" || return 1
	for set in 44 65 87; do
		for kind in trusted untrusted; do
			SOURCE_DATE_EPOCH=$MODSIGN_EPOCH "$MODSIGN_TOOL" keygen --alg "mldsa$set" \
				--cn "mldsa test $kind ML-DSA-$set" --key "$MODSIGN/$kind$set.key" \
				--cert "$MODSIGN/$kind$set.der" --pem "$MODSIGN/$kind$set.pem" \
				--seed "$(printf '%s%s' "$kind" "$set" | sha256sum | cut -d' ' -f1)" || return 1
		done
		cat "$MODSIGN/trusted$set.pem" >>"$pem"
	done
	# Replaced only when it changes: the kernel embeds it.
	if cmp -s "$pem" "$MODSIGN/trusted.pem"; then rm "$pem"; else mv "$pem" "$MODSIGN/trusted.pem"; fi
}

# Flips the lowest bit of byte $2 of file $1.
flip_byte() {
	python3 -c 'import sys; f = open(sys.argv[1], "r+b"); n = int(sys.argv[2]); f.seek(n)
b = f.read(1)[0]; f.seek(n); f.write(bytes([b ^ 1]))' "$1" "$2"
}

# The gen_init_cpio list of a busybox initramfs: the console and kmsg, /init
# from file $1, and busybox as each applet of "${@:2}".
initramfs_list() {
	local f
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/kmsg 0600 0 0 c 1 11"
	echo "dir /bin 0755 0 0"
	echo "file /bin/busybox /bin/busybox 0755 0 0"
	for f in "${@:2}"; do echo "slink /bin/$f busybox 0777 0 0"; done
	echo "file /init $1 0755 0 0"
}

# The test module built against $KBUILD, its variants in $MODSIGN/initramfs/modules
# (see tools/modsign-check.py for what each must give), and the initramfs.
modsign_initramfs() {
	phase "modsign: test module, signed variants, initramfs (log: $LOGS/modsign.log)"
	logged modsign _modsign_initramfs
}

_modsign_initramfs() {
	local src=$MODSIGN/testmod dir=$MODSIGN/modules set ko f n
	rm -rf "$src" "$dir" && mkdir -p "$src" "$dir" &&
		cp "$REPO/tools/modsign/testmod/"* "$src" &&
		kmake M="$src" modules || return 1
	ko=$src/mldsa_testmod.ko
	cp "$ko" "$dir/unsigned.ko"
	for set in 44 65 87; do
		f=$dir/mldsa$set
		"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted$set.key" --cert "$MODSIGN/trusted$set.der" \
			"$ko" -o "$f-good.ko" &&
			"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted$set.key" \
				--cert "$MODSIGN/trusted$set.der" --signed-attrs "$ko" -o "$f-signed-attrs.ko" &&
			"$MODSIGN_TOOL" sign --key "$MODSIGN/untrusted$set.key" \
				--cert "$MODSIGN/untrusted$set.der" "$ko" -o "$f-untrusted-key.ko" || return 1
		# Byte 10 of the ML-DSA signature (in c~), which ends 40 bytes before the
		# end: struct module_signature and the magic string follow it.
		n=$(stat -c %s "$f-good.ko")
		cp "$f-good.ko" "$f-flipped-sig.ko" &&
			flip_byte "$f-flipped-sig.ko" $((n - 40 - SIG_LEN[set] + 10)) &&
			cp "$f-good.ko" "$f-flipped-body.ko" && flip_byte "$f-flipped-body.ko" 1000 ||
			return 1
	done
	# Over 4 MiB: signed data that crypto_sig_verify() could not copy.
	"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted87.key" --cert "$MODSIGN/trusted87.der" \
		"$src/mldsa_testmod_big.ko" -o "$dir/big-mldsa87-good.ko" || return 1
	cp "$dir/big-mldsa87-good.ko" "$dir/big-mldsa87-flipped-body.ko" &&
		flip_byte "$dir/big-mldsa87-flipped-body.ko" $((3 << 20)) || return 1
	{
		initramfs_list "$REPO/tools/modsign/init.sh" sh insmod rmmod reboot
		echo "dir /modules 0755 0 0"
		for f in "$dir"/*.ko; do echo "file /modules/${f##*/} $f 0644 0 0"; done
	} >"$MODSIGN/initramfs.list" &&
		"$KBUILD/usr/gen_init_cpio" "$MODSIGN/initramfs.list" >"$MODSIGN/initramfs.cpio"
}

# ---------------------------------------------------------------------------
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

# The debug kernel: the selected kernel's x86_64 build with tools/debug.config
# (KASAN, UBSAN, lockdep, atomic-sleep and preemption checks, kmemleak, KFENCE,
# debugobjects, DEBUG_LIST, Rust overflow checks and debug assertions), built
# with LLVM 19 (Rust allows KASAN only with clang) in a build directory of its
# own, booted once with an initramfs that scans for leaks after KUnit: its
# suites must pass and the scan run, with no checker report.
debug_kernel() {
	local console rc=0 reports KLLVM=-19 initrd
	# The arch settings are this function's own (select_arch sets them here).
	local KNAME KBUILD KCONFIG_FRAGMENTS KARCH KCROSS KIMAGE KTARGETS
	apt_install llvm-19 clang-19 lld-19
	select_arch x86_64
	KNAME=x86_64-debug KBUILD=$CACHE/build-$KVER-debug
	KCONFIG_FRAGMENTS+=("$REPO/tools/debug.config")
	console=$LOGS/console-$KVER-debug.log initrd=$KBUILD/kmemleak-initramfs.cpio
	configure_kernel
	build_kernel
	initramfs_list "$REPO/tools/kmemleak-init.sh" sh mkdir mount reboot >"$initrd.list" &&
		"$KBUILD/usr/gen_init_cpio" "$initrd.list" >"$initrd"
	# Without 5-level paging: with it, Linux 7.3 under KASAN can report a wild access from
	# an interrupt taken while identify_cpu() rebuilds the boot CPU's feature bits (LA57
	# among them), before any module code runs.
	BOOT_KUNIT=1 boot_kernel max,la57=off "$console" "$initrd" || rc=$?
	phase "results: KUnit and a kmemleak scan on the debug kernel, Linux $KVER x86_64 (full console: $console)"
	kunit_results "$console" mldsa_rust mldsa_api mldsa sha3 >/dev/null || rc=1
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
}

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
insn_counts() {
	local out=$LOGS/insns-$KVER-$1.txt plain simd=AVX2 dir=$CACHE/build-$KVER-perf
	[ "$1" = x86_64 ] || { simd="vector facility" dir=$CACHE/build-$KVER-$1-perf; }
	phase "insn-count: the QEMU plugin (log: $LOGS/insn-plugin.log)"
	logged insn-plugin _build_insn_plugin
	# The arch settings are this function's own (select_arch sets them here).
	local KNAME KBUILD KCONFIG_FRAGMENTS KARCH KCROSS KIMAGE KTARGETS
	select_arch "$1"
	KNAME=$1-perf KBUILD=$dir
	KCONFIG_FRAGMENTS+=("$REPO/tools/perf.config")
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
		}' "$out" "$plain" || {
		echo "FAILED: the C verifier ran no faster with the x86 SHA-3 arch code" >&2
		return 1
	}
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

# Upstream hygiene, counted: scripts/checkpatch.pl --strict (Linux 7.3's) on the
# module's C, headers and assembly and on every patch; rustfmt with the kernel's
# .rustfmt.toml on the module's Rust; clippy and rustdoc of each kernel's x86_64
# build (kernel_lints); the compiler's warnings on the module's own files in every
# kernel build of the run (each config compiles other code: s390, KASAN, the
# benchmark; a clean clone's files are newer than the cached objects, so every
# build recompiles the module); cargo clippy --all-targets on tools/; and the raw
# C API uses (`bindings::`) and `unsafe` left in the module's non-test Rust
# (comments not counted). Fails unless every finding count is 0.
hygiene_counts() {
	local k=$CACHE/src/linux-source-7.3 checkpatch rustfmt_files nb nu cargo_clippy=0 c v
	local rust lints=() bad l build_warnings
	# The module's Rust, less its KUnit suite.
	rust=$(cd "$REPO" && ls ./*.rs arch/*.rs selftest/*.rs | grep -v kunit_tests.rs)
	# From the kernel tree: run inside this git checkout, checkpatch looks at git's view.
	checkpatch=$(cd "$k" && {
		perl scripts/checkpatch.pl --strict --terse --show-types -f "$REPO"/exports.c "$REPO"/mldsa_api.h \
			"$REPO"/mldsa_api_kunit.c "$REPO"/arch/x86/*.S "$REPO"/arch/s390/*.[Sch]
		perl scripts/checkpatch.pl --strict --terse --show-types "$REPO"/tools/patches/*/*.patch
	} 2>/dev/null | grep -cE ': (ERROR|WARNING|CHECK):') || true
	rustfmt_files=$(cd "$REPO" && rustfmt --edition 2021 --config-path "$k/.rustfmt.toml" \
		--check mldsa_main.rs 2>&1 | { grep -E '^Diff in' || true; } | cut -d' ' -f3 | sort -u | wc -l)
	for c in host modsign; do
		cargo clippy --all-targets --release --manifest-path "$REPO/tools/$c/Cargo.toml" \
			>"$LOGS/cargo-clippy-$c.log" 2>&1 || echo "error: cargo clippy failed" >>"$LOGS/cargo-clippy-$c.log"
		cargo_clippy=$((cargo_clippy + $(count_diagnostics "$LOGS/cargo-clippy-$c.log")))
	done
	# rustc names the file of a diagnostic on a "-->" line, gcc and clang at its start.
	build_warnings=$(cat "$LOGS"/build-*.log | { grep -cE \
		'^\s*--> .*/crypto/mldsa/|/crypto/mldsa/[^: ]+:[0-9]+:[0-9]+: (warning|error):' || true; })
	bad=$((checkpatch + rustfmt_files + cargo_clippy + build_warnings))
	for v in 6.12 7.3; do
		l=$(cat "$LOGS/lints-$v" 2>/dev/null) || l="clippy ?, rustdoc ?"
		lints+=("Linux $v x86_64 $l")
		[ "$l" = "clippy 0, rustdoc 0" ] || bad=$((bad + 1))
	done
	nb=$(cd "$REPO" && cat $rust | grep -vE '^\s*//' | { grep -o 'bindings::' || true; } | wc -l)
	nu=$(cd "$REPO" && cat $rust | grep -vE '^\s*//' | { grep -ow 'unsafe' || true; } | wc -l)
	echo "hygiene: checkpatch --strict $checkpatch, rustfmt $rustfmt_files," \
		"${lints[0]}, ${lints[1]}, compiler warnings on the module in the kernel builds" \
		"$build_warnings, cargo clippy (tools/) $cargo_clippy;" \
		"module non-test Rust: bindings:: $nb, unsafe $nu"
	if [ "$bad" != 0 ]; then
		echo "FAILED: hygiene: every count of findings must be 0 (logs: $LOGS)" >&2
		return 1
	fi
}
