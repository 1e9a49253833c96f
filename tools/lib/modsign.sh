# ML-DSA module signing (tools/patches/6.12/0006, tools/modsign): test keys, the
# test module signed in every variant, and an initramfs that loads them.
# shellcheck shell=bash

MODSIGN=$CACHE/modsign
MODSIGN_TOOL=$CARGO_TARGET_DIR/release/mldsa-sign
# Fixed seeds and time give the same keys and certificates on every run and
# machine, so the kernel that embeds the trusted ones is not rebuilt for them.
MODSIGN_EPOCH=1764460800
SIG_LEN=([44]=2420 [65]=3309 [87]=4627)

# mldsa-sign; the consumer cases' data (tools/lib/consumers.sh), whose IMA
# signatures mldsa-sign writes; per parameter set a trusted and an untrusted key
# pair, and the keys of _openssl_keys. The trusted certificates, the consumer
# cases' CA among them, in one PEM file, are CONFIG_SYSTEM_TRUSTED_KEYS.
modsign_keys() {
	phase "modsign: mldsa-sign in $CARGO_TARGET_DIR (log: $LOGS/modsign-tool.log)"
	logged modsign-tool cargo build --release --manifest-path "$REPO/tools/modsign/Cargo.toml" &&
		consumers_data || return 1
	phase "modsign: the test keys in $MODSIGN (log: $LOGS/modsign-keys.log)"
	logged modsign-keys _modsign_keys
}

# Keys that OpenSSL 4.0 makes, once (they are random, and the kernel embeds
# the trusted certificates): RSA-4096, ECDSA-P384, ML-DSA-44 and ML-DSA-87,
# trusted, and ML-DSA-65, not, each a PEM key and a DER certificate with the
# extensions that certs/ gives the build's own key (certs/default_x509.genkey),
# as `openssl req` makes them there.
OPENSSL_TRUSTED=(rsa4096 ecdsa-p384 openssl44 openssl87)
_openssl_keys() {
	local name newkey
	for name in "${OPENSSL_TRUSTED[@]}" untrusted-openssl65; do
		[ ! -f "$MODSIGN/$name.der" ] || continue
		case $name in
		rsa4096) newkey=(-newkey rsa:4096) ;;
		ecdsa-p384) newkey=(-newkey ec -pkeyopt ec_paramgen_curve:secp384r1) ;;
		*) newkey=(-newkey "ml-dsa-${name: -2}") ;;
		esac
		printf '%s\n' "[ req ]" "distinguished_name = dn" "prompt = no" "x509_extensions = ext" \
			"[ dn ]" "CN = mldsa test $name" "[ ext ]" "basicConstraints = critical,CA:FALSE" \
			"keyUsage = digitalSignature" "subjectKeyIdentifier = hash" \
			"authorityKeyIdentifier = keyid" >"$MODSIGN/$name.genkey" &&
			with_openssl 4.0 openssl req -new -nodes -utf8 -days 36500 -batch -x509 \
				-config "$MODSIGN/$name.genkey" "${newkey[@]}" -outform DER \
				-out "$MODSIGN/$name.der.new" -keyout "$MODSIGN/$name.pem" &&
			mv "$MODSIGN/$name.der.new" "$MODSIGN/$name.der" || return 1
	done
}

_modsign_keys() {
	local set kind pem=$MODSIGN/trusted.pem.new
	mkdir -p "$MODSIGN" && _openssl_keys && : >"$pem" || return 1
	for kind in "${OPENSSL_TRUSTED[@]}"; do
		with_openssl 4.0 openssl x509 -inform DER -in "$MODSIGN/$kind.der" >>"$pem" || return 1
	done
	for set in 44 65 87; do
		for kind in trusted untrusted; do
			SOURCE_DATE_EPOCH=$MODSIGN_EPOCH "$MODSIGN_TOOL" keygen --alg "mldsa$set" \
				--cn "mldsa test $kind ML-DSA-$set" --key "$MODSIGN/$kind$set.key" \
				--cert "$MODSIGN/$kind$set.der" --pem "$MODSIGN/$kind$set.pem" \
				--seed "$(printf '%s%s' "$kind" "$set" | sha256sum | cut -d' ' -f1)" || return 1
		done
		cat "$MODSIGN/trusted$set.pem" >>"$pem"
	done
	cat "$CONSUMERS/ca.pem" >>"$pem"
	# Replaced only when it changes: the kernel embeds it.
	if cmp -s "$pem" "$MODSIGN/trusted.pem"; then rm "$pem"; else mv "$pem" "$MODSIGN/trusted.pem"; fi
}

