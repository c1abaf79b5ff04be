"""Window management on a :class:`~cwgym.desktop.state.Desktop`: stacking, focus, geometry.

Pure operations on the state and a theme's geometry. Focusing raises; closing or
minimizing the focused window hands the focus to the highest window still shown. Moves
keep the title bar reachable (below the top bar, partly on screen); resizes keep the
application's minimum size.
"""

from __future__ import annotations

from cwgym.desktop.state import Desktop, Window
from cwgym.desktop.themes.base import Theme
from cwgym.scene import Rect

__all__ = [
    "CURSORS",
    "close",
    "focus",
    "maximize",
    "minimize",
    "move",
    "resize",
    "restore",
    "toggle_maximize",
]

#: Resize edge -> the cursor shown over it and while dragging it.
CURSORS = {
    "n": "ns-resize",
    "s": "ns-resize",
    "e": "ew-resize",
    "w": "ew-resize",
    "ne": "nesw-resize",
    "sw": "nesw-resize",
    "nw": "nwse-resize",
    "se": "nwse-resize",
}

_KEEP_VISIBLE = 64  # px of a moved window that stay on screen horizontally


def _refocus(desk: Desktop) -> None:
    top = desk.top_visible()
    desk.focused = top.id if top is not None else None


def focus(desk: Desktop, win: Window) -> None:
    """Show ``win`` (un-minimize), raise it to the top and give it the focus."""
    win.minimized = False
    if desk.stack and desk.stack[-1] != win.id:
        desk.stack.remove(win.id)
        desk.stack.append(win.id)
    desk.focused = win.id


def close(desk: Desktop, win: Window) -> None:
    """Remove ``win``; the focus moves to the highest window still shown."""
    del desk.windows[win.id]
    desk.stack.remove(win.id)
    if desk.focused == win.id or desk.focused not in desk.windows:
        _refocus(desk)
    if desk.press is not None and desk.press.get("window") == win.id:
        desk.press = None


def minimize(desk: Desktop, win: Window) -> None:
    """Hide ``win``; it keeps its place in the stack."""
    win.minimized = True
    if desk.focused == win.id:
        _refocus(desk)


def maximize(desk: Desktop, theme: Theme, win: Window) -> None:
    """Fill the work area, remembering the frame to restore."""
    if win.maximized:
        return
    win.restore = list(win.bounds)
    area = theme.work_area()
    win.set_bounds(area.x, area.y, area.width, area.height)
    win.maximized = True


def restore(desk: Desktop, win: Window) -> None:
    """Un-minimize, or else leave the maximized state for the remembered frame."""
    if win.minimized:
        focus(desk, win)
        return
    if win.maximized:
        win.maximized = False
        if win.restore is not None:
            win.set_bounds(*win.restore)
        win.restore = None


def toggle_maximize(desk: Desktop, theme: Theme, win: Window) -> None:
    """What the maximize button and a title-bar double-click do."""
    if win.maximized:
        restore(desk, win)
    else:
        maximize(desk, theme, win)


def _constrain(theme: Theme, x: int, y: int, width: int, height: int) -> tuple[int, int]:
    area = theme.work_area()
    y = max(area.y, min(y, area.bottom - theme.title_bar))
    x = max(area.x - width + _KEEP_VISIBLE, min(x, area.right - _KEEP_VISIBLE))
    return x, y


def move(theme: Theme, win: Window, origin: list[int], start: list[int], point: tuple[int, int]) -> None:
    """Drag the title bar from ``start`` (pressed when the frame was ``origin``) to ``point``.

    A maximized window leaves the maximized state at the first move, keeping the pointer
    at the same relative place across its restored width.
    """
    ox, oy, ow, oh = origin
    px, py = point
    if win.maximized and (px, py) != tuple(start):
        rw, rh = (win.restore or [ox, oy, ow, oh])[2:]
        rel = (start[0] - ox) * rw // max(1, ow)
        win.maximized = False
        win.restore = None
        ox, oy, ow, oh = start[0] - rel, oy, rw, rh
        origin[:] = [ox, oy, ow, oh]
    if win.maximized:
        return
    x, y = _constrain(theme, ox + px - start[0], oy + py - start[1], ow, oh)
    win.set_bounds(x, y, ow, oh)


def resize(
    theme: Theme,
    win: Window,
    edge: str,
    origin: list[int],
    start: list[int],
    point: tuple[int, int],
    min_size: tuple[int, int],
) -> None:
    """Drag the ``edge`` (``n``, ``se``, ...) of a frame that was ``origin`` at ``start``."""
    x, y, w, h = origin
    dx, dy = point[0] - start[0], point[1] - start[1]
    area = theme.work_area()
    min_w, min_h = min_size
    right, bottom = x + w, y + h
    if "e" in edge:
        right = max(x + min_w, x + w + dx)
    if "w" in edge:
        x = min(right - min_w, x + dx)
    if "s" in edge:
        bottom = max(y + min_h, y + h + dy)
    if "n" in edge:
        y = max(area.y, min(bottom - min_h, y + dy))
    win.set_bounds(x, y, right - x, bottom - y)


def frame_rect(win: Window) -> Rect:
    return Rect(win.x, win.y, win.width, win.height)
