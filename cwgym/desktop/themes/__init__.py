"""Shell themes, one module each, in :data:`THEMES`.

A theme module defines a :class:`~cwgym.desktop.themes.base.Theme` subclass and calls
:func:`register` with an instance. :data:`THEMES` imports every public module of this
package (in name order) the first time it is read, so adding a shell style (macOS,
Windows 11, iOS, Android) is adding a file. A world names its machines' themes in its
``desktop_themes`` metadata; :func:`theme` turns the name into the instance.
"""

from __future__ import annotations

from cwgym.desktop.themes.base import DockEntry, FrameView, IconView, ShellView, Theme
from cwgym.kernel.registry import Registry

__all__ = ["THEMES", "DockEntry", "FrameView", "IconView", "ShellView", "Theme", "names", "register", "theme"]

#: Every shell theme, by name.
THEMES: Registry[Theme] = Registry("theme", __name__)


def register(instance: Theme) -> Theme:
    """Register a theme under its ``name`` once :meth:`Theme.check` passes (another instance
    under a taken name raises :class:`~cwgym.kernel.registry.RegistryError`)."""
    if not isinstance(instance, Theme) or not instance.name:
        raise ValueError("register takes a Theme instance with a name")
    instance.check()
    return THEMES.register(instance.name, instance)


def theme(name: str | None) -> Theme | None:
    """The theme called ``name``, or ``None`` when there is none (or no name)."""
    return THEMES.get(name) if name else None


def names() -> list[str]:
    """Every registered theme name, sorted."""
    return THEMES.names()