# The signature of signed module $1 (the CMS message before struct
# module_signature, whose last field is its big-endian length, and the magic
# string) to stdout; with $2 and $3, the module with $3 bytes cut from the end
# of that message, and its length field to match, to file $2.
module_cms() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
assert d.endswith(b"~Module signature appended~\n"), "not signed"
n = int.from_bytes(d[-32:-28], "big")
if len(sys.argv) == 2:
    sys.stdout.buffer.write(d[-40 - n:-40])
else:
    cut = int(sys.argv[3])
    open(sys.argv[2], "wb").write(d[:-40 - cut] + d[-40:-32] + (n - cut).to_bytes(4, "big") + d[-28:])' "$@"
}

# Whether the CMS signature of signed module $1 has signed attributes, as
# OpenSSL 4.0 prints it: "yes" or "no".
cms_signed_attrs() {
	module_cms "$1" | with_openssl 4.0 openssl cms -inform DER -cmsout -print |
		awk '/signedAttrs:/ {getline; print ($0 ~ /<ABSENT>|<EMPTY>/ ? "no" : "yes"); exit}'
}

# The gen_init_cpio list of a busybox initramfs: the console, kmsg and null,
# /init from file $1, and busybox (this machine's, or INITRAMFS_BUSYBOX) as
# each applet of "${@:2}".
initramfs_list() {
	local f
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/kmsg 0600 0 0 c 1 11"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "dir /bin 0755 0 0"
	echo "file /bin/busybox ${INITRAMFS_BUSYBOX:-/bin/busybox} 0755 0 0"
	for f in "${@:2}"; do echo "slink /bin/$f busybox 0777 0 0"; done
	echo "file /init $1 0755 0 0"
}

# The test module built against $KBUILD, its variants in $MODSIGN/initramfs/modules
# (see tools/modsign-check.py for what each must give), and the initramfs, which
# also holds the consumer cases (tools/lib/consumers.sh).
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
			cp "$f-good.ko" "$f-flipped-body.ko" && flip_byte "$f-flipped-body.ko" 1000 &&
			module_cms "$f-good.ko" "$f-truncated-sig.ko" 64 || return 1
	done
	_signfile_variants "$src" "$dir" || return 1
	# Over 4 MiB: signed data that crypto_sig_verify() could not copy.
	"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted87.key" --cert "$MODSIGN/trusted87.der" \
		"$src/mldsa_testmod_big.ko" -o "$dir/big-mldsa87-good.ko" || return 1
	cp "$dir/big-mldsa87-good.ko" "$dir/big-mldsa87-flipped-body.ko" &&
		flip_byte "$dir/big-mldsa87-flipped-body.ko" $((3 << 20)) || return 1
	{
		initramfs_list "$REPO/tools/modsign/init.sh" sh mkdir mount insmod rmmod reboot grep cut tr sed cat cmp base64
		echo "dir /modules 0755 0 0"
		for f in "$dir"/*.ko; do echo "file /modules/${f##*/} $f 0644 0 0"; done
		consumers_initramfs_list "" "${CONSUMERS_TOOLS[@]}"
	} >"$MODSIGN/initramfs.list" &&
		gen_init_cpio "$MODSIGN/initramfs.list" >"$MODSIGN/initramfs.cpio"
}

