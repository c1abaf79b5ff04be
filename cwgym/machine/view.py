"""What a running command and the shell see of their machine.

:class:`~cwgym.machine.machine.Machine` satisfies :class:`MachineView`; the context, the
streams and the interpreter are typed against this protocol rather than the class, so the
machine can build its shell without the shell importing the machine back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from cwgym.kernel.clock import Clock
from cwgym.machine.filesystem import Credentials, Filesystem, UserFS
from cwgym.machine.processes import Process, ProcessTable
from cwgym.machine.users import User

if TYPE_CHECKING:  # importing the shell package at run time would build the interpreter first
    from cwgym.machine.shell.state import ShellState

__all__ = ["HttpFailure", "HttpPort", "MachineView"]


class HttpFailure(Exception):
    """A request the network could not answer: ``code`` names why (``unresolved``,
    ``refused``, ``unreachable``, ``egress_denied``, ``lost``, ``malformed_url``,
    ``unsupported_scheme``) and ``detail`` says it in words."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


#: How a machine's programs reach the world's network: ``(method, url, headers, body)`` to
#: ``(status, headers, body)``; raises :class:`HttpFailure`. The world wires one into each
#: machine (``Machine.http``); a machine outside a world has none.
HttpPort = Callable[[str, str, list[tuple[str, str]], bytes], tuple[int, list[tuple[str, str]], bytes]]


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
    http: HttpPort | None

    @property
    def id(self) -> str: ...

    @property
    def hostname(self) -> str: ...

    @property
    def user(self) -> str: ...

    @property
    def installed_apps(self) -> list[str]: ...

    def user_fs(self) -> UserFS: ...

    def spawn(self, command: str, *, until_us: int | None = None) -> Process: ...
