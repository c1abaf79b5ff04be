"""``spreadsheet``: a spreadsheet in the manner of LibreOffice Calc (one sheet per window).

A window holds one sheet of :data:`~cwgym.apps._formula.MAX_ROWS` rows by
:data:`~cwgym.apps._formula.MAX_COLS` columns (A … AZ). The state keeps only what was
typed, sparse: ``state["cells"]`` maps ``"B3"`` to the raw text (``"12.5"``, ``"=SUM(B1:B2)"``);
values are derived by the formula engine (:mod:`cwgym.apps._formula`) and memoised by
content, so the state stays small and JSON-like.

Layout (content coordinates): the toolbar; the open bar when shown; the formula bar (the
Name Box with the selected cell or range, the Σ button — ✗ and ✓ while editing — and the
formula field showing the raw content of the selected cell); the grid with its column and
row headers and scroll bars (the panes ``pane:grid``, vertical, and ``pane:cols``,
horizontal; only the visible cells are painted); the status bar (a message on the left,
``Average: …; Sum: …`` of the selection on the right).

Control targets (``window:<id>:content:<target>``): the toolbar's ``open``, ``save``,
``save-as``, ``undo``, ``redo``, ``cut``, ``copy``, ``paste``, ``fill-down``,
``sort-asc``, ``sort-desc``; the formula bar's ``name-box``, ``autosum``,
``formula-cancel`` and ``formula-accept`` (while editing), ``formula``; the grid's
``cell:<A1>`` (a drag surface: press selects, drag selects a range), ``cell-editor``
(the in-cell editor), ``col:<A>``, ``row:<1>``, ``corner`` (select all), ``fill`` (the
fill handle, a drag surface), the scroll bars ``pane:grid:<track>:<thumb>:<max>`` and
``hpane:cols:<track>:<thumb>:<max>``; the open bar's ``open-path``, ``open-confirm``,
``open-cancel``; the Save As dialog's ``save-name``, ``save-folder``, ``save-cancel``,
``save-confirm``; the close dialog's ``close-cancel``, ``close-discard``, ``close-save``.

See docs/apps/spreadsheet.md for keys, files, caps and what it does not do.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import itertools
import json
import posixpath
import re
from decimal import ROUND_HALF_UP, Context, Decimal, DecimalException
from typing import Any

from cwgym.apps import _formula as fx
from cwgym.apps import _save_dialog as sd
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord, parse_key
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText
from cwgym.text import line_height, measure, shape

__all__ = ["MAX_CELL", "MAX_CHARS", "MAX_UNDO", "Spreadsheet"]

MAX_ROWS = fx.MAX_ROWS
MAX_COLS = fx.MAX_COLS
#: The most characters one cell holds (typing, pasting or a file past it is refused).
MAX_CELL = 1000
#: The most characters a whole sheet holds (the sum over its cells).
MAX_CHARS = 200_000
#: Undo steps kept.
MAX_UNDO = 100
#: Painted rows and status sums a sheet keeps cached.
VIEWS_KEPT = 4096
#: The name of a new sheet.
UNTITLED = "Untitled 1"
DIRTY_MARK = "• "
#: The native format's name and version (``.cwsheet``).
NATIVE = "cwsheet"
NATIVE_VERSION = 1

TOOLBAR_H = 44
BAR_H = 44
FBAR_H = 40
HEAD_H = 22
ROWHEAD_W = 50
COL_W = 96
ROW_H = 24
SB = 12
STATUS_H = 26
HANDLE = 8
V_PANE = "grid"
H_PANE = "cols"
TOOLBAR = (
    ("open", "Open"),
    ("save", "Save"),
    ("save-as", "Save As…"),
    ("undo", "Undo"),
    ("redo", "Redo"),
    ("cut", "Cut"),
    ("copy", "Copy"),
    ("paste", "Paste"),
    ("fill-down", "Fill Down"),
    ("sort-asc", "Sort Ascending"),
    ("sort-desc", "Sort Descending"),
)
DIALOG_TARGETS = {
    "save-as": ("save-name", "save-folder", "save-cancel", "save-confirm"),
    "close": ("close-cancel", "close-discard", "close-save"),
}
#: Characters after which a click on a cell (or an arrow key) while typing a formula
#: inserts that cell's reference instead of leaving the cell.
_POINT_AFTER = frozenset("=+-*/^&(;,<>:")
_TRAILING_INT = re.compile(r"(.*?)([0-9]+)")


class _Bad(Exception):
    """A file that cannot be opened (the message names the line)."""


# -- cells and ranges ----------------------------------------------------------------------


def _at(name: str) -> tuple[int, int]:
    at = fx.parse_cell(name)
    return at if at is not None else (0, 0)


def _nm(col: int, row: int) -> str:
    return fx.cell_name(col, row)


def _span(state: dict) -> tuple[int, int, int, int]:
    """The selected range ``(c1, r1, c2, r2)`` (the active cell and the anchor's box)."""
    a, b = _at(state["anchor"]), _at(state["sel"])
    return min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])


def _span_name(span: tuple[int, int, int, int]) -> str:
    c1, r1, c2, r2 = span
    if c1 == c2 and r1 == r2:
        return _nm(c1, r1)
    return f"{_nm(c1, r1)}:{_nm(c2, r2)}"


def _used(cells: dict) -> tuple[int, int, int, int] | None:
    """The bounding box of the non-empty cells."""
    if not cells:
        return None
    ats = [_at(n) for n in cells]
    return (
        min(a[0] for a in ats),
        min(a[1] for a in ats),
        max(a[0] for a in ats),
        max(a[1] for a in ats),
    )


def _clamp(v: int, lo: int, hi: int) -> int:
    return max(lo, min(v, hi))


def _chars(cells: dict) -> int:
    return sum(len(v) for v in cells.values())


def _sorted_names(names: Any) -> list[str]:
    return sorted(names, key=lambda n: (_at(n)[1], _at(n)[0]))


# -- showing cells -------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _fit_number(shown: str, width: int) -> str:
    """A number's General text narrowed to ``width`` px the way Calc does: fewer
    decimals, then scientific notation with a shorter mantissa, then ``###``."""
    if measure(shown, "sans", 13) <= width:
        return shown
    try:
        d = Decimal(shown)
    except DecimalException:
        return "###"
    if "E" not in shown and "." in shown:
        decimals = len(shown.split(".")[1])
        for k in range(decimals - 1, -1, -1):
            t = fx.general(d.quantize(Decimal(1).scaleb(-k), rounding=ROUND_HALF_UP))
            if measure(t, "sans", 13) <= width:
                return t
    for k in range(14, -1, -1):
        t = _scientific(d, k)
        if measure(t, "sans", 13) <= width:
            return t
    return "###"


def _scientific(d: Decimal, decimals: int) -> str:
    """``d`` as ``1.43E+07`` with at most ``decimals`` mantissa decimals (rounded half up)."""
    q = Context(prec=decimals + 1, rounding=ROUND_HALF_UP).plus(d)
    mant, exp = format(q, f".{decimals}E").split("E")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}E{'-' if exp.startswith('-') else '+'}{abs(int(exp)):02d}"


def _row_view(sheet: fx.Sheet, row: int, left: int, count: int) -> tuple:
    """``((name, shown, align, spill), ...)`` of the visible cells of a row, memoised on the
    sheet. ``spill`` is how many cells a left-aligned text runs over (empty neighbours)."""
    key = ("row", row, left, count)
    hit = sheet.views.get(key)
    if hit is not None:
        return hit
    raw = sheet.raw
    items = []
    for c in range(left, left + count):
        if (c, row) not in raw:
            items.append([_nm(c, row), "", "l", 1])
            continue
        v = sheet.value(c, row)
        shown = fx.display(v).replace("\n", " ")
        if isinstance(v, bool):
            align = "r"
        elif isinstance(v, Decimal):
            align = "r"
            shown = _fit_number(shown, COL_W - 8)
        elif isinstance(v, fx.Err):
            align = "c"
        else:
            align = "l"
        items.append([_nm(c, row), shown, align, 1])
    # left-aligned text runs over the empty cells to its right (within the visible ones)
    for i, item in enumerate(items):
        if item[2] != "l" or not item[1]:
            continue
        need = measure(item[1], "sans", 13) + 8
        spill = 1
        while (
            spill * COL_W < need and i + spill < len(items) and (left + i + spill, row) not in raw
        ):
            spill += 1
        item[3] = spill
    out = tuple(tuple(x) for x in items)
    _remember(sheet, key, out)
    return out


def _summary(sheet: fx.Sheet, span: tuple[int, int, int, int]) -> str:
    """Calc's status bar: ``Average: 2; Sum: 6`` of the selection's numbers."""
    key = ("sum", span)
    hit = sheet.views.get(key)
    if hit is not None:
        return hit
    total, n = Decimal(0), 0
    for c, r in sheet.cells_in(*span):
        v = sheet.value(c, r)
        if isinstance(v, Decimal):
            total = fx.CTX.add(total, v)
            n += 1
        elif isinstance(v, bool):
            total += int(v)
            n += 1
    avg = fx.general(fx.CTX.divide(total, Decimal(n))) if n else ""
    text = f"Average: {avg}; Sum: {fx.general(total)}"
    _remember(sheet, key, text)
    return text


def _remember(sheet: fx.Sheet, key: Any, value: Any) -> None:
    """Keep a derived view on the sheet (a bounded cache: it is emptied when full)."""
    if len(sheet.views) >= VIEWS_KEPT:
        sheet.views.clear()
    sheet.views[key] = value


# -- geometry ------------------------------------------------------------------------------


