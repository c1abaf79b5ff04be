"""Where the time of a slow path goes: the probes behind the splits quoted in issue notes.

    python scripts/probe_speed.py gc-share       # an easy env's steps: garbage collection's share, the tracked heap
    python scripts/probe_speed.py learn-split    # a masked attention training cycle: env, policy in the rollout, update
    python scripts/probe_speed.py ray-payload    # a Ray actor's batch-step reply: pickling it and reading it back

Each prints one line. They are probes, not benchmarks (``python -m benchmarks`` has those):
one process, one pass, so a number moves by 10-20% from run to run on a shared machine.
``learn-split`` needs the ``train`` extra, ``ray-payload`` the ``ray`` extra.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def gc_share(steps: int = 6000) -> str:
    """The easy semantic env under random element clicks (the ``rl`` benchmark's stepper)."""
    from benchmarks.bench_rl import EASY, INTERFACES, OBS_MODES, _config, _stepper
    from cwgym.rl.env import ComputerEnv

    kwargs = _config(EASY, **OBS_MODES["semantic"], **INTERFACES["click-element+keys+type-token"])
    call = _stepper(lambda: ComputerEnv(max_episode_steps=40, **kwargs))()
    for _ in range(300):
        call()
    spent: Counter = Counter()
    started = [0.0]

    def clock(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            spent[info["generation"]] += time.perf_counter() - started[0]

    gc.callbacks.append(clock)
    begin = time.perf_counter()
    for _ in range(steps):
        call()
    total = time.perf_counter() - begin
    gc.callbacks.remove(clock)
    shares = ", ".join(f"generation {g} {spent[g] / total:.1%}" for g in sorted(spent))
    return f"{steps / total:.0f} steps/s; collections: {shares}; {len(gc.get_objects()):,} tracked objects"


def learn_split(cycles: int = 3) -> str:
    """MaskablePPO with the attention policy on the learn benchmark's env and settings."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    import cwgym.rl  # noqa: F401  (registers the envs)
    from benchmarks.bench_learn import CYCLE, ENV
    from cwgym.rl.attention import attention_policy_kwargs
    from cwgym.rl.sb3 import Sb3VecEnv

    torch.set_num_threads(1)
    obs = ["elements", "instruction", "instruction_shown", "focus_tokens", "element_values"]
    envs = Sb3VecEnv(gym.make_vec(ENV, num_envs=8, vectorization_mode="vector_entry_point", obs=obs))
    envs.seed(0)
    model = MaskablePPO("MultiInputPolicy", envs, n_steps=256, batch_size=64, target_kl=0.03, seed=0, device="cpu",
                        policy_kwargs=attention_policy_kwargs())
    spent: Counter = Counter()

    def timed(name: str, fn):
        def run(*args, **kwargs):
            begin = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - begin
        return run

    model.collect_rollouts = timed("rollout", model.collect_rollouts)
    model.train = timed("update", model.train)
    envs.step_wait = timed("env", envs.step_wait)
    model.learn(CYCLE)  # warm-up
    spent.clear()
    begin = time.perf_counter()
    for _ in range(cycles):
        model.learn(CYCLE, reset_num_timesteps=False)
    total = (time.perf_counter() - begin) / cycles
    env, rollout, update = (spent[k] / cycles for k in ("env", "rollout", "update"))
    envs.close()
    return (f"{total:.2f} s per {CYCLE}-step cycle: env {env:.2f} s, the policy in the rollout "
            f"{rollout - env:.2f} s, update {update:.2f} s")


def ray_payload(steps: int = 200) -> str:
    """A Ray actor's slice of the scale benchmark (8 worlds, semantic), stepped in this process."""
    import benchmarks.bench_scale as scale
    from cwgym.rl.ray import WorldsActor

    procedure, kwargs = scale._config("semantic")
    actor = WorldsActor({**kwargs, "procedure": procedure}, 8)
    gc.unfreeze()
    actor.batch.reset(list(range(8)), None, None)
    spent: Counter = Counter()
    packed = b""
    for _ in range(steps):
        actions = [actor.blueprint.actions.space.sample() for _ in range(8)]
        begin = time.perf_counter()
        result = actor.batch.step(actions)
        stepped = time.perf_counter()
        packed = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        dumped = time.perf_counter()
        pickle.loads(packed)
        spent["step"] += stepped - begin
        spent["dumps"] += dumped - stepped
        spent["loads"] += time.perf_counter() - dumped
    ms = {k: v / steps * 1e3 for k, v in spent.items()}
    return (f"batch step of 8 worlds {ms['step']:.2f} ms; its reply ({len(packed):,} bytes) pickled in "
            f"{ms['dumps']:.2f} ms, read back in {ms['loads']:.2f} ms")


PROBES = {"gc-share": gc_share, "learn-split": learn_split, "ray-payload": ray_payload}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("probe", choices=sorted(PROBES))
    print(PROBES[parser.parse_args().probe]())


if __name__ == "__main__":
    main()
