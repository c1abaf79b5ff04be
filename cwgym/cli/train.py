"""``cwgym train``: train a stable-baselines3 agent on one env.

    cwgym train --algo ppo --env cwgym/easy-new-folder-v1 --steps 200000 --n-envs 8 --seed 0 --out runs/ppo-new-folder

Needs the ``train`` extra (stable-baselines3, torch, matplotlib, tensorboard). The env is
used as it is registered, or with ``--obs KEY [KEY...]`` as its observation keys (the env's
``obs`` argument, given to ``make_vec``/``make`` for training, validation and evaluation
alike, and recorded in ``train.json`` as ``obs``): the easy tier's observations are SB3-ready
(every entry a ``Box``), so every algorithm uses ``MultiInputPolicy``; ``dqn`` and ``a2c``
need a ``Discrete`` action space (the easy tier's element-click interfaces have one).

``--algo maskable-ppo`` is sb3-contrib's ``MaskablePPO`` (its ``MultiInputPolicy``,
``MaskableMultiInputActorCriticPolicy``): it samples only the actions the env's action mask
allows (:mod:`cwgym.rl.masks`; the vector env's ``action_masks()``), and validation and
``--eval-episodes`` pass each step's ``info["action_mask"]`` to ``predict``. It is refused
when the env's action space is not ``Discrete``/``MultiDiscrete`` or the env has no
``action_masks``. ``--policy attention`` puts :class:`cwgym.rl.attention.ElementAttentionExtractor`
under the policy (its ``policy_kwargs``: element rows attend to the instruction, the action
logits read each row's encoding; with a pointer-grid interface, also maps of where each kind
of control sits on the grid); it needs the ``elements`` and ``instruction_tokens`` keys
and works with every algorithm. ``train.json`` records ``network`` (``mlp`` or
``attention``) and the ``policy_kwargs`` used; ``--param policy_kwargs={...}`` is laid over
them (``features_extractor_kwargs`` key by key).

Vector env: stable-baselines3's ``VecEnv`` API is not Gymnasium's (``step`` returns 4
values, ``reset`` takes no seed, autoreset is in-step). By default (``--vec cwgym``) ``train``
uses cwgym's own vector env, ``gymnasium.make_vec(env_id, num_envs=K,
vectorization_mode="vector_entry_point")`` (all worlds in this process, forks of one
template), through :class:`cwgym.rl.sb3.Sb3VecEnv`, which converts Gymnasium's next-step
autoreset to SB3's, in SB3's ``VecMonitor`` (one ``monitor/0.monitor.csv`` for all envs).
``--vec dummy`` (one process) and ``--vec subproc`` (``spawn`` workers) use SB3's own
``DummyVecEnv`` and ``SubprocVecEnv`` over ``gymnasium.make(env_id)`` envs, each in SB3's
``Monitor`` (``monitor/<i>.monitor.csv``). Either way the monitor CSVs have ``is_success``
(the verifier passed), env ``i`` is seeded ``seed + i``, ``--reward partial|phases`` trains
on a denser reward (the env's ``reward`` keyword, passed to ``make_vec`` or ``make``), and
resets draw instances from the training seed range.

``--bc-episodes N`` first clones the procedure expert's play on the first ``N`` training
seeds (:mod:`cwgym.rl.imitation`; PPO, A2C and MaskablePPO), then reinforcement learning
carries on; ``--demos DIR`` (with ``--demo-episodes N``: the first ``N``) clones the
demonstrations of a ``cwgym dataset`` directory instead, replayed through the env
(:func:`cwgym.rl.demos.load_transitions`), and fits the critic to their discounted returns
as well. The cloning counts in the wall time and
``train.json`` records it as ``bc``.

``--param KEY=VALUE`` (repeatable) passes an argument to the SB3 algorithm, ``VALUE`` read as
JSON (``--param ent_coef=0.05``); ``train.json`` records them as ``params``.

``--val-episodes V`` (default 50) sets the training range's last ``V`` seeds aside; every
``--val-every`` steps the policy plays them and the best one so far is ``best_model.zip``.
``--torch-threads`` (default 1) fixes torch's thread count, so a seed reproduces the run.

Written to ``--out``: ``model.zip``, ``best_model.zip``, ``progress.csv`` (without the
wall-clock columns) and TensorBoard event files (SB3's logger), ``monitor/*.monitor.csv``
(every training episode), ``learning_curve.png`` (success per episode, rolling mean,
against timesteps), and ``train.json``: the command, vector env (``vec``), seeds, threads,
wall time, machine, versions, validation scores and — with ``--eval-episodes N`` — the
final and the best policy's success rates on the first ``N`` held-out test seeds.
"""

