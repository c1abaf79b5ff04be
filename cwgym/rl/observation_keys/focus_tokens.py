"""``focus_tokens``: the focused field's text as token ids, scaled,
``Box(0, 1, (tokens,), float32)``.

The value of the first element table row with ``focused`` true (``""`` without one, or
when that row has no value) as :func:`cwgym.rl.text.scaled_token_ids` — the id space of
``instruction_tokens``, so a policy can compare what it typed with what it was asked to
type. The table's ``value`` column is a hash of the text, which tells a policy that the
text changed but not what it now says. Computed from the rows of ``info["elements"]`` only
(:mod:`cwgym.rl.derived` rebuilds it).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import scaled_token_ids


@functools.lru_cache(maxsize=4096)
def _ids(text: str, length: int, vocab: int) -> np.ndarray:
    ids = scaled_token_ids(text, length, vocab)
    ids.flags.writeable = False  # shared by every step that shows this text
    return ids


def focused_value(rows: list[dict]) -> str:
    """The value of the first focused row, ``""`` without one."""
    for row in rows:
        if row.get("focused"):
            return row.get("value") or ""
    return ""


@observation_key("focus_tokens")
class FocusTokens(ObservationKey):
    channel = "semantic.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (config.tokens,), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        c = self.config
        return self.box(_ids(focused_value(episode.table.rows), c.tokens, c.token_vocab), out)
