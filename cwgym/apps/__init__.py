"""Applications, one module each, and :data:`APPS`, the registry that finds them.

Each module defines an :class:`~cwgym.desktop.framework.App` subclass and registers an
instance with :func:`register`. :data:`APPS` imports every public module of this package
(in name order) the first time it is read, so adding an application is adding a file;
tests add their own fixtures with :func:`register` (and remove them with
``APPS.unregister``).

Registration and discovery live here, in the apps layer, and nowhere else. The desktop
layer may not import this package (applications are built on the desktop's framework),
so it never looks applications up by itself: whoever builds a
:class:`~cwgym.desktop.seat.Seat` hands it this registry (``Seat(..., apps=APPS)``), and
the desktop reads it through the :class:`~cwgym.desktop.framework.AppLookup` protocol
(``apps.get(app_id)``).
"""

from __future__ import annotations

from cwgym.desktop.framework import App
from cwgym.kernel.registry import Registry

__all__ = ["APPS", "register"]

#: Every application, by id.
APPS: Registry[App] = Registry("application", __name__)


def register(app: App) -> App:
    """Register an application instance under its ``id`` (another instance under a taken
    id raises :class:`~cwgym.kernel.registry.RegistryError`)."""
    if not isinstance(app, App) or not app.id:
        raise ValueError("register takes an App instance with an id")
    return APPS.register(app.id, app)

