"""Observation keys an agent rebuilds from the instruction and ``info["elements"]``.

A leaderboard agent gets the registered env's observation, the instruction
(``info["instruction"]`` at reset) and every step's ``info["elements"]`` (the element
table's rows). A policy trained with keys the registered env does not observe
(``instruction_shown``, ``focus_tokens``, ``element_values``) must see them exactly as it
did in training: :func:`derived_observation` fills them by calling the registered keys'
own ``encode`` on a view that holds only the instruction and the rows, so each key has
one implementation::

    obs, info = env.reset(seed=seed)
    instruction = info["instruction"]
    extra = derived_observation(["instruction_shown", "focus_tokens"], config, instruction, info["elements"])

``elements`` needs ``screen=(width, height)`` too: its bounds are fractions of the
``semantic.v1`` screen (1280x800 on the desktop themes, 320x420 on the kiosk's), which
``info`` does not carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from cwgym.rl.config import TaskConfig
from cwgym.rl.elements import FEATURES, ElementTable, element_table
from cwgym.rl.observation_keys import OBSERVATION_KEYS, ObservationKey
from cwgym.rl.text import tokens

__all__ = ["DERIVABLE", "DerivedObservation", "RowsView", "derived_observation"]

#: The keys whose ``encode`` reads only the instruction and the element table's rows.
DERIVABLE = ("instruction_shown", "focus_tokens", "element_values", "elements", "instruction_tokens")


class _Instance(NamedTuple):
    instruction: str


class RowsView:
    """The part of an :class:`~cwgym.rl.observation_keys.EpisodeView` the
    :data:`DERIVABLE` keys read: ``instance.instruction`` and ``table`` (its ``rows``, and
    its ``array`` when it was built with a screen size)."""

    __slots__ = ("instance", "table")

    def __init__(self, instruction: str, table: ElementTable) -> None:
        self.instance = _Instance(instruction)
        self.table = table


class DerivedObservation:
    """The derivable keys ``names`` of ``config``, built once; call it with an instruction
    and rows for their entries (the same arrays the env's observation would hold).

    Raises:
        ValueError: a name that is not in :data:`DERIVABLE` (named, with the derivable ones).
    """

    def __init__(self, names: Iterable[str], config: TaskConfig) -> None:
        self.config = config
        self.entries: list[tuple[str, ObservationKey]] = []
        for name in dict.fromkeys(names):
            if name not in DERIVABLE:
                raise ValueError(
                    f"observation key {name!r} cannot be derived from the instruction and info['elements']; "
                    f"derivable: {', '.join(DERIVABLE)}"
                )
            self.entries.append((name, OBSERVATION_KEYS[name](config)))
        self.wants_array = any(name == "elements" for name, _ in self.entries)

    def __call__(self, instruction: str, rows: Sequence[dict], *, screen: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
        """The entries for ``instruction`` and the element table ``rows`` (``info["elements"]``).

        Raises:
            ValueError: an instruction that is not a string, rows that are not a list of
                dicts or are more than the configuration's ``elements``, or ``elements``
                asked for without ``screen`` (or a row of it without ``bounds``).
        """
        if not isinstance(instruction, str):
            raise ValueError(f"instruction must be a string, got {type(instruction).__name__}")
        rows = _checked_rows(rows, self.config.elements)
        view = RowsView(instruction, self._table(instruction, rows, screen))
        return {name: entry.encode(view, None) for name, entry in self.entries}

    def _table(self, instruction: str, rows: list[dict], screen: tuple[int, int] | None) -> ElementTable:
        if not self.wants_array:
            return ElementTable(np.zeros((0, len(FEATURES)), dtype=np.float32), rows)
        if screen is None:
            raise ValueError("'elements' needs screen=(width, height): its bounds are fractions of the semantic.v1 screen")
        if len(screen) != 2 or not all(isinstance(s, int) and s > 0 for s in screen):
            raise ValueError(f"screen must be (width, height) in positive ints, got {screen!r}")
        for index, row in enumerate(rows):
            if not isinstance(row.get("bounds"), dict):
                raise ValueError(f"rows[{index}] has no 'bounds' dict, which 'elements' reads")
        c = self.config
        # a view lists its elements in painted order and the table topmost first: reverse back
        view = {"screen": {"width": screen[0], "height": screen[1]}, "elements": rows[::-1]}
        return element_table(view, c.elements, c.skip_roles, frozenset(tokens(instruction)))


def _checked_rows(rows: Sequence[dict], limit: int) -> list[dict]:
    if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, Sequence):
        raise ValueError(f"rows must be a list of element dicts (info['elements']), got {type(rows).__name__}")
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"rows[{index}] must be an element dict, got {type(row).__name__}")
    if len(rows) > limit:
        raise ValueError(f"got {len(rows)} rows, more than the configuration's elements ({limit}): not an info['elements'] of it")
    return list(rows)


def derived_observation(
    names: Iterable[str], config: TaskConfig, instruction: str, rows: Sequence[dict], *, screen: tuple[int, int] | None = None
) -> dict[str, np.ndarray]:
    """The observation entries ``names`` (each in :data:`DERIVABLE`) of an env configured by
    ``config``, from its ``instruction`` and a step's ``info["elements"]`` ``rows``
    (``screen`` for ``elements``). A loop over many steps keeps one
    :class:`DerivedObservation` instead.

    Raises:
        ValueError: as :class:`DerivedObservation` and its call.
    """
    return DerivedObservation(names, config)(instruction, rows, screen=screen)
