# Kernel configurations as distributions have them, Linux 7.3 and 6.12 x86_64:
# distro-shaped, with Debian's own crypto and module-signing settings
# (linux-config-$KVER) and the verifier as a module; rust-only, Rust with the
# crypto API's sig and SHA-3 as modules and no verifier.
# shellcheck shell=bash

# The options whose settings are Debian's: the crypto API, the crypto library,
# module signing and the keyrings, keys and the parsers of certificates.
DEBIAN_OPTIONS='CRYPTO|MODULE_SIG|SYSTEM_(TRUSTED|BLACKLIST|REVOCATION|EXTRA|DATA_VERIFICATION)|SECONDARY_TRUSTED|ASYMMETRIC|X509|PKCS7|PKCS8|SIGNED_PE|KEYS|FIPS_SIGNATURE'

# Configuration $1 of the selected kernel, x86_64, in a build directory of its
# own: tinyconfig, tools/x86_64-qemu.config, then for distro-shaped Debian's
# settings of DEBIAN_OPTIONS (KCONFIG_BASE, unchecked: some need hardware or
# networking that a QEMU kernel leaves out), and the checked fragments
# tools/$1.config and tools/$1-$KVER.config, for distro-shaped with the consumer
# cases' tools/consumers.config between them. rust-only is the kernel alone: no
# modules are built.
select_distro_config() {
	select_arch x86_64
	KNAME=x86_64-$1 KBUILD=$CACHE/build-$KVER-$1
	KCONFIG_FRAGMENTS=("$REPO/tools/x86_64-qemu.config" "$REPO/tools/$1.config" "$REPO/tools/$1-$KVER.config")
	case $1 in
	distro-shaped) KCONFIG_BASE=$CACHE/distro/debian-$KVER.config
		KCONFIG_FRAGMENTS=("$REPO/tools/x86_64-qemu.config" "$REPO/tools/$1.config"
			"$REPO/tools/consumers.config" "$REPO/tools/$1-$KVER.config") ;;
	rust-only) KTARGETS=(bzImage) ;;
	debian-full) KCONFIG_BASE=$CACHE/distro/debian-$KVER-full.config
		KCONFIG_FRAGMENTS=("$REPO/tools/debian-full.config")
		KTARGETS=(vmlinux crypto/mldsa/mldsa_rust.ko) ;;
	esac
}

# KCONFIG_BASE: Debian's settings of DEBIAN_OPTIONS in config.amd64_none_amd64,
# rewritten only when they change (configure_kernel hashes it).
debian_settings() {
	local new=$KCONFIG_BASE.new
	fetch_kernel_config || return 1
	mkdir -p "${KCONFIG_BASE%/*}"
	xz -dc "$CACHE/deb/linux-config-$KVER/usr/src/linux-config-$KVER/config.amd64_none_amd64.xz" |
		grep -E "^(# )?CONFIG_($DEBIAN_OPTIONS)[A-Z0-9_]*[= ]" >"$new" || return 1
	if cmp -s "$new" "$KCONFIG_BASE"; then rm "$new"; else mv "$new" "$KCONFIG_BASE"; fi
}

# How many of Debian's settings the configuration kept, and each it did not
# (an option that needs what a QEMU kernel leaves out, or one the fragments set).
debian_kept() {
	awk 'function parse(line) {
		opt = ""
		if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) { split(line, w, " "); opt = w[2]; v = "n" }
		else if (line ~ /^CONFIG_/) { opt = substr(line, 1, index(line, "=") - 1); v = substr(line, index(line, "=") + 1) }
	}
	NR == FNR { parse($0); if (opt != "") here[opt] = v; next }
	{ parse($0); if (opt == "") next; all++; h = (opt in here) ? here[opt] : "n"
		if (h == v) kept++; else print "not as Debian: " opt "=" v " (here: " h ")" }
	END { print "Debian'"'"'s settings kept: " kept + 0 " of " all }' "$KBUILD/.config" "$KCONFIG_BASE"
}

