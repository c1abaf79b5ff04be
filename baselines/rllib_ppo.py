"""RLlib's PPO on a cwgym env, sampled by several env runners (Ray actors).

    python -m baselines.rllib_ppo --env cwgym/easy-open-app-v1 --iterations 3 --env-runners 2 \\
        [--address ADDR] [--out DIR]

Each iteration the env runners step their copies of the env in parallel and the learner
(in this process) updates the policy on what they sampled; the script prints each
iteration's return and episode statistics and the env steps each runner sampled, then plays
the final policy greedily on the env's first ``--eval-episodes`` held-out test seeds with
cwgym's own env and prints the success rate (the verifier's verdict). With ``--out`` it
saves the algorithm's checkpoint to ``DIR/checkpoint`` and a summary to
``DIR/rllib_ppo.json``.

Spaces. The env is made with ``preset="sb3"``: every observation entry a ``Box`` in
``[0, 1]`` (the element table and the instruction's token ids) and a ``Discrete`` (or, for
terminal tasks, ``MultiDiscrete``) action space, which RLlib's default PPO RLModule and its
categorical distributions take as they are. The observation stays a ``Dict``, which the
default RLModule refuses ("No default encoder config for obs space=Dict(...)"; a 2-D
``Box`` such as the element table alone is refused too), so RLlib's
``FlattenObservations`` env-to-module connector concatenates the entries into one vector
on each runner (on the easy tier 96 x 15 element table + 64 tokens = 1,504 values); the
learner trains on those flattened observations, and :class:`RLlibPolicy` flattens with the
same function when it plays cwgym's env. A connector rather than gymnasium's ``FlattenObservation``
wrapper keeps the env the registered one, made by id, so no code of this file has to be
importable on the runners.

Registering the ids on every runner. An env runner is a separate Ray worker process that
makes its env with ``gymnasium.make_vec(id)``; cwgym's ids exist only in a process that
imported ``cwgym``. The env is therefore given to RLlib as ``cwgym:cwgym/<name>-v<N>``:
Gymnasium imports the module named before the colon before it looks the id up, in whatever
process makes the env. Each node of a cluster must have cwgym installed, the same version
as the driver (``pip install .`` from a clone, or the wheel ``pip wheel . -w dist``
builds) beside ``ray[rllib]`` and torch: the runners import it from their own Python
environment.

Where it runs. Without ``--address`` a local Ray instance is started with at least one CPU
per env runner (logical CPUs: on a 2-core machine two runners share the cores with the
learner). ``--address auto`` joins the cluster this machine is a node of, and
``--address ray://HEAD:10001`` connects through Ray Client (client and cluster on the same
Ray and Python versions); the learner and the test-seed evaluation run where this script
runs, the env runners wherever the cluster places them. The driver must hold the cluster's
token where the cluster has Ray's token authentication on (``RAY_AUTH_MODE``); one that
does not is refused with a message naming the address.

``ray[rllib]`` pins gymnasium 1.2.2, which cwgym works with.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

__all__ = [
    "RLlibPolicy",
    "connect",
    "iteration_stats",
    "main",
    "ppo_config",
    "rllib_env_id",
    "success_on_test_seeds",
    "train",
]

PROG = "baselines.rllib_ppo"
#: The observation and action preset the env is made with (see the module docstring).
PRESET = "sb3"
#: Under ``result["env_runners"]``: env steps each runner sampled this iteration, by its index.
STEPS_BY_RUNNER = "env_steps_by_runner"
#: What ``--address`` takes: Ray Client, a GCS address, or the cluster this machine is in.
ADDRESS = re.compile(r"auto|ray://[A-Za-z0-9.\-]+:\d{1,5}|[A-Za-z0-9.\-]+:\d{1,5}")
ADDRESS_FORMS = "'auto', 'ray://HOST:PORT' or 'HOST:PORT'"
#: The local instance's address: nothing outside this machine reaches it.
LOOPBACK = "127.0.0.1"
#: How long ``--address HOST:PORT`` may take to accept a connection before it is refused.
PROBE_SECONDS = 10.0
SUMMARY_FILE = "rllib_ppo.json"
CHECKPOINT_DIR = "checkpoint"


def rllib_env_id(env_id: str) -> str:
    """``env_id`` as RLlib's runners are given it: ``cwgym:<id>``, so making it imports cwgym.

    Raises:
        ValueError: no such cwgym env (the message names the id and ``cwgym list``).
    """
    import cwgym  # noqa: F401  (registers the ids in this process)

    bare = env_id.removeprefix("cwgym:")
    if not bare.startswith("cwgym/") or bare not in gym.registry:
        raise ValueError(f"no cwgym env {env_id!r} (`cwgym list` prints the ids)")
    return f"cwgym:{bare}"


def _steps_by_runner_callback() -> Callable[..., None]:
    """An ``on_sample_end`` callback logging each runner's sampled env steps under its index.

    Made in a function so that cloudpickle ships it by value: the runners need not import
    this file.
    """

    def log_runner_steps(*, env_runner: Any, metrics_logger: Any, samples: Any, **_: Any) -> None:
        steps = sum(len(episode) for episode in samples)
        metrics_logger.log_value((STEPS_BY_RUNNER, str(env_runner.worker_index)), steps, reduce="sum")

    return log_runner_steps


def _flatten_connector() -> Callable[..., Any]:
    """The ``env_to_module_connector`` factory: RLlib's ``FlattenObservations``, shipped by value."""

    def flatten(env: Any = None, spaces: Any = None, device: Any = None) -> Any:
        from ray.rllib.connectors.env_to_module import FlattenObservations

        return FlattenObservations()

    return flatten


