"""``marks``: the screen with every element's bounds outlined and its id written,
``Box(0, 255, (H, W, 3), uint8)`` — a set-of-marks screenshot.

The ``pixels`` frame with :func:`cwgym.rl.a11y.draw_marks` over it; the ids are the
element table's rows, the same as in ``a11y`` and for ``{"click": k}``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.render import frame_array
from cwgym.rl.a11y import draw_marks
from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key


@observation_key("marks")
class Marks(ObservationKey):
    channel = "pixels.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0, 255, (config.height, config.width, 3), dtype=np.uint8)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        c = self.config
        frame = frame_array(episode.actor.render(c.width, c.height)["rgba"], c.width, c.height, 3)
        view = episode.semantic_view() or {}
        screen = view.get("screen") or {"width": c.width, "height": c.height}
        marked = draw_marks(frame, episode.table.rows if episode.table else [], (screen["width"], screen["height"]))
        return self.box(marked, out, fresh=True)
