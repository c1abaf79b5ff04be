"""Gymnasium rows: env steps per second by observation and action interface, resets, and
vector envs at 1, 2, 4 and 8 worlds (cwgym's in-process and shared-memory vector envs beside
Gymnasium's SyncVectorEnv and AsyncVectorEnv), with the memory each further world costs.

Steps are taken by a random policy that picks only choices the screen offers (an element
row that is there, a key, a vocabulary slot, a pointer cell), so every step acts on the
world; an episode that ends is reset, and the reset counts. Figures from elsewhere sit in
the notes, measured on a 2-CPU machine like ours: MiniWoB++ 18.5 steps/s with screenshots
and 64 without, and resets of 56-84 ms (BrowserGym about 3 s); the reference engine's
random-click-then-scene loop about 400 steps/s with three windows open (its spec,
reference-engine.md section 6).
"""

from __future__ import annotations

import gc
import json
import time
import tracemalloc

import gymnasium as gym
import numpy as np

import cwgym.rl  # noqa: F401  (registers the envs)
from benchmarks.harness import Row, isolated, measure, rate_note, row_of, timings
from cwgym.rl.actions import ActionCodec, ClickElementCodec, FlatCodec
from cwgym.rl.env import ComputerEnv
from cwgym.rl.expert import expert_rollout
from cwgym.rl.specs import entry

GROUP = "rl"
EASY = "cwgym/easy-rename-file-v1"
TERMINAL = "cwgym/terminal-ops-backup-script-v0"
MINIWOB = "MiniWoB++ on a machine like ours: 18.5 steps/s with screenshots, 64 without"
REFERENCE = "reference engine: random click + scene loop about 400 steps/s with three windows open"
OBS_MODES = {
    "semantic": {"obs": ["elements", "instruction"], "preset": "sb3"},
    "pixels 84x84": {"obs": ["pixels", "instruction"], "preset": "sb3", "viewport": [84, 84]},
    "pixels 1280x800": {"obs": ["pixels", "instruction"], "preset": "sb3", "viewport": [1280, 800]},
}
INTERFACES = {
    "click-element+keys+type-token": {},
    "pointer (grid)": {"interface": "pointer", "grid": [32, 20]},
    "screen (JSON envelopes)": {"interface": "screen"},
}
#: Untimed steps before a rate is measured: the first steps import modules and fill caches
#: that a training run pays for once.
WARMUP_STEPS = 100
#: Turns each vector env takes, each in a fresh process (see ``vector_rows``).
REPEATS = 3
SHELL = ["ls ~", "cat ~/Admin/backup-request.txt", "echo hi >> ~/notes.txt", "wc -l ~/notes.txt", "pwd"]


class Policy:
    """Random choices the screen offers, from a seeded generator."""

    def __init__(self, env: gym.Env, seed: int = 0) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        base = env.unwrapped if hasattr(env, "unwrapped") else env
        self.codec = base._blueprint.actions if hasattr(base, "_blueprint") else None

    def __call__(self, info: dict) -> object:
        space = self.env.action_space
        if isinstance(space, gym.spaces.Text):
            return self._text()
        codec = self.codec
        if isinstance(codec, FlatCodec):
            table = self.env.unwrapped._episode.table
            return valid_choice(codec, len(table.rows) if table is not None else 0, self.rng)
        return space.sample()

    def _text(self) -> str:
        if self.env.unwrapped.config.interface == "screen":
            if self.rng.random() < 0.7:
                x, y = (int(v) for v in self.rng.integers(0, (1280, 800)))
                return json.dumps({"family": "pointer.v1", "op": "click", "payload": {"x": x, "y": y, "width": 1280, "height": 800}})
            return json.dumps({"family": "keyboard.v1", "op": "key", "payload": {"key": ["Enter", "Tab", "Escape", "a"][self.rng.integers(4)]}})
        command = SHELL[self.rng.integers(len(SHELL))]
        return json.dumps({"family": "terminal.v1", "op": "execute", "payload": {"command": command}})


