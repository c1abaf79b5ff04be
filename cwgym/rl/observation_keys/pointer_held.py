"""``pointer_held``: whether the agent holds a pointer button down, ``Box(0, 1, (1,), float32)``.

1 after a ``pointer.v1 down`` that went through, until an ``up`` or a click: what a person
dragging a window feels in their hand. The screen does not always show it — a press on a
title bar changes nothing until the pointer moves — so without it the states before and
after the press of a drag look the same, and a memoryless policy cannot tell whether to
press or to release (behaviour cloning on ``easy-drag-window`` matched every grid row of the
expert's but only half of its operations). The agent's own doing: a leaderboard agent keeps
it from the actions it sent.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key

_HELD = np.ones(1, dtype=np.float32)
_FREE = np.zeros(1, dtype=np.float32)
_HELD.flags.writeable = False
_FREE.flags.writeable = False


@observation_key("pointer_held")
class PointerHeld(ObservationKey):
    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (1,), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        return self.box(_HELD if episode.pointer_held else _FREE, out)
