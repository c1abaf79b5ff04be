"""Write ``baselines/RESULTS.md`` from ``cwgym train`` run directories.

    python -m baselines.make_results runs/ppo-open-app runs/ppo-close-window ... --out baselines/RESULTS.md

For every run it reads ``train.json`` (command, seed, wall time, machine, versions and the
final and best policies' success on the env's first held-out test seeds). Runs that differ
only in their seed are one row: the mean success and its range over the seeds. The first
seed's ``learning_curve.png`` is copied next to the page as ``results/<run>.png``, and the
random agent (:mod:`baselines.random_agent`, seed 0) is measured on exactly the same test
seeds, so the success rates in a row are comparable. ``--notes FILE`` appends a Markdown file verbatim
(what was tried on tasks that did not learn). Nothing in the page is typed by hand.

``--section NAME`` writes the rows as one section of an existing page instead (between the
markers ``<!-- section:NAME:begin -->`` and ``<!-- section:NAME:end -->``, added at the end
the first time), so the web tier's runs join the page without retraining the desktop
rows. ``--published FILE`` adds, beside each row, the published MiniWoB++ figures for the
kind's counterpart task (``baselines/miniwob_published.json``: human performance and
published agents, each with its paper and table), as facts about another suite.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym

from baselines.random_agent import RandomAgent

__all__ = ["group_runs", "main", "random_success", "render_page"]

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


def _config_key(report: dict[str, Any]) -> str:
    """What makes runs the same experiment: everything but the seed and the output folder."""
    fields = ("env", "algo", "network", "obs", "reward", "steps", "n_envs", "vec", "params", "torch_threads")
    bc = (report.get("bc") or {}).get("episodes")
    return json.dumps([report.get(f) for f in fields] + [bc], sort_keys=True)


def group_runs(runs: list[tuple[str, dict[str, Any]]]) -> list[list[tuple[str, dict[str, Any]]]]:
    """Runs of the same experiment (differing only in seed) together, in first-seen order."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for name, report in runs:
        groups.setdefault(_config_key(report), []).append((name, report))
    return [sorted(group, key=lambda run: run[1]["seed"]) for group in groups.values()]


def _spread(values: list[float]) -> str:
    """Mean and range of success rates: ``**97%** (92%–100%)``, or one value alone."""
    mean = sum(values) / len(values)
    if len(values) == 1:
        return f"**{mean:.0%}**"
    return f"**{mean:.0%}** ({min(values):.0%}–{max(values):.0%})"


ALGO_NAMES = {"ppo": "PPO", "a2c": "A2C", "dqn": "DQN", "maskable-ppo": "MaskablePPO"}


def describe_agent(report: dict[str, Any]) -> str:
    """The algorithm column: the algorithm, its network when not SB3's MLP, the extra
    observation keys, and what it cloned first."""
    out = ALGO_NAMES.get(report["algo"], report["algo"])
    if report.get("network") == "attention":
        out += " with the element-attention policy"
    extra = [k for k in report.get("obs") or () if k not in ("elements", "instruction", "instruction_tokens")]
    if extra:
        out += " seeing " + ", ".join(f"`{k}`" for k in extra)
    bc = report.get("bc")
    if bc:
        out += f" after cloning {bc['episodes']} " + ("dataset demonstrations" if bc.get("demos") else "expert episodes")
    return out


def _row(group: list[tuple[str, dict[str, Any]]], random_rate: float) -> str:
    name, first = group[0]
    reports = [report for _, report in group]
    lo, hi = first["test"]["test_seeds"]
    finals = [r["test"]["success_rate"] for r in reports]
    bests = [r.get("test_best", r["test"])["success_rate"] for r in reports]
    wall = sum(r["wall_seconds"] for r in reports) / len(reports)
    mean_final = sum(finals) / len(finals)
    verdict = "yes" if mean_final >= TARGET and random_rate <= RANDOM_CEILING and wall <= 1800 else "no"
    algo = describe_agent(first)
    seeds = ", ".join(str(r["seed"]) for r in reports)
    return (
        f"| `{first['env']}` | {algo} | {first['reward']} | {first['steps']:,} | {first['n_envs']} ({first['vec']}) "
        f"| {seeds} | {wall / 60:.1f} min | {_spread(finals)} | {_spread(bests)} | {random_rate:.0%} "
        f"| {lo}–{hi - 1} ({first['test']['episodes']}) | {verdict} | [curve](results/{name}.png) |"
    )