# The modules of the build, installed (and signed: MODULE_SIG_ALL) in
# $KBUILD/modroot with their modules.dep, and a busybox initramfs with them
# whose /init is tools/distro-init.sh, with the consumer cases
# (tools/lib/consumers.sh).
distro_initramfs() {
	local root=$KBUILD/modroot list=$KBUILD/distro-initramfs.list
	rm -rf "$root" &&
		kmake INSTALL_MOD_PATH="$root" DEPMOD=/usr/sbin/depmod modules_install || return 1
	{
		initramfs_list "$REPO/tools/distro-init.sh" sh mkdir mount modprobe insmod rmmod sed sort tr \
			reboot grep cut cat cmp base64
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		(cd "$root" && find lib -type d -printf 'dir /%p 0755 0 0\n' &&
			find lib -type f -printf "file /%p $root/%p 0644 0 0\n")
		consumers_initramfs_list "" "${CONSUMERS_TOOLS[@]}"
	} >"$list" && gen_init_cpio "$list" >"$KBUILD/distro-initramfs.cpio"
}

# The name of toolchain KTOOLCHAIN in the summary lines.
declare -A TOOLCHAIN_NAMES=([debian13]="Debian 13" [rustc-min]="Debian 12, rustc-web at Kconfig's minimum")

