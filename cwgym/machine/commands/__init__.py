"""The command registry: every shell command is one module in this package.

A module registers its entry point with :func:`command`; the registry imports every public
module of the package (in name order) the first time it is read, so adding a command is
adding a file. Which registry a shell uses is the dialect's choice (``cwgym.machine.shell``
is the POSIX dialect).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cwgym.kernel.registry import Registry

if TYPE_CHECKING:
    from cwgym.machine.context import CommandContext

CommandFn = Callable[["CommandContext"], int]

#: Every command of the POSIX dialect, by name.
COMMANDS: Registry[CommandFn] = Registry("command", __name__)


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Register the decorated function under each of ``names``."""

    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS.register(name, fn)
        return fn

    return register


def lookup(name: str) -> CommandFn | None:
    """The command called ``name``, or ``None``."""
    return COMMANDS.get(name)


def names() -> list[str]:
    """Every registered command name, sorted."""
    return COMMANDS.names()
