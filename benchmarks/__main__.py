"""Run every ``benchmarks/bench_*.py`` group (or those named) and write the results.

    python -m benchmarks              # all groups
    python -m benchmarks core shell   # some groups
    python -m benchmarks --quick      # fewer repetitions, for a smoke run
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from pathlib import Path

from benchmarks.harness import fmt, write


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("groups", nargs="*", help="groups to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    folder = Path(__file__).parent
    modules = sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))
    for name in modules:
        module = importlib.import_module(f"benchmarks.{name}")
        if args.groups and module.GROUP not in args.groups:
            continue
        rows = module.run(quick=args.quick)
        path = write(module.GROUP, rows)
        print(f"== {module.GROUP} -> {path}")
        for r in rows:
            ratio = f"  ratio {r.ratio:.3g}x" if r.ratio else ""
            ratio += f"  max {fmt(r.extra['max_ms'], r.unit)}" if "max_ms" in r.extra else ""
            print(f"  {r.name:<70} {r.world:<10} p50 {fmt(r.p50_ms, r.unit):>12}  p95 {fmt(r.p95_ms, r.unit):>12}{ratio}")


if __name__ == "__main__":
    main()
