# The whole module signature check, as module loading runs it, in instructions:
# the C, the Rust portable and AVX2 code, RSA and ECDSA, in one kernel.
# shellcheck shell=bash

MODCHECK=$CACHE/modcheck
# The signers, each a key of tools/lib/modsign.sh: ML-DSA by mldsa-sign (the
# plain CMS form, which OpenSSL 4.0's sign-file also writes), RSA-4096 with
# SHA-256 and ECDSA-P384 with SHA-384 by the kernel's sign-file.
MODCHECK_SIGNERS=(mldsa44 mldsa65 mldsa87 rsa4096 ecdsa-p384)
# The module sizes in KiB: the bytes the signature covers (64 KiB and 4 MiB).
MODCHECK_SIZES=(64 4096)
# Each module is loaded this many times; the least count of each is kept.
MODCHECK_ROUNDS=3

# The test module of tools/modsign/testmod built against $KBUILD, padded with
# zeros to each size (module loading takes the bytes after the ELF sections)
# and signed by each signer, as $MODCHECK/modules/SIZEk-SIGNER.ko, and the
# initramfs of tools/modsign/init.sh that loads them.
_modcheck_initramfs() {
	local src=$MODCHECK/testmod dir=$MODCHECK/modules size signer f
	rm -rf "$src" "$dir" && mkdir -p "$src" "$dir" &&
		cp "$REPO/tools/modsign/testmod/"* "$src" &&
		kmake M="$src" modules || return 1
	for size in "${MODCHECK_SIZES[@]}"; do
		f=$src/padded.ko
		cp "$src/mldsa_testmod.ko" "$f" && truncate -s $((size << 10)) "$f" || return 1
		for signer in "${MODCHECK_SIGNERS[@]}"; do
			case $signer in
			mldsa*) "$MODSIGN_TOOL" sign --key "$MODSIGN/trusted${signer#mldsa}.key" \
				--cert "$MODSIGN/trusted${signer#mldsa}.der" "$f" -o "$dir/${size}k-$signer.ko" ;;
			rsa4096) "$KBUILD/scripts/sign-file" sha256 "$MODSIGN/$signer.pem" "$MODSIGN/$signer.der" \
				"$f" "$dir/${size}k-$signer.ko" ;;
			ecdsa-p384) "$KBUILD/scripts/sign-file" sha384 "$MODSIGN/$signer.pem" "$MODSIGN/$signer.der" \
				"$f" "$dir/${size}k-$signer.ko" ;;
			esac || return 1
		done
	done
	{
		initramfs_list "$REPO/tools/modsign/init.sh" sh mkdir mount insmod rmmod reboot
		echo "dir /modules 0755 0 0"
		for f in "$dir"/*.ko; do echo "file /modules/${f##*/} $f 0644 0 0"; done
	} >"$MODCHECK/initramfs.list" &&
		gen_init_cpio "$MODCHECK/initramfs.list" >"$MODCHECK/initramfs.cpio"
}

# The plugin's span: mod_verify_sig() of kernel/module/signing.c, from its entry
# to the instruction after its one call, in module_sig_check(): "enter=ADDR,leave=ADDR".
_modcheck_span() {
	local enter leave
	enter=$(awk '$3 == "mod_verify_sig" {print $1}' "$KBUILD/System.map")
	leave=$(objdump -d "$KBUILD/vmlinux" --disassemble=module_sig_check |
		awk '/call.*<mod_verify_sig>/ {n++; getline; sub(/:$/, "", $1); at = $1} END {if (n == 1) print at}')
	[ -n "$enter" ] && [ -n "$leave" ] || {
		echo "no mod_verify_sig(), or not one call of it in module_sig_check(), in $KBUILD/vmlinux" >&2
		return 1
	}
	echo "enter=$enter,leave=$leave"
}

