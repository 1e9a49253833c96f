# Kernel sources: the kernel a step works on, and its patched tree.
# shellcheck shell=bash

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

# The patches of $KPATCHES, in order: all but the cover letter.
series_patches() {
	ls "$KPATCHES"/*.patch | grep -v '/0000-cover-letter\.patch$'
}

# The paths that the patches "$@" add, change or delete, but those under
# $PATCH_EXCLUDE (a directory, if set).
patch_paths() {
	sed -nE 's@^(---|\+\+\+) [ab]/([^\t]*).*$@\2@p' "$@" | sort -u |
		{ grep -v "^${PATCH_EXCLUDE:-/}" || true; }
}

# Patch $1 without its changes under $PATCH_EXCLUDE.
patch_text() {
	awk -v ex="${PATCH_EXCLUDE:-}" '/^diff --git /{ skip = ex != "" && index($3, "a/" ex) == 1 } !skip' "$1"
}

# Makes $1 the tree of tarball $2 with the patches "${@:3}" applied. A tree
# made before is updated in place: of the files that its patches or the new
# ones touch, only those whose content changes are written, so that they alone
# get a new mtime and an incremental build rebuilds what they change. The stamp
# $1.stamp holds the tarball's hash, the patches' hash, then the paths they touch.
# With PATCH_EXCLUDE set to a directory, the patches' changes there are left out
# (and nothing there is written).
patched_tree() {
	local dir=$1 tarball=$2 tarsum patchsum stage p paths=()
	shift 2
	tarsum=$(sha256sum <"$tarball" | cut -d' ' -f1)
	patchsum=$(cat /dev/null "$@" | sha256sum | cut -d' ' -f1)
	if [ "$(sed -n 1p "$dir.stamp" 2>/dev/null)" != "$tarsum" ]; then
		phase "unpack: $tarball -> $dir"
		rm -rf "$dir" "$dir.stamp" && mkdir -p "$dir"
		tar -xf "$tarball" -C "$dir" --strip-components=1
		echo "$tarsum" >"$dir.stamp"
	elif [ "$(sed -n 2p "$dir.stamp")" = "$patchsum" ]; then
		phase "unpack: $dir is up to date"
		return 0
	fi
	phase "patch: $dir with $# patches"
	mapfile -t paths < <({ tail -n +3 "$dir.stamp"; patch_paths /dev/null "$@"; } | sort -u)
	stage=$(mktemp -d "$dir.stage.XXXXXX")
	# The pristine files among the paths (the others are new), patched.
	[ ${#paths[@]} = 0 ] || tar -xf "$tarball" -C "$stage" --strip-components=1 \
		"${paths[@]/#/"$(basename "$tarball" .tar.xz)/"}" 2>/dev/null || true
	for p in "$@"; do
		patch_text "$p" | patch -d "$stage" -p1 --forward --batch --quiet || {
			echo "FAILED: ${p#"$REPO/"} does not apply" >&2
			rm -rf "$stage"
			return 1
		}
	done
	for p in "${paths[@]}"; do
		if [ ! -e "$stage/$p" ]; then
			rm -f "$dir/$p"
		elif ! cmp -s "$stage/$p" "$dir/$p"; then
			mkdir -p "$(dirname "$dir/$p")" && cp "$stage/$p" "$dir/$p"
		fi
	done
	rm -rf "$stage"
	{ echo "$tarsum"; echo "$patchsum"; patch_paths /dev/null "$@"; } >"$dir.stamp"
}

# The tree of Linux $KVER with tools/patches/$KVER, and the module in it.
prepare_tree() {
	# The series adds the module's files (tools/gen-patches), which are this checkout's:
	# the repository root is the module directory, a symlink, so edits are seen. When
	# it pointed at another checkout, drop the module's objects: make compares times,
	# and this checkout's files may be older than objects built from the other one.
	local patches
	mapfile -t patches < <(series_patches)
	PATCH_EXCLUDE=crypto/mldsa/ patched_tree "$KSRC" "$KSRC_TARBALL" "${patches[@]}"
	if [ "$(readlink "$KSRC/crypto/mldsa")" != "$REPO" ]; then
		rm -rf "$CACHE"/build-*/crypto/mldsa
	fi
	ln -sfn "$REPO" "$KSRC/crypto/mldsa"
}
