"""The random agent: a uniform action of the env's action space, every step.

The agent owns one ``numpy.random.Generator`` (seed ``CWGYM_AGENT_SEED``, default 0). At
each reset it seeds a copy of the task's action space from that generator, so a run is
reproducible, and ``act`` returns ``space.sample()``: a uniform element row, key or token
index for the discrete interfaces, a uniform random string for the JSON-text ones.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["RandomAgent", "make_agent"]


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.space: Any = None

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        self.space = task["action_space"]
        self.space.seed(int(self.rng.integers(2**31 - 1)))

    def act(self, observation: Any, reward: float, info: dict[str, Any]) -> Any:
        return self.space.sample()


def make_agent() -> RandomAgent:
    return RandomAgent(int(os.environ.get("CWGYM_AGENT_SEED", "0")))
