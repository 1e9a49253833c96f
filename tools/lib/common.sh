# The ground floor of the tools: where things are, phases and logs.
# Sourced, not executed, first of tools/lib/*.sh.
# shellcheck shell=bash

set -euo pipefail
# Nothing here reads standard input; rustc probes read theirs (`rustc -`), so
# never let them see the caller's.
exec </dev/null

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything big lives outside the repository and is reused between runs.
CACHE=${MLDSA_CACHE:-$HOME/.cache/mldsa}
LOGS=$CACHE/logs
mkdir -p "$LOGS"
# The cargo builds of tools/ too, so that a fresh clone (as CI makes) reuses them.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$CACHE/target}

T0=$(date +%s)
phase() { printf '== [%4ss] %s\n' "$(($(date +%s) - T0))" "$*"; }

# Run "$@" with output in $LOGS/$1.log; on failure show its tail.
logged() {
	local name=$1
	shift
	if ! "$@" >"$LOGS/$name.log" 2>&1; then
		tail -n 40 "$LOGS/$name.log"
		echo "FAILED: $name (full log: $LOGS/$name.log)" >&2
		return 1
	fi
}

# Flips the lowest bit of byte $2 of file $1.
flip_byte() {
	python3 -c 'import sys; f = open(sys.argv[1], "r+b"); n = int(sys.argv[2]); f.seek(n)
b = f.read(1)[0]; f.seek(n); f.write(bytes([b ^ 1]))' "$1" "$2"
}
