"""Page layout: a :class:`~cwgym.protocol.page.Page` laid out into positioned scene pieces.

:func:`layout_page` turns a page and a width into a :class:`PageLayout`: the page's static
pieces (text lines, link underlines, images, list markers, table cells, field labels) in
document coordinates, sorted by ``y``, and its :class:`Control` boxes in document (= Tab)
order. It is a pure function of the page and the width, memoised in a bounded LRU, so a
browser lays a page out once and reuses it for every frame, every click and every Tab.

What changes as the user acts — a field's text, a caret, a checkbox's tick, a select's
choice, a focus ring — is not in the cached pieces: :func:`control_pieces` draws one control
from its current value. A painter paints the static pieces, then ``control_pieces`` of each
control. The control's semantic (role, label, value, state) rides on the first piece
``control_pieces`` returns and on no static piece, so every control has exactly one node
carrying its meaning; static pieces carry the semantics of headings, text and images.

The look is Firefox's default stylesheet on a white page (margins, sizes and gaps are the
constants below). Text is measured and wrapped with :mod:`cwgym.text`, the shaping the
renderer draws with, so a wrap decided here is the wrap drawn. A table wider than the
page even at its columns' minimum widths keeps that width and scrolls on its own
(:class:`HScroll`); every piece and control in it names the table in ``hscroll``.

Native widgets: a disclosure (:class:`~cwgym.protocol.page.Details`) is its summary line
(a ``details`` control) and, when open, its children below; a slider (``slider``) is a
track with a thumb; a ``number`` field has ▲/▼ spinner pieces at its right end (their
``element`` is ``<id>:up`` / ``<id>:down``). A dialog takes no room in the page: it is laid
out on its own (:class:`DialogBox`, in the box's coordinates) for the browser to show over
the page. A reorderable list (``sortlist``) is a framed column of rows (each row's pieces
name ``<id>:<row>``); a ``date`` field has a calendar button at its right end
(``<id>:calendar``); a ``color`` field is a button (``color``) showing its colour swatch.

Popups drawn over the page while they are open — a field's suggestions
(:func:`suggestion_pieces`), a date field's month (:func:`calendar_pieces`) and a colour
field's palette (:func:`palette_pieces`) — are pieces in document coordinates under their
control whose ``element`` is the browser target each answers to (``sug:<id>:<i>``,
``cal:<id>:prev`` / ``next``, ``day:<id>:<YYYY-MM-DD>``, ``swatch:<id>:<i>``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

import msgspec

from cwgym.kernel.calendar import days_from_civil, days_in_month, weekday
from cwgym.protocol.page import (
    PALETTE,
    Button,
    Checkbox,
    Details,
    Dialog,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Page,
    Radio,
    Range,
    Select,
    SortList,
    Table,
    TextArea,
    assign_ids,
    color_value,
    page_json,
    range_value,
    step_bounds,
)
from cwgym.protocol.page import Image as PageImage
from cwgym.protocol.page import Text as PageText
from cwgym.scene import Box, NodeState, Path, Primitive, Rect, Region, RoundedBox, Semantic
from cwgym.scene import Text as Run
from cwgym.text import ShapedRun, shape, wrap
from cwgym.text import ascent as _text_ascent
from cwgym.text import ellipsize as _text_ellipsize
from cwgym.text import line_height as _text_line_height
from cwgym.text import measure as _text_measure

__all__ = [
    "HSCROLL_BAR",
    "MAX_HEIGHT",
    "MAX_PIECES",
    "MIN_WIDTH",
    "Control",
    "DialogBox",
    "HScroll",
    "LayoutError",
    "PageLayout",
    "Piece",
    "calendar_pieces",
    "caret_index",
    "control_pieces",
    "layout_page",
    "palette_pieces",
    "slider_value_at",
    "sort_row_at",
    "suggestion_pieces",
]

# -- the stylesheet ---------------------------------------------------------------------------

MIN_WIDTH = 120  #: a narrower page is laid out at this width
MARGIN = 16  #: page margin, left, right, top and bottom
MAX_HEIGHT = 200_000  #: a taller layout raises LayoutError
MAX_PIECES = 20_000  #: a layout with more pieces raises LayoutError
BODY = 14  #: body text size
HEADING_SIZES = (28, 22, 18, 16, 16, 16)  #: h1..h6, bold
LIST_INDENT = 24
LIST_MIN_CONTENT = 48  #: deep nesting stops indenting when the items would get narrower
ITEM_GAP = 4  #: between list items
MARKER_GAP = 6  #: between a list marker and its item
CELL_PAD = 6
LABEL_GAP = 4  #: between a field's label and the field
FIELD_W, FIELD_H, FIELD_PAD = 280, 30, 7
FIELD_MIN = 80  #: the narrowest a field gets in a table column
AREA_W, AREA_PAD = 400, 5
SELECT_W, SELECT_ARROW = 200, "▾"
BOX = 16  #: checkbox and radio size
BOX_GAP = 6  #: between a checkbox or radio and its label
BUTTON_PAD, BUTTON_H = 12, 30
IMAGE_W, IMAGE_H, IMAGE_PAD = 120, 80, 4
HSCROLL_BAR = 10  #: strip at the bottom of a wide table's viewport for its scroll bar
DISCLOSURE = ("▸", "▾")  #: a disclosure's marker, closed and open
SLIDER_W, SLIDER_H, THUMB = 160, 20, 14  #: a slider's track box and its thumb
SPIN_W = 18  #: a number field's spinner buttons, at its right end
DIALOG_W, DIALOG_PAD, DIALOG_TITLE = 400, 16, 16  #: a dialog's width, padding and title size
SORT_W, SORT_ROW, SORT_GRIP = 280, 28, "≡"  #: a reorderable list's width, row height and drag grip
CAL_W = 24  #: a date field's calendar button, at its right end
COLOR_W, SWATCH = 120, 16  #: a colour field's width and the swatch in it
POPUP_ROW = 28  #: a suggestion's row
DAY, CAL_PAD = 32, 8  #: a calendar's day cell and padding
CHIP, CHIP_GAP = 28, 6  #: a palette's swatch and the gap between
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December")
WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
LAYOUTS_KEPT = 64  #: layouts the LRU keeps

#: (space above, space below) each kind of block asks for; adjacent spaces collapse to the larger.
MARGINS: dict[type, tuple[int, int]] = {
    Heading: (16, 8), PageText: (10, 10), Link: (4, 4), PageImage: (10, 10), ListBlock: (10, 10),
    Table: (10, 10), Form: (10, 10), Input: (8, 8), TextArea: (8, 8), Select: (8, 8),
    Checkbox: (6, 6), Radio: (6, 6), Button: (8, 8), Range: (8, 8), Details: (8, 8), SortList: (8, 8),
}

TEXT = (0, 0, 0, 255)
LINK = (0, 0, 238, 255)
MUTED = (117, 117, 117, 255)
BORDER = (160, 160, 160, 255)
HEADER_FILL = (240, 240, 240, 255)
CLEAR = (0, 0, 0, 0)
IMAGE_FILL, IMAGE_EDGE, IMAGE_TEXT = (230, 230, 230, 255), (200, 200, 200, 255), (90, 90, 90, 255)
FIELD_BG, FIELD_EDGE = (255, 255, 255, 255), (143, 143, 157, 255)
BUTTON_BG = (233, 233, 237, 255)
FOCUS = (0, 96, 223, 255)
BULLETS = ("•", "◦", "▪")
_NO_OFFSETS: Mapping[str, int] = MappingProxyType({})

#: :mod:`cwgym.text`'s metrics and widths, asked for again and again by every page (a
#: checkbox asks the body font's line height three times): the same answers, memoised by
#: their arguments (bounded; ``typed`` so ``True`` is not taken for size 1).
ascent = lru_cache(maxsize=256, typed=True)(_text_ascent)
line_height = lru_cache(maxsize=256, typed=True)(_text_line_height)
measure = lru_cache(maxsize=4096, typed=True)(_text_measure)
ellipsize = lru_cache(maxsize=4096, typed=True)(_text_ellipsize)


class LayoutError(ValueError):
    """A page too big to lay out (taller than :data:`MAX_HEIGHT` or more than
    :data:`MAX_PIECES` pieces); the message names the element where layout stopped."""


# -- what a layout is ---------------------------------------------------------------------------


class Piece(msgspec.Struct, frozen=True):
    """One primitive at ``rect`` (document coordinates: x from the page's left edge, y from
    its top). ``element`` is the page element it belongs to (None: decoration); ``hscroll``
    the wide table it scrolls with."""

    primitive: Primitive
    rect: Rect
    element: str | None
    semantic: Semantic | None
    state: NodeState | None = None
    hscroll: str | None = None


class Control(msgspec.Struct, frozen=True):
    """An interactive element: ``kind`` is link, button, textbox, password, textarea, select,
    checkbox or radio; ``rect`` the box a click lands in; ``inner`` where its value's text goes
    (text fields and selects; ``rect`` otherwise); ``form`` the form it belongs to."""

    id: str
    kind: str
    rect: Rect
    inner: Rect
    form: str | None
    label: str
    hscroll: str | None = None


class HScroll(msgspec.Struct, frozen=True):
    """A table wider than its place: ``rect`` is its viewport (the table's rows and, at the
    bottom, a :data:`HSCROLL_BAR` strip for the bar), ``extent`` the table's full width."""

    id: str
    rect: Rect
    extent: int


