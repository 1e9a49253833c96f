#!/bin/sh
# /init of the concurrent-loads boot (tools/lib/concurrent.sh concurrent_loads):
# on a kernel that enforces module signatures and runs on several CPUs, loads
# every module in /modules at once, one insmod process each, in three rounds:
#
#   plain   nothing else going on;
#   faults  each insmod process with one allocation in fifty failing
#           (failslab and fail_page_alloc, filtered to the tasks that ask
#           for it through /proc/self/make-it-fail);
#   again   no faults: every module must load after the failures.
#
# Prints "concurrent: ROUND NAME: loaded" or "... refused: ERROR" per module
# and round, unloads what loaded, scans for leaks where kmemleak is built in
# (tools/kmemleak-init.sh), and reboots, which ends QEMU (-no-reboot). The lines go to /dev/kmsg (see
# tools/modsign/init.sh).
export PATH=/bin
say() { echo "concurrent: $*" >/dev/kmsg; }
mkdir -p /proc /debug
mount -t proc proc /proc
mount -t debugfs none /debug || say "cannot mount debugfs"

# Fault injection for the tasks that set make-it-fail, sleeping allocations
# too, without end: $1 percent of their allocations fail (0: none). The
# filter comes first: without it, every task's allocations would fail, init's.
faults() {
	for f in failslab fail_page_alloc; do
		echo Y >/debug/$f/task-filter
		echo 1 >/debug/$f/interval
		echo -1 >/debug/$f/times
		echo 0 >/debug/$f/verbose
		echo N >/debug/$f/ignore-gfp-wait
		echo "$1" >/debug/$f/probability
	done
}

# One insmod of module $2 in round $1, in a process that injects faults into
# itself when $3 is 1.
load() {
	if err=$(sh -c 'echo "$1" >/proc/self/make-it-fail && exec insmod "$0"' "$2" "$3" 2>&1); then
		say "$1 ${2##*/}: loaded"
	else
		# busybox: "insmod: can't insert '...': <strerror>"
		say "$1 ${2##*/}: refused: ${err##*: }"
	fi
}

# Round $1: every module at once ($2: 1 with faults), then unload what loaded.
round() {
	for ko in /modules/*.ko; do
		load "$1" "$ko" "$2" &
	done
	wait
	for ko in /modules/*.ko; do
		name=${ko##*/}
		rmmod "${name%.ko}" 2>/dev/null
	done
	say "round $1 done"
}

round plain 0
faults 2
round faults 1
faults 0
round again 0
say done
# With kmemleak, the debug kernel's scan (tools/kmemleak-init.sh) ends the run.
[ ! -e /debug/kmemleak ] || exec sh /kmemleak-init.sh
reboot -f
