"""Applications, one module each; importing :func:`load` registers them all.

Each module defines an :class:`~cwgym.desktop.framework.App` subclass and registers an
instance with :func:`cwgym.desktop.framework.register`. :func:`load` imports every module
of this package in name order (once), so adding an application is adding a file.
"""

from __future__ import annotations

import importlib
import pkgutil

__all__ = ["load"]

_loaded = False


def load() -> None:
    """Import (and so register) every application module of this package."""
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True
