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


class JournalEntry(msgspec.Struct, frozen=True):
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


class _Cell:
    __slots__ = ("entry", "prev")

    def __init__(self, entry: JournalEntry, prev: _Cell | None) -> None:
        self.entry = entry
        self.prev = prev


class Journal:
    """Append-only, hash-chained; ``head`` is the frozen value snapshots hold."""

    __slots__ = ("_head", "_len")

    def __init__(self, head: tuple[_Cell | None, int] = (None, 0)) -> None:
        self._head, self._len = head

    @property
    def head(self) -> tuple[_Cell | None, int]:
        return self._head, self._len

    @property
    def chain(self) -> str:
        return self._head.entry.chain if self._head is not None else GENESIS

    def __len__(self) -> int:
        return self._len

    def append(
        self, tick: int, kind: str, machine: str | None, actor: str | None, data: Any
    ) -> JournalEntry:
        body = {
            "sequence": self._len,
            "tick": tick,
            "kind": kind,
            "machine": machine,
            "actor": actor,
            "data": data,
        }
        entry = JournalEntry(**body, chain=chain_of(self.chain, body))
        self._head = _Cell(entry, self._head)
        self._len += 1
        return entry

    def entries(self) -> list[JournalEntry]:
        """All entries, oldest first."""
        out: list[JournalEntry] = []
        cell = self._head
        while cell is not None:
            out.append(cell.entry)
            cell = cell.prev
        out.reverse()
        return out

    @classmethod
    def from_entries(cls, entries: Iterable[JournalEntry]) -> Journal:
        head: _Cell | None = None
        count = 0
        for entry in entries:
            head = _Cell(entry, head)
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
