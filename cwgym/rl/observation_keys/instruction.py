"""``instruction``: the procedure instance's instruction, ``Text(text_length)``.

Characters outside :data:`cwgym.rl.text.CHARSET` become ``?``; a long instruction keeps
its beginning. The ``sb3`` preset puts ``instruction_tokens`` in its place.
"""

from __future__ import annotations

import numpy as np

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import CHARSET, fit
from cwgym.rl.text_space import ObservationText


@observation_key("instruction")
class Instruction(ObservationKey):
    sb3 = "instruction_tokens"

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = ObservationText(max_length=config.text_length, min_length=0, charset=CHARSET)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> str:
        return fit(episode.instance.instruction, self.config.text_length)
