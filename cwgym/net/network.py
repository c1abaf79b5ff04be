"""The ``network`` subsystem: DNS caches and service states, and the path of a request.

:meth:`Network.fetch` carries one HTTP request from a node to a server and back:

1. the URL's host is resolved for the asking node (:mod:`cwgym.net.dns`; an address is
   taken as it is), through its cache;
2. the destination node is the one holding the address, and the gateway must allow it;
3. the path is the cheapest over the links (:mod:`cwgym.net.graph`); each hop may lose the
   request, drawn from that link's own random stream ``net.loss:<from>><to>``;
4. the service listening on the destination's port answers; with none, a program on the
   destination node that listens there does (``python3 -m http.server``, found through the
   ``program_listener`` the environment wires into the runtime; none: ``refused``);
5. the logical clock advances by the DNS round trip, the path there and the path back.

It journals ``network.dns``, ``network.http_request`` and ``network.http_response``
(:meth:`Network.echo`, a ping, journals ``network.echo``). A
redirect is returned, never followed: the client follows it, each hop a new request.
The topology it routes over is the world's live one (``runtime.topology``); the records,
routes, gateway and services are the definition's.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.net.dns import Answer, Zone
from cwgym.net.graph import Graph, Hop
from cwgym.net.http import NetError, Request, Response
from cwgym.net.services import SERVICE_KINDS, not_implemented
from cwgym.protocol.definition import DnsRecord, WorldDefinition

__all__ = ["Network"]


class Network(Subsystem):
    """DNS caches by asking node, and the state of every service instance."""

    name = "network"
    order = 25
    sections = ("network",)

    __slots__ = ("_zone", "caches", "runtime", "services")

    def __init__(self, runtime: Any, caches: dict[str, dict[str, Answer]], services: dict[str, Any]) -> None:
        self.runtime = runtime
        self.caches = caches
        self.services = services
        derived = runtime.derived
        if "net.zone" not in derived:  # the records are the definition's: one zone for a world and its forks
            derived["net.zone"] = Zone(_records(runtime.definition))
        self._zone: Zone = derived["net.zone"]

    # -- subsystem ---------------------------------------------------------------------
    @classmethod
    def build(cls, runtime: Any) -> Network:
        d: WorldDefinition = runtime.definition
        services = {}
        for i, service in enumerate(d.services):
            kind = SERVICE_KINDS.get(service.kind)
            services[service.id] = None if kind is None else kind.initial(service.initial_state, f"$.services[{i}].initial_state", d)
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
        for service in runtime.definition.services:
            kind = SERVICE_KINDS.get(service.kind)
            if kind is not None:  # an imported state must be one the kind could hold
                try:
                    services[service.id] = kind.initial(services[service.id], f"network.services.{service.id}", runtime.definition)
                except ValueError as exc:
                    at, _, problem = str(exc).partition(": ")
                    raise SnapshotError(at, problem) from None
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
        # the services, with their states, are listed by the runtime beside their definitions
        return {"dns": {"records": len(d.network.dns), "cached": {n: sorted(a) for n, a in sorted(self.caches.items())}}}

    # -- routing -----------------------------------------------------------------------
    def graph(self) -> Graph:
        """The routing view of the live topology (rebuilt when it changes; a world and its
        forks share it while their topologies are the same tuples)."""
        runtime = self.runtime
        topology, network = runtime.topology, runtime.definition.network
        cached = runtime.derived.get("net.graph")  # (nodes, links, graph), shared with forks
        if cached is None or cached[0] is not topology.nodes or cached[1] is not topology.links:
            cached = (topology.nodes, topology.links,
                      Graph(topology.nodes, topology.links, network.routes, network.implicit_lan, network.gateway))
            runtime.derived["net.graph"] = cached
        return cached[2]

    def _reach(self, source: str) -> Any:
        graph = self.graph()

        def reach(node: str) -> int | None:
            if node not in graph.nodes:
                return None
            try:
                there = graph.path(source, node)
            except NetError:
                return None
            return 2 * sum(h.latency_us for h in there)

        return reach

    def resolve(self, source: str, host: str) -> tuple[str, int, bool]:
        """``(address, latency_us, cached)`` of ``host`` for node ``source``: an address is
        itself; then the world's records (through ``source``'s cache); then the name of a
        computer in the world now (the LAN's DHCP-fed DNS knows each one by its id).

        Raises:
            NetError: ``unresolved``.
        """
        if is_address(host):
            return host, 0, True
        try:
            return self._zone.resolve(host, source, self.runtime.clock.now_us, self.caches.setdefault(source, {}), self._reach(source))
        except NetError:
            computer = self.runtime.topology.computer(host.lower().rstrip("."))
            if computer is None:
                raise
            return computer.address, 0, True

    def aliases(self, source: str, host: str) -> tuple[str, ...]:
        """The CNAME chain a lookup of ``host`` from ``source`` follows, ``host`` first."""
        return (host,) if is_address(host) else self._zone.aliases(host, self._reach(source))

    def target(self, source: str, address: str) -> str:
        """The node holding ``address`` (a loopback address is ``source`` itself).

        Raises:
            NetError: ``unreachable``: no node holds it.
        """
        if is_loopback(address):
            return source
        target = self.graph().node_of(address)
        if target is None:
            raise NetError("unreachable", f"no node holds address {address}")
        return target

    def _lost(self, hops: list[Hop]) -> Hop | None:
        """The first of ``hops`` that loses the packet (each draws from its own stream)."""
        rng = self.runtime.kernel.rng
        for hop in hops:
            if hop.loss_per_million and rng.randbelow(f"net.loss:{hop.source}>{hop.target}", 1_000_000) < hop.loss_per_million:
                return hop
        return None

    def echo(self, source: str, address: str, machine: str | None = None, actor: str | None = None) -> int:
        """One ICMP echo from ``source`` to ``address``: the round trip in microseconds, by
        which the clock advances. Every node answers an echo, services or not.

        Raises:
            NetError: ``unreachable``, ``egress_denied`` or ``lost`` (there or back).
        """
        graph = self.graph()
        target = self.target(source, address)
        there = graph.path(source, target)
        back = graph.cheapest(target, source)
        lost = self._lost(there) or self._lost(back)
        rtt = sum(h.latency_us for h in there) + sum(h.latency_us for h in back)
        self.runtime.record("network.echo", machine, actor, {"from": source, "to": target, "lost": lost is not None})
        if lost is not None:
            raise NetError("lost", f"the echo was lost between {lost.source} and {lost.target}")
        self.runtime.sleep(rtt)
        return rtt

    def fetch(self, source: str, request: Request, machine: str | None = None, actor: str | None = None,
              address: str | None = None) -> Response:
        """One request from node ``source``; see the module docstring. ``address``, when
        given, is where the host already resolved to (the machine's ``/etc/hosts``).

        Raises:
            NetError: ``unresolved``, ``egress_denied``, ``unreachable``, ``lost`` or ``refused``.
        """
        runtime = self.runtime
        host = request.url.host
        if address is None:
            address, dns_latency, cached = self.resolve(source, host)
            runtime.record("network.dns", machine, actor, {"name": host, "address": address, "cached": cached})
        else:
            dns_latency = 0
        graph = self.graph()
        target = self.target(source, address)
        there = graph.path(source, target)
        url = str(request.url)
        runtime.record("network.http_request", machine, actor,
                       {"method": request.method, "url": url, "from": source, "to": target})
        lost = self._lost(there)
        if lost is not None:
            runtime.sleep(dns_latency + sum(h.latency_us for h in there))
            raise NetError("lost", f"the request was lost between {lost.source} and {lost.target}")
        service = self.service_on(target, request.url.port)
        program = None if service is not None else self.program_on(target, request.url.port, address)
        back = graph.cheapest(target, source)
        runtime.sleep(dns_latency + sum(h.latency_us for h in there) + sum(h.latency_us for h in back))
        if service is None and program is None:
            raise NetError("refused", f"connection refused: nothing listens on {target} port {request.url.port}")
        if program is not None:
            response = program(request)
        elif (kind := SERVICE_KINDS.get(service.kind)) is None:
            response = not_implemented(service.kind)
        else:
            before = self.services[service.id]
            response, after = kind.handle(before, request, source, runtime.clock.now_us)
            if after is not before:
                self.services[service.id] = after
        runtime.record("network.http_response", machine, actor,
                       {"url": url, "status": response.status, "bytes": len(response.body)})
        return response

    def service_on(self, node: str, port: int) -> Any:
        """The world's service listening on ``node`` at ``port`` (a TLS one on 443 too), or ``None``."""
        for service in self.runtime.definition.services:
            if service.node == node and (service.port == port or (service.tls and port == 443)):
                return service
        return None

    def program_on(self, node: str, port: int, address: str) -> Callable[[Request], Response] | None:
        """What answers a request to ``address`` at ``port`` from a program listening on
        ``node``, or ``None``: the runtime's ``program_listener`` decides (the net layer
        never sees machines); a runtime without one has no programs that listen."""
        ask = getattr(self.runtime, "program_listener", None)
        return None if ask is None else ask(node, port, address)


@lru_cache(maxsize=4096)
def is_address(host: str) -> bool:
    """Whether ``host`` is an IP address rather than a name."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=4096)
def is_loopback(address: str) -> bool:
    """Whether ``address`` is this node's own (``127.0.0.0/8``, ``::1``)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


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