def render_page(groups: list[tuple[list[tuple[str, dict[str, Any]]], float]], notes: str | None) -> str:
    """The Markdown page of ``(runs of one experiment, random success)`` pairs."""
    first = groups[0][0][0][1]
    machine = first["machine"]
    versions = first["versions"]
    library = ", ".join(f"{k} {v}" for k, v in versions.items() if k != "python")
    lines = [
        "# Baseline results",
        "",
        "Written by `python -m baselines.make_results` from the `cwgym train` run directories; do not edit by hand.",
        f"The target: {TARGET:.0%} success or more on held-out test seeds within 30 minutes of training on",
        f"2 CPU cores, where the random agent stays at {RANDOM_CEILING:.0%} or less on the same seeds.",
        "",
        f"Machine: `{machine['platform']}`, {machine['cpus']} CPUs; {library}; Python {versions['python']}; "
        f"torch threads per run: {first.get('torch_threads', 'not recorded')}.",
        "Wall time is `model.learn` only (evaluation excluded), the mean over the seeds, measured on the shared machine",
        "with two runs at a time.",
        "Each row is one experiment trained with every seed listed; a success cell is the mean over those seeds",
        "and, in brackets, the lowest and highest seed, so a rerun of the same commands lands in that range.",
        "`final` scores `model.zip`, `best` the validation-selected `best_model.zip`, both with deterministic actions",
        "on the env's first held-out test seeds; the random agent (`baselines.random_agent`, seed 0) plays the same seeds.",
        "",
        "| env | algorithm | reward | steps | envs (vector env) | seeds | training wall time | success on test seeds, final | best checkpoint | random on the same seeds | test seeds (episodes) | meets the target | learning curve (first seed) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(group, rate) for group, rate in groups]
    lines += ["", "## Commands", "", "```text"]
    lines += [report["command"] or f"(run {name}: command not recorded)" for group, _ in groups for name, report in group]
    lines += ["```", "", "## Learning curves", ""]
    for group, _ in groups:
        name, report = group[0]
        lines += [f"### `{report['env']}`", "", f"![{report['algo']} on {report['env']}](results/{name}.png)", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def _published_table(groups: list[tuple[list[tuple[str, dict[str, Any]]], float]], published: dict[str, Any]) -> list[str]:
    """Rows of the published MiniWoB++ figures for each row's counterpart task."""
    from cwgym.webtasks import TASK_KINDS

    sources = published["sources"]
    lines = [
        "Published MiniWoB++ figures for the counterpart task of each row (the kinds are modelled on these",
        "tasks, not identical to them: another page, another browser, another action space):",
        "",
        "| env | MiniWoB++ task | " + " | ".join(s["id"] for s in sources) + " |",
        "|---|---|" + "---:|" * len(sources),
    ]
    for group, _ in groups:
        env = group[0][1]["env"]
        kind = TASK_KINDS.get(env.removeprefix("cwgym/web-").removesuffix("-pixels-v0").removesuffix("-v0"))
        if kind is None:
            continue
        cells = []
        for source in sources:
            value = source["values"].get(kind.miniwob)
            cells.append("—" if value is None else (f"{value:g}%" if source["scale"] == "percent" else f"{value:.0%}"))
        lines.append(f"| `{env}` | `{kind.miniwob}` | " + " | ".join(cells) + " |")
    lines += ["", "Sources:", ""]
    lines += [f"- **{s['id']}**: {s['cite']}, {s['table']} ({s['url']})." for s in sources]
    return lines


def render_section(title: str, groups: list[tuple[list[tuple[str, dict[str, Any]]], float]], notes: str | None,
                   published: dict[str, Any] | None) -> str:
    """One section of the page: the rows of ``groups``, their commands and curves."""
    page = render_page(groups, None)
    table = page[page.index("| env | algorithm"):page.index("\n## Commands")]
    lines = [f"## {title}", "", table.rstrip(), ""]
    if published:
        lines += [*_published_table(groups, published), ""]
    lines += ["### Commands", "", "```text"]
    lines += [report["command"] or f"(run {run}: command not recorded)" for group, _ in groups for run, report in group]
    lines += ["```", ""]
    for group, _ in groups:
        run, report = group[0]
        lines += [f"![{report['algo']} on {report['env']}](results/{run}.png)", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def splice(page: str, name: str, section: str) -> str:
    """``page`` with section ``name`` replaced by ``section`` (appended when absent)."""
    begin, end = f"<!-- section:{name}:begin -->", f"<!-- section:{name}:end -->"
    block = f"{begin}\n{section.rstrip()}\n{end}"
    if begin in page and end in page:
        head, _, rest = page.partition(begin)
        _, _, tail = rest.partition(end)
        return f"{head}{block}{tail}"
    return f"{page.rstrip()}\n\n{block}\n"


def sections(page: str) -> list[str]:
    """The sections of ``page`` (each with its begin and end markers), in order: what a
    rewrite of the page's top keeps, since other scripts wrote them."""
    return [m.group(0) for m in re.finditer(r"<!-- section:([\w-]+):begin -->.*?<!-- section:\1:end -->", page, re.S)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baselines.make_results", description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="cwgym train --out directories")
    parser.add_argument("--out", type=Path, default=Path("baselines/RESULTS.md"))
    parser.add_argument("--notes", type=Path, help="a Markdown file appended to the page")
    parser.add_argument("--section", help="write the rows as this section of the existing --out page")
    parser.add_argument("--title", help="the section's heading (default: its name)")
    parser.add_argument("--published", type=Path, help="published MiniWoB++ figures (JSON) shown beside the rows")
    args = parser.parse_args(argv)
    images = args.out.parent / "results"
    images.mkdir(parents=True, exist_ok=True)
    runs = []
    for run in args.runs:
        report = json.loads((run / "train.json").read_text())
        if "test" not in report:
            print(f"make_results: {run} was trained without --eval-episodes; no test success to report", file=sys.stderr)
            return 2
        runs.append((run.name, report))
    groups = []
    for group in group_runs(runs):
        name, report = group[0]
        lo, hi = report["test"]["test_seeds"]
        groups.append((group, random_success(report["env"], range(lo, hi))))
        shutil.copyfile(next(run for run in args.runs if run.name == name) / "learning_curve.png", images / f"{name}.png")
    notes = args.notes.read_text() if args.notes else None
    if args.section:
        published = json.loads(args.published.read_text()) if args.published else None
        page = args.out.read_text() if args.out.exists() else ""
        args.out.write_text(splice(page, args.section, render_section(args.title or args.section, groups, notes, published)))
        print(f"wrote section {args.section} of {args.out} ({len(runs)} runs, {len(groups)} rows)")
        return 0
    kept = sections(args.out.read_text()) if args.out.exists() else []
    args.out.write_text("\n\n".join([render_page(groups, notes).rstrip(), *kept]) + "\n")
    print(f"wrote {args.out} ({len(runs)} runs, {len(groups)} rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
