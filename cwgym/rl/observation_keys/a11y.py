"""``a11y``: the accessibility tree as indented text with element ids, ``Text(text_length)``.

The controls of the agent's ``semantic.v1`` view, grouped by shell, window and desktop,
each numbered as its element table row (:func:`cwgym.rl.a11y.a11y_text`), so a language
model reads ``[3] button "New Folder"`` and answers ``{"click": 3}``. The ``sb3`` preset
puts ``elements`` (the same rows as numbers) in its place.
"""

from __future__ import annotations

import numpy as np

from cwgym.rl.a11y import a11y_text
from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import CHARSET, fit
from cwgym.rl.text_space import ObservationText


@observation_key("a11y")
class A11y(ObservationKey):
    channel = "semantic.v1"
    uses_table = True
    sb3 = "elements"

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = ObservationText(max_length=config.text_length, min_length=0, charset=CHARSET)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> str:
        return fit(a11y_text(episode.semantic_view(), episode.table.rows), self.config.text_length)