# Module signing: the selected x86_64 kernel, booted (QEMU CPU model $1) with
# an initramfs that loads the test module signed in every variant, by
# mldsa-sign and by the kernel's own flow (tools/modsign-check.py has the
# table), with no checker report. Prints the counts, kept in the console's
# .check file. The same boot then runs the consumer cases (tools/lib/consumers.sh).
modsign_boot() {
	local console=$LOGS/console-$KVER-$KNAME-modsign.log rc=0
	modsign_initramfs
	BOOT_APPEND="${BOOT_APPEND:-} consumers=1 dm_verity.require_signatures=1" \
		boot_kernel "$1" "$console" "$MODSIGN/initramfs.cpio" || rc=$?
	phase "results: ML-DSA module signatures, Linux $KVER $KNAME, certs/ key $(certs_key) (full console: $console)"
	python3 "$REPO/tools/modsign-check.py" "$console" >"$console.check" || rc=1
	grep -v '^ok: ' "$console.check" | grep -v 'passed, [0-9]* failed$' || true
	# The kernel's checkers (on the debug kernel, KASAN and lockdep among them) saw nothing.
	checker_reports "$console"
	[ "$(checker_reports "$console" | wc -l)" = 0 ] || rc=1
	tail -n 1 "$console.check" | sed "s/^/module signing, Linux $KVER $KNAME: /"
	sed -n "s|^kernel signing flow: |kernel signing flow (certs/ key, sign-file, OpenSSL 3.5 and 4.0), Linux $KVER $KNAME: |p" \
		"$console.check"
	consumers_check "$console" "all,$KVER" || rc=1
	if [ "$rc" != 0 ]; then
		echo "FAILED: module signing on Linux $KVER $KNAME" >&2
		return 1
	fi
}

# The kernel's own flow: the test module in $1 signed by `make modules_install`
# (CONFIG_MODULE_SIG_ALL: scripts/sign-file with OpenSSL 4.0 and the key that
# certs/ made), by the same sign-file built against OpenSSL 3.5, both also with
# the ML-DSA-44 and -87 keys of _openssl_keys, and with its RSA, ECDSA and
# untrusted keys, into directory $2, with corruptions of the certs/ key's.
# OpenSSL 4.0 signs the module itself, 3.5 signed attributes (it cannot sign
# ML-DSA without them): checked here.
_signfile_variants() {
	local src=$1 dir=$2 sign35=$MODSIGN/sign-file-3.5 f key
	rm -rf "$MODSIGN/install" &&
		kmake M="$src" INSTALL_MOD_PATH="$MODSIGN/install" modules_install &&
		f=$(find "$MODSIGN/install" -name mldsa_testmod.ko) && [ -n "$f" ] &&
		cp "$f" "$dir/signfile-certs.ko" && sign_file_with 3.5 "$sign35" &&
		"$sign35" sha512 "$KBUILD/certs/signing_key.pem" "$KBUILD/certs/signing_key.x509" \
			"$src/mldsa_testmod.ko" "$dir/signfile35-certs.ko" || return 1
	for key in openssl44 openssl87 rsa4096 ecdsa-p384 untrusted-openssl65; do
		"$KBUILD/scripts/sign-file" sha512 "$MODSIGN/$key.pem" "$MODSIGN/$key.der" \
			"$src/mldsa_testmod.ko" "$dir/signfile-$key.ko" || return 1
	done
	for key in openssl44 openssl87; do
		"$sign35" sha512 "$MODSIGN/$key.pem" "$MODSIGN/$key.der" \
			"$src/mldsa_testmod.ko" "$dir/signfile35-$key.ko" || return 1
	done
	for f in signfile-certs signfile-openssl44 signfile-openssl87; do
		[ "$(cms_signed_attrs "$dir/$f.ko")" = no ] &&
			[ "$(cms_signed_attrs "$dir/${f/signfile/signfile35}.ko")" = yes ] || {
			echo "$f: OpenSSL 4.0 wrote signed attributes, or 3.5 did not"
			return 1
		}
	done
	for f in "$dir/signfile-certs" "$dir/signfile35-certs"; do
		cp "$f.ko" "$f-flipped-body.ko" && flip_byte "$f-flipped-body.ko" 1000 &&
			module_cms "$f.ko" "$f-truncated-sig.ko" 64 || return 1
	done
}

# The algorithm of the key that certs/ made for $KBUILD, as OpenSSL names it.
certs_key() {
	with_openssl 4.0 openssl x509 -inform DER -in "$KBUILD/certs/signing_key.x509" -noout -text |
		sed -n 's/^ *Public Key Algorithm: //p'
}
