"""Shell themes, one module each, found by name.

A theme module defines a :class:`~cwgym.desktop.themes.base.Theme` subclass and calls
:func:`register` with an instance. :func:`theme` imports every module of this package
(in name order) the first time it is asked, so adding a shell style (macOS, Windows 11,
iOS, Android) is adding a file.
"""

from __future__ import annotations

import importlib
import pkgutil

from cwgym.desktop.themes.base import DockEntry, FrameView, IconView, ShellView, Theme

__all__ = ["DockEntry", "FrameView", "IconView", "ShellView", "Theme", "names", "register", "theme"]

_THEMES: dict[str, Theme] = {}
_loaded = False


def register(instance: Theme) -> Theme:
    """Register a theme under its ``name``."""
    if not instance.name:
        raise ValueError("a theme needs a name")
    if instance.name in _THEMES and _THEMES[instance.name] is not instance:
        raise RuntimeError(f"theme {instance.name!r} is registered twice")
    _THEMES[instance.name] = instance
    return instance


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name != "base" and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def theme(name: str | None) -> Theme | None:
    """The theme called ``name``, or ``None`` when there is no such module."""
    if not name:
        return None
    _load()
    return _THEMES.get(name)


def names() -> list[str]:
    """Every registered theme name, sorted."""
    _load()
    return sorted(_THEMES)
