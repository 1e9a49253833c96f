# Toolchains besides the machine's own (pinned in tools/kernel/toolchains), for
# the kernel builds that prove where distributions build the module: Debian
# 12's rustc-web at the minimum rustc that Kconfig states (rustc-min), and a
# Debian 13 build root with the compilers Debian builds Linux 7.3 with
# (debian13). kmake uses the one that KTOOLCHAIN names.
# shellcheck shell=bash

TOOLCHAIN_PINS=$REPO/tools/kernel/toolchains

# "package version" of each package that toolchain $1 pins.
toolchain_pins() {
	awk -v t="$1" '$1 == t {print $2, $3}' "$TOOLCHAIN_PINS"
}

# The minimum rustc that Kconfig states (RUSTC_VERSION >= M * 100000 + m * 100 + p), as M.m.p.
kconfig_min_rustc() {
	sed -nE 's/^[[:space:]]*depends on .*RUSTC_VERSION >= ([0-9]+).*/\1/p' "$REPO/Kconfig" |
		awk 'NR == 1 {printf "%d.%d.%d\n", int($1 / 100000), int($1 / 100) % 1000, $1 % 100}'
}

# rustc-min, unpacked in $RUSTC_MIN/root, with wrappers in $RUSTC_MIN/bin that
# find its libraries. Fails unless its version is Kconfig's minimum and the
# MSRV of tools/host/clippy.toml, the three places that name the minimum.
RUSTC_MIN=$CACHE/rustc-min
fetch_rustc_min() {
	local want debs=$RUSTC_MIN.debs t pkgs=() min msrv have
	want=$(toolchain_pins rustc-min)
	if [ "$(cat "$RUSTC_MIN.stamp" 2>/dev/null)" != "$want" ]; then
		mapfile -t pkgs < <(toolchain_pins rustc-min | tr ' ' =)
		rm -rf "$debs" "$RUSTC_MIN" "$RUSTC_MIN.stamp" && mkdir -p "$debs" "$RUSTC_MIN/bin" || return 1
		# The machine's lists may predate the pin: update them once if the download fails.
		(cd "$debs" && { apt-get -o APT::Sandbox::User=root download "${pkgs[@]}" ||
			{ apt-get update -q && apt-get -o APT::Sandbox::User=root download "${pkgs[@]}"; }; }) || {
			echo "cannot download ${pkgs[*]}: update the pins in tools/kernel/toolchains" >&2
			return 1
		}
		for t in "$debs"/*.deb; do
			dpkg -x "$t" "$RUSTC_MIN/root" || return 1
		done
		for t in rustc rustdoc; do
			printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' \
				"$RUSTC_MIN/root/usr/lib/x86_64-linux-gnu" "$RUSTC_MIN/root/usr/bin/$t" >"$RUSTC_MIN/bin/$t" &&
				chmod +x "$RUSTC_MIN/bin/$t" || return 1
		done
		rm -rf "$debs" && echo "$want" >"$RUSTC_MIN.stamp"
	fi
	min=$(kconfig_min_rustc)
	msrv=$(sed -nE 's/^msrv = "(.*)"$/\1/p' "$REPO/tools/host/clippy.toml")
	have=$("$RUSTC_MIN/bin/rustc" --version | cut -d' ' -f2)
	[ -n "$min" ] && [ "$have" = "$min" ] && [ "$msrv" = "$min" ] || {
		echo "the minimum rustc differs: Kconfig ${min:-?}, tools/host/clippy.toml ${msrv:-?}," \
			"rustc-min of tools/kernel/toolchains ${have:-?}" >&2
		return 1
	}
}

# debian13: a Debian 13 minbase root made by debootstrap from the machine's
# Debian archive, with the pinned compilers and what a kernel build needs
# (gawk for certs/'s blacklist check, as on this machine).
# Rebuilt when a pin changes; fails if Debian 13 now has other versions.
BUILDROOT=$CACHE/debian13
BUILDROOT_TOOLS=(gcc make flex bison bc libelf-dev libssl-dev openssl cpio kmod python3 dwarves perl xz-utils
	gawk)
make_buildroot() {
	local want pkgs have p v bad=0
	want=$(toolchain_pins debian13; echo "${BUILDROOT_TOOLS[*]}")
	[ "$(cat "$BUILDROOT.stamp" 2>/dev/null)" = "$want" ] && return 0
	phase "toolchain: Debian 13 build root in $BUILDROOT, debootstrap (log: $LOGS/buildroot.log)"
	pkgs=$(toolchain_pins debian13 | cut -d' ' -f1 | tr '\n' ,)${BUILDROOT_TOOLS[*]}
	logged buildroot _make_buildroot "${pkgs// /,}" || return 1
	while read -r p v; do
		have=$(chroot "$BUILDROOT" dpkg-query -W -f '${Version}' "$p" 2>/dev/null) || have=none
		[ "$have" = "$v" ] || {
			echo "Debian 13 has $p $have, tools/kernel/toolchains pins $v: update the pin" >&2
			bad=1
		}
	done < <(toolchain_pins debian13)
	[ "$bad" = 0 ] && echo "$want" >"$BUILDROOT.stamp"
}

_make_buildroot() {
	local archive
	archive=$(debian_archive trixie) && apt_install debootstrap && rm -rf "$BUILDROOT" &&
		debootstrap --variant=minbase --include="$1" \
			--keyring=/usr/share/keyrings/debian-archive-keyring.gpg trixie "$BUILDROOT" "$archive"
}

# Runs "$@" in the build root, with the cache and this checkout at their own
# paths (bind mounts in a mount namespace of its own, gone when it ends) and
# an environment of nothing but PATH, HOME and the locale.
in_buildroot() {
	unshare --mount --propagation private /bin/sh -c '
		root=$1 cache=$2 repo=$3
		shift 3
		for d in /proc /dev "$cache" "$repo"; do
			mkdir -p "$root$d" && mount --bind "$d" "$root$d" || exit 1
		done
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"' \
		sh "$BUILDROOT" "$CACHE" "$REPO" "$@"
}

# "gcc G, rustc R, bindgen B" of the selected build, as its .config records
# them, for the summary lines.
toolchain_versions() {
	local cc rustc bindgen
	cc=$(sed -nE 's/^CONFIG_GCC_VERSION=([0-9]+)$/\1/p' "$KBUILD/.config" |
		awk '{printf "%d.%d.%d", int($1 / 10000), int($1 / 100) % 100, $1 % 100}')
	rustc=$(sed -nE 's/^CONFIG_RUSTC_VERSION_TEXT="rustc ([^ "]+).*/\1/p' "$KBUILD/.config")
	bindgen=$(sed -nE 's/^CONFIG_BINDGEN_VERSION_TEXT="bindgen ([^ "]+).*/\1/p' "$KBUILD/.config")
	echo "gcc $cc, rustc $rustc, bindgen $bindgen"
}

# Whether the build's compilers are those that Debian's own configuration of
# Linux $KVER records (the *_VERSION_TEXT options of config.amd64_none_amd64):
# prints each that differs.
debian_compilers_differ() {
	local o debian
	debian=$(xz -dc "$CACHE/deb/linux-config-$KVER/usr/src/linux-config-$KVER/config.amd64_none_amd64.xz")
	for o in CC_VERSION_TEXT RUSTC_VERSION_TEXT BINDGEN_VERSION_TEXT; do
		[ "$(grep "^CONFIG_$o=" "$KBUILD/.config")" = "$(grep "^CONFIG_$o=" <<<"$debian")" ] ||
			echo "not Debian's compiler: $(grep "^CONFIG_$o=" "$KBUILD/.config") (Debian: $(grep "^CONFIG_$o=" <<<"$debian"))"
	done
}
