"""What the terminal and the text editor share (a helper module, not an application).

* **The grid.** Both panes draw the ``mono`` font at :data:`SIZE` px on a grid of
  :func:`grid` cells (``cwgym.text.cell_size``), so column ``c`` starts ``c`` cells from
  the pane's left edge and what is measured is what is drawn.
* **Wrapping.** :class:`Wrap` hard-wraps logical lines at a number of cells: East Asian
  wide characters take two cells, combining marks none, a tab runs to the next multiple of
  :data:`TAB` cells (never past the row's end). Rows are painted with
  :class:`~cwgym.scene.TextLine` provenance (``logical``, ``continuation``, ``offset``,
  ``wrapped_from``, ``pane``).
* **Scroll bars.** A pane whose rows overflow paints a bar whose thumb is a drag surface
  named ``pane:<name>:<track>:<thumb>:<max>`` (track and thumb lengths and the largest
  offset, in pixels): dragging the thumb scrolls, a press on the track jumps the thumb
  there, a click without a point (``application.v1 shell``) pages forward.
  Offsets are the window's (``AppContext.scroll_offset``), published by
  ``Painter.scroll``.
* **Fields.** One-line text fields with a caret and a selection (find, open, save as).
* **Menus.** A context menu of ``menuitem`` controls over a transparent catcher that
  closes it.

All state these helpers touch is plain data (dicts, lists, str, int, None).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from typing import Any

from cwgym.desktop.framework import InvalidInput
from cwgym.desktop.painter import Painter
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, Text, UiText
from cwgym.scene.text_lines import TextLine, cell_width
from cwgym.text import cell_size, line_height, shape

__all__ = [
    "BAR",
    "FIELD_MAX",
    "SIZE",
    "TAB",
    "Wrap",
    "bar_drag",
    "bar_geometry",
    "click_count",
    "field",
    "field_key",
    "field_select_all",
    "field_type",
    "grid",
    "paint_bar",
    "paint_field",
    "paint_menu",
    "paint_rows",
    "parse_bar",
    "rows_for_wheel",
    "selection_boxes",
    "word_at",
]

#: The most characters a one-line field holds (the file manager's location, name and
#: search fields; the editor's find, open and Save As fields): typing or pasting past it
#: raises :class:`~cwgym.desktop.framework.InvalidInput`.
FIELD_MAX = 4096

#: The pane's font size in px (``mono``).
SIZE = 14
#: Tab stops, in cells.
TAB = 8
#: Scroll bar width in px.
BAR = 10
#: Two presses on the same place within this much logical time make a double click.
MULTI_CLICK_US = 500_000

_WORD = re.compile(r"\w+")


@functools.cache
def grid() -> tuple[int, int]:
    """The (width, height) of one character cell in px."""
    return cell_size(SIZE, "mono")


# -- wrapping ------------------------------------------------------------------------------


def _plain(text: str) -> bool:
    return text.isascii() and "\t" not in text


def fragments(text: str, cols: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` character ranges of the rows ``text`` wraps into at ``cols``."""
    n = len(text)
    if _plain(text):
        if n <= cols:
            return [(0, n)]
        return [(i, min(i + cols, n)) for i in range(0, n, cols)]
    out: list[tuple[int, int]] = []
    start = col = 0
    for i, ch in enumerate(text):
        if ch == "\t":
            if col >= cols and i > start:
                out.append((start, i))
                start, col = i, 0
            w = max(1, min(TAB - col % TAB, cols - col))
        else:
            w = cell_width(ch)
            if col + w > cols and i > start:
                out.append((start, i))
                start, col = i, 0
        col += w
    out.append((start, n))
    return out


