"""``cwgym eval``: run an agent over a leaderboard suite in its own process, and write a submission.

    cwgym eval --agent baselines.expert:make_agent --suite leaderboard-v0 --out runs/expert
    cwgym eval --agent baselines.random_agent:make_agent --suite leaderboard-v0 --out runs/random --episodes 1

The agent is loaded from a ``module:factory`` string (the current directory is put on
``sys.path``, so ``baselines.*`` resolves from the repository root) inside a child process
started with the ``spawn`` context. The parent holds every env and its ``World``; it sends
the child only plain data over a pipe — the task description (env id, procedure, world,
seed, the env's configuration and spaces), observations (numpy arrays and strings),
rewards, done flags and ``info`` (plain dicts) — and receives actions back. Every message
is checked to hold nothing but plain data before it is sent.

The agent protocol (see ``docs/baselines.md``): the factory returns an object with
``reset(task, observation, info)`` and ``act(observation, reward, info) -> action``, and
optionally ``end(observation, reward, terminated, truncated, info)``.

Written to ``--out``: ``results.json`` (per task and overall), ``results.md`` (a Markdown
table), ``results.png`` (a bar chart, when matplotlib is installed) and ``submission.json``:
every episode's action log with its world, procedure, env id, configuration, seed, engine
version, per-step rewards and final state hash — what ``cwgym verify`` replays.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing as mp
import os
import sys
import time
import traceback
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from cwgym._version import __version__, engine_version

__all__ = [
    "SUBMISSION_FORMAT",
    "action_family",
    "from_json",
    "load_agent",
    "load_suite",
    "replay_episode",
    "suite_seeds",
    "summarize",
    "to_json",
]

SUBMISSION_FORMAT = "cwgym-submission/1"
ACTION_TIMEOUT = 120.0  # seconds the agent may take for one reply


# -- suites -------------------------------------------------------------------------------
def suites_dir() -> Path:
    from cwgym.resources import envs_dir

    return envs_dir()


def load_suite(name_or_path: str) -> dict[str, Any]:
    """A leaderboard suite: ``envs/<name>.json`` (``"kind": "leaderboard"``) or a path; checked against the registry.

    Each task names a registered env id, a seed range inside that env's held-out test
    range, and an episode count; :func:`suite_seeds` fixes the seeds.
    """
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)

    path = Path(name_or_path)
    if not path.suffix:
        path = suites_dir() / f"{name_or_path}.json"
    try:
        suite = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"cwgym: cannot read suite {name_or_path!r} ({exc})") from None
    if not isinstance(suite, dict) or suite.get("kind") != "leaderboard":
        raise SystemExit(f"cwgym: {path} is not a leaderboard suite (it needs \"kind\": \"leaderboard\")")
    for index, task in enumerate(suite.get("tasks", [])):
        where = f"suite {suite.get('suite')} tasks[{index}]"
        if task.get("env") not in gym.registry:
            raise SystemExit(f"cwgym: {where}: unknown env {task.get('env')!r}")
        lo, hi = task["seeds"]
        test_lo, test_hi = gym.registry[task["env"]].kwargs.get("test_seeds", [1000000, 1010000])
        if not (test_lo <= lo < hi <= test_hi) or not (0 < task["episodes"] <= hi - lo):
            raise SystemExit(f"cwgym: {where}: seeds {task['seeds']} and episodes must lie in the test range {[test_lo, test_hi]}")
    return suite


def suite_seeds(suite: dict[str, Any], task: dict[str, Any], episodes: int | None = None) -> list[int]:
    """The fixed seeds of a task: drawn without replacement from its range by the suite's seed."""
    lo, hi = task["seeds"]
    count = task["episodes"] if episodes is None else min(episodes, task["episodes"])
    rng = np.random.default_rng([int(suite.get("seed", 0)), zlib.crc32(task["env"].encode())])
    drawn = rng.choice(hi - lo, size=task["episodes"], replace=False)
    return [int(lo + s) for s in drawn[:count]]


