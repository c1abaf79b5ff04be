"""``elements``: the element table, ``Box(0, 1, (K, 15), float32)``.

The ``semantic.v1`` controls of the screen, one row each (:mod:`cwgym.rl.elements`); ``K``
is the configuration's ``elements``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.elements import FEATURES
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key


@observation_key("elements")
class Elements(ObservationKey):
    channel = "semantic.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (config.elements, len(FEATURES)), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        return self.box(episode.table.array, out)
