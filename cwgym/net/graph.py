"""Paths through the world's network: nodes, directed links with latency and loss, routes,
the implicit LAN, and the gateway's policy.

A path is the cheapest by total latency, ties broken by fewer hops and then by node ids,
so the same world always picks the same path. ``implicit_lan`` joins every two ``local``
nodes that no link joins with a 10 µs hop; a route ``{destination, via, node?}`` sends
traffic for ``destination`` (a node id or address) from ``node`` (or from anywhere) through
``via`` first. The gateway decides by the destination's zone: ``local`` needs
``allow_local``, ``internet`` ``allow_internet``, ``host`` ``allow_host``; a node always
reaches itself.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from cwgym.net.http import NetError
from cwgym.protocol.definition import Gateway, Link, Node, Route

__all__ = ["LAN_LATENCY_US", "Graph", "Hop"]

#: The latency of an implicit LAN hop, in logical microseconds.
LAN_LATENCY_US = 10


@dataclass(frozen=True, order=True)
class Hop:
    """One link of a path: its ends, latency and loss."""

    source: str
    target: str
    latency_us: int
    loss_per_million: int


class Graph:
    """The routing view of a topology (immutable: rebuilt when the topology changes)."""

    def __init__(self, nodes: Iterable[Node], links: Iterable[Link], routes: Iterable[Route] = (),
                 implicit_lan: bool = False, gateway: Gateway | None = None) -> None:
        self.nodes = {n.id: n for n in nodes}
        self.by_address = {n.address: n.id for n in self.nodes.values()}
        #: (source, target) -> the cheapest hops, or why there are none: a graph never changes
        self._cheapest: dict[tuple[str, str], tuple[Hop, ...] | NetError] = {}
        self.gateway = gateway or Gateway()
        self.routes = tuple(routes)
        self.edges: dict[str, dict[str, Hop]] = {n: {} for n in self.nodes}
        for link in links:
            self._join(link.from_, link.to, link.latency_us, link.loss_per_million)
            if link.bidirectional:
                self._join(link.to, link.from_, link.latency_us, link.loss_per_million)
        if implicit_lan:
            local = sorted(n for n, node in self.nodes.items() if node.zone == "local")
            for a in local:
                for b in local:
                    if a != b and b not in self.edges[a]:
                        self._join(a, b, LAN_LATENCY_US, 0)

    def _join(self, a: str, b: str, latency: int, loss: int) -> None:
        best = self.edges[a].get(b)
        if best is None or (latency, loss) < (best.latency_us, best.loss_per_million):
            self.edges[a][b] = Hop(a, b, latency, loss)

    def node_of(self, address: str) -> str | None:
        """The node that holds ``address`` (``None``: no node does)."""
        return self.by_address.get(address)

    def allowed(self, source: str, target: str) -> bool:
        """Whether the gateway lets ``source`` reach ``target``."""
        if source == target:
            return True
        zone = self.nodes[target].zone
        g = self.gateway
        return {"local": g.allow_local, "internet": g.allow_internet, "host": g.allow_host}[zone]

    def path(self, source: str, target: str) -> list[Hop]:
        """The hops from ``source`` to ``target`` (empty when they are the same node).

        Raises:
            NetError: ``egress_denied`` by the gateway, or ``unreachable``.
        """
        if not self.allowed(source, target):
            raise NetError("egress_denied", f"the gateway does not allow {self.nodes[target].zone} destinations")
        for route in self.routes:
            if route.node in (None, source) and target in (route.destination, self.nodes[target].address) and route.via not in (source, target):
                return self.cheapest(source, route.via) + self.cheapest(route.via, target)
        return self.cheapest(source, target)

    def cheapest(self, source: str, target: str) -> list[Hop]:
        """The cheapest hops from ``source`` to ``target``, the gateway aside (an answer goes
        back the way a permitted request came).

        Raises:
            NetError: ``unreachable``.
        """
        found = self._cheapest.get((source, target))
        if found is None:
            found = self._cheapest[(source, target)] = self._search(source, target)
        if isinstance(found, NetError):
            raise NetError(found.code, found.detail)
        return list(found)

    def _search(self, source: str, target: str) -> tuple[Hop, ...] | NetError:
        if source == target:
            return ()
        queue: list[tuple[int, int, str, tuple[Hop, ...]]] = [(0, 0, source, ())]
        settled: set[str] = set()
        while queue:
            cost, hops, node, path = heapq.heappop(queue)
            if node in settled:
                continue
            if node == target:
                return path
            settled.add(node)
            for nxt in sorted(self.edges[node]):
                if nxt not in settled:
                    hop = self.edges[node][nxt]
                    heapq.heappush(queue, (cost + hop.latency_us, hops + 1, nxt, (*path, hop)))
        return NetError("unreachable", f"no link leads from {source} to {target}")
