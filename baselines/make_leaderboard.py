"""Write ``baselines/LEADERBOARD.md`` from ``cwgym eval`` output directories.

    python -m baselines.make_leaderboard expert=runs/expert random=runs/random ppo=runs/ppo --out baselines/LEADERBOARD.md

Each ``NAME=DIR`` is one row: the agent's ``results.json`` (suite, factory, episodes,
success, mean reward, wall time) after ``cwgym verify`` has replayed every episode of the
submission in ``DIR`` without the agent. A submission that does not verify is refused: a
row is only ever a verified one. Each agent's per-task table and chart are copied next to
the page as ``leaderboard/NAME.md`` and ``leaderboard/NAME.png``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from cwgym.cli.verify import verify

__all__ = ["main", "render_page"]

NAMES = {"expert": "scripted expert", "random": "random"}


def _row(name: str, results: dict[str, Any]) -> str:
    overall = results["overall"]
    return (
        f"| {NAMES.get(name, name)} | `{results['agent']}` | {overall['episodes']} | {overall['success_rate']:.1%} "
        f"| {overall['task_success_rate']:.1%} | {overall['mean_reward']:.3f} | {results['wall_seconds']:.1f} s | verified "
        f"| [tasks](leaderboard/{name}.md) |"
    )


def render_page(rows: list[tuple[str, dict[str, Any]]], notes: str | None) -> str:
    """The Markdown page of ``(name, results.json)`` pairs, all of one suite."""
    first = rows[0][1]
    suite = first["suite"]
    tasks = len(first["tasks"])
    episodes = first["overall"]["episodes"]
    lines = [
        f"# Leaderboard: `{suite}`",
        "",
        f"The suite is `envs/{suite}.json`: {tasks} tasks, {episodes} episodes on seeds fixed by the suite from each",
        "env's held-out test range. Every row is produced by `cwgym eval` (the agent in its own process,",
        "seeing only observations) and checked with `cwgym verify` (every episode replayed without the agent,",
        "every score and final state hash recomputed); this page is written by `python -m baselines.make_leaderboard`.",
        f"Engine {first['engine_version']}, cwgym {first['cwgym_version']}.",
        "",
        "| agent | factory | episodes | success | mean task success | mean reward | eval wall time | `cwgym verify` | per task |",
        "|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    lines += [_row(name, results) for name, results in rows]
    lines += ["", "Commands (from the repository root):", "", "```text"]
    for name, results in rows:
        lines += [f"cwgym eval --agent {results['agent']} --suite {suite} --out runs/{name}", f"cwgym verify runs/{name}"]
    lines += ["```", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.make_leaderboard", description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="+", help="NAME=DIR: a cwgym eval --out directory")
    parser.add_argument("--out", type=Path, default=Path("baselines/LEADERBOARD.md"))
    parser.add_argument("--notes", type=Path, help="a Markdown file appended to the page")
    parser.add_argument("--suite", help="verify against this suite (name or path) instead of the one each submission names")
    args = parser.parse_args(argv)
    tables = args.out.parent / "leaderboard"
    tables.mkdir(parents=True, exist_ok=True)
    rows = []
    for item in args.rows:
        name, sep, folder = item.partition("=")
        if not sep or not name or not folder:
            print(f"make_leaderboard: {item!r} is not NAME=DIR", file=sys.stderr)
            return 2
        directory = Path(folder)
        problems = verify(directory, args.suite)
        if problems:
            print(f"make_leaderboard: {directory} does not verify: {problems[0]}", file=sys.stderr)
            return 1
        results = json.loads((directory / "results.json").read_text())
        if rows and results["suite"] != rows[0][1]["suite"]:
            print(f"make_leaderboard: {directory} ran suite {results['suite']}, not {rows[0][1]['suite']}", file=sys.stderr)
            return 2
        rows.append((name, results))
        shutil.copyfile(directory / "results.md", tables / f"{name}.md")
        if (directory / "results.png").exists():
            shutil.copyfile(directory / "results.png", tables / f"{name}.png")
    notes = args.notes.read_text() if args.notes else None
    args.out.write_text(render_page(rows, notes))
    print(f"wrote {args.out} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
