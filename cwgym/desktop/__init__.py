"""The desktop: window manager, shell themes, input routing, composition, app framework.

Modules, one job each:

* :mod:`~cwgym.desktop.state` — a session's desktop on one machine, as plain data;
* :mod:`~cwgym.desktop.wm` — stacking, focus, minimize/maximize/restore, move, resize;
* :mod:`~cwgym.desktop.launcher` — the desktop shell's controls: launching, the app
  grid, switcher, context panel, desktop icons;
* :mod:`~cwgym.desktop.routing` — pointer.v1 and keyboard.v1 routing;
* :mod:`~cwgym.desktop.keys` — the key-name grammar;
* :mod:`~cwgym.desktop.compositor` — the retained scene, painted in cached chunks kept
  in a :mod:`~cwgym.desktop.scene_cache`;
* :mod:`~cwgym.desktop.framework` and :mod:`~cwgym.desktop.painter` — how applications
  are written and how they draw;
* :mod:`~cwgym.desktop.themes` — shell styles (``ubuntu``), one module each;
* :mod:`~cwgym.desktop.visible` and :mod:`~cwgym.desktop.semantic` — what an actor sees,
  for effects and for the ``semantic.v1`` channel;
* :mod:`~cwgym.desktop.seat` — the façade binding a desktop to its machine and grants;
  the modules it drives know it as a :class:`~cwgym.desktop.seatlike.SeatLike`.
"""

from cwgym.desktop.framework import (
    App,
    AppContext,
    AppError,
    AppLookup,
    InvalidInput,
    UnknownTarget,
)
from cwgym.desktop.keys import Chord, parse_key
from cwgym.desktop.painter import Painter
from cwgym.desktop.seat import Seat
from cwgym.desktop.state import Desktop, Window

__all__ = [
    "App",
    "AppContext",
    "AppError",
    "AppLookup",
    "Chord",
    "Desktop",
    "InvalidInput",
    "Painter",
    "Seat",
    "UnknownTarget",
    "Window",
    "parse_key",
]