class PageLayout(msgspec.Struct, frozen=True, dict=True):
    """A laid-out page: ``height`` is the document's extent, ``pieces`` its static content
    sorted by ``rect.y`` (stable: paint them in this order), ``controls`` its interactive
    elements in document order (the Tab order)."""

    width: int
    height: int
    pieces: tuple[Piece, ...]
    controls: tuple[Control, ...]
    hscrolls: tuple[HScroll, ...] = ()
    dialog: DialogBox | None = None

    def control(self, element_id: str) -> Control | None:
        """The control of ``element_id``, or None."""
        return self._index().controls.get(element_id)

    def visible(self, top: int, bottom: int) -> list[tuple[int, Piece]]:
        """``(index, piece)`` of every piece meeting the band ``top <= y < bottom``, in paint
        order: a binary search, then the band's pieces (and those beside a tall one)."""
        pieces = self.pieces
        return [(i, pieces[i]) for i in self._index().pieces.meeting(top, bottom)]

    def hit(self, x: int, y: int, hoffsets: Mapping[str, int] = _NO_OFFSETS) -> str | None:
        """The element under the document point ``(x, y)``: a control's box first, then the
        topmost piece that belongs to an element; None in margins and on decoration.
        ``hoffsets`` are the wide tables' horizontal scroll offsets by id."""
        index = self._index()
        for i in reversed(index.by_y.meeting(y, y + 1)):
            c = self.controls[i]
            if self._inside(index, c.rect, c.hscroll, x, y, hoffsets):
                return c.id
        for i in reversed(index.pieces.meeting(y, y + 1)):
            p = self.pieces[i]
            if p.element is not None and self._inside(index, p.rect, p.hscroll, x, y, hoffsets):
                return p.element
        return None

    @staticmethod
    def _inside(index: _Index, rect: Rect, hscroll: str | None, x: int, y: int, hoffsets: Mapping[str, int]) -> bool:
        if hscroll is None:
            return rect.contains(x, y)
        view = index.hscrolls.get(hscroll)
        if view is not None and not view.rect.contains(x, y):
            return False
        return rect.contains(x + hoffsets.get(hscroll, 0), y)

    def _index(self) -> _Index:
        found = self.__dict__.get("_idx")
        if found is None:
            found = self.__dict__["_idx"] = _Index(
                _Band([p.rect for p in self.pieces]), _Band([c.rect for c in self.controls]),
                {c.id: c for c in self.controls}, {h.id: h for h in self.hscrolls})
        return found


class DialogBox(msgspec.Struct, frozen=True):
    """A page's modal dialog: its element ``id``, ``title``, and its content laid out in
    the box's own coordinates (``layout.width`` x ``layout.height`` is the box)."""

    id: str
    title: str
    layout: PageLayout


class _Band:
    """Rectangles indexed for "which meet this horizontal band": their order by top, the
    tops, and the running maximum of bottoms (so a tall rectangle above is not missed)."""

    __slots__ = ("bottoms", "order", "reach", "tops")

    def __init__(self, rects: Sequence[Rect]) -> None:
        self.order = sorted(range(len(rects)), key=lambda i: rects[i].y)
        self.tops = [rects[i].y for i in self.order]
        self.bottoms = [rects[i].bottom for i in self.order]
        reach, most = [], -(1 << 62)
        for b in self.bottoms:
            most = b if b > most else most
            reach.append(most)
        self.reach = reach

    def meeting(self, top: int, bottom: int) -> list[int]:
        """Indices (into the original sequence, in top order) of the rects meeting the band."""
        if bottom <= top:
            return []
        lo = bisect_right(self.reach, top)
        hi = bisect_left(self.tops, bottom)
        bottoms, order = self.bottoms, self.order
        return [order[k] for k in range(lo, hi) if bottoms[k] > top]


class _Index(NamedTuple):
    pieces: _Band
    by_y: _Band
    controls: dict[str, Control]
    hscrolls: dict[str, HScroll]


# -- laying a page out ------------------------------------------------------------------------

_LAYOUTS: OrderedDict[tuple, PageLayout | str] = OrderedDict()
_LAST: list = [None, 0, None]  # the last (page, width, result): the per-frame call is an identity check


def layout_page(page: Page, width: int) -> PageLayout:
    """``page`` laid out ``width`` px wide (at least :data:`MIN_WIDTH`). Pure and memoised.

    Raises:
        LayoutError: the page is taller than :data:`MAX_HEIGHT` or has more than
            :data:`MAX_PIECES` pieces (it names the element where layout stopped).
    """
    if type(width) is not int:
        raise TypeError(f"layout width must be an int, got {width!r}")
    width = max(MIN_WIDTH, width)
    if _LAST[0] is page and _LAST[1] == width:
        found = _LAST[2]
    else:
        try:
            key: tuple = (page, width)
            hash(page)
        except TypeError:  # a page built with a list somewhere: key it by its encoding
            key = (page_json(page), width)
        found = _LAYOUTS.get(key)
        if found is None:
            try:
                found = _layout(page, width)
            except LayoutError as exc:
                found = str(exc)
            _LAYOUTS[key] = found
            if len(_LAYOUTS) > LAYOUTS_KEPT:
                _LAYOUTS.popitem(last=False)
        else:
            _LAYOUTS.move_to_end(key)
        _LAST[:] = [page, width, found]
    if isinstance(found, str):
        raise LayoutError(found)
    return found


class _Env(NamedTuple):
    """Where a block is: its form, the wide table it scrolls with, its list depth."""

    form: str | None = None
    hscroll: str | None = None
    depth: int = 0


class _Builder:
    """The pieces, controls and scrolling tables laid out so far, and the element at hand."""

    def __init__(self) -> None:
        self.pieces: list[Piece] = []
        self.controls: list[Control] = []
        self.hscrolls: list[HScroll] = []
        self.dialogs: list[Dialog] = []
        self.at = "(page)"

    def add(self, primitive: Primitive, rect: Rect, env: _Env, element: str | None = None,
            semantic: Semantic | None = None) -> None:
        if len(self.pieces) >= MAX_PIECES:
            raise self.too_long(f"more than {MAX_PIECES} pieces")
        if rect.y + rect.height > MAX_HEIGHT:
            raise self.too_long(f"taller than {MAX_HEIGHT} px")
        self.pieces.append(Piece(primitive, rect, element, semantic, None, env.hscroll))

    def control(self, control: Control) -> None:
        if control.rect.bottom > MAX_HEIGHT:
            raise self.too_long(f"taller than {MAX_HEIGHT} px")
        self.controls.append(control)

    def check(self, y: int) -> None:
        if y > MAX_HEIGHT:
            raise self.too_long(f"taller than {MAX_HEIGHT} px")

    def too_long(self, why: str) -> LayoutError:
        return LayoutError(f"page too long at element {self.at}: {why}")


def _layout(page: Page, width: int) -> PageLayout:
    b = _Builder()
    elements = assign_ids(page).elements
    bottom, _ = _flow(b, elements, MARGIN, MARGIN, width - 2 * MARGIN, _Env())
    extent = max([bottom, *(h.rect.bottom for h in b.hscrolls)]) + MARGIN
    if elements:  # the bottom margin is the last element's to answer for
        b.at = _name(elements[-1])
    b.check(extent)
    pieces = sorted(b.pieces, key=lambda p: p.rect.y)
    dialog = _dialog(b.dialogs[0], width) if b.dialogs else None
    return PageLayout(width, extent, tuple(pieces), tuple(b.controls), tuple(b.hscrolls), dialog)


