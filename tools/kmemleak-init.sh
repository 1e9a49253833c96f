#!/bin/sh
# Run on the debug kernel (tools/lib/boot.sh debug_kernel) by
# tools/kunit-init.sh and tools/concurrent-init.sh at their end: scan for
# leaks (twice, as
# Documentation/dev-tools/kmemleak.rst advises, so that objects just freed are
# not reported), print each suspected leak to the console, then reboot, which
# ends QEMU (-no-reboot).
export PATH=/bin
say() { echo "mldsa-debug: $*" >/dev/kmsg; }
mkdir -p /debug
mount -t debugfs none /debug || say "cannot mount debugfs"
echo scan >/debug/kmemleak && echo scan >/debug/kmemleak || say "kmemleak scan failed"
while IFS= read -r line; do
	echo "kmemleak-report: $line" >/dev/kmsg
done </debug/kmemleak
say "kmemleak scan done"
reboot -f
