#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the consumer cases in a console log (tools/consumers/init.sh, cases).

  check.py CASES CONSOLE KERNELS CONSUMERS WHAT PROBE...

Every case of CASES for one of KERNELS (comma-separated: "all" and the Linux version, 6.12
or 7.3, or "unloaded" with consumers=unloaded), of CONSUMERS ("all", or comma-separated
names as consumers_only gives them), must have run once, with its outcome and exactly its
verifier calls, and each of the kretprobes PROBE... must have been placed: without them no
call is seen, and a case that expects none would pass unseen. Prints each difference, then one line per
consumer, "consumer NAME, WHAT: N passed, N failed", and exits non-zero on any failure.
"""

import errno
import os
import re
import sys


def expected(path, kernels, consumers):
    """The cases of file path for kernels and consumers, in order: (consumer, case, outcome,
    calls)."""
    cases = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            consumer, case, kernel, outcome, calls = line.split()[:5]
            if kernel in kernels and (consumers == ["all"] or consumer in consumers):
                cases.append((consumer, case, outcome, calls))
    return cases


def outcome(result):
    """An init.sh result ("ok", "ok VALUE", "refused: STRERROR") as a cases outcome."""
    if result == "ok" or result.startswith("ok "):
        return result[3:] or "ok"
    names = {os.strerror(n): name for n, name in errno.errorcode.items()}
    message = result.removeprefix("refused: ")
    return names.get(message, result)


def main(cases_path, console, kernels, consumers, what, probes):
    text = open(console, errors="replace").read()
    lines = [re.sub(r"^\[ *[0-9.]+\] ", "", line.rstrip("\r")) for line in text.split("\n")]
    ran = {}
    for line in lines:
        m = re.match(r"consumers: case (\S+) (\S+): (.*); calls: (\S+)$", line)
        if m:
            ran.setdefault((m[1], m[2]), []).append((outcome(m[3]), m[4]))
    placed = {m[1] for line in lines if (m := re.match(r"consumers: probe (\S+): (?!none$)", line))}
    missing = sorted(set(probes) - placed)
    for probe in missing:
        print(f"FAILED: no kretprobe {probe}")
    done = "consumers: done" in lines
    if not done:
        print("FAILED: tools/consumers/init.sh did not run to its end")
    counts = {}
    for consumer, case, want, calls in expected(cases_path, kernels.split(","),
                                                consumers.split(",")):
        got = ran.pop((consumer, case), [])
        ok = got == [(want, calls)]
        if not ok:
            print(f"FAILED: {consumer} {case}: got {got or 'nothing'}, want [{(want, calls)}]")
        counts.setdefault(consumer, [0, 0])[0 if ok else 1] += 1
    for consumer, case in ran:
        print(f"FAILED: {consumer} {case}: not a case of {cases_path}")
        counts.setdefault(consumer, [0, 0])[1] += 1
    for consumer, (passed, failed) in counts.items():
        failed += len(missing) + (not done)
        print(f"consumer {consumer}, {what}: {passed} passed, {failed} failed")
    return 1 if missing or not done or any(f for _, f in counts.values()) else 0


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:6], sys.argv[6:]))
