"""Source-aware DNS on the logical clock.

A record maps a name to an address or, as a CNAME, to another name; chains are followed up
to :data:`MAX_CHAIN` names. A record with a ``resolver`` is served by that node only, so a
machine sees it when it can reach that node (the office's internal names answer on the
office LAN and nowhere else); a record without one is known everywhere. Answers are cached
per asking node until their ``ttl_us`` runs out on the logical clock (the shortest TTL of
a chain); the cache is world state: snapshots, forks and ``state_hash`` carry it. A query
that goes to a resolver costs the round trip to it; a cached answer costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from cwgym.net.http import NetError
from cwgym.protocol.definition import DnsRecord

__all__ = ["MAX_CHAIN", "Answer", "Zone"]

#: The longest CNAME chain followed.
MAX_CHAIN = 8

#: One cached answer: (address, expires_us).
Answer = tuple[str, int]


class Zone:
    """The world's DNS records, by lower-case name (immutable)."""

    def __init__(self, records: Iterable[DnsRecord]) -> None:
        self.records: dict[str, list[DnsRecord]] = {}
        for record in records:
            self.records.setdefault(record.name.lower().rstrip("."), []).append(record)

    def resolve(self, name: str, source: str, now_us: int, cache: dict[str, Answer],
                reach: Callable[[str], int | None]) -> tuple[str, int, bool]:
        """``(address, latency_us, cached)`` of ``name`` asked by node ``source``.

        ``reach(node)`` is the round-trip latency from ``source`` to a resolver node, or
        ``None`` when ``source`` cannot reach it. ``cache`` is ``source``'s cache; a fresh
        answer is written into it.

        Raises:
            NetError: ``unresolved``: no record this source can see, or a chain too long.
        """
        key = name.lower().rstrip(".")
        hit = cache.get(key)
        if hit is not None and hit[1] > now_us:
            return hit[0], 0, True
        latency, expires, current = 0, None, key
        consulted: set[str] = set()
        for _ in range(MAX_CHAIN):
            record = self._visible(current, reach)
            if record is None:
                raise NetError("unresolved", f"could not resolve host: {name}")
            if record.resolver is not None and record.resolver not in consulted:
                consulted.add(record.resolver)
                latency += reach(record.resolver) or 0
            expires = now_us + record.ttl_us if expires is None else min(expires, now_us + record.ttl_us)
            if record.address is not None:
                cache[key] = (record.address, expires)
                return record.address, latency, False
            current = record.cname.lower().rstrip(".")
        raise NetError("unresolved", f"could not resolve host: {name} (a CNAME chain longer than {MAX_CHAIN})")

    def aliases(self, name: str, reach: Callable[[str], int | None]) -> tuple[str, ...]:
        """The names a lookup of ``name`` passes through, ``name`` first and the name holding
        the address last (one name when there is no CNAME); costs nothing and caches nothing."""
        chain, current = [name.lower().rstrip(".")], name.lower().rstrip(".")
        for _ in range(MAX_CHAIN):
            record = self._visible(current, reach)
            if record is None or record.address is not None:
                break
            current = record.cname.lower().rstrip(".")
            chain.append(current)
        return tuple(chain)

    def _visible(self, name: str, reach: Callable[[str], int | None]) -> DnsRecord | None:
        """The first record of ``name`` the asking node may see."""
        return next((r for r in self.records.get(name, ()) if r.resolver is None or reach(r.resolver) is not None), None)
