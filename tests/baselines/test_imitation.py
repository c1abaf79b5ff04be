"""Behaviour cloning from the expert's play: the data, the fit, and ``cwgym train --bc-episodes``."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3 import DQN, PPO

from cwgym.rl.imitation import clone, expert_transitions

ENV = "cwgym/easy-restore-trash-v1"  # four clicks: Files, the Trash, the file, Restore


def test_expert_transitions_are_what_the_expert_saw_and_did():
    observations, actions = expert_transitions(ENV, range(0, 3))
    assert actions.shape == (12,) and observations["elements"].shape == (12, 96, 15)
    env = gym.make(ENV)
    first, _ = env.reset(seed=0)
    assert np.array_equal(observations["elements"][0], first["elements"])
    assert all(env.action_space.contains(int(a)) for a in actions)


def test_cloning_fits_the_experts_actions():
    observations, actions = expert_transitions(ENV, range(0, 20))
    model = PPO("MultiInputPolicy", gym.make(ENV), seed=0, device="cpu")
    before = clone(model, observations, actions, epochs=0)
    after = clone(model, observations, actions, epochs=200)
    assert before["loss"] is None and after["transitions"] == 80
    assert before["accuracy"] <= 0.25 and after["accuracy"] >= 0.7  # chance is 1 in 98 actions
    with pytest.raises(ValueError, match="actor-critic"):
        clone(DQN("MultiInputPolicy", gym.make(ENV), device="cpu", buffer_size=100), observations, actions)


def test_train_records_the_cloning(tmp_path):
    from cwgym.cli import main

    out = tmp_path / "run"
    assert main(["train", "--algo", "ppo", "--env", ENV, "--steps", "64", "--n-envs", "2", "--bc-episodes", "4",
                 "--bc-epochs", "30", "--out", str(out), "--quiet"]) == 0
    bc = json.loads((out / "train.json").read_text())["bc"]
    assert bc["episodes"] == 4 and bc["seeds"] == [0, 4] and bc["transitions"] == 16 and 0.0 <= bc["accuracy"] <= 1.0
    with pytest.raises(SystemExit, match="actor-critic"):
        main(["train", "--algo", "dqn", "--env", ENV, "--steps", "64", "--n-envs", "1", "--bc-episodes", "2",
              "--out", str(tmp_path / "dqn"), "--quiet"])