from __future__ import annotations

import argparse
import csv
import inspect
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

__all__ = ["algo_params", "learning_curve", "train"]

ALGOS = ("ppo", "a2c", "dqn", "maskable-ppo")
#: ``--policy``: SB3's MLP over the flattened observation, or cwgym's element-table attention.
POLICIES = ("mlp", "attention")
#: PPO stops an update's epochs once the policy moved this far (approximate KL): on the
#: easy tier, unbounded updates can collapse a policy that had solved the task.
PPO_TARGET_KL = 0.03
VECS = ("cwgym", "dummy", "subproc")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("train", help="train a stable-baselines3 agent on an env (needs the train extra)")
    parser.add_argument("--algo", choices=ALGOS, default="ppo",
                        help="maskable-ppo: sb3-contrib's MaskablePPO on the env's action masks (discrete interfaces)")
    parser.add_argument("--policy", choices=POLICIES, default="mlp",
                        help="attention: rows of the element table attend to the instruction (needs elements and instruction_tokens)")
    parser.add_argument("--obs", nargs="+", metavar="KEY",
                        help="the env's observation keys (its obs argument), for training, validation and evaluation")
    parser.add_argument("--env", required=True, help="a registered env id, e.g. cwgym/easy-new-folder-v1")
    parser.add_argument("--steps", type=int, default=100_000, help="total environment steps")
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", choices=("sparse", "partial", "phases"), help="train with this reward wrapper instead of the env's (success is still the verifier's)")
    parser.add_argument("--vec", choices=VECS, default="cwgym", help="cwgym's own vector env (default), or SB3's DummyVecEnv or SubprocVecEnv over gymnasium.make envs")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="an argument of the SB3 algorithm, VALUE as JSON (e.g. ent_coef=0.05); repeatable")
    parser.add_argument("--bc-episodes", type=int, default=0,
                        help="first clone the expert's play on this many training seeds (ppo and a2c)")
    parser.add_argument("--demos", metavar="DIR",
                        help="first clone the demonstrations of a `cwgym dataset` directory instead of playing the expert")
    parser.add_argument("--demo-episodes", type=int, help="clone at most this many of the --demos episodes (default: all)")
    parser.add_argument("--bc-epochs", type=int, default=200, help="passes over the cloned transitions")
    parser.add_argument("--eval-episodes", type=int, default=0, help="evaluate on this many held-out test seeds")
    parser.add_argument("--val-episodes", type=int, default=50,
                        help="validation seeds (the training range's last ones, never drawn in training); 0: no validation")
    parser.add_argument("--val-every", type=int, default=0, help="validate every this many steps (default: a tenth of --steps)")
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="torch's intra-op threads; with the seed it fixes the run (progress.csv is then identical)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


class Success(gym.Wrapper):
    """Puts ``is_success`` (the verifier passed) in ``info``, for the monitor and SB3's logger."""

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["is_success"] = bool(info.get("verification", {}).get("passed"))
        return obs, reward, terminated, truncated, info


def _make(env_id: str, rank: int, seed: int, monitor_dir: str, overrides: dict[str, Any]) -> Any:
    def thunk() -> Any:
        from stable_baselines3.common.monitor import Monitor

        import cwgym.rl  # noqa: F401

        env = Monitor(Success(gym.make(env_id, **overrides)), os.path.join(monitor_dir, str(rank)), info_keywords=("is_success",))
        env.reset(seed=seed + rank)
        return env

    return thunk