def row_count(text: str, cols: int) -> int:
    """How many rows ``text`` takes at ``cols`` cells."""
    if _plain(text):
        return max(1, -(-len(text) // cols))
    return len(fragments(text, cols))


def _advances(text: str, start: int, end: int, cols: int) -> list[int]:
    """Cells before each character of ``text[start:end]`` (and after the last one)."""
    if _plain(text):
        return list(range(end - start + 1))
    out = [0]
    col = 0
    for ch in text[start:end]:
        col += max(1, min(TAB - col % TAB, cols - col)) if ch == "\t" else cell_width(ch)
        out.append(col)
    return out


def _shown(text: str, start: int, end: int, cols: int) -> str:
    """The painted string of a row: tabs become the spaces they span."""
    piece = text[start:end]
    if "\t" not in piece:
        return piece
    out = []
    col = 0
    for ch in piece:
        if ch == "\t":
            w = max(1, min(TAB - col % TAB, cols - col))
            out.append(" " * w)
        else:
            w = cell_width(ch)
            out.append(ch)
        col += w
    return "".join(out)


class Wrap:
    """Logical lines hard-wrapped at ``cols`` cells: rows, positions and cells.

    A position is ``(line, column)``, the column a character offset in the line. Row
    ``r`` is the ``k``-th fragment of line ``locate(r)``. A position exactly at a wrap
    point belongs to the next row (as ``caret_cell`` places it).
    """

    __slots__ = ("_frags", "cols", "lines", "starts", "total")

    def __init__(self, lines: list[str], cols: int) -> None:
        self.lines = lines = lines or [""]
        self.cols = cols = max(1, cols)
        joined = "".join(lines)
        if joined.isascii() and "\t" not in joined:
            counts = [(len(t) + cols - 1) // cols or 1 for t in lines]
        else:
            counts = [row_count(t, cols) for t in lines]
        self.starts = [0, *itertools.accumulate(counts)]
        self.total = self.starts[-1]
        self._frags: dict[int, list[tuple[int, int]]] = {}

    def frags(self, line: int) -> list[tuple[int, int]]:
        hit = self._frags.get(line)
        if hit is None:
            hit = self._frags[line] = fragments(self.lines[line], self.cols)
        return hit

    def locate(self, row: int) -> tuple[int, int]:
        """``(line, k)``: the logical line of ``row`` and which of its fragments it is."""
        row = max(0, min(row, self.total - 1))
        line = bisect.bisect_right(self.starts, row, 0, len(self.lines)) - 1
        return line, row - self.starts[line]

    def row_of(self, line: int, col: int) -> tuple[int, int]:
        """``(row, cell)`` of the position ``(line, col)``."""
        text = self.lines[line]
        frags = self.frags(line)
        k = len(frags) - 1
        for i, (s, e) in enumerate(frags):
            if s <= col < e:
                k = i
                break
        s, e = frags[k]
        col = max(s, min(col, e))
        return self.starts[line] + k, _advances(text, s, e, self.cols)[col - s]

    def pos_at(self, row: int, x: int, cell: int) -> tuple[int, int]:
        """The position nearest to ``x`` px into row ``row`` (``cell`` px per cell)."""
        line, k = self.locate(row)
        text = self.lines[line]
        s, e = self.frags(line)[k]
        adv = _advances(text, s, e, self.cols)
        for i in range(e - s):
            if x * 2 < (adv[i] + adv[i + 1]) * cell:
                return line, s + i
        return line, e

    def row_text(self, row: int) -> tuple[int, int, int, int, str]:
        """``(line, k, start, end, painted)`` of one row."""
        line, k = self.locate(row)
        s, e = self.frags(line)[k]
        return line, k, s, e, _shown(self.lines[line], s, e, self.cols)

    def cells(self, line: int, s: int, e: int) -> list[int]:
        return _advances(self.lines[line], s, e, self.cols)


def word_at(text: str, offset: int) -> tuple[int, int]:
    """The ``[start, end)`` of the word (or run of other characters) around ``offset``."""
    n = len(text)
    if n == 0:
        return 0, 0
    i = min(offset, n - 1)
    if offset == n or text[i] == "\n":
        i = max(0, offset - 1)
    kind = _kind(text[i])
    if kind == "nl":
        return offset, offset
    s = i
    while s > 0 and _kind(text[s - 1]) == kind:
        s -= 1
    e = i + 1
    while e < n and _kind(text[e]) == kind:
        e += 1
    return s, e


def _kind(ch: str) -> str:
    if ch == "\n":
        return "nl"
    if ch.isalnum() or ch == "_":
        return "word"
    if ch.isspace():
        return "space"
    return "punct"


def click_count(state: dict, place: Any, now_us: int, clicks: int = 1) -> int:
    """Count presses on one place: 1, 2 (a double click), 3 (a triple click), then 1 again.

    A press counts with the previous one when it lands on the same place, no other input
    came between (``state["clicks"]`` is cleared by keys) and logical time moved less than
    :data:`MULTI_CLICK_US`. ``clicks`` is how many clicks the desktop says this press is
    (2 for a ``pointer.v1 double_click``), so a click then a double click make three.
    """
    last = state.get("clicks")
    clicks = max(1, clicks)
    n = min(3, clicks)
    if last is not None and last["at"] == place and now_us - last["us"] <= MULTI_CLICK_US:
        n = (last["n"] + clicks - 1) % 3 + 1
    state["clicks"] = {"at": place, "n": n, "us": now_us}
    return n


# -- painting rows -------------------------------------------------------------------------


def paint_rows(
    p: Painter,
    wrap: Wrap,
    first: int,
    count: int,
    x: int,
    y: int,
    *,
    color: Any,
    target: str,
    pane: str | None,
    key: str,
    logical_base: int = 0,
    line_limit: int | None = None,
) -> None:
    """Paint rows ``first .. first+count`` of ``wrap`` at ``(x, y)`` with provenance.

    Rows of lines at or past ``line_limit`` are painted with ``pane=None`` and logical
    indices counted from ``line_limit`` (the terminal's input line, which is not part of
    the published scrollback).
    """
    ch = grid()[1]
    # a row painted before is reused as it was (typing repaints the rows it changed); a
    # painter-like object without pieces (a panel inside a window) paints every row
    reuse = getattr(p, "reuse", None)
    for i, row in enumerate(range(first, min(first + count, wrap.total))):
        line, k, s, e, shown = wrap.row_text(row)
        own_pane, logical = pane, line + logical_base
        if line_limit is not None and line >= line_limit:
            own_pane, logical = None, line - line_limit
        args = (
            key,
            line,
            k,
            s,
            shown,
            wrap.cells(line, s, e)[-1],
            logical,
            own_pane,
            x,
            y + i * ch,
            color,
            target,
        )
        if reuse is None:
            _paint_row(p, *args)
        else:
            reuse(("tp-row", *args), _paint_row, *args)


def _paint_row(
    p: Painter,
    key: str,
    line: int,
    k: int,
    s: int,
    shown: str,
    cells: int,
    logical: int,
    pane: str | None,
    x: int,
    y: int,
    color: Any,
    target: str,
) -> None:
    """One row of :func:`paint_rows`: fragment ``k`` of ``line``, starting at character ``s``."""
    cw, ch = grid()
    head = p.node_id((key, line, 0)) if k else None
    p.paint(
        Text(shown, SIZE, color, "mono"),
        Rect(x, y, cells * cw, ch),
        key=(key, line, s),
        target=target,
        line=TextLine(logical, k > 0, s, head, pane),
    )


def selection_boxes(
    wrap: Wrap, first: int, count: int, start: tuple[int, int], end: tuple[int, int]
) -> list[tuple[int, int, int]]:
    """``(visible row index, first cell, cells)`` of the selection ``start..end`` (positions).

    A selected line break shows as one more cell at the end of its line's last row.
    """
    l0, c0 = start
    l1, c1 = end
    out = []
    for i, row in enumerate(range(first, min(first + count, wrap.total))):
        line, k, s, e, _ = wrap.row_text(row)
        if line < l0:
            continue
        if line > l1:
            break
        a = c0 if line == l0 else 0
        b = c1 if line == l1 else len(wrap.lines[line])
        a2, b2 = max(a, s), min(b, e)
        newline = k == len(wrap.frags(line)) - 1 and line < l1 and a <= e
        if a2 > b2 or (a2 == b2 and not newline):
            continue
        adv = wrap.cells(line, s, e)
        x0 = adv[a2 - s]
        x1 = adv[b2 - s] + (1 if newline else 0)
        out.append((i, x0, x1 - x0))
    return out


# -- scroll bars ---------------------------------------------------------------------------


def bar_geometry(track: int, rows: int, total: int, top: int, ch: int) -> tuple[int, int, int]:
    """``(thumb offset, thumb length, largest offset px)`` for a bar of ``track`` px."""
    extent, view = total * ch, rows * ch
    limit = max(0, extent - view)
    thumb = max(min(track, 24), min(track, track * view // max(1, extent)))
    pos = (track - thumb) * (top * ch) // limit if limit else 0
    return pos, thumb, limit


def parse_bar(target: str, name: str) -> tuple[int, int, int] | None:
    """``(track, thumb, max)`` from a scroll bar target ``pane:<name>:<t>:<th>:<m>``."""
    parts = target.split(":")
    if (
        len(parts) != 5
        or parts[0] != "pane"
        or parts[1] != name
        or not all(s.isdigit() for s in parts[2:])
    ):
        return None
    return int(parts[2]), int(parts[3]), int(parts[4])


def paint_bar(
    p: Painter, name: str, track: Rect, rows: int, total: int, top: int, *, dark: bool = False
) -> None:
    """The scroll bar of a pane at ``track`` (only when its rows overflow)."""
    if total <= rows or track.height <= 0:
        return
    _cw, ch = grid()
    pos, thumb, limit = bar_geometry(track.height, rows, total, top, ch)
    target = f"pane:{name}:{track.height}:{thumb}:{limit}"
    trough = (255, 255, 255, 30) if dark else (0, 0, 0, 18)
    knob = (255, 255, 255, 120) if dark else (0, 0, 0, 110)
    p.paint(
        Box(trough),
        track,
        key=("bar", name),
        target=target,
        semantic=Semantic("scrollbar", "Scroll", str(top * ch), False, False),
    )
    p.paint(
        RoundedBox(knob, 3),
        Rect(track.x + 2, track.y + pos, track.width - 4, thumb),
        key=("thumb", name),
        target=target,
    )


def bar_drag(
    state: dict, target: str, name: str, phase: str, y: int, track_y: int, current_px: int
) -> int | None:
    """Follow a drag on a scroll bar; returns the new offset in px (``None``: no change).

    A press on the thumb grabs it where pressed; a press on the track jumps the thumb's
    middle there. ``state["drag"]`` keeps the grab between phases, and ``cancel`` puts
    the offset back where the press found it.
    """
    geom = parse_bar(target, name)
    drag = state.get("drag") if isinstance(state.get("drag"), dict) else None
    if geom is None:
        state["drag"] = None
        return None
    if phase == "cancel":
        state["drag"] = None
        return drag.get("from") if drag is not None and drag.get("kind") == "bar" else None
    track, thumb, limit = geom
    rel = y - track_y
    if phase == "down":
        pos = (track - thumb) * current_px // limit if limit else 0
        if pos <= rel < pos + thumb:
            state["drag"] = {"kind": "bar", "grab": rel - pos, "from": current_px}
            return None
        state["drag"] = {"kind": "bar", "grab": thumb // 2, "from": current_px}
        return _bar_offset(rel - thumb // 2, track, thumb, limit)
    grab = drag["grab"] if drag is not None and drag.get("kind") == "bar" else thumb // 2
    offset = _bar_offset(rel - grab, track, thumb, limit)
    if phase == "up":
        state["drag"] = None
    return offset


def _bar_offset(thumb_pos: int, track: int, thumb: int, limit: int) -> int:
    span = track - thumb
    if span <= 0 or limit <= 0:
        return 0
    thumb_pos = max(0, min(span, thumb_pos))
    return thumb_pos * limit // span


def rows_for_wheel(dy: int) -> int:
    """Whole rows a wheel delta of ``dy`` px moves (at least one)."""
    _cw, ch = grid()
    if dy == 0:
        return 0
    n = max(1, abs(dy) // ch)
    return n if dy > 0 else -n


# -- one-line fields -----------------------------------------------------------------------


def field(text: str = "", *, select: bool = False) -> dict:
    """A field's state: text, caret and selection anchor (``None``: no selection)."""
    return {"text": text, "caret": len(text), "anchor": 0 if select and text else None}


def field_select_all(f: dict) -> None:
    f["anchor"] = 0 if f["text"] else None
    f["caret"] = len(f["text"])


def _field_span(f: dict) -> tuple[int, int]:
    a = f["anchor"]
    c = f["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def field_type(f: dict, text: str) -> None:
    """Insert ``text`` (line breaks become spaces) over the selection; past
    :data:`FIELD_MAX` characters it raises :class:`InvalidInput` and changes nothing."""
    text = "".join(
        ch if ch.isprintable() else " " for ch in text.replace("\r\n", " ").replace("\n", " ")
    )
    s, e = _field_span(f)
    if len(f["text"]) - (e - s) + len(text) > FIELD_MAX:
        raise InvalidInput(f"a field holds at most {FIELD_MAX} characters")
    f["text"] = f["text"][:s] + text + f["text"][e:]
    f["caret"] = s + len(text)
    f["anchor"] = None


def field_key(ctx: Any, f: dict, chord: Any) -> bool:
    """Editing keys of a one-line field; ``False`` for a key it does not take.

    Select all, copy, cut and paste are the theme's (``Primary+a/c/x/v``); word moves and
    deletes (``Ctrl+ArrowLeft``, ``Ctrl+Backspace``) are the same everywhere."""
    name = chord.name
    text, c = f["text"], f["caret"]
    s, e = _field_span(f)
    if name in ("Backspace", "Delete", "Ctrl+Backspace", "Ctrl+Delete"):
        if s != e:
            f["text"], f["caret"] = text[:s] + text[e:], s
        elif name == "Backspace" and c > 0:
            f["text"], f["caret"] = text[: c - 1] + text[c:], c - 1
        elif name == "Delete":
            f["text"] = text[:c] + text[c + 1 :]
        elif name == "Ctrl+Backspace":
            start = word_left(text, c)
            f["text"], f["caret"] = text[:start] + text[c:], start
        elif name == "Ctrl+Delete":
            f["text"] = text[:c] + text[word_right(text, c) :]
        f["anchor"] = None
        return True
    moves = {
        "ArrowLeft": (s if s != e else max(0, c - 1)),
        "ArrowRight": (e if s != e else min(len(text), c + 1)),
        "Home": 0,
        "End": len(text),
        "Ctrl+ArrowLeft": word_left(text, c),
        "Ctrl+ArrowRight": word_right(text, c),
    }
    base = name.replace("Shift+", "")
    if base in moves:
        if chord.shift:
            if f["anchor"] is None:
                f["anchor"] = c
            f["caret"] = {"ArrowLeft": max(0, c - 1), "ArrowRight": min(len(text), c + 1)}.get(
                base, moves[base]
            )
        else:
            f["caret"] = moves[base]
            f["anchor"] = None
        return True
    if name == ctx.shortcut("Primary+a"):
        field_select_all(f)
        return True
    cut = ctx.shortcut("Primary+x")
    if name in (ctx.shortcut("Primary+c"), cut, "Ctrl+Insert", "Shift+Delete"):
        if s != e:
            ctx.clipboard = text[s:e]
            if name in (cut, "Shift+Delete"):
                f["text"], f["caret"], f["anchor"] = text[:s] + text[e:], s, None
        return True
    if name in (ctx.shortcut("Primary+v"), "Shift+Insert"):
        field_type(f, ctx.clipboard)
        return True
    if chord.char is not None:
        field_type(f, chord.char)
        return True
    return False


def word_left(text: str, c: int) -> int:
    i = c
    while i > 0 and not (text[i - 1].isalnum() or text[i - 1] == "_"):
        i -= 1
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
        i -= 1
    return i


def word_right(text: str, c: int) -> int:
    n = len(text)
    i = c
    while i < n and not (text[i].isalnum() or text[i] == "_"):
        i += 1
    while i < n and (text[i].isalnum() or text[i] == "_"):
        i += 1
    return i


def field_inner(rect: Rect) -> Rect:
    return Rect(rect.x + 8, rect.y + 2, max(0, rect.width - 16), max(0, rect.height - 4))


def field_index(f: dict, rect: Rect, x: int) -> int:
    """The caret index a click at ``x`` (content px) puts in a field painted at ``rect``."""
    if not f["text"]:
        return 0
    return shape(f["text"], "sans", 14).index_at(x - field_inner(rect).x)


def paint_field(
    p: Painter, name: str, f: dict, rect: Rect, *, label: str, focused: bool, placeholder: str = ""
) -> None:
    """A one-line text field (target ``name``) with its selection; focused, it takes the keys."""
    pal = p.palette
    value = f["text"]
    p.paint(
        RoundedBox(
            pal["field"], 6, pal["accent"] if focused else pal["border"], 2 if focused else 1
        ),
        rect,
        key=("field", name),
        target=name,
        semantic=Semantic("textbox", label, value, False, True),
        state=NodeState(focused=True) if focused else None,
    )
    size = 14
    h = line_height("sans", size)
    ty = rect.y + (rect.height - h) // 2
    inner = field_inner(rect)
    run = shape(value, "sans", size) if value else None
    s, e = _field_span(f)
    if run is not None and s != e and focused:
        x0, x1 = run.caret_x(s), run.caret_x(e)
        p.paint(
            Box(pal["selection"]),
            Rect(inner.x + x0, ty, x1 - x0, h),
            key=("field-sel", name),
            target=name,
            clip=inner,
        )
    if value:
        p.paint(
            UiText(value, size, pal["text"]),
            Rect(inner.x, ty, run.width, h),
            key=("field-text", name),
            target=name,
            clip=inner,
        )
    elif placeholder:
        p.paint(
            UiText(placeholder, size, pal["muted"]),
            Rect(inner.x, ty, shape(placeholder, "sans", size).width, h),
            key=("field-placeholder", name),
            target=name,
            clip=inner,
        )
    if focused:
        c = max(0, min(f["caret"], len(value)))
        cx = inner.x + (run.caret_x(c) if run is not None else 0)
        caret = Rect(min(cx, inner.x + inner.width), ty, 1, h)
        p.paint(Box(pal["text"]), caret, key=("field-caret", name), target=name, clip=inner)
        p.focus(
            name,
            role="textbox",
            label=label,
            value=value,
            caret=caret,
            column=c,
            offset=c,
            text_entry=True,
        )


# -- menus ---------------------------------------------------------------------------------

MENU_ROW = 30
MENU_WIDTH = 190


def menu_rect(at: list[int], count: int, width: int, height: int) -> Rect:
    """Where a menu of ``count`` items opened at ``at`` is painted (kept inside the content)."""
    h = count * MENU_ROW + 12
    x = max(0, min(at[0], width - MENU_WIDTH))
    y = max(0, min(at[1], height - h))
    return Rect(x, y, MENU_WIDTH, h)


def paint_menu(p: Painter, at: list[int], items: list[tuple[str, str, bool]]) -> None:
    """A context menu at ``at``: ``items`` are ``(target, label, enabled)``.

    Under it a transparent ``menu-dismiss`` catcher covers the content: a click anywhere
    else closes the menu and does nothing more, as a popover does.
    """
    pal = p.palette
    p.paint(
        Box((0, 0, 0, 0)), Rect(0, 0, p.width, p.height), key="menu-dismiss", target="menu-dismiss"
    )
    r = menu_rect(at, len(items), p.width, p.height)
    p.paint(
        RoundedBox(pal["field"], 8, pal["border"], 1),
        r,
        key="menu-bg",
        semantic=Semantic("menu", "Context menu"),
    )
    h = line_height("sans", 14)
    for i, (target, label, enabled) in enumerate(items):
        row = Rect(r.x + 6, r.y + 6 + i * MENU_ROW, r.width - 12, MENU_ROW)
        p.paint(
            RoundedBox(pal["field"], 4),
            row,
            key=("menu-item", target),
            target=target,
            semantic=Semantic("menuitem", label, None, not enabled, True),
        )
        p.paint(
            UiText(label, 14, pal["text"] if enabled else pal["muted"]),
            Rect(row.x + 10, row.y + (MENU_ROW - h) // 2, shape(label, "sans", 14).width, h),
            key=("menu-label", target),
            target=target,
        )
