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
# Per parameter set, the longest message keyctl pkey_verify takes: the public
# key's length (FIPS 204, Table 2), which the driver reports as the key's size
# in bits, in bytes (crypto/sig.c, sig_default_size()).
PKEY_MAX_DATA=([44]=164 [65]=244 [87]=324)

# The data, made again when this file, the cases or the tools change.
consumers_data() {
	local want
	want=$(cat "${BASH_SOURCE[0]}" "$REPO"/tools/consumers/* | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$CONSUMERS/.stamp" 2>/dev/null)" = "$want" ]; then
		phase "consumers: the certificates and signatures in $CONSUMERS are up to date"
		return 0
	fi
	phase "consumers: certificates, signatures and CMS messages in $CONSUMERS" \
		"(log: $LOGS/consumers.log)"
	rm -rf "$CONSUMERS" && mkdir -p "$CONSUMERS" &&
		logged consumers _consumers_data && echo "$want" >"$CONSUMERS/.stamp"
}

_ossl() { with_openssl 4.0 openssl "$@"; }

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

# For keyctl pkey_verify: per set a message of the longest length the kernel
# takes, signed by the leaf's key, and the corruptions of the ML-DSA-65 one.
_consumers_raw() {
	local d=$CONSUMERS set f
	for set in 44 65 87; do
		_pattern "${PKEY_MAX_DATA[set]}" "$d/msg$set" || return 1
	done
	_pattern $((PKEY_MAX_DATA[65] + 1)) "$d/msg65-long" || return 1
	for f in msg44 msg65 msg87 msg65-long; do
		_ossl pkeyutl -sign -rawin -inkey "$d/leaf${f:3:2}.key" -pkeyopt deterministic:1 \
			-in "$d/$f" -out "$d/$f.sig" || return 1
	done
	cp "$d/msg65" "$d/msg65-changed" && flip_byte "$d/msg65-changed" 0 &&
		cp "$d/msg65.sig" "$d/msg65.sig-flipped" && flip_byte "$d/msg65.sig-flipped" 10 &&
		head -c $((SIG_LEN[65] - 1)) "$d/msg65.sig" >"$d/msg65.sig-truncated" &&
		{ cat "$d/msg65.sig"; printf '\0'; } >"$d/msg65.sig-oversized"
}

# For pkcs7_test: a message signed by each leaf in both CMS forms that the
# kernel takes, with signed attributes (SHA-512 message digest; no S/MIME
# capabilities, which it takes only in Authenticode) and without, and their
# corruptions; OpenSSL 4.0 makes both (3.5 only the first).
_consumers_cms() {
	local d=$CONSUMERS signer form args n
	printf 'mldsa consumers pkcs7_test content, version 1\n' >"$d/content"
	for signer in leaf44 leaf65 leaf87 rogue-leaf65; do
		for form in attrs plain; do
			args=()
			[ "$form" = attrs ] || args=(-noattr)
			_ossl cms -sign -binary -nodetach -nocerts -nosmimecap -md sha512 "${args[@]}" \
				-signer "$d/$signer.pem" -inkey "$d/$signer.key" -in "$d/content" -outform DER \
				-out "$d/$form-$signer.p7" || return 1
		done
	done
	n=$(stat -c %s "$d/attrs-leaf65.p7")
	cp "$d/attrs-leaf65.p7" "$d/attrs-leaf65-flipped-sig.p7" &&
		flip_byte "$d/attrs-leaf65-flipped-sig.p7" $((n - 100)) || return 1
	for form in attrs plain; do
		_replace_bytes "$d/$form-leaf65.p7" "version 1" "version 2" \
			"$d/$form-leaf65-changed-content.p7" || return 1
	done
}

_consumers_data() {
	_consumers_certs && _consumers_raw && _consumers_cms
}

# The gen_init_cpio lines of the consumer cases' files: tools/consumers/init.sh
# and cases, the certificates, messages and signatures, and keyctl with the
# libraries it loads.
consumers_initramfs_list() {
	local f lib dir part
	{
		echo "dir /tmp 01777 0 0"
		echo "dir /consumers 0755 0 0"
		echo "file /consumers/init.sh $REPO/tools/consumers/init.sh 0755 0 0"
		echo "file /consumers/cases $REPO/tools/consumers/cases 0644 0 0"
		for f in "$CONSUMERS"/*.der "$CONSUMERS"/*.p7 "$CONSUMERS"/msg*; do
			echo "file /consumers/${f##*/} $f 0644 0 0"
		done
		for f in /usr/bin/keyctl $(ldd /usr/bin/keyctl | grep -o '/[^ ]*'); do
			dir=
			for part in $(tr / ' ' <<<"${f%/*}"); do
				dir=$dir/$part
				echo "dir $dir 0755 0 0"
			done
			echo "file $f $(readlink -f "$f") 0755 0 0"
		done
	} | awk '!seen[$0]++'
}

# The consumer cases in console log $1 (tools/consumers/check.py), with the
# probes on this module's verifiers and on crypto/mldsa.c's placed. Prints the
# differences and one line per consumer, all kept in $1.consumers.
consumers_check() {
	local rc=0
	phase "results: the consumer cases, Linux $KVER $KNAME (full console: $1)"
	python3 "$REPO/tools/consumers/check.py" "$REPO/tools/consumers/cases" "$1" "Linux $KVER $KNAME" \
		mldsa44_rust mldsa65_rust mldsa87_rust mldsa_c >"$1.consumers" || rc=1
	cat "$1.consumers"
	[ "$rc" = 0 ] || echo "FAILED: the consumer cases on Linux $KVER $KNAME" >&2
	return "$rc"
}
