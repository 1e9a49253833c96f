#!/bin/sh
# The consumer cases (tools/consumers/cases), run by tools/modsign/init.sh and
# tools/distro-init.sh (/proc mounted) when the kernel's command line has
# consumers=1, or consumers=unloaded where this module is still to be loaded
# (then the cases for "unloaded" run instead). A kretprobe on each verifier's
# verify call (this module's per set, crypto/mldsa.c's) records what it
# returned; per case one line goes to /dev/kmsg: the outcome and those calls.
# The functions below are the commands of the cases.
export PATH=/bin:/usr/bin:/usr/sbin
# In a session keyring of its own, whose keys it possesses: restricting a keyring
# and the public-key calls need that.
[ -n "${CONSUMERS_SESSION:-}" ] || CONSUMERS_SESSION=1 exec keyctl session - sh "$0"
C=/consumers T=/tracing FS=/mnt/fs
say() { echo "consumers: $*" >/dev/kmsg; }

# A return probe named $1 on the function whose kallsyms line matches $2 (a
# module's symbol ends in a tab and the module's name).
probe() {
	sym=$(grep -m 1 "$2" /proc/kallsyms | cut -d ' ' -f 3 | cut -f 1)
	if [ -n "$sym" ] && echo "r:$1 $sym ret=\$retval:s32" >>$T/kprobe_events; then
		say "probe $1: $sym"
	else
		say "probe $1: none"
	fi
}

# Whether consumer $1 is one to run: one that consumers_only lists, or any.
wanted() {
	case ",${consumers_only:-$1}," in *",$1,"*) ;; *) return 1 ;; esac
}

# The probes on the verifiers, enabled: where this module is a module, once it
# is loaded.
probes() {
	for set in 44 65 87; do
		# kernel::crypto::sig::Adapter<MlDsa<MlDsaNN>>::verify, as v0 mangling spells it.
		probe "mldsa${set}_rust" "Adapter.*MlDsa${set}E.*6verify"
	done
	probe mldsa_c ' crypto_mldsa_verify$'
	echo 1 >$T/events/kprobes/enable
}

# Modules loaded on demand by the program $1 (kernel.modprobe), or not at all
# with $1 empty.
on_demand() {
	echo "$1" >/proc/sys/kernel/modprobe
}

# The public-key query of key $1 (which looks the algorithm up), and this
# module loaded after it.
loads() {
	eval "keyctl pkey_query \$$1 0 enc=raw hash=none" >/dev/null &&
		grep -c '^mldsa_rust ' /proc/modules >/dev/null
}

add() {
	case $1 in
	secondary) ring=%:.secondary_trusted_keys ;;
	session) ring=@s ;;
	fs-verity) ring=%:.fs-verity ;;
	ima) ring=$ima ;;
	*) ring=$chain ;;
	esac
	id=$(keyctl padd asymmetric "" "$ring" <"$C/$2.der") || return 1
	[ -z "$3" ] || eval "$3=$id"
}

query() {
	eval "keyctl pkey_query \$$1 0 enc=raw hash=none" >/tmp/query || return 1
	grep -E '^(key_size|max_data_size|max_sig_size)=' /tmp/query | tr '\n' , | sed 's/,$//'
}

verify() {
	key=$1 msg=$2 sig=$3
	shift 3
	[ $# -gt 0 ] || set -- enc=raw hash=none
	eval "keyctl pkey_verify \$$key 0 $C/$msg $C/$sig $*" >/dev/null
}

# The key needs a description: the type makes none.
pkcs7() {
	keyctl padd pkcs7_test consumers @s <"$C/$1" >/dev/null
}

# dm-verity: the data device opened with its root hash and, with $1, the
# signature verity-$1.p7, then read in full through the verity target.
dm_verity() {
	set -- "$(cat $C/verity-roothash)" ${1:+"--root-hash-signature=$C/verity-$1.p7"}
	veritysetup open $C/verity-data.img verity $C/verity-hash.img "$@" || return 1
	cmp /dev/mapper/verity $C/verity-data.img
	rc=$?
	veritysetup close verity
	return $rc
}

# fs-verity: verity enabled on file $1 of fs.img's verity/ with the signature
# fsverity-$1.p7 if there is one, then the file read back in full.
fs_verity() {
	sig=
	[ ! -f "$C/fsverity-$1.p7" ] || sig=--signature=$C/fsverity-$1.p7
	fsverity enable "$FS/verity/$1" $sig && cmp "$FS/verity/$1" "$C/fsverity-$1"
}

# IMA: security.ima of file $1 of ima/ on the file system at $2 (default
# fs.img's), from ima-$1.sig.
xattr() {
	setfattr -n security.ima -v "0s$(base64 -w 0 "$C/ima-$1.sig")" "${2:-$FS}/ima/$1"
}

# The policy: files opened on fs.img are appraised by their signatures.
ima_policy() {
	echo "appraise func=FILE_CHECK fsuuid=$(cat $C/fs-uuid) appraise_type=imasig" \
		>/sys/kernel/security/ima/policy
}

ima() {
	cat "$FS/ima/$1" >/dev/null
}

mkdir -p $T /sys /run $FS /mnt/small
mount -t tracefs tracefs $T
[ "${consumers:-}" = unloaded ] || probes
chain=$(keyctl newring chain @s)
keyctl restrict_keyring "$chain" asymmetric "key_or_keyring:$(keyctl id %:.builtin_trusted_keys):chain"
# For dm-verity, fs-verity and IMA: the loop and device-mapper devices, the
# file systems, fs-verity's signatures required (dm-verity's are, by the
# command line), and IMA's keyring: without CONFIG_INTEGRITY_TRUSTED_KEYRING,
# the one named _ima that the opener can find.
if wanted dm-verity || wanted fs-verity || wanted ima; then
	mount -t devtmpfs devtmpfs /dev
	mount -t sysfs sysfs /sys
	mount -t securityfs securityfs /sys/kernel/security
	mount -o loop $C/fs.img $FS
	mount -o loop $C/fs-small.img /mnt/small
	echo 1 >/proc/sys/fs/verity/require_signatures
	ima=$(keyctl newring _ima @s)
fi
# The cases for this kernel: "all" and its version's, or with
# consumers=unloaded those for "unloaded"; of the consumers that consumers_only
# lists (separated by commas), or of all. $outcome and $calls, what the case must give, are for
# tools/consumers/check.py.
version=$(uname -r | cut -d . -f 1,2)
while read -r consumer name kernel outcome calls cmd; do
	case $consumer in '' | '#'*) continue ;; esac
	wanted "$consumer" || continue
	case ${consumers:-},$kernel in
	unloaded,unloaded | 1,all | "1,$version") ;;
	*) continue ;;
	esac
	echo >$T/trace
	if eval "$cmd" >/tmp/out 2>/tmp/err; then
		result="ok$(sed 's/^/ /' /tmp/out)"
	else
		result="refused: $(sed -n '$s/.*: //;$p' /tmp/err)"
	fi
	calls=$(sed -n 's/.* \(mldsa[0-9a-z_]*\): (.* ret=\(-\{0,1\}[0-9]*\)$/\1=\2/p' $T/trace | tr '\n' , | sed 's/,$//')
	say "case $consumer $name: $result; calls: ${calls:-none}"
done <$C/cases
say done
