"""A trained stable-baselines3 policy as a leaderboard agent.

``CWGYM_MODEL`` names one or more ``cwgym train`` output directories (``os.pathsep``
separated); each holds ``model.zip`` and ``train.json`` (which records the algorithm and
the env id it was trained on). On a task whose env has a trained model the agent acts with
``model.predict(observation, deterministic=True)``; on any other task it acts uniformly at
random (seeded), like ``baselines.random_agent``. Needs the ``train`` extra.

Which model a task is for: a sealed agent is not told the env id, so the agent recognises
the task by its instruction. Each model's env names a procedure of the public library,
whose instruction is a template (``Open {{app.label}} from the dock.``); the agent takes
the model whose template, with each placeholder read as any text, matches the whole
instruction, and whose observation space is the task's. When the task is told (a
privileged run) its env id decides.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SB3Agent", "instruction_pattern", "make_agent"]


def instruction_pattern(env_id: str) -> re.Pattern:
    """The instructions of ``env_id``'s procedure as a regular expression (placeholders match any text)."""
    import gymnasium as gym

    import cwgym.rl  # noqa: F401  (registers the envs)
    from cwgym.procedures import load_procedure

    template = load_procedure(gym.spec(env_id).kwargs["procedure"]).instruction
    return re.compile("(.+?)".join(re.escape(part) for part in re.split(r"\{\{.*?\}\}", template)), re.S)


class SB3Agent:
    def __init__(self, runs: list[str], seed: int = 0) -> None:
        import stable_baselines3 as sb3

        self.models: dict[str, Any] = {}
        for run in runs:
            meta = json.loads((Path(run) / "train.json").read_text())
            cls = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[meta["algo"]]
            self.models[meta["env"]] = cls.load(str(Path(run) / "model.zip"), device="cpu")
        self.patterns = {env_id: instruction_pattern(env_id) for env_id in self.models}
        self.rng = np.random.default_rng(seed)
        self.model: Any = None
        self.space: Any = None

    def recognise(self, task: dict[str, Any]) -> str | None:
        """The env id of the one model whose instruction template and observation space fit the task."""
        if "env_id" in task:
            return task["env_id"]
        fits = [
            env_id
            for env_id, pattern in self.patterns.items()
            if pattern.fullmatch(task["instruction"]) and self.models[env_id].observation_space == task["observation_space"]
        ]
        return fits[0] if len(fits) == 1 else None

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        self.model = self.models.get(self.recognise(task))
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
