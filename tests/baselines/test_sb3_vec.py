"""``cwgym.rl.sb3.Sb3VecEnv``: a Gymnasium vector env as stable-baselines3's ``VecEnv``.

The reference is what ``cwgym train --vec dummy`` uses: SB3's ``DummyVecEnv`` over
``gymnasium.make`` envs in the ``Success`` wrapper. Same seed and same actions must give the
same observations, rewards, dones, infos (``terminal_observation``, ``TimeLimit.truncated``,
``is_success``) and reset infos, across episode ends.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (the train extra)")

from gymnasium.vector import AutoresetMode
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan, VecMonitor, is_vecenv_wrapped
from stable_baselines3.common.vec_env.util import obs_space_info

import cwgym.rl  # noqa: F401
from cwgym.cli.train import Success
from cwgym.rl.sb3 import Sb3VecEnv, split_info

ROOT = Path(__file__).resolve().parents[2]
SHORT = "cwgym/easy-open-app-v1"  # max_episode_steps 6
N = 3


def _equal(a, b) -> bool:
    """Deep equality, numpy arrays by value and dtype, scalars by value and type."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _reference(env_id: str = SHORT, n: int = N) -> DummyVecEnv:
    return DummyVecEnv([lambda: Success(gym.make(env_id)) for _ in range(n)])


def _adapter(vectorization: str, env_id: str = SHORT, n: int = N) -> Sb3VecEnv:
    if vectorization in ("cwgym", "cwgym-no-copy"):  # no copy: the arrays are reused by the next step or reset
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", copy=vectorization == "cwgym")
        assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    else:  # Gymnasium's own SyncVectorEnv, in either autoreset mode the adapter takes
        mode = {"sync-next-step": AutoresetMode.NEXT_STEP, "sync-same-step": AutoresetMode.SAME_STEP}[vectorization]
        venv = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode})
    return Sb3VecEnv(venv)


@pytest.mark.parametrize("vectorization", ["cwgym", "cwgym-no-copy", "sync-next-step", "sync-same-step"])
def test_adapter_steps_like_dummy_vec_env_across_episode_ends(vectorization):
    reference, adapter = _reference(), _adapter(vectorization)
    for v in (reference, adapter):
        v.seed(11)
    assert _equal(adapter.reset(), reference.reset())
    assert _equal(adapter.reset_infos, reference.reset_infos)
    assert [info["seed"] for info in adapter.reset_infos] == [11, 12, 13]  # env i gets seed + i
    rng = np.random.default_rng(0)
    ends = truncations = 0
    for step in range(15):
        actions = rng.integers(0, adapter.action_space.n, size=N)
        obs, rewards, dones, infos = adapter.step(actions)
        ref_obs, ref_rewards, ref_dones, ref_infos = reference.step(actions)
        assert _equal(obs, ref_obs), step
        assert _equal(rewards, ref_rewards) and rewards.dtype == np.float32, step
        assert _equal(dones, ref_dones), step
        assert _equal(infos, ref_infos), step
        assert _equal(adapter.reset_infos, reference.reset_infos), step
        for i, info in enumerate(infos):
            assert ("terminal_observation" in info) == bool(dones[i])
            assert info["is_success"] == info["verification"]["passed"]
            if dones[i]:
                ends += 1
                truncations += info["TimeLimit.truncated"]
                terminal = info["terminal_observation"]
                assert adapter.observation_space.contains(terminal)
                assert _equal(terminal, ref_infos[i]["terminal_observation"])
                # the returned observation is the next episode's first one
                assert adapter.reset_infos[i]["step"] == 0
    assert ends >= N and truncations >= 1  # every env ended at least once; six-step time limits
    adapter.close()
    reference.close()


def test_terminal_observation_is_the_final_observation_of_the_gymnasium_vector_env():
    """Checked against cwgym's vector env itself: its next-step autoreset shows the final
    observation in the ending step and the reset one in the step after."""
    venv = gym.make_vec(SHORT, num_envs=2, vectorization_mode="vector_entry_point")
    adapter = _adapter("cwgym", n=2)
    venv.reset(seed=3)
    adapter.seed(3)
    adapter.reset()
    for _ in range(6):
        actions = np.array([0, 1])
        raw_obs, _, raw_term, raw_trunc, _ = venv.step(actions)
        obs, _, dones, infos = adapter.step(actions)
    assert dones.all() and (raw_term | raw_trunc).all()
    for i in range(2):
        assert _equal(infos[i]["terminal_observation"], {k: v[i] for k, v in raw_obs.items()})
    raw_obs, raw_rewards, *_ = venv.step(np.array([5, 5]))  # the autoreset step: actions ignored
    assert (raw_rewards == 0).all()
    assert _equal(obs, raw_obs)


