"""The spreadsheet's formula engine (a helper module of :mod:`cwgym.apps.spreadsheet`).

A sheet is a sparse mapping of cell names to what was typed (``{"B3": "=SUM(B1:B2)"}``);
:class:`Sheet` derives the values, lazily and memoised. Everything is exact and
deterministic: numbers are :class:`~decimal.Decimal` (34 significant digits, magnitudes
up to 1E+308 like a double), never ``float``, and :func:`general` shows them the way
LibreOffice Calc's *General* format does (15 significant digits, so ``=0.1+0.2`` is
``0.3``).

What a cell holds (:func:`constant`):

* ``""``: nothing; ``'…`` (a leading apostrophe): the text after it;
* a number: ``[+-]digits[.digits][E[+-]digits]`` (spaces around it are ignored); no
  thousands separators, percentages, currencies or dates — those stay text;
* ``TRUE`` / ``FALSE`` (any case): a boolean (a number 1 / 0 that shows as a word);
* ``=…`` (longer than ``=``): a formula; anything else: text.

Formulas (:func:`parse`), from the loosest to the tightest binding: comparisons ``= <> <
<= > >=``, ``&`` (text concatenation), ``+ -``, ``* /``, ``^`` (left-associative, as in
Calc: ``2^3^2`` is 64), unary ``- +`` (``-2^2`` is 4), postfix ``%``; operands are numbers,
``"strings"`` (``""`` is a quote), ``TRUE``/``FALSE``, cell references ``A1 $A$1 A$1 $A1``,
ranges ``A1:B5`` and whole columns ``A:C``, error literals such as ``#REF!``, function
calls (arguments separated by ``;`` or ``,``) and parentheses.

Errors are values (:class:`Err`) shown as Calc shows them: ``#DIV/0!``, ``#NAME?`` (an
unknown function or name), ``#REF!`` (a reference outside the sheet), ``#VALUE!`` (text
where a number is needed), ``#NUM!`` (a result past ±1E+308), ``#N/A``, ``Err:502``
(invalid argument: ``SQRT(-1)``), ``Err:504`` (wrong number of arguments), ``Err:522``
(circular reference), and the syntax errors ``Err:501`` (invalid character), ``Err:508``
(unbalanced parentheses), ``Err:509`` (missing operator), ``Err:510`` (missing
operand), ``Err:512`` (nested deeper than :data:`MAX_DEPTH`). Nothing raises: a formula
that cannot be read or computed has an error value.

:func:`shift` rewrites a formula copied ``drow`` rows and ``dcol`` columns away: relative
parts of references move, ``$`` parts stay, a reference pushed off the sheet becomes
``#REF!`` (the fill handle, fill down, paste and sort use it).
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from decimal import (
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_UP,
    ROUND_UP,
    Context,
    Decimal,
    DecimalException,
    InvalidOperation,
    Overflow,
)
from typing import Any

__all__ = [
    "FUNCTIONS",
    "MAX_COLS",
    "MAX_DEPTH",
    "MAX_ROWS",
    "Err",
    "Sheet",
    "cell_name",
    "col_name",
    "constant",
    "display",
    "general",
    "is_formula",
    "normalize",
    "parse",
    "parse_cell",
    "sheet_for",
    "shift",
    "sort_key",
]

#: The sheet's size: rows 1..MAX_ROWS, columns A..AZ.
MAX_ROWS = 1000
MAX_COLS = 52
#: How deeply parentheses, function calls and signs may nest in one formula.
MAX_DEPTH = 48

#: Arithmetic: 34 significant digits, overflow past a double's range is ``#NUM!``.
CTX = Context(
    prec=34, rounding=ROUND_HALF_UP, Emax=308, Emin=-308, traps=[InvalidOperation, Overflow]
)
_G15 = Context(prec=15, rounding=ROUND_HALF_UP, Emax=999999, Emin=-999999, traps=[])

ZERO = Decimal(0)
ONE = Decimal(1)


class Err:
    """An error value (``code`` is what the cell shows: ``#DIV/0!``, ``Err:522`` ...)."""

    __slots__ = ("code",)

    def __init__(self, code: str) -> None:
        self.code = code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Err) and other.code == self.code

    def __hash__(self) -> int:
        return hash(("Err", self.code))

    def __repr__(self) -> str:
        return f"Err({self.code!r})"


DIV0 = Err("#DIV/0!")
NAME = Err("#NAME?")
REF = Err("#REF!")
VALUE = Err("#VALUE!")
NUM = Err("#NUM!")
NA = Err("#N/A")
BADARG = Err("Err:502")
ARGS = Err("Err:504")
CIRCULAR = Err("Err:522")
ERROR_LITERALS = {e.code: e for e in (DIV0, NAME, REF, VALUE, NUM, NA, Err("#NULL!"))}


