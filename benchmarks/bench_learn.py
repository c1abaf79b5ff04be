"""Training throughput: environment steps per second of the baselines' learners.

Each learner trains on ``cwgym/easy-new-folder-v1`` with 8 worlds of cwgym's vector env, one
torch thread and ``cwgym train``'s PPO settings (256 steps per env per update, minibatches
of 64, ``target_kl`` 0.03; the garbage collector set as ``cwgym train`` sets it, see
:mod:`cwgym.rl.collector`), each in a fresh process; a timed call is one
rollout-and-update cycle of 2,048 steps after a warm-up cycle. The masked agents' steps cost more than plain
PPO's partly because of the env: a masked policy clicks controls that exist and so opens
windows, where an untrained unmasked one mostly clicks empty rows, which the env refuses
without sending anything. ``masked attention / plain PPO`` is the issue's measure; ``masked
attention / masked MLP`` isolates what the policy network costs.

Needs the ``train`` extra (stable-baselines3, sb3-contrib, torch).
"""

from __future__ import annotations

from benchmarks.harness import Row, isolated, row_of

GROUP = "learn"
ENV = "cwgym/easy-new-folder-v1"
CYCLE = 2048  # steps per rollout-and-update (8 envs x 256)
LEARNERS = ("plain PPO, SB3 MLP", "MaskablePPO, SB3 MLP", "MaskablePPO, element attention")


def cycle_timings(learner: str, cycles: int) -> list[float]:
    """Milliseconds per ``CYCLE``-step training cycle of ``learner`` (run isolated)."""
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
        out = []
        for _ in range(cycles):
            start = time.perf_counter()
            model.learn(CYCLE, reset_num_timesteps=False)
            out.append((time.perf_counter() - start) * 1000)
    envs.close()
    return out


def run(quick: bool = False) -> list[Row]:
    cycles = 2 if quick else 6
    rows = []
    for learner in LEARNERS:
        row = row_of(GROUP, f"train {CYCLE} steps: {learner}", "new-folder", isolated("benchmarks.bench_learn:cycle_timings", learner, cycles))
        row.extra["steps_per_s_p50"] = round(CYCLE / row.p50_ms * 1000, 1)
        row.note = f"{row.extra['steps_per_s_p50']} steps/s at the median cycle"
        rows.append(row)
    plain, mlp, attention = (r.p50_ms for r in rows)
    rows[2].extra["vs_plain_ppo"] = round(plain / attention, 3)
    rows[2].extra["vs_masked_mlp"] = round(mlp / attention, 3)
    rows[2].note += f"; {plain / attention:.2f}x plain PPO's rate, {mlp / attention:.2f}x the masked MLP's"
    return rows
