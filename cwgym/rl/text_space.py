"""``ObservationText``: a Gymnasium ``Text`` space that also works in shared memory.

Gymnasium's ``AsyncVectorEnv`` (``shared_memory=True``, its default) reads its observation
buffer once, at construction, with ``read_from_shared_memory``: a ``Box`` comes back as a
live view of the buffer, but a ``Text`` comes back as a tuple of strings decoded there and
then, so every later observation would repeat it (strings of tabs: character 0). This
subclass registers its own reader, which returns :class:`LiveTexts`, a tuple-like view
that decodes the buffer when it is read and deep-copies into a plain tuple, the copy
``AsyncVectorEnv`` hands out by default. Writing and allocating are ``Text``'s own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import read_from_shared_memory

__all__ = ["LiveTexts", "ObservationText"]


class ObservationText(spaces.Text):
    """A ``Text`` observation entry; identical to ``Text`` except in shared memory."""


class LiveTexts(Sequence):
    """The ``n`` strings of an :class:`ObservationText` shared buffer, decoded on access."""

    def __init__(self, space: ObservationText, shared_memory: Any, n: int) -> None:
        self._space = space
        self._codes = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape((n, space.max_length))
        self._characters = space.character_list

    def __len__(self) -> int:
        return len(self._codes)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        characters = self._characters
        return "".join(characters[code] for code in self._codes[index] if code < len(characters))

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, Sequence) else NotImplemented

    def __repr__(self) -> str:
        return f"LiveTexts({tuple(self)!r})"


@read_from_shared_memory.register(ObservationText)
def _read_live(space: ObservationText, shared_memory: Any, n: int = 1) -> LiveTexts:
    return LiveTexts(space, shared_memory, n)
