# Many modules at once: copies of the test module (tools/lib/modsign.sh) under
# names of their own, loaded concurrently on 4 CPUs by tools/concurrent-init.sh.
# shellcheck shell=bash

# As many copies as udev loads modules at boot, and more.
CONCURRENT_MODULES=36

# The copies mldsa_cc1 ... built against $KBUILD in $KBUILD/concurrent, signed
# with the trusted keys of the three parameter sets in turn, and the initramfs
# of tools/concurrent-init.sh that loads them.
concurrent_initramfs() {
	phase "modsign: $CONCURRENT_MODULES modules to load at once, initramfs (log: $LOGS/concurrent-$KVER-$KNAME.log)"
	logged "concurrent-$KVER-$KNAME" _concurrent_initramfs
}

_concurrent_initramfs() {
	local src=$KBUILD/concurrent i name set sets=(44 65 87)
	rm -rf "$src" && mkdir -p "$src/signed" || return 1
	for ((i = 1; i <= CONCURRENT_MODULES; i++)); do
		name=mldsa_cc$i
		sed "s/mldsa_testmod/$name/g" "$REPO/tools/modsign/testmod/mldsa_testmod.c" >"$src/$name.c" &&
			echo "obj-m += $name.o" >>"$src/Kbuild" || return 1
	done
	kmake M="$src" -j"$JOBS" modules || return 1
	for ((i = 1; i <= CONCURRENT_MODULES; i++)); do
		set=${sets[i % 3]}
		"$MODSIGN_TOOL" sign --key "$MODSIGN/trusted$set.key" --cert "$MODSIGN/trusted$set.der" \
			"$src/mldsa_cc$i.ko" -o "$src/signed/mldsa_cc$i.ko" || return 1
	done
	{
		initramfs_list "$REPO/tools/concurrent-init.sh" sh mkdir mount insmod rmmod reboot
		echo "file /kmemleak-init.sh $REPO/tools/kmemleak-init.sh 0755 0 0"
		echo "dir /modules 0755 0 0"
		for ((i = 1; i <= CONCURRENT_MODULES; i++)); do
			echo "file /modules/mldsa_cc$i.ko $src/signed/mldsa_cc$i.ko 0644 0 0"
		done
	} >"$src/initramfs.list" &&
		gen_init_cpio "$src/initramfs.list" >"$src/initramfs.cpio"
}

# The selected x86_64 kernel on 4 CPUs (QEMU CPU model $2) loads the copies at
# once, in the rounds of tools/concurrent-init.sh: "plain" and "again" must load
# every one, "faults" load or refuse each with -ENOMEM, refusing at least one
# (or nothing was injected), and the console must hold no checker report. $1
# names the kernel in the summary lines, kept in $LOGS/concurrent-$KVER-$KNAME.txt.
concurrent_loads() {
	local what=$1 cpu=$2 console=$LOGS/console-$KVER-$KNAME-concurrent.log rc=0 reports
	concurrent_initramfs
	BOOT_SMP=4 boot_kernel "$cpu" "$console" "$KBUILD/concurrent/initramfs.cpio" || rc=$?
	phase "results: concurrent module loads, $what (full console: $console)"
	checker_reports "$console"
	reports=$(checker_reports "$console" | wc -l)
	console_text "$console" | awk -v what="$what, smp 4" -v n="$CONCURRENT_MODULES" -v reports="$reports" '
		$1 == "concurrent:" && $2 ~ /^(plain|faults|again)$/ && $3 ~ /:$/ {
			if ($4 == "loaded") loaded[$2]++
			else if ($0 ~ /: refused: Cannot allocate memory$/) enomem[$2]++
		}
		$0 == "concurrent: done" { done = 1 }
		END {
			p = loaded["plain"] + 0; f = loaded["faults"] + 0; e = enomem["faults"] + 0
			a = loaded["again"] + 0
			print "concurrent module loads, " what ": " p " loaded, " n - p " failed, " reports " reports"
			print "concurrent module loads under allocation failures, " what ": " f " loaded, " \
				e " refused with -ENOMEM, " n - f - e " failed otherwise, " reports " reports; then " \
				a " of " n " loaded"
			exit !(done && p == n && a == n && f + e == n && e > 0 && reports == 0)
		}' | tee "$LOGS/concurrent-$KVER-$KNAME.txt" || rc=1
	# With kmemleak, its scan after the rounds must have run (its reports are checker reports).
	! grep -qx CONFIG_DEBUG_KMEMLEAK=y "$KBUILD/.config" ||
		[ "$(missing_lines "$console" "mldsa-debug: kmemleak scan done")" = 0 ] || rc=1
	if [ "$rc" != 0 ]; then
		echo "FAILED: concurrent module loads, $what" >&2
		return 1
	fi
}
