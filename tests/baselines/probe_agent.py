"""A test agent that tries to reach the evaluator's owner state and reports what it found.

It walks everything it received, and every object alive in its process, looking for the
World, an Environment, an env or a snapshot; it writes its findings to ``CWGYM_PROBE_OUT``
and then acts at random.
"""

from __future__ import annotations

import gc
import json
import os
from typing import Any

import numpy as np

OWNER_TYPES = {"World", "Environment", "Episode", "Blueprint", "ComputerEnv", "Machine", "Session"}


class ProbeAgent:
    def __init__(self) -> None:
        self.received_types: set[str] = set()
        self.owner_received: list[str] = []
        self.snapshot_like: list[str] = []
        self.space: Any = None

    def _walk(self, value: Any, where: str) -> None:
        kind = type(value)
        self.received_types.add(f"{kind.__module__}.{kind.__name__}")
        if kind.__name__ in OWNER_TYPES or kind.__module__.startswith("cwgym"):
            self.owner_received.append(f"{where}: {kind.__module__}.{kind.__name__}")
        if isinstance(value, dict):
            for k, v in value.items():
                if isinstance(k, str) and "snapshot" in k.lower():
                    self.snapshot_like.append(f"{where}[{k!r}]")
                self._walk(v, f"{where}[{k!r}]")
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                self._walk(v, f"{where}[{i}]")
        for name in ("world", "_world", "env", "_episode", "unwrapped", "environment"):
            if not isinstance(value, (dict, list, tuple, str, np.ndarray)) and hasattr(value, name):
                self.owner_received.append(f"{where}.{name}")

    def reset(self, task: dict, observation: Any, info: dict) -> None:
        self.space = task["action_space"]
        self.space.seed(0)
        self._walk(task, "task")
        self._walk(observation, "observation")
        self._walk(info, "info")

    def act(self, observation: Any, reward: float, info: dict) -> Any:
        self._walk(observation, "observation")
        self._walk(info, "info")
        return self.space.sample()

    def end(self, observation: Any, reward: float, terminated: bool, truncated: bool, info: dict) -> None:
        alive = sorted(
            {f"{type(o).__module__}.{type(o).__name__}" for o in gc.get_objects()
             if type(o).__name__ in OWNER_TYPES and type(o).__module__.startswith("cwgym")}
        )
        report = {
            "pid": os.getpid(),
            "ppid": os.getppid(),
            "owner_received": self.owner_received,
            "snapshot_like": self.snapshot_like,
            "owner_alive": alive,
            "received_types": sorted(self.received_types),
        }
        with open(os.environ["CWGYM_PROBE_OUT"], "a") as f:
            f.write(json.dumps(report) + "\n")


def make_agent() -> ProbeAgent:
    return ProbeAgent()
