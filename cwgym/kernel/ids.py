"""Namespaced deterministic id counters (window ids, pids, inode numbers, ...)."""

from __future__ import annotations

_LIMIT = (1 << 63) - 1


class IdCounters:
    """One increasing counter per namespace; part of the world state."""

    __slots__ = ("counters",)

    def __init__(self, counters: dict[str, int] | None = None) -> None:
        self.counters: dict[str, int] = dict(counters) if counters else {}

    def next(self, namespace: str, start: int = 0) -> int:
        """The next id of ``namespace`` (``start`` the first time)."""
        value = self.counters.get(namespace, start)
        if value >= _LIMIT:
            raise OverflowError(f"id namespace {namespace!r} is exhausted")
        self.counters[namespace] = value + 1
        return value

    def peek(self, namespace: str, start: int = 0) -> int:
        return self.counters.get(namespace, start)
