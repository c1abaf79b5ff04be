"""``cwgym eval``: run an agent over a leaderboard suite in its own process, and write a submission.

    cwgym eval --agent baselines.random_agent:make_agent --suite leaderboard-v2 --out runs/random
    cwgym eval --agent path/to/my_agent.py:make_agent --out runs/mine --secret-file ~/hidden.key
    cwgym eval --agent baselines.expert:make_agent --out runs/expert --privileged

The agent runs in a separate interpreter (:mod:`cwgym.leaderboard.agent_host`); this
process holds every env and its ``World`` and exchanges length-prefixed MessagePack frames
of plain values with it (:mod:`cwgym.leaderboard`): never pickle, never an object. A
*sealed* agent (the default) is told the instruction, the step limit and its spaces, and
receives observations, rewards, done flags and the allow-listed ``info`` keys
(:data:`cwgym.leaderboard.sealing.AGENT_INFO`); ``--privileged`` also tells it the env id,
procedure, world, machine, seed and configuration (for reference agents; the results say
so). Every reply is checked against the action space; a malformed, oversized or invalid
reply, an exception of the agent or a step over ``--step-timeout`` ends that episode as a
failure with its reason, and a process that broke the protocol is killed and replaced.

The seeds are the suite's public ones, or with ``--secret-file``/``--secret-env`` a hidden
split the secret derives (:mod:`cwgym.leaderboard.splits`).

Written to ``--out``: ``results.json`` (per task and overall), ``results.md`` (a Markdown
table and the failures), ``results.png`` (a bar chart, when matplotlib is installed) and
``submission.json``: every episode's action log with its world, procedure, env id,
configuration, seed (not on a hidden split), engine version, per-step rewards, failure and
final state hash — what ``cwgym verify`` replays.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from cwgym._version import __version__, engine_version
from cwgym.leaderboard.actions import checked_action, from_json, to_json
from cwgym.leaderboard.agent_host import AgentSpecError, split_spec
from cwgym.leaderboard.agent_process import (
    DEFAULT_STEP_TIMEOUT,
    AgentFault,
    AgentLoadError,
    AgentProcess,
)
from cwgym.leaderboard.sealing import agent_info, task_view
from cwgym.leaderboard.splits import SecretError, Split, read_secret, suite_seeds

__all__ = [
    "SUBMISSION_FORMAT",
    "SuiteError",
    "UsageError",
    "action_family",
    "evaluate",
    "from_json",
    "load_suite",
    "replay_episode",
    "select_tasks",
    "suite_seeds",
    "summarize",
    "to_json",
]

SUBMISSION_FORMAT = "cwgym-submission/2"


class SuiteError(ValueError):
    """A suite, or a task asked of it, that cannot be evaluated."""


class UsageError(ValueError):
    """Options that cannot be used together, or a value out of range."""


# -- suites -------------------------------------------------------------------------------
def suites_dir() -> Path:
    from cwgym.resources import envs_dir

    return envs_dir()


def leaderboard_suites() -> list[str]:
    """The names of the leaderboard suites under ``envs/``."""
    names = []
    for path in sorted(suites_dir().glob("*.json")):
        try:
            if json.loads(path.read_text()).get("kind") == "leaderboard":
                names.append(path.stem)
        except (OSError, ValueError, AttributeError):
            continue
    return names


def load_suite(name_or_path: str) -> dict[str, Any]:
    """A leaderboard suite: ``envs/<name>.json`` (``"kind": "leaderboard"``) or a path; checked against the registry.

    Each task names a registered env id, a seed range inside that env's held-out test
    range, and an episode count; :func:`suite_seeds` fixes the public seeds.

    Raises:
        SuiteError: no such suite, not a leaderboard suite, or a task that does not fit.
    """
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)

    path = Path(name_or_path)
    if not path.suffix:
        path = suites_dir() / f"{name_or_path}.json"
        if not path.is_file():
            raise SuiteError(f"unknown suite {name_or_path!r}: the leaderboard suites are {', '.join(leaderboard_suites())} (or give a suite file's path)")
    try:
        suite = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SuiteError(f"cannot read suite {name_or_path!r} ({exc})") from None
    if not isinstance(suite, dict) or suite.get("kind") != "leaderboard":
        raise SuiteError(f"{path} is not a leaderboard suite (it needs \"kind\": \"leaderboard\")")
    for index, task in enumerate(suite.get("tasks", [])):
        where = f"suite {suite.get('suite')} tasks[{index}]"
        if task.get("env") not in gym.registry:
            raise SuiteError(f"{where}: unknown env {task.get('env')!r} (`cwgym list` lists the envs)")
        lo, hi = task["seeds"]
        test_lo, test_hi = gym.registry[task["env"]].kwargs.get("test_seeds", [1000000, 1010000])
        if not (test_lo <= lo < hi <= test_hi) or not (0 < task["episodes"] <= hi - lo):
            raise SuiteError(f"{where}: seeds {task['seeds']} and episodes must lie in the test range {[test_lo, test_hi]}")
    return suite


def select_tasks(suite: dict[str, Any], tasks: list[str] | None) -> list[dict[str, Any]]:
    """The suite's tasks, or those of ``tasks`` (env ids) in the suite's order.

    Raises:
        SuiteError: an id that is not one of the suite's tasks (named, with where to look).
    """
    if tasks is None:
        return list(suite["tasks"])
    if not tasks:
        raise SuiteError("--tasks names no task")
    import gymnasium as gym

    import cwgym.rl  # noqa: F401

    known = {t["env"] for t in suite["tasks"]}
    for env_id in tasks:
        if env_id not in known:
            why = "a registered env, but not one of the suite's tasks" if env_id in gym.registry else "not a registered env (`cwgym list` lists them)"
            raise SuiteError(f"--tasks: {env_id!r} is {why}; the tasks of suite {suite['suite']} are the env ids of its file")
    return [t for t in suite["tasks"] if t["env"] in tasks]


# -- actions ------------------------------------------------------------------------------
def action_family(codec: Any, action: Any, info: dict) -> str:
    """The action family an action is sent as (``refused`` when the interface refused it)."""
    from cwgym.rl.actions import FlatCodec

    if info.get("outcome", {}).get("status") == "refused":
        return "refused"
    if isinstance(action, str):
        try:
            data = json.loads(action)
        except ValueError:
            return "refused"
        items = data if isinstance(data, list) else [data]
        names = sorted({"done" if i.get("done") else str(i.get("family")) for i in items if isinstance(i, dict)})
        return "+".join(names) or "refused"
    if isinstance(codec, FlatCodec) and isinstance(action, (int, np.integer)):
        for part, offset in zip(reversed(codec.parts), reversed(codec.offsets)):
            if action >= offset:
                return part.families[0] if part.families else "done"
    families = getattr(codec, "families", ())
    return families[0] if len(families) == 1 else "mixed"


# -- episodes ---------------------------------------------------------------------------------
def make_env(env_id: str) -> Any:
    import gymnasium as gym

    import cwgym.rl  # noqa: F401

    return gym.make(env_id)


def _identity(env: Any, env_id: str, seed: int) -> dict[str, Any]:
    base = env.unwrapped
    return {
        "env_id": env_id,
        "procedure": base.config.procedure,
        "world": base.world_name,
        "machine": base.machine,
        "seed": seed,
        "config": dict(env.spec.kwargs),
    }


def episode_name(env_id: str, index: int, seed: int | None) -> str:
    """``env#seed`` on the public split; ``env#hidden-i`` (the task's ``i``-th episode) on a hidden one."""
    return f"{env_id}#{seed}" if seed is not None else f"{env_id}#hidden-{index}"


