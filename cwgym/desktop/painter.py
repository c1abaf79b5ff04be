"""The :class:`Painter` an application draws its window content with.

Coordinates are the content area's own: ``(0, 0)`` is its top-left corner, ``width`` and
``height`` its size. Everything painted is clipped to the content area. Interaction
targets are named locally (``"save"``) and published as ``window:<id>:content:save``.

Besides nodes, a painter publishes the window's keyboard focus and caret
(:meth:`Painter.focus`), its text buffers (:meth:`Painter.buffer`) and its scroll panes
(:meth:`Painter.scroll`, at the offsets the window stores: :meth:`Painter.scroll_offset`).
:meth:`Painter.node_id` tells the id a keyed node gets (for ``TextLine.wrapped_from``).
Text widths come from :mod:`cwgym.text`, the same shaping the renderer draws with, so a
measured label is exactly as wide as it is drawn.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cwgym.scene import (
    Box,
    Color,
    NodeState,
    Primitive,
    Rect,
    RoundedBox,
    SceneBuilder,
    ScrollArea,
    Semantic,
    Text,
    TextBuffer,
    UiText,
    UiTextBold,
)
from cwgym.scene.node import Node
from cwgym.text import ellipsize, line_height, measure, shape

__all__ = ["PIECES_KEPT", "AppFocus", "Painter"]

#: Pieces :meth:`Painter.reuse` keeps (least recently used out first).
PIECES_KEPT = 2048


@dataclass(frozen=True)
class AppFocus:
    """The control of a window that has the keyboard, as a painter recorded it.

    ``caret`` is in screen coordinates (the painter converts it).
    """

    target: str | None
    node: int | None
    role: str
    label: str
    value: str | None
    caret: Rect | None
    line: int
    column: int
    offset: int
    text_entry: bool


class Painter:
    """Draws one window's content (see the module docstring).

    Attributes:
        window: the window id.
        width, height: the content area's size.
        palette: the theme's colours (``window``, ``text``, ``muted``, ``accent``,
            ``accent_text``, ``field``, ``border``, ``selection``, ``button``).
    """

    def __init__(
        self,
        builder: SceneBuilder,
        window: int,
        content: Rect,
        palette: dict[str, Color],
        scroll: dict[str, int],
        pieces: OrderedDict | None = None,
    ) -> None:
        self._b = builder
        self._pieces = pieces
        self._lent: tuple | None = None
        self.window = window
        self._origin = (content.x, content.y)
        self._dx = 0
        self._dy = 0
        self.width = content.width
        self.height = content.height
        self.palette = palette
        self._scroll = scroll
        self._auto = 0
        self._first_node: dict[str, int] = {}
        self.app_focus: AppFocus | None = None

    # -- naming ------------------------------------------------------------------------
    def target(self, name: str) -> str:
        """The full interaction id of a local target name."""
        return f"window:{self.window}:content:{name}"

    def node_id(self, key: Any) -> int:
        """The node id :meth:`paint` gives (or gave) the node painted with ``key`` in this
        window — what a continuation row's ``TextLine.wrapped_from`` names."""
        return self._b.id_for(("c", key))

    def _world(self, rect: Rect) -> Rect:
        return Rect(rect.x + self._origin[0] + self._dx, rect.y + self._origin[1] + self._dy, rect.width, rect.height)

    # -- nodes -------------------------------------------------------------------------
    def paint(
        self,
        primitive: Primitive,
        rect: Rect,
        *,
        key: Any = None,
        target: str | None = None,
        semantic: Semantic | None = None,
        state: NodeState | None = None,
        z: int = 0,
        clip: Rect | None = None,
        line: Any = None,
    ) -> Node:
        """Paint one primitive at ``rect``; ``target`` is a local target name."""
        if key is None:
            key = ("#", self._auto)
            self._auto += 1
        interaction = self.target(target) if target is not None else None
        node = self._b.paint(
            primitive,
            rect.translate(self._dx, self._dy) if (self._dx or self._dy) else rect,
            key=("c", key),
            semantic=semantic,
            interaction=interaction,
            state=state,
            z=z,
            clip=self._world(clip) if clip is not None else None,
            line=line,
        )
        if interaction is not None and interaction not in self._first_node:
            self._first_node[interaction] = node.id
        return node

    def box(
        self,
        rect: Rect,
        color: Color,
        *,
        radius: int = 0,
        stroke: Color | None = None,
        key: Any = None,
        target: str | None = None,
    ) -> Node:
        """A filled (rounded) rectangle.

        A filled box stops the pointer: one painted over a control must name the
        control's ``target`` too, or it hides the control from clicks.
        """
        if radius:
            return self.paint(RoundedBox(color, radius, stroke, 1 if stroke else 0), rect, key=key, target=target)
        return self.paint(Box(color, stroke, 1 if stroke else 0), rect, key=key, target=target)

    def text(
        self,
        text: str,
        x: int,
        y: int,
        *,
        size: int = 14,
        color: Color | None = None,
        bold: bool = False,
        mono: bool = False,
        width: int | None = None,
        key: Any = None,
        target: str | None = None,
    ) -> Rect:
        """One line of text with its top-left at ``(x, y)``; ellipsized to ``width``.

        Returns the rectangle it occupies (measured with the drawing font).
        """
        font = "mono-bold" if mono and bold else "mono" if mono else "sans-bold" if bold else "sans"
        shown = ellipsize(text, font, size, width) if width is not None else text
        rect = Rect(x, y, measure(shown, font, size), line_height(font, size))
        color = color or self.palette["text"]
        if mono:
            prim: Primitive = Text(shown, size, color, font)
        elif bold:
            prim = UiTextBold(shown, size, color)
        else:
            prim = UiText(shown, size, color)
        self.paint(prim, rect, key=key, target=target)
        return rect

    def button(
        self,
        name: str,
        label: str,
        rect: Rect,
        *,
        focused: bool = False,
        disabled: bool = False,
        suggested: bool = False,
    ) -> None:
        """A push button with target ``name``."""
        pal = self.palette
        fill = pal["accent"] if suggested else pal["button"]
        ink = pal["accent_text"] if suggested else pal["text"]
        if disabled:
            ink = pal["muted"]
        self.paint(
            RoundedBox(fill, 6, pal["accent"] if focused else pal["border"], 2 if focused else 1),
            rect,
            key=("button", name),
            target=name,
            semantic=Semantic("button", label, None, disabled, True),
            state=NodeState(focused=True) if focused else None,
        )
        w = measure(label, "sans", 14)
        h = line_height("sans", 14)
        self.paint(
            UiText(label, 14, ink),
            Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
            key=("button-label", name),
            target=name,
        )

    def textbox(
        self,
        name: str,
        value: str,
        rect: Rect,
        *,
        label: str = "",
        focused: bool = False,
        caret: int | None = None,
        placeholder: str = "",
        size: int = 14,
    ) -> None:
        """A one-line text field with target ``name``; when ``focused`` it takes the keyboard.

        ``caret`` is the insertion point as a character offset (default: the end).
        """
        pal = self.palette
        self.paint(
            RoundedBox(pal["field"], 6, pal["accent"] if focused else pal["border"], 2 if focused else 1),
            rect,
            key=("field", name),
            target=name,
            semantic=Semantic("textbox", label, value, False, True),
            state=NodeState(focused=True) if focused else None,
        )
        h = line_height("sans", size)
        ty = rect.y + (rect.height - h) // 2
        inner = Rect(rect.x + 8, rect.y + 2, max(0, rect.width - 16), max(0, rect.height - 4))
        if value:
            self.paint(
                UiText(value, size, pal["text"]),
                Rect(inner.x, ty, measure(value, "sans", size), h),
                key=("field-text", name),
                target=name,
                clip=inner,
            )
        elif placeholder:
            self.paint(
                UiText(placeholder, size, pal["muted"]),
                Rect(inner.x, ty, measure(placeholder, "sans", size), h),
                key=("field-placeholder", name),
                target=name,
                clip=inner,
            )
        if focused:
            offset = len(value) if caret is None else max(0, min(caret, len(value)))
            cx = inner.x + shape(value, "sans", size).caret_x(offset) if value else inner.x
            caret_rect = Rect(min(cx, inner.x + inner.width), ty, 1, h)
            self.paint(Box(pal["text"]), caret_rect, key=("caret", name), clip=inner)
            self.focus(name, role="textbox", label=label, value=value, caret=caret_rect, column=offset, offset=offset, text_entry=True)

    # -- structure ---------------------------------------------------------------------
    def reuse(self, key: Hashable, paint: Callable[..., Any], *args: Any) -> None:
        """Paint what ``paint(self, *args)`` paints, or add the very nodes it painted before.

        ``key`` must name everything ``paint`` reads besides the painter itself (its
        window, position, size, offsets, stored scroll offsets, palette and group are
        added to the key here). A
        piece painted once is reused by every window showing it in any world sharing
        the repaint cache: a row, a sidebar, a toolbar that did not change is not painted
        again when its window repaints. Painting that publishes focus, a buffer or a
        scroll pane is never reused (those are not nodes); call it outside ``reuse``.
        """
        pieces = self._pieces
        if pieces is None:
            paint(self, *args)
            return
        if self._lent is None:  # what the painter itself lends a piece, besides its group
            self._lent = (self.width, self.height, tuple(self.palette.items()), tuple(sorted(self._scroll.items())))
        full = (key, self.window, self._origin, self._dx, self._dy, self._auto, self._lent, self._b.context())
        hit = pieces.get(full)
        if hit is not None:
            pieces.move_to_end(full)
            nodes, auto = hit
            self._b.extend(nodes)
            self._auto += auto
            first = self._first_node
            for n in nodes:
                if n.interaction is not None and n.interaction not in first:
                    first[n.interaction] = n.id
            return
        scene = self._b.scene
        start, auto, focus = len(scene.nodes), self._auto, self.app_focus
        buffers, scrolls = len(scene.buffers), len(scene.scrolls)
        paint(self, *args)
        if self.app_focus is not focus or len(scene.buffers) != buffers or len(scene.scrolls) != scrolls:
            return
        pieces[full] = (scene.nodes[start:], self._auto - auto)
        if len(pieces) > PIECES_KEPT:
            pieces.popitem(last=False)

    @contextmanager
    def clipped(self, rect: Rect, *, dx: int = 0, dy: int = 0) -> Iterator[None]:
        """Paint the body clipped to ``rect`` and shifted by ``(dx, dy)`` (scrolled content)."""
        saved = (self._dx, self._dy)
        world = self._world(rect)
        with self._b.group(clip=world):
            self._dx, self._dy = saved[0] + dx, saved[1] + dy
            try:
                yield
            finally:
                self._dx, self._dy = saved

    def focus(
        self,
        name: str | None,
        *,
        role: str = "",
        label: str = "",
        value: str | None = None,
        caret: Rect | None = None,
        line: int = 0,
        column: int = 0,
        offset: int = 0,
        text_entry: bool = False,
    ) -> None:
        """Declare the control that has the keyboard inside this window (``caret`` local)."""
        target = self.target(name) if name is not None else None
        self.app_focus = AppFocus(
            target,
            self._first_node.get(target) if target is not None else None,
            role,
            label,
            value,
            self._world(caret) if caret is not None else None,
            line,
            column,
            offset,
            text_entry,
        )

    def buffer(
        self,
        kind: str,
        lines: list[str],
        first_visible: int = 0,
        visible: int = 0,
        *,
        truncated: bool = False,
    ) -> str:
        """Publish a text pane's whole buffer; returns its handle ``window:<id>:<kind>``.

        ``truncated`` says the application already dropped older lines (a bounded
        scrollback); the buffer also says so when it has to drop lines itself.
        """
        handle = f"window:{self.window}:{kind}"
        buf = TextBuffer.bounded(handle, self.window, kind, list(lines), first_visible, visible)
        if truncated:
            buf.truncated = True
        self._b.buffer(buf)
        return handle

    def scroll_offset(self, name: str) -> int | None:
        """The offset the window stores for the pane ``pane:<name>`` (``None``: none
        stored), as :meth:`AppContext.scroll_offset` reads it; not clamped."""
        return self._scroll.get(name)

    def scroll(
        self,
        name: str,
        rect: Rect,
        extent: int,
        offset: int | None = None,
        *,
        horizontal: bool = False,
    ) -> int:
        """Publish a scroll pane ``pane:<name>`` over ``rect``; returns its offset.

        ``extent`` is the content's full length along the axis. The offset is ``offset``
        when the application derives it itself (a terminal following its output from a
        stored ``None``), else the window's stored one (0 when none), kept within
        ``0 .. extent - view``. A pane is published only when its content overflows.
        """
        view = rect.width if horizontal else rect.height
        limit = max(0, extent - view)
        if offset is None:
            offset = self._scroll.get(name, 0)
        offset = max(0, min(offset, limit))
        if extent > view:
            self._b.scroll(
                ScrollArea(self.target(f"pane:{name}"), self.window, self._world(rect), offset, extent, horizontal)
            )
        return offset
