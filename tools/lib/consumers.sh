# The kernel's users of signatures other than module loading (tools/consumers):
# their certificates, signatures and CMS messages, made by OpenSSL 4.0 in
# $CONSUMERS, and the files of the initramfs that runs their cases.
# shellcheck shell=bash

CONSUMERS=$CACHE/consumers
# Fixed seeds, serial numbers and validity, and deterministic ML-DSA signatures:
# every run makes the same CA, which the kernel embeds
# (CONFIG_SYSTEM_TRUSTED_KEYS), and the same blacklisted certificate, whose hash
# it embeds too (CONFIG_SYSTEM_BLACKLIST_HASH_LIST), so that neither rebuilds it.
CONSUMERS_VALIDITY=(-not_before 20251201000000Z -not_after 21251201000000Z)
# Per parameter set, the longest message keyctl pkey_verify takes on Linux 7.3:
# the driver gives the public key's length (FIPS 204, Table 2) as the key's
# size, which the kernel takes as bits and turns into bytes (crypto/sig.c,
# sig_default_size()).
PKEY_MAX_DATA=([44]=164 [65]=244 [87]=324)

# The data, made again when this file, the cases or the tools (mldsa-sign among
# them) change.
consumers_data() {
	local want
	want=$(cat "${BASH_SOURCE[0]}" "$REPO"/tools/consumers/* "$REPO"/tools/modsign/src/* |
		sha256sum | cut -d' ' -f1)
	if [ "$(cat "$CONSUMERS/.stamp" 2>/dev/null)" = "$want" ]; then
		phase "consumers: the certificates and signatures in $CONSUMERS are up to date"
		return 0
	fi
	phase "consumers: certificates, signatures and CMS messages in $CONSUMERS" \
		"(log: $LOGS/consumers.log)"
	rm -rf "$CONSUMERS" && mkdir -p "$CONSUMERS" &&
		logged consumers _consumers_data && echo "$want" >"$CONSUMERS/.stamp"
}

# OpenSSL 4.0, or the version CONSUMERS_OPENSSL names.
_ossl() { with_openssl "${CONSUMERS_OPENSSL:-4.0}" openssl "$@"; }

# Certificate $1 (a key of ML-DSA-$2 and its certificate, PEM and DER) with
# the extensions of section $4 of tools/consumers/openssl.cnf, serial number
# $5, common name $6, issued by certificate $3 or, with $3 "self", by itself.
_consumers_cert() {
	local d=$CONSUMERS name=$1 set=$2 issuer=$3 ext=$4 serial=$5 cn=$6
	local conf=$REPO/tools/consumers/openssl.cnf seed
	seed=$(printf 'mldsa consumers %s' "$name" | sha256sum | cut -d' ' -f1)
	_ossl genpkey -algorithm "ML-DSA-$set" -pkeyopt "hexseed:$seed" -out "$d/$name.key" || return 1
	if [ "$issuer" = self ]; then
		_ossl req -new -x509 -config "$conf" -extensions "$ext" -key "$d/$name.key" -subj "/CN=$cn" \
			-set_serial "$serial" "${CONSUMERS_VALIDITY[@]}" -sigopt deterministic:1 -out "$d/$name.pem"
	else
		_ossl req -new -config "$conf" -key "$d/$name.key" -subj "/CN=$cn" -out "$d/$name.csr" &&
			_ossl x509 -req -in "$d/$name.csr" -CA "$d/$issuer.pem" -CAkey "$d/$issuer.key" \
				-extfile "$conf" -extensions "$ext" -set_serial "$serial" "${CONSUMERS_VALIDITY[@]}" \
				-sigopt deterministic:1 -out "$d/$name.pem"
	fi && _ossl x509 -in "$d/$name.pem" -outform DER -out "$d/$name.der"
}

# File $1 with $2, which it holds once, replaced by $3 of the same length, as $4.
_replace_bytes() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
old, new = sys.argv[2].encode(), sys.argv[3].encode()
assert d.count(old) == 1 and len(old) == len(new)
open(sys.argv[4], "wb").write(d.replace(old, new))' "$@"
}

# What tools/consumers/cases names: the chains of each set under the trusted
# CA, the certificates that must be refused, and the blacklist that bans one.
_consumers_certs() {
	local d=$CONSUMERS der=$REPO/tools/consumers/der.py set serial=1 f n
	# The impostor has the real CA's name; only its key differs.
	_consumers_cert ca 65 self ca 1 "mldsa consumers CA" &&
		_consumers_cert rogue-ca 65 self ca 1 "mldsa consumers CA" &&
		_consumers_cert rogue-leaf65 65 rogue-ca leaf 2 "mldsa consumers rogue leaf" &&
		_consumers_cert banned44 44 ca leaf 2 "mldsa consumers banned" || return 1
	for set in 44 65 87; do
		serial=$((serial + 2))
		_consumers_cert "int$set" "$set" ca ca "$serial" "mldsa consumers ML-DSA-$set CA" &&
			_consumers_cert "leaf$set" "$set" "int$set" leaf 1 "mldsa consumers ML-DSA-$set leaf" || return 1
	done
	for f in leaf44 leaf87; do
		n=$(stat -c %s "$d/$f.der")
		# A byte of the signature, which ends the certificate.
		cp "$d/$f.der" "$d/$f-flipped-sig.der" &&
			flip_byte "$d/$f-flipped-sig.der" $((n - 100)) || return 1
	done
	"$der" resize-sig "$d/leaf65.der" -64 "$d/leaf65-truncated-sig.der" &&
		"$der" resize-sig "$d/leaf87.der" 64 "$d/leaf87-oversized-sig.der" &&
		"$der" set-akid "$d/leaf65.der" "$d/int65.der" "$d/int44.der" "$d/leaf65-named-int44.der" &&
		printf '"tbs:%s"\n' "$("$der" tbs-sha256 "$d/banned44.der")" >"$d/blacklist-hashes"
}

# $1 bytes of a fixed pattern, to file $2.
_pattern() {
	python3 -c 'import sys
open(sys.argv[2], "wb").write(bytes(i * 7 % 251 for i in range(int(sys.argv[1]))))' "$1" "$2"
}

# For keyctl pkey_verify: per set a message of the longest length Linux 7.3
# takes, signed by the leaf's key, the corruptions of the ML-DSA-65 one, and
# ML-DSA-65 messages just over 7.3's limit and over 6.12's (the signature's
# length).
_consumers_raw() {
	local d=$CONSUMERS set f
	for set in 44 65 87; do
		_pattern "${PKEY_MAX_DATA[set]}" "$d/msg$set" || return 1
	done
	_pattern $((PKEY_MAX_DATA[65] + 1)) "$d/msg65-long" &&
		_pattern $((SIG_LEN[65] + 1)) "$d/msg65-longer" || return 1
	for f in msg44 msg65 msg87 msg65-long msg65-longer; do
		_ossl pkeyutl -sign -rawin -inkey "$d/leaf${f:3:2}.key" -pkeyopt deterministic:1 \
			-in "$d/$f" -out "$d/$f.sig" || return 1
	done
	cp "$d/msg65" "$d/msg65-changed" && flip_byte "$d/msg65-changed" 0 &&
		cp "$d/msg65.sig" "$d/msg65.sig-flipped" && flip_byte "$d/msg65.sig-flipped" 10 &&
		head -c $((SIG_LEN[65] - 1)) "$d/msg65.sig" >"$d/msg65.sig-truncated" &&
		{ cat "$d/msg65.sig"; printf '\0'; } >"$d/msg65.sig-oversized"
}

# CMS SignedData by $1 (a certificate and key of $CONSUMERS) of file $3, to $4,
# in form $2: "attrs", with signed attributes (a SHA-512 message digest, and no
# S/MIME capabilities, which the kernel takes only in Authenticode), or
# "plain", without (OpenSSL 4.0 makes both, 3.5 only the first); detached, or
# with $5 "-nodetach" holding the content.
_cms() {
	local d=$CONSUMERS args=()
	[ "$2" = attrs ] || args=(-noattr)
	_ossl cms -sign -binary -nocerts -nosmimecap -md sha512 "${args[@]}" ${5:+"$5"} \
		-signer "$d/$1.pem" -inkey "$d/$1.key" -in "$3" -outform DER -out "$4"
}

# CMS message $1 (DER) with a byte of its signature, which ends it, flipped.
_flip_cms_sig() {
	flip_byte "$1" $(($(stat -c %s "$1") - 100))
}

# For pkcs7_test: a message signed by each leaf in both forms, by the CA, and
# corruptions.
_consumers_cms() {
	local d=$CONSUMERS signer form
	printf 'mldsa consumers pkcs7_test content, version 1\n' >"$d/content"
	for signer in leaf44 leaf65 leaf87 rogue-leaf65; do
		for form in attrs plain; do
			_cms "$signer" "$form" "$d/content" "$d/$form-$signer.p7" -nodetach || return 1
		done
	done
	_cms ca plain "$d/content" "$d/plain-ca.p7" -nodetach &&
		cp "$d/attrs-leaf65.p7" "$d/attrs-leaf65-flipped-sig.p7" &&
		_flip_cms_sig "$d/attrs-leaf65-flipped-sig.p7" || return 1
	for form in attrs plain; do
		_replace_bytes "$d/$form-leaf65.p7" "version 1" "version 2" \
			"$d/$form-leaf65-changed-content.p7" || return 1
	done
}

# For dm-verity: a data device of 1 MiB, its hash device and root hash
# (veritysetup, with a fixed salt and UUID), and the root hash (its hex digits,
# which the kernel checks the signature of) signed by each leaf in both forms,
# by OpenSSL 3.5 in the one it makes, and by the CA.
_consumers_dm_verity() {
	local d=$CONSUMERS signer form
	_pattern $((1 << 20)) "$d/verity-data.img" &&
		veritysetup format "$d/verity-data.img" "$d/verity-hash.img" --salt=6d6c647361 \
			--uuid=6d6c6473-6100-4000-8000-000000000002 >"$d/verity-format.txt" &&
		sed -n 's/^Root hash:[[:space:]]*//p' "$d/verity-format.txt" | tr -d '\n' >"$d/verity-roothash" &&
		[ -s "$d/verity-roothash" ] || return 1
	for signer in leaf44 leaf65 leaf87 rogue-leaf65; do
		for form in attrs plain; do
			_cms "$signer" "$form" "$d/verity-roothash" "$d/verity-$form-$signer.p7" || return 1
		done
	done
	_cms ca attrs "$d/verity-roothash" "$d/verity-attrs-ca.p7" &&
		CONSUMERS_OPENSSL=3.5 _cms leaf65 attrs "$d/verity-roothash" "$d/verity-openssl35-leaf65.p7" &&
		cp "$d/verity-attrs-leaf65.p7" "$d/verity-attrs-leaf65-flipped-sig.p7" &&
		_flip_cms_sig "$d/verity-attrs-leaf65-flipped-sig.p7"
}

# The UUID of the fs-verity and IMA cases' ext4 file system: the IMA policy names it.
FS_UUID=6d6c6473-6100-4000-8000-000000000001

# For fs-verity and IMA: ext4 file systems. fs.img, with the verity and ea_inode
# features, has in verity/ a file per case, and per signed case the signature of
# its fs-verity digest (the struct fsverity_formatted_digest of `fsverity digest
# --for-builtin-sig`) as fsverity-CASE.p7, with the file's contents as
# fsverity-CASE to read it back with; in ima/, the IMA cases' files. fs-small.img,
# with neither feature, has in ima/ a file for each of ML-DSA-65 and -87: in a
# 4096-byte block, only the first's security.ima fits (ea_inode puts a large
# value in an inode of its own).
_consumers_fs() {
	local d=$CONSUMERS fs=$CONSUMERS/fs f
	mkdir -p "$fs/verity" "$fs/ima" "$d/fs-small/ima" || return 1
	_pattern 20000 "$d/pattern" || return 1
	for f in attrs-leaf44 attrs-leaf65 attrs-leaf87 plain-leaf44 plain-leaf65 plain-leaf87 \
		attrs-rogue-leaf65 attrs-leaf65-flipped-sig attrs-leaf65-other-file plain-leaf65-other-file \
		unsigned; do
		{ printf 'mldsa consumers fs-verity %s\n' "$f" && cat "$d/pattern"; } >"$fs/verity/$f" &&
			cp "$fs/verity/$f" "$d/fsverity-$f" || return 1
	done
	for f in attrs-leaf44 attrs-leaf65 attrs-leaf87 plain-leaf44 plain-leaf65 plain-leaf87 \
		attrs-rogue-leaf65 attrs-leaf65-flipped-sig; do
		fsverity digest "$fs/verity/$f" --compact --for-builtin-sig |
			python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()))' \
				>"$d/fsverity-digest" &&
			_cms "$(sed 's/^[a-z]*-//; s/-flipped-sig$//' <<<"$f")" "${f%%-*}" "$d/fsverity-digest" \
				"$d/fsverity-$f.p7" || return 1
	done
	_flip_cms_sig "$d/fsverity-attrs-leaf65-flipped-sig.p7" &&
		cp "$d/fsverity-attrs-leaf65.p7" "$d/fsverity-attrs-leaf65-other-file.p7" &&
		cp "$d/fsverity-plain-leaf65.p7" "$d/fsverity-plain-leaf65-other-file.p7" &&
		rm "$d/fsverity-digest" "$d/pattern" && _consumers_ima "$fs/ima" &&
		cp "$fs/ima/leaf65" "$fs/ima/leaf87" "$d/fs-small/ima" &&
		mkfs.ext4 -q -F -O verity,ea_inode -b 4096 -U "$FS_UUID" -E root_owner=0:0 -d "$fs" \
			"$d/fs.img" 4M &&
		mkfs.ext4 -q -F -b 4096 -E root_owner=0:0 -d "$d/fs-small" "$d/fs-small.img" 1M &&
		echo "$FS_UUID" >"$d/fs-uuid"
}

