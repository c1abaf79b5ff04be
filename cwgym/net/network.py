"""The ``network`` subsystem: DNS caches and service states, and the path of a request.

:meth:`Network.fetch` carries one HTTP request from a node to a server and back:

1. the URL's host is resolved for the asking node (:mod:`cwgym.net.dns`; an address is
   taken as it is), through its cache;
2. the destination node is the one holding the address, and the gateway must allow it;
3. the path is the cheapest over the links (:mod:`cwgym.net.graph`); each hop may lose the
   request, drawn from that link's own random stream ``net.loss:<from>><to>``;
4. the service listening on the destination's port answers (none: ``refused``);
5. the logical clock advances by the DNS round trip, the path there and the path back.

It journals ``network.dns``, ``network.http_request`` and ``network.http_response``. A
redirect is returned, never followed: the client follows it, each hop a new request.
The topology it routes over is the world's live one (``runtime.topology``); the records,
routes, gateway and services are the definition's.
"""

from __future__ import annotations

from typing import Any

from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.net.dns import Answer, Zone
from cwgym.net.graph import Graph
from cwgym.net.http import NetError, Request, Response
from cwgym.net.services import SERVICE_KINDS, not_implemented
from cwgym.protocol.definition import DnsRecord, WorldDefinition

__all__ = ["Network"]


