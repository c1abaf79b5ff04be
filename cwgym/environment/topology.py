"""The topology subsystem: the computers, network nodes and links a world has now.

It starts as the definition's and changes through ``World.add_computer`` and
``remove_computer``; snapshots carry it, so a restore brings removed computers back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.protocol.definition import Computer, Link, Node

__all__ = ["Topology"]


class Topology(Subsystem):
    """Computers, nodes and links, in the order they joined."""

    name = "topology"
    order = 10
    sections = ("computers", "nodes", "links")

    __slots__ = ("computers", "links", "nodes")

    def __init__(self, computers: Iterable[Computer], nodes: Iterable[Node], links: Iterable[Link]) -> None:
        # Tuples, replaced whole on every change: a snapshot shares them (O(1)), and a
        # reader that cached something built from them can tell by identity.
        self.computers: tuple[Computer, ...] = tuple(computers)
        self.nodes: tuple[Node, ...] = tuple(nodes)
        self.links: tuple[Link, ...] = tuple(links)

    def computer(self, computer_id: str) -> Computer | None:
        return next((c for c in self.computers if c.id == computer_id), None)

    @classmethod
    def build(cls, runtime: Any) -> Topology:
        d = runtime.definition
        nodes = list(d.network.nodes)
        known = {n.id for n in nodes}
        for computer in d.computers:
            if computer.node_id not in known:
                nodes.append(Node(id=computer.node_id, address=computer.address))
        return cls(d.computers, nodes, d.network.links)

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> Topology:
        computers, nodes, links = frozen
        return cls(computers, nodes, links)

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Topology:
        computers = convert(sections["computers"], list[Computer], "computers")
        nodes = convert(sections["nodes"], list[Node], "nodes")
        links = convert(sections["links"], list[Link], "links")
        node_ids = [n.id for n in nodes]
        if len(set(node_ids)) != len(node_ids):
            raise SnapshotError("nodes", "node ids must be distinct")
        for index, computer in enumerate(computers):
            if computer.node_id not in node_ids:
                raise SnapshotError(f"computers[{index}].node_id", f"no node {computer.node_id!r}")
        for index, link in enumerate(links):
            for end in (link.from_, link.to):
                if end not in node_ids:
                    raise SnapshotError(f"links[{index}]", f"no node {end!r}")
        return cls(computers, nodes, links)

    def freeze(self) -> tuple:
        return self.computers, self.nodes, self.links

    def digest(self) -> list[Any]:
        return [
            [c.id for c in self.computers],  # each machine's digest covers its definition
            [msgspec.to_builtins(n) for n in self.nodes],
            [msgspec.to_builtins(link) for link in self.links],
        ]

    def export(self) -> dict[str, Any]:
        return {"computers": list(self.computers), "nodes": list(self.nodes), "links": list(self.links)}

    def inspect(self) -> dict[str, Any]:
        return {
            "network": {
                "nodes": [msgspec.to_builtins(n) for n in self.nodes],
                "links": [msgspec.to_builtins(link) for link in self.links],
            }
        }


SUBSYSTEMS.register(Topology.name, Topology)