# The IMA cases' files in directory $1, and for each FILE that has one, the
# value of its security.ima in $CONSUMERS/ima-FILE.sig (the consumer cases set
# it): signed by each leaf, by the impostor, a corrupted signature, a signature
# of other contents, one that says version 2, and none.
_consumers_ima() {
	local dir=$1 d=$CONSUMERS f key
	for f in leaf44 leaf65 leaf87 rogue-leaf65 leaf65-flipped-sig leaf65-changed-content \
		leaf65-version-2 unsigned; do
		printf 'mldsa consumers IMA %s\n' "$f" >"$dir/$f" || return 1
		case $f in
		unsigned) continue ;;
		leaf65-*) key=leaf65 ;;
		*) key=$f ;;
		esac
		# mldsa-sign reads the seed form of the private key.
		_ossl pkey -in "$d/$key.key" -provparam ml-dsa.output_formats=seed-only -out "$d/seed.key" &&
			"$MODSIGN_TOOL" ima --key "$d/seed.key" --cert "$d/$key.der" "$dir/$f" -o "$d/ima-$f.sig" ||
			return 1
	done
	rm "$d/seed.key" && flip_byte "$d/ima-leaf65-flipped-sig.sig" 100 &&
		printf 'mldsa consumers IMA leaf65-changed-content, changed\n' >"$dir/leaf65-changed-content" &&
		printf '\2' | dd of="$d/ima-leaf65-version-2.sig" bs=1 seek=1 conv=notrunc status=none
}