# Builds, boots and checks configuration $1 of Linux $KVER x86_64, and prints
# "kernel configuration $1, Linux $KVER x86_64: linked, booted, N passed, N failed":
# the KUnit cases that ran (the kernel crate's doctests; with the verifier, its
# suites, loaded as modules) and the checks of the boot. With KTOOLCHAIN set, it
# builds with that toolchain and prints the line again as "toolchain NAME (gcc
# G, rustc R, bindgen B), Linux $KVER x86_64 $1: ...", in the Debian 13 root
# counting a check more: the compilers are those of Debian's configuration.
distro_config() {
	local name=$1 console=$LOGS/console-$KVER-$1.log rc=0 passed failed checks=() differ=
	select_distro_config "$name"
	case ${KTOOLCHAIN:-} in
	debian13) make_buildroot && fetch_kernel_config || return 1 ;;
	rustc-min) logged rustc-min fetch_rustc_min || return 1 ;;
	esac
	# Objects of another C compiler are of no use: kbuild would rebuild them all.
	[ "${KTOOLCHAIN:-}" = debian13 ] || seed_build_dir "$CACHE/build-$KVER-x86_64"
	if [ -n "$KCONFIG_BASE" ]; then
		logged "debian-settings-$KVER" debian_settings
		configure_kernel
		debian_kept >"$LOGS/debian-kept-$KVER.txt"
		phase "configure: $(tail -n 1 "$LOGS/debian-kept-$KVER.txt") (the others: $LOGS/debian-kept-$KVER.txt)"
	else
		configure_kernel
	fi
	build_kernel
	case $name in
	distro-shaped)
		phase "initramfs: the modules, installed and signed, with modprobe (log: $LOGS/distro-initramfs-$KVER.log)"
		logged "distro-initramfs-$KVER" distro_initramfs
		BOOT_KUNIT=1 BOOT_APPEND="module.sig_enforce=1 consumers=unloaded dm_verity.require_signatures=1" \
			boot_kernel max "$console" "$KBUILD/distro-initramfs.cpio" || rc=$?
		checks=("distro: modprobe mldsa_rust: loaded" "distro: modprobe mldsa_api_kunit: loaded"
			"mldsa_rust: registered mldsa44, mldsa65, mldsa87"
			"distro: drivers: mldsa44-rust mldsa65-rust mldsa87-rust " "distro: done")
		kunit_results "$console" rust_doctests_kernel mldsa_rust mldsa_api >/dev/null || rc=1
		consumers_check "$console" unloaded || rc=1
		;;
	rust-only)
		boot_kernel max "$console" || rc=$?
		kunit_results "$console" rust_doctests_kernel >/dev/null || rc=1
		;;
	esac
	phase "results: kernel configuration $name, Linux $KVER x86_64 (full console: $console)"
	failed=$(missing_lines "$console" "${checks[@]}")
	passed=$((${#checks[@]} - failed))
	if [ "${KTOOLCHAIN:-}" = debian13 ]; then
		differ=$(debian_compilers_differ)
		if [ -n "$differ" ]; then echo "$differ"; failed=$((failed + 1)); else passed=$((passed + 1)); fi
	fi
	[ "$(checker_reports "$console" | wc -l)" = 0 ] || {
		checker_reports "$console"
		failed=$((failed + 1))
	}
	local booted="booted"
	[ "$rc" = 0 ] && console_text "$console" | grep -c 'Linux version ' >/dev/null || booted="did not boot"
	awk -v what="kernel configuration $name, Linux $KVER x86_64: linked, $booted" -v p="$passed" -v f="$failed" \
		'/^[0-9]+ passed, [0-9]+ failed$/ {p += $1; f += $3} END {print what ", " p " passed, " f " failed"}' \
		"$console.ktap" | tee "$LOGS/config-$KVER-$name.txt"
	[ -z "${KTOOLCHAIN:-}" ] ||
		sed "s/^kernel configuration $name, \(.*\):/toolchain ${TOOLCHAIN_NAMES[$KTOOLCHAIN]} ($(toolchain_versions)), \1 $name:/" \
			"$LOGS/config-$KVER-$name.txt" | tee "$LOGS/toolchain-$KVER-$name.txt"
	if [ "$rc" != 0 ] || [ "$failed" != 0 ]; then
		echo "FAILED: kernel configuration $name, Linux $KVER x86_64" >&2
		return 1
	fi
}

# Debian's complete config.amd64_none_amd64 as KCONFIG_BASE (the packaging's
# own settings, the trusted keys and the signing key, come from olddefconfig
# and configure_kernel).
debian_full_settings() {
	fetch_kernel_config || return 1
	mkdir -p "${KCONFIG_BASE%/*}"
	xz -dc "$CACHE/deb/linux-config-$KVER/usr/src/linux-config-$KVER/config.amd64_none_amd64.xz" \
		>"$KCONFIG_BASE.new" || return 1
	if cmp -s "$KCONFIG_BASE.new" "$KCONFIG_BASE"; then rm "$KCONFIG_BASE.new"; else mv "$KCONFIG_BASE.new" "$KCONFIG_BASE"; fi
}

# Once, not in every run (over half an hour on two cores): vmlinux of Debian's
# complete configuration with the series and the verifier =m, and the
# verifier's module. Prints what Documentation/notes.rst records: the build's
# time, what Debian's settings became, and how many of the symbols that the
# built-in kernel crate (rust/kernel.o, rust/helpers/helpers.o) uses vmlinux
# does not define (0: it links them all, none lives in a module).
debian_full() {
	local t0=$SECONDS unresolved
	select_distro_config debian-full
	[ "${KTOOLCHAIN:-}" != debian13 ] || make_buildroot || return 1
	logged "debian-full-settings-$KVER" debian_full_settings
	configure_kernel
	debian_kept >"$LOGS/debian-full-kept-$KVER.txt"
	phase "configure: $(tail -n 1 "$LOGS/debian-full-kept-$KVER.txt") (the others: $LOGS/debian-full-kept-$KVER.txt)"
	build_kernel
	unresolved=$(comm -23 <(nm -u "$KBUILD/rust/helpers/helpers.o" "$KBUILD/rust/kernel.o" | awk '$1 == "U" {print $2}' | sort -u) \
		<(nm --defined-only "$KBUILD/vmlinux" | awk '{print $3}' | sort -u) | wc -l)
	echo "Debian's config.amd64_none_amd64, Linux $KVER x86_64, with the series and the verifier =m," \
		"built by ${TOOLCHAIN_NAMES[${KTOOLCHAIN:-host}]:-the host toolchain} ($(toolchain_versions)):" \
		"vmlinux linked, $(basename "${KTARGETS[1]}") built, in $((SECONDS - t0)) s with -j$JOBS;" \
		"$(tail -n 1 "$LOGS/debian-full-kept-$KVER.txt"); symbols of the built-in kernel crate" \
		"that vmlinux does not define: $unresolved" | tee "$LOGS/debian-full-$KVER.txt"
}
