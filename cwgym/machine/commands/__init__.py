"""The command registry: every shell command is one module in this package.

A module registers its entry point with :func:`command`; the registry imports every public
module of the package (in name order) the first time it is read, so adding a command is
adding a file. Which registry a shell uses is the dialect's choice (``cwgym.machine.shell``
is the POSIX dialect).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from cwgym.kernel.registry import Registry

if TYPE_CHECKING:
    from cwgym.machine.context import CommandContext

CommandFn = Callable[["CommandContext"], int]

#: Every command of the POSIX dialect, by name.
COMMANDS: Registry[CommandFn] = Registry("command", __name__)


#: The package each packaged command comes from, by command name. A packaged command
#: exists on a machine only when its computer lists the package (``computers[].packages``),
#: as ``curl`` exists on an Ubuntu machine only once ``curl`` is installed.
PACKAGES: dict[str, str] = {}


def command(*names: str, package: str | None = None) -> Callable[[CommandFn], CommandFn]:
    """Register the decorated function under each of ``names``; with ``package``, only
    machines that list that package have it."""

    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS.register(name, fn)
            if package is not None:
                PACKAGES[name] = package
        return fn

    return register


def lookup(name: str, packages: Collection[str] | None = None) -> CommandFn | None:
    """The command called ``name``, or ``None``. With ``packages`` (what a machine has
    installed), a packaged command whose package is not among them is ``None`` too."""
    fn = COMMANDS.get(name)
    if fn is not None and packages is not None:
        package = PACKAGES.get(name)
        if package is not None and package not in packages:
            return None
    return fn


def names() -> list[str]:
    """Every registered command name, sorted."""
    return COMMANDS.names()
