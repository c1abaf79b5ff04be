"""Observation keys are a registry: a key registered from outside the package is observed
like the built-in ones, and an unknown key is refused naming the registered ones."""

from __future__ import annotations

import pkgutil

import gymnasium as gym
import numpy as np
import pytest

import cwgym.rl.observation_keys as observation_keys
from cwgym.rl.env import ComputerEnv
from cwgym.rl.observation_keys import OBSERVATION_KEYS, ObservationKey
from cwgym.rl.vector import ComputerVectorEnv

BUILT_IN = ["a11y", "caret", "element_values", "elements", "focus_tokens", "instruction", "instruction_shown", "instruction_tokens", "marks", "pixels", "pointer_held", "terminal", "terminal_tokens"]


class StepsTaken(ObservationKey):
    """A toy key, registered by this test only: the steps the episode has taken."""

    def __init__(self, config) -> None:
        super().__init__(config)
        self.space = gym.spaces.Box(0, 1_000_000, (1,), dtype=np.int64)

    def encode(self, episode, out):
        return self.box(np.array([episode.steps], dtype=np.int64), out, fresh=True)


@pytest.fixture
def steps_taken():
    OBSERVATION_KEYS.register("steps_taken", StepsTaken)
    yield "steps_taken"
    OBSERVATION_KEYS.unregister("steps_taken")


def test_every_module_of_the_package_is_the_key_of_its_name():
    modules = sorted(m.name for m in pkgutil.iter_modules(observation_keys.__path__) if not m.name.startswith("_"))
    assert modules == BUILT_IN == OBSERVATION_KEYS.names()


def test_a_key_registered_from_a_test_is_in_the_space_and_filled_at_reset_and_step(steps_taken):
    env = ComputerEnv(procedure="easy-new-folder", obs=[steps_taken, "instruction"], viewport=[320, 200])
    assert env.observation_space[steps_taken] == gym.spaces.Box(0, 1_000_000, (1,), np.int64)
    obs, _ = env.reset(seed=1)
    assert obs in env.observation_space and obs[steps_taken].tolist() == [0]
    for step in (1, 2):
        obs = env.step("{not json")[0]  # refused, but a step all the same
        assert obs in env.observation_space and obs[steps_taken].tolist() == [step]
    envs = ComputerVectorEnv(2, "easy-new-folder", obs=[steps_taken, "instruction"], viewport=[320, 200])
    obs, _ = envs.reset(seed=1)
    assert obs[steps_taken].tolist() == [[0], [0]]
    obs = envs.step(("{not json", "{not json"))[0]
    assert obs[steps_taken].tolist() == [[1], [1]] and obs in envs.observation_space


def test_an_unknown_key_is_refused_naming_it_and_the_registered_ones():
    message = f"unknown observation key 'smell'; registered: {', '.join(BUILT_IN)}"
    with pytest.raises(ValueError, match=message):
        ComputerEnv(procedure="easy-new-folder", obs=["smell"])
    with pytest.raises(ValueError, match=message):
        gym.make("cwgym/easy-new-folder-v1", obs=["elements", "smell"])
    with pytest.raises(ValueError, match=r"observation 'terminal_tokens' needs the terminal\.v1 channel granted"):
        ComputerEnv(procedure="easy-new-folder", obs=["terminal_tokens"])
