"""The calculator's arithmetic (a helper module of ``calculator``, not an application).

:func:`evaluate` reads an expression as the calculator's display shows it and returns its
value as exact text, or raises :class:`CalcError` with the message the display shows.

* **Exact.** Numbers are :class:`fractions.Fraction`: ``+ − × ÷``, ``%``, integer powers,
  ``x²``, ``x⁻¹``, ``n!`` and square roots of perfect squares are exact. Irrational results
  (``√2``, ``sin``, ``ln``, ``π``, fractional powers) are computed with :mod:`decimal` at
  :data:`PRECISION` significant digits in a private context and continued exactly from
  there. Nothing is a ``float``, so the same expression gives the same text everywhere.
* **Shown** (:func:`format_value`) rounded half away from zero to :data:`DECIMALS` decimal
  places (GNOME Calculator's default accuracy), without trailing zeros; integer parts past
  :data:`FIXED_DIGITS` digits, or nonzero values that round to 0, are shown as
  ``1.234567891×10^25``, a form the parser reads back.
* **Grammar.** ``+ −`` (binary and unary), ``× ÷`` (also ``*`` ``/``), implicit
  multiplication (``2π``, ``3(1+2)``, ``2√9``), ``^`` (right-associative), postfix ``²``
  ``⁻¹`` ``!`` ``%``, ``√`` (prefix, binds like unary minus), parentheses (missing closing
  ones are added at the end), the constants ``π`` (``pi``) and ``e``, and the functions
  ``sin cos tan`` (degrees), ``ln``, ``log`` (base 10), ``sqrt`` and ``abs``, each followed
  by ``(``. ``a + b%`` and ``a − b%`` add or take ``b`` percent *of a*; elsewhere ``b%`` is
  ``b/100``.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

__all__ = [
    "DECIMALS",
    "FIXED_DIGITS",
    "PRECISION",
    "CalcError",
    "evaluate",
    "format_value",
    "normalize",
]

#: Significant digits of irrational intermediate results.
PRECISION = 50
#: Decimal places shown.
DECIMALS = 9
#: Integer digits shown before switching to ``×10^`` notation.
FIXED_DIGITS = 30
#: A number whose numerator or denominator passes this many bits is "Overflow".
MAX_BITS = 4000
#: Largest decimal exponent (either sign) of a value.
MAX_EXPONENT = 1000
#: The deepest nesting of parentheses.
MAX_DEPTH = 40
#: The largest n of n!.
MAX_FACTORIAL = 450

PI = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863"
E = "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457"
FUNCTIONS = ("sin", "cos", "tan", "ln", "log", "sqrt", "abs")
NAMES = (*FUNCTIONS, "pi", "e")
#: Characters (besides letters of :data:`NAMES`) an expression may hold after :func:`normalize`.
SYMBOLS = "0123456789.+−×÷^%()π√²⁻¹!"

_CTX = decimal.Context(
    prec=PRECISION,
    rounding=decimal.ROUND_HALF_EVEN,
    Emax=10_000,
    Emin=-10_000,
    traps=[decimal.Overflow, decimal.Underflow, decimal.InvalidOperation, decimal.DivisionByZero],
)


class CalcError(Exception):
    """The expression has no value; ``str(exc)`` is the message the display shows."""


_ASCII = {"*": "×", "/": "÷", "-": "−", "x": "×", ",": ".", "·": "×", "–": "−", "√": "√", "π": "π"}
_LETTERS = frozenset("".join(NAMES))


def normalize(text: str) -> str:
    """Typed text as the display holds it: ``* / -`` become ``× ÷ −``, a comma a point,
    spaces and characters the calculator has no key for are dropped."""
    out = []
    for ch in text:
        ch = _ASCII.get(ch, ch)
        if ch in SYMBOLS or ch in _LETTERS:
            out.append(ch)
    return "".join(out)


# -- tokens --------------------------------------------------------------------------------


_DIGITS = frozenset("0123456789.")


def _tokens(text: str) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            lit = text[i:j]
            if lit.count(".") > 1 or lit == ".":
                raise CalcError("Malformed expression")
            whole, _, frac = lit.partition(".")
            out.append(
                (
                    "num",
                    Fraction(
                        int(whole or "0") * 10 ** len(frac) + int(frac or "0"), 10 ** len(frac)
                    ),
                )
            )
            i = j
        elif ch.isalpha() and ch not in "π":
            for name in sorted(NAMES, key=len, reverse=True):
                if text.startswith(name, i):
                    out.append(("name", name))
                    i += len(name)
                    break
            else:
                raise CalcError("Unknown function")
        elif ch == "⁻":
            if text.startswith("⁻¹", i):
                out.append(("op", "⁻¹"))
                i += 2
            else:
                raise CalcError("Malformed expression")
        elif ch in "+−×÷^%()π√²!":
            out.append(("op", ch))
            i += 1
        else:
            raise CalcError("Malformed expression")
    return out


# -- decimal helpers -----------------------------------------------------------------------


def _dec(x: Fraction) -> decimal.Decimal:
    return _CTX.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator))


def _frac(d: decimal.Decimal) -> Fraction:
    return Fraction(d)


def _pi() -> decimal.Decimal:
    return _CTX.create_decimal(PI)


_PI = Fraction(_CTX.create_decimal(PI))
_E = Fraction(_CTX.create_decimal(E))


def _check(x: Fraction) -> Fraction:
    """``x``, or when it grew past :data:`MAX_BITS` its value at :data:`PRECISION` digits;
    a magnitude past 10^±:data:`MAX_EXPONENT` is "Overflow"."""
    n, d = x.numerator, x.denominator
    if n.bit_length() <= MAX_BITS and d.bit_length() <= MAX_BITS:
        return x
    if n == 0:
        return x
    bits = abs(n).bit_length() - d.bit_length()  # log2 of the magnitude, within 1
    if abs(bits) > MAX_EXPONENT * 3322 // 1000:
        raise CalcError("Overflow" if bits > 0 else "Underflow")
    return _frac(_dec(x))


def _sin_dec(r: decimal.Decimal) -> decimal.Decimal:
    """sin of ``r`` radians (|r| small) by its Taylor series, at the context's precision."""
    with decimal.localcontext(_CTX) as c:
        c.prec = PRECISION + 10
        term = r
        total = r
        r2 = r * r
        k = 1
        eps = decimal.Decimal(10) ** -(PRECISION + 5)
        while abs(term) > eps:
            term = -term * r2 / ((2 * k) * (2 * k + 1))
            total += term
            k += 1
        return +total


