# Shared helpers for ./tools/run and ./tools/test. Sourced, not executed.
# shellcheck shell=bash

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything big lives outside the repository and is reused between runs.
CACHE=${MLDSA_CACHE:-$HOME/.cache/mldsa}
KVER=6.12
RUST_VER=1.96
BINDGEN_VER=0.69.5
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
	apt-get install -y -q --no-install-recommends --allow-downgrades "${missing[@]}"
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
	local qemu_ver
	qemu_ver=$(apt-cache policy qemu-system-x86 2>/dev/null | awk '/Candidate:/ {print $2}')
	apt_install linux-source-$KVER build-essential flex bison bc libelf-dev \
		libssl-dev cpio kmod dwarves python3 libclang-19-dev clang-19 lld-19 \
		rustc-web rust-web-src libstd-rust-web-dev cargo-web busybox-static
	# The image's qemu-utils 10.x Breaks qemu-system-common < 8.0: install the
	# qemu-utils that matches Debian 12's QEMU 7.2 next to it.
	if ! command -v qemu-system-x86_64 >/dev/null; then
		[ -n "$qemu_ver" ] || { apt-get update -q; qemu_ver=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ {print $2}'); }
		apt_install "qemu-utils=$qemu_ver" "qemu-system-common=$qemu_ver" \
			"qemu-system-x86=$qemu_ver"
	fi
	BINDGEN=$CACHE/cargo/bin/bindgen
	if ! "$BINDGEN" --version 2>/dev/null | grep -q "$BINDGEN_VER"; then
		LIBCLANG_PATH=/usr/lib/llvm-19/lib cargo install --locked --root "$CACHE/cargo" \
			bindgen-cli --version "$BINDGEN_VER"
	fi
}

# ---------------------------------------------------------------------------
# Kernel pipeline: unpack + patch, configure, build, boot, results.

KSRC_TARBALL=/usr/src/linux-source-$KVER.tar.xz
KSRC=$CACHE/src/linux-source-$KVER
KBUILD=$CACHE/build-x86_64
KCONFIG_FRAGMENT=$REPO/tools/x86_64.config
RUST_LIB_SRC=/usr/src/rustc-$RUST_VER.0/library
BOOT_TIMEOUT=${MLDSA_BOOT_TIMEOUT:-300}

# rustup's rustc (first on PATH) has no rust-src: always use Debian's 1.96.
kmake() {
	LIBCLANG_PATH=/usr/lib/llvm-19/lib make -C "$KSRC" O="$KBUILD" ARCH=x86_64 \
		RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc HOSTRUSTC=/usr/bin/rustc \
		BINDGEN="$CACHE/cargo/bin/bindgen" RUST_LIB_SRC="$RUST_LIB_SRC" "$@"
}

# Unpack the pristine tree and apply tools/patches/*.patch. The stamp records
# the tarball and the patches, so a changed patch gives a fresh unpack.
prepare_tree() {
	local want stamp=$CACHE/src/.stamp
	want="$(stat -c '%s %Y' "$KSRC_TARBALL") $(cat "$REPO"/tools/patches/*.patch | sha256sum | cut -d' ' -f1)"
	if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		phase "unpack: $KSRC_TARBALL + tools/patches -> $KSRC"
		rm -rf "$KSRC" "$stamp"
		mkdir -p "$CACHE/src"
		tar -xf "$KSRC_TARBALL" -C "$CACHE/src"
		local p
		for p in "$REPO"/tools/patches/*.patch; do
			patch -d "$KSRC" -p1 --forward --batch --quiet <"$p"
		done
		echo "$want" >"$stamp"
	else
		phase "unpack: $KSRC is up to date"
	fi
	# The repository root is the module directory: a symlink, so edits are seen.
	ln -sfn "$REPO" "$KSRC/crypto/mldsa"
}

# Called through `logged`, i.e. in an `if` where errexit is off: chain with &&.
_configure_kernel() {
	kmake tinyconfig &&
		"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" "$KBUILD/.config" "$KCONFIG_FRAGMENT" &&
		kmake olddefconfig
}

# tinyconfig + tools/x86_64.config, redone only when an input changed. Fails
# if any option of the fragment did not survive (e.g. RUST silently dropped).
configure_kernel() {
	local want stamp=$KBUILD/.mldsa-config-stamp
	want="$(cat "$KCONFIG_FRAGMENT" "$REPO/Kconfig" "$CACHE/src/.stamp" | sha256sum | cut -d' ' -f1)"
	mkdir -p "$KBUILD"
	if [ -f "$KBUILD/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		phase "configure: $KBUILD/.config is up to date"
		return 0
	fi
	phase "configure: tinyconfig + tools/x86_64.config (log: $LOGS/configure.log)"
	logged rustavailable kmake rustavailable
	logged configure _configure_kernel
	local line bad=0
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		if ! grep -qxF -- "$line" "$KBUILD/.config"; then
			echo "config: $line did not survive olddefconfig (got: $(grep -E "^(# )?${line%%=*}[= ]" "$KBUILD/.config" || echo unset))" >&2
			bad=1
		fi
	done <"$KCONFIG_FRAGMENT"
	[ "$bad" = 0 ] || {
		echo "FAILED: configure (see $LOGS/configure.log and $LOGS/rustavailable.log)" >&2
		return 1
	}
	echo "$want" >"$stamp"
}

build_kernel() {
	phase "build: bzImage in $KBUILD (log: $LOGS/build.log)"
	logged build kmake -j2 bzImage
}

# Boot the kernel; KUnit runs the built-in suites, then reboots (QEMU exits).
# $1: the QEMU CPU model (default max, which has AVX2); $2: the console log
# (default $LOGS/console.log).
boot_kernel() {
	local rc=0 cpu=${1:-max} console=${2:-$LOGS/console.log}
	phase "boot: qemu-system-x86_64 TCG -cpu $cpu, timeout ${BOOT_TIMEOUT}s (console: $console)"
	timeout "$BOOT_TIMEOUT" qemu-system-x86_64 -machine q35 -cpu "$cpu" -m 512 -smp 2 \
		-bios qboot.rom -display none -monitor none -serial stdio -no-reboot \
		-kernel "$KBUILD/arch/x86/boot/bzImage" \
		-append "console=ttyS0 kunit.enable=1 kunit_shutdown=reboot panic=-1 oops=panic" \
		</dev/null >"$console" 2>&1 || rc=$?
	if [ "$rc" = 124 ]; then
		echo "boot: QEMU timed out after ${BOOT_TIMEOUT}s" >&2
	elif [ "$rc" != 0 ]; then
		echo "boot: QEMU exited with status $rc" >&2
	fi
	return "$rc"
}

# The module's own console lines ("mldsa: ...") in $1 (default $LOGS/console.log).
module_lines() {
	sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "${1:-$LOGS/console.log}" | grep -E '^mldsa: ' || true
}

# Whether KUnit case $1 passed, not skipped, in console log $2.
case_passed() {
	sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$2" | grep -qE "^ *ok [0-9]+ $1\$"
}

# Whether KUnit case $1 was skipped in console log $2.
case_skipped() {
	sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$2" | grep -qE "^ *ok [0-9]+ $1 # SKIP"
}
