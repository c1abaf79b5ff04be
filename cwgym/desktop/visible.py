"""The desktop's part of what an actor can see, for action effects.

:func:`visible_parts` projects a desktop into comparable values under effect tags. Parts
that belong to one window are keyed by window id under ``"windows"``, so the environment
compares them only for windows that exist before and after an action (a window that opens
reports ``window.opened``, not ``content``). All values are content digests or small
plain values: equal states give equal parts in any process.
"""

from __future__ import annotations

from typing import Any

from cwgym.desktop.framework import App, AppLookup
from cwgym.desktop.state import Desktop
from cwgym.kernel.digest import canonical
from cwgym.protocol import effects

__all__ = ["WINDOW_PARTS", "visible_parts"]

#: Tags compared window by window.
WINDOW_PARTS = (
    effects.WINDOW_MOVED,
    effects.WINDOW_TITLE,
    effects.DOCUMENT,
    effects.CONTENT,
    effects.FOCUS,
    effects.SCROLL,
    effects.NAVIGATE,
)


def visible_parts(desk: Desktop, apps: AppLookup) -> dict[str, Any]:
    """``{"windows": {id: {tag: value}}, "stack": ids, "window.focused": id, "shell": ...}``.

    ``apps`` (``cwgym.apps.APPS``) tells each window's application, whose ``focus_keys``
    split its state into content and focus.

    ``stack`` (bottom to top) is compared, like the per-window parts, over the windows
    present before and after; a change in it is reported as ``window.focused`` (raising).
    """
    windows: dict[int, dict[str, Any]] = {}
    found: dict[str, tuple[tuple[str, ...], Any]] = {}  # app id -> (focus keys, location or None)
    for wid in sorted(desk.windows):
        win = desk.windows[wid]
        hooks = found.get(win.app)
        if hooks is None:
            app = apps.get(win.app)
            if app is None:
                hooks = ((), None)
            else:
                located = type(app).location is not App.location
                hooks = (app.focus_keys, app.location if located else None)
            found[win.app] = hooks
        focus_keys, location = hooks
        content, focus = win.split_digests(focus_keys)
        windows[wid] = {
            effects.WINDOW_MOVED: (win.x, win.y, win.width, win.height, win.minimized, win.maximized),
            effects.WINDOW_TITLE: win.title,
            effects.DOCUMENT: win.document,
            effects.CONTENT: content,
            effects.FOCUS: focus,
            effects.SCROLL: tuple(sorted(win.scroll.items())) if win.scroll else (),
            effects.NAVIGATE: location(win.state) if location is not None else "",
        }
    return {
        "windows": windows,
        "stack": tuple(desk.stack),
        effects.WINDOW_FOCUSED: desk.focused,
        effects.SHELL: (
            canonical(desk.panel) if desk.panel is not None else b"",
            desk.selected_icon,
            tuple(desk.running_apps()),
        ),
    }