class _Geom:
    """Where everything is for a content size, the bars shown and the scroll offsets."""

    __slots__ = (
        "area",
        "bar",
        "cols",
        "fbar",
        "full_cols",
        "full_rows",
        "head_y",
        "htrack",
        "left",
        "rows",
        "status",
        "top",
        "view_h",
        "view_w",
        "vtrack",
        "x0",
        "y0",
    )

    def __init__(
        self, width: int, height: int, state: dict, v_off: int | None, h_off: int | None
    ) -> None:
        y = TOOLBAR_H
        self.bar: Rect | None = None
        if state["open"] is not None:
            self.bar = Rect(0, y, width, BAR_H)
            y += BAR_H
        self.fbar = Rect(0, y, width, FBAR_H)
        y += FBAR_H
        self.head_y = y
        self.x0 = ROWHEAD_W
        self.y0 = y + HEAD_H
        self.view_w = max(COL_W, width - ROWHEAD_W - SB)
        self.view_h = max(ROW_H, height - STATUS_H - SB - self.y0)
        self.full_rows = max(1, self.view_h // ROW_H)
        self.full_cols = max(1, self.view_w // COL_W)
        self.top = _clamp((v_off or 0) // ROW_H, 0, MAX_ROWS - self.full_rows)
        self.left = _clamp((h_off or 0) // COL_W, 0, MAX_COLS - self.full_cols)
        self.rows = min(MAX_ROWS - self.top, -(-self.view_h // ROW_H))
        self.cols = min(MAX_COLS - self.left, -(-self.view_w // COL_W))
        self.area = Rect(self.x0, self.y0, self.view_w, self.view_h)
        self.vtrack = Rect(width - SB, self.y0, SB, self.view_h)
        self.htrack = Rect(self.x0, self.y0 + self.view_h, self.view_w, SB)
        self.status = Rect(0, max(self.y0, height - STATUS_H), width, STATUS_H)

    def cell_rect(self, col: int, row: int) -> Rect:
        return Rect(
            self.x0 + (col - self.left) * COL_W, self.y0 + (row - self.top) * ROW_H, COL_W, ROW_H
        )

    def cell_at(self, x: int, y: int) -> tuple[int, int]:
        col = self.left + (x - self.x0) // COL_W
        row = self.top + (y - self.y0) // ROW_H
        return _clamp(col, 0, MAX_COLS - 1), _clamp(row, 0, MAX_ROWS - 1)

    def visible(self, col: int, row: int) -> bool:
        return self.left <= col < self.left + self.cols and self.top <= row < self.top + self.rows


def _geom(ctx: AppContext, state: dict) -> _Geom:
    return _Geom(ctx.width, ctx.height, state, ctx.scroll_offset(V_PANE), ctx.scroll_offset(H_PANE))


def _toolbar(width: int) -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in TOOLBAR:
        w = measure(label, "sans", 14) + 24
        out.append((name, label, Rect(x, 6, w, 32)))
        x += w + 6
    return out


def _fbar_controls(width: int, fbar: Rect, editing: bool) -> dict[str, Rect]:
    y = fbar.y + 5
    out = {"name-box": Rect(8, y, 104, 30)}
    if editing:
        out["formula-cancel"] = Rect(118, y, 32, 30)
        out["formula-accept"] = Rect(154, y, 32, 30)
    else:
        out["autosum"] = Rect(136, y, 32, 30)
    out["formula"] = Rect(192, y, max(80, width - 200), 30)
    return out


def _bar_controls(width: int, bar: Rect) -> dict[str, Rect]:
    names = (("open-confirm", "Open File"), ("open-cancel", "Cancel"))
    widths = [measure(label, "sans", 14) + 24 for _, label in names]
    field_w = max(160, min(420, width - 16 - sum(widths) - 20))
    out = {"open-path": Rect(8, bar.y + 6, field_w, 32)}
    x = 8 + field_w + 6
    for (name, _), w in zip(names, widths):
        out[name] = Rect(x, bar.y + 6, w, 32)
        x += w + 6
    return out


DIALOG = sd.DialogStyle(
    240,
    440,
    "Save Document?",
    "Name (.csv, .tsv or .cwsheet)",
    (("close-discard", "Don't Save"), ("close-cancel", "Cancel"), ("close-save", "Save")),
)


def _dialog_rects(width: int, height: int, kind: str) -> tuple[Rect, dict[str, Rect]]:
    return sd.dialog_rects(width, height, kind, DIALOG)


def _bar_target(
    prefix: str, name: str, track: int, view: int, total: int, first: int, unit: int
) -> tuple[str, int, int]:
    """A scroll bar's target and thumb ``(target, thumb offset, thumb length)``."""
    pos, thumb, limit = tp.bar_geometry(track, view, total, first, unit)
    return f"{prefix}:{name}:{track}:{thumb}:{limit}", pos, thumb


# -- files ---------------------------------------------------------------------------------


def _resolve(raw: str, home: str, base: str) -> str:
    raw = raw.strip()
    if raw == "~":
        path = home
    elif raw.startswith("~/"):
        path = home + raw[1:]
    elif raw.startswith("/"):
        path = raw
    else:
        path = f"{base.rstrip('/')}/{raw}"
    return posixpath.normpath(path)


def _kind_of(path: str) -> str:
    """``csv``, ``tsv``, ``cwsheet`` or ``other`` (a format this application does not do)."""
    ext = posixpath.splitext(path)[1].lower()
    if ext == ".cwsheet":
        return NATIVE
    if ext in (".tsv", ".tab"):
        return "tsv"
    if ext in (".xlsx", ".xls", ".ods", ".xlsm", ".fods", ".numbers"):
        return "other"
    return "csv"


def _field_raw(text: str) -> str:
    """A CSV field as a cell's raw text: a field that would read as a formula (or starts
    with an apostrophe) is kept as text, like Calc's import without *Evaluate formulas*."""
    if text[:1] in ("=", "'"):
        return "'" + text
    return text


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _parse_delimited(text: str, delimiter: str) -> dict[str, str]:
    # Lines with their endings, split where a file opened with newline="" would be (the
    # simulator reads no host file, so no io.StringIO: a list of lines is what csv needs).
    reader = csv.reader(_LINES.findall(text), delimiter=delimiter, strict=True)
    cells: dict[str, str] = {}
    total = 0
    last = 0
    row = -1
    try:
        for row, fields in enumerate(reader):
            start = last + 1
            last = reader.line_num
            if row >= MAX_ROWS and any(fields):
                raise _Bad(f"line {start}: a sheet has at most {MAX_ROWS} rows")
            for col, value in enumerate(fields):
                if value == "":
                    continue
                if col >= MAX_COLS:
                    raise _Bad(
                        f"line {start}: a sheet has at most {MAX_COLS} columns (A to {fx.col_name(MAX_COLS - 1)})"
                    )
                raw = _field_raw(value)
                if len(raw) > MAX_CELL:
                    raise _Bad(f"line {start}: a cell holds at most {MAX_CELL} characters")
                total += len(raw)
                if total > MAX_CHARS:
                    raise _Bad(f"line {start}: a sheet holds at most {MAX_CHARS} characters")
                cells[_nm(col, row)] = raw
    except csv.Error as exc:
        reason = str(exc)
        if "unexpected end of data" in reason:
            reason = "a quoted field is not closed"
        elif "expected after" in reason:
            reason = "a quote inside a quoted field must be doubled"
        raise _Bad(f"line {last + 1}: {reason}") from None
    return cells


def _parse_native(text: str) -> dict[str, str]:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        raise _Bad(f"line {line}: it is not a {NATIVE} file (not JSON)") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != NATIVE
        or not isinstance(doc.get("cells"), dict)
    ):
        raise _Bad(f"line 1: it is not a {NATIVE} file (no format and cells)")
    if doc.get("version") != NATIVE_VERSION:
        raise _Bad(f"line 1: {NATIVE} version {doc.get('version')!r} is not supported")
    cells: dict[str, str] = {}
    total = 0
    for name, raw in doc["cells"].items():
        at = fx.parse_cell(name) if isinstance(name, str) else None
        if at is None or _nm(*at) != name:
            raise _Bad(
                f"line 1: “{name}” is not a cell of the sheet (A1 to {_nm(MAX_COLS - 1, MAX_ROWS - 1)})"
            )
        if not isinstance(raw, str):
            raise _Bad(f"line 1: cell {name} does not hold text")
        if len(raw) > MAX_CELL:
            raise _Bad(f"line 1: cell {name} holds more than {MAX_CELL} characters")
        total += len(raw)
        if total > MAX_CHARS:
            raise _Bad(f"line 1: a sheet holds at most {MAX_CHARS} characters")
        if raw:
            cells[name] = raw
    return cells


def _decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _Bad(f"line {line} is not UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def _load(ctx: AppContext, path: str) -> tuple[dict[str, str], str]:
    """``(cells, format)`` of the file at ``path``; :class:`_Bad` or :class:`FsError`."""
    kind = _kind_of(path)
    if kind == "other":
        raise _Bad(
            f"this application opens CSV and .{NATIVE} files, not {posixpath.splitext(path)[1]}"
        )
    data = ctx.files().read(path, ctx.home)
    if len(data) > 4 * MAX_CHARS:
        raise _Bad(f"the file is larger than a sheet holds ({MAX_CHARS} characters)")
    text = _decode(data)
    if kind == NATIVE:
        return _parse_native(text), kind
    return _parse_delimited(text, "\t" if kind == "tsv" else ","), kind


def _export_text(sheet: fx.Sheet, raw: str, col: int, row: int) -> str:
    """What a cell writes to CSV: a formula's value (General format), a constant as typed
    (without the apostrophe that marks text)."""
    if fx.is_formula(raw):
        return fx.display(sheet.value(col, row))
    return raw[1:] if raw.startswith("'") else raw


def _csv_bytes(cells: dict, delimiter: str = ",") -> bytes:
    if not cells:
        return b""
    sheet = fx.sheet_for(cells)
    _c1, _r1, c2, r2 = _used(cells) or (0, 0, 0, 0)
    out = _Collect()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    for r in range(r2 + 1):
        writer.writerow(
            [
                _export_text(sheet, cells[n], c, r) if (n := _nm(c, r)) in cells else ""
                for c in range(c2 + 1)
            ]
        )
    return "".join(out.parts).encode("utf-8")


class _Collect:
    """What ``csv.writer`` writes to: the rows' text, kept in memory."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)


def _native_bytes(cells: dict) -> bytes:
    ordered = {n: cells[n] for n in _sorted_names(cells)}
    doc = {"cells": ordered, "format": NATIVE, "version": NATIVE_VERSION}
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _digest(text: str) -> str:
    """What the state keeps of a copied text to know it again on paste."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _tsv(sheet: fx.Sheet, span: tuple[int, int, int, int]) -> str:
    c1, r1, c2, r2 = span
    lines = []
    for r in range(r1, r2 + 1):
        fields = []
        for c in range(c1, c2 + 1):
            v = sheet.value(c, r)
            fields.append(fx.display(v).replace("\t", " ").replace("\n", " ").replace("\r", " "))
        lines.append("\t".join(fields))
    return "\n".join(lines)


# -- filling -------------------------------------------------------------------------------


def _series(raws: list[str | None], count: int) -> list[str | None] | None:
    """The next ``count`` values continuing ``raws`` as Calc's fill handle does, or
    ``None`` when they are no series (then the cells are copied). One number counts up by
    1; several numbers with a constant step continue it; a text ending in a number (``Item
    1``, ``Q01``) counts up keeping its width."""
    texts = [r for r in raws if r is not None and not fx.is_formula(r)]
    if not texts or len(texts) != len(raws):
        return None
    values = [fx.constant(r) for r in texts]
    nums = [v for v in values if isinstance(v, Decimal)]
    if len(nums) == len(values):
        steps = {fx.CTX.subtract(b, a) for a, b in itertools.pairwise(nums)} or {Decimal(1)}
        if len(steps) != 1:
            return None
        step, last = steps.pop(), nums[-1]
        try:
            return [
                fx.general(fx.CTX.add(last, fx.CTX.multiply(step, Decimal(i))))
                for i in range(1, count + 1)
            ]
        except DecimalException:
            return None
    if any(not isinstance(v, str) for v in values) or any(r.startswith("'") for r in texts):
        return None
    parts = [m for r in texts if (m := _TRAILING_INT.fullmatch(r)) is not None]
    if len(parts) != len(texts) or len({m.group(1) for m in parts}) != 1:
        return None
    prefix = parts[0].group(1)
    ints = [int(m.group(2)) for m in parts]
    width = len(parts[-1].group(2))
    steps_i = {b - a for a, b in itertools.pairwise(ints)} or {1}
    if len(steps_i) != 1:
        return None
    step_i = steps_i.pop()
    out: list[str | None] = []
    for i in range(1, count + 1):
        n = ints[-1] + step_i * i
        if n < 0:
            return None
        out.append(f"{prefix}{str(n).zfill(width)}")
    return out


def _fill_plan(
    cells: dict, span: tuple[int, int, int, int], direction: str, count: int, copy: bool
) -> dict[str, str | None]:
    """The cells a fill of ``count`` rows (``down``) or columns (``right``) past the
    range writes: series continued unless ``copy``; formulas copied with their relative
    references moved."""
    c1, r1, c2, r2 = span
    out: dict[str, str | None] = {}
    if direction == "down":
        lines = [[(c, r) for r in range(r1, r2 + 1)] for c in range(c1, c2 + 1)]
        targets = [[(c, r) for r in range(r2 + 1, r2 + 1 + count)] for c in range(c1, c2 + 1)]
    else:
        lines = [[(c, r) for c in range(c1, c2 + 1)] for r in range(r1, r2 + 1)]
        targets = [[(c, r) for c in range(c2 + 1, c2 + 1 + count)] for r in range(r1, r2 + 1)]
    for src, dst in zip(lines, targets):
        raws = [cells.get(_nm(*at)) for at in src]
        series = None if copy else _series(raws, len(dst))
        for i, at in enumerate(dst):
            if series is not None:
                out[_nm(*at)] = series[i]
                continue
            k = i % len(src)
            raw = raws[k]
            if raw is not None and fx.is_formula(raw):
                raw = fx.shift(raw, at[1] - src[k][1], at[0] - src[k][0])
            out[_nm(*at)] = raw
    return out


def _header_kept(cells: dict, used: tuple[int, int, int, int]) -> bool:
    """Calc's guess of a header row: every cell of the first row is text, and the second
    row holds something that is not text."""
    c1, r1, c2, _r2 = used

    def text(raw: str | None) -> bool:
        if raw is None:
            return True
        return not fx.is_formula(raw) and isinstance(fx.constant(raw), str)

    first = [cells.get(_nm(c, r1)) for c in range(c1, c2 + 1)]
    second = [cells.get(_nm(c, r1 + 1)) for c in range(c1, c2 + 1)]
    return all(text(x) for x in first) and any(x is not None and not text(x) for x in second)


# -- the application -----------------------------------------------------------------------


def _new_sheet(path: str | None, cells: dict, kind: str) -> dict[str, Any]:
    return {
        "path": path,
        "format": kind,
        "cells": cells,
        "dirty": False,
        "sel": "A1",
        "anchor": "A1",
        "edit": None,
        "undo": [],
        "redo": [],
        "clip": None,
        "tab_from": None,
    }


class Spreadsheet(App):
    id = "spreadsheet"
    label = "LibreOffice Calc"
    kind = "native"
    default_size = (1040, 660)
    min_size = (920, 420)
    opens = (".csv", ".tsv", ".cwsheet")
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        label = ctx.theme.label(self.id, self.label) if ctx.theme is not None else self.label
        state = _new_sheet(None, {}, "csv")
        state.update(
            {
                "label": label,
                "focus": "grid",
                "namebox": None,
                "open": None,
                "dialog": None,
                "status": "",
                "error": False,
                "drag": None,
                "clicks": None,
            }
        )
        if argument:
            path = _resolve(argument, ctx.home, ctx.cwd)
            files = ctx.files()
            if files.is_dir(path, ctx.home):
                raise AppError(f"{path} is a folder, not a spreadsheet")
            if not files.exists(path, ctx.home):
                if _kind_of(path) == "other":
                    raise AppError(
                        f"{posixpath.basename(path)}: this application opens CSV and .{NATIVE} files"
                    )
                state.update(_new_sheet(path, {}, _kind_of(path)))
                state["status"] = (
                    f"“{posixpath.basename(path)}” is new: it is created when you save."
                )
                return state
            try:
                cells, kind = _load(ctx, path)
            except FsError as exc:
                state["status"], state["error"] = (
                    f"Could not open “{posixpath.basename(path)}”: {exc.strerror_text}.",
                    True,
                )
                return state
            except _Bad as exc:
                state["status"], state["error"] = (
                    f"Could not open “{posixpath.basename(path)}”: {exc}.",
                    True,
                )
                return state
            state.update(_new_sheet(path, cells, kind))
            add_recent(ctx.machine, path, self.id)
        return state

    def title(self, state: dict) -> str:
        return f"{DIRTY_MARK if state['dirty'] else ''}{self._doc_name(state)} — {state['label']}"

    def document(self, state: dict) -> str:
        return state["path"] or ""

    @staticmethod
    def _doc_name(state: dict) -> str:
        return posixpath.basename(state["path"]) if state["path"] else UNTITLED

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        g = _Geom(p.width, p.height, state, p.scroll_offset(V_PANE), p.scroll_offset(H_PANE))
        sheet = fx.sheet_for(state["cells"])
        dialog = state["dialog"]
        edit = state["edit"]
        p.reuse(
            ("ss-toolbar", bool(state["undo"]), bool(state["redo"]), state["dirty"]),
            _paint_toolbar,
            bool(state["undo"]),
            bool(state["redo"]),
            state["dirty"],
        )
        if g.bar is not None:
            self._paint_open_bar(p, state, g.bar)
        self._paint_formula_bar(p, state, g, sheet)
        span = _span(state)
        active = _at(state["sel"])
        # headers
        p.reuse(
            ("ss-colheads", g.left, g.cols, g.head_y, span[0], span[2]), _paint_col_heads, g, span
        )
        p.reuse(
            ("ss-rowheads", g.top, g.rows, g.y0, g.view_h, span[1], span[3]),
            _paint_row_heads,
            g,
            span,
        )
        p.paint(
            Box(pal.get("header", pal["button"]), pal["border"], 1),
            Rect(0, g.head_y, ROWHEAD_W + 1, HEAD_H + 1),
            key="corner",
            target="corner",
            semantic=Semantic("button", "Select All", None, False, True),
        )
        # cells
        multi = span if span[0] != span[2] or span[1] != span[3] else None
        with p.clipped(g.area):
            views = tuple(_row_view(sheet, g.top + i, g.left, g.cols) for i in range(g.rows))
            p.reuse(
                ("ss-cells", g.top, g.left, g.x0, g.y0, views, multi),
                _paint_cells,
                g.top,
                g.left,
                g.x0,
                g.y0,
                views,
                multi,
            )
            self._paint_selection(p, state, g, span, active)
        # scroll panes and bars
        p.scroll(V_PANE, g.area, MAX_ROWS * ROW_H, g.top * ROW_H)
        p.scroll(H_PANE, g.area, MAX_COLS * COL_W, g.left * COL_W, horizontal=True)
        _paint_bars(p, g)
        # status bar
        st = g.status
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        ty = st.y + (st.height - line_height("sans", 13)) // 2
        summary = _summary(sheet, span)
        sw = measure(summary, "sans", 13)
        p.text(summary, st.right - sw - 12, ty, size=13, color=pal["muted"], key="summary")
        if state["status"]:
            color = ERROR if state["error"] else pal["muted"]
            width = max(0, st.width - sw - 40)
            p.paint(
                UiText(state["status"], 13, color),
                Rect(
                    10,
                    ty,
                    min(width, measure(state["status"], "sans", 13)),
                    line_height("sans", 13),
                ),
                key="status",
                target="message",
                semantic=Semantic("alert" if state["error"] else "status", state["status"]),
                clip=Rect(10, st.y, width, st.height),
            )
        # focus
        if dialog is None and state["focus"] == "grid" and edit is None:
            raw = state["cells"].get(state["sel"], "")
            rect = g.cell_rect(*active)
            p.focus(
                f"cell:{state['sel']}",
                role="gridcell",
                label=state["sel"],
                value=raw,
                caret=Rect(rect.x, rect.y, 1, ROW_H) if g.visible(*active) else None,
            )
        if dialog is not None:
            self._paint_dialog(p, state, dialog)

    def _paint_open_bar(self, p: Painter, state: dict, bar: Rect) -> None:
        pal = p.palette
        p.box(bar, pal["window"], key="bar-bg")
        controls = _bar_controls(p.width, bar)
        focused = state["dialog"] is None and state["focus"] == "open-path"
        tp.paint_field(
            p,
            "open-path",
            state["open"],
            controls["open-path"],
            label="File to open",
            focused=focused,
            placeholder="Type a path, like ~/Documents/budget.csv",
        )
        p.button("open-confirm", "Open File", controls["open-confirm"], suggested=True)
        p.button("open-cancel", "Cancel", controls["open-cancel"])

    def _paint_formula_bar(self, p: Painter, state: dict, g: _Geom, sheet: fx.Sheet) -> None:
        pal = p.palette
        edit = state["edit"]
        no_dialog = state["dialog"] is None
        p.box(g.fbar, pal["window"], key="fbar-bg")
        controls = _fbar_controls(p.width, g.fbar, edit is not None)
        namebox = (
            state["namebox"] if state["namebox"] is not None else tp.field(_span_name(_span(state)))
        )
        tp.paint_field(
            p,
            "name-box",
            namebox,
            controls["name-box"],
            label="Name Box",
            focused=no_dialog and state["focus"] == "name-box",
        )
        if edit is not None:
            _glyph_button(p, "formula-cancel", "✗", "Cancel", controls["formula-cancel"])
            _glyph_button(p, "formula-accept", "✓", "Accept", controls["formula-accept"])
            f = {"text": edit["text"], "caret": edit["caret"], "anchor": edit["anchor"]}
            focused = no_dialog and edit["where"] == "formula" and state["focus"] == "grid"
        else:
            _glyph_button(p, "autosum", "Σ", "Sum", controls["autosum"])
            f = tp.field(state["cells"].get(state["sel"], ""))
            focused = False
        tp.paint_field(p, "formula", f, controls["formula"], label="Formula", focused=focused)

    def _paint_selection(
        self, p: Painter, state: dict, g: _Geom, span: tuple, active: tuple[int, int]
    ) -> None:
        pal = p.palette
        c1, r1, c2, r2 = span
        # the range's outline and the active cell's frame
        x1 = g.x0 + (c1 - g.left) * COL_W
        y1 = g.y0 + (r1 - g.top) * ROW_H
        x2 = g.x0 + (c2 + 1 - g.left) * COL_W
        y2 = g.y0 + (r2 + 1 - g.top) * ROW_H
        if (c1, r1) != (c2, r2):
            p.paint(
                Box((0, 0, 0, 0), pal["accent"], 1),
                Rect(x1, y1, x2 - x1 + 1, y2 - y1 + 1),
                key="range-outline",
            )
        ar = g.cell_rect(*active)
        p.paint(
            Box((0, 0, 0, 0), pal["accent"], 2),
            Rect(ar.x, ar.y, COL_W + 1, ROW_H + 1),
            key="active-frame",
        )
        drag = state["drag"]
        if isinstance(drag, dict) and drag.get("kind") == "fill" and drag.get("to"):
            direction, n = drag["to"]
            fx2 = x2 + (n * COL_W if direction == "right" else 0)
            fy2 = y2 + (n * ROW_H if direction == "down" else 0)
            p.paint(
                Box((0, 0, 0, 0), pal["text"], 1),
                Rect(x1, y1, fx2 - x1 + 1, fy2 - y1 + 1),
                key="fill-preview",
            )
        edit = state["edit"]
        if edit is None:
            if g.left <= c2 < g.left + g.cols and g.top <= r2 < g.top + g.rows:
                p.paint(
                    Box(pal["accent"], pal["field"], 1),
                    Rect(x2 - HANDLE // 2, y2 - HANDLE // 2, HANDLE, HANDLE),
                    key="fill-handle",
                    target="fill",
                    semantic=Semantic("button", "Fill handle", None, False, False),
                )
            return
        # the in-cell editor
        if edit["where"] != "cell":
            return
        ec = _at(edit["cell"])
        if not g.visible(*ec):
            return
        r = g.cell_rect(*ec)
        text = edit["text"]
        width = min(
            max(COL_W + 1, measure(text, "sans", 13) + 12), max(COL_W + 1, g.x0 + g.view_w - r.x)
        )
        rect = Rect(r.x, r.y, width, ROW_H + 1)
        focused = state["dialog"] is None and state["focus"] == "grid"
        p.paint(
            Box(pal["field"], pal["accent"], 2),
            rect,
            key="cell-editor",
            target="cell-editor",
            semantic=Semantic("textbox", f"Cell {edit['cell']}", text, False, True),
            state=NodeState(focused=True) if focused else None,
        )
        h = line_height("sans", 13)
        ty = r.y + (ROW_H - h) // 2
        inner = Rect(rect.x + 4, rect.y + 2, rect.width - 8, rect.height - 4)
        run = None
        if text:
            run = shape(text, "sans", 13)
            s, e = _field_span(edit)
            if s != e:
                xa, xb = run.caret_x(s), run.caret_x(e)
                p.paint(
                    Box(pal["selection"]),
                    Rect(inner.x + xa, ty, xb - xa, h),
                    key="cell-editor-sel",
                    clip=inner,
                )
            p.paint(
                UiText(text, 13, pal["text"]),
                Rect(inner.x, ty, run.width, h),
                key="cell-editor-text",
                clip=inner,
            )
        if focused:
            c = _clamp(edit["caret"], 0, len(text))
            cx = inner.x + (run.caret_x(c) if run is not None else 0)
            caret = Rect(min(cx, inner.right), ty, 1, h)
            p.paint(Box(pal["text"]), caret, key="cell-editor-caret", clip=inner)
            p.focus(
                "cell-editor",
                role="textbox",
                label=f"Cell {edit['cell']}",
                value=text,
                caret=caret,
                column=c,
                offset=c,
                text_entry=True,
            )

    def _paint_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        sd.paint_dialog(p, dialog, state["focus"], DIALOG, f"Save changes to “{self._doc_name(state)}” before closing?")

    # -- changing cells ----------------------------------------------------------------
    def _change(
        self,
        state: dict,
        changes: dict[str, str | None],
        kind: str,
        sel_after: list[str] | None = None,
    ) -> bool:
        """Write ``changes`` (``None`` or ``""`` empties a cell) as one undo step; refuses
        (:class:`InvalidInput`) past the caps before changing anything."""
        cells = state["cells"]
        diff = []
        grow = 0
        for name in _sorted_names(changes):
            new = changes[name] or None
            old = cells.get(name)
            if new == old:
                continue
            if new is not None and len(new) > MAX_CELL:
                raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
            grow += len(new or "") - len(old or "")
            diff.append([name, old, new])
        if not diff:
            if sel_after is not None:
                state["sel"], state["anchor"] = sel_after
            return False
        if grow > 0 and _chars(cells) + grow > MAX_CHARS:
            raise InvalidInput(f"a sheet holds at most {MAX_CHARS} characters")
        before = [state["sel"], state["anchor"]]
        for name, _old, new in diff:
            if new is None:
                cells.pop(name, None)
            else:
                cells[name] = new
        if sel_after is not None:
            state["sel"], state["anchor"] = sel_after
        undo = state["undo"]
        undo.append(
            {
                "kind": kind,
                "cells": diff,
                "sel": before,
                "sel_after": [state["sel"], state["anchor"]],
            }
        )
        del undo[:-MAX_UNDO]
        state["redo"] = []
        state["dirty"] = True
        return True

    def _undo(self, ctx: AppContext, state: dict) -> bool:
        if not state["undo"]:
            state["status"], state["error"] = "Nothing to undo.", False
            return False
        step = state["undo"].pop()
        cells = state["cells"]
        for name, old, _new in step["cells"]:
            if old is None:
                cells.pop(name, None)
            else:
                cells[name] = old
        state["sel"], state["anchor"] = step["sel"]
        state["redo"].append(step)
        state["dirty"] = True
        state["status"], state["error"] = "", False
        self._reveal(ctx, state)
        return True

    def _redo(self, ctx: AppContext, state: dict) -> bool:
        if not state["redo"]:
            state["status"], state["error"] = "Nothing to redo.", False
            return False
        step = state["redo"].pop()
        cells = state["cells"]
        for name, _old, new in step["cells"]:
            if new is None:
                cells.pop(name, None)
            else:
                cells[name] = new
        state["sel"], state["anchor"] = step["sel_after"]
        state["undo"].append(step)
        state["dirty"] = True
        state["status"], state["error"] = "", False
        self._reveal(ctx, state)
        return True

    # -- selection and scrolling -------------------------------------------------------
    def _select(self, state: dict, col: int, row: int, extend: bool = False) -> None:
        col, row = _clamp(col, 0, MAX_COLS - 1), _clamp(row, 0, MAX_ROWS - 1)
        state["sel"] = _nm(col, row)
        if not extend:
            state["anchor"] = state["sel"]
        state["namebox"] = None

    def _reveal(self, ctx: AppContext, state: dict, name: str | None = None) -> None:
        """Scroll the least that brings the cell ``name`` (the active one) into view."""
        g = _geom(ctx, state)
        col, row = _at(name or state["sel"])
        top, left = g.top, g.left
        if row < top:
            top = row
        elif row >= top + g.full_rows:
            top = row - g.full_rows + 1
        if col < left:
            left = col
        elif col >= left + g.full_cols:
            left = col - g.full_cols + 1
        self._scroll_to(ctx, g, top, left)

    def _scroll_to(self, ctx: AppContext, g: _Geom, top: int, left: int) -> bool:
        top = _clamp(top, 0, MAX_ROWS - g.full_rows)
        left = _clamp(left, 0, MAX_COLS - g.full_cols)
        moved = False
        if top * ROW_H != (ctx.scroll_offset(V_PANE) or 0):
            ctx.set_scroll_offset(V_PANE, top * ROW_H or None)
            moved = True
        if left * COL_W != (ctx.scroll_offset(H_PANE) or 0):
            ctx.set_scroll_offset(H_PANE, left * COL_W or None)
            moved = True
        return moved

    def _move(self, ctx: AppContext, state: dict, dc: int, dr: int, extend: bool = False) -> None:
        col, row = _at(state["sel"])
        self._select(state, col + dc, row + dr, extend)
        self._reveal(ctx, state)

    def _step(self, ctx: AppContext, state: dict, name: str) -> None:
        """Enter, Shift+Enter, Tab, Shift+Tab. After a run of Tabs, Enter goes down to the
        column where the run started (a row typed across, then the next row), as in Calc."""
        col, row = _at(state["sel"])
        run = state["tab_from"]
        if name == "Tab":
            self._move(ctx, state, 1, 0)
            origin = run["col"] if run is not None and run["at"] == _nm(col, row) else col
            state["tab_from"] = {"col": origin, "at": state["sel"]}
            return
        if name == "Enter" and run is not None and run["at"] == state["sel"]:
            self._select(state, run["col"], row + 1)
            state["tab_from"] = None
            self._reveal(ctx, state)
            return
        state["tab_from"] = None
        self._move(
            ctx, state, *{"Enter": (0, 1), "Shift+Enter": (0, -1), "Shift+Tab": (-1, 0)}[name]
        )

    def _jump(self, state: dict, dc: int, dr: int) -> tuple[int, int]:
        """Ctrl+arrow: to the edge of the block of data, or to the next data, or the sheet's edge."""
        cells = state["cells"]
        col, row = _at(state["sel"])

        def filled(c: int, r: int) -> bool:
            return _nm(c, r) in cells

        def inside(c: int, r: int) -> bool:
            return 0 <= c < MAX_COLS and 0 <= r < MAX_ROWS

        nc, nr = col + dc, row + dr
        if not inside(nc, nr):
            return col, row
        if filled(col, row) and filled(nc, nr):
            while inside(nc + dc, nr + dr) and filled(nc + dc, nr + dr):
                nc, nr = nc + dc, nr + dr
            return nc, nr
        while inside(nc, nr) and not filled(nc, nr):
            if not inside(nc + dc, nr + dr):
                return nc, nr
            nc, nr = nc + dc, nr + dr
        return nc, nr

    # -- editing a cell ----------------------------------------------------------------
    def _start_edit(
        self, state: dict, text: str | None, where: str = "cell", mode: str = "enter"
    ) -> None:
        """Edit the active cell: ``text`` replaces its content (``None`` keeps it)."""
        state["anchor"] = state["sel"]
        current = state["cells"].get(state["sel"], "")
        value = current if text is None else text
        state["edit"] = {
            "cell": state["sel"],
            "text": value,
            "caret": len(value),
            "anchor": None,
            "where": where,
            "mode": mode,
            "point": None,
        }
        state["focus"] = "grid"
        state["namebox"] = None
        state["status"], state["error"] = "", False

    def _commit(self, ctx: AppContext, state: dict) -> None:
        edit = state["edit"]
        if edit is None:
            return
        text = edit["text"]
        raw = fx.normalize(text) if fx.is_formula(text) else text
        if len(raw) > MAX_CELL:
            raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
        self._change(state, {edit["cell"]: raw}, "edit")
        state["edit"] = None
        state["sel"] = state["anchor"] = edit["cell"]

    def _cancel_edit(self, state: dict) -> None:
        edit = state["edit"]
        if edit is not None:
            state["sel"] = state["anchor"] = edit["cell"]
        state["edit"] = None

    def _edit_apply(
        self, ctx: AppContext, state: dict, chord: Chord | None, text: str | None = None
    ) -> bool:
        """Run a field key (or insert ``text``) on the cell being edited, within the cap."""
        edit = state["edit"]
        f = {"text": edit["text"], "caret": edit["caret"], "anchor": edit["anchor"]}
        if text is not None:
            s, e = _field_span(f)
            if len(f["text"]) - (e - s) + len(text) > MAX_CELL:
                raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
            tp.field_type(f, text)
            taken = True
        else:
            if chord is not None and (chord.name in (ctx.shortcut("Primary+v"), "Shift+Insert")):
                clip = ctx.clipboard.replace("\r\n", "\n").split("\n")[0].replace("\t", " ")
                s, e = _field_span(f)
                if len(f["text"]) - (e - s) + len(clip) > MAX_CELL:
                    raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
                tp.field_type(f, clip)
                taken = True
            else:
                taken = tp.field_key(ctx, f, chord)
        if len(f["text"]) > MAX_CELL:
            raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
        if f["text"] != edit["text"]:
            edit["point"] = None
        edit.update(f)
        return taken

    def _can_point(self, edit: dict) -> bool:
        text = edit["text"]
        if not fx.is_formula(text) and text != "=":
            return False
        s, e = _field_span(edit)
        if s != e:
            return False
        pt = edit["point"]
        if pt is not None and edit["caret"] == pt["end"]:
            return True
        before = text[: edit["caret"]].rstrip(" ")
        return bool(before) and before[-1] in _POINT_AFTER

    def _point(self, state: dict, target: str, extend: bool = False) -> None:
        """Put the reference of ``target`` (a range from the pointing's anchor when
        ``extend``) into the formula being typed, at the caret."""
        edit = state["edit"]
        pt = edit["point"]
        if pt is not None and edit["caret"] == pt["end"]:
            start, end = pt["start"], pt["end"]
            origin = pt["from"] if extend else target
        else:
            start = end = edit["caret"]
            origin = target
        a, b = _at(origin), _at(target)
        span = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        ref = _span_name(span)
        text = edit["text"]
        new = text[:start] + ref + text[end:]
        if len(new) > MAX_CELL:
            raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
        edit["text"] = new
        edit["caret"] = start + len(ref)
        edit["anchor"] = None
        edit["point"] = {"start": start, "end": start + len(ref), "from": origin, "to": target}

    # -- commands ----------------------------------------------------------------------
    def _clear(self, state: dict) -> None:
        c1, r1, c2, r2 = _span(state)
        sheet_cells = state["cells"]
        names = [n for n in sheet_cells if c1 <= _at(n)[0] <= c2 and r1 <= _at(n)[1] <= r2]
        self._change(state, dict.fromkeys(names), "clear")

    def _copy(self, ctx: AppContext, state: dict, cut: bool) -> None:
        """Put the selection on the clipboard as tab-separated values (what the cells show)
        and remember its cells (sparse, by offset) and the text's digest for a paste."""
        span = _span(state)
        c1, r1, c2, r2 = span
        cells = state["cells"]
        sheet = fx.sheet_for(cells)
        text = _tsv(sheet, span)
        kept = {f"{c - c1},{r - r1}": cells[_nm(c, r)] for c, r in sheet.cells_in(c1, r1, c2, r2)}
        if cut:
            self._clear(state)
            if state["undo"] and state["undo"][-1]["kind"] == "clear":
                state["undo"][-1]["kind"] = "cut"
        ctx.clipboard = text
        state["clip"] = {
            "digest": _digest(text),
            "origin": [c1, r1],
            "size": [c2 - c1 + 1, r2 - r1 + 1],
            "cells": kept,
            "cut": cut,
        }
        n = (c2 - c1 + 1) * (r2 - r1 + 1)
        state["status"], state["error"] = (
            f"{'Cut' if cut else 'Copied'} {_span_name(span)} ({n} cell{'s' if n != 1 else ''}).",
            False,
        )

    def _paste(self, ctx: AppContext, state: dict) -> None:
        text = ctx.clipboard
        clip = state["clip"]
        span = _span(state)
        c0, r0 = span[0], span[1]
        ours = clip is not None and clip["digest"] == _digest(text)
        if ours:
            width, height = clip["size"]
            kept = clip["cells"]
            oc, orow = clip["origin"]
            adjust = not clip["cut"]

            def raw_at(j: int, i: int) -> str:
                return kept.get(f"{j},{i}", "")

        else:
            body = text.replace("\r\n", "\n").replace("\r", "\n")
            if body.endswith("\n"):
                body = body[:-1]
            if body == "":
                return
            rows = [line.split("\t") for line in body.split("\n")]
            height, width = len(rows), max(len(r) for r in rows)
            oc, orow, adjust = c0, r0, False

            def raw_at(j: int, i: int) -> str:
                return rows[i][j] if j < len(rows[i]) else ""

        # one value pasted over a range fills the range
        if height == 1 and width == 1 and (span[2] > span[0] or span[3] > span[1]):
            targets = [
                (c, r) for r in range(span[1], span[3] + 1) for c in range(span[0], span[2] + 1)
            ]
            block = {at: (raw_at(0, 0), at[0] - oc, at[1] - orow) for at in targets}
        else:
            if c0 + width > MAX_COLS or r0 + height > MAX_ROWS:
                raise InvalidInput(
                    f"the pasted cells would go past the sheet's end ({_nm(MAX_COLS - 1, MAX_ROWS - 1)})"
                )
            block = {
                (c0 + j, r0 + i): (raw_at(j, i), c0 - oc, r0 - orow)
                for i in range(height)
                for j in range(width)
            }
        changes: dict[str, str | None] = {}
        for (c, r), (raw, dc, dr) in block.items():
            if len(raw) > MAX_CELL:
                raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
            if adjust and fx.is_formula(raw):
                raw = fx.shift(raw, dr, dc)
            changes[_nm(c, r)] = raw
        last_c = max(c for c, _r in block)
        last_r = max(r for _c, r in block)
        self._change(state, changes, "paste", [_nm(c0, r0), _nm(last_c, last_r)])
        if ours and clip["cut"]:
            state["clip"] = None  # a cut pastes once
        state["status"], state["error"] = "", False

    def _fill(
        self,
        ctx: AppContext,
        state: dict,
        direction: str,
        count: int,
        copy: bool,
        span: tuple | None = None,
    ) -> None:
        span = span or _span(state)
        c1, r1, c2, r2 = span
        if direction == "down":
            count = min(count, MAX_ROWS - 1 - r2)
        else:
            count = min(count, MAX_COLS - 1 - c2)
        if count <= 0:
            return
        changes = _fill_plan(state["cells"], span, direction, count, copy)
        end = _nm(c2, r2 + count) if direction == "down" else _nm(c2 + count, r2)
        self._change(state, changes, "fill", [_nm(c1, r1), end])
        state["sel"], state["anchor"] = _nm(c1, r1), end
        state["status"], state["error"] = "", False

    def _fill_down(self, ctx: AppContext, state: dict, direction: str = "down") -> None:
        """Primary+d (down) / Primary+r (right): copy the first row (column) of the
        selection into the rest, or with one row (column) selected, the one above (left)."""
        c1, r1, c2, r2 = _span(state)
        if direction == "down":
            if r1 == r2:
                if r1 == 0:
                    return
                src, count = (c1, r1 - 1, c2, r1 - 1), 1
            else:
                src, count = (c1, r1, c2, r1), r2 - r1
        else:
            if c1 == c2:
                if c1 == 0:
                    return
                src, count = (c1 - 1, r1, c1 - 1, r2), 1
            else:
                src, count = (c1, r1, c1, r2), c2 - c1
        sel = [state["sel"], state["anchor"]]
        self._fill(ctx, state, direction, count, True, src)
        state["sel"], state["anchor"] = sel
        if state["undo"]:
            state["undo"][-1]["sel_after"] = sel

    def _sort(self, ctx: AppContext, state: dict, descending: bool) -> None:
        cells = state["cells"]
        used = _used(cells)
        if used is None:
            state["status"], state["error"] = "There is nothing to sort.", True
            return
        c1, r1, c2, r2 = used
        col = _at(state["sel"])[0]
        if not c1 <= col <= c2:
            state["status"], state["error"] = (
                "Select a cell in a column of the data to sort by it.",
                True,
            )
            return
        header = _header_kept(cells, used)
        first = r1 + 1 if header else r1
        if first >= r2:
            state["status"], state["error"] = "There is only one row to sort.", False
            return
        sheet = fx.sheet_for(cells)
        rows = list(range(first, r2 + 1))
        full = [r for r in rows if _nm(col, r) in cells]
        empty = [r for r in rows if _nm(col, r) not in cells]
        # stable both ways: rows with equal keys keep their order
        full.sort(key=lambda r: fx.sort_key(sheet.value(col, r)), reverse=descending)
        order = full + empty
        changes: dict[str, str | None] = {}
        for dest, src in zip(rows, order):
            for c in range(c1, c2 + 1):
                raw = cells.get(_nm(c, src))
                if raw is not None and fx.is_formula(raw):
                    raw = fx.shift(raw, dest - src, 0)
                changes[_nm(c, dest)] = raw
        self._change(state, changes, "sort")
        what = "descending" if descending else "ascending"
        kept = f", keeping the header row {r1 + 1}" if header else ""
        state["status"], state["error"] = (
            f"Sorted rows {first + 1}–{r2 + 1} by column {fx.col_name(col)}, {what}{kept}.",
            False,
        )

    def _autosum(self, ctx: AppContext, state: dict) -> None:
        """Σ: propose ``=SUM(…)`` of the numbers right above the active cell (else to its
        left) and leave it for Enter, as Calc's AutoSum does."""
        cells = state["cells"]
        col, row = _at(state["sel"])

        def number(c: int, r: int) -> bool:
            raw = cells.get(_nm(c, r))
            if raw is None:
                return False
            if fx.is_formula(raw):
                return isinstance(fx.sheet_for(cells).value(c, r), Decimal)
            return isinstance(fx.constant(raw), Decimal)

        ref = ""
        r = row - 1
        while r >= 0 and _nm(col, r) not in cells:
            r -= 1
        if r >= 0 and number(col, r):
            end = r
            while r - 1 >= 0 and number(col, r - 1):
                r -= 1
            ref = _span_name((col, r, col, end))
        else:
            c = col - 1
            if c >= 0 and number(c, row):
                end = c
                while c - 1 >= 0 and number(c - 1, row):
                    c -= 1
                ref = _span_name((c, row, end, row))
        self._start_edit(state, f"=SUM({ref})", mode="edit")
        edit = state["edit"]
        if ref:
            edit["caret"] = len(edit["text"])
        else:
            edit["caret"] = len(edit["text"]) - 1

    # -- files -------------------------------------------------------------------------
    def _write(self, ctx: AppContext, state: dict, path: str) -> str | None:
        kind = _kind_of(path)
        if kind == "other":
            return f"this application saves .csv, .tsv or .{NATIVE} files, not {posixpath.splitext(path)[1]}"
        cells = state["cells"]
        data = (
            _native_bytes(cells)
            if kind == NATIVE
            else _csv_bytes(cells, "\t" if kind == "tsv" else ",")
        )
        try:
            ctx.files().write(path, ctx.home, data)
        except FsError as exc:
            return exc.strerror_text
        state["path"] = path
        state["format"] = kind
        state["dirty"] = False
        formulas = kind != NATIVE and any(fx.is_formula(v) for v in cells.values())
        note = " (formulas as their values)" if formulas else ""
        state["status"], state["error"] = f"Saved “{posixpath.basename(path)}”{note}.", False
        add_recent(ctx.machine, path, self.id)
        return None

    def _save(self, ctx: AppContext, state: dict, then: str | None = None) -> bool:
        if state["edit"] is not None:
            self._commit(ctx, state)
        if state["path"] is None or _kind_of(state["path"]) == "other":
            self._open_save_as(ctx, state, then)
            return False
        problem = self._write(ctx, state, state["path"])
        if problem is not None:
            state["status"], state["error"] = (
                f"Could not save “{self._doc_name(state)}”: {problem}.",
                True,
            )
            return False
        return True

    def _open_save_as(self, ctx: AppContext, state: dict, then: str | None = None) -> None:
        if state["edit"] is not None:
            self._commit(ctx, state)
        if state["path"]:
            folder, name = posixpath.split(state["path"])
        else:
            name = f"{UNTITLED}.csv"
            docs = f"{ctx.home}/Documents"
            folder = docs if ctx.files().is_dir(docs, ctx.home) else ctx.home
        shown = (
            "~" + folder[len(ctx.home) :]
            if folder == ctx.home or folder.startswith(ctx.home + "/")
            else folder
        )
        stem = len(posixpath.splitext(name)[0])
        namefield = tp.field(name)
        namefield["anchor"], namefield["caret"] = 0, stem
        state["dialog"] = {
            "kind": "save-as",
            "name": namefield,
            "folder": tp.field(shown),
            "error": "",
            "then": then,
        }
        state["focus"] = "save-name"

    def _confirm_save_as(self, ctx: AppContext, state: dict) -> None:
        dialog = state["dialog"]
        name = dialog["name"]["text"].strip()
        folder_raw = dialog["folder"]["text"].strip() or "~"
        if not name:
            dialog["error"] = "Type a name for the spreadsheet."
            return
        if "/" in name or name in (".", ".."):
            dialog["error"] = "A file name cannot contain “/”."
            return
        if _kind_of(name) == "other":
            dialog["error"] = (
                f"Save as .csv, .tsv or .{NATIVE}: {posixpath.splitext(name)[1]} is not written here."
            )
            return
        folder = _resolve(folder_raw, ctx.home, ctx.home)
        if not ctx.files().is_dir(folder, ctx.home):
            dialog["error"] = f"There is no folder “{folder_raw}”."
            return
        problem = self._write(ctx, state, posixpath.join(folder, name))
        if problem is not None:
            dialog["error"] = f"Could not save “{name}”: {problem}."
            return
        state["dialog"] = None
        state["focus"] = "grid"
        if dialog["then"] == "close":
            ctx.close()

    def _show_open(self, ctx: AppContext, state: dict) -> None:
        if state["edit"] is not None:
            self._commit(ctx, state)
        state["open"] = tp.field("")
        state["focus"] = "open-path"

    def _do_open(self, ctx: AppContext, state: dict) -> None:
        raw = state["open"]["text"].strip()
        if not raw:
            state["status"], state["error"] = "Type the path of a spreadsheet to open.", True
            return
        base = posixpath.dirname(state["path"]) if state["path"] else ctx.home
        path = _resolve(raw, ctx.home, base)
        try:
            cells, kind = _load(ctx, path)
        except FsError as exc:
            state["status"], state["error"] = f"Could not open “{raw}”: {exc.strerror_text}.", True
            return
        except _Bad as exc:
            state["status"], state["error"] = (
                f"Could not open “{posixpath.basename(path)}”: {exc}.",
                True,
            )
            return
        state["open"], state["focus"] = None, "grid"
        state["status"], state["error"] = "", False
        if state["dirty"] or state["path"] is not None or state["cells"]:
            # keep this sheet: the file opens in a window of its own
            try:
                ctx.launch(self.id, path)
            except AppError:
                state["status"], state["error"] = f"Could not open “{raw}”.", True
            return
        state.update(_new_sheet(path, cells, kind))
        ctx.set_scroll_offset(V_PANE, None)
        ctx.set_scroll_offset(H_PANE, None)
        add_recent(ctx.machine, path, self.id)

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        if not state["dirty"]:
            return True
        if state["dialog"] is None:
            state["dialog"] = {"kind": "close"}
            state["focus"] = "grid"
        return False

    def _close_save(self, ctx: AppContext, state: dict) -> None:
        state["dialog"] = None
        if state["path"] is None or _kind_of(state["path"]) == "other":
            self._open_save_as(ctx, state, "close")
            return
        if self._save(ctx, state):
            ctx.close()

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        taken = self._key(ctx, state, chord)
        if taken:
            state["clicks"] = None
        return taken

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        if state["dialog"] is not None:
            return self._dialog_key(ctx, state, name, chord)
        if name == cmd("Primary+s"):
            self._save(ctx, state)
            return True
        if name == cmd("Primary+Shift+s"):
            self._open_save_as(ctx, state)
            return True
        if name == cmd("Primary+o"):
            self._show_open(ctx, state)
            return True
        if name == cmd("Primary+w"):
            if state["edit"] is not None:
                self._commit(ctx, state)
            if self.can_close(ctx, state):
                ctx.close()
            return True
        focus = state["focus"]
        if focus == "open-path":
            return self._open_key(ctx, state, name, chord)
        if focus == "name-box":
            return self._namebox_key(ctx, state, name, chord)
        if state["edit"] is not None:
            return self._edit_key(ctx, state, name, chord)
        return self._grid_key(ctx, state, name, chord)

    def _dialog_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        dialog = state["dialog"]
        if name == "Escape":
            state["dialog"] = None
            state["focus"] = "grid"
            return True
        if dialog["kind"] == "close":
            if name == "Enter":
                self._close_save(ctx, state)
                return True
            return name in ("Tab", "Shift+Tab")
        if name == "Enter":
            self._confirm_save_as(ctx, state)
            return True
        if name in ("Tab", "Shift+Tab"):
            state["focus"] = "save-folder" if state["focus"] == "save-name" else "save-name"
            tp.field_select_all(dialog["folder" if state["focus"] == "save-folder" else "name"])
            return True
        f = dialog["folder" if state["focus"] == "save-folder" else "name"]
        if tp.field_key(ctx, f, chord):
            dialog["error"] = ""
            return True
        return False

    def _open_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        if name == "Enter":
            self._do_open(ctx, state)
            return True
        if name == "Escape":
            state["open"], state["focus"] = None, "grid"
            return True
        if name in ("Tab", "Shift+Tab"):
            state["focus"] = "grid"
            return True
        return tp.field_key(ctx, state["open"], chord)

    def _namebox_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = state["namebox"]
        if name == "Enter":
            self._go_to(ctx, state, f["text"])
            return True
        if name in ("Escape", "Tab", "Shift+Tab"):
            state["namebox"], state["focus"] = None, "grid"
            return True
        return tp.field_key(ctx, f, chord)

    def _go_to(self, ctx: AppContext, state: dict, text: str) -> None:
        """The Name Box's Enter: select the cell or range typed (``D12``, ``a1:b3``)."""
        ref = text.strip().replace("$", "").upper()
        parts = ref.split(":")
        ats = [at for x in parts if (at := fx.parse_cell(x)) is not None]
        state["namebox"], state["focus"] = None, "grid"
        if not 1 <= len(parts) <= 2 or len(ats) != len(parts):
            state["status"], state["error"] = (
                f"“{text.strip()}” is not a cell or range of this sheet (A1 to {_nm(MAX_COLS - 1, MAX_ROWS - 1)}).",
                True,
            )
            return
        state["status"], state["error"] = "", False
        a, b = ats[0], ats[-1]
        state["sel"], state["anchor"] = _nm(*a), _nm(*b)
        self._reveal(ctx, state)

    def _edit_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        edit = state["edit"]
        if name in ("Enter", "Shift+Enter", "Tab", "Shift+Tab"):
            self._commit(ctx, state)
            self._step(ctx, state, name)
            return True
        if name == "Escape":
            self._cancel_edit(state)
            return True
        if name == "F2":
            edit["mode"] = "edit" if edit["mode"] == "enter" else "enter"
            return True
        if name == ctx.shortcut("Primary+z"):
            self._cancel_edit(state)
            return True
        arrows = {
            "ArrowUp": (0, -1),
            "ArrowDown": (0, 1),
            "ArrowLeft": (-1, 0),
            "ArrowRight": (1, 0),
        }
        base = name.replace("Shift+", "")
        if base in arrows and edit["mode"] == "enter":
            if self._can_point(edit):  # Calc's point mode: the arrow picks a reference
                pt = edit["point"]
                current = (
                    pt["to"] if pt is not None and edit["caret"] == pt["end"] else edit["cell"]
                )
                c, r = _at(current)
                dc, dr = arrows[base]
                self._point(
                    state,
                    _nm(_clamp(c + dc, 0, MAX_COLS - 1), _clamp(r + dr, 0, MAX_ROWS - 1)),
                    extend=chord.shift,
                )
                return True
            if name == base:
                self._commit(ctx, state)
                self._move(ctx, state, *arrows[base])
                return True
        if base in ("ArrowUp", "ArrowDown"):  # one line: up and down go to its ends
            f = {"text": edit["text"], "caret": edit["caret"], "anchor": edit["anchor"]}
            end = "Home" if base == "ArrowUp" else "End"
            tp.field_key(ctx, f, parse_key(f"Shift+{end}" if chord.shift else end))
            edit.update(f)
            return True
        return self._edit_apply(ctx, state, chord)

    def _grid_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        cmd = ctx.shortcut
        arrows = {
            "ArrowUp": (0, -1),
            "ArrowDown": (0, 1),
            "ArrowLeft": (-1, 0),
            "ArrowRight": (1, 0),
        }
        base = name.replace("Shift+", "")
        if base in arrows:
            self._move(ctx, state, *arrows[base], extend=chord.shift)
            return True
        if base.startswith("Ctrl+") and base[5:] in arrows:
            c, r = self._jump(state, *arrows[base[5:]])
            self._select(state, c, r, extend=chord.shift)
            self._reveal(ctx, state)
            return True
        if name in ("Enter", "Shift+Enter", "Tab", "Shift+Tab"):
            self._step(ctx, state, name)
            return True
        if base in ("Home", "Ctrl+Home", "End", "Ctrl+End", "PageUp", "PageDown"):
            col, row = _at(state["sel"])
            used = _used(state["cells"]) or (0, 0, 0, 0)
            if base == "Home":
                col = 0
            elif base == "Ctrl+Home":
                col, row = 0, 0
            elif base == "End":
                filled = [_at(n)[0] for n in state["cells"] if _at(n)[1] == row]
                col = max(filled) if filled else col
            elif base == "Ctrl+End":
                col, row = used[2], used[3]
            else:
                g = _geom(ctx, state)
                step = g.full_rows if base == "PageDown" else -g.full_rows
                row = _clamp(row + step, 0, MAX_ROWS - 1)
                self._scroll_to(ctx, g, g.top + step, g.left)
            self._select(state, col, row, extend=chord.shift)
            self._reveal(ctx, state)
            return True
        if name == "F2":
            self._start_edit(state, None, mode="edit")
            self._reveal(ctx, state)
            return True
        if name in ("Delete", "Backspace"):
            self._clear(state)
            return True
        if name == "Escape":
            state["status"], state["error"] = "", False
            return True
        if name == cmd("Primary+z"):
            self._undo(ctx, state)
            return True
        if name in (cmd("Primary+y"), cmd("Primary+Shift+z")):
            self._redo(ctx, state)
            return True
        if name in (cmd("Primary+c"), "Ctrl+Insert"):
            self._copy(ctx, state, cut=False)
            return True
        if name in (cmd("Primary+x"), "Shift+Delete"):
            self._copy(ctx, state, cut=True)
            return True
        if name in (cmd("Primary+v"), "Shift+Insert"):
            self._paste(ctx, state)
            return True
        if name == cmd("Primary+d"):
            self._fill_down(ctx, state, "down")
            return True
        if name == cmd("Primary+r"):
            self._fill_down(ctx, state, "right")
            return True
        if name == cmd("Primary+a"):
            state["sel"], state["anchor"] = "A1", _nm(MAX_COLS - 1, MAX_ROWS - 1)
            return True
        if chord.char is not None:
            self._start_edit(state, "")
            self._edit_apply(ctx, state, None, chord.char)
            self._reveal(ctx, state)
            return True
        return False

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        dialog = state["dialog"]
        if dialog is not None:
            if dialog["kind"] != "save-as":
                return False
            tp.field_type(dialog["folder" if state["focus"] == "save-folder" else "name"], text)
            dialog["error"] = ""
            return True
        state["clicks"] = None
        if state["focus"] in ("open-path", "name-box"):
            # a one-line field: a line break typed is Enter
            head, newline, _rest = text.replace("\r\n", "\n").partition("\n")
            f = state["open"] if state["focus"] == "open-path" else state["namebox"]
            tp.field_type(f, head)
            if newline:
                if state["focus"] == "open-path":
                    self._do_open(ctx, state)
                else:
                    self._go_to(ctx, state, f["text"])
            return True
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
        if not text:
            return True
        parts = [x for x in re.split(r"([\t\n])", text) if x]
        # refuse the whole text before changing anything when a part would pass a cap
        edit = state["edit"]
        if edit is not None:
            s, e = _field_span(edit)
            length = len(edit["text"]) - (e - s)
        else:
            length = 0
        for part in parts:
            if part in ("\t", "\n"):
                length = 0
                continue
            length += len(part)
            if length > MAX_CELL:
                raise InvalidInput(f"a cell holds at most {MAX_CELL} characters")
        if _chars(state["cells"]) + len(text) > MAX_CHARS:
            raise InvalidInput(f"a sheet holds at most {MAX_CHARS} characters")
        for part in parts:
            if part in ("\t", "\n"):
                if state["edit"] is not None:
                    self._commit(ctx, state)
                self._step(ctx, state, "Tab" if part == "\t" else "Enter")
                continue
            if state["edit"] is None:
                self._start_edit(state, "")
            self._edit_apply(ctx, state, None, part)
        self._reveal(ctx, state)
        return True

    # -- pointer -----------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        dialog = state["dialog"]
        if dialog is not None:
            if target not in DIALOG_TARGETS[dialog["kind"]]:
                raise UnknownTarget(target)
            return self._dialog_control(ctx, state, target, point)
        if target.startswith("cell:"):
            name = target[5:]
            at = fx.parse_cell(name)
            if at is None or _nm(*at) != name:
                raise UnknownTarget(target)
            self._press_cell(ctx, state, at, "Shift" in modifiers, 1, point is not None)
            state["drag"] = None
            return None
        if target in (
            "open",
            "save",
            "save-as",
            "undo",
            "redo",
            "cut",
            "copy",
            "paste",
            "fill-down",
            "sort-asc",
            "sort-desc",
        ):
            return self._toolbar(ctx, state, target)
        if target == "autosum":
            if state["edit"] is not None:
                raise UnknownTarget(target)
            self._autosum(ctx, state)
            return None
        if target in ("formula-accept", "formula-cancel"):
            if state["edit"] is None:
                raise UnknownTarget(target)
            if target == "formula-accept":
                self._commit(ctx, state)
            else:
                self._cancel_edit(state)
            state["focus"] = "grid"
            return None
        if target == "formula":
            state["focus"] = "grid"
            state["namebox"] = None
            if state["edit"] is None:
                self._start_edit(state, None, where="formula", mode="edit")
            state["edit"]["where"] = "formula"
            state["edit"]["mode"] = "edit"
            if point is not None:
                g = _geom(ctx, state)
                rect = _fbar_controls(ctx.width, g.fbar, True)["formula"]
                state["edit"]["caret"] = tp.field_index(state["edit"], rect, point[0])
                state["edit"]["anchor"] = None
            return None
        if target == "cell-editor":
            edit = state["edit"]
            if edit is None or edit["where"] != "cell":
                raise UnknownTarget(target)
            state["focus"] = "grid"
            edit["mode"] = "edit"
            if point is not None:
                g = _geom(ctx, state)
                r = g.cell_rect(*_at(edit["cell"]))
                if edit["text"]:
                    edit["caret"] = shape(edit["text"], "sans", 13).index_at(point[0] - r.x - 4)
                edit["anchor"] = None
            return None
        if target == "name-box":
            if state["edit"] is not None:
                self._commit(ctx, state)
            state["focus"] = "name-box"
            state["namebox"] = tp.field(_span_name(_span(state)), select=True)
            return None
        if target.startswith("col:") or target.startswith("row:") or target == "corner":
            return self._header(ctx, state, target, "Shift" in modifiers)
        if target == "message":
            if not state["status"]:
                raise UnknownTarget(target)
            state["status"], state["error"] = "", False  # a click dismisses the message
            return None
        if target == "fill":
            if state["edit"] is not None:
                raise UnknownTarget(target)
            return None  # a press and release on the handle fills nothing
        bar = self._parse_bar(target)
        if bar is not None:
            g = _geom(ctx, state)
            if bar[0] == "v":
                self._scroll_to(ctx, g, g.top + g.full_rows - 1, g.left)
            else:
                self._scroll_to(ctx, g, g.top, g.left + g.full_cols - 1)
            return None
        if state["open"] is not None and target in ("open-path", "open-confirm", "open-cancel"):
            if target == "open-path":
                state["focus"] = "open-path"
                bar = _geom(ctx, state).bar
                if point is not None and bar is not None:
                    rect = _bar_controls(ctx.width, bar)["open-path"]
                    state["open"]["caret"] = tp.field_index(state["open"], rect, point[0])
                    state["open"]["anchor"] = None
            elif target == "open-cancel":
                state["open"], state["focus"] = None, "grid"
            else:
                self._do_open(ctx, state)
            return None
        raise UnknownTarget(target)

    def _toolbar(self, ctx: AppContext, state: dict, target: str) -> None:
        if target == "undo" or target == "redo":
            if state["edit"] is not None:
                self._cancel_edit(state)
                if target == "undo":
                    return
            (self._undo if target == "undo" else self._redo)(ctx, state)
            return
        if state["edit"] is not None:
            self._commit(ctx, state)
        state["namebox"] = None
        if target != "open":
            state["focus"] = "grid"
        if target == "open":
            if state["open"] is not None:
                state["open"], state["focus"] = None, "grid"
            else:
                self._show_open(ctx, state)
        elif target == "save":
            self._save(ctx, state)
        elif target == "save-as":
            self._open_save_as(ctx, state)
        elif target in ("cut", "copy"):
            self._copy(ctx, state, cut=target == "cut")
        elif target == "paste":
            self._paste(ctx, state)
        elif target == "fill-down":
            self._fill_down(ctx, state, "down")
        else:
            self._sort(ctx, state, descending=target == "sort-desc")

    def _header(self, ctx: AppContext, state: dict, target: str, extend: bool) -> None:
        if state["edit"] is not None:
            self._commit(ctx, state)
        state["focus"], state["namebox"] = "grid", None
        if target == "corner":
            state["sel"], state["anchor"] = "A1", _nm(MAX_COLS - 1, MAX_ROWS - 1)
            return
        kind, arg = target.split(":", 1)
        if kind == "col":
            at = fx.parse_cell(f"{arg}1")
            if at is None or fx.col_name(at[0]) != arg:
                raise UnknownTarget(target)
            col = at[0]
            a0 = _at(state["anchor"])[0] if extend else col
            state["sel"], state["anchor"] = _nm(col, 0), _nm(a0, MAX_ROWS - 1)
            return
        if not arg.isdigit() or not 1 <= int(arg) <= MAX_ROWS or str(int(arg)) != arg:
            raise UnknownTarget(target)
        row = int(arg) - 1
        r0 = _at(state["anchor"])[1] if extend else row
        state["sel"], state["anchor"] = _nm(0, row), _nm(MAX_COLS - 1, r0)

    @staticmethod
    def _parse_bar(target: str) -> tuple[str, int, int, int] | None:
        parts = target.split(":")
        if len(parts) != 5 or not all(s.isdigit() for s in parts[2:]):
            return None
        if parts[0] == "pane" and parts[1] == V_PANE:
            return "v", int(parts[2]), int(parts[3]), int(parts[4])
        if parts[0] == "hpane" and parts[1] == H_PANE:
            return "h", int(parts[2]), int(parts[3]), int(parts[4])
        return None

    def _dialog_control(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> None:
        dialog = state["dialog"]
        if target in ("save-name", "save-folder"):
            state["focus"] = target
            f = dialog["name" if target == "save-name" else "folder"]
            if point is not None:
                _box, controls = _dialog_rects(ctx.width, ctx.height, "save-as")
                f["caret"] = tp.field_index(f, controls[target], point[0])
                f["anchor"] = None
        elif target in ("save-cancel", "close-cancel"):
            state["dialog"] = None
            state["focus"] = "grid"
        elif target == "save-confirm":
            self._confirm_save_as(ctx, state)
        elif target == "close-discard":
            state["dialog"] = None
            ctx.close()
        elif target == "close-save":
            self._close_save(ctx, state)

    def _press_cell(
        self,
        ctx: AppContext,
        state: dict,
        at: tuple[int, int],
        shift: bool,
        clicks: int,
        pointer: bool,
    ) -> str:
        """A press on a cell: pointing while a formula waits for a reference, else commit
        and select (a second press on the same cell edits it). Returns what it started:
        ``point``, ``select`` or ``edit``."""
        name = _nm(*at)
        state["focus"], state["namebox"] = "grid", None
        edit = state["edit"]
        if edit is not None and name != edit["cell"] and self._can_point(edit):
            self._point(state, name, extend=shift)
            return "point"
        if edit is not None:
            if name == edit["cell"]:
                edit["where"] = "cell"
                return "edit"
            self._commit(ctx, state)
        n = tp.click_count(state, name, ctx.now_us, clicks) if pointer else 1
        if n >= 2 and not shift:
            self._select(state, *at)
            self._start_edit(state, None, mode="edit")
            return "edit"
        self._select(state, *at, extend=shift)
        self._reveal(ctx, state)
        return "select"

    def is_drag_surface(self, target: str, button: int) -> bool:
        if button != 0:
            return False
        return target.startswith("cell:") or target == "fill" or self._parse_bar(target) is not None

    def cursor(self, target: str) -> str | None:
        if target.startswith("cell:"):
            return "default"
        if target == "fill":
            return "crosshair"
        if target == "cell-editor" or target in ("formula", "name-box"):
            return "text"
        if self._parse_bar(target) is not None:
            return "default"
        return None

    def drag(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        phase: str,
        point: tuple[int, int],
        button: int,
        modifiers: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> None:
        if state["dialog"] is not None:
            return
        g = _geom(ctx, state)
        bar = self._parse_bar(target)
        if bar is not None:
            vertical = bar[0] == "v"
            norm = f"pane:{V_PANE}:{bar[1]}:{bar[2]}:{bar[3]}"
            current = g.top * ROW_H if vertical else g.left * COL_W
            px = tp.bar_drag(
                state,
                norm,
                V_PANE,
                phase,
                point[1] if vertical else point[0],
                g.vtrack.y if vertical else g.htrack.x,
                current,
            )
            if px is not None:
                if vertical:
                    self._scroll_to(ctx, g, (px + ROW_H // 2) // ROW_H, g.left)
                else:
                    self._scroll_to(ctx, g, g.top, (px + COL_W // 2) // COL_W)
            return
        if phase == "cancel":
            state["drag"] = None
            return
        if target == "fill":
            self._drag_fill(ctx, state, g, phase, point, modifiers)
            return
        if not target.startswith("cell:"):
            return
        if phase == "down":
            at = fx.parse_cell(target[5:])
            if at is None:
                return
            started = self._press_cell(ctx, state, at, "Shift" in modifiers, clicks, True)
            state["drag"] = {"kind": started} if started in ("select", "point") else None
            return
        drag = state["drag"] if isinstance(state["drag"], dict) else None
        if drag is None:
            return
        if phase == "move":
            rel_y = point[1] - g.y0
            rel_x = point[0] - g.x0
            if rel_y < 0 or rel_y >= g.view_h or rel_x < 0 or rel_x >= g.view_w:
                dr = -1 if rel_y < 0 else 1 if rel_y >= g.view_h else 0
                dc = -1 if rel_x < 0 else 1 if rel_x >= g.view_w else 0
                if self._scroll_to(ctx, g, g.top + dr, g.left + dc):
                    g = _geom(ctx, state)
        at = g.cell_at(*point)
        if drag["kind"] == "select":
            state["sel"] = _nm(*at)
        elif (
            drag["kind"] == "point"
            and state["edit"] is not None
            and state["edit"]["point"] is not None
        ):
            self._point(state, _nm(*at), extend=True)
        if phase == "up":
            state["drag"] = None

    def _drag_fill(
        self,
        ctx: AppContext,
        state: dict,
        g: _Geom,
        phase: str,
        point: tuple[int, int],
        modifiers: tuple[str, ...],
    ) -> None:
        if phase == "down":
            if state["edit"] is not None:
                self._commit(ctx, state)
            state["drag"] = {"kind": "fill", "to": None, "copy": "Ctrl" in modifiers}
            return
        drag = (
            state["drag"]
            if isinstance(state["drag"], dict) and state["drag"].get("kind") == "fill"
            else None
        )
        if drag is None:
            return
        _c1, _r1, c2, r2 = _span(state)
        col, row = g.cell_at(*point)
        # the direction dragged furthest from the handle (the range's bottom-right corner)
        dx = point[0] - (g.x0 + (c2 + 1 - g.left) * COL_W)
        dy = point[1] - (g.y0 + (r2 + 1 - g.top) * ROW_H)
        if max(dx, dy) <= HANDLE // 2:
            drag["to"] = None  # still on the handle
        elif dy >= dx and row > r2:
            drag["to"] = ["down", row - r2]
        elif dx > dy and col > c2:
            drag["to"] = ["right", col - c2]
        else:
            drag["to"] = None
        if phase == "up":
            state["drag"] = None
            if drag["to"] is not None:
                direction, n = drag["to"]
                self._fill(ctx, state, direction, n, drag["copy"] or "Ctrl" in modifiers)

    def wheel(
        self,
        ctx: AppContext,
        state: dict,
        target: str | None,
        point: tuple[int, int],
        dx: int,
        dy: int,
        modifiers: tuple[str, ...],
    ) -> bool:
        if state["dialog"] is not None:
            return True
        if "Ctrl" in modifiers:
            return False
        g = _geom(ctx, state)
        if dx or "Shift" in modifiers:
            delta = dx or dy
            n = _notches(delta)
            return self._scroll_to(ctx, g, g.top, g.left + n) or True
        if not dy:
            return False
        return self._scroll_to(ctx, g, g.top + _notches(dy), g.left) or True


def _notches(delta: int) -> int:
    """Rows (or columns) a wheel delta moves: three a notch of 120 px, at least one."""
    n = max(1, abs(delta) * 3 // 120)
    return n if delta > 0 else -n


def _field_span(f: dict) -> tuple[int, int]:
    a, c = f["anchor"], f["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _glyph_button(p: Painter, name: str, glyph: str, label: str, rect: Rect) -> None:
    """A square push button showing ``glyph`` whose accessible name is ``label``."""
    pal = p.palette
    p.paint(
        RoundedBox(pal["button"], 6, pal["border"], 1),
        rect,
        key=("button", name),
        target=name,
        semantic=Semantic("button", label, None, False, True),
    )
    w, h = measure(glyph, "sans", 16), line_height("sans", 16)
    p.paint(
        UiText(glyph, 16, pal["text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("button-label", name),
        target=name,
    )


# -- painting pieces -----------------------------------------------------------------------


def _paint_toolbar(p: Painter, can_undo: bool, can_redo: bool, dirty: bool) -> None:
    pal = p.palette
    p.box(Rect(0, 0, p.width, TOOLBAR_H), pal.get("header", pal["button"]), key="toolbar")
    for name, label, rect in _toolbar(p.width):
        disabled = (name == "undo" and not can_undo) or (name == "redo" and not can_redo)
        p.button(name, label, rect, disabled=disabled, suggested=name == "save" and dirty)


def _paint_col_heads(p: Painter, g: _Geom, span: tuple) -> None:
    pal = p.palette
    head = pal.get("header", pal["button"])
    h = line_height("sans", 13)
    with p.clipped(Rect(g.x0, g.head_y, g.view_w, HEAD_H + 1)):
        for i in range(g.cols):
            c = g.left + i
            x = g.x0 + i * COL_W
            letters = fx.col_name(c)
            chosen = span[0] <= c <= span[2]
            p.paint(
                Box(pal["selection"] if chosen else head, pal["border"], 1),
                Rect(x, g.head_y, COL_W + 1, HEAD_H + 1),
                key=("colhead", c),
                target=f"col:{letters}",
                semantic=Semantic("columnheader", letters, None, False, True),
                state=NodeState(selected=True) if chosen else None,
            )
            w = measure(letters, "sans", 13)
            p.paint(
                UiText(letters, 13, pal["text"]),
                Rect(x + (COL_W - w) // 2, g.head_y + (HEAD_H - h) // 2, w, h),
                key=("colhead-text", c),
            )


def _paint_row_heads(p: Painter, g: _Geom, span: tuple) -> None:
    pal = p.palette
    head = pal.get("header", pal["button"])
    h = line_height("sans", 13)
    with p.clipped(Rect(0, g.y0, ROWHEAD_W + 1, g.view_h)):
        for i in range(g.rows):
            r = g.top + i
            y = g.y0 + i * ROW_H
            label = str(r + 1)
            chosen = span[1] <= r <= span[3]
            p.paint(
                Box(pal["selection"] if chosen else head, pal["border"], 1),
                Rect(0, y, ROWHEAD_W + 1, ROW_H + 1),
                key=("rowhead", r),
                target=f"row:{label}",
                semantic=Semantic("rowheader", label, None, False, True),
                state=NodeState(selected=True) if chosen else None,
            )
            w = measure(label, "sans", 13)
            p.paint(
                UiText(label, 13, pal["text"]),
                Rect((ROWHEAD_W - w) // 2, y + (ROW_H - h) // 2, w, h),
                key=("rowhead-text", r),
            )


def _paint_cells(
    p: Painter, top: int, left: int, x0: int, y0: int, views: tuple, multi: tuple | None
) -> None:
    """The visible rows (each its own piece too: a change to one row repaints that row)."""
    for i, view in enumerate(views):
        r = top + i
        sel_cols = (multi[0], multi[2]) if multi is not None and multi[1] <= r <= multi[3] else None
        y = y0 + i * ROW_H
        p.reuse(
            ("ss-row", r, left, y, x0, view, sel_cols),
            _paint_row,
            y,
            r,
            left,
            x0,
            view,
            sel_cols,
        )


def _paint_row(
    p: Painter, y: int, row: int, left: int, x0: int, view: tuple, sel_cols: tuple | None
) -> None:
    pal = p.palette
    h = line_height("sans", 13)
    ty = y + (ROW_H - h) // 2
    for i, (name, shown, _align, _spill) in enumerate(view):
        c = left + i
        chosen = sel_cols is not None and sel_cols[0] <= c <= sel_cols[1]
        p.paint(
            Box(_tint(pal) if chosen else pal["field"], pal["border"], 1),
            Rect(x0 + i * COL_W, y, COL_W + 1, ROW_H + 1),
            key=("cell", name),
            target=f"cell:{name}",
            semantic=Semantic("gridcell", name, shown, False, True),
            state=NodeState(selected=True) if chosen else None,
        )
    for i, (name, shown, align, spill) in enumerate(view):
        if not shown:
            continue
        x = x0 + i * COL_W
        w = measure(shown, "sans", 13)
        if align == "r":
            tx = x + COL_W - 4 - w
        elif align == "c":
            tx = x + (COL_W - w) // 2
        else:
            tx = x + 4
        clip = Rect(x + 2, y + 1, spill * COL_W - 4, ROW_H - 1)
        p.paint(
            UiText(shown, 13, pal["text"]), Rect(tx, ty, w, h), key=("cell-text", name), clip=clip
        )


def _tint(pal: dict) -> tuple:
    """The selected range's fill: the selection colour over the field, made opaque."""
    sr, sg, sb, sa = pal["selection"]
    fr, fg, fb, _fa = pal["field"]
    a = sa / 255
    return (
        round(sr * a + fr * (1 - a)),
        round(sg * a + fg * (1 - a)),
        round(sb * a + fb * (1 - a)),
        255,
    )


def _paint_bars(p: Painter, g: _Geom) -> None:
    pal = p.palette
    ink = pal["text"][:3]
    trough, knob = (*ink, 18), (*ink, 110)
    target, pos, thumb = _bar_target(
        "pane", V_PANE, g.vtrack.height, g.full_rows, MAX_ROWS, g.top, ROW_H
    )
    p.paint(
        Box(trough),
        g.vtrack,
        key=("bar", V_PANE),
        target=target,
        semantic=Semantic("scrollbar", "Rows", str(g.top + 1), False, False),
    )
    p.paint(
        RoundedBox(knob, 3),
        Rect(g.vtrack.x + 2, g.vtrack.y + pos, g.vtrack.width - 4, thumb),
        key=("thumb", V_PANE),
        target=target,
    )
    target, pos, thumb = _bar_target(
        "hpane", H_PANE, g.htrack.width, g.full_cols, MAX_COLS, g.left, COL_W
    )
    p.paint(
        Box(trough),
        g.htrack,
        key=("bar", H_PANE),
        target=target,
        semantic=Semantic("scrollbar", "Columns", fx.col_name(g.left), False, False),
    )
    p.paint(
        RoundedBox(knob, 3),
        Rect(g.htrack.x + pos, g.htrack.y + 2, thumb, g.htrack.height - 4),
        key=("thumb", H_PANE),
        target=target,
    )
    p.box(Rect(g.vtrack.x, g.htrack.y, SB, SB), pal.get("header", pal["button"]), key="bars-corner")


register(Spreadsheet())
