"""``instruction_shown``: which of the instruction's words the screen shows,
``Box(0, 1, (tokens,), float32)``.

Position ``i`` is 1 when the instruction's ``i``-th token (the one ``instruction_tokens[i]``
encodes, :func:`cwgym.rl.text.tokens`) is a token of some element table row's label or
value; padding positions are 0. The table's ids are hashes, so a small policy cannot see
that the folder name it was asked for is now typed into a field or listed as a row: here
that name's position turns from 0 to 1. Computed from the instruction and the rows of
``info["elements"]`` only (:mod:`cwgym.rl.derived` rebuilds it).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import tokens


@functools.lru_cache(maxsize=65536)
def _words(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


@functools.lru_cache(maxsize=4096)
def _head(instruction: str, length: int) -> tuple[str, ...]:
    return tuple(tokens(instruction)[:length])


def shown_words(rows: list[dict]) -> set[str]:
    """Every token of the rows' labels and values."""
    shown: set[str] = set()
    for row in rows:
        shown |= _words(row.get("label") or "")
        value = row.get("value")
        if value:
            shown |= _words(value)
    return shown


@observation_key("instruction_shown")
class InstructionShown(ObservationKey):
    channel = "semantic.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (config.tokens,), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        head = _head(episode.instance.instruction, self.config.tokens)
        shown = shown_words(episode.table.rows)
        array = np.zeros(self.config.tokens, dtype=np.float32)
        array[: len(head)] = [token in shown for token in head]
        return self.box(array, out, fresh=True)
