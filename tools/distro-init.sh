#!/bin/sh
# /init of the distro-shaped boot (tools/lib/distro.sh), on a kernel that
# enforces module signatures (module.sig_enforce=1): runs the consumer cases
# (tools/consumers/init.sh; with consumers=unloaded, the first before the
# verifier is loaded, which one of them loads on demand), loads the verifier
# and its KUnit suites with modprobe, as udev would, says which ML-DSA drivers
# the crypto API then has, and reboots, which ends QEMU (-no-reboot). The lines
# go to /dev/kmsg, in order with the kernel's own (see tools/modsign/init.sh).
export PATH=/bin
say() { echo "distro: $*" >/dev/kmsg; }
mount -t proc proc /proc
mount -t sysfs sysfs /sys
sh /consumers/init.sh
for m in mldsa_rust mldsa_api_kunit; do
	if err=$(modprobe "$m" 2>&1); then
		say "modprobe $m: loaded"
	else
		say "modprobe $m: failed: $err"
	fi
done
say "drivers: $(sed -n 's/^driver *: \(mldsa.*\)/\1/p' /proc/crypto | sort | tr '\n' ' ')"
say done
reboot -f
