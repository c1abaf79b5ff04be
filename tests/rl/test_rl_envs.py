"""Every registered env, built only when its test runs: Gymnasium's checker, determinism,
pickling mid-episode, and every render mode."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from rl_kit import IDS, RandomPolicy, rollout, same, short


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_passes_gymnasiums_env_checker(env_id):
    env = gym.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure here
        check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_two_envs_with_one_seed_and_one_action_sequence_agree(env_id):
    first, second = gym.make(env_id), gym.make(env_id)
    policy = RandomPolicy(first, seed=5)
    actions = [policy() for _ in range(12)]
    a, b = rollout(first, 11, actions), rollout(second, 11, actions)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert same(x, y)


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_an_env_pickled_mid_episode_carries_on_identically(env_id):
    env = gym.make(env_id)
    policy = RandomPolicy(env, seed=9)
    env.reset(seed=4)
    for _ in range(3):
        env.step(policy())
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.spec.id == env_id
    later = [policy() for _ in range(4)]
    for action in later:
        assert same(env.step(action), copy.step(action))
    # and a pickled env resets to the same episodes as the original
    assert same(env.reset(), copy.reset())


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_every_render_mode(env_id):
    for mode in gym.make(env_id).metadata["render_modes"]:
        env = gym.make(env_id, render_mode=mode)
        env.reset(seed=2)
        env.step(RandomPolicy(env, seed=2)())
        frame = env.render()
        width, height = env.unwrapped.config.viewport
        if mode == "rgb_array":
            assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (height, width, 3)
            assert frame.std() > 0  # a drawn desktop, not a blank array
        else:
            assert isinstance(frame, str) and env.unwrapped.instruction in frame
        env.close()
