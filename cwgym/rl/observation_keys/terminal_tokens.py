"""``terminal_tokens``: the last ``tokens`` token ids of the ``terminal.v1`` latch, scaled,
``Box(0, 1, (tokens,), float32)`` (:func:`cwgym.rl.text.scaled_token_ids`)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import scaled_token_ids, terminal_text


@observation_key("terminal_tokens")
class TerminalTokens(ObservationKey):
    channel = "terminal.v1"

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (config.tokens,), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        c = self.config
        text = terminal_text(episode.terminal())
        return self.box(scaled_token_ids(text, c.tokens, c.token_vocab, keep="tail"), out, fresh=True)