class _Syntax(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# -- names ---------------------------------------------------------------------------------


@functools.cache
def col_name(col: int) -> str:
    """``0 -> "A"``, ``25 -> "Z"``, ``26 -> "AA"``."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def cell_name(col: int, row: int) -> str:
    """``(1, 2) -> "B3"`` (0-based column and row)."""
    return f"{col_name(col)}{row + 1}"


_CELL = re.compile(r"([A-Za-z]{1,3})([1-9][0-9]{0,6})")


@functools.lru_cache(maxsize=4096)
def parse_cell(name: str) -> tuple[int, int] | None:
    """``"B3" -> (1, 2)``; ``None`` for anything that is not a cell of the sheet."""
    m = _CELL.fullmatch(name.strip()) if isinstance(name, str) else None
    if m is None:
        return None
    col, row = _col_index(m.group(1)), int(m.group(2)) - 1
    if col >= MAX_COLS or row >= MAX_ROWS:
        return None
    return col, row


# -- constants -----------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")


def is_formula(raw: str) -> bool:
    return len(raw) > 1 and raw[0] == "="


def _number(text: str) -> Decimal | None:
    text = text.strip()
    if not text or _NUMBER.fullmatch(text) is None:
        return None
    try:
        return CTX.plus(Decimal(text))
    except DecimalException:
        return None


@functools.lru_cache(maxsize=8192)
def constant(raw: str) -> Any:
    """The value of a cell that is not a formula: ``None``, ``Decimal``, ``bool`` or ``str``."""
    if raw == "":
        return None
    if raw[0] == "'":
        return raw[1:]
    n = _number(raw)
    if n is not None:
        return n
    up = raw.strip().upper()
    if up == "TRUE":
        return True
    if up == "FALSE":
        return False
    return raw


# -- showing values ------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def general(d: Decimal) -> str:
    """A number in Calc's General format: at most 15 significant digits, no trailing
    zeros; fixed notation from 1E-5 up to (not including) 1E+15, else ``1.5E+20``."""
    if not d.is_finite():
        return "#NUM!"
    r = _G15.plus(d)
    if r.is_zero():
        return "0"
    adj = r.adjusted()
    if -5 <= adj < 15:
        text = format(r.normalize(_G15), "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    sign, digits, _exp = r.normalize(_G15).as_tuple()
    mant = "".join(map(str, digits))
    mant = mant[0] + ("." + mant[1:] if len(mant) > 1 else "")
    return f"{'-' if sign else ''}{mant}E{'+' if adj >= 0 else '-'}{abs(adj):02d}"


def display(value: Any) -> str:
    """What a cell shows for ``value`` (an empty cell shows nothing)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, Decimal):
        return general(value)
    if isinstance(value, Err):
        return value.code
    return str(value)


def sort_key(value: Any) -> tuple:
    """Ascending order of values: numbers (booleans as 1/0), then text (case-insensitive),
    then errors. Empty cells are placed by the caller (always last)."""
    if isinstance(value, bool):
        return (0, Decimal(int(value)), "")
    if isinstance(value, Decimal):
        return (0, value, "")
    if isinstance(value, Err):
        return (2, ZERO, value.code)
    return (1, ZERO, str(value).casefold())