# -- actions as JSON ----------------------------------------------------------------------
def to_json(value: Any) -> Any:
    """An action as JSON data (arrays become lists, numpy scalars Python numbers)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"an action must be JSON data or numpy, got {type(value).__name__}")


def from_json(space: Any, value: Any) -> Any:
    """The action the env is stepped with, from its JSON form (the same in eval and verify)."""
    from gymnasium import spaces

    if isinstance(space, spaces.Box):
        return np.asarray(value, dtype=space.dtype)
    if isinstance(space, (spaces.MultiDiscrete, spaces.MultiBinary)):
        return np.asarray(value, dtype=space.dtype)
    if isinstance(space, spaces.OneOf) and isinstance(value, list) and len(value) == 2:
        return (int(value[0]), from_json(space.spaces[int(value[0])], value[1]))
    return value


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


# -- plain data across the process boundary -------------------------------------------------
PLAIN = (str, int, float, bool, type(None), np.ndarray, np.generic)


def plain(value: Any, where: str = "message") -> Any:
    """``value`` if it holds only plain data (containers, scalars, arrays); else ``TypeError``."""
    from gymnasium import spaces

    if isinstance(value, PLAIN):
        if isinstance(value, np.ndarray) and value.dtype == object:
            raise TypeError(f"{where}: object arrays cannot cross to the agent")
        return value
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            plain(v, f"{where}[{i}]")
        return value
    if isinstance(value, dict):
        for k, v in value.items():
            plain(v, f"{where}[{k!r}]")
        return value
    if isinstance(value, spaces.Space) and type(value).__module__.startswith("gymnasium."):
        return value
    raise TypeError(f"{where}: {type(value).__name__} is not plain data and never crosses to the agent")


# -- the agent process ------------------------------------------------------------------------
def load_agent(spec: str) -> Any:
    """The agent a ``module:factory`` string names (the factory is called with no arguments)."""
    module_name, _, factory = spec.partition(":")
    if not module_name or not factory:
        raise ValueError(f"an agent is named module:factory, got {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    module = importlib.import_module(module_name)
    return getattr(module, factory)()


def _agent_main(spec: str, conn: Any) -> None:
    """The child: load the agent, answer every observation with an action."""
    try:
        agent = load_agent(spec)
        conn.send(("ready", None))
        while True:
            kind, payload = conn.recv()
            if kind == "reset":
                agent.reset(payload["task"], payload["observation"], payload["info"])
                conn.send(("action", to_json(agent.act(payload["observation"], 0.0, payload["info"]))))
            elif kind == "step":
                conn.send(("action", to_json(agent.act(payload["observation"], payload["reward"], payload["info"]))))
            elif kind == "end":
                end = getattr(agent, "end", None)
                if end is not None:
                    end(payload["observation"], payload["reward"], payload["terminated"], payload["truncated"], payload["info"])
                conn.send(("ok", None))
            else:
                conn.send(("ok", None))
                return
    except Exception:
        conn.send(("error", traceback.format_exc()))


class AgentProcess:
    """The agent in a ``spawn`` child; only plain data crosses the pipe."""

    def __init__(self, spec: str) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_agent_main, args=(spec, child), daemon=True, name=f"cwgym-agent {spec}")
        self.process.start()
        child.close()
        self._expect("ready")

    def _expect(self, kind: str) -> Any:
        if not self.conn.poll(ACTION_TIMEOUT):
            raise RuntimeError(f"the agent did not answer within {ACTION_TIMEOUT:.0f} s")
        got, payload = self.conn.recv()
        if got == "error":
            raise RuntimeError(f"the agent failed:\n{payload}")
        if got != kind:
            raise RuntimeError(f"the agent sent {got!r}, expected {kind!r}")
        return payload

    def ask(self, kind: str, payload: dict[str, Any]) -> Any:
        self.conn.send((kind, plain(payload)))
        return self._expect("ok" if kind == "end" else "action")

    def close(self) -> None:
        try:
            self.conn.send(("close", None))
            self.conn.poll(5)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()


# -- episodes ---------------------------------------------------------------------------------
def make_env(env_id: str) -> Any:
    import gymnasium as gym

    import cwgym.rl  # noqa: F401

    return gym.make(env_id)


def _info(info: dict) -> dict:
    """``info`` as JSON data (what the agent receives)."""
    return json.loads(json.dumps(info, default=to_json))


def task_of(env: Any, env_id: str, seed: int) -> dict[str, Any]:
    base = env.unwrapped
    return {
        "env_id": env_id,
        "procedure": base.config.procedure,
        "world": base._blueprint.world_name,
        "machine": base._blueprint.machine,
        "seed": seed,
        "config": dict(env.spec.kwargs),
        "max_episode_steps": env.spec.max_episode_steps,
        "action_space": env.action_space,
        "observation_space": env.observation_space,
    }


def run_episode(agent: AgentProcess, env: Any, env_id: str, seed: int) -> dict[str, Any]:
    """One episode of the agent on instance ``seed``; its log and scores."""
    base = env.unwrapped
    codec = base._blueprint.actions
    task = task_of(env, env_id, seed)
    observation, info = env.reset(seed=seed)
    action = agent.ask("reset", {"task": task, "observation": observation, "info": _info(info)})
    actions, rewards, families = [], [], Counter()
    terminated = truncated = False
    while True:
        actions.append(action)
        stepped = from_json(env.action_space, action)
        observation, reward, terminated, truncated, info = env.step(stepped)
        rewards.append(float(reward))
        families[action_family(codec, stepped, info)] += 1
        message = {"observation": observation, "reward": float(reward), "info": _info(info)}
        if terminated or truncated:
            agent.ask("end", {**message, "terminated": bool(terminated), "truncated": bool(truncated)})
            break
        action = agent.ask("step", message)
    return {
        "episode": f"{env_id}#{seed}",
        "env_id": env_id,
        "world": task["world"],
        "procedure": task["procedure"],
        "machine": task["machine"],
        "config": task["config"],
        "max_episode_steps": task["max_episode_steps"],
        "seed": seed,
        "engine_version": engine_version,
        "actions": actions,
        "rewards": rewards,
        "return": float(sum(rewards)),
        "steps": len(actions),
        "success": bool(info["verification"].get("passed")),
        "terminated": bool(terminated),
        "truncated": bool(truncated),
        "families": dict(sorted(families.items())),
        "final_state_hash": base._episode.world.state_hash(),
    }


def replay_episode(record: dict[str, Any]) -> dict[str, Any]:
    """Replay an episode's action log without the agent; its recomputed scores and final hash."""
    env = make_env(record["env_id"])
    base = env.unwrapped
    codec = base._blueprint.actions
    env.reset(seed=record["seed"])
    rewards, families = [], Counter()
    terminated = truncated = False
    info: dict = {"verification": {}}
    for action in record["actions"]:
        if terminated or truncated:
            raise ValueError("actions after the episode ended")
        stepped = from_json(env.action_space, action)
        _, reward, terminated, truncated, info = env.step(stepped)
        rewards.append(float(reward))
        families[action_family(codec, stepped, info)] += 1
    out = {
        "world": base._blueprint.world_name,
        "procedure": base.config.procedure,
        "machine": base._blueprint.machine,
        "config": dict(env.spec.kwargs),
        "max_episode_steps": env.spec.max_episode_steps,
        "rewards": rewards,
        "return": float(sum(rewards)),
        "steps": len(rewards),
        "success": bool(info["verification"].get("passed")),
        "terminated": bool(terminated),
        "truncated": bool(truncated),
        "families": dict(sorted(families.items())),
        "final_state_hash": base._episode.world.state_hash(),
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
                "mean_reward": round(float(np.mean([e["return"] for e in es])), 6),
                "mean_steps": round(float(np.mean([e["steps"] for e in es])), 6),
                "actions_by_family": dict(sorted(families.items())),
            }
        )
    n = len(episodes)
    overall = {
        "episodes": n,
        "success_rate": round(sum(e["success"] for e in episodes) / n, 6) if n else 0.0,
        "mean_reward": round(float(np.mean([e["return"] for e in episodes])), 6) if n else 0.0,
        "task_success_rate": round(float(np.mean([r["success_rate"] for r in rows])), 6) if rows else 0.0,
    }
    return {"tasks": rows, "overall": overall}


