"""``pixels``: the session's screen at the viewport, ``Box(0, 255, (H, W, 3), uint8)``.

The frame ``Environment.render`` draws through the agent's ``pixels.v1`` channel.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.render import frame_array
from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key


@observation_key("pixels")
class Pixels(ObservationKey):
    channel = "pixels.v1"

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0, 255, (config.height, config.width, 3), dtype=np.uint8)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        c = self.config
        frame = episode.actor.render(c.width, c.height)
        return self.box(frame_array(frame["rgba"], c.width, c.height, 3), out)
