"""The integrated terminal of ``code``: the Terminal application's own model and painting
(``cwgym/apps/terminal.py``) run inside a panel of the window (a helper module, not an
application).

The terminal's hooks are called as they are, on its own state (kept under the code
window's ``term`` key), through two adapters:

* :class:`PanelContext` is the window's :class:`~cwgym.desktop.framework.AppContext`
  with the panel's size in place of the content's, so the terminal lays its grid out in
  the panel; points handed on are made relative to the panel.
* :class:`PanelPainter` is the window's painter for the panel: it prefixes every target
  the terminal paints with ``terminal:`` (so ``terminal-input`` is published as
  ``window:<id>:content:terminal:terminal-input`` and cannot clash with the editor's
  controls), names its nodes apart, passes its keyboard focus on only while the panel has
  the focus, and paints the panel's colour where the terminal paints its aubergine
  background. Painting happens inside ``Painter.clipped`` at the panel's origin, so the
  scroll pane (``pane:scrollback``), the buffer (``window:<id>:terminal``) and the caret
  land where the panel is.
"""

from __future__ import annotations

from typing import Any

from cwgym.apps.terminal import BACKGROUND, Terminal
from cwgym.desktop.framework import AppContext, AppError
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.scene import Box, NodeState, Rect

__all__ = [
    "PREFIX",
    "PanelContext",
    "PanelPainter",
    "activate",
    "drag",
    "key",
    "paint",
    "start",
    "type_text",
]

#: What the panel's targets start with.
PREFIX = "terminal:"
#: The panel's background (VS Code's), painted where the terminal paints its own.
PANEL_BG = (24, 24, 24, 255)

_TERMINAL = Terminal()


class PanelContext:
    """The window's context as the terminal sees it: the panel's size, everything else
    the window's own."""

    __slots__ = ("_ctx", "height", "width")

    def __init__(self, ctx: AppContext, rect: Rect) -> None:
        self._ctx = ctx
        self.width = rect.width
        self.height = rect.height

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)

    @property
    def clipboard(self) -> str:
        return self._ctx.clipboard

    @clipboard.setter
    def clipboard(self, text: str) -> None:
        self._ctx.clipboard = text


class PanelPainter:
    """The window's painter as the terminal sees it (see the module docstring)."""

    __slots__ = ("_focused", "_p", "height", "palette", "width", "window")

    def __init__(self, p: Painter, rect: Rect, focused: bool) -> None:
        self._p = p
        self._focused = focused
        self.width = rect.width
        self.height = rect.height
        self.palette = p.palette
        self.window = p.window

    def target(self, name: str) -> str:
        return self._p.target(PREFIX + name)

    def node_id(self, key: Any) -> int:
        return self._p.node_id(("term", key))

    def paint(
        self,
        primitive: Any,
        rect: Rect,
        *,
        key: Any = None,
        target: str | None = None,
        state: Any = None,
        **kw: Any,
    ) -> Any:
        if isinstance(primitive, Box) and primitive.color == BACKGROUND:
            primitive = Box(PANEL_BG, primitive.stroke, primitive.stroke_width)
        if state is not None and state.focused and not self._focused:
            state = NodeState(state.checked, state.selected, state.expanded, False)
        return self._p.paint(
            primitive,
            rect,
            key=("term", key) if key is not None else None,
            target=PREFIX + target if target is not None else None,
            state=state,
            **kw,
        )

    def box(self, rect: Rect, color: Any, **kw: Any) -> Any:
        target = kw.pop("target", None)
        key = kw.pop("key", None)
        return self._p.box(
            rect,
            color,
            key=("term", key) if key is not None else None,
            target=PREFIX + target if target else None,
            **kw,
        )

    def focus(self, name: str | None, **kw: Any) -> None:
        if self._focused:
            self._p.focus(PREFIX + name if name is not None else None, **kw)

    def buffer(self, *args: Any, **kw: Any) -> str:
        return self._p.buffer(*args, **kw)

    def scroll_offset(self, name: str) -> int | None:
        return self._p.scroll_offset(name)

    def scroll(self, *args: Any, **kw: Any) -> int:
        return self._p.scroll(*args, **kw)


def start(ctx: AppContext, rect: Rect, folder: str | None) -> dict:
    """A new terminal's state, its shell moved into ``folder`` when that is a folder
    (as the Terminal application does with its launch argument)."""
    pctx = PanelContext(ctx, rect)
    if folder and ctx.files().is_dir(folder, "/"):
        try:
            return _TERMINAL.create(pctx, folder)  # type: ignore[arg-type]
        except AppError:  # a folder the shell cannot enter: start where it is
            pass
    return _TERMINAL.create(pctx, None)  # type: ignore[arg-type]


def paint(p: Painter, state: dict, rect: Rect, focused: bool) -> None:
    with p.clipped(rect, dx=rect.x, dy=rect.y):
        _TERMINAL.paint(PanelPainter(p, rect, focused), state, None)  # type: ignore[arg-type]


def key(ctx: AppContext, state: dict, rect: Rect, chord: Chord) -> bool:
    return _TERMINAL.key(PanelContext(ctx, rect), state, chord)  # type: ignore[arg-type]


def type_text(ctx: AppContext, state: dict, rect: Rect, text: str) -> bool:
    return _TERMINAL.type(PanelContext(ctx, rect), state, text)  # type: ignore[arg-type]


def _local(point: tuple[int, int] | None, rect: Rect) -> tuple[int, int] | None:
    return None if point is None else (point[0] - rect.x, point[1] - rect.y)


def activate(
    ctx: AppContext, state: dict, rect: Rect, target: str, point: tuple[int, int] | None
) -> Any:
    """A click on ``terminal:<target>`` (``target`` without the prefix)."""
    return _TERMINAL.activate(PanelContext(ctx, rect), state, target, _local(point, rect))  # type: ignore[arg-type]


def is_drag_surface(target: str, button: int) -> bool:
    return _TERMINAL.is_drag_surface(target, button)


def drag(
    ctx: AppContext,
    state: dict,
    rect: Rect,
    target: str,
    phase: str,
    point: tuple[int, int],
    button: int,
    modifiers: tuple[str, ...],
    clicks: int,
) -> None:
    local = _local(point, rect)
    assert local is not None
    _TERMINAL.drag(PanelContext(ctx, rect), state, target, phase, local, button, modifiers, clicks)  # type: ignore[arg-type]


def wheel(ctx: AppContext, state: dict, rect: Rect, dy: int, modifiers: tuple[str, ...]) -> bool:
    return _TERMINAL.wheel(PanelContext(ctx, rect), state, None, (0, 0), 0, dy, modifiers)  # type: ignore[arg-type]
