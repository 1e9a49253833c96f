#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse the KTAP output of a KUnit boot log and report per-suite results.

The log may hold several KTAP documents: the suites built in, then those of
each module that runs its suites as it loads.

Usage: ktap.py [--expect SUITE]... CONSOLE_LOG

Prints one line per suite, the log of every failed or missing case, and a last
line "N passed, N failed" counting KUnit cases (skipped cases are neither).
Exits 1 if any case failed, a planned case or suite never reported (crash or
timeout), an expected suite is absent, there is no KTAP output at all, or the
kernel panicked or oopsed.
"""

import argparse
import re
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ?")
VERSION = re.compile(r"^(K?TAP) version \d+$")
PLAN = re.compile(r"^1\.\.(\d+)$")
RESULT = re.compile(r"^(ok|not ok) (\d+)(?: -)?(?: ([^#]*?))?\s*(?:#\s*(SKIP|TODO)\b.*)?$")
SUBTEST = re.compile(r"^# Subtest: (.*)$")
CRASH = re.compile(
    r"Kernel panic|BUG:|Oops|general protection fault|Call Trace:|"
    r"kernel BUG at|WARNING: CPU:|rust_panic|panicked at"
)
# warn_alloc()'s report of a failed allocation (the fault-injection case makes
# them): its stack dump, up to </TASK>, is no crash.
ALLOC_FAILURE = re.compile(r": (vmalloc error|page allocation failure): ")
# A case that makes a WARN() on purpose announces it with "expected WARNING at
# F" (F the source file of the WARN): the next WARNING, if it is from F, is no
# crash, up to its "---[ end trace" line. If the case reports its result first,
# the missing warning counts as a crash.
EXPECTED_WARNING = re.compile(r"# [^:]*: expected WARNING at (\S+)$")
WARNING_IN = re.compile(r"WARNING: CPU: .* at (\S+):\d+ ")
END_TRACE = re.compile(r"---\[ end trace ")


class Test:
    """One KTAP test: a suite (has children) or a case (a leaf)."""

    def __init__(self, indent, name=""):
        self.indent = indent
        self.name = name
        self.plan = None
        self.children = []  # finished subtests, in order
        self.ok = None  # None: no result line seen (crashed or still running)
        self.skip = False
        self.log = []


def parse(lines):
    """Returns (root, crash_lines, seen_ktap)."""
    root = Test(-1, "(top)")
    stack = [root]
    pending = []  # lines since the last result, for the next result's log
    crash = []
    seen = False
    alloc_failure = False
    expected = None  # the source file of an announced warning not yet seen
    in_expected = False  # within the report of an expected warning
    for raw in lines:
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        m = EXPECTED_WARNING.search(line)
        w = WARNING_IN.search(line)
        if m:
            expected = m.group(1)
        elif w and expected == w.group(1):
            expected, in_expected = None, True
        elif in_expected:
            in_expected = not END_TRACE.search(line)
        elif ALLOC_FAILURE.search(line):
            alloc_failure = True
        elif line.strip() == "</TASK>":
            alloc_failure = False
        elif CRASH.search(line) and not (alloc_failure and line == "Call Trace:"):
            crash.append(line)
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if VERSION.match(body):
            seen = True
            # A new (sub)test at this indentation.
            while stack[-1].indent >= indent and len(stack) > 1:
                orphan = stack.pop()
                stack[-1].children.append(orphan)
            stack.append(Test(indent))
            continue
        if not seen:
            continue
        top = stack[-1]
        m = SUBTEST.match(body)
        if m and indent == top.indent:
            top.name = m.group(1).strip()
            continue
        m = PLAN.match(body)
        if m and indent == top.indent and top.plan is None:
            top.plan = int(m.group(1))
            continue
        m = RESULT.match(body)
        if m and expected:
            crash.append("expected WARNING in %s did not come" % expected)
            expected = None
        if m and any(t.indent == indent for t in stack):
            ok, _, name, directive = m.groups()
            name = (name or "").strip()
            # Close subtests deeper than this result: their result is this line.
            while stack[-1].indent > indent:
                done = stack.pop()
                stack[-1].children.append(done)
            parent = stack[-1]
            last = parent.children[-1] if parent.children else None
            if (
                last is not None
                and last.ok is None
                and last.indent > indent
                and (last.name == name or not last.name)
            ):
                test = last  # a suite whose lines we already parsed
                test.name = test.name or name
            else:
                test = Test(indent + 4, name)
                parent.children.append(test)
            test.ok = ok == "ok"
            test.skip = directive == "SKIP"
            test.log = pending
            pending = []
            continue
        pending.append(line)
    # Whatever is still open at the end never reported: crashed or timed out.
    while len(stack) > 1:
        orphan = stack.pop()
        stack[-1].children.append(orphan)
    # A still-open suite is attached as a child; the log after it is its log.
    if pending:
        for t in reversed(list(walk(root))):
            if t.ok is None:
                t.log += pending
                break
    return root, crash, seen


def walk(test):
    for c in test.children:
        yield c
        yield from walk(c)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--expect", action="append", default=[], help="suite that must be present")
    ap.add_argument("log")
    args = ap.parse_args()
    with open(args.log, errors="replace") as f:
        root, crash, seen = parse(f)

    passed = failed = skipped = 0
    errors = []
    if not seen:
        errors.append("no KTAP output (kernel did not reach KUnit, or KUnit is disabled)")
        failed += 1
    # One KTAP document from the suites built in, then one from each module whose
    # suites ran as it loaded.
    suites = []
    for ktap in root.children:
        if ktap.plan is None:
            errors.append("no KTAP plan")
            failed += 1
        elif len(ktap.children) < ktap.plan:
            errors.append(f"KTAP plan says {ktap.plan} suites, only {len(ktap.children)} started")
            failed += ktap.plan - len(ktap.children)
        suites += ktap.children

    def report(test, path):
        nonlocal passed, failed, skipped
        p = f = s = 0
        if test.children:
            for c in test.children:
                cp, cf, cs = report(c, f"{path}.{c.name}")
                p, f, s = p + cp, f + cf, s + cs
            missing = (test.plan or 0) - len(test.children)
            if missing > 0:
                errors.append(f"{path}: {missing} planned case(s) never reported")
                f += missing
            if test.ok is None:
                errors.append(f"{path}: no result line (crashed or timed out); its last lines:")
                errors.extend(f"    | {line}" for line in test.log[-20:] if line.strip())
                f += f == 0
            elif not test.ok and f == 0:
                errors.append(f"{path}: suite failed")
                f += 1
        else:
            if test.ok is None:
                if test.plan is not None or test.name:
                    errors.append(f"{path}: no result (crashed or timed out)")
                else:
                    errors.append(f"{path}: started but empty (crashed or timed out)")
                f = 1
            elif test.skip:
                s = 1
            elif test.ok:
                p = 1
            else:
                f = 1
            if f:
                errors.append(f"{path}: FAILED; its log:")
                errors.extend(f"    | {line}" for line in test.log if line.strip())
        return p, f, s

    for suite in suites:
        name = suite.name or "(unnamed)"
        p, f, s = report(suite, name)
        passed, failed, skipped = passed + p, failed + f, skipped + s
        status = "ok" if f == 0 and suite.ok else "FAILED"
        print(f"suite {name}: {p} passed, {f} failed, {s} skipped: {status}")

    names = {s.name for s in suites}
    for want in args.expect:
        if want not in names:
            errors.append(f"expected suite {want} is missing")
            failed += 1
        elif not any(
            c.ok is not None for s in suites if s.name == want for c in walk(s)
        ):
            errors.append(f"expected suite {want} ran no case")
            failed += 1
    if crash:
        errors.append("kernel crash on the console:")
        errors.extend(f"    | {line}" for line in crash[:20])
        failed += failed == 0

    for e in errors:
        print(e)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