def run_episode(agent: AgentProcess, env: Any, env_id: str, index: int, seed: int, split: Split, privileged: bool = False) -> tuple[dict[str, Any], bool]:
    """One episode of the agent on instance ``seed``: its record, and whether the agent's process broke."""
    base = env.unwrapped
    codec = base.action_codec
    identity = _identity(env, env_id, seed)
    observation, info = env.reset(seed=seed)
    task = task_view(env, info["instruction"], privileged, identity)
    actions, rewards, hashes, families = [], [], [], Counter()
    terminated = truncated = False
    failure: AgentFault | None = None
    try:
        action, stepped = agent.act({"type": "reset", "task": task, "observation": observation, "info": agent_info(info)}, env.action_space)
        while True:
            actions.append(action)
            observation, reward, terminated, truncated, info = env.step(stepped)
            rewards.append(float(reward))
            hashes.append(base.state_hash())
            families[action_family(codec, stepped, info)] += 1
            message = {"observation": observation, "reward": float(reward), "info": agent_info(info)}
            if terminated or truncated:
                agent.end({"type": "end", **message, "terminated": bool(terminated), "truncated": bool(truncated)})
                break
            action, stepped = agent.act({"type": "step", **message}, env.action_space)
    except AgentFault as fault:
        failure = fault
    record = {
        "episode": episode_name(env_id, index, None if split.hidden else seed),
        "env_id": env_id,
        "index": index,
        **({} if split.hidden else {"seed": seed}),
        "world": identity["world"],
        "procedure": identity["procedure"],
        "machine": identity["machine"],
        "config": identity["config"],
        "max_episode_steps": env.spec.max_episode_steps,
        "engine_version": engine_version,
        "actions": actions,
        "rewards": rewards,
        "return": float(sum(rewards)),
        "steps": len(actions),
        "success": bool(info["verification"].get("passed")) and failure is None,
        "terminated": bool(terminated),
        "truncated": bool(truncated),
        "failure": None if failure is None else f"step {len(actions)}: {failure.reason}",
        "families": dict(sorted(families.items())),
        "state_hashes": hashes,
        "final_state_hash": base.state_hash(),
    }
    if failure is not None and failure.detail:
        record["failure_detail"] = failure.detail
    return record, failure is not None and failure.broken


