# Upstream hygiene of the module and the patches, counted.
# shellcheck shell=bash

# Upstream hygiene, counted: scripts/checkpatch.pl --strict (Linux 7.3's) on the
# module's C, headers and assembly and on every patch; rustfmt with the kernel's
# .rustfmt.toml on the module's Rust and that of tools/compile-fail and
# tools/kernel; clippy and rustdoc of each kernel's x86_64
# build (kernel_lints); the compiler's warnings on the module's own files in every
# kernel build of the run (each config compiles other code: s390, KASAN, the
# benchmark; a clean clone's files are newer than the cached objects, so every
# build recompiles the module); cargo clippy --all-targets on tools/; and the raw
# C API uses (`bindings::`) and `unsafe` left in the module's non-test Rust
# (comments not counted), and the code lines of the core (CORE_FILES). Fails
# unless every finding count is 0.
# The Rust files that rustfmt, with the .rustfmt.toml of kernel tree $1, would
# change, one a line: the module's (through mldsa_main.rs), and those of
# tools/compile-fail and tools/kernel, each read from standard input (as a file,
# rustfmt would look for the modules it declares, which are elsewhere).
rustfmt_diffs() {
	local fmt=(rustfmt --edition 2021 --config-path "$1/.rustfmt.toml" --check) f
	cd "$REPO" || return 1
	"${fmt[@]}" mldsa_main.rs 2>&1 | { grep -E '^Diff in' || true; } | cut -d' ' -f3 || true
	for f in tools/compile-fail/*.rs $(find tools/kernel -name '*.rs'); do
		"${fmt[@]}" <"$f" 2>&1 | grep -c '^Diff in' >/dev/null && echo "$f"
	done
	return 0
}

# The verifier's algorithm files, which know nothing of the kernel: the core.
# arch.rs, the seam to the arch code, is not one of them.
CORE_FILES=(params.rs ntt.rs poly.rs keccak.rs mldsa_verify.rs)

# checkpatch asks of each patch that adds a file "does MAINTAINERS need
# updating?" (FILE_PATH_CHANGES). Drops that question from the warnings on stdin
# where the answer is no (see maintained).
answer_path_changes() {
	local line
	while IFS= read -r line; do
		if [[ $line == *": WARNING:FILE_PATH_CHANGES:"* ]] && maintained "${line%%:*}"; then
			continue
		fi
		echo "$line"
	done
}

# Whether MAINTAINERS, in the tree of patch $1's kernel with the series applied,
# gives each file that the patch adds a section besides THE REST.
maintained() {
	local tree f
	tree=$CACHE/src/linux-source-$(basename "$(dirname "$1")")
	for f in $(awk '/^--- \/dev\/null$/ { getline; sub(/^\+\+\+ b\//, ""); print }' "$1"); do
		(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
			--subsystem -f "$f" 2>/dev/null) | grep -v '@' | grep -qvx 'THE REST' || return 1
	done
}

hygiene_counts() {
	local k=$CACHE/src/linux-source-7.3 checkpatch rustfmt_files nb nu core cargo_clippy=0 c v
	local rust lints=() bad l build_warnings
	# The module's Rust, less its KUnit suite.
	rust=$(cd "$REPO" && ls ./*.rs arch/*.rs mldsa_api/*.rs selftest/*.rs | grep -vx ./tests.rs)
	# From the kernel tree: run inside this git checkout, checkpatch looks at git's view.
	checkpatch=$(cd "$k" && {
		perl scripts/checkpatch.pl --strict --terse --show-types -f "$REPO"/exports.c \
			"$REPO"/tests/*.[ch] "$REPO"/selftest/*.h "$REPO"/arch/x86/*.S "$REPO"/arch/s390/*.[Sch]
		# The patches, not the cover letters, which have no diff to check.
		ls "$REPO"/tools/patches/*/*.patch | grep -v '/0000-cover-letter\.patch$' |
			xargs perl scripts/checkpatch.pl --strict --terse --show-types || true
	} 2>/dev/null | { grep -E ': (ERROR|WARNING|CHECK):' || true; } | answer_path_changes | wc -l)
	rustfmt_files=$(rustfmt_diffs "$k" | sort -u | wc -l)
	for c in host modsign; do
		cargo clippy --all-targets --release --manifest-path "$REPO/tools/$c/Cargo.toml" \
			>"$LOGS/cargo-clippy-$c.log" 2>&1 || echo "error: cargo clippy failed" >>"$LOGS/cargo-clippy-$c.log"
		cargo_clippy=$((cargo_clippy + $(count_diagnostics "$LOGS/cargo-clippy-$c.log")))
	done
	# rustc names the file of a diagnostic on a "-->" line, gcc and clang at its start,
	# objtool the object file.
	build_warnings=$(cat "$LOGS"/build-*.log | { grep -cE \
		'^\s*--> .*/crypto/mldsa/|/crypto/mldsa/[^: ]+:[0-9]+:[0-9]+: (warning|error):|^crypto/mldsa/[^ ]+: warning: objtool:' || true; })
	bad=$((checkpatch + rustfmt_files + cargo_clippy + build_warnings))
	for v in 6.12 7.3; do
		l=$(cat "$LOGS/lints-$v" 2>/dev/null) || l="clippy ?, rustdoc ?"
		lints+=("Linux $v x86_64 $l")
		[ "$l" = "clippy 0, rustdoc 0" ] || bad=$((bad + 1))
	done
	nb=$(cd "$REPO" && cat $rust | grep -vE '^\s*//' | { grep -o 'bindings::' || true; } | wc -l)
	nu=$(cd "$REPO" && cat $rust | grep -vE '^\s*//' | { grep -ow 'unsafe' || true; } | wc -l)
	# Lines that are neither blank nor comments.
	core=$(cd "$REPO" && cat "${CORE_FILES[@]}" | grep -cvE '^\s*($|//)')
	echo "hygiene: checkpatch --strict $checkpatch, rustfmt $rustfmt_files," \
		"${lints[0]}, ${lints[1]}, compiler warnings on the module in the kernel builds" \
		"$build_warnings, cargo clippy (tools/) $cargo_clippy;" \
		"module non-test Rust: bindings:: $nb, unsafe $nu;" \
		"core (${CORE_FILES[*]%.rs}) $core code lines" | tee "$LOGS/hygiene.txt"
	if [ "$bad" != 0 ]; then
		echo "FAILED: hygiene: every count of findings must be 0 (logs: $LOGS)" >&2
		return 1
	fi
}