class Network(Subsystem):
    """DNS caches by asking node, and the state of every service instance."""

    name = "network"
    order = 25
    sections = ("network",)

    __slots__ = ("_graph", "_graph_key", "_zone", "caches", "runtime", "services")

    def __init__(self, runtime: Any, caches: dict[str, dict[str, Answer]], services: dict[str, Any]) -> None:
        self.runtime = runtime
        self.caches = caches
        self.services = services
        self._graph: Graph | None = None
        self._graph_key: tuple = ()
        self._zone = Zone(_records(runtime.definition))  # the records are the definition's: built once

    # -- subsystem ---------------------------------------------------------------------
    @classmethod
    def build(cls, runtime: Any) -> Network:
        d: WorldDefinition = runtime.definition
        services = {}
        for i, service in enumerate(d.services):
            kind = SERVICE_KINDS.get(service.kind)
            services[service.id] = None if kind is None else kind.initial(service.initial_state, f"$.services[{i}].initial_state")
        return cls(runtime, {}, services)

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> Network:
        caches, services = frozen
        return cls(runtime, {node: dict(answers) for node, answers in caches}, dict(services))

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Network:
        doc = convert(sections["network"], dict[str, Any], "network")
        caches = convert(doc.get("dns_cache", {}), dict[str, dict[str, tuple[str, int]]], "network.dns_cache")
        services = convert(doc.get("services", {}), dict[str, Any], "network.services")
        declared = {s.id for s in runtime.definition.services}
        if set(services) != declared:
            raise SnapshotError("network.services", f"holds {sorted(services)}, the definition declares {sorted(declared)}")
        for node, answers in caches.items():
            for name, (_, expires) in answers.items():
                if expires < 0:
                    raise SnapshotError(f"network.dns_cache.{node}.{name}", "an expiry is never negative")
        return cls(runtime, {n: dict(a) for n, a in caches.items()}, services)

    def freeze(self) -> tuple:
        caches = tuple(sorted((node, tuple(sorted(answers.items()))) for node, answers in self.caches.items()))
        return caches, tuple(sorted(self.services.items()))

    def digest(self) -> list[Any]:
        caches = [[node, [[name, a, e] for name, (a, e) in sorted(answers.items())]] for node, answers in sorted(self.caches.items())]
        return [caches, [[sid, state] for sid, state in sorted(self.services.items())]]

    def export(self) -> dict[str, Any]:
        caches = {node: {name: [a, e] for name, (a, e) in sorted(answers.items())} for node, answers in sorted(self.caches.items())}
        return {"network": {"dns_cache": caches, "services": dict(sorted(self.services.items()))}}

    def inspect(self) -> dict[str, Any]:
        d = self.runtime.definition
        return {"dns": {"records": len(d.network.dns), "cached": {n: sorted(a) for n, a in sorted(self.caches.items())}},
                "services": {s.id: {"kind": s.kind, "node": s.node, "port": s.port, "implemented": s.kind in SERVICE_KINDS}
                             for s in d.services}}

    # -- routing -----------------------------------------------------------------------
    def graph(self) -> Graph:
        """The routing view of the live topology (rebuilt when it changes)."""
        topology, network = self.runtime.topology, self.runtime.definition.network
        key = (topology.nodes, topology.links)
        if self._graph is None or self._graph_key[0] is not key[0] or self._graph_key[1] is not key[1]:
            self._graph = Graph(topology.nodes, topology.links, network.routes, network.implicit_lan, network.gateway)
            self._graph_key = key
        return self._graph

    def resolve(self, source: str, host: str) -> tuple[str, int, bool]:
        """``(address, latency_us, cached)`` of ``host`` for node ``source``."""
        graph = self.graph()
        if graph.node_of(host) is not None or host.replace(".", "").isdigit():
            return host, 0, True

        def reach(node: str) -> int | None:
            if node not in graph.nodes:
                return None
            try:
                there = graph.path(source, node)
            except NetError:
                return None
            return 2 * sum(h.latency_us for h in there)

        cache = self.caches.setdefault(source, {})
        return self._zone.resolve(host, source, self.runtime.clock.now_us, cache, reach)

    def fetch(self, source: str, request: Request, machine: str | None = None, actor: str | None = None) -> Response:
        """One request from node ``source``; see the module docstring.

        Raises:
            NetError: ``unresolved``, ``egress_denied``, ``unreachable``, ``lost`` or ``refused``.
        """
        runtime = self.runtime
        host = request.url.host
        address, dns_latency, cached = self.resolve(source, host)
        runtime.record("network.dns", machine, actor, {"name": host, "address": address, "cached": cached})
        graph = self.graph()
        target = graph.node_of(address)
        if target is None:
            raise NetError("unreachable", f"no node holds address {address}")
        there = graph.path(source, target)
        runtime.record("network.http_request", machine, actor,
                       {"method": request.method, "url": str(request.url), "from": source, "to": target})
        for hop in there:
            if hop.loss_per_million and runtime.kernel.rng.randbelow(f"net.loss:{hop.source}>{hop.target}", 1_000_000) < hop.loss_per_million:
                runtime.sleep(dns_latency + sum(h.latency_us for h in there))
                raise NetError("lost", f"the request was lost between {hop.source} and {hop.target}")
        service = self._listener(target, request.url.port)
        back = graph.cheapest(target, source) if target != source else []
        runtime.sleep(dns_latency + sum(h.latency_us for h in there) + sum(h.latency_us for h in back))
        if service is None:
            raise NetError("refused", f"connection refused: nothing listens on {target} port {request.url.port}")
        kind = SERVICE_KINDS.get(service.kind)
        if kind is None:
            response = not_implemented(service.kind)
        else:
            response, after = kind.handle(self.services[service.id], request, source)
            if after is not self.services[service.id]:
                self.services[service.id] = after
        runtime.record("network.http_response", machine, actor,
                       {"url": str(request.url), "status": response.status, "bytes": len(response.body)})
        return response

    def _listener(self, node: str, port: int) -> Any:
        for service in self.runtime.definition.services:
            if service.node == node and (service.port == port or (service.tls and port == 443)):
                return service
        return None


def _records(d: WorldDefinition) -> list[DnsRecord]:
    """The DNS records, plus one for each service domain no record names: it resolves, for
    every node, to the address of the node the service runs on."""
    records = list(d.network.dns)
    named = {r.name.lower().rstrip(".") for r in records}
    addresses = {n.id: n.address for n in d.network.nodes} | {c.node_id: c.address for c in d.computers}
    for service in d.services:
        for domain in service.domains:
            if domain.lower().rstrip(".") not in named and service.node in addresses:
                named.add(domain.lower().rstrip("."))
                records.append(DnsRecord(name=domain, address=addresses[service.node]))
    return records


SUBSYSTEMS.register(Network.name, Network)