def replay_episode(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """Replay an episode's action log on instance ``seed`` without the agent; its recomputed scores and final hash.

    ``success`` is the verifier's verdict at the end and the record's own ``failure``
    absent: an episode the agent broke off scores nothing, whatever the world shows.
    """
    env = make_env(record["env_id"])
    base = env.unwrapped
    codec = base.action_codec
    env.reset(seed=seed)
    rewards, hashes, families = [], [], Counter()
    terminated = truncated = False
    info: dict = {"verification": {}}
    for action in record["actions"]:
        if terminated or truncated:
            raise ValueError("actions after the episode ended")
        stepped = checked_action(env.action_space, action)
        _, reward, terminated, truncated, info = env.step(stepped)
        rewards.append(float(reward))
        hashes.append(base.state_hash())
        families[action_family(codec, stepped, info)] += 1
    out = {
        "world": base.world_name,
        "procedure": base.config.procedure,
        "machine": base.machine,
        "config": dict(env.spec.kwargs),
        "max_episode_steps": env.spec.max_episode_steps,
        "rewards": rewards,
        "return": float(sum(rewards)),
        "steps": len(rewards),
        "success": bool(info["verification"].get("passed")) and record.get("failure") is None,
        "terminated": bool(terminated),
        "truncated": bool(truncated),
        "families": dict(sorted(families.items())),
        "state_hashes": hashes,
        "final_state_hash": base.state_hash(),
    }
    env.close()
    return out


def summarize(episodes: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-task and overall scores of a list of episode records."""
    tasks: dict[str, list[dict]] = {}
    for e in episodes:
        tasks.setdefault(e["env_id"], []).append(e)
    rows = []
    for env_id, es in tasks.items():
        families: Counter = Counter()
        for e in es:
            families.update(e["families"])
        rows.append(
            {
                "env_id": env_id,
                "episodes": len(es),
                "success_rate": round(sum(e["success"] for e in es) / len(es), 6),
                "failures": sum(e.get("failure") is not None for e in es),
                "mean_reward": round(float(np.mean([e["return"] for e in es])), 6),
                "mean_steps": round(float(np.mean([e["steps"] for e in es])), 6),
                "actions_by_family": dict(sorted(families.items())),
            }
        )
    n = len(episodes)
    overall = {
        "episodes": n,
        "success_rate": round(sum(e["success"] for e in episodes) / n, 6) if n else 0.0,
        "failures": sum(e.get("failure") is not None for e in episodes),
        "mean_reward": round(float(np.mean([e["return"] for e in episodes])), 6) if n else 0.0,
        "task_success_rate": round(float(np.mean([r["success_rate"] for r in rows])), 6) if rows else 0.0,
    }
    return {"tasks": rows, "overall": overall}


def _split_words(split: dict[str, Any]) -> str:
    if split.get("kind") == "hidden":
        return f"hidden split (secret sha256 {split['secret_sha256'][:12]}…)"
    return "public split"


def markdown(results: dict[str, Any], failures: list[dict[str, Any]] | None = None) -> str:
    lines = [
        f"# {results['agent']} on {results['suite']}",
        "",
        f"engine {results['engine_version']}, {results['agent_view']} agent, {_split_words(results['split'])}, "
        f"{results['overall']['episodes']} episodes, success {results['overall']['success_rate']:.1%}, "
        f"mean reward {results['overall']['mean_reward']:.3f}, {results['overall']['failures']} agent failures",
        "",
        "| task | episodes | success | agent failures | mean reward | mean steps | actions by family |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in results["tasks"]:
        families = ", ".join(f"{k} {v}" for k, v in r["actions_by_family"].items())
        lines.append(
            f"| `{r['env_id']}` | {r['episodes']} | {r['success_rate']:.0%} | {r['failures']} | {r['mean_reward']:.3f} | {r['mean_steps']:.1f} | {families} |"
        )
    if failures:
        lines += ["", "Agent failures (the episode scores nothing):", ""]
        lines += [f"- `{e['episode']}` {e['failure'].replace('`', chr(39))}" for e in failures]
    return "\n".join(lines) + "\n"


def chart(results: dict[str, Any], path: Path) -> str | None:
    """A bar chart of success per task; returns why it was skipped, or ``None``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install '.[train]'): no chart written"
    rows = results["tasks"]
    fig, ax = plt.subplots(figsize=(10, max(3, 0.28 * len(rows) + 1)))
    names = [r["env_id"].removeprefix("cwgym/") for r in rows]
    ax.barh(names, [r["success_rate"] for r in rows], color="#4a7bd0")
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("success rate (held-out seeds)")
    ax.set_title(f"{results['agent']} on {results['suite']}")
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


# -- the command ------------------------------------------------------------------------------
def add_secret_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--secret-file PATH`` / ``--secret-env VAR``: the secret of a hidden split."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--secret-file", metavar="PATH", help=f"{what} the hidden split this file's secret derives")
    group.add_argument("--secret-env", metavar="VAR", help=f"{what} the hidden split the secret in this environment variable derives")


