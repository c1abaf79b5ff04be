"""A test agent that writes down everything it receives, then acts at random.

Each call appends one JSON line to ``CWGYM_REPORT_OUT``: the method, and its arguments
with arrays as ``{"dtype", "shape"}``, spaces as their ``repr`` and everything else as it
came; a reset also writes the names of the ``CWGYM_*`` environment variables the agent's
process has, and those it can read in its parent's ``/proc/PID/environ`` (``None`` when it
cannot read it). A test reads the lines back to see what crossed the evaluator boundary.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return {"dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, spaces.Space):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class ReporterAgent:
    def __init__(self) -> None:
        self.space: Any = None

    def _write(self, method: str, **arguments: Any) -> None:
        with open(os.environ["CWGYM_REPORT_OUT"], "a") as f:
            f.write(json.dumps({"method": method, **_plain(arguments)}) + "\n")

    def reset(self, task: dict, observation: Any, info: dict) -> None:
        environment = sorted(k for k in os.environ if k.startswith("CWGYM"))
        try:
            with open(f"/proc/{os.getppid()}/environ", "rb") as f:
                parent = sorted({item.split(b"=", 1)[0].decode() for item in f.read().split(b"\0") if item.startswith(b"CWGYM")})
        except OSError:
            parent = None
        self._write("reset", task=task, observation=observation, info=info, environment=environment, parent_environment=parent)
        self.space = task["action_space"]
        self.space.seed(0)

    def act(self, observation: Any, reward: float, info: dict) -> Any:
        self._write("act", observation=observation, reward=reward, info=info)
        return self.space.sample()

    def end(self, observation: Any, reward: float, terminated: bool, truncated: bool, info: dict) -> None:
        self._write("end", observation=observation, reward=reward, terminated=terminated, truncated=truncated, info=info)


def make_agent() -> ReporterAgent:
    return ReporterAgent()
