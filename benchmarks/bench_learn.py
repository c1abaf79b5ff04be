"""Training throughput: environment steps per second of the baselines' learners.

Each learner trains on ``cwgym/easy-new-folder-v1`` with 8 worlds of cwgym's vector env, one
torch thread and ``cwgym train``'s PPO settings (256 steps per env per update, minibatches
of 64, ``target_kl`` 0.03; the garbage collector set as ``cwgym train`` sets it, see
:mod:`cwgym.rl.collector`), each in a process of its own; a timed call is one
rollout-and-update cycle of 2,048 steps after a warm-up cycle, and the learners take turns
(two cycles each a turn, three turns), so the machine's slow spells fall on all of them. The masked agents' steps cost more than plain
PPO's partly because of the env: a masked policy clicks controls that exist and so opens
windows, where an untrained unmasked one mostly clicks empty rows, which the env refuses
without sending anything. ``masked attention / plain PPO`` is the issue's measure; ``masked
attention / masked MLP`` isolates what the policy network costs.

Needs the ``train`` extra (stable-baselines3, sb3-contrib, torch).
"""

from __future__ import annotations

import contextlib
import multiprocessing
from typing import Any

from benchmarks.harness import Row, row_of

GROUP = "learn"
ENV = "cwgym/easy-new-folder-v1"
CYCLE = 2048  # steps per rollout-and-update (8 envs x 256)
LEARNERS = ("plain PPO, SB3 MLP", "MaskablePPO, SB3 MLP", "MaskablePPO, element attention")


def _serve(learner: str, conn: Any) -> None:
    """A learner in a process of its own: build it, train the warm-up cycle, then time as
    many cycles as each request asks for, training on from where it stopped."""
    import time

    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    import cwgym.rl  # noqa: F401  (registers the envs)
    from cwgym.rl.attention import attention_policy_kwargs
    from cwgym.rl.collector import training_collector
    from cwgym.rl.sb3 import Sb3VecEnv

    torch.set_num_threads(1)
    obs = ["elements", "instruction", "instruction_shown", "focus_tokens", "element_values"]
    envs = Sb3VecEnv(gym.make_vec(ENV, num_envs=8, vectorization_mode="vector_entry_point", obs=obs))
    envs.seed(0)
    cls = PPO if learner.startswith("plain") else MaskablePPO
    kwargs = {"policy_kwargs": attention_policy_kwargs()} if "attention" in learner else {}
    model = cls("MultiInputPolicy", envs, n_steps=256, batch_size=64, target_kl=0.03, seed=0, device="cpu", **kwargs)
    with training_collector():  # as ``cwgym train`` does
        model.learn(CYCLE)  # warm-up
        conn.send("ready")
        while (cycles := conn.recv()) is not None:
            out = []
            for _ in range(cycles):
                start = time.perf_counter()
                model.learn(CYCLE, reset_num_timesteps=False)
                out.append((time.perf_counter() - start) * 1000)
            conn.send(out)
    envs.close()


def cycle_timings(cycles: int, turns: int) -> dict[str, list[float]]:
    """Milliseconds per ``CYCLE``-step training cycle of each learner: each trains in a
    process of its own, and they take turns (``cycles`` cycles each a turn, one learner
    running at a time, the order rotating), so a slow spell of the machine falls on all of
    them rather than on whichever ran then."""
    ctx = multiprocessing.get_context("spawn")
    servers = []
    try:
        for learner in LEARNERS:
            mine, theirs = ctx.Pipe()
            process = ctx.Process(target=_serve, args=(learner, theirs), daemon=True)
            process.start()
            theirs.close()
            servers.append((process, mine))
            try:
                mine.recv()  # warm up one at a time: they would share the cores
            except EOFError:
                raise RuntimeError(f"the {learner} learner died while starting (exit code {process.exitcode})") from None
        times: dict[str, list[float]] = {learner: [] for learner in LEARNERS}
        for turn in range(turns):
            for k in [(turn + i) % len(LEARNERS) for i in range(len(LEARNERS))]:
                servers[k][1].send(cycles)
                times[LEARNERS[k]] += servers[k][1].recv()
        return times
    finally:
        for process, conn in servers:
            with contextlib.suppress(OSError):  # a learner that died has closed its end
                conn.send(None)
            process.join(timeout=60)
            if process.is_alive():
                process.kill()


def run(quick: bool = False) -> list[Row]:
    times = cycle_timings(1 if quick else 2, 2 if quick else 3)
    rows = []
    for learner in LEARNERS:
        row = row_of(GROUP, f"train {CYCLE} steps: {learner}", "new-folder", times[learner])
        row.extra["steps_per_s_p50"] = round(CYCLE / row.p50_ms * 1000, 1)
        row.note = f"{row.extra['steps_per_s_p50']} steps/s at the median cycle"
        rows.append(row)
    plain, mlp, attention = (r.p50_ms for r in rows)
    rows[2].extra["vs_plain_ppo"] = round(plain / attention, 3)
    rows[2].extra["vs_masked_mlp"] = round(mlp / attention, 3)
    rows[2].note += f"; {plain / attention:.2f}x plain PPO's rate, {mlp / attention:.2f}x the masked MLP's"
    return rows
