"""``cwgym verify``: replay a submission without the agent and recompute every score.

    cwgym verify runs/expert

Reads ``DIR/submission.json`` (and ``DIR/results.json`` when present), and for every
episode: checks its engine version, that its env's configuration, world and procedure are
the registered ones, that its seed is one the suite fixes for that task (and no seed is
played twice); replays its action log in a fresh env; and compares the recomputed
per-step rewards, return, steps, success and final state hash with the recorded ones. The
scores in ``results.json`` must be what the episodes summarize to. The first mismatch of
each episode is reported naming the episode; any mismatch exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cwgym._version import engine_version
from cwgym.cli.eval import SUBMISSION_FORMAT, load_suite, replay_episode, suite_seeds, summarize

__all__ = ["verify"]

COMPARED = ("world", "procedure", "machine", "config", "max_episode_steps", "rewards", "return", "steps", "success", "terminated", "truncated", "families", "final_state_hash")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("verify", help="replay a submission without the agent and recompute its scores")
    parser.add_argument("dir", help="a directory cwgym eval wrote (submission.json, results.json)")
    parser.add_argument("--suite", help="verify against this suite (name or path) instead of the one the submission names")
    parser.set_defaults(run=run)


def _episode_problems(record: dict[str, Any], allowed: dict[str, set[int]] | None, seen: set[str]) -> list[str]:
    name = record.get("episode", "?")
    env_id, seed = record.get("env_id"), record.get("seed")
    if name != f"{env_id}#{seed}":
        return [f"episode {name}: its name does not match env {env_id} seed {seed}"]
    if name in seen:
        return [f"episode {name}: played twice"]
    seen.add(name)
    if record.get("engine_version") != engine_version:
        return [f"episode {name}: engine version {record.get('engine_version')} is not this engine's {engine_version}"]
    if allowed is not None and (env_id not in allowed or seed not in allowed[env_id]):
        return [f"episode {name}: seed {seed} is not a seed the suite fixes for {env_id}"]
    try:
        replayed = replay_episode(record)
    except Exception as exc:
        return [f"episode {name}: the replay failed: {type(exc).__name__}: {exc}"]
    problems = []
    for key in COMPARED:
        if record.get(key) != replayed[key]:
            problems.append(f"episode {name}: {key} recorded {_short(record.get(key))}, replay gives {_short(replayed[key])}")
    return problems


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def verify(directory: Path, suite: str | None = None, progress: bool = False) -> list[str]:
    """Every problem with the submission in ``directory`` (empty when it verifies).

    The seeds are checked against ``suite`` (a leaderboard suite's name under ``envs/`` or a path), by
    default the suite the submission names, looked up by name: a submission cannot bring
    its own suite file.
    """
    try:
        submission = json.loads((directory / "submission.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        return [f"no readable submission.json in {directory} ({exc})"]
    if submission.get("format") != SUBMISSION_FORMAT:
        return [f"submission format {submission.get('format')!r} is not {SUBMISSION_FORMAT}"]
    allowed = None
    try:
        fixed = load_suite(suite or submission["suite"])
        allowed = {t["env"]: set(suite_seeds(fixed, t)) for t in fixed["tasks"]}
    except (SystemExit, KeyError) as exc:
        return [f"the submission's suite {submission.get('suite')!r} cannot be loaded ({exc})"]
    problems: list[str] = []
    seen: set[str] = set()
    episodes = submission.get("episodes", [])
    from tqdm import tqdm

    for record in tqdm(episodes, desc="verify", unit="ep", disable=not progress):
        problems.extend(_episode_problems(record, allowed, seen))
    results_path = directory / "results.json"
    if results_path.exists():
        results = json.loads(results_path.read_text())
        summary = summarize(episodes)
        by_id = {r["env_id"]: r for r in summary["tasks"]}
        for row in results.get("tasks", []):
            expected = by_id.get(row.get("env_id"))
            if expected != row:
                problems.append(f"results.json task {row.get('env_id')}: scores {_short(row)} are not what its episodes give {_short(expected)}")
        if results.get("overall") != summary["overall"]:
            problems.append(f"results.json overall: {_short(results.get('overall'))} is not what the episodes give {_short(summary['overall'])}")
    return problems


def run(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    problems = verify(directory, args.suite, progress=True)
    if problems:
        for p in problems:
            print(f"cwgym verify: {p}", file=sys.stderr)
        print(f"cwgym verify: REJECTED {directory} ({len(problems)} problem(s))", file=sys.stderr)
        return 1
    count = len(json.loads((directory / "submission.json").read_text())["episodes"])
    print(f"cwgym verify: {directory}: {count} episodes replayed; every score and final state hash matches")
    return 0