def ppo_config(
    env_id: str,
    *,
    env_runners: int = 2,
    envs_per_runner: int = 4,
    batch: int = 1024,
    minibatch: int = 128,
    epochs: int = 6,
    lr: float = 3e-4,
    seed: int = 0,
) -> Any:
    """A ``PPOConfig`` (new API stack) for ``env_id`` sampled by ``env_runners`` runners.

    ``batch`` env steps an iteration, split evenly over the runners' envs, trained in
    minibatches of ``minibatch`` for ``epochs`` passes; entropy bonus 0.01, GAE lambda 0.95.
    """
    from ray.rllib.algorithms.ppo import PPOConfig

    for name, value, least in (("env_runners", env_runners, 0), ("envs_per_runner", envs_per_runner, 1),
                               ("batch", batch, 1), ("minibatch", minibatch, 1), ("epochs", epochs, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
    if minibatch > batch:
        raise ValueError(f"minibatch ({minibatch}) must not exceed batch ({batch})")
    if not (isinstance(lr, float | int) and math.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be a positive number, got {lr!r}")
    return (
        PPOConfig()
        .environment(rllib_env_id(env_id), env_config={"preset": PRESET})
        .env_runners(
            num_env_runners=env_runners,
            num_envs_per_env_runner=envs_per_runner,
            env_to_module_connector=_flatten_connector(),
        )
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=minibatch,
            num_epochs=epochs,
            lr=lr,
            gamma=0.99,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .callbacks(on_sample_end=_steps_by_runner_callback())
        .debugging(seed=seed)
    )


def _number(value: Any) -> float:
    return float(value) if value is not None else math.nan


def iteration_stats(result: dict[str, Any]) -> dict[str, Any]:
    """The figures of one ``algo.train()`` result that the script prints and saves.

    ``return_mean`` (and min, max, ``length_mean``) are RLlib's: over the last 100 episodes
    the runners finished, so they can reach back into earlier iterations.
    ``env_steps_by_runner`` maps each env runner's index to the env steps it sampled this
    iteration.
    """
    runners = result.get("env_runners", {})
    by_runner = runners.get(STEPS_BY_RUNNER, {})
    return {
        "iteration": int(result["training_iteration"]),
        "env_steps": int(runners.get("num_env_steps_sampled", 0)),
        "env_steps_lifetime": int(result.get("num_env_steps_sampled_lifetime", 0)),
        "env_steps_by_runner": {int(k): int(by_runner[k]) for k in sorted(by_runner, key=int)},
        "episodes": int(runners.get("num_episodes", 0)),
        "return_mean": _number(runners.get("episode_return_mean")),
        "return_min": _number(runners.get("episode_return_min")),
        "return_max": _number(runners.get("episode_return_max")),
        "length_mean": _number(runners.get("episode_len_mean")),
        "seconds": float(result.get("time_this_iter_s", math.nan)),
    }


def print_now(line: str) -> None:
    """Print ``line`` at once, also when stdout is a pipe (a long run piped to ``tee``)."""
    print(line, flush=True)


def _format(stats: dict[str, Any]) -> str:
    runners = ", ".join(f"runner {k}: {v}" for k, v in stats["env_steps_by_runner"].items())
    return (
        f"iteration {stats['iteration']}: env steps {stats['env_steps']} ({runners}; "
        f"lifetime {stats['env_steps_lifetime']}), episodes {stats['episodes']}, "
        f"return mean {stats['return_mean']:.3f} (min {stats['return_min']:.3f}, "
        f"max {stats['return_max']:.3f}), length {stats['length_mean']:.2f}, "
        f"{stats['seconds']:.1f} s"
    )


class RLlibPolicy:
    """A trained RLlib RLModule as a policy for cwgym's env: ``predict(obs)`` like SB3's.

    The observation (the env's ``Dict``) is flattened by the function RLlib's
    ``FlattenObservations`` connector uses, so the module sees what it was trained on.
    """

    def __init__(self, module: Any, observation_space: gym.spaces.Space) -> None:
        from ray.rllib.utils.spaces.space_utils import get_base_struct_from_space

        self.module = module
        self.observation_space = observation_space
        self._struct = get_base_struct_from_space(observation_space)
        self._distribution = module.get_inference_action_dist_cls()

    @classmethod
    def from_checkpoint(cls, checkpoint: str | Path, observation_space: gym.spaces.Space) -> RLlibPolicy:
        """The policy in an algorithm checkpoint (``algo.save_to_path``): its learner's module."""
        from ray.rllib.core import (
            COMPONENT_LEARNER,
            COMPONENT_LEARNER_GROUP,
            COMPONENT_RL_MODULE,
            DEFAULT_MODULE_ID,
        )
        from ray.rllib.core.rl_module.rl_module import RLModule

        path = Path(checkpoint) / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER
        path = path / COMPONENT_RL_MODULE / DEFAULT_MODULE_ID
        if not path.is_dir():
            raise FileNotFoundError(f"{checkpoint}: not an RLlib algorithm checkpoint (no {path})")
        return cls(RLModule.from_checkpoint(path), observation_space)

    def flatten(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """``obs`` as the module's input vector."""
        from ray.rllib.utils.numpy import flatten_inputs_to_1d_tensor

        return np.asarray(flatten_inputs_to_1d_tensor(obs, self._struct, batch_axis=False), dtype=np.float32)

    def logits(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The action distribution's inputs for one observation."""
        import torch

        with torch.no_grad():
            out = self.module.forward_inference({"obs": torch.from_numpy(self.flatten(obs)[None])})
        return out["action_dist_inputs"][0].numpy()

    def predict(self, obs: dict[str, np.ndarray], deterministic: bool = True) -> tuple[Any, None]:
        """One action: the most likely (``deterministic``) or a sample; and no recurrent state."""
        import torch

        logits = torch.from_numpy(self.logits(obs)[None])
        dist = self._distribution.from_logits(logits)
        action = (dist.to_deterministic() if deterministic else dist).sample()[0].numpy()
        return (int(action) if action.ndim == 0 else action), None


def success_on_test_seeds(policy: RLlibPolicy, env_id: str, episodes: int) -> dict[str, Any]:
    """The policy's greedy success on the env's first ``episodes`` held-out test seeds."""
    from cwgym.cli.train import evaluate_policy_on_test

    return evaluate_policy_on_test(policy, env_id.removeprefix("cwgym:"), episodes, {"preset": PRESET})


def connect(address: str | None, env_runners: int) -> None:
    """Start a local Ray instance (``address`` None) or join the cluster at ``address``.

    The local instance is a new one (``address="local"``: never another program's cluster
    on this machine, which a plain ``ray.init()`` would join), on the loopback address, with
    at least one logical CPU per env runner.

    Raises:
        SystemExit: ``address`` is not of a form Ray takes, nothing listens there, or no
            cluster answers.
    """
    import ray

    if address is None:
        ray.init(address="local", num_cpus=max(os.cpu_count() or 1, env_runners),
                 include_dashboard=False, _node_ip_address=LOOPBACK)
        return
    if not ADDRESS.fullmatch(address):
        raise SystemExit(f"{PROG}: --address {address!r} is not {ADDRESS_FORMS}")
    if address != "auto":
        host, _, port = address.removeprefix("ray://").rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=PROBE_SECONDS).close()
        except OSError as exc:
            raise SystemExit(
                f"{PROG}: --address {address!r}: nothing answers at {host}:{port} ({exc})"
            ) from None
    try:
        ray.init(address=address)
    except (ConnectionError, TimeoutError, RuntimeError, ValueError) as exc:
        raise SystemExit(f"{PROG}: --address {address!r}: no Ray cluster to join ({exc})") from None
    cpus = ray.cluster_resources().get("CPU", 0)
    if cpus < env_runners:
        print(f"{PROG}: the cluster has {cpus:g} CPUs for {env_runners} env runners (one each): "
              "they wait until it grows", file=sys.stderr)


def train(
    config: Any,
    iterations: int,
    *,
    out: str | Path | None = None,
    eval_episodes: int = 0,
    torch_threads: int | None = 1,
    log: Callable[[str], None] = print_now,
) -> tuple[dict[str, Any], RLlibPolicy]:
    """Build the algorithm from ``config`` on the Ray instance this process is connected to,
    train ``iterations`` iterations, evaluate on the test seeds, and save to ``out``.

    Returns the summary (``iterations``: :func:`iteration_stats` of each; ``test`` with
    ``eval_episodes``; ``checkpoint`` with ``out``) and the trained policy; the algorithm
    and its env runners are stopped.

    The learner runs in this process, on ``torch_threads`` threads for the call (``None``:
    torch's own choice): on a shared 2-core machine, with the two env runners on the same
    cores, torch's default of two threads made each iteration several times slower than one.
    """
    if not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be an int >= 1, got {iterations!r}")
    if torch_threads is not None and (not isinstance(torch_threads, int) or torch_threads < 1):
        raise ValueError(f"torch_threads must be an int >= 1 or None, got {torch_threads!r}")
    import torch

    env_id = config.env.removeprefix("cwgym:")
    threads = torch.get_num_threads()
    if torch_threads is not None:
        torch.set_num_threads(torch_threads)
    started = time.perf_counter()
    try:
        summary, policy = _train(config, env_id, iterations, out, eval_episodes, log)
    finally:
        torch.set_num_threads(threads)
    summary["torch_threads"] = torch_threads
    summary["wall_seconds"] = round(time.perf_counter() - started, 1)
    if out is not None:
        (Path(out) / SUMMARY_FILE).write_text(json.dumps(summary, indent=2) + "\n")
    return summary, policy


def _train(
    config: Any,
    env_id: str,
    iterations: int,
    out: str | Path | None,
    eval_episodes: int,
    log: Callable[[str], None],
) -> tuple[dict[str, Any], RLlibPolicy]:
    algo = config.build_algo()
    summary: dict[str, Any] = {
        "env": env_id,
        "env_runners": config.num_env_runners,
        "envs_per_runner": config.num_envs_per_env_runner,
        "batch": config.train_batch_size_per_learner,
        "minibatch": config.minibatch_size,
        "epochs": config.num_epochs,
        "lr": config.lr,
        "seed": config.seed,
        "iterations": [],
    }
    try:
        for _ in range(iterations):
            stats = iteration_stats(algo.train())
            summary["iterations"].append(stats)
            log(_format(stats))
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            summary["checkpoint"] = algo.save_to_path(Path(out).resolve() / CHECKPOINT_DIR)
            log(f"checkpoint: {summary['checkpoint']}")
        observation_space = gym.make(env_id, preset=PRESET).observation_space
        # The local env runner's inference module: the learner's weights after the last update.
        policy = RLlibPolicy(algo.get_module(), observation_space)
        if eval_episodes:
            summary["test"] = success_on_test_seeds(policy, env_id, eval_episodes)
            test = summary["test"]
            first, end = test["test_seeds"]
            log(f"test success: {test['success_rate']:.3f} on seeds {first}..{end - 1}")
    finally:
        algo.stop()
    return summary, policy


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m {PROG}", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True, help="a cwgym env id, e.g. cwgym/easy-open-app-v1")
    parser.add_argument("--iterations", type=int, default=3, help="training iterations (algo.train() calls)")
    parser.add_argument("--env-runners", type=int, default=2, help="env runner actors sampling in parallel")
    parser.add_argument("--envs-per-runner", type=int, default=4,
                        help="envs each runner steps as one vector env")
    parser.add_argument("--batch", type=int, default=1024, help="env steps sampled per iteration")
    parser.add_argument("--minibatch", type=int, default=128, help="SGD minibatch size")
    parser.add_argument("--epochs", type=int, default=6, help="passes over each iteration's batch")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1, help="the learner's torch threads")
    parser.add_argument("--eval-episodes", type=int, default=200,
                        help="held-out test seeds to score the final policy on (0: none)")
    parser.add_argument("--address", help="a Ray cluster: 'auto', 'ray://HEAD:10001' or "
                        "'HOST:PORT' (default: a new local instance)")
    parser.add_argument("--out", help="directory for the checkpoint and rllib_ppo.json")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line; bad options exit with a one-line message before Ray starts."""
    args = _parser().parse_args(argv)
    for option, value, least in (
        ("--iterations", args.iterations, 1), ("--env-runners", args.env_runners, 0),
        ("--envs-per-runner", args.envs_per_runner, 1), ("--batch", args.batch, 1),
        ("--minibatch", args.minibatch, 1), ("--epochs", args.epochs, 1),
        ("--eval-episodes", args.eval_episodes, 0), ("--torch-threads", args.torch_threads, 1),
    ):
        if value < least:
            raise SystemExit(f"{PROG}: {option} must be {least} or more, got {value}")
    if args.minibatch > args.batch:
        raise SystemExit(f"{PROG}: --minibatch ({args.minibatch}) must not exceed --batch ({args.batch})")
    if not (math.isfinite(args.lr) and args.lr > 0):
        raise SystemExit(f"{PROG}: --lr must be a positive number, got {args.lr}")
    if args.address is not None and not ADDRESS.fullmatch(args.address):
        raise SystemExit(f"{PROG}: --address {args.address!r} is not {ADDRESS_FORMS}")
    if args.out is not None and Path(args.out).exists() and not Path(args.out).is_dir():
        raise SystemExit(f"{PROG}: --out {args.out!r} is a file, not a directory")
    try:
        rllib_env_id(args.env)
    except ValueError as exc:
        raise SystemExit(f"{PROG}: --env: {exc}") from None
    config = ppo_config(args.env, env_runners=args.env_runners, envs_per_runner=args.envs_per_runner,
                        batch=args.batch, minibatch=args.minibatch, epochs=args.epochs, lr=args.lr,
                        seed=args.seed)
    import ray

    connect(args.address, args.env_runners)
    try:
        summary, _ = train(config, args.iterations, out=args.out, eval_episodes=args.eval_episodes,
                           torch_threads=args.torch_threads)
    finally:
        ray.shutdown()
    print(f"wall time: {summary['wall_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
