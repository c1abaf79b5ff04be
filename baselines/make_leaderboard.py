"""Write ``baselines/LEADERBOARD.md`` from ``cwgym eval`` output directories.

    python -m baselines.make_leaderboard expert=runs/expert random=runs/random ppo=runs/ppo --out baselines/LEADERBOARD.md

Each ``NAME=DIR`` is one row: the agent's ``results.json`` (suite, factory, episodes,
success, mean reward, wall time, what the agent was told) after ``cwgym verify`` has
replayed every episode of the submission in ``DIR`` without the agent. A submission that
does not verify is refused: a row is only ever a verified one. Rows of a hidden split need
its secret (``--secret-file`` or ``--secret-env``), as ``cwgym verify`` does. Each agent's per-task table and chart are copied next to
the page as ``leaderboard/NAME.md`` and ``leaderboard/NAME.png`` (``--tables`` names another
folder, one per page: ``leaderboard-v1`` for ``LEADERBOARD-v1.md``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from cwgym.cli.eval import add_secret_options, secret_of
from cwgym.cli.verify import verify
from cwgym.leaderboard.splits import SecretError

__all__ = ["main", "render_page"]

NAMES = {"expert": "scripted expert", "random": "random"}
VIEWS = {"sealed": "sealed", "privileged": "privileged: told the task and its seed"}


def _row(name: str, results: dict[str, Any], tables: str = "leaderboard") -> str:
    overall = results["overall"]
    return (
        f"| {NAMES.get(name, name)} | `{results['agent']}` | {overall['episodes']} | {overall['success_rate']:.1%} "
        f"| {overall['task_success_rate']:.1%} | {overall['mean_reward']:.3f} | {results['wall_seconds']:.1f} s | verified "
        f"| {VIEWS[results['agent_view']]} | [tasks]({tables}/{name}.md) |"
    )


def render_page(rows: list[tuple[str, dict[str, Any]]], notes: str | None, tables: str = "leaderboard") -> str:
    """The Markdown page of ``(name, results.json)`` pairs, all of one suite."""
    first = rows[0][1]
    suite = first["suite"]
    tasks = len(first["tasks"])
    episodes = first["overall"]["episodes"]
    hidden = first["split"]["kind"] == "hidden"
    seeds = (
        f"a hidden split of each env's held-out test range (secret sha256 `{first['split']['secret_sha256'][:16]}`)"
        if hidden
        else "seeds fixed by the suite from each env's held-out test range"
    )
    lines = [
        f"# Leaderboard: `{suite}`",
        "",
        f"The suite is `envs/{suite}.json`: {tasks} tasks, {episodes} episodes on {seeds}.",
        "Every row is produced by `cwgym eval` (the agent in its own process, exchanging plain data with the",
        "evaluator) and checked with `cwgym verify` (every episode replayed without the agent, every score and",
        "final state hash recomputed); this page is written by `python -m baselines.make_leaderboard`. A sealed",
        "agent is told the instruction and sees observations, rewards and the allow-listed `info`; a privileged",
        "one (a reference, such as the scripted expert) is also told the env, procedure and seed.",
        f"Engine {first['engine_version']}, cwgym {first['cwgym_version']}.",
        "",
        "| agent | factory | episodes | success | mean task success | mean reward | eval wall time | `cwgym verify` | agent view | per task |",
        "|---|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    lines += [_row(name, results, tables) for name, results in rows]
    lines += ["", "Commands (from the repository root):", "", "```text"]
    secret = " --secret-file SECRET" if hidden else ""
    for name, results in rows:
        privileged = " --privileged" if results["agent_view"] == "privileged" else ""
        lines += [f"cwgym eval --agent {results['agent']} --suite {suite} --out runs/{name}{privileged}{secret}", f"cwgym verify runs/{name}{secret}"]
    lines += ["```", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.make_leaderboard", description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="+", help="NAME=DIR: a cwgym eval --out directory")
    parser.add_argument("--out", type=Path, default=Path("baselines/LEADERBOARD.md"))
    parser.add_argument("--notes", type=Path, help="a Markdown file appended to the page")
    parser.add_argument("--tables", default="leaderboard",
                        help="the folder next to the page for each agent's per-task table (one per page: leaderboard-v1 for LEADERBOARD-v1.md)")
    parser.add_argument("--suite", help="verify against this suite (name or path) instead of the one each submission names")
    add_secret_options(parser, "the rows were played on")
    args = parser.parse_args(argv)
    try:
        secret = secret_of(args)
    except SecretError as exc:
        print(f"make_leaderboard: {exc}", file=sys.stderr)
        return 2
    tables = args.out.parent / args.tables
    tables.mkdir(parents=True, exist_ok=True)
    rows = []
    for item in args.rows:
        name, sep, folder = item.partition("=")
        if not sep or not name or not folder:
            print(f"make_leaderboard: {item!r} is not NAME=DIR", file=sys.stderr)
            return 2
        directory = Path(folder)
        problems = verify(directory, args.suite, secret)
        if problems:
            print(f"make_leaderboard: {directory} does not verify: {problems[0]}", file=sys.stderr)
            return 1
        results = json.loads((directory / "results.json").read_text())
        if rows and (results["suite"], results["split"]) != (rows[0][1]["suite"], rows[0][1]["split"]):
            print(f"make_leaderboard: {directory} ran suite {results['suite']} on another split than {rows[0][0]}", file=sys.stderr)
            return 2
        rows.append((name, results))
        shutil.copyfile(directory / "results.md", tables / f"{name}.md")
        if (directory / "results.png").exists():
            shutil.copyfile(directory / "results.png", tables / f"{name}.png")
    notes = args.notes.read_text() if args.notes else None
    args.out.write_text(render_page(rows, notes, args.tables))
    print(f"wrote {args.out} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
