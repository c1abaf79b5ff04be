"""``element_values``: whether each element table row has a value, and whether the
instruction spells it, ``Box(0, 1, (elements, 2), float32)``.

Row ``k`` is the table's row ``k``: column 0 is 1 when it has a non-empty value (the text
of a field, the kind of a file row); column 1 is 1 when that value has words and every one
is a word of the instruction (:func:`cwgym.rl.text.tokens`), so ``Garden`` typed into the
name field of "make a new folder named Garden" marks the field, and ``Untitled Folder``
does not. Empty rows are 0. The table's ``value`` column is a hash, from which a small
policy cannot tell a typed name from the default one. Computed from the instruction and
the rows of ``info["elements"]`` only (:mod:`cwgym.rl.derived` rebuilds it).
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import EpisodeView, ObservationKey, observation_key
from cwgym.rl.text import tokens


@functools.lru_cache(maxsize=4096)
def _instruction_words(instruction: str) -> frozenset[str]:
    return frozenset(tokens(instruction))


@functools.lru_cache(maxsize=65536)
def _columns(value: str, instruction: str) -> tuple[float, float]:
    words = frozenset(tokens(value))
    return 1.0, float(bool(words) and words <= _instruction_words(instruction))


@observation_key("element_values")
class ElementValues(ObservationKey):
    channel = "semantic.v1"
    uses_table = True

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(config)
        self.space = spaces.Box(0.0, 1.0, (config.elements, 2), dtype=np.float32)

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> np.ndarray:
        instruction = episode.instance.instruction
        array = np.zeros((self.config.elements, 2), dtype=np.float32)
        for index, row in enumerate(episode.table.rows[: self.config.elements]):
            value = row.get("value")
            if value:
                array[index] = _columns(value, instruction)
        return self.box(array, out, fresh=True)
