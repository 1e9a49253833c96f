#!/bin/sh
# /init of the module signing test's initramfs (tools/lib.sh): tries to load
# every module in /modules on this CONFIG_MODULE_SIG_FORCE kernel, prints one
# line per module, then reboots, which ends QEMU (-no-reboot).
export PATH=/bin
for ko in /modules/*.ko; do
	name=${ko##*/}
	echo "modsign: trying $name"
	if err=$(insmod "$ko" 2>&1); then
		echo "modsign: $name: loaded"
		case $name in
		big-*) rmmod mldsa_testmod_big ;;
		*) rmmod mldsa_testmod ;;
		esac
	else
		# busybox: "insmod: can't insert '...': <strerror>"
		echo "modsign: $name: refused: ${err##*: }"
	fi
done
echo "modsign: done"
reboot -f