def valid_choice(codec: ActionCodec, rows: int, rng: np.random.Generator) -> int:
    """A uniform choice among the parts, then among the part's choices the screen offers.

    A codec that is not a flat combination counts as its only part."""
    parts = (codec.parts, codec.offsets) if isinstance(codec, FlatCodec) else ((codec,), (0,))
    choices = []
    for part, offset in zip(*parts):
        count = min(rows, part.size) if isinstance(part, ClickElementCodec) else part.size
        if count:
            choices.append((offset, count))
    offset, count = choices[rng.integers(len(choices))]
    return int(offset + rng.integers(count))


def _stepper(make_env):
    def setup():
        env = make_env()
        policy = Policy(env)
        state = {"info": env.reset(seed=0)[1], "episode": 0}

        def call():
            _, _, terminated, truncated, info = env.step(policy(state["info"]))
            if terminated or truncated:
                state["episode"] += 1
                _, info = env.reset(seed=state["episode"])
            state["info"] = info

        return call
    return setup


def _steps_row(name: str, label: str, make_env, n: int, note: str = "") -> Row:
    row = measure(GROUP, name, label, _stepper(make_env), n, warmup=WARMUP_STEPS)
    row.extra["steps_per_s"] = 1000.0 / row.extra["mean_ms"]
    row.note = rate_note(row) + (f"; {note}" if note else "")
    return row


def _config(env_id: str, **overrides) -> dict:
    kwargs = dict(entry(env_id).kwargs)
    kwargs.update(overrides)
    return kwargs


