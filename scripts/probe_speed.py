"""Where the time of a slow path goes: the probes behind the splits quoted in issue notes.

    python scripts/probe_speed.py gc-share       # an easy env's steps: garbage collection's share, the tracked heap
    python scripts/probe_speed.py learn-split    # a masked attention training cycle: env, policy in the rollout, update
    python scripts/probe_speed.py ray-payload    # a Ray actor's batch-step reply: pickling it and reading it back
    python scripts/probe_speed.py notes-keystroke  # Notes: a keystroke then scene(1280, 800), as the native benchmark
    python scripts/probe_speed.py web-reset-split  # a click-button web task's reset, phase by phase

To compare two versions of the code, run a probe in a checkout of each, alternately, a few
times each (fresh processes); a single pair is within the noise.

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
    """The easy semantic env under random element clicks (the ``rl`` benchmark's stepper):
    the collector's share of it with Python's defaults, then the rate with the defaults and
    inside ``training_collector()`` in turns."""
    from benchmarks.bench_rl import EASY, INTERFACES, OBS_MODES, _config, _stepper
    from cwgym.rl.collector import training_collector
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
    rates: dict[str, list[float]] = {"defaults": [], "training_collector()": []}
    for _ in range(3):
        for name in rates:
            begin = time.perf_counter()
            if name == "defaults":
                for _ in range(steps // 3):
                    call()
            else:
                with training_collector():
                    for _ in range(steps // 3):
                        call()
            rates[name].append(steps // 3 / (time.perf_counter() - begin))
    turns = "; ".join(f"{name} {sum(r) / len(r):.0f} steps/s" for name, r in rates.items())
    return (f"{steps / total:.0f} steps/s; collections: {shares}; {len(gc.get_objects()):,} tracked objects. "
            f"In turns: {turns}")


def learn_split(cycles: int = 3) -> str:
    """MaskablePPO with the attention policy on the learn benchmark's env and settings."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    import cwgym.rl  # noqa: F401  (registers the envs)
    from benchmarks.bench_learn import CYCLE, ENV
    from cwgym.rl.attention import attention_policy_kwargs
    from cwgym.rl.collector import training_collector
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

    started = [0.0]

    def collecting(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            spent["collector"] += time.perf_counter() - started[0]

    model.collect_rollouts = timed("rollout", model.collect_rollouts)
    model.train = timed("update", model.train)
    envs.step_wait = timed("env", envs.step_wait)
    with training_collector():  # as cwgym train and the learn benchmark set it
        model.learn(CYCLE)  # warm-up
        spent.clear()
        gc.callbacks.append(collecting)
        begin = time.perf_counter()
        for _ in range(cycles):
            model.learn(CYCLE, reset_num_timesteps=False)
        total = (time.perf_counter() - begin) / cycles
        gc.callbacks.remove(collecting)
    env, rollout, update, collector = (spent[k] / cycles for k in ("env", "rollout", "update", "collector"))
    envs.close()
    return (f"{total:.2f} s per {CYCLE}-step cycle: env {env:.2f} s, the policy in the rollout "
            f"{rollout - env:.2f} s, update {update:.2f} s; of the cycle, garbage collection {collector:.2f} s")


def ray_payload(steps: int = 300) -> str:
    """A Ray actor's slice of the scale benchmark (8 worlds, semantic, its valid actions),
    stepped in this process; its reply pickled and read back as the env does."""
    import benchmarks.bench_scale as scale
    from cwgym.rl.collector import collector_paused
    from cwgym.rl.ray import WorldsActor

    procedure, kwargs = scale._config("semantic")
    actor = WorldsActor({**kwargs, "procedure": procedure}, 8)
    gc.unfreeze()
    actor.batch.reset(list(range(8)), None, None)
    actions = scale._actions(8)
    spent: Counter = Counter()
    size = 0
    for k in range(steps):
        begin = time.perf_counter()
        result = actor.batch.step(actions[k % len(actions)])
        stepped = time.perf_counter()
        packed = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        dumped = time.perf_counter()
        with collector_paused():  # as the env reads a reply
            pickle.loads(packed)
        spent["step"] += stepped - begin
        spent["dumps"] += dumped - stepped
        spent["loads"] += time.perf_counter() - dumped
        size += len(packed)
    ms = {k: v / steps * 1e3 for k, v in spent.items()}
    return (f"batch step of 8 worlds {ms['step']:.2f} ms; its reply ({size // steps:,} bytes) pickled in "
            f"{ms['dumps']:.2f} ms, read back in {ms['loads']:.2f} ms")


def ray_driver(steps: int = 300) -> str:
    """The scale benchmark's 2 actors x 8 semantic worlds on a local Ray: the driver's CPU
    per batch step, its main thread's, and the main thread's CPU in reading the replies."""
    import ray

    import benchmarks.bench_scale as scale
    import cwgym.rl.ray as ray_env

    kind = "ray, 2 actors x 8 worlds"
    envs = scale._make(kind, "semantic", None)
    actions = scale._actions(scale.KINDS[kind][2])
    envs.reset(seed=0)
    for k in range(40):
        envs.step(actions[k])
    read = [0.0]
    unpacked = ray_env._unpacked

    def reading(reply: tuple) -> tuple:
        begin = time.thread_time()
        try:
            return unpacked(reply)
        finally:
            read[0] += time.thread_time() - begin

    ray_env._unpacked = reading
    cpu, thread, wall = time.process_time(), time.thread_time(), time.perf_counter()
    for k in range(40, 40 + steps):
        envs.step(actions[k % len(actions)])
    cpu, thread, wall = ((time.process_time() - cpu) / steps * 1e3, (time.thread_time() - thread) / steps * 1e3,
                         (time.perf_counter() - wall) / steps * 1e3)
    ray_env._unpacked = unpacked
    envs.close()
    if ray.is_initialized():
        ray.shutdown()
    return (f"{kind}, semantic: {wall:.2f} ms per batch step; the driver's CPU {cpu:.2f} ms, its main thread's "
            f"{thread:.2f} ms, of which reading the replies {read[0] / steps * 1e3:.2f} ms")


def notes_keystroke(calls: int = 100) -> str:
    """The native benchmark's Notes row, ours only: type ``a`` into a new note, then compose."""
    from benchmarks.bench_native import M, _opened
    from cwgym import World
    from cwgym.resources import load_world

    definition = load_world("ubuntu-apps")
    _, env = _opened(lambda: World(definition, 7), "notes")
    key = [{"family": "keyboard.v1", "op": "type", "machine": M, "payload": {"text": "a"}}]
    for _ in range(3):
        env.step(key), env.scene(1280, 800)
    times = []
    for _ in range(calls):
        begin = time.perf_counter()
        env.step(key), env.scene(1280, 800)
        times.append(time.perf_counter() - begin)
    return f"Notes: keystroke then scene(1280, 800) p50 {sorted(times)[calls // 2] * 1e3:.3f} ms over {calls} calls"


def web_reset_split(resets: int = 600) -> str:
    """``Episode.reset`` of ``cwgym/web-click-button-v0``, its phases timed one by one."""
    from benchmarks.bench_webtasks import _config
    from cwgym.rl import episode as ep
    from cwgym.rl.env import ComputerEnv

    env = ComputerEnv(**_config("cwgym/web-click-button-v0"))
    env.reset(seed=0)
    e = env.episode
    phases: dict[str, list[float]] = {}

    def timed(name: str, fn, *args, **kwargs):
        begin = time.perf_counter()
        out = fn(*args, **kwargs)
        phases.setdefault(name, []).append(time.perf_counter() - begin)
        return out

    for seed in range(1, resets + 1):  # Episode.reset, phase by phase
        world = e.world
        timed("restore", world.restore, e.blueprint.template)
        e.instance = timed("stage", ep.stage, world, e.blueprint.procedure, seed)
        e.actor = timed("login and autostart", world.environment, e.blueprint.grant)
        e.seed, e.steps, e.pointer_held, e.effect_state, e._machine = seed, 0, False, None, None
        e.channels = timed("first observation", e.actor.observe)["channels"]
        e._peeked, e._mask = False, None
        if e.blueprint.actions.needs_vocabulary:
            e.ctx.vocabulary = ep.typing_vocabulary(e.instance.instruction, e.config.vocabulary, e.config.characters)
        e.words = frozenset(ep.tokens(e.instance.instruction))
        e.verification = timed("verify", e._verify, fresh=True)
        e.reward.start(e.verification, world, e.instance, e.blueprint.machine)
        timed("look", e._look)
        timed("info and mask", e._info, {"status": "reset"}, [])
    split = ", ".join(f"{name} {sorted(v[100:])[len(v[100:]) // 2] * 1e3:.3f}" for name, v in phases.items())
    return f"click-button reset, p50 ms of each phase over {resets - 100} resets: {split}"


PROBES = {"gc-share": gc_share, "learn-split": learn_split, "ray-payload": ray_payload, "ray-driver": ray_driver,
          "notes-keystroke": notes_keystroke, "web-reset-split": web_reset_split}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("probe", choices=sorted(PROBES))
    print(PROBES[parser.parse_args().probe]())


if __name__ == "__main__":
    main()