# A boot of the x86_64 instruction-count kernel on QEMU -cpu $1 with kernel
# parameters $2, which loads every module of the initramfs $MODCHECK_ROUNDS
# times under the plugin, and must find the ML-DSA algorithms served by driver
# suffix $3 ("lib": the C, "rust": the module) and the module's $4 code in use
# (none for the C). Writes "NAME COUNT" a line, one per load, to $LOGS/modcheck-$5.txt.
_modcheck_boot() {
	local cpu=$1 params=$2 driver=$3 code=$4 out=$LOGS/modcheck-$5.txt
	local console=$LOGS/console-$KVER-$KNAME-modcheck-$5.log counts=$LOGS/modcheck-$5.insns rc=0
	rm -f "$counts"
	BOOT_APPEND="nokaslr modsign_rounds=$MODCHECK_ROUNDS $params" \
		BOOT_QEMU_EXTRA="-plugin $INSN_PLUGIN,out=$counts,$(_modcheck_span) -icount shift=0,sleep=off -smp 1" \
		boot_kernel "$cpu" "$console" "$MODCHECK/initramfs.cpio" || rc=$?
	# Every ML-DSA name served by the driver named, every module loaded each round
	# (so each signature verified), and one count per load, in the order of the loads.
	console_text "$console" | awk -v driver="$driver" -v code="$code" -v counts="$counts" \
		-v loads="$(($(find "$MODCHECK/modules" -name '*.ko' | wc -l) * MODCHECK_ROUNDS))" '
		$1 == "modsign:" && $2 == "crypto:" && $5 > prio[$3] { prio[$3] = $5; served[$3] = $4 }
		$1 == "modsign:" && $2 == "trying" { name[++n] = $3 }
		$1 == "modsign:" && $3 == "loaded" { loaded++ }
		code != "" && /^mldsa_rust: self-tests passed/ &&
			(index($0, "(" code " code)") || index($0, "(" code " + SHA-3 library Keccak-f code)")) { code_ok = 1 }
		END {
			for (a in served) if (served[a] != a "-" driver) bad = bad " " a " served by " served[a]; else algs++
			if (algs != 3) bad = bad " ML-DSA algorithms served by the driver: " algs + 0
			if (code != "" && !code_ok) bad = bad " not the " code " code"
			if (n != loads || loaded != loads) bad = bad " loaded " loaded " of " loads
			while ((getline line < counts) > 0) { split(line, f, " "); if (f[1] == 65535) c[++k] = f[2] }
			if (k != n) bad = bad " " k " counts for " n " loads"
			if (bad != "") { print "modcheck:" bad > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) print name[i], c[i]
		}' >"$out" || rc=1
	[ "$rc" = 0 ] || echo "FAILED: the module check counts, -cpu $cpu $params (console: $console)" >&2
	return "$rc"
}

# The whole module signature check on the x86_64 instruction-count kernel
# (tools/perf.config, selected by insn_counts): mod_verify_sig() from its call
# to its return, on a module of 64 KiB and of 4 MiB signed with each signer,
# loaded by module loading itself. Three boots on -cpu max (AVX2, and BMI2 for
# the x86 SHA-3 code that every path hashes the module with): with the module's
# initcall left out (initcall_blacklist), so that lib/crypto/mldsa.c's
# algorithms serve the ML-DSA names (and RSA-4096 and ECDSA-P384 are counted),
# with it (the AVX2 code), and with AVX2 off (the portable code). Prints a
# line per size and set, the least count of each module's loads, and what a
# byte more of module costs with each hash.
modcheck_counts() {
	phase "modcheck: test modules of 64 KiB and 4 MiB, signed, and their initramfs (log: $LOGS/modcheck.log)"
	logged modcheck _modcheck_initramfs
	_modcheck_boot max initcall_blacklist=__mldsa_rust_init lib "" c &&
		_modcheck_boot max "" rust AVX2 avx2 &&
		_modcheck_boot max,avx2=off "" rust portable portable || return 1
	phase "results: the module signature check, Linux $KVER x86_64 (counts: $LOGS/modcheck-*.txt)"
	awk -v k="Linux $KVER x86_64" '
		{ split(FILENAME, p, /modcheck-|\.txt/); run = p[2]; sub(/\.ko$/, "", $1)
		  if (!((run, $1) in min) || $2 < min[run, $1]) min[run, $1] = $2 }
		END {
			split("64 4096", sizes, " "); split("64 KiB,4 MiB", names, ",")
			for (s = 1; s <= 2; s++) for (nn = 44; nn <= 87; nn += (nn == 44 ? 21 : 22)) {
				m = sizes[s] "k-mldsa" nn; r = sizes[s] "k-rsa4096"; e = sizes[s] "k-ecdsa-p384"
				printf "module signature check, %s, %s, ML-DSA-%d: C %d, Rust portable %d, Rust AVX2 %d, RSA-4096 %d, ECDSA-P384 %d instructions\n",
					k, names[s], nn, min["c", m], min["portable", m], min["avx2", m], min["c", r], min["c", e]
			}
			# What each more byte of module costs: the hash over it.
			d = (sizes[2] - sizes[1]) * 1024
			printf "module signature check per byte of module, %s: SHAKE256 %.1f (ML-DSA-65, x86 SHA-3 code), SHA-256 %.1f (RSA-4096), SHA-384 %.1f (ECDSA-P384) instructions\n", k,
				(min["c", "4096k-mldsa65"] - min["c", "64k-mldsa65"]) / d,
				(min["c", "4096k-rsa4096"] - min["c", "64k-rsa4096"]) / d,
				(min["c", "4096k-ecdsa-p384"] - min["c", "64k-ecdsa-p384"]) / d
		}' "$LOGS/modcheck-c.txt" "$LOGS/modcheck-portable.txt" "$LOGS/modcheck-avx2.txt" |
		tee "$LOGS/modcheck-$KVER.summary"
}
