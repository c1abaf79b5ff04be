"""The ``sb3`` preset of every registered id gives spaces stable-baselines3 takes (its own
``check_env`` passes), and the discrete interfaces it puts in place of JSON text work."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from rl_kit import IDS, short

from cwgym.rl.actions import SHELL_WORDS
from cwgym.rl.config import SB3_SCREEN_INTERFACE, SB3_TERMINAL_INTERFACE

env_checker = pytest.importorskip("stable_baselines3.common.env_checker", reason="stable-baselines3 is not installed")


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_every_id_has_an_sb3_ready_preset(env_id):
    env = gym.make(env_id, preset="sb3")
    assert isinstance(env.observation_space, spaces.Dict)
    assert all(isinstance(s, spaces.Box) for s in env.observation_space.spaces.values())
    assert isinstance(env.action_space, (spaces.Discrete, spaces.MultiDiscrete, spaces.Box))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(env.unwrapped, warn=False)
    env.close()


def test_terminal_tasks_type_commands_word_by_word():
    env = gym.make("cwgym/terminal-ops-backup-script-v0", preset="sb3")
    assert env.unwrapped.config.interface == SB3_TERMINAL_INTERFACE
    env.reset(seed=3)
    vocabulary = env.unwrapped.episode.ctx.vocabulary  # " ", then the instruction's words
    action = np.zeros(env.action_space.shape, dtype=np.int64)
    action[0] = 1 + SHELL_WORDS.index("echo")
    action[2] = 1 + len(SHELL_WORDS) + vocabulary.index("backup")  # slot 1 left empty: skipped
    _, _, _, _, info = env.step(action)
    assert info["outcomes"][0]["value"]["stdout"] == "backup\n"
    _, _, _, _, info = env.step(np.zeros_like(action))  # no word at all: refused, nothing sent
    assert info["outcome"]["status"] == "refused" and info["outcomes"] == []


def test_screen_tasks_click_the_element_table_instead_of_seeing_the_screen():
    env = gym.make("cwgym/office-room-booking-v1", preset="sb3")
    config = env.unwrapped.config
    assert config.interface == SB3_SCREEN_INTERFACE
    assert list(env.observation_space.spaces) == ["elements", "instruction_tokens"]
    assert isinstance(env.action_space, spaces.Discrete)


def test_the_preset_is_idempotent_and_survives_pickling():
    import pickle

    env = gym.make("cwgym/terminal-ops-backup-script-v0", preset="sb3")
    env.reset(seed=1)
    again = pickle.loads(pickle.dumps(env.unwrapped))
    assert again.config == env.unwrapped.config and again.action_space == env.action_space
