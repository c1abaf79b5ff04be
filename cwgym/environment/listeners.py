"""Programs that listen: the servers machines run, as the world's network reaches them.

A service is declared by the world; a program binds (node, port) at run time: a process on
a machine (``python3 -m http.server 8000 &``) whose ``listen`` is ``(address, port)``. The
net layer never sees machines, so :meth:`cwgym.net.network.Network.fetch` asks the
runtime's ``program_listener`` (:func:`program_listener`) after the world's services, and a
machine's :class:`~cwgym.environment.netport.MachineNet` asks :func:`port_taken` before a
program binds. A node is one host: every machine on it shares its ports.

Which requests a server hears is decided by the address it bound: ``0.0.0.0`` every
request to the node, ``127.0.0.1`` only those to a loopback address (so only from the
node itself), the machine's own address only those sent to that address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cwgym.machine.commands.python3 import serve
from cwgym.machine.machine import Machine
from cwgym.machine.processes import Process
from cwgym.net.http import Headers, Request, Response
from cwgym.net.network import is_loopback

__all__ = ["Handler", "port_taken", "program_listener", "servers_on"]

#: What answers one request: the request in, the response out.
Handler = Callable[[Request], Response]
ANY, LOOPBACK = "0.0.0.0", "127.0.0.1"


def servers_on(runtime: Any, node: str) -> list[tuple[Machine, Process]]:
    """The servers running now on ``node``'s machines, in topology order, then by pid."""
    now = runtime.clock.now_us
    found = []
    for computer in runtime.topology.computers:
        machine = runtime.machines.get(computer.id) if computer.node_id == node else None
        if machine is not None:
            found += [(machine, proc) for proc in machine.procs.listeners(now)]
    return found


def port_taken(runtime: Any, node: str, port: int) -> bool:
    """Whether a service or a program listens on ``node`` at ``port`` (on any address:
    a second bind of the port fails whatever address either side names)."""
    if runtime.network.service_on(node, port) is not None:
        return True
    return any(proc.listen is not None and proc.listen[1] == port for _, proc in servers_on(runtime, node))


def program_listener(runtime: Any, node: str, port: int, address: str) -> Handler | None:
    """What answers a request to ``address`` at ``port`` on ``node`` from a program that
    listens there (see the module docstring), or ``None``."""
    for machine, proc in servers_on(runtime, node):
        bound, bound_port = proc.listen or ("", 0)
        if bound_port == port and (bound in (ANY, address) or (bound == LOOPBACK and is_loopback(address))):
            return _handler(machine, proc)
    return None


def _handler(machine: Machine, proc: Process) -> Handler:
    def handle(request: Request) -> Response:
        status, headers, body = serve(machine, proc, request.method, request.url.path, request.headers.items)
        return Response(status, Headers(tuple(headers)), body)

    return handle
