"""Machine rows: terminal steps through the full actor boundary, text tools at scale,
filesystem steps. Each runs on cwgym and, where installed, on the reference engine."""

from __future__ import annotations

import copy

from benchmarks.harness import Row, measure, reference_engine
from benchmarks.worlds import default_world
from cwgym import World

GROUP = "machine"
M = "workstation"
CONFIG = {"actor": "ada", "machines": [M], "actions": ["terminal.v1", "filesystem.v1"], "observations": ["terminal.v1"]}


def _world_with_data() -> dict:
    """The default world plus a 1 MB log and a 10,000-line CSV to run text tools over."""
    definition = copy.deepcopy(default_world())
    files = definition["computers"][0]["initial_files"]
    lines = []
    size = 0
    i = 0
    while size < 1_000_000:
        level = ("INFO", "WARN", "ERROR")[i % 7 % 3]
        line = f"2026-09-17 09:{i // 60 % 60:02d}:{i % 60:02d} {level} request {i} served in {i * 13 % 997} ms\n"
        lines.append(line)
        size += len(line)
        i += 1
    files["data/big.log"] = "".join(lines)
    files["data/sales.csv"] = "id,region,amount\n" + "".join(f"{n},r{n % 7},{n * 31 % 1000}\n" for n in range(10_000))
    return definition


def sh(command: str) -> dict:
    return {"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": command}}


STEPS = [
    ("terminal step: pwd", sh("pwd")),
    ("terminal step: echo hello", sh("echo hello")),
    ("terminal step: 3-stage pipeline", sh("cat notes.txt | tr a-z A-Z | wc -c")),
    ("terminal step: grep over a 1 MB file", sh("grep -c ERROR data/big.log")),
    ("terminal step: awk sum over 10,000 CSV lines", sh("awk -F, 'NR>1{s+=$3} END{print s}' data/sales.csv")),
    ("filesystem step: read", {"family": "filesystem.v1", "op": "read", "machine": M, "payload": {"path": "notes.txt"}}),
    ("filesystem step: write", {"family": "filesystem.v1", "op": "write", "machine": M, "payload": {"path": "out.txt", "content": "x" * 100}}),
]


def run(quick: bool = False) -> list[Row]:
    ref = reference_engine()
    definition = _world_with_data()
    rows = []
    for name, action in STEPS:
        heavy = "1 MB" in name or "10,000" in name
        n = (10 if heavy else 100) if quick else (40 if heavy else 1000)

        def ours(action=action):
            env = World(definition, 7).environment(CONFIG)
            return lambda: env.step([action])

        def theirs(action=action):
            env = ref.World(definition, 7).environment(CONFIG)
            return lambda: env.step([action])

        rows.append(measure(GROUP, name, "default+data", ours, n, theirs if ref else None))
    return rows