def secret_of(args: argparse.Namespace) -> bytes | None:
    """The secret the options name, or ``None`` (the public split). Raises :class:`SecretError`."""
    if args.secret_file is None and args.secret_env is None:
        return None
    return read_secret(args.secret_file, args.secret_env)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("eval", help="run an agent (file.py:factory or module:factory) over a leaderboard suite in its own process")
    parser.add_argument("--agent", required=True, help="path/to/agent.py:factory or module:factory, e.g. baselines.random_agent:make_agent")
    parser.add_argument("--suite", default="leaderboard-v2", help="suite name (envs/NAME.json) or path")
    parser.add_argument("--out", required=True, help="directory for results and the submission")
    parser.add_argument("--episodes", type=int, help="at most this many episodes per task (the first seeds); cwgym verify refuses such a partial run")
    parser.add_argument("--tasks", help="comma-separated env ids: only these tasks of the suite; cwgym verify refuses such a partial run")
    parser.add_argument("--step-timeout", type=float, default=DEFAULT_STEP_TIMEOUT, help=f"seconds the agent may take for one step (default {DEFAULT_STEP_TIMEOUT:g})")
    parser.add_argument("--agent-launcher", metavar="CMD", help="start the agent's interpreter through this command (an OS sandbox, e.g. 'unshare --user --map-root-user --pid --fork --mount-proc')")
    parser.add_argument("--privileged", action="store_true", help="also tell the agent the env id, procedure, seed and configuration (reference agents such as the expert); the results say so")
    add_secret_options(parser, "play")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def evaluate(
    agent_spec: str,
    suite_name: str,
    out: Path,
    episodes: int | None = None,
    tasks: list[str] | None = None,
    progress: bool = True,
    *,
    privileged: bool = False,
    secret: bytes | None = None,
    step_timeout: float = DEFAULT_STEP_TIMEOUT,
    hide_env: tuple[str, ...] = (),
    launcher: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Run ``agent_spec`` over the suite and write the results and submission to ``out``.

    ``hide_env`` names environment variables the agent's process does not inherit;
    ``launcher`` is a command (and its arguments) the agent's interpreter is started through.

    Raises:
        SuiteError: an unknown suite or task.
        AgentSpecError, AgentLoadError: the agent cannot be named or loaded.
        UsageError: a bad option (a privileged agent on a hidden split, a step timeout <= 0,
            fewer than one episode).
    """
    if privileged and secret is not None:
        raise UsageError("--privileged tells the agent its seeds and a hidden split keeps them secret: use one or the other")
    if not step_timeout > 0:
        raise UsageError(f"--step-timeout must be positive, got {step_timeout}")
    if episodes is not None and episodes < 1:
        raise UsageError(f"--episodes must be at least 1, got {episodes}")
    target, _, is_file = split_spec(agent_spec)
    if is_file and not Path(target).is_file():
        raise AgentSpecError(f"no agent file {target}")
    suite = load_suite(suite_name)
    chosen = select_tasks(suite, tasks)
    split = Split(secret)
    plan = [(t["env"], i, s) for t in chosen for i, s in enumerate(split.seeds(suite, t, episodes))]
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    agent: AgentProcess | None = AgentProcess(agent_spec, step_timeout, hide_env, launcher)
    try:
        from tqdm import tqdm

        envs: dict[str, Any] = {}
        for env_id, index, seed in tqdm(plan, desc=f"eval {agent_spec}", unit="ep", disable=not progress):
            if agent is None:
                agent = AgentProcess(agent_spec, step_timeout, hide_env, launcher)
            if env_id not in envs:
                envs[env_id] = make_env(env_id)
            record, broken = run_episode(agent, envs[env_id], env_id, index, seed, split, privileged)
            records.append(record)
            if broken:
                agent.kill()
                agent = None
        for env in envs.values():
            env.close()
    finally:
        if agent is not None:
            agent.close()
    view = "privileged" if privileged else "sealed"
    results = {
        "suite": suite["suite"],
        "agent": agent_spec,
        "agent_view": view,
        "split": split.describe(),
        "engine_version": engine_version,
        "cwgym_version": __version__,
        "step_timeout": step_timeout,
        "wall_seconds": round(time.perf_counter() - started, 1),
        **summarize(records),
    }
    out.mkdir(parents=True, exist_ok=True)
    submission = {
        "format": SUBMISSION_FORMAT,
        "suite": suite["suite"],
        "agent": agent_spec,
        "agent_view": view,
        "split": split.describe(),
        "engine_version": engine_version,
        "cwgym_version": __version__,
        "step_timeout": step_timeout,
        "agent_launcher": shlex.join(launcher) if launcher else None,
        "episodes_per_task": episodes,
        "tasks": [t["env"] for t in chosen],
        "episodes": records,
    }
    (out / "submission.json").write_text(json.dumps(submission, indent=1) + "\n")
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(markdown(results, [r for r in records if r["failure"] is not None]))
    skipped = chart(results, out / "results.png")
    if skipped:
        print(f"cwgym eval: {skipped}", file=sys.stderr)
    return results


def _launcher(command: str | None) -> tuple[str, ...]:
    if command is None:
        return ()
    try:
        words = tuple(shlex.split(command))
    except ValueError as exc:
        raise UsageError(f"--agent-launcher {command!r}: {exc}") from None
    if not words:
        raise UsageError("--agent-launcher names no command")
    return words


def run(args: argparse.Namespace) -> int:
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks is not None else None
    try:
        launcher = _launcher(args.agent_launcher)
        secret = secret_of(args)
        results = evaluate(
            args.agent, args.suite, Path(args.out), args.episodes, tasks, progress=not args.quiet,
            privileged=args.privileged, secret=secret, step_timeout=args.step_timeout,
            hide_env=(args.secret_env,) if args.secret_env else (), launcher=launcher,
        )
    except (SuiteError, UsageError, SecretError, AgentSpecError, AgentLoadError) as exc:
        print(f"cwgym eval: {exc}".splitlines()[0], file=sys.stderr)
        return 2
    o = results["overall"]
    print((Path(args.out) / "results.md").read_text())
    print(f"{o['episodes']} episodes: success {o['success_rate']:.1%}, mean reward {o['mean_reward']:.3f}, {o['failures']} agent failures; wrote {args.out}")
    return 0
