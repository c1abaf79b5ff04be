"""``calculator``: the Calculator, in the manner of GNOME Calculator.

One window holds an expression (the display), a keypad in Basic or Scientific mode, and
the history of past calculations, which is kept in the machine's filesystem
(:data:`HISTORY_FILE`, newest last) so every window and every session sees the same list.
The arithmetic is exact (:mod:`cwgym.apps._calc_engine`): fractions, and :mod:`decimal`
for irrational results, never ``float``.

Control targets (``window:<id>:content:<target>``):

* ``mode:basic``, ``mode:scientific`` — the mode switch (role ``tab``);
* ``key:0`` … ``key:9``, ``key:point``, ``key:plus``, ``key:minus``, ``key:multiply``,
  ``key:divide``, ``key:percent``, ``key:equals``, ``key:clear`` (C), ``key:backspace``,
  ``key:negate`` (±) — the keypad;
* in Scientific mode also ``key:open``, ``key:close`` (parentheses), ``key:pi``,
  ``key:square`` (x²), ``key:power`` (xʸ), ``key:sqrt``, ``key:sin``, ``key:cos``,
  ``key:tan`` (degrees), ``key:ln``, ``key:log``, ``key:e``, ``key:factorial``,
  ``key:abs``, ``key:reciprocal`` (x⁻¹); in Basic mode they are unknown targets;
* ``display`` — the expression (a textbox; it always has the keyboard);
* ``history:<n>`` — the history entry numbered ``n`` (its ``n`` in the file): a click puts
  its result into the expression; ``history-clear`` empties the history.

Keys: digits, ``. ,`` ``+ - * / x ^ % ( ) !``, letters of function names (``sin``,
``sqrt``, ``pi`` ...), ``Enter`` or ``=`` evaluates, ``Backspace`` deletes the last
character (a whole ``sin(`` at once), ``Escape`` and ``Delete`` clear, ``Primary+z`` undoes
the last change to the expression and ``Primary+Shift+z`` / ``Primary+y`` redo it,
``Primary+c`` copies the display, ``Primary+v`` pastes, ``Primary+b`` / ``Primary+a``
switch to Basic / Scientific (GNOME's Advanced). The caret stays at the end of the
expression.

After ``=`` the display holds the result: a digit (or anything that starts a value)
typed next starts a new expression, an operator continues from the result. An error
(``Division by zero``, ``Malformed expression``...) is shown under the expression, which
is kept as it was. An expression holds at most :data:`MAX_EXPR` characters; input past it
fails with ``invalid`` and changes nothing.

A launch argument is an equation: the window opens with it solved, as if typed and ``=``
pressed (recorded in the history). One longer than :data:`MAX_EXPR` refuses the launch.
"""

from __future__ import annotations

import contextlib
import functools
import json
from typing import Any

from cwgym.apps import _calc_engine as engine
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText
from cwgym.text import line_height, measure, shape, wrap

__all__ = ["HISTORY_FILE", "HISTORY_MAX", "MAX_EXPR", "MAX_UNDO", "Calculator"]

#: The history, relative to the home folder.
HISTORY_FILE = ".local/share/gnome-calculator/history.json"
#: Entries the history keeps (oldest dropped first).
HISTORY_MAX = 100
#: The most characters an expression holds.
MAX_EXPR = 200
#: Undo steps kept.
MAX_UNDO = 50

TOP_H = 44
DISPLAY_H = 92
ROW_H = 30
GAP = 6
MARGIN = 10

