"""The command registry: every shell command is one module in this package.

A module registers its entry point with :func:`command`; the registry imports every module
of the package (in name order) the first time it is asked, so adding a command is adding a
file. Which registry a shell uses is the dialect's choice (``cwgym.machine.shell`` is the
POSIX dialect).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cwgym.machine.context import CommandContext

CommandFn = Callable[["CommandContext"], int]

_REGISTRY: dict[str, CommandFn] = {}
_loaded = False


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Register the decorated function under each of ``names``."""

    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            if name in _REGISTRY and _REGISTRY[name] is not fn:
                raise RuntimeError(f"command {name!r} is registered twice")
            _REGISTRY[name] = fn
        return fn

    return register


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def lookup(name: str) -> CommandFn | None:
    """The command called ``name``, or ``None``."""
    _load()
    return _REGISTRY.get(name)


def names() -> list[str]:
    """Every registered command name, sorted."""
    _load()
    return sorted(_REGISTRY)
