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

__all__ = ["MachineView"]


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