# target -> (painted label, accessible name, inserted text); None: a command
KEYS: dict[str, tuple[str, str, str | None]] = {
    **{f"key:{d}": (d, d, d) for d in "0123456789"},
    "key:point": (".", "Decimal point", "."),
    "key:plus": ("+", "Add", "+"),
    "key:minus": ("−", "Subtract", "−"),
    "key:multiply": ("×", "Multiply", "×"),
    "key:divide": ("÷", "Divide", "÷"),
    "key:percent": ("%", "Percent", "%"),
    "key:equals": ("=", "Equals", None),
    "key:clear": ("C", "Clear", None),
    "key:backspace": ("⌫", "Backspace", None),
    "key:negate": ("±", "Negate", None),
    "key:open": ("(", "Open parenthesis", "("),
    "key:close": (")", "Close parenthesis", ")"),
    "key:pi": ("π", "Pi", "π"),
    "key:square": ("x²", "Square", "²"),
    "key:power": ("xʸ", "Power", "^"),
    "key:sqrt": ("√", "Square root", "√"),
    "key:sin": ("sin", "Sine", "sin("),
    "key:cos": ("cos", "Cosine", "cos("),
    "key:tan": ("tan", "Tangent", "tan("),
    "key:ln": ("ln", "Natural logarithm", "ln("),
    "key:log": ("log", "Logarithm", "log("),
    "key:e": ("e", "Euler's number", "e"),
    "key:factorial": ("n!", "Factorial", "!"),
    "key:abs": ("|x|", "Absolute value", "abs("),
    "key:reciprocal": ("x⁻¹", "Reciprocal", "⁻¹"),
}
BASIC = (
    ("key:clear", "key:negate", "key:percent", "key:divide"),
    ("key:7", "key:8", "key:9", "key:multiply"),
    ("key:4", "key:5", "key:6", "key:minus"),
    ("key:1", "key:2", "key:3", "key:plus"),
    ("key:0", "key:point", "key:backspace", "key:equals"),
)
SCIENTIFIC = (
    ("key:open", "key:close", "key:pi"),
    ("key:square", "key:power", "key:sqrt"),
    ("key:sin", "key:cos", "key:tan"),
    ("key:ln", "key:log", "key:e"),
    ("key:factorial", "key:abs", "key:reciprocal"),
)
SCIENTIFIC_KEYS = frozenset(k for row in SCIENTIFIC for k in row)
MODES = (("basic", "Basic"), ("scientific", "Scientific"))
#: Inserted text that continues from a result just computed (the rest starts anew).
_CONTINUES = ("+", "−", "×", "÷", "^", "%", "²", "!", "⁻¹", ")")
#: A value ends with one of these (a result put after it needs a ×).
_VALUE_END = frozenset("0123456789.)π²!%e¹")


# -- the history file ----------------------------------------------------------------------


def _history_path(home: str) -> str:
    return f"{home}/{HISTORY_FILE}"