def _vec_env(vec: str, env_id: str, n_envs: int, seed: int, monitor_dir: str, overrides: dict[str, Any]) -> Any:
    """The training ``VecEnv``: cwgym's vector env in SB3's ``VecMonitor``, or SB3's own over ``Monitor``s."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if vec == "cwgym":
        from cwgym.rl.sb3 import Sb3VecEnv

        venv = gym.make_vec(env_id, num_envs=n_envs, vectorization_mode="vector_entry_point", **overrides)
        envs = VecMonitor(Sb3VecEnv(venv), os.path.join(monitor_dir, "0"), info_keywords=("is_success",))
        envs.seed(seed)
        return envs
    thunks = [_make(env_id, i, seed, monitor_dir, overrides) for i in range(n_envs)]
    return SubprocVecEnv(thunks, start_method="spawn") if vec == "subproc" else DummyVecEnv(thunks)


def _progress_callback(total: int, enabled: bool) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class Progress(BaseCallback):
        def _on_training_start(self) -> None:
            self.bar = tqdm(total=total, unit="step", desc="train", disable=not enabled)

        def _on_step(self) -> bool:
            self.bar.update(self.training_env.num_envs)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return Progress()


#: Columns of SB3's log that read the host clock: kept out of ``progress.csv`` (they still
#: go to TensorBoard), so two runs with the same seed and threads write the same file.
WALL_CLOCK_KEYS = ("time/fps", "time/time_elapsed")


def _logger(out: Path) -> Any:
    """SB3's logger writing ``progress.csv`` without the wall-clock columns, and TensorBoard."""
    from stable_baselines3.common.logger import CSVOutputFormat, Logger, make_output_format

    class SimulatedCSV(CSVOutputFormat):
        def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
            kept = {k: v for k, v in key_values.items() if k not in WALL_CLOCK_KEYS}
            super().write(kept, {k: key_excluded[k] for k in kept if k in key_excluded}, step)

    return Logger(str(out), [SimulatedCSV(str(out / "progress.csv")), make_output_format("tensorboard", str(out))])


def validation_seeds(env_id: str, episodes: int) -> tuple[list[int], list[int]]:
    """The env's training range split in two: ``(train, validation)``, validation last."""
    lo, hi = gym.spec(env_id).kwargs.get("train_seeds", [0, 1_000_000])
    if not 0 <= episodes < hi - lo:
        raise SystemExit(f"cwgym train: --val-episodes must be between 0 and {hi - lo - 1} for {env_id}")
    return [lo, hi - episodes], [hi - episodes, hi]