#: Degrees (in 0..360) whose sine is rational.
_EXACT_SIN = {
    0: 0,
    30: Fraction(1, 2),
    90: 1,
    150: Fraction(1, 2),
    180: 0,
    210: Fraction(-1, 2),
    270: -1,
    330: Fraction(-1, 2),
}


def _sin_deg(x: Fraction) -> Fraction:
    a = x % 360
    if a.denominator == 1 and int(a) in _EXACT_SIN:
        return Fraction(_EXACT_SIN[int(a)])
    # reduce to [-90, 90]: sin(a) = sin(180 - a)
    if a > 270:
        a -= 360
    elif a > 90:
        a = 180 - a
    r = _CTX.multiply(_dec(a), _CTX.divide(_pi(), decimal.Decimal(180)))
    return _frac(_sin_dec(r))


def _cos_deg(x: Fraction) -> Fraction:
    return _sin_deg(x + 90)


def _tan_deg(x: Fraction) -> Fraction:
    a = x % 180
    if a == 90:
        raise CalcError("Tangent is undefined for this angle")
    if a == 0:
        return Fraction(0)
    if a == 45:
        return Fraction(1)
    if a == 135:
        return Fraction(-1)
    return _sin_deg(x) / _cos_deg(x)


def _sqrt(x: Fraction) -> Fraction:
    if x < 0:
        raise CalcError("Square root of a negative number is undefined")
    n, d = x.numerator, x.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return Fraction(rn, rd)
    return _frac(_dec(x).sqrt(_CTX))


def _ln(x: Fraction) -> Fraction:
    if x <= 0:
        raise CalcError("Logarithm of zero or a negative number is undefined")
    if x == 1:
        return Fraction(0)
    return _frac(_dec(x).ln(_CTX))


def _log(x: Fraction) -> Fraction:
    if x <= 0:
        raise CalcError("Logarithm of zero or a negative number is undefined")
    n, d = x.numerator, x.denominator
    # exact powers of ten
    if d == 1 and n > 0 and str(n).rstrip("0") == "1":
        return Fraction(len(str(n)) - 1)
    if n == 1 and str(d).rstrip("0") == "1":
        return Fraction(-(len(str(d)) - 1))
    return _frac(_dec(x).log10(_CTX))


