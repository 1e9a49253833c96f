#!/bin/sh
# The consumer cases (tools/consumers/cases), run by tools/modsign/init.sh
# (/proc mounted) when the kernel's command line has consumers=1. A kretprobe on
# each verifier's verify call (this module's per set, crypto/mldsa.c's) records
# what it returned; per case one line goes to /dev/kmsg: the outcome and those
# calls. The functions below are the commands of the cases.
export PATH=/bin:/usr/bin
# In a session keyring of its own, whose keys it possesses: restricting a keyring
# and the public-key calls need that.
[ -n "${CONSUMERS_SESSION:-}" ] || CONSUMERS_SESSION=1 exec keyctl session - sh "$0"
C=/consumers T=/tracing
say() { echo "consumers: $*" >/dev/kmsg; }

# A return probe named $1 on the function whose kallsyms line matches $2.
probe() {
	sym=$(grep -m 1 "$2" /proc/kallsyms | cut -d ' ' -f 3)
	if [ -n "$sym" ] && echo "r:$1 $sym ret=\$retval:s32" >>$T/kprobe_events; then
		say "probe $1: $sym"
	else
		say "probe $1: none"
	fi
}

add() {
	case $1 in
	secondary) ring=%:.secondary_trusted_keys ;;
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

mkdir -p $T
mount -t tracefs tracefs $T
for set in 44 65 87; do
	# kernel::crypto::sig::Adapter<MlDsa<MlDsaNN>>::verify, as v0 mangling spells it.
	probe "mldsa${set}_rust" "Adapter.*MlDsa${set}E.*6verify"
done
probe mldsa_c ' crypto_mldsa_verify$'
echo 1 >$T/events/kprobes/enable
chain=$(keyctl newring chain @s)
keyctl restrict_keyring "$chain" asymmetric "key_or_keyring:$(keyctl id %:.builtin_trusted_keys):chain"
# $outcome and $calls, what the case must give, are for tools/consumers/check.py.
while read -r consumer name outcome calls cmd; do
	case $consumer in '' | '#'*) continue ;; esac
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
