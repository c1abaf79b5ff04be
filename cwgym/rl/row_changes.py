"""Element rows sent between processes as changes: what a worker or actor returns of each
world's ``info["elements"]`` is only the rows that differ from its previous reply.

A semantic step's info is mostly its element table (about 9 KB of a world's 10 KB), and
from one step to the next most rows stay as they were: a click changes a few. Pickling the
whole table in the worker and reading it back in the driver was most of what a remote
batch step added to the worlds' own steps. :class:`RowsSender` (in the worker) replaces
each world's rows with a list in which a row equal to one of that world's previous rows is
that row's index among them (or, when every row is where it was, with just their count);
:class:`RowsReceiver` (in the driver) rebuilds the rows from its own copy of the previous
ones. What the caller gets is what the worker had, each row a new dict of its own.

The two sides must stay in step: each message carries its number and the number of the
message its changes refer to (0: none, every row is sent). A receiver asked to apply
changes to rows it no longer has (it forgot them while the sender did not) raises
``RuntimeError`` rather than hand out wrong rows; a sender that forgets (a restarted actor)
sends whole rows again, which any receiver accepts.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RowsReceiver", "RowsSender"]

KEY = "elements"


def _own(row: dict[str, Any]) -> dict[str, Any]:
    own = row.copy()
    own["bounds"] = own["bounds"].copy()
    return own


def _changes(last: list[dict], rows: list[dict]) -> int | list:
    """``rows`` against ``last``: each row equal to one of ``last`` as its index there (the
    same position, or the row of the same control id: a window opening shifts the rows
    after it), the others whole; just the count when every row is where it was."""
    n = len(last)
    delta: list = []
    unmoved = len(rows) <= n
    index: dict | None = None
    for j, row in enumerate(rows):
        if j < n and last[j] == row:
            delta.append(j)
            continue
        unmoved = False
        if index is None:
            index = {r.get("id"): k for k, r in enumerate(last)}
        k = index.get(row.get("id"))
        delta.append(k if k is not None and last[k] == row else row)
    return len(rows) if unmoved else delta


class RowsSender:
    """The worker's side for ``slots`` worlds: remembers the rows each last sent."""

    def __init__(self, slots: int) -> None:
        self._last: list[list | None] = [None] * slots
        self._number = 0

    def pack(self, infos: list[dict | None]) -> tuple[int, int, list[dict | None], list[int]]:
        """``(number, base, infos, changed)``: the infos, those of the worlds in ``changed``
        with their rows as changes against message ``base``. ``infos`` is left as it was."""
        base = self._number
        self._number += 1
        out = list(infos)
        changed: list[int] = []
        for i, info in enumerate(infos):
            rows = info.get(KEY) if info is not None else None
            if not isinstance(rows, list):
                continue
            last = self._last[i]
            self._last[i] = rows
            if last is None:
                continue
            info = dict(info)
            info[KEY] = _changes(last, rows)
            out[i] = info
            changed.append(i)
        return self._number, base if changed else 0, out, changed


class RowsReceiver:
    """The driver's side for one sender: rebuilds rows from its copy of the last ones."""

    def __init__(self, slots: int) -> None:
        self._last: list[list | None] = [None] * slots
        self._number = 0

    def forget(self) -> None:
        """Drop the rows kept: the sender was replaced or rolled back (it forgot its own)."""
        self._last = [None] * len(self._last)
        self._number = 0

    def unpack(self, message: tuple[int, int, list[dict | None], list[int]]) -> list[dict | None]:
        """The infos the sender packed, every row a dict of the caller's own."""
        number, base, infos, changed = message
        if base and base != self._number:
            raise RuntimeError(f"element rows out of step: changes against reply {base}, the last one read was {self._number}")
        self._number = number
        changes = set(changed)
        for i, info in enumerate(infos):
            rows = info.get(KEY) if info is not None else None
            if i in changes:
                last = self._last[i]
                if last is None:
                    raise RuntimeError(f"element rows out of step: changes for world {i} of this slice, whose rows were never read")
                kept = last[:rows] if isinstance(rows, int) else [last[row] if type(row) is int else row for row in rows]
            elif isinstance(rows, list):
                kept = rows
            else:
                continue
            self._last[i] = kept
            info[KEY] = [_own(row) for row in kept]
        return infos