# -- tokens --------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<num>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<str>"(?:[^"]|"")*")
  | (?P<err>\#(?:REF!|DIV/0!|N/A|NAME\?|VALUE!|NUM!|NULL!))
  | (?P<name>[$A-Za-z_][$A-Za-z0-9_.]*)
  | (?P<op><>|<=|>=|[-+*/^&=<>%(),;:])
    """,
    re.VERBOSE,
)
_REF = re.compile(r"(\$?)([A-Za-z]{1,3})(\$?)([0-9]+)")
_COLREF = re.compile(r"(\$?)([A-Za-z]{1,3})")


def _tokens(src: str) -> list[tuple[str, str, int, int]]:
    """``(kind, text, start, end)`` of a formula body; raises :class:`_Syntax`."""
    out = []
    i, n = 0, len(src)
    while i < n:
        m = _TOKEN.match(src, i)
        if m is None:  # an unknown character, or a string left open
            raise _Syntax("Err:501")
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group(), m.start(), m.end()))
        i = m.end()
    return out


# -- parsing -------------------------------------------------------------------------------
#
# Nodes are tuples: ("num", Decimal) ("str", s) ("bool", b) ("err", Err) ("empty",)
# ("ref", col, row) ("range", c1, r1, c2, r2) ("neg", x) ("pct", x)
# ("chain", op-level, first, ((op, operand), ...)) ("call", NAME, (args...)) ("name", text)


class _Parser:
    def __init__(self, src: str) -> None:
        self.toks = _tokens(src)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str, int, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def at_op(self, *ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in ops:
            return tok[1]
        return None

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Syntax("Err:512")

    def parse(self) -> tuple:
        if not self.toks:
            raise _Syntax("Err:510")
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            raise _Syntax("Err:508" if tok[1] == ")" else "Err:509")
        return node

    def expr(self) -> tuple:
        return self._chain(0)

    _LEVELS = (("=", "<>", "<", "<=", ">", ">="), ("&",), ("+", "-"), ("*", "/"), ("^",))

    def _chain(self, level: int) -> tuple:
        if level == len(self._LEVELS):
            return self.unary()
        first = self._chain(level + 1)
        rest = []
        ops = self._LEVELS[level]
        while (op := self.at_op(*ops)) is not None:
            self.take()
            rest.append((op, self._chain(level + 1)))
        return first if not rest else ("chain", level, first, tuple(rest))

    def unary(self) -> tuple:
        op = self.at_op("-", "+")
        if op is not None:
            self.take()
            self.nest()
            inner = self.unary()
            self.depth -= 1
            return ("neg", inner) if op == "-" else inner
        node = self.primary()
        while self.at_op("%"):
            self.take()
            node = ("pct", node)
        return node

    def primary(self) -> tuple:
        tok = self.peek()
        if tok is None:
            raise _Syntax("Err:510")
        kind, text, _s, _e = tok
        if kind == "num":
            self.take()
            try:
                return ("num", CTX.plus(Decimal(text)))
            except DecimalException:
                return ("err", NUM)
        if kind == "str":
            self.take()
            return ("str", text[1:-1].replace('""', '"'))
        if kind == "err":
            self.take()
            node: tuple = ("err", ERROR_LITERALS[text])
            if self.at_op(":"):  # #REF!:B2 is still #REF!
                self.take()
                self.primary()
            return node
        if kind == "op" and text == "(":
            self.take()
            self.nest()
            node = self.expr()
            self.depth -= 1
            if not self.at_op(")"):
                raise _Syntax("Err:508")
            self.take()
            return node
        if kind == "name":
            return self.name()
        if kind == "op" and text == ")":
            raise _Syntax("Err:508")
        raise _Syntax("Err:510")

    def name(self) -> tuple:
        _kind, text, _s, _e = self.take()
        if self.at_op("("):
            self.take()
            self.nest()
            args = self.args()
            self.depth -= 1
            return ("call", text.upper(), tuple(args))
        ref = _ref_of(text)
        if self.at_op(":"):
            nxt = self.toks[self.i + 1] if self.i + 1 < len(self.toks) else None
            if nxt is None or nxt[0] not in ("name", "err"):
                raise _Syntax("Err:510")
            self.take()
            self.take()
            if nxt[0] == "err":
                return ("err", ERROR_LITERALS[nxt[1]])
            if ref is None:  # whole columns: A:C
                a, b = _colref_of(text), _colref_of(nxt[1])
                if a is None or b is None:
                    return ("name", text)
                if isinstance(a, Err) or isinstance(b, Err):
                    return ("err", REF)
                return ("range", min(a, b), 0, max(a, b), MAX_ROWS - 1)
            other = _ref_of(nxt[1])
            if other is None:
                return ("name", nxt[1])
            if isinstance(ref, Err) or isinstance(other, Err):
                return ("err", REF)
            (c1, r1), (c2, r2) = ref, other
            return ("range", min(c1, c2), min(r1, r2), max(c1, c2), max(r1, r2))
        if ref is not None:
            return ("err", ref) if isinstance(ref, Err) else ("ref", *ref)
        up = text.upper()
        if up in ("TRUE", "FALSE"):
            return ("bool", up == "TRUE")
        return ("name", text)

    def args(self) -> list[tuple]:
        args: list[tuple] = []
        if self.at_op(")"):
            self.take()
            return args
        while True:
            if self.at_op(";", ",", ")"):
                args.append(("empty",))
            else:
                args.append(self.expr())
            sep = self.at_op(";", ",", ")")
            if sep is None:
                if self.peek() is None:
                    raise _Syntax("Err:508")
                raise _Syntax("Err:509")
            self.take()
            if sep == ")":
                return args


def _ref_of(text: str) -> tuple[int, int] | Err | None:
    """A cell reference's (col, row), :data:`REF` when it is off the sheet, ``None`` when
    the text is no reference."""
    m = _REF.fullmatch(text)
    if m is None:
        return None
    col, row = _col_index(m.group(2)), int(m.group(4)) - 1
    if row < 0 or col >= MAX_COLS or row >= MAX_ROWS:
        return REF
    return col, row


def _colref_of(text: str) -> int | Err | None:
    m = _COLREF.fullmatch(text)
    if m is None:
        return None
    col = _col_index(m.group(2))
    return REF if col >= MAX_COLS else col


@functools.lru_cache(maxsize=8192)
def parse(raw: str) -> tuple:
    """The node of a formula (``raw`` with its ``=``); a syntax error is ``("err", Err)``."""
    try:
        return _Parser(raw[1:]).parse()
    except _Syntax as exc:
        return ("err", Err(exc.code))
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps well below the limit
        return ("err", Err("Err:512"))


def normalize(raw: str) -> str:
    """A formula as Calc stores it on Enter: names (functions, references, ``TRUE``) in
    capitals, and the closing parentheses a formula lacks at its end added when that makes
    it readable. Anything that is not a formula is returned as it is."""
    if not is_formula(raw):
        return raw
    body = raw[1:]
    try:
        toks = _tokens(body)
    except _Syntax:
        return raw
    out: list[str] = []
    pos = 0
    depth = 0
    for kind, text, s, e in toks:
        if kind == "name":
            out.append(body[pos:s])
            out.append(text.upper())
            pos = e
        elif text == "(":
            depth += 1
        elif text == ")":
            depth -= 1
    out.append(body[pos:])
    new = "=" + "".join(out)
    if depth > 0 and parse(new + ")" * depth)[0] != "err":
        new += ")" * depth
    return new


# -- shifting references -------------------------------------------------------------------


def _shift_ref(text: str, drow: int, dcol: int) -> str | None:
    """A reference moved; ``None`` when it leaves the sheet."""
    m = _REF.fullmatch(text)
    if m is not None:
        cabs, letters, rabs, digits = m.groups()
        col, row = _col_index(letters), int(digits) - 1
        if not cabs:
            col += dcol
        if not rabs:
            row += drow
        if not (0 <= col < MAX_COLS and 0 <= row < MAX_ROWS):
            return None
        return f"{cabs}{col_name(col)}{rabs}{row + 1}"
    m = _COLREF.fullmatch(text)
    if m is not None:
        cabs, letters = m.groups()
        col = _col_index(letters) + (0 if cabs else dcol)
        if not 0 <= col < MAX_COLS:
            return None
        return f"{cabs}{col_name(col)}"
    return None


def shift(raw: str, drow: int, dcol: int) -> str:
    """The formula ``raw`` as it reads copied ``drow`` rows down and ``dcol`` columns right
    (see the module docs); anything that is not a formula is returned as it is."""
    if not is_formula(raw) or (drow == 0 and dcol == 0):
        return raw
    body = raw[1:]
    try:
        toks = _tokens(body)
    except _Syntax:
        return raw
    out: list[str] = []
    pos = 0
    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        kind, text, start, _end = tok
        if kind != "name" or (i + 1 < n and toks[i + 1][1] == "("):
            i += 1
            continue
        nxt = (
            toks[i + 2]
            if i + 2 < n and toks[i + 1][1] == ":" and toks[i + 2][0] == "name"
            else None
        )
        if nxt is not None and (
            (_REF.fullmatch(text) and _REF.fullmatch(nxt[1]))
            or (_COLREF.fullmatch(text) and _COLREF.fullmatch(nxt[1]))
        ):
            parts = [tok, nxt]
        elif _REF.fullmatch(text):
            parts = [tok]
        else:
            i += 1
            continue
        moved = [_shift_ref(part[1], drow, dcol) for part in parts]
        out.append(body[pos:start])
        if any(m is None for m in moved):
            out.append("#REF!")
        elif len(parts) == 2:
            out.append(f"{moved[0]}{body[parts[0][3] : parts[1][2]]}{moved[1]}")
        else:
            out.append(moved[0] or "")
        pos = parts[-1][3]
        i += 2 * len(parts) - 1
    out.append(body[pos:])
    return "=" + "".join(out)


# -- values --------------------------------------------------------------------------------


def _to_number(v: Any) -> Decimal | Err:
    if isinstance(v, bool):
        return ONE if v else ZERO
    if isinstance(v, Decimal):
        return v
    if v is None:
        return ZERO
    if isinstance(v, Err):
        return v
    n = _number(v)
    return VALUE if n is None else n


def _to_text(v: Any) -> str | Err:
    if isinstance(v, Err):
        return v
    return display(v)


def _to_bool(v: Any) -> bool | Err:
    if isinstance(v, bool):
        return v
    if isinstance(v, Decimal):
        return not v.is_zero()
    if v is None:
        return False
    if isinstance(v, Err):
        return v
    up = v.strip().upper()
    if up in ("TRUE", "FALSE"):
        return up == "TRUE"
    return VALUE


def _arith(op: str, a: Decimal, b: Decimal) -> Decimal | Err:
    try:
        if op == "+":
            return CTX.add(a, b)
        if op == "-":
            return CTX.subtract(a, b)
        if op == "*":
            return CTX.multiply(a, b)
        if op == "/":
            if b.is_zero():
                return DIV0
            return CTX.divide(a, b)
        # ^
        if a.is_zero() and b < 0:
            return DIV0
        if a < 0 and b != b.to_integral_value():
            return BADARG
        if b == b.to_integral_value() and abs(b) <= 10000:
            return CTX.power(a, int(b))
        return CTX.power(a, b)
    except Overflow:
        return NUM
    except DecimalException:
        return BADARG


def _compare(op: str, a: Any, b: Any) -> bool:
    ka, kb = _cmp_key(a, b), _cmp_key(b, a)
    if op == "=":
        return ka == kb
    if op == "<>":
        return ka != kb
    if op == "<":
        return ka < kb
    if op == "<=":
        return ka <= kb
    if op == ">":
        return ka > kb
    return ka >= kb


def _cmp_key(v: Any, other: Any) -> tuple:
    """Calc's order: numbers (and booleans) below text; an empty cell is 0 against a
    number and "" against text."""
    if v is None:
        v = "" if isinstance(other, str) else ZERO
    if isinstance(v, bool):
        return (0, Decimal(int(v)), "")
    if isinstance(v, Decimal):
        return (0, v, "")
    return (1, ZERO, str(v).casefold())


# -- the sheet -----------------------------------------------------------------------------


class Sheet:
    """Values of one sheet's cells (``{"B3": raw}``), computed on demand and memoised."""

    def __init__(self, cells: Mapping[str, str]) -> None:
        raw: dict[tuple[int, int], str] = {}
        for name, text in cells.items():
            at = parse_cell(name)
            if at is not None and text != "":
                raw[at] = text
        self.raw = raw
        self.formulas = sorted(k for k, v in raw.items() if is_formula(v))
        self.memo: dict[tuple[int, int], Any] = {}
        #: What the application derives from the values (painted rows, sums), by its own keys.
        self.views: dict[Any, Any] = {}

    # -- reading -------------------------------------------------------------------------
    def value(self, col: int, row: int) -> Any:
        """The value of a cell: ``None`` (empty), ``Decimal``, ``bool``, ``str`` or :class:`Err`."""
        key = (col, row)
        hit = self.memo.get(key, self)
        if hit is not self:
            return hit
        text = self.raw.get(key)
        if text is None:
            return None
        if not is_formula(text):
            v = constant(text)
            self.memo[key] = v
            return v
        self._compute(key)
        return self.memo[key]

    def shown(self, col: int, row: int) -> str:
        return display(self.value(col, row))

    def cells_in(self, c1: int, r1: int, c2: int, r2: int) -> list[tuple[int, int]]:
        """The non-empty cells of a range, row by row."""
        if (c2 - c1 + 1) * (r2 - r1 + 1) <= len(self.raw):
            raw = self.raw
            return [(c, r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1) if (c, r) in raw]
        found = [k for k in self.raw if c1 <= k[0] <= c2 and r1 <= k[1] <= r2]
        found.sort(key=lambda k: (k[1], k[0]))
        return found

    # -- computing -----------------------------------------------------------------------
    def _deps(self, key: tuple[int, int]) -> Iterator[tuple[int, int]]:
        """The formula cells a formula reads (which must be computed first)."""
        node = parse(self.raw[key])
        stack = [node]
        raw = self.raw
        while stack:
            n = stack.pop()
            tag = n[0]
            if tag == "ref":
                at = (n[1], n[2])
                text = raw.get(at)
                if text is not None and is_formula(text):
                    yield at
            elif tag == "range":
                _t, c1, r1, c2, r2 = n
                size = (c2 - c1 + 1) * (r2 - r1 + 1)
                if size <= len(self.formulas):
                    for r in range(r1, r2 + 1):
                        for c in range(c1, c2 + 1):
                            text = raw.get((c, r))
                            if text is not None and is_formula(text):
                                yield (c, r)
                else:
                    for at in self.formulas:
                        if c1 <= at[0] <= c2 and r1 <= at[1] <= r2:
                            yield at
            elif tag in ("neg", "pct"):
                stack.append(n[1])
            elif tag == "chain":
                stack.append(n[2])
                stack.extend(x for _op, x in n[3])
            elif tag == "call":
                stack.extend(n[2])

    def _compute(self, start: tuple[int, int]) -> None:
        """Compute ``start`` and every formula it needs, depth first without recursion;
        the cells of a cycle are :data:`CIRCULAR`."""
        memo = self.memo
        path = [start]
        on_path = {start: 0}
        iters = [self._deps(start)]
        while iters:
            for dep in iters[-1]:
                if dep in memo:
                    continue
                if dep in on_path:
                    for k in path[on_path[dep] :]:
                        memo[k] = CIRCULAR
                    continue
                on_path[dep] = len(path)
                path.append(dep)
                iters.append(self._deps(dep))
                break
            else:
                iters.pop()
                key = path.pop()
                del on_path[key]
                if key not in memo:
                    memo[key] = self._result(key)

    def _result(self, key: tuple[int, int]) -> Any:
        v = self._eval(parse(self.raw[key]))
        if isinstance(v, _Range):
            v = v.single()
        if v is None:
            return ZERO
        if isinstance(v, Decimal):
            if not v.is_finite():
                return NUM
            return CTX.plus(v) if v.is_zero() else v
        return v

    def _get(self, col: int, row: int) -> Any:
        key = (col, row)
        hit = self.memo.get(key, self)
        if hit is not self:
            return hit
        return self.value(col, row)

    def _eval(self, n: tuple) -> Any:
        tag = n[0]
        if tag == "num" or tag == "str" or tag == "bool":
            return n[1]
        if tag == "ref":
            return self._get(n[1], n[2])
        if tag == "range":
            return _Range(self, n[1], n[2], n[3], n[4])
        if tag == "err":
            return n[1]
        if tag == "empty":
            return None
        if tag == "name":
            return NAME
        if tag == "neg":
            v = _to_number(self._scalar(n[1]))
            return v if isinstance(v, Err) else CTX.minus(v)
        if tag == "pct":
            v = _to_number(self._scalar(n[1]))
            return v if isinstance(v, Err) else CTX.divide(v, Decimal(100))
        if tag == "chain":
            return self._chain(n)
        if tag == "call":
            fn = FUNCTIONS.get(n[1])
            if fn is None:
                return NAME
            return fn(self, n[2])
        return VALUE  # pragma: no cover

    def _scalar(self, n: tuple) -> Any:
        v = self._eval(n)
        return v.single() if isinstance(v, _Range) else v

    def _chain(self, n: tuple) -> Any:
        _tag, level, first, rest = n
        acc = self._scalar(first)
        for op, node in rest:
            b = self._scalar(node)
            if level == 0:  # comparison
                if isinstance(acc, Err):
                    return acc
                if isinstance(b, Err):
                    return b
                acc = _compare(op, acc, b)
            elif level == 1:  # &
                ta, tb = _to_text(acc), _to_text(b)
                if isinstance(ta, Err):
                    return ta
                if isinstance(tb, Err):
                    return tb
                acc = ta + tb
            else:
                na, nb = _to_number(acc), _to_number(b)
                if isinstance(na, Err):
                    return na
                if isinstance(nb, Err):
                    return nb
                acc = _arith(op, na, nb)
                if isinstance(acc, Err):
                    return acc
        return acc


class _Range:
    """A range operand: functions read its cells; as a single value it is its only cell
    (a larger range is ``#VALUE!``)."""

    __slots__ = ("c1", "c2", "r1", "r2", "sheet")

    def __init__(self, sheet: Sheet, c1: int, r1: int, c2: int, r2: int) -> None:
        self.sheet, self.c1, self.r1, self.c2, self.r2 = sheet, c1, r1, c2, r2

    def single(self) -> Any:
        if self.c1 == self.c2 and self.r1 == self.r2:
            return self.sheet._get(self.c1, self.r1)
        return VALUE

    def values(self) -> list[Any]:
        """The values of the non-empty cells, row by row."""
        s = self.sheet
        return [s._get(c, r) for c, r in s.cells_in(self.c1, self.r1, self.c2, self.r2)]

    def grid(self) -> list[list[Any]]:
        s = self.sheet
        return [
            [s._get(c, r) for c in range(self.c1, self.c2 + 1)] for r in range(self.r1, self.r2 + 1)
        ]

    @property
    def size(self) -> int:
        return (self.c2 - self.c1 + 1) * (self.r2 - self.r1 + 1)


# -- functions -----------------------------------------------------------------------------

Fn = Callable[[Sheet, tuple], Any]
#: Function name -> implementation (``fn(sheet, argument nodes)``).
FUNCTIONS: dict[str, Fn] = {}


def _fn(*names: str) -> Callable[[Fn], Fn]:
    def deco(f: Fn) -> Fn:
        for name in names:
            FUNCTIONS[name] = f
        return f

    return deco


def _numbers(sheet: Sheet, args: tuple) -> list[Decimal] | Err:
    """The numbers of aggregate arguments: a range or reference contributes its numbers
    and booleans (text and empty cells are skipped), a direct value must be a number."""
    out: list[Decimal] = []
    for a in args:
        if a[0] == "empty":
            continue
        if a[0] in ("range", "ref"):
            v = sheet._eval(a)
            vals = v.values() if isinstance(v, _Range) else [v]
            for x in vals:
                if isinstance(x, Err):
                    return x
                if isinstance(x, bool):
                    out.append(ONE if x else ZERO)
                elif isinstance(x, Decimal):
                    out.append(x)
            continue
        v = sheet._eval(a)
        if isinstance(v, _Range):
            for x in v.values():
                if isinstance(x, Err):
                    return x
                if isinstance(x, bool):
                    out.append(ONE if x else ZERO)
                elif isinstance(x, Decimal):
                    out.append(x)
            continue
        n = _to_number(v)
        if isinstance(n, Err):
            return n
        out.append(n)
    return out


def _safe(f: Callable[[], Any]) -> Any:
    try:
        return f()
    except Overflow:
        return NUM
    except DecimalException:
        return BADARG


@_fn("SUM")
def _sum(sheet: Sheet, args: tuple) -> Any:
    nums = _numbers(sheet, args)
    if isinstance(nums, Err):
        return nums
    return _safe(lambda: _total(nums))


def _total(nums: list[Decimal]) -> Decimal:
    acc = ZERO
    for x in nums:
        acc = CTX.add(acc, x)
    return acc


@_fn("PRODUCT")
def _product(sheet: Sheet, args: tuple) -> Any:
    nums = _numbers(sheet, args)
    if isinstance(nums, Err):
        return nums

    def go() -> Decimal:
        acc = ONE
        for x in nums:
            acc = CTX.multiply(acc, x)
        return acc if nums else ZERO

    return _safe(go)


@_fn("AVERAGE")
def _average(sheet: Sheet, args: tuple) -> Any:
    if not args:
        return ARGS
    nums = _numbers(sheet, args)
    if isinstance(nums, Err):
        return nums
    if not nums:
        return DIV0
    return _safe(lambda: CTX.divide(_total(nums), Decimal(len(nums))))


def _min(sheet: Sheet, args: tuple) -> Any:
    if not args:
        return ARGS
    nums = _numbers(sheet, args)
    if isinstance(nums, Err):
        return nums
    return min(nums) if nums else ZERO


def _max(sheet: Sheet, args: tuple) -> Any:
    if not args:
        return ARGS
    nums = _numbers(sheet, args)
    if isinstance(nums, Err):
        return nums
    return max(nums) if nums else ZERO


FUNCTIONS["MIN"] = _min
FUNCTIONS["MAX"] = _max


@_fn("COUNT")
def _count(sheet: Sheet, args: tuple) -> Any:
    n = 0
    for a in args:
        if a[0] == "empty":
            continue
        v = sheet._eval(a)
        vals = v.values() if isinstance(v, _Range) else [v]
        for x in vals:
            if a[0] in ("range", "ref"):
                n += isinstance(x, (Decimal, bool))
            else:
                n += isinstance(x, (Decimal, bool)) or (
                    isinstance(x, str) and _number(x) is not None
                )
    return Decimal(n)


@_fn("COUNTA")
def _counta(sheet: Sheet, args: tuple) -> Any:
    n = 0
    for a in args:
        if a[0] == "empty":
            continue
        v = sheet._eval(a)
        if isinstance(v, _Range):
            n += len(v.values())
        else:
            n += 0 if v is None and a[0] == "ref" else 1
    return Decimal(n)


@_fn("COUNTBLANK")
def _countblank(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    v = sheet._eval(args[0])
    if not isinstance(v, _Range):
        return Decimal(int(v is None or v == ""))
    filled = sum(1 for x in v.values() if not (isinstance(x, str) and x == ""))
    return Decimal(v.size - filled)


def _arg(sheet: Sheet, node: tuple) -> Any:
    return sheet._scalar(node)


def _num_arg(sheet: Sheet, node: tuple) -> Decimal | Err:
    return _to_number(_arg(sheet, node))


@_fn("IF")
def _if(sheet: Sheet, args: tuple) -> Any:
    if not 1 <= len(args) <= 3:
        return ARGS
    cond = _to_bool(_arg(sheet, args[0]))
    if isinstance(cond, Err):
        return cond
    if cond:
        return _arg(sheet, args[1]) if len(args) > 1 else True
    return _arg(sheet, args[2]) if len(args) > 2 else False


@_fn("IFERROR")
def _iferror(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 2:
        return ARGS
    v = _arg(sheet, args[0])
    return _arg(sheet, args[1]) if isinstance(v, Err) else v


@_fn("ISERROR")
def _iserror(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    return isinstance(_arg(sheet, args[0]), Err)


@_fn("ISBLANK")
def _isblank(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    return args[0][0] == "ref" and _arg(sheet, args[0]) is None


@_fn("ISNUMBER")
def _isnumber(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    v = _arg(sheet, args[0])
    return isinstance(v, Decimal)


@_fn("ISTEXT")
def _istext(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    return isinstance(_arg(sheet, args[0]), str)


def _logic(sheet: Sheet, args: tuple, want_all: bool) -> Any:
    seen: list[bool] = []
    for a in args:
        v = sheet._eval(a)
        vals = v.values() if isinstance(v, _Range) else [v]
        for x in vals:
            if isinstance(x, Err):
                return x
            if isinstance(x, (Decimal, bool)):
                seen.append(bool(_to_bool(x)))
            elif isinstance(x, str) and a[0] not in ("range", "ref"):
                b = _to_bool(x)
                if isinstance(b, Err):
                    return b
                seen.append(b)
    if not seen:
        return VALUE
    return all(seen) if want_all else any(seen)


FUNCTIONS["AND"] = lambda sheet, args: _logic(sheet, args, True)
FUNCTIONS["OR"] = lambda sheet, args: _logic(sheet, args, False)


@_fn("NOT")
def _not(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    b = _to_bool(_arg(sheet, args[0]))
    return b if isinstance(b, Err) else not b


@_fn("TRUE")
def _true(sheet: Sheet, args: tuple) -> Any:
    return ARGS if args else True


@_fn("FALSE")
def _false(sheet: Sheet, args: tuple) -> Any:
    return ARGS if args else False


def _round_to(x: Decimal, digits: Decimal, mode: str) -> Decimal | Err:
    if not digits.is_finite() or abs(digits) > 400:
        return BADARG
    n = int(digits)  # toward zero, as Calc truncates the count
    if x.is_zero():
        return ZERO
    exp = x.as_tuple().exponent
    if isinstance(exp, int) and exp >= -n:
        return x  # already has no more decimals than asked
    try:
        q = x.quantize(Decimal(1).scaleb(-n), rounding=mode, context=CTX)
    except DecimalException:
        return x
    return q


def _rounder(mode: str) -> Fn:
    def fn(sheet: Sheet, args: tuple) -> Any:
        if not 1 <= len(args) <= 2:
            return ARGS
        x = _num_arg(sheet, args[0])
        d = _num_arg(sheet, args[1]) if len(args) > 1 else ZERO
        if isinstance(x, Err):
            return x
        if isinstance(d, Err):
            return d
        return _round_to(x, d, mode)

    return fn


FUNCTIONS["ROUND"] = _rounder(ROUND_HALF_UP)
FUNCTIONS["ROUNDUP"] = _rounder(ROUND_UP)
FUNCTIONS["ROUNDDOWN"] = _rounder(ROUND_DOWN)


@_fn("INT")
def _int(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    x = _num_arg(sheet, args[0])
    if isinstance(x, Err):
        return x
    return x.to_integral_value(rounding=ROUND_FLOOR)


@_fn("ABS")
def _abs(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    x = _num_arg(sheet, args[0])
    return x if isinstance(x, Err) else abs(x)


@_fn("MOD")
def _mod(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 2:
        return ARGS
    a, b = _num_arg(sheet, args[0]), _num_arg(sheet, args[1])
    if isinstance(a, Err):
        return a
    if isinstance(b, Err):
        return b
    if b.is_zero():
        return DIV0

    def go() -> Decimal:
        q = CTX.divide(a, b).to_integral_value(rounding=ROUND_FLOOR)
        return CTX.subtract(a, CTX.multiply(b, q))

    return _safe(go)


@_fn("SQRT")
def _sqrt(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    x = _num_arg(sheet, args[0])
    if isinstance(x, Err):
        return x
    if x < 0:
        return BADARG
    return CTX.sqrt(x)


@_fn("POWER")
def _power(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 2:
        return ARGS
    a, b = _num_arg(sheet, args[0]), _num_arg(sheet, args[1])
    if isinstance(a, Err):
        return a
    if isinstance(b, Err):
        return b
    return _arith("^", a, b)


def _text_arg(sheet: Sheet, node: tuple) -> str | Err:
    return _to_text(_arg(sheet, node))


@_fn("LEN")
def _len(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 1:
        return ARGS
    t = _text_arg(sheet, args[0])
    return t if isinstance(t, Err) else Decimal(len(t))


def _text_fn(f: Callable[[str], str]) -> Fn:
    def fn(sheet: Sheet, args: tuple) -> Any:
        if len(args) != 1:
            return ARGS
        t = _text_arg(sheet, args[0])
        return t if isinstance(t, Err) else f(t)

    return fn


FUNCTIONS["UPPER"] = _text_fn(str.upper)
FUNCTIONS["LOWER"] = _text_fn(str.lower)
FUNCTIONS["TRIM"] = _text_fn(lambda s: re.sub(" +", " ", s).strip(" "))


def _count_arg(sheet: Sheet, node: tuple) -> int | Err:
    n = _num_arg(sheet, node)
    if isinstance(n, Err):
        return n
    if n < 0:
        return BADARG
    return int(min(n, Decimal(1_000_000)))


def _side(left: bool) -> Fn:
    def fn(sheet: Sheet, args: tuple) -> Any:
        if not 1 <= len(args) <= 2:
            return ARGS
        t = _text_arg(sheet, args[0])
        if isinstance(t, Err):
            return t
        n = _count_arg(sheet, args[1]) if len(args) > 1 else 1
        if isinstance(n, Err):
            return n
        return t[:n] if left else (t[len(t) - n :] if n else "")

    return fn


FUNCTIONS["LEFT"] = _side(True)
FUNCTIONS["RIGHT"] = _side(False)


@_fn("MID")
def _mid(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 3:
        return ARGS
    t = _text_arg(sheet, args[0])
    if isinstance(t, Err):
        return t
    start, n = _count_arg(sheet, args[1]), _count_arg(sheet, args[2])
    if isinstance(start, Err):
        return start
    if isinstance(n, Err):
        return n
    if start < 1:
        return BADARG
    return t[start - 1 : start - 1 + n]


@_fn("CONCATENATE", "CONCAT")
def _concat(sheet: Sheet, args: tuple) -> Any:
    parts: list[str] = []
    for a in args:
        v = sheet._eval(a)
        vals = v.values() if isinstance(v, _Range) else [v]
        for x in vals:
            t = _to_text(x)
            if isinstance(t, Err):
                return t
            parts.append(t)
    return "".join(parts)


# -- conditional aggregates ----------------------------------------------------------------

_CRIT = re.compile(r"(<=|>=|<>|<|>|=)?(.*)", re.DOTALL)


def _criterion(c: Any) -> Callable[[Any], bool]:
    """A SUMIF/COUNTIF criterion: a number or boolean (equal), or text with an optional
    comparison in front (``">5"``, ``"<>travel"``, ``"=x"``); text is compared without
    regard to case and ``*`` / ``?`` are wildcards for ``=`` and ``<>``."""
    if isinstance(c, (Decimal, bool)) or c is None:
        key = _cmp_key(ZERO if c is None else c, ZERO)
        return lambda v: (
            v is not None
            and not isinstance(v, Err)
            and not isinstance(v, str)
            and _cmp_key(v, ZERO) == key
        )
    m = _CRIT.fullmatch(str(c))
    op = (m.group(1) if m else None) or "="
    rest = m.group(2) if m else str(c)
    n = _number(rest)
    if n is not None:
        target: Any = n

        def numeric(v: Any) -> bool:
            if isinstance(v, Err) or v is None:
                return op == "<>" and v is None
            if isinstance(v, str):
                return op == "<>"
            return _compare(op, v, target)

        return numeric
    if op in ("=", "<>"):
        if rest == "":
            empty_eq = op == "="
            return lambda v: (v is None or v == "") == empty_eq
        pattern = re.compile(
            "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in rest),
            re.IGNORECASE | re.DOTALL,
        )
        if op == "=":
            return lambda v: isinstance(v, str) and pattern.fullmatch(v) is not None
        return lambda v: not (isinstance(v, str) and pattern.fullmatch(v) is not None)
    return lambda v: isinstance(v, str) and _compare(op, v, rest)


def _if_cells(sheet: Sheet, args: tuple) -> tuple[list[tuple[Any, Any]], Err | None]:
    """``[(tested value, summed value)]`` of a SUMIF/COUNTIF/AVERAGEIF call."""
    rng = sheet._eval(args[0])
    if not isinstance(rng, _Range):
        return [], VALUE
    crit = _arg(sheet, args[1])
    if isinstance(crit, Err):
        return [], crit
    test = _criterion(crit)
    target = rng
    if len(args) > 2:
        node = args[2]
        other = (
            _Range(sheet, node[1], node[2], node[1], node[2])
            if node[0] == "ref"
            else sheet._eval(node)
        )
        if not isinstance(other, _Range):
            return [], VALUE
        target = _Range(
            sheet, other.c1, other.r1, other.c1 + (rng.c2 - rng.c1), other.r1 + (rng.r2 - rng.r1)
        )
        if target.c2 >= MAX_COLS or target.r2 >= MAX_ROWS:
            return [], REF
    out = []
    for c, r in (
        sheet.cells_in(rng.c1, rng.r1, rng.c2, rng.r2) if not test(None) else _all_cells(rng)
    ):
        v = sheet._get(c, r)
        if test(v):
            out.append((v, sheet._get(target.c1 + c - rng.c1, target.r1 + r - rng.r1)))
    return out, None


def _all_cells(rng: _Range) -> list[tuple[int, int]]:
    return [(c, r) for r in range(rng.r1, rng.r2 + 1) for c in range(rng.c1, rng.c2 + 1)]


@_fn("COUNTIF")
def _countif(sheet: Sheet, args: tuple) -> Any:
    if len(args) != 2:
        return ARGS
    cells, err = _if_cells(sheet, args)
    return err if err is not None else Decimal(len(cells))


def _sum_if(sheet: Sheet, args: tuple, average: bool) -> Any:
    if not 2 <= len(args) <= 3:
        return ARGS
    cells, err = _if_cells(sheet, args)
    if err is not None:
        return err
    nums = []
    for _v, s in cells:
        if isinstance(s, Err):
            return s
        if isinstance(s, Decimal):
            nums.append(s)
    if average:
        return _safe(lambda: CTX.divide(_total(nums), Decimal(len(nums)))) if nums else DIV0
    return _safe(lambda: _total(nums))


FUNCTIONS["SUMIF"] = lambda sheet, args: _sum_if(sheet, args, False)
FUNCTIONS["AVERAGEIF"] = lambda sheet, args: _sum_if(sheet, args, True)


def _step_round(up: bool) -> Fn:
    def fn(sheet: Sheet, args: tuple) -> Any:
        if not 1 <= len(args) <= 2:
            return ARGS
        x = _num_arg(sheet, args[0])
        step = _num_arg(sheet, args[1]) if len(args) > 1 else ONE
        if isinstance(x, Err):
            return x
        if isinstance(step, Err):
            return step
        if step.is_zero():
            return ZERO
        if x * step < 0:
            return BADARG

        def go() -> Decimal:
            q = CTX.divide(x, step).to_integral_value(rounding=ROUND_CEILING if up else ROUND_FLOOR)
            return CTX.multiply(q, step)

        return _safe(go)

    return fn


FUNCTIONS["CEILING"] = _step_round(True)
FUNCTIONS["FLOOR"] = _step_round(False)


# -- a cache of sheets ---------------------------------------------------------------------

_SHEETS: OrderedDict[frozenset, Sheet] = OrderedDict()
#: Sheets kept (by content): the painter and the application share them.
SHEETS_KEPT = 16


def sheet_for(cells: Mapping[str, str]) -> Sheet:
    """The (memoised) :class:`Sheet` of a cell mapping, shared by equal contents."""
    key = frozenset(cells.items())
    hit = _SHEETS.get(key)
    if hit is not None:
        _SHEETS.move_to_end(key)
        return hit
    sheet = Sheet(cells)
    _SHEETS[key] = sheet
    if len(_SHEETS) > SHEETS_KEPT:
        _SHEETS.popitem(last=False)
    return sheet