def markdown(results: dict[str, Any]) -> str:
    lines = [
        f"# {results['agent']} on {results['suite']}",
        "",
        f"engine {results['engine_version']}, {results['overall']['episodes']} episodes, "
        f"success {results['overall']['success_rate']:.1%}, mean reward {results['overall']['mean_reward']:.3f}",
        "",
        "| task | episodes | success | mean reward | mean steps | actions by family |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in results["tasks"]:
        families = ", ".join(f"{k} {v}" for k, v in r["actions_by_family"].items())
        lines.append(
            f"| `{r['env_id']}` | {r['episodes']} | {r['success_rate']:.0%} | {r['mean_reward']:.3f} | {r['mean_steps']:.1f} | {families} |"
        )
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
def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("eval", help="run an agent (module:factory) over a leaderboard suite in its own process")
    parser.add_argument("--agent", required=True, help="module:factory, e.g. baselines.expert:make_agent")
    parser.add_argument("--suite", default="leaderboard-v0", help="suite name (envs/NAME.json) or path")
    parser.add_argument("--out", required=True, help="directory for results and the submission")
    parser.add_argument("--episodes", type=int, help="at most this many episodes per task (the suite's first seeds)")
    parser.add_argument("--tasks", help="comma-separated env ids: only these tasks of the suite")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def evaluate(agent_spec: str, suite_name: str, out: Path, episodes: int | None = None, tasks: list[str] | None = None, progress: bool = True) -> dict[str, Any]:
    suite = load_suite(suite_name)
    plan = [(t["env"], s) for t in suite["tasks"] if not tasks or t["env"] in tasks for s in suite_seeds(suite, t, episodes)]
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    agent = AgentProcess(agent_spec)
    try:
        from tqdm import tqdm

        envs: dict[str, Any] = {}
        for env_id, seed in tqdm(plan, desc=f"eval {agent_spec}", unit="ep", disable=not progress):
            if env_id not in envs:
                envs[env_id] = make_env(env_id)
            records.append(run_episode(agent, envs[env_id], env_id, seed))
    finally:
        agent.close()
    results = {
        "suite": suite["suite"],
        "agent": agent_spec,
        "engine_version": engine_version,
        "cwgym_version": __version__,
        "wall_seconds": round(time.perf_counter() - started, 1),
        **summarize(records),
    }
    out.mkdir(parents=True, exist_ok=True)
    submission = {
        "format": SUBMISSION_FORMAT,
        "suite": suite["suite"],
        "agent": agent_spec,
        "engine_version": engine_version,
        "cwgym_version": __version__,
        "episodes_per_task": episodes,
        "episodes": records,
    }
    (out / "submission.json").write_text(json.dumps(submission, indent=1) + "\n")
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(markdown(results))
    skipped = chart(results, out / "results.png")
    if skipped:
        print(f"cwgym eval: {skipped}", file=sys.stderr)
    return results


def run(args: argparse.Namespace) -> int:
    tasks = [t.strip() for t in args.tasks.split(",")] if args.tasks else None
    try:
        results = evaluate(args.agent, args.suite, Path(args.out), args.episodes, tasks, progress=not args.quiet)
    except (RuntimeError, ValueError, ImportError) as exc:
        print(f"cwgym eval: {exc}", file=sys.stderr)
        return 1
    o = results["overall"]
    print(markdown(results))
    print(f"{o['episodes']} episodes: success {o['success_rate']:.1%}, mean reward {o['mean_reward']:.3f}; wrote {args.out}")
    return 0
