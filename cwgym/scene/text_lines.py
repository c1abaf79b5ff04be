"""Painted text lines and where they came from: hard wrapping at the character cell.

Terminal and editor panes wrap a long logical line over several visual lines at a fixed
number of character cells. Joining the painted lines with newlines would corrupt the text
("initial commi" + "t"), so every painted fragment carries a :class:`TextLine` saying
which logical line it belongs to, where in it it starts, and whether it continues the
previous visual line.

Cell widths follow terminals: East Asian wide and fullwidth characters take two cells,
combining marks and format characters none, everything else one. (Tabs are expected to be
expanded by the pane before wrapping.)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence

import msgspec

__all__ = [
    "TextLine",
    "VisualLine",
    "caret_cell",
    "cell_width",
    "join_lines",
    "reflow",
    "text_cells",
    "wrap_text_lines",
]


class TextLine(msgspec.Struct, frozen=True):
    """Provenance of one painted line of a text pane.

    Attributes:
        logical: index of the logical line in the pane's buffer (``TextBuffer.lines``).
        continuation: this visual line continues the previous one: join with no separator.
        offset: character (code point) offset of the fragment within the logical line.
        wrapped_from: node id of the logical line's first fragment, on continuation lines.
        pane: handle of the pane's buffer in ``Scene.buffers``.
    """

    logical: int
    continuation: bool = False
    offset: int = 0
    wrapped_from: int | None = None
    pane: str | None = None


class VisualLine(msgspec.Struct, frozen=True):
    """One visual (painted) line: its text and its provenance."""

    text: str
    line: TextLine


def cell_width(ch: str) -> int:
    """How many terminal cells the character ``ch`` occupies (0, 1 or 2)."""
    if ch < "\u0300":  # fast path: ASCII and Latin-1, no combining marks below U+0300
        return 1
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


def text_cells(text: str) -> int:
    """Total cell width of ``text``."""
    if text.isascii():
        return len(text)
    return sum(cell_width(ch) for ch in text)


def _split(text: str, cols: int) -> list[tuple[int, str]]:
    """Hard-wrap one logical line into ``(offset, fragment)`` pieces of at most ``cols`` cells."""
    if text.isascii():
        if len(text) <= cols:
            return [(0, text)]
        return [(i, text[i : i + cols]) for i in range(0, len(text), cols)]
    out: list[tuple[int, str]] = []
    start = 0
    used = 0
    for i, ch in enumerate(text):
        w = cell_width(ch)
        if used + w > cols and i > start:
            out.append((start, text[start:i]))
            start, used = i, 0
        used += w
    out.append((start, text[start:]))
    return out


def wrap_text_lines(
    logical_lines: Sequence[str],
    cols: int,
    *,
    pane: str | None = None,
    first_logical: int = 0,
    node_id: Callable[[int, int], int] | None = None,
) -> list[VisualLine]:
    """Hard-wrap logical lines at ``cols`` character cells, with provenance.

    Args:
        logical_lines: the pane's lines, unwrapped.
        cols: the pane's width in character cells (at least 1).
        pane: the buffer handle to record in each ``TextLine``.
        first_logical: the buffer index of ``logical_lines[0]`` (when wrapping a window
            of a longer buffer).
        node_id: ``node_id(logical, offset)`` gives the node id the painter will use for
            the fragment starting at ``offset``; when given, continuation lines record
            ``wrapped_from = node_id(logical, 0)``.

    Returns:
        One ``VisualLine`` per painted line, in order. An empty logical line gives one
        empty visual line; a character wider than the remaining cells moves to the next
        visual line.
    """
    if cols < 1:
        raise ValueError(f"cols must be at least 1, got {cols}")
    out: list[VisualLine] = []
    for i, text in enumerate(logical_lines):
        logical = first_logical + i
        head: int | None = None
        for offset, fragment in _split(text, cols):
            if offset == 0:
                out.append(VisualLine(fragment, TextLine(logical, False, 0, None, pane)))
                if node_id is not None:
                    head = node_id(logical, 0)
            else:
                out.append(VisualLine(fragment, TextLine(logical, True, offset, head, pane)))
    return out


def reflow(logical_lines: Sequence[str], cols: int, *, pane: str | None = None) -> list[VisualLine]:
    """Wrap logical lines at ``cols`` cells; the same as :func:`wrap_text_lines`."""
    return wrap_text_lines(logical_lines, cols, pane=pane)


def join_lines(painted: Iterable[tuple[str, TextLine | None]]) -> list[str]:
    """Rebuild logical lines from painted ``(text, provenance)`` pairs in visual order.

    A continuation is appended to the previous line with no separator; any other line
    (including one without provenance) starts a new line.
    """
    out: list[str] = []
    for text, line in painted:
        if line is not None and line.continuation and out:
            out[-1] += text
        else:
            out.append(text)
    return out


def caret_cell(
    visual: Sequence[VisualLine], logical_text: str, logical: int, column: int
) -> tuple[int, int] | None:
    """Where a caret at character ``column`` of logical line ``logical`` is painted.

    Args:
        visual: the pane's visual lines, as :func:`wrap_text_lines` made them.
        logical_text: the text of that logical line.
        logical: the logical line index.
        column: the caret's character offset within the logical line.

    Returns:
        ``(row, cell)``: the index into ``visual`` and the cell column, or ``None`` when
        the logical line is not among ``visual``. A caret exactly at a wrap point sits at
        the start of the next visual line; past the end of a full last row it sits one
        cell past that row's end.
    """
    found: int | None = None
    for row, vl in enumerate(visual):
        ln = vl.line
        if ln.logical != logical:
            if found is not None:
                break
            continue
        found = row
        if ln.offset <= column < ln.offset + len(vl.text):
            return row, text_cells(logical_text[ln.offset : column])
    if found is None:
        return None
    last = visual[found].line
    return found, text_cells(logical_text[last.offset : column])