_consumers_data() {
	_consumers_certs && _consumers_raw && _consumers_cms && _consumers_dm_verity && _consumers_fs
}

# The user-space tools of the consumer cases on this machine (Debian's
# keyutils, cryptsetup-bin, fsverity and attr).
CONSUMERS_TOOLS=(/usr/bin/keyctl /usr/sbin/veritysetup /usr/bin/fsverity /usr/bin/setfattr)

# The gen_init_cpio lines of the consumer cases' files: tools/consumers/init.sh
# and cases, the certificates, messages, signatures, devices and file systems,
# and the tools "${@:2}" of root file system $1 ("" for this machine's) with
# the libraries they load.
consumers_initramfs_list() {
	local f
	{
		echo "dir /tmp 01777 0 0"
		echo "dir /consumers 0755 0 0"
		echo "file /consumers/init.sh $REPO/tools/consumers/init.sh 0755 0 0"
		echo "file /consumers/cases $REPO/tools/consumers/cases 0644 0 0"
		for f in "$CONSUMERS"/*.der "$CONSUMERS"/*.p7 "$CONSUMERS"/msg* "$CONSUMERS"/verity-* \
			"$CONSUMERS"/fsverity-* "$CONSUMERS"/ima-*.sig "$CONSUMERS"/fs*.img "$CONSUMERS"/fs-uuid; do
			echo "file /consumers/${f##*/} $f 0644 0 0"
		done
		_binaries_list "$@"
	} | awk '!seen[$0]++'
}