def _power(x: Fraction, y: Fraction) -> Fraction:
    if y.denominator == 1:
        k = int(y)
        if x == 0:
            if k < 0:
                raise CalcError("Division by zero")
            return Fraction(1 if k == 0 else 0)
        if abs(x) == 1:
            return x**k if k >= 0 else 1 / x ** (-k)
        bits = max(x.numerator.bit_length(), x.denominator.bit_length(), 2)
        if abs(k) * (bits - 1) <= MAX_BITS:
            return _check(x**k)
        # too long to keep exact: PRECISION digits
        try:
            return _check(_frac(_CTX.power(_dec(x), decimal.Decimal(k))))
        except decimal.Underflow:
            raise CalcError("Underflow") from None
        except (decimal.Overflow, decimal.InvalidOperation):
            raise CalcError("Overflow") from None
    if x == 0:
        if y < 0:
            raise CalcError("Division by zero")
        return Fraction(0)
    if x < 0:
        if y.denominator % 2 == 0:
            raise CalcError("Undefined: even root of a negative number")
        sign = -1 if y.numerator % 2 else 1
        return sign * _power(-x, y)
    if y.denominator == 2:
        root = _sqrt(x)
        return _power(root, Fraction(y.numerator))
    try:
        value = _CTX.power(_dec(x), _dec(y))
    except decimal.Underflow:
        raise CalcError("Underflow") from None
    except (decimal.Overflow, decimal.InvalidOperation):
        raise CalcError("Overflow") from None
    return _check(_frac(value))


def _factorial(x: Fraction) -> Fraction:
    if x.denominator != 1 or x < 0:
        raise CalcError("Factorial is defined only for whole numbers from 0")
    if x > MAX_FACTORIAL:
        raise CalcError("Overflow")
    return Fraction(math.factorial(int(x)))


# -- the parser ----------------------------------------------------------------------------

_STARTS = frozenset(["(", "π", "√"])
_ENDS = frozenset([")", "π", "²", "⁻¹", "!", "%"])