def test_split_info_undoes_gymnasium_batching():
    infos = {
        "a": np.array([1, 2]), "_a": np.array([True, False]),
        "v": {"passed": np.array([True, False]), "_passed": np.array([True, True])}, "_v": np.array([True, True]),
        "obj": np.array([None, [1]], dtype=object), "_obj": np.array([False, True]),
        "arr": np.zeros((2, 3)), "_arr": np.array([True, True]),
    }
    first, second = split_info(infos, 0), split_info(infos, 1)
    assert first.keys() == {"a", "v", "arr"} and second.keys() == {"v", "obj", "arr"}
    assert first["a"] == 1 and type(first["a"]) is int
    assert first["v"] == {"passed": True} and second["v"] == {"passed": False} and second["obj"] == [1]
    assert first["arr"].shape == (3,) and not np.shares_memory(first["arr"], infos["arr"])


def test_sb3_sanity_checks():
    adapter = _adapter("cwgym", n=2)
    # spaces are the single env's, observations batched the way SB3's buffers expect them
    single = gym.make(SHORT)
    assert adapter.observation_space == single.observation_space and adapter.action_space == single.action_space
    assert adapter.num_envs == 2 and adapter.render_mode is None
    keys, shapes, dtypes = obs_space_info(adapter.observation_space)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # VecMonitor warns when the envs are already in a Monitor
        monitored = VecMonitor(VecCheckNan(adapter, raise_exception=True), info_keywords=("is_success",))
    assert is_vecenv_wrapped(monitored, VecMonitor) and monitored.unwrapped is adapter
    monitored.seed(0)
    obs = monitored.reset()
    rng = np.random.default_rng(1)
    for _ in range(8):
        for k in keys:
            assert obs[k].shape == (2, *shapes[k]) and obs[k].dtype == dtypes[k]
        for i in range(2):
            assert adapter.observation_space.contains({k: obs[k][i] for k in keys})
        obs, _, dones, infos = monitored.step(rng.integers(0, adapter.action_space.n, size=2))
        for i in np.flatnonzero(dones):
            assert set(infos[i]["episode"]) == {"r", "l", "t", "is_success"} and infos[i]["episode"]["l"] <= 6
    # the attribute and method API: the vector env's attributes, no per-env objects to call
    assert adapter.get_attr("render_mode") == [None, None] and adapter.get_attr("num_envs", indices=1) == [2]
    assert adapter.has_attr("spec") and not adapter.has_attr("no_such_attribute")
    assert adapter.env_is_wrapped(gym.Wrapper) == [False, False]
    with pytest.raises(NotImplementedError):
        adapter.env_method("reset")
    # SB3's evaluation loop counts episodes through the monitor's infos
    rewards, lengths = evaluate_policy(_FirstElement(), monitored, n_eval_episodes=4, return_episode_rewards=True)
    assert len(rewards) == 4 and all(1 <= n <= 6 for n in lengths)
    monitored.close()


def test_env_method_goes_through_gymnasium_call_where_there_is_one():
    adapter = _adapter("sync-next-step", n=2)
    assert adapter.env_method("get_wrapper_attr", "spec")[0].id == SHORT
    assert len(adapter.env_method("get_wrapper_attr", "spec", indices=[1])) == 1
    adapter.close()


def test_options_and_refused_modes():
    adapter = _adapter("cwgym", n=2)
    adapter.set_options({"instance": 5})
    adapter.reset()
    assert [info["seed"] for info in adapter.reset_infos] == [5, 5]
    adapter.set_options([{"instance": 5}, {"instance": 6}])
    with pytest.raises(ValueError, match="one options dict"):
        adapter.reset()
    disabled = gym.make_vec(SHORT, num_envs=2, vectorization_mode="sync", vector_kwargs={"autoreset_mode": AutoresetMode.DISABLED})
    with pytest.raises(ValueError, match="NEXT_STEP or SAME_STEP"):
        Sb3VecEnv(disabled)


class _FirstElement:
    """A policy for ``evaluate_policy``: always clicks element 0."""

    def predict(self, observation, state=None, episode_start=None, deterministic=False):
        return np.zeros(len(observation["elements"]), dtype=np.int64), None


def test_import_cwgym_does_not_import_stable_baselines3():
    """stable-baselines3 is the optional train extra: only ``cwgym.rl.sb3`` (imported lazily
    by ``cwgym train``) may import it."""
    code = (
        "import sys, cwgym, cwgym.rl, cwgym.cli, cwgym.cli.train\n"
        "print([m for m in ('stable_baselines3', 'torch', 'cwgym.rl.sb3') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
