# ML-DSA module signing (tools/patches/6.12/0006, tools/modsign): test keys, the
# test module signed in every variant, and an initramfs that loads them.
# shellcheck shell=bash

MODSIGN=$CACHE/modsign
MODSIGN_TOOL=$CARGO_TARGET_DIR/release/mldsa-sign
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
