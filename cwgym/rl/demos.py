"""Demonstrations from ``cwgym dataset`` as transitions for behaviour cloning.

:func:`load_transitions` reads a dataset's ``episodes.jsonl``, keeps the demonstrations of
the env's procedure (expert lines, and ``cwgym play`` lines of ``"kind": "human"``, whose
recorded verdict passed; negatives are skipped), and replays each through the env's own
interface: reset to the episode's seed, turn every recorded step into the env's actions
with :func:`cwgym.rl.expert.translate` on the screen of that moment, step. A line stores
envelopes and targets, not an env's observations or actions (those depend on its
observation keys and interface), so replaying is what gives them, for any env of the
procedure; each replay must end with the procedure's verifier passing. For the expert's
lines the transitions are those :func:`cwgym.rl.imitation.expert_transitions` plays live
for the same seeds, and ``(observations, actions)`` go to :func:`cwgym.rl.imitation.clone`
as they are.

An own loader rather than the ``imitation`` library: ``imitation`` 1.0.1 (its latest
release) requires ``gymnasium~=0.29`` and ``stable-baselines3~=2.2.1``, which cannot be
installed beside the gymnasium 1.4 and stable-baselines3 2.9 cwgym uses, and pulls in
sacred, seals, optuna, datasets and tensorboard; what it would add over ``clone()`` is a
``Transitions`` container, a few NumPy arrays here.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import gymnasium as gym
import msgspec
import numpy as np

from cwgym.procedures.demonstration import Step
from cwgym.rl.env import ComputerEnv
from cwgym.rl.expert import TOOL_FAMILIES, translate

__all__ = ["Demonstrations", "load_transitions"]

#: What a line must hold to be replayed as a demonstration.
REQUIRED = ("procedure", "seed", "kind", "mode", "viewport", "steps", "verdict")
#: The kinds of line that are demonstrations (``negative`` lines are not).
KEPT = ("demonstration", "human")


class Demonstrations(NamedTuple):
    """Replayed demonstrations, one row per env step, episodes one after another.

    ``observations`` holds what the agent saw before each action, stacked per observation
    key; ``dones`` marks each episode's last step and ``episode_starts`` its first;
    ``sources`` names the line of each episode used (``"<file>:<line>"``), in order.
    """

    observations: dict[str, np.ndarray]
    actions: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    episode_starts: np.ndarray
    sources: list[str]


def load_transitions(path: str | Path, env_id: str, *, episodes: int | None = None, **overrides: Any) -> Demonstrations:
    """The demonstrations of ``env_id``'s procedure in the dataset at ``path``, replayed.

    ``path`` is a ``cwgym dataset --out`` folder or an ``episodes.jsonl`` file. At most
    ``episodes`` demonstrations are used, in file order; ``overrides`` go to
    ``gym.make(env_id, **overrides)``.

    Raises:
        FileNotFoundError: no such file (or a folder without ``episodes.jsonl``).
        ValueError: naming the file and line: a malformed line, no demonstration of the
            procedure (the procedures the file has are named), an episode performed in
            another mode or at another viewport than the env's interface takes, in another
            world, acting through several sessions, a step the interface cannot express,
            or a replay the verifier does not pass.
        TypeError: ``env_id`` is not a cwgym env.
    """
    if episodes is not None and (isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1):
        raise ValueError(f"episodes must be a positive int or None, got {episodes!r}")
    file = _episodes_file(path)
    env = gym.make(env_id, **overrides)
    try:
        base = env.unwrapped
        if not isinstance(base, ComputerEnv):
            raise TypeError(f"load_transitions needs a cwgym env, {env_id} is a {type(base).__name__}")
        records = _demonstrations(file, base.config.procedure, episodes)
        rows: list[tuple[dict, Any, float]] = []
        ends: list[int] = []
        for number, record in records:
            where = f"{file}:{number}: episode {record.get('id', record['seed'])}"
            _check_fits(where, record, env_id, base)
            rows.extend(_replay(where, record, env, base))
            ends.append(len(rows))
    finally:
        env.close()
    count = len(rows)
    dones = np.zeros(count, dtype=bool)
    dones[np.asarray(ends) - 1] = True
    starts = np.zeros(count, dtype=bool)
    starts[np.asarray([0, *ends[:-1]])] = True
    return Demonstrations(
        observations={key: np.stack([obs[key] for obs, _, _ in rows]) for key in rows[0][0]},
        actions=np.asarray([action for _, action, _ in rows]),
        rewards=np.asarray([reward for _, _, reward in rows], dtype=np.float32),
        dones=dones,
        episode_starts=starts,
        sources=[f"{file}:{number}" for number, _ in records],
    )


def _episodes_file(path: str | Path) -> Path:
    file = Path(path)
    if file.is_dir():
        file = file / "episodes.jsonl"
    if not file.is_file():
        raise FileNotFoundError(f"{file}: no such file (load_transitions reads a `cwgym dataset --out` folder or its episodes.jsonl)")
    return file


def _demonstrations(file: Path, procedure: str, episodes: int | None) -> list[tuple[int, dict]]:
    """``(line number, record)`` of the first ``episodes`` demonstrations of ``procedure``."""
    kept: list[tuple[int, dict]] = []
    found: Counter[str] = Counter()  # demonstrations per procedure, for the error below
    with file.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{file}:{number}: not a JSON line ({exc.msg}, column {exc.colno})") from None
            if not isinstance(record, dict):
                raise ValueError(f"{file}:{number}: an episode is a JSON object, got {type(record).__name__}")
            missing = [name for name in REQUIRED if name not in record]
            if missing:
                raise ValueError(f"{file}:{number}: the episode has no {', '.join(missing)}")
            verdict = record["verdict"]
            if record["kind"] not in KEPT or not (isinstance(verdict, dict) and verdict.get("passed") is True):
                continue
            found[str(record["procedure"])] += 1
            if record["procedure"] == procedure:
                kept.append((number, record))
                if episodes is not None and len(kept) == episodes:
                    break
    if not kept:
        has = ", ".join(f"{name} ({n})" for name, n in sorted(found.items())) or "none"
        raise ValueError(f"{file}: no verified demonstration of procedure {procedure!r}; demonstrations it has: {has}")
    return kept


def _mode(base: ComputerEnv) -> str:
    """``tool`` when the interface sends only terminal and filesystem actions, as the expert chooses."""
    families = base.action_codec.families
    return "tool" if families and all(f in TOOL_FAMILIES for f in families) else "gui"


def _check_fits(where: str, record: dict, env_id: str, base: ComputerEnv) -> None:
    """Refuse an episode the env cannot replay: another mode, viewport, world or several sessions."""
    config = base.config
    mode = _mode(base)
    if record["mode"] != mode:
        raise ValueError(f"{where} was performed in mode {record['mode']!r}, but {env_id}'s interface "
                         f"{config.interface!r} takes {mode} actions (make the dataset with --mode {mode})")
    viewport = list(record["viewport"]) if isinstance(record["viewport"], (list, tuple)) else record["viewport"]
    if mode == "gui" and viewport != list(config.viewport):
        shown = "x".join(map(str, viewport)) if isinstance(viewport, list) else repr(viewport)
        raise ValueError(f"{where} was recorded at viewport {shown}, but {env_id} sees {config.width}x{config.height} "
                         f"(make the dataset with --size {config.width}x{config.height}, or pass viewport=[w, h])")
    world, world_seed = record.get("world") or base.episode.blueprint.procedure.world, record.get("world_seed", 0)
    if world != base.world_name or world_seed != config.world_seed:
        raise ValueError(f"{where} ran in world {world!r} seed {world_seed}, but {env_id} runs in "
                         f"{base.world_name!r} seed {config.world_seed}")
    sessions = {step["session_id"] for step in record["steps"] if isinstance(step, dict) and "session_id" in step}
    if len(sessions) > 1:
        raise ValueError(f"{where} acts through several sessions ({', '.join(sorted(map(str, sessions)))}); an env has one agent")


def _replay(where: str, record: dict, env: gym.Env, base: ComputerEnv) -> list[tuple[dict, Any, float]]:
    """Reset to the episode's seed and play its steps through the env's interface; the
    ``(observation, action, reward)`` of every env step, until the env ends the episode."""
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"{where}: the seed must be a non-negative int, got {seed!r}")
    observation, info = env.reset(seed=seed)
    if "instruction" in record and record["instruction"] != info["instruction"]:
        raise ValueError(f"{where}: seed {seed} stages another instance in the env "
                         f"({info['instruction']!r}, the episode had {record['instruction']!r})")
    rows: list[tuple[dict, Any, float]] = []
    ended = False
    for index, plain in enumerate(record["steps"]):
        try:
            step = msgspec.convert(plain, Step)
        except msgspec.ValidationError as exc:
            raise ValueError(f"{where}: step {index} is not a step ({exc})") from None
        try:
            actions = translate(base.episode, step)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        for action in actions:
            after, reward, terminated, truncated, info = env.step(action)
            rows.append((observation, action, float(reward)))
            observation = after
            if terminated or truncated:
                ended = True
                break
        if ended:
            break
    if not rows:
        raise ValueError(f"{where}: the episode has no steps to replay")
    verification = info["verification"]
    if not verification.get("passed"):
        failed = [f"{c['kind']} {c['subject']}" for c in verification.get("checks", []) if not c.get("passed")]
        raise ValueError(f"{where}: the replay through {base.config.interface!r} does not pass the verifier after "
                         f"{len(rows)} actions{' (the env ended the episode)' if ended else ''}; failing: {', '.join(failed) or 'none listed'}")
    return rows