# The gen_init_cpio lines of binaries "${@:2}" of root file system $1 and of
# the libraries they load, as the dynamic loader finds them (readelf: the
# interpreter and the NEEDED libraries, recursively, in the root's multiarch
# directories), each at its path in the root, with the directories above it.
_binaries_list() {
	local root=$1 f lib d dir part todo=("${@:2}") seen=" "
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		case $seen in *" $f "*) continue ;; esac
		seen+="$f "
		dir=
		for part in $(tr / ' ' <<<"${f%/*}"); do
			dir=$dir/$part
			echo "dir $dir 0755 0 0"
		done
		echo "file $f $(readlink -f "$root$f") 0755 0 0"
		todo+=($(readelf -l "$root$f" | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p'))
		for lib in $(readelf -d "$root$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			for d in "$root"/lib/*-linux-gnu "$root"/usr/lib/*-linux-gnu; do
				[ ! -e "$d/$lib" ] || {
					todo+=("${d#"$root"}/$lib")
					break
				}
			done
		done
	done
}

# The consumer cases for kernels $2 (tools/consumers/cases: "all,VERSION", or
# "unloaded" where this module is a module) and consumers $3 (default all) in
# console log $1 (tools/consumers/check.py), with the probes on this module's
# verifiers and, where the build has it, on crypto/mldsa.c's placed. Prints
# the differences and one line per consumer, all kept in $1.consumers.
consumers_check() {
	local rc=0 probes=(mldsa44_rust mldsa65_rust mldsa87_rust)
	! grep -qx 'CONFIG_CRYPTO_MLDSA=y' "$KBUILD/.config" || probes+=(mldsa_c)
	phase "results: the consumer cases, Linux $KVER $KNAME (full console: $1)"
	python3 "$REPO/tools/consumers/check.py" "$REPO/tools/consumers/cases" "$1" "$2" "${3:-all}" \
		"Linux $KVER $KNAME" "${probes[@]}" >"$1.consumers" || rc=1
	cat "$1.consumers"
	[ "$rc" = 0 ] || echo "FAILED: the consumer cases on Linux $KVER $KNAME" >&2
	return "$rc"
}

# The consumers that the s390x boot runs: those that need keyctl alone.
S390X_CONSUMERS=x509-keyrings,keyctl,pkcs7

# The cases of S390X_CONSUMERS on the selected s390x kernel, booted with an
# initramfs of Debian's s390x busybox and keyctl (fetch_s390x_userland) whose
# /init is tools/modsign/init.sh, with no modules to load. Prints the consumer
# lines.
consumers_s390x_boot() {
	local console=$LOGS/console-$KVER-s390x-consumers.log initrd=$KBUILD/consumers-initramfs.cpio rc=0
	phase "consumers: Debian's s390x busybox and keyctl in $S390X_ROOT (log: $LOGS/s390x-userland.log)"
	logged s390x-userland fetch_s390x_userland || return 1
	{
		INITRAMFS_BUSYBOX=$S390X_ROOT/bin/busybox initramfs_list "$REPO/tools/modsign/init.sh" \
			sh mkdir mount reboot grep cut tr sed cat
		consumers_initramfs_list "$S390X_ROOT" /bin/keyctl
	} >"$initrd.list" && gen_init_cpio "$initrd.list" >"$initrd" || return 1
	BOOT_APPEND="consumers=1 consumers_only=$S390X_CONSUMERS" boot_kernel max "$console" "$initrd" || rc=$?
	consumers_check "$console" "all,$KVER" "$S390X_CONSUMERS" || rc=1
	return "$rc"
}
