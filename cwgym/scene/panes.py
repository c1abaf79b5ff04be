"""Text pane buffers and scrollable areas published alongside the nodes."""

from __future__ import annotations

import msgspec

from cwgym.scene.geometry import Rect

__all__ = ["MAX_BUFFER_CHARS", "MAX_BUFFER_LINES", "ScrollArea", "TextBuffer"]

#: A pane publishes at most this many lines / characters; older lines are dropped first.
MAX_BUFFER_LINES = 10_000
MAX_BUFFER_CHARS = 1_000_000


class TextBuffer(msgspec.Struct):
    """A text pane's whole buffer (not only what is visible).

    Attributes:
        handle: the pane handle ``TextLine.pane`` refers to (``window:0:terminal``).
        window: owning window id.
        kind: ``"terminal"`` or ``"editor"``.
        lines: every logical line, unwrapped; ``TextLine.logical`` indexes this.
        first_visible: index of the first logical line on screen.
        visible: how many logical lines are on screen.
        truncated: older lines were dropped to respect the limits.
    """

    handle: str
    window: int | None
    kind: str
    lines: list[str]
    first_visible: int = 0
    visible: int = 0
    truncated: bool = False

    @staticmethod
    def bounded(
        handle: str,
        window: int | None,
        kind: str,
        lines: list[str],
        first_visible: int = 0,
        visible: int = 0,
        *,
        max_lines: int = MAX_BUFFER_LINES,
        max_chars: int = MAX_BUFFER_CHARS,
    ) -> TextBuffer:
        """A buffer keeping the newest lines within ``max_lines`` and ``max_chars``.

        ``first_visible`` is shifted by the number of dropped lines (never below 0).
        """
        drop = max(0, len(lines) - max_lines)
        total = sum(len(s) for s in lines[drop:])
        while total > max_chars and drop < len(lines):
            total -= len(lines[drop])
            drop += 1
        kept = lines[drop:] if drop else list(lines)
        return TextBuffer(
            handle, window, kind, kept, max(0, first_visible - drop), visible, drop > 0
        )


class ScrollArea(msgspec.Struct, frozen=True):
    """A pane whose content is larger than its view.

    Attributes:
        target: the pane's interaction-style id (``window:3:content:pane:text``).
        window: owning window id.
        bounds: the view (screen space).
        offset: how far the content is scrolled, in pixels.
        extent: the content's full length along the scroll axis, in pixels.
        horizontal: True for a sideways scroller.
        title_height: on iOS, the offset at which the large title collapses.
    """

    target: str
    window: int | None
    bounds: Rect
    offset: int
    extent: int
    horizontal: bool = False
    title_height: int | None = None