@functools.lru_cache(maxsize=64)
def _parse_history(data: bytes) -> tuple[tuple[tuple[int, str, str], ...], str]:
    """``(entries, problem)`` of a history file's bytes: entries ``(n, expression, result)``;
    ``problem`` is "" for a good file."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return (), "it is not JSON"
    if not isinstance(value, dict) or not isinstance(value.get("entries"), list):
        return (), "it has no list of entries"
    out = []
    last = 0
    for i, item in enumerate(value["entries"]):
        if not isinstance(item, dict):
            return (), f"entry {i + 1} is not an object"
        n, expr, result = item.get("n"), item.get("expression"), item.get("result")
        if isinstance(n, bool) or not isinstance(n, int) or n <= last:
            return (), f"entry {i + 1} has no increasing number n"
        if (
            not isinstance(expr, str)
            or not isinstance(result, str)
            or len(expr) > MAX_EXPR
            or len(result) > MAX_EXPR
        ):
            return (), f"entry {i + 1} has no expression and result"
        out.append((n, expr, result))
        last = n
    return tuple(out), ""


def _read_history(ctx: AppContext) -> tuple[tuple[tuple[int, str, str], ...], str]:
    try:
        data = ctx.files().read(_history_path(ctx.home), ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT":
            return (), ""
        return (), f"Could not read the history: {exc.strerror_text}"
    entries, problem = _parse_history(data)
    if problem:
        return (), f"The history file ~/{HISTORY_FILE} is damaged ({problem}); it is left as it is."
    return entries, ""


def _write_history(ctx: AppContext, entries: list[tuple[int, str, str]]) -> str:
    """Write the history; the problem, or ""."""
    ufs = ctx.files()
    path = _history_path(ctx.home)
    body = {
        "entries": [{"n": n, "expression": e, "result": r} for n, e, r in entries[-HISTORY_MAX:]]
    }
    data = (json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
    try:
        current = ""
        for part in [p for p in path.rsplit("/", 1)[0].split("/") if p]:
            current += "/" + part
            if not ufs.exists(current, "/"):
                ufs.mkdir(current, "/", 0o755)
        ufs.write(path, "/", data, mode=0o644)
    except FsError as exc:
        return f"Could not save the history: {exc.strerror_text}"
    return ""


# -- geometry ------------------------------------------------------------------------------


class _Geom:
    __slots__ = ("banner", "display", "grid", "history", "row_h")

    def __init__(self, width: int, height: int, banner: bool) -> None:
        y = TOP_H
        self.banner: Rect | None = None
        if banner:
            self.banner = Rect(MARGIN, y, max(0, width - 2 * MARGIN), 38)
            y += 40
        self.row_h = max(32, min(58, (height - y - DISPLAY_H - 90) // 5 - GAP))
        grid_h = 5 * self.row_h + 4 * GAP
        grid_y = max(y + DISPLAY_H + 40, height - MARGIN - grid_h)
        self.grid = Rect(MARGIN, grid_y, max(0, width - 2 * MARGIN), grid_h)
        self.display = Rect(MARGIN, grid_y - DISPLAY_H - 8, max(0, width - 2 * MARGIN), DISPLAY_H)
        self.history = Rect(
            MARGIN, y + 2, max(0, width - 2 * MARGIN), max(0, self.display.y - y - 8)
        )


def _key_rects(grid: Rect, row_h: int, scientific: bool) -> list[tuple[str, Rect]]:
    rows = [(*s, *b) for s, b in zip(SCIENTIFIC, BASIC)] if scientific else list(BASIC)
    cols = len(rows[0])
    w = (grid.width - (cols - 1) * GAP) // cols
    out = []
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            out.append((name, Rect(grid.x + c * (w + GAP), grid.y + r * (row_h + GAP), w, row_h)))
    return out


def _paint_keys(p: Painter, grid: Rect, row_h: int, scientific: bool) -> None:
    pal = p.palette
    for name, rect in _key_rects(grid, row_h, scientific):
        label, spoken, _ = KEYS[name]
        equals = name == "key:equals"
        fill = (
            pal["accent"]
            if equals
            else pal["field"]
            if name[4:].isdigit() or name == "key:point"
            else pal["button"]
        )
        ink = pal["accent_text"] if equals else ERROR if name == "key:clear" else pal["text"]
        p.paint(
            RoundedBox(fill, 8, pal["border"], 1),
            rect,
            key=("calc-key", name),
            target=name,
            semantic=Semantic("button", spoken, None, False, True),
        )
        size = 20 if len(label) == 1 else 16
        w, h = measure(label, "sans", size), line_height("sans", size)
        p.paint(
            UiText(label, size, ink),
            Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
            key=("calc-key-label", name),
            target=name,
        )


def _paint_head(p: Painter, mode: str, has_entries: bool) -> None:
    """The mode switch and the history's Clear button."""
    pal = p.palette
    p.box(Rect(0, 0, p.width, TOP_H), pal.get("header", pal["button"]), key="calc-top")
    x = MARGIN
    for name, label in MODES:
        w = measure(label, "sans", 14) + 28
        on = mode == name
        rect = Rect(x, 6, w, 32)
        p.paint(
            RoundedBox(pal["accent"] if on else pal["button"], 6, pal["border"], 1),
            rect,
            key=("calc-mode", name),
            target=f"mode:{name}",
            semantic=Semantic("tab", label, None, False, True),
            state=NodeState(selected=on),
        )
        lw, lh = measure(label, "sans", 14), line_height("sans", 14)
        p.paint(
            UiText(label, 14, pal["accent_text"] if on else pal["text"]),
            Rect(rect.x + (w - lw) // 2, rect.y + (32 - lh) // 2, lw, lh),
            key=("calc-mode-label", name),
            target=f"mode:{name}",
        )
        x += w + 4
    cw = measure("Clear History", "sans", 14) + 24
    p.button(
        "history-clear",
        "Clear History",
        Rect(p.width - MARGIN - cw, 6, cw, 32),
        disabled=not has_entries,
    )


def _paint_history(p: Painter, entries: tuple, area: Rect) -> None:
    """The history list, the newest at the bottom (as GNOME Calculator lists them): its
    scroll pane is published here, the rows on screen are a reused piece."""
    if area.height < ROW_H:
        return
    extent = len(entries) * ROW_H
    stored = p.scroll_offset("history")
    offset = p.scroll(
        "history", area, extent, max(0, extent - area.height) if stored is None else None
    )
    first = max(0, offset // ROW_H - 1)
    shown = entries[first : min(len(entries), (offset + area.height) // ROW_H + 2)]
    p.reuse(
        ("calc-history", area, offset, len(entries), first, shown),
        _paint_history_rows,
        area,
        offset,
        len(entries),
        first,
        shown,
    )


def _paint_history_rows(
    p: Painter, area: Rect, offset: int, count: int, first: int, shown: tuple
) -> None:
    pal = p.palette
    p.paint(
        Box(pal["window"]),
        area,
        key="calc-history",
        semantic=Semantic("list", "History"),
    )
    if not count:
        p.text(
            "No calculations yet",
            area.x + 8,
            area.bottom - ROW_H + 6,
            size=13,
            color=pal["muted"],
            key="calc-history-empty",
        )
        return
    base_y = area.y + max(0, area.height - count * ROW_H) - offset
    with p.clipped(area):
        for i, (n, expr, result) in enumerate(shown, first):
            row = Rect(area.x, base_y + i * ROW_H, area.width, ROW_H)
            if row.bottom <= area.y or row.y >= area.bottom:
                continue
            target = f"history:{n}"
            p.paint(
                RoundedBox(pal["window"], 4),
                row,
                key=("calc-hrow", n),
                target=target,
                semantic=Semantic("listitem", f"{expr} = {result}", result, False, True),
            )
            rtext = f"= {result}"
            rw = min(measure(rtext, "sans", 14), area.width // 2)
            ty = row.y + (ROW_H - line_height("sans", 14)) // 2
            p.text(
                expr,
                row.x + 8,
                ty,
                size=14,
                color=pal["muted"],
                width=max(0, area.width - rw - 28),
                key=("calc-hexpr", n),
                target=target,
            )
            p.text(
                rtext,
                row.right - rw - 8,
                ty,
                size=14,
                width=rw,
                key=("calc-hres", n),
                target=target,
            )


def _display_size(expr: str, width: int) -> tuple[int, int]:
    """``(size, text width)`` of the expression: 30 px when it fits in ``width``, else 20.

    The rule is exact; what it saves is shaping a long expression twice. Runs are shaped
    unhinted, so every glyph's advance at 30 px is its advance at 20 px times 1.5, give
    or take the rounding of each scaled value (a few 1/64 px): a run a quarter pixel per
    glyph wider than ``width`` even then cannot fit at 30 px, and is not shaped at 30.
    """
    if len(expr) * 12 <= width:  # short: likely fits, try 30 px first
        w30 = measure(expr, "sans", 30)
        if w30 <= width:
            return 30, w30
        return 20, measure(expr, "sans", 20)
    run = shape(expr, "sans", 20)
    w20 = run.width
    if 3 * (w20 - 1) // 2 - len(run.glyphs) // 4 - 1 > width:
        return 20, w20
    w30 = measure(expr, "sans", 30)
    return (30, w30) if w30 <= width else (20, w20)


# -- the expression ------------------------------------------------------------------------


def _snapshot(state: dict) -> list:
    return [state["expr"], state["fresh"], state["last"]]


def _trailing_name(expr: str) -> int:
    """How many characters a trailing function call opening (``sin(``) takes, else 0."""
    if not expr.endswith("("):
        return 0
    i = len(expr) - 1
    while i > 0 and expr[i - 1].isalpha():
        i -= 1
    return len(expr) - i if len(expr) - i > 1 else 0


def _negated(expr: str) -> str:
    """The expression with the sign of its last operand changed (±)."""
    if not expr:
        return "−"
    end = len(expr)
    i = end
    while i > 0 and (expr[i - 1].isdigit() or expr[i - 1] == "."):
        i -= 1
    if i < end:  # a trailing number
        if i > 0 and expr[i - 1] == "−" and (i == 1 or expr[i - 2] in "+−×÷^("):
            return expr[: i - 1] + expr[i:]
        return expr[:i] + "−" + expr[i:]
    if expr[-1] in "+−×÷^(":
        return expr + "−"
    if expr.startswith("−(") and expr.endswith(")") and _matching_open(expr, len(expr) - 1) == 1:
        return expr[2:-1]
    return "−(" + expr + ")"


def _matching_open(expr: str, close: int) -> int:
    depth = 0
    for i in range(close, -1, -1):
        if expr[i] == ")":
            depth += 1
        elif expr[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


class Calculator(App):
    id = "calculator"
    label = "Calculator"
    kind = "native"
    default_size = (440, 640)
    min_size = (320, 480)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        state: dict[str, Any] = {
            "mode": "basic",
            "expr": "",
            "fresh": False,
            "last": "",
            "error": "",
            "banner": "",
            "undo": [],
            "redo": [],
        }
        if argument:
            text = engine.normalize(argument)
            if len(text) > MAX_EXPR:
                raise AppError(f"an expression holds at most {MAX_EXPR} characters")
            state["expr"] = text
            self._equals(ctx, state)
            state["undo"] = []
        return state

    def title(self, state: dict) -> str:
        return ""  # the theme's label: "Calculator"

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        return _read_history(ctx)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        entries, problem = key if key is not None else ((), "")
        banner = state["banner"] or problem
        g = _Geom(p.width, p.height, bool(banner))
        scientific = state["mode"] == "scientific"
        # what a keystroke leaves as it was (the header, the history, the keypad) is
        # painted once and reused: only the display is painted anew
        p.reuse(
            ("calc-head", state["mode"], bool(entries)), _paint_head, state["mode"], bool(entries)
        )
        if g.banner is not None:
            for i, line in enumerate(wrap(banner, "sans", 13, max(1, g.banner.width))[:2]):
                p.text(
                    line,
                    g.banner.x,
                    g.banner.y + 2 + 17 * i,
                    size=13,
                    color=ERROR,
                    width=g.banner.width,
                    key=("calc-banner", i),
                )
        _paint_history(p, entries, g.history)
        self._paint_display(p, state, g.display)
        p.reuse(
            ("calc-keys", g.grid, g.row_h, scientific), _paint_keys, g.grid, g.row_h, scientific
        )

    def _paint_display(self, p: Painter, state: dict, rect: Rect) -> None:
        pal = p.palette
        expr = state["expr"]
        p.paint(
            RoundedBox(pal["field"], 8, pal["accent"], 2),
            rect,
            key="calc-display",
            target="display",
            semantic=Semantic("textbox", "Expression", expr, False, True),
            state=NodeState(focused=True),
        )
        inner = Rect(rect.x + 12, rect.y + 6, max(0, rect.width - 24), rect.height - 12)
        # the upper line: the equation just solved, or the error
        upper = state["error"] or (f"{state['last']} =" if state["last"] else "")
        if upper:
            uw = min(measure(upper, "sans", 14), inner.width)
            p.text(
                upper,
                inner.right - uw,
                inner.y,
                size=14,
                color=ERROR if state["error"] else pal["muted"],
                width=inner.width,
                key="calc-upper",
            )
            if state["error"]:
                p.paint(
                    Box((0, 0, 0, 0)),
                    Rect(inner.right - uw, inner.y, uw, 18),
                    key="calc-alert",
                    semantic=Semantic("alert", state["error"]),
                )
        size, w = _display_size(expr, inner.width)
        h = line_height("sans", size)
        ty = inner.bottom - h
        x = inner.right - w  # right-aligned: a long expression keeps its end in view
        line_clip = Rect(inner.x, ty, inner.width, h)
        if expr:
            p.paint(
                UiText(expr, size, pal["text"]),
                Rect(x, ty, w, h),
                key="calc-expr",
                target="display",
                clip=line_clip,
            )
        caret = Rect(min(inner.right, x + w) if expr else inner.right, ty, 2, h)
        p.paint(
            Box(pal["text"]),
            caret,
            key="calc-caret",
            target="display",
            clip=Rect(inner.x, ty, inner.width + 2, h),
        )
        p.focus(
            "display",
            role="textbox",
            label="Expression",
            value=expr,
            caret=caret,
            column=len(expr),
            offset=len(expr),
            text_entry=True,
        )

    # -- editing -----------------------------------------------------------------------
    def _change(self, state: dict, expr: str, fresh: bool = False, last: str = "") -> None:
        """Set the expression (and the equation line above it), recording the previous
        ones for undo."""
        before = _snapshot(state)
        state["expr"] = expr
        state["fresh"] = fresh
        state["last"] = last
        state["error"] = ""
        if _snapshot(state) != before:
            state["undo"].append(before)
            del state["undo"][:-MAX_UNDO]
            state["redo"] = []

    def _insert(self, state: dict, text: str) -> None:
        if not text:
            return
        expr = state["expr"]
        if state["fresh"] and not text.startswith(_CONTINUES):
            expr = ""
        new = expr + text
        if len(new) > MAX_EXPR:
            raise InvalidInput(f"an expression holds at most {MAX_EXPR} characters")
        self._change(state, new)

    def _backspace(self, state: dict) -> None:
        expr = state["expr"]
        if not expr:
            state["error"] = ""
            return
        cut = _trailing_name(expr) or (2 if expr.endswith("⁻¹") else 1)
        self._change(state, expr[:-cut])

    def _clear(self, state: dict) -> None:
        self._change(state, "")

    def _negate(self, state: dict) -> None:
        new = _negated(state["expr"])
        if len(new) > MAX_EXPR:
            raise InvalidInput(f"an expression holds at most {MAX_EXPR} characters")
        self._change(state, new)

    def _equals(self, ctx: AppContext, state: dict) -> None:
        expr = state["expr"]
        if not expr or state["fresh"]:
            return
        try:
            value = engine.format_value(engine.evaluate(expr))
        except engine.CalcError as exc:
            state["error"] = str(exc)
            return
        self._change(state, value, fresh=True, last=expr)
        entries, problem = _read_history(ctx)
        if problem:
            state["banner"] = problem
            return
        n = entries[-1][0] + 1 if entries else 1
        state["banner"] = _write_history(ctx, [*entries, (n, expr, value)])

    def _undo(self, state: dict) -> None:
        if not state["undo"]:
            return
        state["redo"].append(_snapshot(state))
        state["expr"], state["fresh"], state["last"] = state["undo"].pop()
        state["error"] = ""

    def _redo(self, state: dict) -> None:
        if not state["redo"]:
            return
        state["undo"].append(_snapshot(state))
        state["expr"], state["fresh"], state["last"] = state["redo"].pop()
        state["error"] = ""

    def _reuse(self, ctx: AppContext, state: dict, n: int) -> None:
        entries, _problem = _read_history(ctx)
        found = next((e for e in entries if e[0] == n), None)
        if found is None:
            raise UnknownTarget(f"history:{n}")
        result = found[2]
        expr = state["expr"]
        if state["fresh"] or not expr:
            new = result
        elif expr[-1] in _VALUE_END:
            new = expr + "×" + result
        else:
            new = expr + result
        if len(new) > MAX_EXPR:
            raise InvalidInput(f"an expression holds at most {MAX_EXPR} characters")
        self._change(state, new)

    def _clear_history(self, ctx: AppContext, state: dict) -> None:
        entries, problem = _read_history(ctx)
        if problem:
            state["banner"] = problem
            return
        if entries:
            state["banner"] = _write_history(ctx, [])

    def _copy(self, ctx: AppContext, state: dict) -> None:
        if state["expr"]:
            ctx.clipboard = state["expr"]

    # -- events ------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if target.startswith("mode:"):
            mode = target[5:]
            if mode not in ("basic", "scientific"):
                raise UnknownTarget(target)
            state["mode"] = mode
            return None
        if target == "display":
            return None
        if target == "history-clear":
            self._clear_history(ctx, state)
            return None
        if target.startswith("history:"):
            raw = target[8:]
            if not raw.isdigit():
                raise UnknownTarget(target)
            self._reuse(ctx, state, int(raw))
            return None
        spec = KEYS.get(target)
        if spec is None or (target in SCIENTIFIC_KEYS and state["mode"] != "scientific"):
            raise UnknownTarget(target)
        self._press(ctx, state, target)
        return state["expr"]

    def _press(self, ctx: AppContext, state: dict, name: str) -> None:
        inserted = KEYS[name][2]
        if inserted is not None:
            self._insert(state, inserted)
        elif name == "key:equals":
            self._equals(ctx, state)
        elif name == "key:clear":
            self._clear(state)
        elif name == "key:backspace":
            self._backspace(state)
        elif name == "key:negate":
            self._negate(state)

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        if name in ("Enter", "Shift+Enter"):
            self._equals(ctx, state)
        elif name == "Backspace":
            self._backspace(state)
        elif name in ("Escape", "Delete"):
            self._clear(state)
        elif name == cmd("Primary+z"):
            self._undo(state)
        elif name in (cmd("Primary+Shift+z"), cmd("Primary+y")):
            self._redo(state)
        elif name in (cmd("Primary+c"), "Ctrl+Insert"):
            self._copy(ctx, state)
        elif name in (cmd("Primary+v"), "Shift+Insert"):
            self._type_text(ctx, state, ctx.clipboard)
        elif name == cmd("Primary+b"):
            state["mode"] = "basic"
        elif name == cmd("Primary+a"):
            state["mode"] = "scientific"
        elif chord.char is not None:
            if chord.char == "=":
                self._equals(ctx, state)
            else:
                self._insert(state, engine.normalize(chord.char))
        else:
            return False
        return True

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        self._type_text(ctx, state, text)
        return True

    def _type_text(self, ctx: AppContext, state: dict, text: str) -> None:
        """Insert typed or pasted text; each ``=`` (or line break) evaluates. Text that
        would grow the expression past :data:`MAX_EXPR` anywhere is refused whole."""
        pieces = [
            engine.normalize(piece)
            for piece in text.replace("\r\n", "\n").replace("\n", "=").split("=")
        ]
        if len(pieces) > 1:
            _dry_run(state, pieces)
        for i, piece in enumerate(pieces):
            if i:
                self._equals(ctx, state)
            self._insert(state, piece)


def _dry_run(state: dict, pieces: list[str]) -> None:
    """Raise :class:`InvalidInput` when typing ``pieces`` (with = between them) would pass
    :data:`MAX_EXPR` at some point; changes nothing."""
    expr, fresh = state["expr"], state["fresh"]
    for i, piece in enumerate(pieces):
        if i and expr and not fresh:
            with contextlib.suppress(engine.CalcError):
                expr, fresh = engine.format_value(engine.evaluate(expr)), True
        if piece:
            if fresh and not piece.startswith(_CONTINUES):
                expr = ""
            expr += piece
            fresh = False
            if len(expr) > MAX_EXPR:
                raise InvalidInput(f"an expression holds at most {MAX_EXPR} characters")


register(Calculator())