def single_env_rows(quick: bool) -> list[Row]:
    n = 100 if quick else 2000
    rows = []
    for mode, obs in OBS_MODES.items():
        for interface, extra in INTERFACES.items():
            kwargs = _config(EASY, **obs, **extra)
            note = MINIWOB if "pixels" in mode else MINIWOB + "; " + REFERENCE
            rows.append(_steps_row(f"one env: {mode} observation, {interface}", "easy-rename-file",
                                   lambda kwargs=kwargs: ComputerEnv(max_episode_steps=40, **kwargs), n // (3 if "1280" in mode else 1), note))
    rows.append(_steps_row("one env: terminal text observation, envelopes (terminal.v1 JSON)", "terminal-ops-backup-script",
                           lambda: ComputerEnv(max_episode_steps=50, **_config(TERMINAL)), n))
    return rows


def reset_rows(quick: bool) -> list[Row]:
    n = 100 if quick else 500
    rows = []
    for label, kwargs in (("semantic", _config(EASY)), ("pixels 84x84", _config(EASY, **OBS_MODES["pixels 84x84"])),
                          ("terminal", _config(TERMINAL))):
        def setup(kwargs=kwargs):
            env = ComputerEnv(**kwargs)
            env.reset(seed=0)
            seeds = iter(range(1, 10**9))
            return lambda: env.reset(seed=next(seeds))
        row = measure(GROUP, f"reset(seed): restore + stage + grant + verify + observe ({label})", "easy-rename-file" if label != "terminal" else "terminal-ops-backup-script", setup, n)
        row.note = "MiniWoB++ resets in 56-84 ms, BrowserGym in about 3 s on a machine like ours"
        rows.append(row)

    def restore():
        env = ComputerEnv(**_config(EASY))
        env.reset(seed=0)
        episode = env._episode
        return lambda: episode.world.restore(episode.blueprint.template)

    rows.append(measure(GROUP, "template restore alone (World.restore)", "easy-rename-file", restore, n * 4))
    return rows


def _vector(kind: str, num: int, env_id: str, **kwargs):
    if kind == "cwgym in-process":
        return gym.make_vec(env_id, num_envs=num, vectorization_mode="vector_entry_point", **kwargs)
    if kind == "cwgym shared memory, 2 workers":
        return gym.make_vec(env_id, num_envs=num, vectorization_mode="vector_entry_point", workers=min(2, num), **kwargs)
    if kind == "gymnasium SyncVectorEnv":
        return gym.make_vec(env_id, num_envs=num, vectorization_mode="sync", **kwargs)
    return gym.make_vec(env_id, num_envs=num, vectorization_mode="async", **kwargs)


def vector_timings(kind: str, num: int, obs_label: str, steps: int, same: bool = False) -> list[float]:
    """Per-step times (ms) of ``steps`` random vector steps after a warm-up (run isolated).

    ``same``: every world is reset to one seed and takes the same action at every step, so
    the worlds stay identical (autoresets draw the same instances too)."""
    envs = _vector(kind, num, EASY, **(OBS_MODES[obs_label] if obs_label != "semantic" else {}))
    try:
        rng = np.random.default_rng(0)
        envs.reset(seed=[0] * num if same else 0)
        codec = ComputerEnv(**_config(EASY))._blueprint.actions
        # the first 10 element rows are always there (the dock and top bar)
        draw = (lambda: [valid_choice(codec, 10, rng)] * num) if same else (lambda: [valid_choice(codec, 10, rng) for _ in range(num)])
        actions = [np.array(draw()) for _ in range(997)]
        counter = iter(range(10**9))
        return timings(lambda: lambda: envs.step(actions[next(counter) % len(actions)]), steps, WARMUP_STEPS)  # every world warms up
    finally:
        envs.close()


def _vector_turns(kinds: tuple[str, ...], repeats: int, *args) -> dict[str, list[float]]:
    """Each kind's ``vector_timings(kind, *args)``, ``repeats`` turns in rotation, each in a
    fresh process."""
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for turn in range(repeats):
        for kind in kinds[turn % len(kinds):] + kinds[: turn % len(kinds)]:
            times[kind] += isolated("benchmarks.bench_rl:vector_timings", kind, *args)
    return times


def vector_rows(quick: bool) -> list[Row]:
    """Each (kind, size) runs in a fresh process (:func:`benchmarks.harness.isolated`),
    ``REPEATS`` times in turns with the other kinds, so a noisy spell on the machine falls
    on all of them alike and no kind pays for another's heap."""
    env_steps = 240 if quick else 3200  # per row: the mean of a heavy-tailed step needs many
    repeats = 1 if quick else REPEATS
    rows = []
    kinds = ("gymnasium SyncVectorEnv", "cwgym in-process", "cwgym shared memory, 2 workers", "gymnasium AsyncVectorEnv")
    for obs_label in ("semantic", "pixels 84x84"):
        for num in (1, 2, 4, 8):
            times = _vector_turns(kinds, repeats, num, obs_label, env_steps // num // repeats)
            rows += _against_sync([row_of(GROUP, f"vector: {kind}, {obs_label}", f"{num} envs", times[kind]) for kind in kinds], num)
    return rows


def _against_sync(rows: list[Row], env_steps_per_call: int, what: str = "") -> list[Row]:
    """Env steps per second on each row, and its ratio to the first (``SyncVectorEnv``)."""
    sync_rate = None
    for row in rows:
        rate = env_steps_per_call * 1000.0 / row.extra["mean_ms"]
        row.extra["env_steps_per_s"] = rate
        row.note = f"{rate:.0f} env steps/s (mean{what})"
        if sync_rate is None:
            sync_rate = rate
        else:
            row.extra["vs_sync"] = rate / sync_rate
            row.note += f"; {rate / sync_rate:.2f}x SyncVectorEnv"
    return rows


def same_world_rows(quick: bool) -> list[Row]:
    """8 worlds that stay identical (one seed, the same random action in all): the ceiling
    of what worlds sharing one repaint cache can save, beside the random rows' distinct
    worlds."""
    num, repeats = 8, (1 if quick else REPEATS)
    env_steps = 240 if quick else 3200
    kinds = ("gymnasium SyncVectorEnv", "cwgym in-process")
    times = _vector_turns(kinds, repeats, num, "semantic", env_steps // num // repeats, True)
    rows = [row_of(GROUP, f"vector, identical worlds: {kind}, semantic", f"{num} envs", times[kind]) for kind in kinds]
    return _against_sync(rows, num, "; one seed and the same random action in every world")


EXPERT_ENVS = 8


def expert_plays(groups: int) -> tuple[list[list[int]], dict[int, list]]:
    """``groups`` groups of 8 seeds, and the expert's actions on each seed."""
    one = gym.make(EASY)
    seeds = [list(range(100 + g * EXPERT_ENVS, 100 + (g + 1) * EXPERT_ENVS)) for g in range(groups)]
    return seeds, {s: [t.action for t in expert_rollout(one, seed=s)] for group in seeds for s in group}


def expert_timings(kind: str, groups: int) -> list[float]:
    """Per-episode times (ms): 8 worlds reset to a group's seeds and play the expert in
    lockstep (run isolated)."""
    seeds, plays = expert_plays(groups)
    steps = max(len(p) for p in plays.values())
    envs = _vector(kind, EXPERT_ENVS, EASY)
    counter = iter(range(10**9))

    def episode():
        group = seeds[next(counter) % groups]
        envs.reset(seed=group)
        for k in range(steps):
            envs.step(np.array([plays[s][min(k, len(plays[s]) - 1)] for s in group]))

    try:
        return timings(lambda: episode, groups, warmup=2)
    finally:
        envs.close()


def expert_vector_rows(quick: bool) -> list[Row]:
    """8 worlds playing the expert on 8 seeds in lockstep, reset included: trajectories that
    agree step for step, the most a trained policy's worlds can share."""
    groups = 3 if quick else 24
    steps = max(len(p) for p in expert_plays(1)[1].values())
    rows = [
        row_of(GROUP, f"vector, expert actions: {kind}, semantic", f"{EXPERT_ENVS} envs", isolated("benchmarks.bench_rl:expert_timings", kind, groups))
        for kind in ("gymnasium SyncVectorEnv", "cwgym in-process")
    ]
    return _against_sync(rows, EXPERT_ENVS * steps, f"; a reset and {steps} expert steps per episode")


def memory_rows(quick: bool) -> list[Row]:
    rows = []
    for label, obs in (("semantic", {}), ("pixels 84x84", OBS_MODES["pixels 84x84"])):
        sizes = {}
        for num in (1, 8):
            gc.collect()
            tracemalloc.start()
            envs = _vector("cwgym in-process", num, EASY, copy=False, **obs)
            envs.reset(seed=0)
            rng = np.random.default_rng(0)
            codec = ComputerEnv(**_config(EASY))._blueprint.actions
            for _ in range(20):
                envs.step(np.array([valid_choice(codec, 10, rng) for _ in range(num)]))
            gc.collect()
            current, _ = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            arrays = sum(v.nbytes for v in envs._observations.values() if isinstance(v, np.ndarray))
            sizes[num] = (current, arrays)
            envs.close()
        (m1, a1), (m8, a8) = sizes[1], sizes[8]
        per_env = ((m8 - a8) - (m1 - a1)) / 7 / 1e6
        rows.append(Row(GROUP, f"memory of each further world in the in-process vector env ({label})", "1 -> 8 envs", 1,
                        per_env, per_env, unit="MB", note="beyond its observation arrays; the target is at most 2 MB",
                        extra={"mb_per_env": per_env}))
    return rows


def run(quick: bool = False) -> list[Row]:
    started = time.perf_counter()
    rows = single_env_rows(quick) + reset_rows(quick) + vector_rows(quick) + same_world_rows(quick) + expert_vector_rows(quick) + memory_rows(quick)
    for row in rows:
        row.extra.setdefault("run_seconds", round(time.perf_counter() - started, 1))
    return rows
