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
