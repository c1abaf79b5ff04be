"""``Registry``: named implementations of one extension point.

Every extension point of cwgym (shell commands, applications, themes, action families,
observation channels, RL observation keys, procedure check kinds, service kinds) is a
``Registry``. A module adds itself with :meth:`Registry.register` (a decorator or a plain
call), and a registry that names a ``package`` imports every public module of it, in name
order, the first time it is read, so adding an implementation is adding a file.

Lookups are deterministic: :meth:`Registry.names` and iteration are sorted by name, never by
insertion or hash order.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class RegistryError(LookupError):
    """A name registered twice, or looked up and not found."""


class Registry(Generic[T]):
    """Name -> implementation, for one extension point.

    Args:
        kind: what the entries are, used in error messages ("command", "theme", ...).
        package: a dotted package whose public modules register entries when imported;
            they are imported on the first read.
    """

    __slots__ = ("_entries", "_loaded", "_loading", "kind", "package")

    def __init__(self, kind: str, package: str | None = None) -> None:
        self.kind = kind
        self.package = package
        self._entries: dict[str, T] = {}
        self._loaded = package is None
        self._loading = False

    # -- writing -------------------------------------------------------------------------
    @overload
    def register(self, name: str) -> Callable[[T], T]: ...
    @overload
    def register(self, name: str, entry: T, *, replace: bool = False) -> T: ...

    def register(self, name: str, entry: T | None = None, *, replace: bool = False) -> T | Callable[[T], T]:
        """Register ``entry`` under ``name``; without ``entry``, a decorator that does.

        Registering the same object again is a no-op; another object under a taken name
        raises :class:`RegistryError` unless ``replace`` is true.
        """
        if entry is None:
            return lambda value: self.register(name, value, replace=replace)
        if not isinstance(name, str) or not name:
            raise RegistryError(f"a {self.kind} name must be a non-empty string, got {name!r}")
        held = self._entries.get(name)
        if held is not None and held is not entry and not replace:
            raise RegistryError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = entry
        return entry

    def unregister(self, name: str) -> T:
        """Remove and return ``name``'s entry (tests and owners undoing an extension)."""
        self.load()
        try:
            return self._entries.pop(name)
        except KeyError:
            raise RegistryError(f"no {self.kind} {name!r} is registered") from None

    # -- reading -------------------------------------------------------------------------
    def load(self) -> None:
        """Import the package's public modules (once), so they register themselves."""
        if self._loaded or self._loading:
            return
        self._loading = True
        try:
            package = importlib.import_module(self.package)
            for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
                if not info.name.startswith("_"):
                    importlib.import_module(f"{self.package}.{info.name}")
            self._loaded = True
        finally:
            self._loading = False

    def get(self, name: str, default: T | None = None) -> T | None:
        """The entry called ``name``, or ``default``."""
        self.load()
        return self._entries.get(name, default)

    def __getitem__(self, name: str) -> T:
        self.load()
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(sorted(self._entries)) or "none"
            raise RegistryError(f"unknown {self.kind} {name!r} (registered: {known})") from None

    def __contains__(self, name: object) -> bool:
        self.load()
        return name in self._entries

    def names(self) -> list[str]:
        """Every registered name, sorted."""
        self.load()
        return sorted(self._entries)

    def items(self) -> list[tuple[str, T]]:
        """``(name, entry)`` pairs, sorted by name."""
        self.load()
        return sorted(self._entries.items(), key=lambda item: item[0])

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        self.load()
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<Registry {self.kind}: {len(self._entries)} entries>"
