"""What a running command and the shell see of their machine.

:class:`~cwgym.machine.machine.Machine` satisfies :class:`MachineView`; the context, the
streams and the interpreter are typed against this protocol rather than the class, so the
machine can build its shell without the shell importing the machine back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from cwgym.kernel.clock import Clock
from cwgym.machine.filesystem import Credentials, Filesystem, UserFS
from cwgym.machine.processes import Process, ProcessTable
from cwgym.machine.users import User

if TYPE_CHECKING:  # importing the shell package at run time would build the interpreter first
    from cwgym.machine.shell.state import ShellState

__all__ = ["Lookup", "MachineView", "NetFailure", "NetPort"]


class NetFailure(Exception):
    """What the network could not do: ``code`` names why (``unresolved``, ``refused``,
    ``unreachable``, ``egress_denied``, ``lost``, ``malformed_url``, ``unsupported_scheme``)
    and ``detail`` says it in words."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class Lookup(NamedTuple):
    """A name resolved for this machine: its ``address``, the CNAME ``aliases`` followed on
    the way (first the name asked), and ``source``: ``"hosts"`` (``/etc/hosts``), ``"dns"``
    (the world's records) or ``"address"`` (the name was already an address)."""

    address: str
    aliases: tuple[str, ...]
    source: str


class NetPort(Protocol):
    """How a machine's programs reach the world's network; the world wires one into each
    machine (``Machine.net``), a machine outside a world has none. Every call travels from
    this machine's node and advances the logical clock as the network says; each raises
    :class:`NetFailure` when it cannot be done."""

    def request(self, method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        """One HTTP exchange: ``(status, headers, body)``."""
        ...

    def lookup(self, name: str) -> Lookup:
        """Resolve ``name`` as this machine would: ``/etc/hosts`` first, then DNS."""
        ...

    def echo(self, address: str) -> int:
        """One ICMP echo to ``address``: the round trip in logical microseconds."""
        ...

    def listening(self, port: int) -> bool:
        """Whether a service or a program already listens on this machine's node at
        ``port`` (what a server that wants to bind it asks first)."""
        ...

    @property
    def search_engine(self) -> str:
        """The world's search engine, a URL template with ``%s`` for the query."""
        ...

    def services(self, kind: str) -> list[dict[str, Any]]:
        """The world's services of ``kind`` as its definition lists them, in order:
        ``{id, domains, port, tls, initial_state}`` (what an administrator provisioned, such
        as the accounts a mail client signs in with)."""
        ...


class MachineView(Protocol):
    """The machine's identity, its state, and the two ways a command acts on it."""

    computer: Any
    profile: Any
    clock: Clock
    sleep: Callable[[int], None]
    home: str
    users: tuple[User, ...]
    cred: Credentials
    fs: Filesystem
    shell: ShellState
    procs: ProcessTable
    clipboard: str
    net: NetPort | None

    @property
    def id(self) -> str: ...

    @property
    def hostname(self) -> str: ...

    @property
    def user(self) -> str: ...

    @property
    def packages(self) -> list[str]: ...

    @property
    def installed_apps(self) -> list[str]: ...

    def user_fs(self) -> UserFS: ...

    def spawn(self, command: str, *, until_us: int | None = None) -> Process: ...
