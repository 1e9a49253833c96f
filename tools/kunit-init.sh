#!/bin/sh
# /init of the KUnit boots (tools/lib/boot.sh kunit_initramfs). KUnit has run
# the built-in suites during boot. Set failslab and fail_page_alloc up
# through their debugfs attributes, as that suite asks
# (Documentation/fault-injection/fault-injection.rst): the allocations of the
# tasks that ask for it (make-it-fail) from their nth (fail-nth) on fail, those
# that may sleep too, pages of every order, with no stack dump; then load the
# module of the KUnit suite mldsa_api_faults, which runs it, and reboot, which
# ends QEMU (-no-reboot). On the debug kernel its kmemleak scan
# (tools/kmemleak-init.sh) comes before the reboot.
export PATH=/bin
say() { echo "mldsa-kunit: $*" >/dev/kmsg; }
mkdir -p /debug
mount -t debugfs none /debug || say "cannot mount debugfs"
for f in failslab fail_page_alloc; do
	echo N >/debug/$f/ignore-gfp-wait && echo Y >/debug/$f/task-filter &&
		echo 100 >/debug/$f/probability && echo 1 >/debug/$f/interval &&
		echo -1 >/debug/$f/times && echo 0 >/debug/$f/verbose || say "cannot set up $f"
done
echo 0 >/debug/fail_page_alloc/min-order || say "cannot set up fail_page_alloc"
insmod /mldsa_api_faults_kunit.ko || say "cannot load mldsa_api_faults_kunit.ko"
say "mldsa_api_faults done"
[ ! -e /kmemleak-init.sh ] || exec sh /kmemleak-init.sh
reboot -f
