"""Limit rows: how long the shell takes to answer a hostile line, per fuzz class.

The lines are ``tests/machine/hostile_lines.json`` (ReDoS, glob backtracking, runaway
loops, huge widths, deep nesting, binary bytes, 5 MB lines); their budgets count simulated
work, and this group measures what that work costs on this host. Each row pools every line
of one class, each run several times on a fresh fork of the shell test machine; ``max_ms``
is the slowest single line. The reference engine has no equivalent lines (its shell would
spin on most of them), so these rows have no ratio.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from benchmarks.harness import Row, percentile

GROUP = "limits"
ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "machine" / "hostile_lines.json"


def run(quick: bool = False) -> list[Row]:
    sys.path.insert(0, str(ROOT / "tests" / "machine"))
    from shell_fixture import fixture_machine, fork_machine  # the machine the tests use

    template = fixture_machine().freeze()
    cases = json.loads(CASES.read_text())
    repeats = 1 if quick else 3
    by_class: dict[str, list[tuple[float, str]]] = {}
    for case in cases:
        for _ in range(repeats):
            machine = fork_machine(template)
            start = time.perf_counter_ns()
            machine.execute(case["line"])
            by_class.setdefault(case["class"], []).append(((time.perf_counter_ns() - start) / 1e6, case["line"]))
    rows = []
    for name, timed in by_class.items():
        times = [t for t, _ in timed]
        row = Row(GROUP, f"hostile shell lines: {name} ({len(timed) // repeats} lines)", "shell-fixture",
                  len(times), percentile(times, 0.5), percentile(times, 0.95))
        slowest, line = max(timed)
        row.extra.update(max_ms=slowest, slowest_line=line[:80])
        rows.append(row)
    return rows
