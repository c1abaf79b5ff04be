"""The public web a world joins with ``internet: true``.

A bundled definition fragment (``cwgym/assets/web/public-web.json``): an ISP edge router,
three points of presence at 8, 40 and 90 ms, and sites behind them on the addresses
reserved for documentation (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) under names in
the reserved ``.example`` domain — a search engine, webmail, an encyclopedia, a Q&A site, a
forum, a shop, a video site and a social network. Joining adds its nodes, links, DNS
records and services to the world's own, and an uplink from every computer to the edge
(2 ms), so a site abroad costs tens of milliseconds of logical time where the LAN costs
microseconds. The gateway still decides: ``internet: true`` needs
``network.gateway.allow_internet``.

The fragment is package data read once, like the bundled fonts; nothing is looked up on
the host or fetched.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import msgspec

from cwgym.protocol.definition import (
    DefinitionError,
    DnsRecord,
    Link,
    Node,
    Service,
    WorldDefinition,
)

__all__ = ["PublicWeb", "join_public_web", "public_web"]


class PublicWeb(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The fragment: where computers uplink, and what they reach."""

    edge: str
    uplink_latency_us: int
    search_engine: str
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    dns: tuple[DnsRecord, ...]
    services: tuple[Service, ...]


@lru_cache(maxsize=1)
def public_web() -> PublicWeb:
    """The bundled public web (read and checked once per process)."""
    data = resources.files("cwgym").joinpath("assets/web/public-web.json").read_bytes()
    return msgspec.json.decode(data, type=PublicWeb)


def join_public_web(d: WorldDefinition) -> WorldDefinition:
    """``d`` with the public web joined (``d`` itself when ``internet`` is false).

    Raises:
        DefinitionError: at ``$.internet``, when the world's own ids, addresses or domains
            collide with the public web's.
    """
    if not d.internet:
        return d
    web = public_web()
    _no_collisions(d, web)
    uplinks = [Link(from_=node, to=web.edge, latency_us=web.uplink_latency_us)
               for node in dict.fromkeys(c.node_id for c in d.computers)]
    network = msgspec.structs.replace(
        d.network,
        nodes=[*d.network.nodes, *web.nodes],
        links=[*d.network.links, *uplinks, *web.links],
        dns=[*d.network.dns, *web.dns],
    )
    metadata = d.metadata if "search_engine" in d.metadata else {**d.metadata, "search_engine": web.search_engine}
    return msgspec.structs.replace(d, network=network, services=[*d.services, *web.services], metadata=metadata)


def _no_collisions(d: WorldDefinition, web: PublicWeb) -> None:
    ours: dict[str, str] = {}
    for n in d.network.nodes:
        ours[f"node {n.id}"] = f"$.network.nodes: node {n.id!r}"
        ours[f"address {n.address}"] = f"$.network.nodes: address {n.address}"
    for c in d.computers:
        ours[f"node {c.node_id}"] = f"$.computers: node {c.node_id!r}"
        ours[f"address {c.address}"] = f"$.computers: address {c.address}"
    for s in d.services:
        ours[f"service {s.id}"] = f"$.services: service {s.id!r}"
        for domain in s.domains:
            ours[f"domain {domain.lower()}"] = f"$.services: domain {domain!r}"
    for r in d.network.dns:
        ours[f"domain {r.name.lower()}"] = f"$.network.dns: name {r.name!r}"
    theirs = [f"node {n.id}" for n in web.nodes] + [f"address {n.address}" for n in web.nodes]
    theirs += [f"service {s.id}" for s in web.services] + [f"domain {d.lower()}" for s in web.services for d in s.domains]
    for key in theirs:
        if key in ours:
            raise DefinitionError("$.internet", f"{ours[key]} is the public web's; rename it to join the internet")
