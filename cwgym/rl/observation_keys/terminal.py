"""``terminal``: the session's ``terminal.v1`` latch as a terminal shows it, ``Text(text_length)``.

Standard output, standard error, then ``[exit N]`` (:func:`cwgym.rl.text.terminal_text`),
keeping the end of a long output. The ``sb3`` preset puts ``terminal_tokens`` in its place.
"""

from __future__ import annotations

import numpy as np

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import CHARSET, fit, terminal_text
from cwgym.rl.text_space import ObservationText


@observation_key("terminal")
class Terminal(ObservationKey):
    channel = "terminal.v1"
    sb3 = "terminal_tokens"

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = ObservationText(max_length=config.text_length, min_length=0, charset=CHARSET)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> str:
        return fit(terminal_text(episode.terminal()), self.config.text_length, keep="tail")
