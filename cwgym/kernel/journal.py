"""The action journal: an append-only, hash-chained record of everything stepped.

Entries are kept as a persistent linked list, so a snapshot holds the journal in O(1) and
a fork shares its parent's history. Each entry's ``chain`` is
``sha256(previous chain + canonical entry)``; editing, dropping or reordering an entry
breaks every chain value after it, which :func:`verify_chain` detects.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import msgspec

from cwgym.kernel.digest import canonical

GENESIS = "0" * 64


class JournalEntry(msgspec.Struct, frozen=True, gc=False):
    """One event: an agent action, a command's input or output, a grant, a topology change."""

    sequence: int
    tick: int
    kind: str
    machine: str | None
    actor: str | None
    data: Any
    chain: str = ""

    def body(self) -> dict:
        return {
            "sequence": self.sequence,
            "tick": self.tick,
            "kind": self.kind,
            "machine": self.machine,
            "actor": self.actor,
            "data": self.data,
        }


def chain_of(previous: str, entry_body: dict) -> str:
    return hashlib.sha256(previous.encode() + canonical(entry_body)).hexdigest()


class _Body(msgspec.Struct):
    """An entry's :meth:`~JournalEntry.body`, fields in sorted order: its canonical
    encoding is the body dict's (whose keys the encoder sorts), built faster."""

    actor: str | None
    data: Any
    kind: str
    machine: str | None
    sequence: int
    tick: int


#: A link of the persistent list: (entry, the link before it or None).
_Cell = tuple


class Journal:
    """Append-only, hash-chained; ``head`` is the frozen value snapshots hold."""

    __slots__ = ("_head", "_last", "_len")

    def __init__(self, head: tuple[_Cell | None, int] = (None, 0)) -> None:
        self._head, self._len = head
        self._last = self.chain.encode()  # what the next entry's chain starts from

    @property
    def head(self) -> tuple[_Cell | None, int]:
        return self._head, self._len

    @property
    def chain(self) -> str:
        return self._head[0].chain if self._head is not None else GENESIS

    def __len__(self) -> int:
        return self._len

    def append(
        self, tick: int, kind: str, machine: str | None, actor: str | None, data: Any
    ) -> JournalEntry:
        sequence = self._len
        body = canonical(_Body(actor, data, kind, machine, sequence, tick))
        chain = hashlib.sha256(self._last + body).hexdigest()  # chain_of, inlined (every event)
        entry = JournalEntry(sequence, tick, kind, machine, actor, data, chain)
        self._head = (entry, self._head)
        self._len = sequence + 1
        self._last = chain.encode()
        return entry

    def entries(self) -> list[JournalEntry]:
        """All entries, oldest first."""
        out: list[JournalEntry] = []
        cell = self._head
        while cell is not None:
            out.append(cell[0])
            cell = cell[1]
        out.reverse()
        return out

    @classmethod
    def from_entries(cls, entries: Iterable[JournalEntry]) -> Journal:
        head: _Cell | None = None
        count = 0
        for entry in entries:
            head = (entry, head)
            count += 1
        return cls((head, count))


def verify_chain(entries: list[JournalEntry]) -> int | None:
    """The index of the first entry whose sequence or chain is wrong, or ``None``."""
    previous = GENESIS
    for index, entry in enumerate(entries):
        if entry.sequence != index or entry.chain != chain_of(previous, entry.body()):
            return index
        previous = entry.chain
    return None
