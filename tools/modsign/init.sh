#!/bin/sh
# /init of the module signing test's initramfs (tools/lib.sh): tries to load
# every module in /modules on this CONFIG_MODULE_SIG_FORCE kernel, prints one
# line per module, then reboots, which ends QEMU (-no-reboot). The lines go
# to /dev/kmsg (printk.devkmsg=on), so that they fall in order with the
# kernel's own: Linux 7.x prints the console from a thread of its own, after
# the shell's next line.
export PATH=/bin
say() { echo "modsign: $*" >/dev/kmsg; }
for ko in /modules/*.ko; do
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
say done
reboot -f
