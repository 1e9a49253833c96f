# Toolchain and packages: what the tools install, and the private apt
# configurations that fetch what the machine's apt sources do not list.
# shellcheck shell=bash

# bindgen for 6.12 and for 7.3 (scripts/min-tool-version.sh: 0.71.1).
BINDGEN_VERS=(0.69.5 0.71.1)

# Installs the Debian packages "$@" that are not installed yet.
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

# Kernel side: Debian's kernel source, Rust 1.96, bindgen, build tools (gawk for
# certs/'s blacklist check), QEMU 7.2, and for the consumer cases keyctl,
# veritysetup, fsverity and setfattr.
install_kernel_deps() {
	apt_install linux-source-6.12 build-essential flex bison bc libelf-dev \
		libssl-dev openssl cpio kmod dwarves python3 python3-ply libclang-19-dev clang-19 lld-19 \
		rustc-web rust-web-src rust-web-clippy libstd-rust-web-dev cargo-web busybox-static \
		gawk keyutils cryptsetup-bin fsverity attr gcc-s390x-linux-gnu
	install_qemu
	local v
	for v in "${BINDGEN_VERS[@]}"; do
		"$CACHE/bindgen-$v/bin/bindgen" --version 2>/dev/null | grep -q "$v" ||
			LIBCLANG_PATH=/usr/lib/llvm-19/lib cargo install --locked \
				--root "$CACHE/bindgen-$v" bindgen-cli --version "$v" || return 1
	done
	fetch_backport linux-source-7.3
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
# With APT_ARCH set, for that architecture only.
private_apt() {
	apt-get -o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
		-o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache" \
		-o APT::Sandbox::User=root \
		${APT_ARCH:+-o "APT::Architecture=$APT_ARCH" -o "APT::Architectures::=$APT_ARCH"} "$@"
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

# Debian 12's QEMU 7.2, the system emulators and their firmware, unpacked in
# the cache ($QEMU_PREFIX) rather than installed: a machine may have a newer
# qemu-utils, whose package Breaks Debian 12's qemu-system-common, and no host
# package is downgraded. QEMU finds its firmware relative to its binary; the
# libraries it links are installed as usual.
QEMU_PREFIX=$CACHE/qemu
QEMU_PKGS=(qemu-system-x86 qemu-system-misc qemu-system-common qemu-system-data seabios ipxe-qemu)
install_qemu() {
	local ver deps
	ver=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ {print $2}')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || {
		apt-get update -q
		ver=$(apt-cache policy qemu-system-x86 | awk '/Candidate:/ {print $2}')
	}
	[ "$(cat "$QEMU_PREFIX.stamp" 2>/dev/null)" = "$ver" ] && return 0
	mapfile -t deps < <(apt-cache depends "${QEMU_PKGS[@]}" |
		awk '$1 ~ /^(Pre)?Depends:$/ && $2 !~ /^(qemu-|seabios$|ipxe-qemu$|<)/ {print $2}' | sort -u)
	apt_install "${deps[@]}" &&
		rm -rf "$QEMU_PREFIX" "$QEMU_PREFIX.stamp" "$CACHE/qemu-debs" && mkdir -p "$CACHE/qemu-debs" &&
		(cd "$CACHE/qemu-debs" && apt-get download "${QEMU_PKGS[@]}") || return 1
	local d
	for d in "$CACHE"/qemu-debs/*.deb; do
		dpkg -x "$d" "$QEMU_PREFIX" || return 1
	done
	echo "$ver" >"$QEMU_PREFIX.stamp"
}

# Debian's linux-source-7.3 and linux-config-7.3 come from trixie-backports,
# which the machine's apt sources do not list: a private apt configuration
# lists only that suite, of the machine's own archive, and `apt-get download` +
# `dpkg -x` unpack package $1 in $CACHE/deb/$1. Packages are pinned
# (tools/kernel/sources): a changed pin fetches one again, and a download of
# another content fails.
fetch_backport() {
	local pkg ver sum deb dir=$CACHE/deb/$1 APT_DIR=$CACHE/apt
	read -r pkg ver sum < <(awk -v p="$1" '$1 == p' "$REPO/tools/kernel/sources")
	[ -n "${sum:-}" ] || {
		echo "tools/kernel/sources pins no $1" >&2
		return 1
	}
	[ "$(cat "$dir.stamp" 2>/dev/null)" = "$ver $sum" ] && return 0
	deb=$(echo "$APT_DIR/${pkg}_${ver//:/%3a}"_*.deb)
	if ! echo "$sum  $deb" | sha256sum -c --status 2>/dev/null; then
		private_apt_sources deb trixie-backports &&
			(cd "$APT_DIR" && rm -f "$pkg"_*.deb && private_apt download "$pkg=$ver") || {
			echo "cannot download $pkg $ver from trixie-backports: if the archive has moved on," \
				"update the pin in tools/kernel/sources (and the patches)" >&2
			return 1
		}
		deb=$(echo "$APT_DIR/${pkg}_${ver//:/%3a}"_*.deb)
		echo "$sum  $deb" | sha256sum -c --status || {
			echo "$deb: not the sha256 that tools/kernel/sources pins" >&2
			return 1
		}
	fi
	rm -rf "$dir" "$dir.stamp" && mkdir -p "$dir" && dpkg -x "$deb" "$dir" &&
		echo "$ver $sum" >"$dir.stamp"
}

# Package $1 at version $2 from the machine's own apt sources, downloaded (not
# installed) and unpacked in $CACHE/deb/$1.
fetch_release_package() {
	local dir=$CACHE/deb/$1 debs=$CACHE/deb/$1.debs
	[ "$(cat "$dir.stamp" 2>/dev/null)" = "$2" ] && return 0
	rm -rf "$debs" && mkdir -p "$debs" &&
		(cd "$debs" && apt-get -o APT::Sandbox::User=root download "$1=$2") &&
		rm -rf "$dir" "$dir.stamp" && mkdir -p "$dir" && dpkg -x "$debs"/*.deb "$dir" &&
		rm -rf "$debs" && echo "$2" >"$dir.stamp"
}

# The s390x user space of the s390x consumer cases: busybox and keyctl with
# the libraries it loads, packages of the machine's release for s390x,
# downloaded once with a private apt configuration and unpacked in $S390X_ROOT
# (the stamp names the packages' files).
S390X_ROOT=$CACHE/s390x-root
S390X_PKGS=(busybox-static keyutils libkeyutils1 libc6)
fetch_s390x_userland() {
	local APT_DIR=$CACHE/apt-s390x APT_ARCH=s390x d
	[ ! -s "$S390X_ROOT.stamp" ] || return 0
	rm -rf "$S390X_ROOT" "$APT_DIR/debs" && mkdir -p "$APT_DIR/debs" &&
		private_apt_sources deb "$DEBIAN_CODENAME" &&
		(cd "$APT_DIR/debs" && private_apt -q download "${S390X_PKGS[@]}") || return 1
	for d in "$APT_DIR"/debs/*.deb; do
		dpkg -x "$d" "$S390X_ROOT" || return 1
	done
	(cd "$APT_DIR/debs" && ls) >"$S390X_ROOT.stamp" && rm -rf "$APT_DIR/debs"
}

# Debian's kernel configurations of the selected kernel, in
# $CACHE/deb/linux-config-$KVER: 7.3's pinned from trixie-backports, 6.12's
# from the machine's release, of the version of its linux-source-6.12.
fetch_kernel_config() {
	case $KVER in
	6.12) fetch_release_package linux-config-6.12 "$(dpkg-query -W -f '${Version}' linux-source-6.12)" ;;
	7.3) fetch_backport linux-config-7.3 ;;
	esac
}

# The pristine source tarball of the selected kernel ($KSRC_TARBALL), fetched
# where it is missing.
fetch_kernel_source() {
	case $KVER in
	6.12) apt_install linux-source-6.12 ;;
	7.3) fetch_backport linux-source-7.3 ;;
	esac
}
