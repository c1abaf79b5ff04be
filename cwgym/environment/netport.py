"""A machine's way onto the world's network: the :class:`~cwgym.machine.view.NetPort` the
world wires into each machine, so ``curl``, ``wget``, ``ping`` and the resolvers on it reach
:mod:`cwgym.net` from that machine's node, through its ``/etc/hosts`` first, and a server
started on it learns whether its port is free (:mod:`cwgym.environment.listeners`). A machine
whose network is switched off (Wi-Fi off or airplane mode: :mod:`cwgym.machine.settings`)
reaches only itself: DNS and requests elsewhere fail."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cwgym.environment.listeners import port_taken
from cwgym.environment.metadata import search_engine
from cwgym.machine.etc import HOSTS, hosts_address
from cwgym.machine.filesystem import FsError
from cwgym.machine.settings import network_up
from cwgym.machine.view import Lookup, NetFailure
from cwgym.net.http import Headers, NetError, Request, Response, parse_url
from cwgym.net.network import is_address

__all__ = ["MachineNet", "hosts_lookup"]


def hosts_lookup(machine: Any, name: str) -> str | None:
    """The address ``machine``'s ``/etc/hosts`` gives ``name`` (``None``: not listed, or
    the file is gone or unreadable)."""
    try:
        data = machine.fs.read_path(HOSTS)
    except FsError:
        return None
    return _hosts_address(data, name)


@lru_cache(maxsize=1024)
def _hosts_address(data: bytes, name: str) -> str | None:
    """:func:`hosts_address` of a file's bytes (an unchanged file is the same bytes object,
    so asking again costs a hash)."""
    return hosts_address(data.decode("utf-8", "replace"), name)


#: Why a machine whose network is switched off reaches nothing beyond itself.
OFFLINE = "the network is off on this machine (Wi-Fi or airplane mode)"

#: (filesystem digest, home, host) -> (network on, ``/etc/hosts``' address for host):
#: both read the machine's files only, and a digest names all of them. Emptied when full.
_SEEN: dict[tuple[bytes, str, str], tuple[bool, str | None]] = {}
_SEEN_KEPT = 1024


def _way_out(machine: Any, host: str) -> tuple[bool, str | None]:
    """Whether the machine's network is on, and the address its ``/etc/hosts`` lists for
    ``host`` (``None`` for an address or a name it does not list): every request asks."""
    key = (machine.fs.digest(), machine.home, host)
    found = _SEEN.get(key)
    if found is None:
        found = (network_up(machine), None if is_address(host) else hosts_lookup(machine, host))
        if len(_SEEN) >= _SEEN_KEPT:
            _SEEN.clear()
        _SEEN[key] = found
    return found


def _local(machine: Any, host: str) -> bool:
    """Whether ``host`` is the machine itself (loopback, its name or address), which it
    reaches with its network switched off."""
    return host in ("localhost", "::1", machine.hostname, machine.computer.address) or host.startswith("127.")


class MachineNet:
    """The network as programs on machine ``machine_id`` of ``runtime`` reach it."""

    __slots__ = ("machine_id", "runtime")

    def __init__(self, runtime: Any, machine_id: str) -> None:
        self.runtime = runtime
        self.machine_id = machine_id

    @property
    def search_engine(self) -> str:
        """The world's search engine template (``metadata.search_engine``), where a browser
        on this machine sends what its address bar cannot read as an address."""
        return search_engine(self.runtime.definition)

    def services(self, kind: str) -> list[dict[str, Any]]:
        return [
            {"id": s.id, "domains": list(s.domains), "port": s.port, "tls": s.tls, "initial_state": s.initial_state}
            for s in self.runtime.definition.services
            if s.kind == kind
        ]

    def _source(self) -> str:
        return self.runtime.topology.computer(self.machine_id).node_id

    def _actor(self) -> str:
        return self.runtime.machines[self.machine_id].user

    def request(self, method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        try:
            response = self.runtime.http(self.machine_id, Request(method, parse_url(url), Headers(tuple(headers)), body), self._actor())
        except NetError as exc:
            raise NetFailure(exc.code, exc.detail) from None
        return response.status, list(response.headers.items), response.body

    def lookup(self, name: str) -> Lookup:
        if is_address(name):
            return Lookup(name, (name,), "address")
        machine = self.runtime.machines[self.machine_id]
        listed = hosts_lookup(machine, name)
        if listed is not None:
            return Lookup(listed, (name,), "hosts")
        if not network_up(machine):
            raise NetFailure("unresolved", f"{name}: {OFFLINE}")
        network, source = self.runtime.network, self._source()
        try:
            address, latency, cached = network.resolve(source, name)
        except NetError as exc:
            raise NetFailure(exc.code, exc.detail) from None
        self.runtime.record("network.dns", self.machine_id, self._actor(), {"name": name, "address": address, "cached": cached})
        self.runtime.sleep(latency)
        return Lookup(address, network.aliases(source, name), "dns")

    def echo(self, address: str) -> int:
        machine = self.runtime.machines[self.machine_id]
        if not _local(machine, address) and not network_up(machine):
            raise NetFailure("unreachable", f"{address}: {OFFLINE}")
        try:
            return self.runtime.network.echo(self._source(), address, self.machine_id, self._actor())
        except NetError as exc:
            raise NetFailure(exc.code, exc.detail) from None

    def listening(self, port: int) -> bool:
        return port_taken(self.runtime, self._source(), port)


def fetch_from(runtime: Any, machine_id: str, request: Request, actor: str | None) -> Response:
    """``request`` from machine ``machine_id``: its ``/etc/hosts`` names the address when it
    lists the host, else the world's DNS does (see :meth:`cwgym.net.network.Network.fetch`)."""
    computer = runtime.topology.computer(machine_id)
    if computer is None:
        raise KeyError(machine_id)
    host = request.url.host
    machine = runtime.machines[machine_id]
    up, address = _way_out(machine, host)
    if not up and not _local(machine, host):
        raise NetError("unreachable", f"{host}: {OFFLINE}")
    if address is not None:
        runtime.record("network.dns", machine_id, actor, {"name": host, "address": address, "cached": True, "from": "hosts"})
    return runtime.network.fetch(computer.node_id, request, machine_id, actor, address=address)
