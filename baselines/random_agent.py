"""The random agent: a uniform action of the env's action space, every step.

The agent owns one ``numpy.random.Generator`` (seed ``CWGYM_AGENT_SEED``, default 0). At
each reset it seeds a copy of the task's action space from that generator, so a run is
reproducible, and ``act`` returns ``space.sample()``: a uniform element row, key or token
index for the discrete interfaces, a uniform random string for the JSON-text ones.

``make_agent`` is the leaderboard's and RESULTS' random agent: one agent plays a run's
episodes in turn, each from the generator's next draw. ``make_instance_agent`` also mixes
what the task shows at reset (the instruction and the first observation) into the seed, for
``cwgym rollouts``, which makes a fresh agent for every episode so that an episode depends
only on its seed: a fresh ``make_agent`` agent would draw the same actions on every instance.
"""

from __future__ import annotations

import os
import zlib
from typing import Any

import numpy as np

__all__ = ["RandomAgent", "fingerprint", "make_agent", "make_instance_agent"]


def fingerprint(value: Any, crc: int = 0) -> int:
    """A CRC-32 of an observation (arrays, text, numbers, and dicts, lists and tuples of them)."""
    if isinstance(value, dict):
        for key in sorted(value):
            crc = fingerprint(value[key], zlib.crc32(str(key).encode(), crc))
        return crc
    if isinstance(value, (list, tuple)):
        for item in value:
            crc = fingerprint(item, crc)
        return crc
    data = value.encode() if isinstance(value, str) else np.ascontiguousarray(value).tobytes()
    return zlib.crc32(data, crc)


class RandomAgent:
    def __init__(self, seed: int = 0, per_instance: bool = False) -> None:
        self.rng = np.random.default_rng(seed)
        self.per_instance = per_instance
        self.space: Any = None

    def reset(self, task: dict[str, Any], observation: Any, info: dict[str, Any]) -> None:
        self.space = task["action_space"]
        seed = int(self.rng.integers(2**31 - 1))
        if self.per_instance:
            seen = fingerprint(observation, zlib.crc32(str(info.get("instruction", "")).encode()))
            seed = int(np.random.default_rng([seed, seen]).integers(2**31 - 1))
        self.space.seed(seed)

    def act(self, observation: Any, reward: float, info: dict[str, Any]) -> Any:
        return self.space.sample()


def _seed() -> int:
    return int(os.environ.get("CWGYM_AGENT_SEED", "0"))


def make_agent() -> RandomAgent:
    return RandomAgent(_seed())


def make_instance_agent() -> RandomAgent:
    return RandomAgent(_seed(), per_instance=True)
