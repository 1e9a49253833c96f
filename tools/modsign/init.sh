#!/bin/sh
# /init of the module signing test's initramfs (tools/lib/modsign.sh), and of
# the s390x consumer cases' (tools/lib/consumers.sh, no modules): lists the
# ML-DSA algorithms of the crypto API, tries to load every module in /modules
# on this CONFIG_MODULE_SIG_FORCE kernel, prints one line per module, then
# reboots, which ends QEMU (-no-reboot); with modsign_rounds=N on
# the kernel's command line (tools/lib/modcheck.sh), it goes through the list N
# times; with consumers=1, it runs the consumer cases (tools/consumers/init.sh)
# last. The lines go to /dev/kmsg (printk.devkmsg=on), so that they fall in
# order with the kernel's own: Linux 7.x prints the console from a thread of its
# own, after the shell's next line.
export PATH=/bin
say() { echo "modsign: $*" >/dev/kmsg; }
# The signature algorithms a module's signature is checked with: name, driver
# and priority of each ML-DSA algorithm (the highest priority serves the name).
mkdir -p /proc
mount -t proc proc /proc
while read -r field colon value; do
	case $field in
	name) name=$value ;;
	driver) driver=$value ;;
	priority) case $name in mldsa*) say "crypto: $name $driver $value" ;; esac ;;
	esac
done </proc/crypto
round=0
while [ "$round" -lt "${modsign_rounds:-1}" ]; do
	round=$((round + 1))
	for ko in /modules/*.ko; do
		[ -e "$ko" ] || continue
		name=${ko##*/}
		say "trying $name"
		if err=$(insmod "$ko" 2>&1); then
			say "$name: loaded"
			case $name in
			big-*) rmmod mldsa_testmod_big ;;
			*) rmmod mldsa_testmod ;;
			esac
		else
			# busybox: "insmod: can't insert '...': <strerror>"
			say "$name: refused: ${err##*: }"
		fi
	done
done
say done
# The other users of signatures (tools/consumers), in the same boot.
[ -z "${consumers:-}" ] || sh /consumers/init.sh
reboot -f
