"""A trained stable-baselines3 policy as a leaderboard agent.

``CWGYM_MODEL`` names one or more ``cwgym train`` output directories (``os.pathsep``
separated); each holds ``model.zip`` and ``train.json`` (which records the algorithm and
the env id it was trained on). On a task whose env has a trained model the agent acts with
``model.predict(observation, deterministic=True)``; on any other task it acts uniformly at
random (seeded), like ``baselines.random_agent``. Needs the ``train`` extra.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SB3Agent", "make_agent"]


class SB3Agent:
    def __init__(self, runs: list[str], seed: int = 0) -> None:
        import stable_baselines3 as sb3

        self.models: dict[str, Any] = {}
        for run in runs:
            meta = json.loads((Path(run) / "train.json").read_text())
            cls = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[meta["algo"]]
            self.models[meta["env"]] = cls.load(str(Path(run) / "model.zip"), device="cpu")
        self.rng = np.random.default_rng(seed)
        self.model: Any = None
        self.space: Any = None

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        self.model = self.models.get(task["env_id"])
        self.space = task["action_space"]
        self.space.seed(int(self.rng.integers(2**31 - 1)))

    def act(self, observation: Any, reward: float, info: dict[str, Any]) -> Any:
        if self.model is None:
            return self.space.sample()
        action, _ = self.model.predict(observation, deterministic=True)
        return int(action) if np.ndim(action) == 0 else action


def make_agent() -> SB3Agent:
    runs = [r for r in os.environ.get("CWGYM_MODEL", "").split(os.pathsep) if r]
    if not runs:
        raise ValueError("baselines.sb3_agent needs CWGYM_MODEL: one or more `cwgym train --out` directories")
    return SB3Agent(runs, int(os.environ.get("CWGYM_AGENT_SEED", "0")))