def _dialog(e: Dialog, width: int) -> DialogBox:
    """The dialog's box: its title, then its children, :data:`DIALOG_PAD` inside its edge."""
    b = _Builder()
    b.at = _name(e)
    dw = max(MIN_WIDTH, min(DIALOG_W, width - 2 * MARGIN))
    y = DIALOG_PAD
    if e.title:
        y, _ = _lines(b, e.title, "sans-bold", DIALOG_TITLE, DIALOG_PAD, y, dw - 2 * DIALOG_PAD, TEXT, _Env(), e.id,
                      Semantic("heading", e.title))
        y += LABEL_GAP * 2
    bottom, _ = _flow(b, e.children, DIALOG_PAD, y, dw - 2 * DIALOG_PAD, _Env())
    pieces = sorted(b.pieces, key=lambda p: p.rect.y)
    inner = PageLayout(dw, bottom + DIALOG_PAD, tuple(pieces), tuple(b.controls), tuple(b.hscrolls))
    return DialogBox(e.id, e.title, inner)


def _hidden(e: Element) -> bool:
    return (type(e) is Input and e.type == "hidden") or type(e) is Dialog


def _name(e: Element) -> str:
    return e.id or f"(unnamed {type(e).__struct_config__.tag})"


def _flow(b: _Builder, elements: Sequence[Element], x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """Stack blocks top to bottom; returns the bottom and the first block's baseline.
    The first block's space above and the last's below are the container's to give."""
    gap: int | None = None
    baseline: int | None = None
    for e in elements:
        if type(e) is Dialog:  # shown over the page, not in its flow
            b.dialogs.append(e)
            continue
        if _hidden(e):
            continue
        above, below = MARGINS.get(type(e), (0, 0))
        if gap is not None:
            y += max(gap, above)
        top = y
        y, base = _block(b, e, x, y, w, env)
        if gap is None:
            baseline = base if base is not None else top
        gap = below
        b.check(y)
    return y, baseline


def _block(b: _Builder, e: Element, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """Lay out one element at ``(x, y)`` in ``w`` px; its bottom and first baseline."""
    fn = _BLOCKS.get(type(e))
    if fn is None:
        raise TypeError(f"not a page element: {type(e).__name__}")
    outer, b.at = b.at, _name(e)
    out = fn(b, e, x, y, max(1, w), env)
    b.at = outer
    return out


#: Px within which a width read off the paragraph's run is checked by shaping the line itself.
WRAP_CHECK = 2
_TOKENS = re.compile(r" +|[^ ]+")


@lru_cache(maxsize=4096)
def _wrap(text: str, font: str, size: int, width: int) -> tuple[tuple[str, int], ...]:
    """``cwgym.text.wrap(text, font, size, width)`` with each line's width, in far fewer
    shapings: each paragraph is shaped once and a line's width read off the run's carets
    (a break is a space, which kerns with nothing), and any fit within :data:`WRAP_CHECK`
    px of the edge is decided by shaping the line itself, as ``wrap`` does. A paragraph
    with a word wider than the line is handed to ``wrap`` whole."""
    out: list[tuple[str, int]] = []
    for para in text.replace("\r\n", "\n").split("\n"):
        lines = _wrap_paragraph(para, font, size, width)
        if lines is None:
            lines = [(line, measure(line, font, size)) for line in wrap(para, font, size, width)]
        out.extend(lines)
    return tuple(out)


def _wrap_paragraph(para: str, font: str, size: int, width: int) -> list[tuple[str, int]] | None:
    """``wrap``'s greedy line filling over one paragraph, or None when a word must be broken."""
    carets = shape(para, font, size).carets
    exact: dict[tuple[int, int], int] = {}

    def span(a: int, e: int) -> int:
        got = exact.get((a, e))
        return max(0, -(-(carets[e] - carets[a]) // 64)) if got is None else got

    def fits(a: int, e: int) -> bool:
        guess = span(a, e)
        if abs(guess - width) <= WRAP_CHECK and (a, e) not in exact:
            guess = exact[a, e] = measure(para[a:e], font, size)
        return guess <= width

    lines: list[tuple[str, int]] = []
    start = end = -1  # the line being filled: para[start:end]
    pending = -1  # where the spaces before the next word start
    for m in _TOKENS.finditer(para):
        s, e = m.span()
        if para[s] == " ":
            pending = s
            continue
        candidate = (pending if pending >= 0 else s) if start < 0 else start
        pending = -1
        if fits(candidate, e):
            start, end = candidate, e
            continue
        if start < 0 or not fits(s, e):
            return None
        lines.append((para[start:end], span(start, end)))
        start, end = s, e
    lines.append((para[start:end], span(start, end)) if start >= 0 else ("", 0))
    return lines


def _lines(b: _Builder, text: str, font: str, size: int, x: int, y: int, w: int, color: tuple,
           env: _Env, element: str | None, semantic: Semantic | None,
           underline: tuple | None = None) -> tuple[int, list[Rect]]:
    """Wrapped text, one piece per line (the first carries ``semantic``); its bottom and
    the line rects."""
    lh = line_height(font, size)
    b.check(y + (text.count("\n") + 1) * lh)  # before wrapping a pathological text
    lines = _wrap(text, font, size, w)
    base = ascent(font, size)
    rects: list[Rect] = []
    for i, (line, lw) in enumerate(lines):
        if i and not line:
            continue
        top = y + i * lh
        rect = Rect(x, top, max(lw, 1), lh)
        b.add(Run(line, size, color, font), rect, env, element, semantic if i == 0 else None)
        if underline is not None and lw:
            b.add(Box(underline), Rect(x, top + base + 1, lw, 1), env, element)
        rects.append(rect)
    return y + len(lines) * lh, rects


def _heading(b: _Builder, e: Heading, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    size = HEADING_SIZES[min(max(e.level, 1), 6) - 1]
    bottom, _ = _lines(b, e.text, "sans-bold", size, x, y, w, TEXT, env, e.id, Semantic("heading", e.text))
    return bottom, y + ascent("sans-bold", size)


def _text(b: _Builder, e: PageText, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    font = "sans-bold" if e.emphasis else "sans"
    bottom, _ = _lines(b, e.text, font, BODY, x, y, w, TEXT, env, e.id, Semantic("text", e.text))
    return bottom, y + ascent(font, BODY)


def _link(b: _Builder, e: Link, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    bottom, rects = _lines(b, e.text, "sans", BODY, x, y, w, LINK, env, e.id, None, underline=LINK)
    rect = rects[0]
    for r in rects[1:]:
        rect = rect.union(r)
    b.control(Control(e.id, "link", rect, rect, env.form, e.text, env.hscroll))
    return bottom, y + ascent("sans", BODY)


def _image(b: _Builder, e: PageImage, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """No bytes are fetched: a grey box of the image's size (kept in proportion when it is
    narrowed to the width) with the alt text inside."""
    iw, ih = e.width if e.width > 0 else IMAGE_W, e.height if e.height > 0 else IMAGE_H
    if iw > w:
        iw, ih = w, max(1, ih * w // iw)
    rect = Rect(x, y, iw, ih)
    b.add(Box(IMAGE_FILL, IMAGE_EDGE, 1), rect, env, e.id, Semantic("img", e.alt))
    lh = line_height("sans", BODY)
    room, inner_w = (ih - 2 * IMAGE_PAD) // lh, iw - 2 * IMAGE_PAD
    if e.alt and room > 0 and inner_w > 0:
        lines = [line for line, _ in _wrap(e.alt, "sans", BODY, inner_w)]
        if len(lines) > room:
            lines = [*lines[:room - 1], ellipsize(f"{lines[room - 1]} {lines[room]}", "sans", BODY, inner_w)]
        for i, line in enumerate(lines):
            if line:
                b.add(Run(line, BODY, IMAGE_TEXT), Rect(x + IMAGE_PAD, y + IMAGE_PAD + i * lh, measure(line, "sans", BODY), lh), env, e.id)
    return y + ih, y + ascent("sans", BODY)


def _indent(w: int) -> int:
    return LIST_INDENT if w - LIST_INDENT >= LIST_MIN_CONTENT else max(0, w - LIST_MIN_CONTENT)


def _list(b: _Builder, e: ListBlock, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """Items indented, each with a bullet (by depth) or its number; an item that is itself a
    list is indented further and has no marker of its own."""
    indent = _indent(w)
    ix, iw = x + indent, max(1, w - indent)
    inner = _Env(env.form, env.hscroll, env.depth + 1)
    lh, base = line_height("sans", BODY), ascent("sans", BODY)
    number, first, started = 0, None, False
    for item in e.items:
        if _hidden(item):
            continue
        if started:
            y += ITEM_GAP
        started, top = True, y
        y, baseline = _block(b, item, ix, y, iw, inner)
        if first is None:
            first = baseline if baseline is not None else top
        if type(item) is ListBlock:
            continue
        number += 1
        marker = f"{number}." if e.ordered else BULLETS[min(env.depth, len(BULLETS) - 1)]
        mw = measure(marker, "sans", BODY)
        mtop = (baseline - base) if baseline is not None else top
        b.add(Run(marker, BODY, TEXT), Rect(max(0, ix - MARKER_GAP - mw), mtop, mw, lh), env)
        b.check(y)
    return y, first


# -- tables -----------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _text_widths(text: str, font: str, size: int) -> tuple[int, int]:
    """(min, preferred) width of text: its longest word, and its longest line unwrapped."""
    words = text.split()
    low = max((measure(word, font, size) for word in words), default=0)
    high = max(measure(line.rstrip(" "), font, size) for line in text.replace("\r\n", "\n").split("\n"))
    return low, max(low, high)


def _widths(e: Element) -> tuple[int, int]:
    """(min, preferred) width of an element in a table cell."""
    t = type(e)
    if t is Heading:
        return _text_widths(e.text, "sans-bold", HEADING_SIZES[min(max(e.level, 1), 6) - 1])
    if t is PageText:
        return _text_widths(e.text, "sans-bold" if e.emphasis else "sans", BODY)
    if t is Link:
        return _text_widths(e.text, "sans", BODY)
    if t is PageImage:
        iw = e.width if e.width > 0 else IMAGE_W
        return iw, iw
    if t is ListBlock:
        parts = [_widths(i) for i in e.items]
        return (LIST_INDENT + max((p[0] for p in parts), default=0),
                LIST_INDENT + max((p[1] for p in parts), default=0))
    if t is Table:
        mins, prefs = _columns_of(e)
        return sum(mins) + _overhead(len(mins)), sum(prefs) + _overhead(len(prefs))
    if t is Form:
        parts = [_widths(c) for c in e.children]
        return max((p[0] for p in parts), default=0), max((p[1] for p in parts), default=0)
    if t is Button:
        bw = measure(e.text, "sans", BODY) + 2 * BUTTON_PAD
        return bw, bw
    if t is Checkbox or t is Radio:
        low, high = _text_widths(e.label, "sans", BODY)
        return BOX + BOX_GAP + low, BOX + BOX_GAP + high
    if (t is Input and e.type == "hidden") or t is Dialog:
        return 0, 0
    if t is Range:
        low, high = _text_widths(e.label, "sans", BODY)
        return max(FIELD_MIN, low), max(SLIDER_W, high)
    if t is SortList:
        low, high = _text_widths(e.label, "sans", BODY)
        return max(FIELD_MIN, low), max(SORT_W, high)
    if t is Input and e.type == "color":
        low, high = _text_widths(e.label, "sans", BODY)
        return max(COLOR_W, low), max(COLOR_W, high)
    if t is Details:
        marker = measure(DISCLOSURE[0], "sans", BODY) + MARKER_GAP
        low, high = _text_widths(e.summary, "sans", BODY)
        parts = [_widths(c) for c in e.children] if e.open else []
        return (max([marker + low, *(p[0] for p in parts)]), max([marker + high, *(p[1] for p in parts)]))
    natural = {Input: FIELD_W, TextArea: AREA_W, Select: SELECT_W}.get(t)
    if natural is None:
        raise TypeError(f"not a page element: {t.__name__}")
    low, high = _text_widths(e.label, "sans", BODY)
    return max(FIELD_MIN, low), max(natural, high)


def _overhead(ncols: int) -> int:
    return ncols * (2 * CELL_PAD + 1) + 1 if ncols else 0


def _columns_of(e: Table) -> tuple[list[int], list[int]]:
    ncols = max([len(e.headers), *(len(r) for r in e.rows)])
    mins, prefs = [0] * ncols, [0] * ncols
    cells = [*((c, _text_widths(h, "sans-bold", BODY)) for c, h in enumerate(e.headers)),
             *((c, _widths(cell)) for row in e.rows for c, cell in enumerate(row))]
    for c, (low, high) in cells:
        mins[c], prefs[c] = max(mins[c], low), max(prefs[c], high)
    return mins, prefs


def _fit(mins: list[int], prefs: list[int], avail: int) -> tuple[list[int], bool]:
    """Column widths: preferred when they fit, else shrunk towards the minimums in
    proportion to the give each has; the minimums (and True: too wide) when even they don't."""
    if sum(prefs) <= avail:
        return prefs, False
    low = sum(mins)
    if low > avail:
        return mins, True
    spare, span = avail - low, sum(prefs) - low
    widths = [m + (p - m) * spare // span for m, p in zip(mins, prefs)]
    left = avail - sum(widths)
    for c in range(len(widths)):
        if left <= 0:
            break
        if widths[c] < prefs[c]:
            widths[c] += 1
            left -= 1
    return widths, False


def _table(b: _Builder, e: Table, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    mins, prefs = _columns_of(e)
    if not mins:
        return y, None
    widths, wide = _fit(mins, prefs, w - _overhead(len(mins)))
    own = wide and env.hscroll is None  # a table inside a scrolling one scrolls with it
    inner = _Env(env.form, e.id, env.depth) if own else env
    xs = [x]
    for cw in widths:
        xs.append(xs[-1] + 2 * CELL_PAD + 1 + cw)
    ry = y
    if e.headers:
        ry = _row(b, e.id, list(enumerate(e.headers)), xs, widths, ry, inner, header=True)
    for row in e.rows:
        ry = _row(b, e.id, list(enumerate(row)), xs, widths, ry, inner, header=False)
        b.check(ry)
    bottom = ry + 1
    if own:
        extent = xs[-1] + 1 - x
        b.hscrolls.append(HScroll(e.id, Rect(x, y, w, bottom - y + HSCROLL_BAR), extent))
        bottom += HSCROLL_BAR
    return bottom, y + 1 + CELL_PAD + ascent("sans", BODY)


def _row(b: _Builder, table: str, cells: list[tuple[int, str | Element]], xs: list[int],
         widths: list[int], ry: int, env: _Env, *, header: bool) -> int:
    """One row of cells (header strings or elements), vertically centred in the tallest;
    the cell boxes overlap by their 1 px border. Returns the next row's top."""
    top = ry + 1 + CELL_PAD
    spans = []
    for c, content in cells:
        before = (len(b.pieces), len(b.controls), len(b.hscrolls))
        cx = xs[c] + 1 + CELL_PAD
        if header:
            bottom, _ = _lines(b, content, "sans-bold", BODY, cx, top, widths[c], TEXT, env, None,
                               Semantic("columnheader", content))  # read, but no element of its own
        else:
            bottom, _ = _block(b, content, cx, top, widths[c], env)
        spans.append((before, (len(b.pieces), len(b.controls), len(b.hscrolls)), bottom - top))
    height = max((h for _, _, h in spans), default=0)
    for before, after, h in spans:
        dy = (height - h) // 2
        if dy:
            _shift(b, before, after, dy)
    fill = HEADER_FILL if header else CLEAR
    outer, b.at = b.at, table
    for c, _ in cells:
        b.add(Box(fill, BORDER, 1), Rect(xs[c], ry, widths[c] + 2 * CELL_PAD + 2, height + 2 * CELL_PAD + 2), env)
    b.at = outer
    return ry + height + 2 * CELL_PAD + 1


def _shift(b: _Builder, before: tuple[int, int, int], after: tuple[int, int, int], dy: int) -> None:
    """Move what one cell laid out (between the two marks) down by ``dy``."""
    replace = msgspec.structs.replace
    (p0, c0, h0), (p1, c1, h1) = before, after
    b.pieces[p0:p1] = [replace(p, rect=p.rect.translate(0, dy)) for p in b.pieces[p0:p1]]
    b.controls[c0:c1] = [replace(c, rect=c.rect.translate(0, dy), inner=c.inner.translate(0, dy)) for c in b.controls[c0:c1]]
    b.hscrolls[h0:h1] = [replace(h, rect=h.rect.translate(0, dy)) for h in b.hscrolls[h0:h1]]


# -- forms ------------------------------------------------------------------------------------


def _form(b: _Builder, e: Form, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    return _flow(b, e.children, x, y, w, _Env(e.id, env.hscroll, env.depth))


def _label_above(b: _Builder, e: Element, label: str, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """A field's label above it (clicking it is clicking the field): where the field goes."""
    if not label:
        return y, None
    bottom, _ = _lines(b, label, "sans", BODY, x, y, w, TEXT, env, e.id, None)
    return bottom + LABEL_GAP, y + ascent("sans", BODY)


def _field_box(b: _Builder, e: Element, kind: str, label: str, shown_label: str, x: int, y: int, w: int,
               env: _Env, width: int, height: int, pad: int, reserve: int = 0) -> tuple[int, int | None]:
    fy, baseline = _label_above(b, e, shown_label, x, y, w, env)
    fw = min(width, w)
    lh = line_height("sans", BODY)
    rect = Rect(x, fy, fw, height)
    if kind == "textarea":
        inner = Rect(x + pad, fy + AREA_PAD, max(1, fw - 2 * pad), height - 2 * AREA_PAD)
    else:
        inner = Rect(x + pad, fy + (height - lh) // 2, max(1, fw - 2 * pad - reserve), lh)
    b.control(Control(e.id, kind, rect, inner, env.form, label, env.hscroll))
    return rect.bottom, baseline if baseline is not None else inner.y + ascent("sans", BODY)


def _input(b: _Builder, e: Input, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    if e.type == "hidden":
        return y, None
    if e.type == "color":
        return _field_box(b, e, "color", e.label or e.name, e.label, x, y, w, env, COLOR_W, FIELD_H, FIELD_PAD,
                          SWATCH + FIELD_PAD)
    kind = "password" if e.type == "password" else "textbox"
    reserve = {"number": SPIN_W, "date": CAL_W}.get(e.type, 0)
    return _field_box(b, e, kind, e.label or e.placeholder or e.name, e.label, x, y, w, env, FIELD_W, FIELD_H, FIELD_PAD,
                      reserve)


def _sortlist(b: _Builder, e: SortList, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """A reorderable list: its label above, then a frame of rows (``inner``: the rows)."""
    fy, baseline = _label_above(b, e, e.label, x, y, w, env)
    height = max(1, len(e.items)) * SORT_ROW + 2
    b.check(fy + height)
    rect = Rect(x, fy, min(SORT_W, w), height)
    inner = Rect(x + 1, fy + 1, max(1, rect.width - 2), len(e.items) * SORT_ROW)
    b.control(Control(e.id, "sortlist", rect, inner, env.form, e.label or e.name, env.hscroll))
    return rect.bottom, baseline if baseline is not None else fy + 1 + (SORT_ROW - line_height("sans", BODY)) // 2 + ascent("sans", BODY)


def _range(b: _Builder, e: Range, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """A slider: its label above, then a track box; ``inner`` is the span the thumb's
    centre travels."""
    fy, baseline = _label_above(b, e, e.label, x, y, w, env)
    rect = Rect(x, fy, min(SLIDER_W, w), SLIDER_H)
    inner = Rect(x + THUMB // 2, fy, max(1, rect.width - THUMB), SLIDER_H)
    b.control(Control(e.id, "slider", rect, inner, env.form, e.label or e.name, env.hscroll))
    return rect.bottom, baseline if baseline is not None else fy + ascent("sans", BODY)


def _details(b: _Builder, e: Details, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """The summary line (marker and text; the ``details`` control), then, when open, the
    children below it."""
    marker = DISCLOSURE[1 if e.open else 0]
    mw, lh = measure(marker, "sans", BODY) + MARKER_GAP, line_height("sans", BODY)
    bottom, rects = _lines(b, e.summary, "sans", BODY, x + mw, y, max(1, w - mw), TEXT, env, e.id, None)
    b.add(Run(marker, BODY, TEXT), Rect(x, y, mw - MARKER_GAP, lh), env, e.id)
    rect = Rect(x, y, mw, lh)
    for r in rects:
        rect = rect.union(r)
    b.control(Control(e.id, "details", rect, rect, env.form, e.summary, env.hscroll))
    if e.open and e.children:
        bottom, _ = _flow(b, e.children, x, bottom + ITEM_GAP * 2, w, env)
    return bottom, y + ascent("sans", BODY)



def _textarea(b: _Builder, e: TextArea, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    height = max(1, e.rows) * line_height("sans", BODY) + 2 * AREA_PAD
    b.check(y + height)
    return _field_box(b, e, "textarea", e.label or e.name, e.label, x, y, w, env, AREA_W, height, AREA_PAD)


def _select(b: _Builder, e: Select, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    reserve = measure(SELECT_ARROW, "sans", BODY) + FIELD_PAD
    return _field_box(b, e, "select", e.label or e.name, e.label, x, y, w, env, SELECT_W, FIELD_H, FIELD_PAD, reserve)


def _choice(b: _Builder, e: Checkbox | Radio, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    """A 16 px box (or circle) with its label to the right; the label is the same control."""
    lh = line_height("sans", BODY)
    box = Rect(x, y + max(0, (lh - BOX) // 2), BOX, BOX)
    bottom = y
    if e.label:
        bottom, _ = _lines(b, e.label, "sans", BODY, x + BOX + BOX_GAP, y, max(1, w - BOX - BOX_GAP), TEXT, env, e.id, None)
    kind = "checkbox" if type(e) is Checkbox else "radio"
    b.control(Control(e.id, kind, box, box, env.form, e.label or e.name, env.hscroll))
    return max(bottom, box.bottom), y + ascent("sans", BODY)


def _button(b: _Builder, e: Button, x: int, y: int, w: int, env: _Env) -> tuple[int, int | None]:
    bw = min(w, measure(e.text, "sans", BODY) + 2 * BUTTON_PAD)
    rect = Rect(x, y, bw, BUTTON_H)
    b.control(Control(e.id, "button", rect, rect, env.form, e.text, env.hscroll))
    return rect.bottom, y + (BUTTON_H - line_height("sans", BODY)) // 2 + ascent("sans", BODY)


_BLOCKS: dict[type, Callable[..., tuple[int, int | None]]] = {
    Heading: _heading, PageText: _text, Link: _link, PageImage: _image, ListBlock: _list,
    Table: _table, Form: _form, Input: _input, TextArea: _textarea, Select: _select,
    Checkbox: _choice, Radio: _choice, Button: _button, Range: _range, Details: _details, SortList: _sortlist,
}


# -- controls as they are now -------------------------------------------------------------------

_KINDS: dict[str, type | tuple[type, ...]] = {
    "link": Link, "button": Button, "textbox": Input, "password": Input, "textarea": TextArea,
    "select": Select, "checkbox": Checkbox, "radio": Radio, "slider": Range, "details": Details,
    "sortlist": SortList, "color": Input,
}


def control_pieces(control: Control, element: Element, value: str | None, *, focused: bool,
                   caret: int | None, expanded: bool | None = None) -> tuple[tuple[Piece, ...], Rect | None]:
    """The pieces of ``control`` showing ``value`` (None: the element's own), and the caret
    rect (document coordinates) when a focused text field has one.

    The first piece carries the control's semantic and state. ``value`` is the typed text
    of a text field (a password shows as •), an option value of a select, ``"checked"`` or
    ``"unchecked"`` for a checkbox or radio, the order of a reorderable list (its items
    joined by newlines; ``caret`` is then its focused row). ``expanded`` is whether the
    control's popup (suggestions, calendar, palette) is open, for its state.
    ``caret`` is a character offset into a text
    field's value (kept within it; None when focused: the end); a long value scrolls so the
    caret stays in view.

    Raises:
        ValueError: ``element`` is not the control's, or ``value`` is not one it can take.
    """
    _check(control, element)
    kind = control.kind
    if kind in ("textbox", "password"):
        pieces, at = _single_line(control, element, value, focused, caret)
        if expanded is not None and pieces[0].state is not None:
            first = msgspec.structs.replace(pieces[0], state=msgspec.structs.replace(pieces[0].state, expanded=expanded))
            pieces = (first, *pieces[1:])
        return pieces, at
    if kind == "sortlist":
        return _sortlist_pieces(control, element, value, focused, caret), None
    if kind == "color":
        return _color_pieces(control, element, value, focused, bool(expanded)), None
    if kind == "textarea":
        return _multi_line(control, element, value, focused, caret)
    if kind == "select":
        return _select_pieces(control, element, value, focused), None
    if kind in ("checkbox", "radio"):
        return _choice_pieces(control, element, value, focused), None
    if kind == "button":
        return _button_pieces(control, element, focused), None
    if kind == "slider":
        return _slider_pieces(control, element, value, focused), None
    if kind == "details":
        return _details_pieces(control, element, focused), None
    return _link_pieces(control, element, focused), None


def caret_index(control: Control, element: Element, value: str | None, x: int, y: int, *,
                caret: int | None = None) -> int:
    """The character offset a click at the document point ``(x, y)`` puts the caret at, in
    a text field showing ``value`` (None: the element's own). Pass the field's ``caret``
    when it is focused: a long value is scrolled by it, as :func:`control_pieces` drew it.
    (In a wide table, add the table's scroll offset to ``x`` first.)

    Raises:
        ValueError: not a text field, or ``element`` is not the control's.
    """
    _check(control, element)
    if control.kind not in ("textbox", "password", "textarea"):
        raise ValueError(f"{control.id} is a {control.kind}: it has no caret")
    shown = _shown(control, element, value)
    at = None if caret is None else min(max(0, caret), len(shown))
    inner = control.inner
    if control.kind == "textarea":
        lines, rows = _area_lines(shown, inner.width), _rows(inner)
        first = _first_row(lines, at, rows)
        k = first + (y - inner.y) // line_height("sans", BODY)
        start, stop, span, _ = lines[min(max(first, k), first + rows - 1, len(lines) - 1)]
        return start + min(shape(span, "sans", BODY).index_at(x - inner.x), stop - start)
    run = shape(shown, "sans", BODY)
    return run.index_at(x - inner.x + _scroll(run, inner.width, at))


def _check(control: Control, element: Element) -> None:
    expected = _KINDS.get(control.kind)
    if expected is None:
        raise ValueError(f"control {control.id}: unknown kind {control.kind!r}")
    if element.id != control.id:
        raise ValueError(f"control {control.id} was given element {element.id or '(unnamed)'}")
    if not isinstance(element, expected):
        raise ValueError(f"control {control.id} is a {control.kind}, not a {type(element).__name__}")


def _piece(control: Control, primitive: Primitive, rect: Rect, semantic: Semantic | None = None,
           state: NodeState | None = None) -> Piece:
    return Piece(primitive, rect, control.id, semantic, state, control.hscroll)


def _ring(control: Control, rect: Rect, radius: int) -> Piece:
    return _piece(control, RoundedBox(CLEAR, radius, FOCUS, 2), rect.inflate(2))


def _shown(control: Control, element: Input | TextArea, value: str | None) -> str:
    raw = element.value if value is None else value
    return "•" * len(raw) if control.kind == "password" else raw


def _frame(control: Control, shown: str, focused: bool, role: str = "textbox") -> Piece:
    return _piece(control, RoundedBox(FIELD_BG, 4, FOCUS if focused else FIELD_EDGE, 2 if focused else 1), control.rect,
                  Semantic(role, control.label, shown, False, True), NodeState(focused=focused))


def _spinner(control: Control) -> tuple[Piece, ...]:
    """A number field's ▲ and ▼ buttons, stacked at its right end (targets ``<id>:up`` and
    ``<id>:down``)."""
    rect = control.rect
    half = (rect.height - 4) // 2
    out = []
    for i, (glyph, part, label) in enumerate((("▲", "up", "Increment"), ("▼", "down", "Decrement"))):
        box = Rect(rect.right - SPIN_W - 2, rect.y + 2 + i * half, SPIN_W, half)
        out.append(Piece(RoundedBox(BUTTON_BG, 2), box, f"{control.id}:{part}", Semantic("button", label, None, False, False),
                         None, control.hscroll))
        gw = measure(glyph, "sans", 8)
        out.append(Piece(Run(glyph, 8, TEXT), Rect(box.x + (box.width - gw) // 2, box.y + (box.height - line_height("sans", 8)) // 2,
                                                   gw, line_height("sans", 8)), f"{control.id}:{part}", None, None, control.hscroll))
    return tuple(out)


def _scroll(run: ShapedRun, width: int, at: int | None) -> int:
    """How far a single-line field's text is scrolled: enough to show the caret at the
    right edge when it would be past it, else 0."""
    if at is None or run.width <= width:
        return 0
    return max(0, run.caret_x(at) - width + 1)


def _single_line(control: Control, e: Input, value: str | None, focused: bool,
                 caret: int | None) -> tuple[tuple[Piece, ...], Rect | None]:
    shown = _shown(control, e, value)
    inner = control.inner
    at = (len(shown) if caret is None else min(max(0, caret), len(shown))) if focused else None
    number = e.type == "number"
    role = "spinbutton" if number else "combobox" if e.suggestions else "textbox"
    pieces = [_frame(control, shown, focused, role), *(_spinner(control) if number else ()),
              *(_calendar_button(control) if e.type == "date" else ())]
    if not shown:
        if e.placeholder:
            hint = ellipsize(e.placeholder, "sans", BODY, inner.width)
            pieces.append(_piece(control, Run(hint, BODY, MUTED), Rect(inner.x, inner.y, measure(hint, "sans", BODY), inner.height)))
        return tuple(pieces), (Rect(inner.x, inner.y, 1, inner.height) if focused else None)
    run = shape(shown, "sans", BODY)
    scroll = _scroll(run, inner.width, at)
    carets = run.carets
    start = bisect_left(carets, 64 * scroll - 32)
    stop = max(start, bisect_left(carets, 64 * (scroll + inner.width) + 32) - 1)
    part = shown[start:stop]
    if part:
        left = inner.x + run.caret_x(start) - scroll
        pieces.append(_piece(control, Run(part, BODY, TEXT), Rect(left, inner.y, measure(part, "sans", BODY), inner.height)))
    if at is None:
        return tuple(pieces), None
    return tuple(pieces), Rect(inner.x + run.caret_x(at) - scroll, inner.y, 1, inner.height)


@lru_cache(maxsize=256)
def _area_lines(text: str, width: int) -> tuple[tuple[int, int, str, str], ...]:
    """A text area's wrapped lines as ``(start, stop, span, drawn)``: the caret offsets
    ``start..stop`` show on the line, ``span`` is the text they are measured in (with the
    spaces dropped at a soft break) and ``drawn`` what is painted."""
    out: list[tuple[int, int, str, str]] = []
    offset = 0
    for para in text.split("\n"):
        lines = [line for line, _ in _wrap(para, "sans", BODY, max(1, width))]
        starts, cursor = [], 0
        for line in lines:
            found = para.find(line, cursor) if line else -1
            start = found if found >= 0 else cursor
            starts.append(start)
            cursor = start + len(line)
        for k, line in enumerate(lines):
            start = starts[k]
            if k + 1 < len(lines):  # a soft break: the next line owns the offset it starts at
                span = para[start:starts[k + 1]]
                stop = start + max(0, len(span) - 1)
            else:
                span = para[start:]
                stop = start + len(span)
            out.append((offset + start, offset + stop, span, line))
        offset += len(para) + 1
    return tuple(out)


def _rows(inner: Rect) -> int:
    return max(1, inner.height // line_height("sans", BODY))


def _line_of(lines: Sequence[tuple[int, int, str, str]], at: int) -> int:
    return max(0, bisect_right([line[0] for line in lines], at) - 1)


def _first_row(lines: Sequence[tuple[int, int, str, str]], at: int | None, rows: int) -> int:
    """The first line shown: 0, or enough to keep the caret's line in view."""
    return 0 if at is None else max(0, _line_of(lines, at) - rows + 1)


def _multi_line(control: Control, e: TextArea, value: str | None, focused: bool,
                caret: int | None) -> tuple[tuple[Piece, ...], Rect | None]:
    shown = _shown(control, e, value)
    inner = control.inner
    at = (len(shown) if caret is None else min(max(0, caret), len(shown))) if focused else None
    lh, rows = line_height("sans", BODY), _rows(inner)
    lines = _area_lines(shown, inner.width)
    first = _first_row(lines, at, rows)
    pieces = [_frame(control, shown, focused)]
    for row, (_, _, _, drawn) in enumerate(lines[first:first + rows]):
        if drawn:
            pieces.append(_piece(control, Run(drawn, BODY, TEXT),
                                 Rect(inner.x, inner.y + row * lh, measure(drawn, "sans", BODY), lh)))
    if at is None:
        return tuple(pieces), None
    k = _line_of(lines, at)
    start, _, span, _ = lines[k]
    cx = min(shape(span, "sans", BODY).caret_x(min(at - start, len(span))), inner.width - 1)
    return tuple(pieces), Rect(inner.x + cx, inner.y + (k - first) * lh, 1, lh)


def _select_pieces(control: Control, e: Select, value: str | None, focused: bool) -> tuple[Piece, ...]:
    """The chosen option's label (as the engine submits: the value, else the first option)."""
    chosen = (e.value if value is None else value) or (e.options[0].value if e.options else "")
    option = next((o for o in e.options if o.value == chosen), None)
    if option is None and value is not None and value:
        raise ValueError(f"select {control.id} has no option {value!r}")
    label = option.label if option is not None else (e.options[0].label if e.options else "")
    inner, rect = control.inner, control.rect
    pieces = [_piece(control, RoundedBox(BUTTON_BG, 4, FIELD_EDGE, 1), rect,
                     Semantic("combobox", control.label, label, False, True), NodeState(focused=focused))]
    text = ellipsize(label, "sans", BODY, inner.width)
    if text:
        pieces.append(_piece(control, Run(text, BODY, TEXT), Rect(inner.x, inner.y, measure(text, "sans", BODY), inner.height)))
    aw = measure(SELECT_ARROW, "sans", BODY)
    pieces.append(_piece(control, Run(SELECT_ARROW, BODY, TEXT), Rect(rect.right - FIELD_PAD - aw, inner.y, aw, inner.height)))
    if focused:
        pieces.append(_ring(control, rect, 6))
    return tuple(pieces)


def _choice_pieces(control: Control, e: Checkbox | Radio, value: str | None, focused: bool) -> tuple[Piece, ...]:
    if value is None:
        checked = e.checked
    elif value in ("checked", "unchecked"):
        checked = value == "checked"
    else:
        raise ValueError(f"{control.kind} {control.id} takes 'checked' or 'unchecked', not {value!r}")
    rect = control.rect
    radio = control.kind == "radio"
    semantic = Semantic(control.kind, control.label, None, False, True)
    state = NodeState(checked=checked, focused=focused)
    if radio:
        frame = RoundedBox(FIELD_BG, BOX // 2, FOCUS if checked else FIELD_EDGE, 2 if checked else 1)
    else:
        frame = RoundedBox(FOCUS if checked else FIELD_BG, 3, FOCUS if checked else FIELD_EDGE, 1)
    pieces = [_piece(control, frame, rect, semantic, state)]
    if checked and radio:
        pieces.append(_piece(control, RoundedBox(FOCUS, 4), Rect(rect.x + 4, rect.y + 4, 8, 8)))
    elif checked:
        tick = Path((("M", 4, 8), ("L", 7, 11), ("L", 12, 5)), None, FIELD_BG, 2)
        pieces.append(_piece(control, tick, rect))
    if focused:
        pieces.append(_ring(control, rect, BOX // 2 + 2 if radio else 5))
    return tuple(pieces)


def _button_pieces(control: Control, e: Button, focused: bool) -> tuple[Piece, ...]:
    rect = control.rect
    text = ellipsize(e.text, "sans", BODY, max(0, rect.width - 2 * BUTTON_PAD))
    tw, lh = measure(text, "sans", BODY), line_height("sans", BODY)
    pieces = [_piece(control, RoundedBox(BUTTON_BG, 4, FIELD_EDGE, 1), rect,
                     Semantic("button", control.label, None, False, True), NodeState(focused=focused))]
    if text:
        pieces.append(_piece(control, Run(text, BODY, TEXT), Rect(rect.x + (rect.width - tw) // 2, rect.y + (rect.height - lh) // 2, tw, lh)))
    if focused:
        pieces.append(_ring(control, rect, 6))
    return tuple(pieces)


def _link_pieces(control: Control, e: Link, focused: bool) -> tuple[Piece, ...]:
    """The link's text is static; its meaning rides on an invisible region over it."""
    pieces = [_piece(control, Region(), control.rect, Semantic("link", control.label, e.url, False, True),
                     NodeState(focused=focused))]
    if focused:
        pieces.append(_ring(control, control.rect, 2))
    return tuple(pieces)


def _slider_x(control: Control, element: Range, value: str) -> int:
    """Where the thumb's centre is for ``value``."""
    low, high, _ = step_bounds(element)
    span = high - low  # type: ignore[operator]
    at = Decimal(range_value(element, value)) - low  # type: ignore[operator]
    inner = control.inner
    return inner.x + (int(at * (inner.width - 1) / span) if span else 0)


def slider_value_at(control: Control, element: Range, x: int) -> str:
    """The step a press at document ``x`` on the slider puts it at (the nearest one)."""
    _check(control, element)
    low, high, _ = step_bounds(element)
    inner = control.inner
    frac = Decimal(min(max(x - inner.x, 0), inner.width - 1)) / Decimal(max(1, inner.width - 1))
    return range_value(element, str(low + frac * (high - low)))  # type: ignore[operator]


def _slider_pieces(control: Control, e: Range, value: str | None, focused: bool) -> tuple[Piece, ...]:
    shown = range_value(e, value)
    rect, inner = control.rect, control.inner
    cx, mid = _slider_x(control, e, shown), rect.y + rect.height // 2
    pieces = [_piece(control, Region(), rect, Semantic("slider", control.label, shown, False, True), NodeState(focused=focused)),
              _piece(control, RoundedBox(FIELD_EDGE, 2), Rect(inner.x, mid - 2, inner.width, 4)),
              _piece(control, RoundedBox(FOCUS, 2), Rect(inner.x, mid - 2, max(0, cx - inner.x), 4)),
              _piece(control, RoundedBox(FIELD_BG, THUMB // 2, FOCUS, 2), Rect(cx - THUMB // 2, mid - THUMB // 2, THUMB, THUMB))]
    if focused:
        pieces.append(_ring(control, rect, 6))
    return tuple(pieces)


def _details_pieces(control: Control, e: Details, focused: bool) -> tuple[Piece, ...]:
    """The summary's text is static; its meaning (a button, expanded or not) rides on an
    invisible region over it."""
    pieces = [_piece(control, Region(), control.rect, Semantic("button", control.label, None, False, True),
                     NodeState(expanded=e.open, focused=focused))]
    if focused:
        pieces.append(_ring(control, control.rect, 2))
    return tuple(pieces)


# -- the newer widgets: reorderable lists, date and colour fields, and their popups ------------


def _rgba(hex_color: str) -> tuple[int, int, int, int]:
    return int(hex_color[1:3], 16), int(hex_color[3:5], 16), int(hex_color[5:7], 16), 255


def _calendar_button(control: Control) -> tuple[Piece, ...]:
    """A date field's calendar button at its right end (target ``<id>:calendar``): a small
    drawn calendar, a frame with a header bar."""
    rect = control.rect
    box = Rect(rect.right - CAL_W - 2, rect.y + 3, CAL_W, rect.height - 6)
    part = f"{control.id}:calendar"
    icon = Rect(box.x + (box.width - 14) // 2, box.y + (box.height - 14) // 2, 14, 14)
    return (Piece(RoundedBox(BUTTON_BG, 3), box, part, Semantic("button", "Choose a date", None, False, False), None,
                  control.hscroll),
            Piece(Box(FIELD_BG, TEXT, 1), icon, part, None, None, control.hscroll),
            Piece(Box(TEXT), Rect(icon.x, icon.y, icon.width, 4), part, None, None, control.hscroll))


def _order(e: SortList, value: str | None) -> tuple[str, ...]:
    """A reorderable list's items in the order ``value`` gives (None: its own)."""
    if value is None:
        return e.items
    order = tuple(value.split("\n"))
    if sorted(order) != sorted(e.items):
        raise ValueError(f"reorderable list {e.id} was given an order that is not of its items: {value!r}")
    return order


def sort_row_at(control: Control, element: SortList, y: int) -> int:
    """The row whose place is at document ``y`` in a reorderable list (clamped to its rows)."""
    _check(control, element)
    rows = len(element.items)
    return min(max(0, (y - control.inner.y) // SORT_ROW), max(0, rows - 1))


def _sortlist_pieces(control: Control, e: SortList, value: str | None, focused: bool,
                     caret: int | None) -> tuple[Piece, ...]:
    """A frame (role ``listbox``) and one row per item (role ``option``, the focused row
    selected), each with a drag grip at its right."""
    order = _order(e, value)
    rect, inner = control.rect, control.inner
    at = min(max(0, caret or 0), len(order) - 1) if focused and order else None
    pieces = [_piece(control, RoundedBox(FIELD_BG, 4, FOCUS if focused else FIELD_EDGE, 1), rect,
                     Semantic("listbox", control.label, None, False, True), NodeState(focused=focused))]
    lh, gw = line_height("sans", BODY), measure(SORT_GRIP, "sans", BODY)
    for k, item in enumerate(order):
        row = Rect(inner.x, inner.y + k * SORT_ROW, inner.width, SORT_ROW)
        part, on = f"{control.id}:{k}", k == at
        pieces.append(Piece(Box(BUTTON_BG if on else FIELD_BG), row, part, Semantic("option", item, None, False, True),
                            NodeState(selected=on, focused=on), control.hscroll))
        text = ellipsize(item, "sans", BODY, max(0, row.width - 3 * FIELD_PAD - gw))
        ty = row.y + (SORT_ROW - lh) // 2
        if text:
            pieces.append(Piece(Run(text, BODY, TEXT), Rect(row.x + FIELD_PAD, ty, measure(text, "sans", BODY), lh), part, None,
                                None, control.hscroll))
        pieces.append(Piece(Run(SORT_GRIP, BODY, MUTED), Rect(row.right - FIELD_PAD - gw, ty, gw, lh), part, None, None,
                            control.hscroll))
        if k:
            pieces.append(Piece(Box(HEADER_FILL), Rect(row.x, row.y, row.width, 1), part, None, None, control.hscroll))
        if on:
            pieces.append(Piece(RoundedBox(CLEAR, 2, FOCUS, 2), row, part, None, None, control.hscroll))
    return tuple(pieces)


def _color_pieces(control: Control, e: Input, value: str | None, focused: bool, expanded: bool) -> tuple[Piece, ...]:
    """A button (role ``button``, value ``#rrggbb``) showing the colour's swatch and code."""
    shown = color_value(e, value)
    rect, inner = control.rect, control.inner
    name = next((n for n, h in PALETTE if h == shown), shown)
    pieces = [_piece(control, RoundedBox(BUTTON_BG, 4, FIELD_EDGE, 1), rect,
                     Semantic("button", control.label, shown, False, True), NodeState(expanded=expanded, focused=focused)),
              _piece(control, Box(_rgba(shown), FIELD_EDGE, 1),
                     Rect(inner.x, rect.y + (rect.height - SWATCH) // 2, SWATCH, SWATCH))]
    text = ellipsize(name, "sans", BODY, max(0, inner.width - SWATCH - FIELD_PAD))
    if text:
        pieces.append(_piece(control, Run(text, BODY, TEXT),
                             Rect(inner.x + SWATCH + FIELD_PAD, inner.y, measure(text, "sans", BODY), inner.height)))
    if focused:
        pieces.append(_ring(control, rect, 6))
    return tuple(pieces)


def _popup_piece(control: Control, primitive: Primitive, rect: Rect, target: str, semantic: Semantic | None = None,
                 state: NodeState | None = None) -> Piece:
    return Piece(primitive, rect, target, semantic, state, control.hscroll)


def suggestion_pieces(control: Control, matches: Sequence[str], pick: int) -> tuple[Piece, ...]:
    """The dropdown of a field's ``matches`` under it (role ``listbox``), each row a
    ``sug:<id>:<i>`` option; row ``pick`` is highlighted (-1: none)."""
    if not matches:
        return ()
    rect = control.rect
    box = Rect(rect.x, rect.bottom + 2, rect.width, POPUP_ROW * len(matches) + 8)
    pieces = [_popup_piece(control, RoundedBox(FIELD_BG, 4, BORDER, 1), box, f"el:{control.id}",
                           Semantic("listbox", f"Suggestions for {control.label}"))]
    lh = line_height("sans", BODY)
    for i, text in enumerate(matches):
        row = Rect(box.x + 4, box.y + 4 + i * POPUP_ROW, box.width - 8, POPUP_ROW)
        target, on = f"sug:{control.id}:{i}", i == pick
        pieces.append(_popup_piece(control, Box(BUTTON_BG if on else FIELD_BG), row, target,
                                   Semantic("option", text, None, False, True), NodeState(selected=on)))
        shown = ellipsize(text, "sans", BODY, row.width - 16)
        if shown:
            pieces.append(_popup_piece(control, Run(shown, BODY, TEXT),
                                       Rect(row.x + 8, row.y + (row.height - lh) // 2, measure(shown, "sans", BODY), lh), target))
    return tuple(pieces)


def calendar_pieces(control: Control, year: int, month: int, chosen: str) -> tuple[Piece, ...]:
    """A month under a date field (role ``dialog``, named by the month): a header with the
    month's name between previous / next buttons (``cal:<id>:prev`` / ``next``), the
    weekdays from Monday, and a button per day (``day:<id>:<YYYY-MM-DD>``, named like
    ``14 March 2026``; the field's ``chosen`` date is selected)."""
    rect = control.rect
    first = days_from_civil(year, month, 1)
    lead, count = weekday(first), days_in_month(year, month)
    weeks = (lead + count + 6) // 7
    lh = line_height("sans", BODY)
    width = 7 * DAY + 2 * CAL_PAD
    box = Rect(rect.x, rect.bottom + 2, width, CAL_PAD * 2 + DAY * (2 + weeks))
    title = f"{MONTH_NAMES[month - 1]} {year}"
    own = f"el:{control.id}"
    pieces = [_popup_piece(control, RoundedBox(FIELD_BG, 6, BORDER, 1), box, own, Semantic("dialog", title))]
    head = Rect(box.x + CAL_PAD, box.y + CAL_PAD, 7 * DAY, DAY)
    tw = measure(title, "sans-bold", BODY)
    pieces.append(_popup_piece(control, Run(title, BODY, TEXT, "sans-bold"),
                               Rect(head.x + (head.width - tw) // 2, head.y + (DAY - lh) // 2, tw, lh), own,
                               Semantic("heading", title)))
    for part, glyph, label, bx in (("prev", "◀", "Previous month", head.x), ("next", "▶", "Next month", head.right - DAY)):
        button, target = Rect(bx, head.y, DAY, DAY), f"cal:{control.id}:{part}"
        pieces.append(_popup_piece(control, RoundedBox(BUTTON_BG, 4), button, target, Semantic("button", label, None, False, True)))
        gw = measure(glyph, "sans", BODY)
        pieces.append(_popup_piece(control, Run(glyph, BODY, TEXT),
                                   Rect(button.x + (DAY - gw) // 2, button.y + (DAY - lh) // 2, gw, lh), target))
    for i, name in enumerate(WEEKDAYS):
        nw = measure(name, "sans", 12)
        pieces.append(_popup_piece(control, Run(name, 12, MUTED),
                                   Rect(head.x + i * DAY + (DAY - nw) // 2, head.bottom + (DAY - lh) // 2, nw, lh), own))
    for day in range(1, count + 1):
        cell = lead + day - 1
        at = Rect(head.x + (cell % 7) * DAY, head.bottom + DAY * (1 + cell // 7), DAY, DAY)
        iso = f"{year:04d}-{month:02d}-{day:02d}"
        on, target = iso == chosen, f"day:{control.id}:{iso}"
        pieces.append(_popup_piece(control, RoundedBox(FOCUS if on else FIELD_BG, DAY // 2), at.inflate(-2), target,
                                   Semantic("button", f"{day} {MONTH_NAMES[month - 1]} {year}", None, False, True),
                                   NodeState(selected=on)))
        label = str(day)
        dw = measure(label, "sans", BODY)
        pieces.append(_popup_piece(control, Run(label, BODY, FIELD_BG if on else TEXT),
                                   Rect(at.x + (DAY - dw) // 2, at.y + (DAY - lh) // 2, dw, lh), target))
    return tuple(pieces)


def palette_pieces(control: Control, chosen: str) -> tuple[Piece, ...]:
    """The :data:`~cwgym.protocol.page.PALETTE` under a colour field (role ``listbox``):
    four rows of four swatches painted in their colours (``swatch:<id>:<i>``, role
    ``option`` named by the colour; the ``chosen`` one selected)."""
    rect = control.rect
    side = 4 * CHIP + 5 * CHIP_GAP
    box = Rect(rect.x, rect.bottom + 2, side, side)
    pieces = [_popup_piece(control, RoundedBox(FIELD_BG, 6, BORDER, 1), box, f"el:{control.id}",
                           Semantic("listbox", f"Colours for {control.label}"))]
    for i, (name, hex_color) in enumerate(PALETTE):
        at = Rect(box.x + CHIP_GAP + (i % 4) * (CHIP + CHIP_GAP), box.y + CHIP_GAP + (i // 4) * (CHIP + CHIP_GAP), CHIP, CHIP)
        on = hex_color == chosen
        pieces.append(_popup_piece(control, RoundedBox(_rgba(hex_color), 4, FOCUS if on else BORDER, 3 if on else 1), at,
                                   f"swatch:{control.id}:{i}", Semantic("option", name, hex_color, False, True),
                                   NodeState(selected=on)))
    return tuple(pieces)
