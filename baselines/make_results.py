"""Write ``baselines/RESULTS.md`` from ``cwgym train`` run directories.

    python -m baselines.make_results runs/ppo-open-app runs/ppo-close-window ... --out baselines/RESULTS.md

For every run it reads ``train.json`` (command, seed, wall time, machine, versions and the
trained policy's success on the env's first held-out test seeds), copies
``learning_curve.png`` next to the page as ``results/<run>.png``, and measures the random
agent (:mod:`baselines.random_agent`, seed 0) on exactly the same test seeds, so the two
success rates in a row are comparable. ``--notes FILE`` appends a Markdown file verbatim
(what was tried on tasks that did not learn). Nothing in the page is typed by hand.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym

from baselines.random_agent import RandomAgent

__all__ = ["main", "random_success", "render_page"]

TARGET = 0.9
RANDOM_CEILING = 0.1


def random_success(env_id: str, seeds: range, agent_seed: int = 0) -> float:
    """The random agent's success rate over ``seeds`` of ``env_id``."""
    import cwgym.rl  # noqa: F401  (registers the ids)

    env = gym.make(env_id)
    agent = RandomAgent(agent_seed)
    task = {"action_space": env.action_space}
    successes = 0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        agent.reset(task, obs, info)
        reward = 0.0
        while True:
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, reward, info))
            if terminated or truncated:
                successes += bool(info["verification"].get("passed"))
                break
    env.close()
    return successes / len(seeds)


def _row(name: str, report: dict[str, Any], random_rate: float) -> str:
    test = report["test"]
    lo, hi = test["test_seeds"]
    rate = test["success_rate"]
    verdict = "yes" if rate >= TARGET and random_rate <= RANDOM_CEILING and report["wall_seconds"] <= 1800 else "no"
    algo = report["algo"].upper()
    if report.get("bc"):
        algo += f" after cloning {report['bc']['episodes']} expert episodes"
    return (
        f"| `{report['env']}` | {algo} | {report['reward']} | {report['steps']:,} | {report['n_envs']} ({report['vec']}) "
        f"| {report['seed']} | {report['wall_seconds'] / 60:.1f} min | **{rate:.0%}** | {random_rate:.0%} | {lo}–{hi - 1} ({test['episodes']}) "
        f"| {verdict} | [curve](results/{name}.png) |"
    )


def render_page(runs: list[tuple[str, dict[str, Any], float]], notes: str | None) -> str:
    """The Markdown page of ``(run name, train.json, random success)`` triples."""
    first = runs[0][1]
    machine = first["machine"]
    lines = [
        "# Baseline results",
        "",
        "Written by `python -m baselines.make_results` from the `cwgym train` run directories; do not edit by hand.",
        f"The target: {TARGET:.0%} success or more on held-out test seeds within 30 minutes of training on",
        f"2 CPU cores, where the random agent stays at {RANDOM_CEILING:.0%} or less on the same seeds.",
        "",
        f"Machine: `{machine['platform']}`, {machine['cpus']} CPUs; stable-baselines3 {first['versions']['stable_baselines3']}, "
        f"Python {first['versions']['python']}. Wall time is `model.learn` only (evaluation excluded), measured on the shared machine.",
        "Success on test seeds uses the trained policy's deterministic actions on the env's first held-out test",
        "seeds; the random agent (`baselines.random_agent`, seed 0) plays the same seeds.",
        "",
        "| env | algorithm | reward | steps | envs (vector env) | seed | training wall time | success on test seeds | random on the same seeds | test seeds (episodes) | meets the target | learning curve |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(name, report, rate) for name, report, rate in runs]
    lines += ["", "## Commands", "", "```text"]
    lines += [report["command"] or f"(run {name}: command not recorded)" for name, report, _ in runs]
    lines += ["```", "", "## Learning curves", ""]
    for name, report, _ in runs:
        lines += [f"### `{report['env']}`", "", f"![{report['algo']} on {report['env']}](results/{name}.png)", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.make_results", description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="cwgym train --out directories")
    parser.add_argument("--out", type=Path, default=Path("baselines/RESULTS.md"))
    parser.add_argument("--notes", type=Path, help="a Markdown file appended to the page")
    args = parser.parse_args(argv)
    images = args.out.parent / "results"
    images.mkdir(parents=True, exist_ok=True)
    runs = []
    for run in args.runs:
        report = json.loads((run / "train.json").read_text())
        if "test" not in report:
            print(f"make_results: {run} was trained without --eval-episodes; no test success to report", file=sys.stderr)
            return 2
        lo, hi = report["test"]["test_seeds"]
        runs.append((run.name, report, random_success(report["env"], range(lo, hi))))
        shutil.copyfile(run / "learning_curve.png", images / f"{run.name}.png")
    notes = args.notes.read_text() if args.notes else None
    args.out.write_text(render_page(runs, notes))
    print(f"wrote {args.out} ({len(runs)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
