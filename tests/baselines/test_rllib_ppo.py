"""RLlib's PPO on a cwgym env with two env runners (``baselines/rllib_ppo.py``).

The training test starts its own local Ray instance (loopback, two logical CPUs, no
dashboard), trains two small iterations with two env runners, and restores the checkpoint;
the end-to-end run of the command line is marked slow:

    python -m pytest -m slow tests/baselines/test_rllib_ppo.py
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed")

import ray

import cwgym  # noqa: F401
from baselines import rllib_ppo

ROOT = Path(__file__).resolve().parents[2]
ENV = "cwgym/easy-open-app-v1"


def _without_repo_path() -> dict[str, str]:
    """The environment of a process that cannot import this checkout (as on a cluster node)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--env", "cwgym/no-such-env-v1"], "--env"),
        (["--env", ENV, "--address", "head-node"], "--address"),
        (["--env", ENV, "--env-runners", "-1"], "--env-runners"),
        (["--env", ENV, "--iterations", "0"], "--iterations"),
        (["--env", ENV, "--batch", "64", "--minibatch", "128"], "--minibatch"),
        (["--env", ENV, "--lr", "nan"], "--lr"),
    ],
)
def test_bad_options_are_one_line_errors_before_ray_starts(argv, names):
    with pytest.raises(SystemExit) as exc:
        rllib_ppo.main(argv)
    message = str(exc.value)
    assert message.startswith("baselines.rllib_ppo: ") and names in message and "\n" not in message
    assert not ray.is_initialized()


def test_an_address_where_nothing_listens_is_refused():
    import socket

    with socket.socket() as closed:  # a port that was free a moment ago: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(SystemExit, match=rf"--address 'ray://127.0.0.1:{port}': nothing answers"):
        rllib_ppo.connect(f"ray://127.0.0.1:{port}", 2)
    assert not ray.is_initialized()


def test_the_config_reaches_runners_that_have_neither_this_checkout_nor_cwgym_imported():
    """What the runners are sent unpickles where ``baselines`` cannot be imported, and makes
    the env through ``cwgym:`` (so Gymnasium imports cwgym there) flattened to one vector."""
    config = rllib_ppo.ppo_config(ENV, env_runners=2)
    blob = ray.cloudpickle.dumps(config)
    probe = """
import sys, types
import gymnasium as gym, numpy as np, ray.cloudpickle as cloudpickle
from ray.rllib.utils.metrics.metrics_logger import MetricsLogger
config = cloudpickle.loads(sys.stdin.buffer.read())
space = gym.spaces.Dict({"elements": gym.spaces.Box(0, 1, (96, 15), np.float32),
                         "instruction_tokens": gym.spaces.Box(0, 1, (64,), np.float32)})
pipeline = config.build_env_to_module_connector(spaces={"__env_single__": (space, gym.spaces.Discrete(96))})
logger = MetricsLogger()
config.callbacks_on_sample_end(env_runner=types.SimpleNamespace(worker_index=2), metrics_logger=logger,
                               samples=[[0, 0, 0], [0]])
print(config.env, config.env_config["preset"], pipeline.observation_space.shape,
      logger.peek(("env_steps_by_runner", "2")), "baselines" in sys.modules, "cwgym" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", probe], input=blob, capture_output=True, cwd="/",
                          env=_without_repo_path(), timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().split() == [f"cwgym:{ENV}", "sb3", "(1504,)", "4", "False", "False"]


def test_two_env_runners_sample_train_and_the_checkpoint_restores(local_ray, tmp_path):
    config = rllib_ppo.ppo_config(ENV, env_runners=2, envs_per_runner=2, batch=256, minibatch=64, epochs=2)
    lines: list[str] = []
    summary, policy = rllib_ppo.train(config, 2, out=tmp_path, eval_episodes=3, log=lines.append)

    iterations = summary["iterations"]
    assert [it["iteration"] for it in iterations] == [1, 2]
    assert len(lines) == 4 and lines[0].startswith("iteration 1: ") and "runner 2:" in lines[1]
    lifetime = 0
    for it in iterations:
        # both runners sampled, and together they sampled the iteration's batch
        assert sorted(it["env_steps_by_runner"]) == [1, 2], it
        assert min(it["env_steps_by_runner"].values()) > 0, it
        assert sum(it["env_steps_by_runner"].values()) == it["env_steps"] >= 256, it
        assert it["env_steps_lifetime"] == lifetime + it["env_steps"], it
        lifetime = it["env_steps_lifetime"]
        assert it["episodes"] > 0
        figures = ("return_mean", "return_min", "return_max", "length_mean")
        assert all(math.isfinite(it[k]) for k in figures), it
        assert 0 <= it["return_min"] <= it["return_mean"] <= it["return_max"] <= 1, it
        assert 1 <= it["length_mean"] <= 6, it  # easy-open-app stops at 6 steps
    assert summary["test"]["episodes"] == 3 and summary["test"]["test_seeds"] == [1_000_000, 1_000_003]
    assert 0 <= summary["test"]["success_rate"] <= 1
    saved = json.loads((tmp_path / "rllib_ppo.json").read_text())
    assert saved["iterations"] == json.loads(json.dumps(iterations))

    env = gym.make(ENV, preset="sb3")
    restored = rllib_ppo.RLlibPolicy.from_checkpoint(summary["checkpoint"], env.observation_space)
    obs, _ = env.reset(seed=1_000_000)
    for _ in range(3):
        np.testing.assert_allclose(restored.logits(obs), policy.logits(obs), rtol=1e-5, atol=1e-6)
        action, state = restored.predict(obs)
        assert state is None and env.action_space.contains(action)
        assert action == policy.predict(obs)[0]
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset(seed=1_000_001)
    assert rllib_ppo.success_on_test_seeds(restored, ENV, 3) == summary["test"]


def test_a_folder_that_is_no_checkpoint_is_refused(tmp_path):
    space = gym.make(ENV, preset="sb3").observation_space
    with pytest.raises(FileNotFoundError, match="not an RLlib algorithm checkpoint"):
        rllib_ppo.RLlibPolicy.from_checkpoint(tmp_path, space)


@pytest.mark.slow
def test_the_command_line_trains_with_two_env_runners_and_saves(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "baselines.rllib_ppo", "--env", ENV, "--iterations", "2",
               "--env-runners", "2", "--batch", "256", "--eval-episodes", "5", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = done.stdout.splitlines()
    iterations = [line.split(":")[0] for line in printed if line.startswith("iteration")]
    assert iterations == ["iteration 1", "iteration 2"]
    assert any(line.startswith("test success: ") for line in printed)
    summary = json.loads((out / "rllib_ppo.json").read_text())
    assert summary["env_runners"] == 2 and summary["test"]["episodes"] == 5
    assert all(sorted(it["env_steps_by_runner"]) == ["1", "2"] for it in summary["iterations"])
    assert (out / "checkpoint" / "rllib_checkpoint.json").is_file()
