# OpenSSL 3.5 and 4.0 for the kernel's own module-signing flow (certs/ makes
# its key with `openssl req`, scripts/sign-file links libcrypto) and the
# consumer cases (tools/lib/consumers.sh signs with `openssl cms`): built from
# the sources that the openssl-src crate bundles (tools/openssl/Cargo.toml,
# checksums in its Cargo.lock) into $CACHE/openssl-V, and used only through
# with_openssl and sign_file_with; the machine's own OpenSSL is left as it is.
# shellcheck shell=bash

# The source tree of OpenSSL $1 (3.5 or 4.0): openssl-src's version 300.5.x
# bundles 3.5.x, 400.0.x bundles 4.0.x. Cargo fetches and unpacks it.
openssl_source() {
	cargo metadata --format-version 1 --locked --manifest-path "$REPO/tools/openssl/Cargo.toml" |
		python3 -c 'import json, sys
major, minor = sys.argv[1].split(".")
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "openssl-src" and p["version"].startswith(f"{major}00.{minor}."):
        print(p["manifest_path"].rsplit("/", 1)[0] + "/openssl")' "$1"
}

# Builds OpenSSL $1 into $CACHE/openssl-$1, static (what links it needs no run
# path), without tests or manuals: its libraries (3.5's for a sign-file of its
# own) and `openssl` (4.0's makes the keys, both sign CMS messages for the
# consumer cases). Kept while the source is the same.
openssl_build() {
	local v=$1 src prefix=$CACHE/openssl-$1 targets=(all install_sw)
	src=$(openssl_source "$v")
	[ -n "$src" ] || {
		echo "FAILED: no OpenSSL $v in tools/openssl/Cargo.lock" >&2
		return 1
	}
	if [ "$(cat "$prefix/.source" 2>/dev/null)" = "$src ${targets[*]}" ]; then
		phase "openssl: OpenSSL $v in $prefix is up to date"
		return 0
	fi
	phase "openssl: OpenSSL $v from ${src%/openssl}, ${targets[0]}, into $prefix (log: $LOGS/openssl-$v.log)"
	logged "openssl-$v" _openssl_build "$src" "$prefix" "${targets[@]}" || return 1
	echo "$src ${targets[*]}" >"$prefix/.source"
}

_openssl_build() {
	local src=$1 prefix=$2
	rm -rf "$prefix" "$prefix.build" && mkdir -p "$prefix.build" &&
		(cd "$prefix.build" &&
			"$src/Configure" --prefix="$prefix" --libdir=lib --openssldir="$prefix/ssl" \
				no-shared no-module no-tests no-docs &&
			make -j"$JOBS" "$3" && make "$4") &&
		rm -rf "$prefix.build"
}

# OpenSSL 3.5 and 4.0, built where they are not yet.
openssl_builds() {
	openssl_build 3.5 && openssl_build 4.0
}

# Runs "${@:2}" with OpenSSL $1: its `openssl` first on PATH (Kconfig's
# OPENSSL_SUPPORTS_ML_DSA and certs/ run it) and pkg-config pointed at its
# libcrypto (scripts/sign-file and certs/extract-cert link it).
with_openssl() {
	local prefix=$CACHE/openssl-$1
	shift
	PATH=$prefix/bin:$PATH PKG_CONFIG_PATH=$prefix/lib/pkgconfig "$@"
}

# scripts/sign-file of the selected kernel built against OpenSSL $1 as $2: the
# command that built $KBUILD/scripts/sign-file (kept in its .cmd file), with
# OpenSSL 4.0's paths turned into $1's.
sign_file_with() {
	local cmd
	cmd=$(sed -n 's|^savedcmd_scripts/sign-file := ||p' "$KBUILD/scripts/.sign-file.cmd")
	cmd=${cmd//"$CACHE/openssl-4.0/"/"$CACHE/openssl-$1/"}
	cmd=${cmd/"-Wp,-MMD,scripts/.sign-file.d "/}
	cmd=${cmd/" -o scripts/sign-file "/" -o $2 "}
	[ -n "$cmd" ] && (cd "$KBUILD" && eval "$cmd")
}