def _validation_callback(env_id: str, seeds: list[int], every: int, out: Path, overrides: dict[str, Any]) -> Any:
    """Scores the policy on the validation seeds every ``every`` steps; keeps the best model."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Validation(BaseCallback):
        def _on_training_start(self) -> None:
            self.history: list[dict[str, Any]] = []
            self.best: dict[str, Any] | None = None
            self.next_at = every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_at:
                self.next_at += every
                self.validate()
            return True

        def _on_training_end(self) -> None:
            if not self.history or self.history[-1]["timesteps"] != self.num_timesteps:
                self.validate()

        def validate(self) -> None:
            score = success_on_seeds(self.model, env_id, range(*seeds), overrides)
            entry = {"timesteps": self.num_timesteps, "success_rate": score}
            self.history.append(entry)
            self.logger.record("validation/success_rate", score)
            if self.best is None or score > self.best["success_rate"]:
                self.best = entry
                self.model.save(out / "best_model.zip")

    return Validation()


def _monitor_rows(monitor_dir: Path) -> list[dict[str, float]]:
    """Every finished training episode of every ``*.monitor.csv``, in wall-time order."""
    rows = []
    for path in sorted(monitor_dir.glob("*.monitor.csv")):
        lines = path.read_text().splitlines()[1:]  # the first line is the monitor's JSON header
        for row in csv.DictReader(lines):
            rows.append({"r": float(row["r"]), "l": int(row["l"]), "t": float(row["t"]), "is_success": float(row.get("is_success") == "True")})
    return sorted(rows, key=lambda r: r["t"])


def learning_curve(monitor_dir: Path, path: Path, title: str, window: int = 50) -> str | None:
    """Success and return per training episode (rolling mean) against timesteps; why it was skipped, or None."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError as exc:
        return f"no learning curve ({exc})"
    rows = _monitor_rows(monitor_dir)
    if not rows:
        return "no learning curve: no training episode finished"
    steps = np.cumsum([r["l"] for r in rows])
    w = max(1, min(window, len(rows) // 5 or 1))
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in (("is_success", "success"), ("r", "return")):
        values = np.array([r[key] for r in rows])
        rolling = np.array([values[max(0, i - w + 1) : i + 1].mean() for i in range(len(values))])
        ax.plot(steps, rolling, label=f"{label} (rolling mean of {w} episodes)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("timesteps")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


def takes_masks(model: Any) -> bool:
    """Whether ``model.predict`` takes ``action_masks`` (sb3-contrib's maskable algorithms)."""
    return "action_masks" in inspect.signature(model.predict).parameters


def success_on_seeds(model: Any, env_id: str, seeds: range, overrides: dict[str, Any] | None = None) -> float:
    """The share of ``seeds`` whose episode the policy's deterministic actions solve; a
    maskable model is given the env's action mask (``info["action_mask"]``) at every step."""
    env = gym.make(env_id, **(overrides or {}))
    masked = takes_masks(model)
    successes = 0
    try:
        for seed in seeds:
            obs, info = env.reset(seed=seed)
            while True:
                if masked and "action_mask" not in info:
                    raise ValueError(f"cwgym train: {env_id} gives no info['action_mask'] for the maskable policy")
                masks = {"action_masks": info["action_mask"]} if masked else {}
                action, _ = model.predict(obs, deterministic=True, **masks)
                obs, _, terminated, truncated, info = env.step(int(action) if getattr(action, "ndim", 1) == 0 else action)
                if terminated or truncated:
                    successes += bool(info["verification"].get("passed"))
                    break
    finally:
        env.close()
    return successes / len(seeds)


def evaluate_policy_on_test(model: Any, env_id: str, episodes: int, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The policy's success on the env's first ``episodes`` held-out test seeds (deterministic
    actions), the env made with ``overrides`` (the ``obs`` it was trained on)."""
    lo, _ = gym.spec(env_id).kwargs.get("test_seeds", [1_000_000, 1_010_000])
    rate = success_on_seeds(model, env_id, range(lo, lo + episodes), overrides)
    return {"test_seeds": [lo, lo + episodes], "episodes": episodes, "success_rate": rate}


def algo_params(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as the algorithm's keyword arguments (VALUE read as JSON, else text).

    Raises:
        SystemExit: an item without ``=`` or with an empty key.
    """
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"cwgym train: --param takes KEY=VALUE, got {item!r}")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    return params


def _check_options(args: argparse.Namespace) -> None:
    """One-line errors for options that do not go together, before any env is made."""
    if args.torch_threads < 1:
        raise SystemExit("cwgym train: --torch-threads must be 1 or more")
    if args.bc_episodes and args.demos:
        raise SystemExit("cwgym train: clone the expert (--bc-episodes) or a dataset (--demos), not both")
    if args.demo_episodes is not None and not args.demos:
        raise SystemExit("cwgym train: --demo-episodes needs --demos")
    if args.demo_episodes is not None and args.demo_episodes < 1:
        raise SystemExit("cwgym train: --demo-episodes must be 1 or more")
    if (args.bc_episodes or args.demos) and args.algo == "dqn":
        raise SystemExit("cwgym train: --bc-episodes and --demos need an actor-critic algorithm (ppo, a2c or maskable-ppo)")


def _algorithm(algo: str) -> Any:
    """The SB3 (or sb3-contrib) class of ``--algo``."""
    if algo == "maskable-ppo":
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise SystemExit("cwgym train: --algo maskable-ppo needs sb3-contrib: pip install sb3-contrib") from None
        return MaskablePPO
    import stable_baselines3 as sb3

    return {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[algo]


def _refusal(args: argparse.Namespace, envs: Any) -> str | None:
    """Why ``--algo`` or ``--policy`` cannot train on ``envs``, or ``None``."""
    from gymnasium import spaces

    obs = f" with --obs {' '.join(args.obs)}" if args.obs else ""
    if args.algo == "maskable-ppo":
        from sb3_contrib.common.maskable.utils import is_masking_supported

        if not isinstance(envs.action_space, (spaces.Discrete, spaces.MultiDiscrete)):
            return f"--algo maskable-ppo needs a Discrete or MultiDiscrete action space; {args.env}'s is {envs.action_space}"
        if not is_masking_supported(envs):
            return f"--algo maskable-ppo needs action masks; {args.env} has no action_masks()"
    if args.policy == "attention":
        keys = set(getattr(envs.observation_space, "spaces", {}))
        missing = [key for key in ("elements", "instruction_tokens") if key not in keys]
        if missing:
            return (f"--policy attention needs the observation keys elements and instruction_tokens; "
                    f"{args.env}{obs} has no {' or '.join(missing)} (its keys: {', '.join(sorted(keys)) or 'none'})")
    return None


def _policy_kwargs(args: argparse.Namespace, overrides: dict[str, Any], given: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The ``policy_kwargs`` of ``--policy`` with ``--param policy_kwargs=...`` over them, and
    their JSON form for ``train.json`` (``None`` for the plain MLP without ``policy_kwargs``)."""
    kwargs: dict[str, Any] = {}
    if args.policy == "attention":
        from cwgym.rl.attention import attention_policy_kwargs
        from cwgym.rl.config import task_config

        config = task_config({**gym.spec(args.env).kwargs, **overrides})
        # a pointer grid interface points at cells: the extractor adds its grid maps
        grid = config.grid if "pointer" in config.interface.split("+") else None
        kwargs = attention_policy_kwargs(token_vocab=config.token_vocab, grid=grid)
        if args.algo == "dqn":
            kwargs["net_arch"] = []  # the Q-values straight from the features, as the actor's logits
    for key, value in (given or {}).items():
        if key == "features_extractor_kwargs" and isinstance(value, dict) and key in kwargs:
            value = {**kwargs[key], **value}
        kwargs[key] = value
    if not kwargs:
        return kwargs, None
    extractor = kwargs.get("features_extractor_class")
    plain = {**kwargs, "features_extractor_class": f"{extractor.__module__}.{extractor.__qualname__}"} if extractor else dict(kwargs)
    return kwargs, plain


def _clone(model: Any, args: argparse.Namespace, overrides: dict[str, Any]) -> dict[str, Any]:
    """Behaviour cloning before reinforcement learning: of the expert on the first
    ``--bc-episodes`` training seeds, or of the ``--demos`` dataset's demonstrations."""
    from cwgym.rl.imitation import clone, discounted_returns, expert_transitions

    if args.demos:
        from cwgym.rl.demos import load_transitions

        try:
            demos = load_transitions(args.demos, args.env, episodes=args.demo_episodes, **overrides)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"cwgym train: --demos {args.demos}: {exc}") from None
        returns = discounted_returns(demos.rewards, demos.dones, model.gamma)  # the critic learns them too
        report = clone(model, demos.observations, demos.actions, epochs=args.bc_epochs, seed=args.seed, returns=returns)
        return {"demos": str(args.demos), "episodes": len(demos.sources), **report}
    lo, _ = gym.spec(args.env).kwargs.get("train_seeds", [0, 1_000_000])
    seeds = range(lo, lo + args.bc_episodes)
    observations, actions = expert_transitions(args.env, seeds, **overrides)
    report = clone(model, observations, actions, epochs=args.bc_epochs, seed=args.seed)
    return {"episodes": args.bc_episodes, "seeds": [seeds.start, seeds.stop], **report}


def train(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    import cwgym.rl  # noqa: F401
    from cwgym.rl.collector import training_collector

    _check_options(args)
    params = algo_params(args.param)
    if not isinstance(params.get("policy_kwargs", {}), dict):
        raise SystemExit(f"cwgym train: --param policy_kwargs must be a JSON object, got {params['policy_kwargs']!r}")
    cls = _algorithm(args.algo)
    torch.set_num_threads(args.torch_threads)
    out = Path(args.out)
    monitor = out / "monitor"
    monitor.mkdir(parents=True, exist_ok=True)
    shown = {"obs": list(args.obs)} if args.obs else {}  # what the policy sees: training, validation, test
    overrides = {**({"reward": args.reward} if args.reward else {}), **shown}
    train_seeds, val_seeds = validation_seeds(args.env, args.val_episodes)
    envs = _vec_env(args.vec, args.env, args.n_envs, args.seed, str(monitor), {**overrides, "train_seeds": train_seeds})
    refusal = _refusal(args, envs)
    if refusal:
        envs.close()
        raise SystemExit(f"cwgym train: {refusal}")
    kwargs: dict[str, Any] = {"seed": args.seed, "verbose": 0, "device": "cpu"}
    if args.algo in ("ppo", "maskable-ppo"):
        kwargs["n_steps"] = max(8, min(256, args.steps // max(1, args.n_envs)))
        kwargs["batch_size"] = min(64, kwargs["n_steps"] * args.n_envs)
        kwargs["target_kl"] = PPO_TARGET_KL
    if args.algo == "dqn":
        kwargs["learning_starts"] = min(1000, args.steps // 10)
    kwargs.update(params)
    policy_kwargs, policy_record = _policy_kwargs(args, overrides, params.get("policy_kwargs"))
    if policy_kwargs:
        kwargs["policy_kwargs"] = policy_kwargs
    try:
        model = cls("MultiInputPolicy", envs, **kwargs)
    except TypeError as exc:
        envs.close()
        raise SystemExit(f"cwgym train: {args.algo} does not take the --param given ({exc})") from None
    model.set_logger(_logger(out))
    callbacks = [_progress_callback(args.steps, not args.quiet)]
    if args.val_episodes:
        every = args.val_every or max(1, args.steps // 10)
        callbacks.append(_validation_callback(args.env, val_seeds, every, out, overrides))
    started = time.perf_counter()
    try:
        cloned = _clone(model, args, overrides) if args.bc_episodes or args.demos else None
    except SystemExit:
        envs.close()
        raise
    with training_collector():  # the setup out of the collector's walks (cwgym.rl.collector)
        model.learn(args.steps, callback=callbacks)
    wall = time.perf_counter() - started
    model.save(out / "model.zip")
    envs.close()
    report: dict[str, Any] = {
        "command": "cwgym train " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else None,
        "algo": args.algo,
        "policy": "MultiInputPolicy",
        "network": args.policy,
        "policy_kwargs": policy_record,
        "obs": list(args.obs) if args.obs else None,
        "env": args.env,
        "reward": args.reward or "the env's",
        "params": params,
        "bc": cloned,
        "steps": args.steps,
        "n_envs": args.n_envs,
        "vec": args.vec,
        "seed": args.seed,
        "torch_threads": args.torch_threads,
        "train_seeds": train_seeds,
        "wall_seconds": round(wall, 1),
        "machine": {"platform": platform.platform(), "processor": platform.processor(), "cpus": os.cpu_count()},
        "versions": versions(),
    }
    if args.val_episodes:
        validation = callbacks[-1]
        report["validation"] = {"seeds": val_seeds, "history": validation.history, "best": validation.best}
    skipped = learning_curve(monitor, out / "learning_curve.png", f"{args.algo} ({args.policy}) on {args.env}")
    if skipped:
        print(f"cwgym train: {skipped}", file=sys.stderr)
    if args.eval_episodes:
        report["test"] = evaluate_policy_on_test(model, args.env, args.eval_episodes, shown)
        if args.val_episodes:
            best = cls.load(out / "best_model.zip", device="cpu")
            report["test_best"] = evaluate_policy_on_test(best, args.env, args.eval_episodes, shown)
    (out / "train.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def versions() -> dict[str, str]:
    """Every library a training run's numbers depend on, and Python's version."""
    from importlib.metadata import PackageNotFoundError, version

    import cwgym

    found = {"python": platform.python_version(), "cwgym": cwgym.__version__}
    for name in ("stable-baselines3", "sb3-contrib", "torch", "gymnasium", "numpy"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def run(args: argparse.Namespace) -> int:
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        print("cwgym train: needs stable-baselines3 and torch: pip install torch==2.13.0 && pip install '.[train]'", file=sys.stderr)
        return 1
    report = train(args)
    print(json.dumps(report, indent=2))
    return 0