class _Parser:
    def __init__(self, tokens: list[tuple[str, object]]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> tuple[str, object] | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def is_op(self, *ops: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "op" and tok[1] in ops

    def take(self) -> tuple[str, object]:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def starts_operand(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        kind, v = tok
        return kind in ("num", "name") or (kind == "op" and v in _STARTS)

    # sum := term (('+'|'−') term)*
    def sum(self) -> Fraction:
        value, _pct = self.term()
        while self.is_op("+", "−"):
            op = self.take()[1]
            right, pct = self.term()
            if pct:  # a ± b%: b percent of a
                right = value * right
            value = _check(value + right if op == "+" else value - right)
        return value

    # term := unary (('×'|'÷'|implicit) unary)*; returns (value, is a bare percentage)
    def term(self) -> tuple[Fraction, bool]:
        value, pct = self.unary()
        while True:
            if self.is_op("×", "÷"):
                op = self.take()[1]
                right, _ = self.unary()
                if op == "÷":
                    if right == 0:
                        raise CalcError("Division by zero")
                    value = _check(value / right)
                else:
                    value = _check(value * right)
            elif self.starts_operand() and self.prev_ends_value():
                right, _ = self.unary()
                value = _check(value * right)
            else:
                return value, pct
            pct = False

    def prev_ends_value(self) -> bool:
        if self.i == 0:
            return False
        kind, v = self.t[self.i - 1]
        return (
            kind == "num" or (kind == "name" and v in ("pi", "e")) or (kind == "op" and v in _ENDS)
        )

    # unary := ('−'|'+') unary | '√' unary | power
    def unary(self) -> tuple[Fraction, bool]:
        if self.is_op("−", "+"):
            op = self.take()[1]
            value, pct = self.unary()
            return (-value if op == "−" else value), pct
        if self.is_op("√"):
            self.take()
            value, _ = self.unary()
            return _sqrt(value), False
        return self.power()

    # power := postfix ('^' unary)?
    def power(self) -> tuple[Fraction, bool]:
        base, pct = self.postfix()
        if self.is_op("^"):
            self.take()
            exponent, _ = self.unary()
            return _power(base, exponent), False
        return base, pct

    # postfix := primary ('²' | '⁻¹' | '!' | '%')*
    def postfix(self) -> tuple[Fraction, bool]:
        value = self.primary()
        pct = False
        while self.is_op("²", "⁻¹", "!", "%"):
            op = self.take()[1]
            if op == "²":
                value = _power(value, Fraction(2))
            elif op == "⁻¹":
                if value == 0:
                    raise CalcError("Division by zero")
                value = 1 / value
            elif op == "!":
                value = _factorial(value)
            else:
                value = value / 100
            pct = op == "%"
        return value, pct

    def primary(self) -> Fraction:
        tok = self.peek()
        if tok is None:
            raise CalcError("Malformed expression")
        kind, v = tok
        if kind == "num":
            self.take()
            return v  # type: ignore[return-value]
        if kind == "name":
            self.take()
            if v == "pi":
                return _PI
            if v == "e":
                return _E
            if not self.is_op("("):
                raise CalcError("Malformed expression")
            self.take()
            arg = self.sum()
            self.close()
            return {
                "sin": _sin_deg,
                "cos": _cos_deg,
                "tan": _tan_deg,
                "ln": _ln,
                "log": _log,
                "sqrt": _sqrt,
                "abs": abs,
            }[v](arg)  # type: ignore[index,operator]
        if kind == "op" and v == "π":
            self.take()
            return _PI
        if kind == "op" and v == "(":
            self.take()
            value = self.sum()
            self.close()
            return value
        raise CalcError("Malformed expression")

    def close(self) -> None:
        if self.peek() is None:
            return  # a missing closing parenthesis at the end is added
        if not self.is_op(")"):
            raise CalcError("Malformed expression")
        self.take()


def evaluate(expression: str) -> Fraction:
    """The exact value of ``expression`` (display text); :class:`CalcError` when it has none."""
    tokens = _tokens(expression)
    if not tokens:
        raise CalcError("Malformed expression")
    depth = deepest = 0
    for kind, v in tokens:
        if kind == "op" and v in ("(", ")"):
            depth += 1 if v == "(" else -1
            deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise CalcError("Too many nested parentheses")
    parser = _Parser(tokens)
    try:
        value = parser.sum()
    except decimal.Underflow:
        raise CalcError("Underflow") from None
    except (decimal.Overflow, decimal.InvalidOperation, OverflowError):
        raise CalcError("Overflow") from None
    except ZeroDivisionError:
        raise CalcError("Division by zero") from None
    if parser.peek() is not None:
        raise CalcError("Malformed expression")
    return value


# -- formatting ----------------------------------------------------------------------------


def _round_half_away(n: int, d: int) -> int:
    """``n / d`` (d > 0) rounded to an integer, halves away from zero."""
    q, r = divmod(abs(n), d)
    if 2 * r >= d:
        q += 1
    return -q if n < 0 else q


def _fixed(x: Fraction, places: int) -> str:
    scaled = _round_half_away(x.numerator * 10**places, x.denominator)
    sign = "−" if scaled < 0 else ""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    whole, frac = digits[: len(digits) - places], digits[len(digits) - places :].rstrip("0")
    return sign + whole + ("." + frac if frac else "")


def format_value(x: Fraction) -> str:
    """The display text of ``x``: exact when it has at most :data:`DECIMALS` decimals, else
    rounded; ``×10^`` notation for very large or very small magnitudes."""
    if x == 0:
        return "0"
    whole = abs(x.numerator) // x.denominator
    fixed = _fixed(x, DECIMALS)
    if len(str(whole)) <= FIXED_DIGITS and fixed.lstrip("−") != "0":
        return fixed
    # scientific: mantissa in [1, 10)
    a = abs(x)
    k = len(str(a.numerator)) - len(str(a.denominator))
    if a / (Fraction(10) ** k) < 1:
        k -= 1
    mantissa = a / (Fraction(10) ** k)
    text = _fixed(mantissa, DECIMALS)
    if text.startswith("10"):  # rounded up to 10
        k += 1
        text = _fixed(a / (Fraction(10) ** k), DECIMALS)
    sign = "−" if x < 0 else ""
    exp = f"−{-k}" if k < 0 else str(k)
    return f"{sign}{text}×10^{exp}"
