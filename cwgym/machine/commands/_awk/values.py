"""awk values: numbers (``float``), strings (``str``) and strnums (:class:`StrNum`, input
that looks numeric), with awk's conversions and comparison rules."""

from __future__ import annotations

import math
import re

from cwgym.machine.commands._text import c_number_prefix, format_float

_NUMERIC = re.compile(r"[ \t\n\r\f\v]*[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[ \t\n\r\f\v]*\Z")


class StrNum(str):
    """A string from input that looks like a number: compares numerically with numbers."""

    __slots__ = ("num",)
    num: float


def strnum(value: str):
    """``value`` as input data: a :class:`StrNum` when it looks numeric, else a plain str."""
    if value and _NUMERIC.match(value):
        result = StrNum(value)
        result.num = float(value)
        return result
    return value


UNINIT = StrNum("")
UNINIT.num = 0.0


def to_num(value) -> float:
    kind = type(value)
    if kind is float:
        return value
    if kind is StrNum:
        return value.num
    if kind is str:
        if not value:
            return 0.0
        return c_number_prefix(value)[0]
    if isinstance(value, dict):
        raise AwkRuntimeError("attempt to use array in a scalar context")
    return float(value)


def is_num(value) -> bool:
    kind = type(value)
    return kind is float or kind is StrNum


def format_number(value: float, fmt: str) -> str:
    """A number as awk turns it into a string: integers as integers, others via ``fmt``."""
    if value.is_integer():
        return str(int(value))
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "+nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "+inf"
    return sprintf_number(fmt, value)


_FMT_CACHE: dict[str, tuple] = {}
_FMT_RE = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d*))?([eEfFgGdi])\Z")


def sprintf_number(fmt: str, value: float) -> str:
    spec = _FMT_CACHE.get(fmt)
    if spec is None:
        m = _FMT_RE.match(fmt)
        if m:
            prec = None if m.group(3) is None else int(m.group(3) or "0")
            spec = (m.group(1), int(m.group(2) or "0"), prec, m.group(4))
        else:
            spec = ("", 0, 6, "g")
        _FMT_CACHE[fmt] = spec
    flags, width, prec, conv = spec
    if conv in "di":
        return str(int(value)) if not (math.isnan(value) or math.isinf(value)) else format_number(value, "%.6g")
    return format_float(value, conv, flags, width, prec)


def to_str(value, convfmt: str = "%.6g") -> str:
    if type(value) is float:
        return format_number(value, convfmt)
    if isinstance(value, dict):
        raise AwkRuntimeError("attempt to use array in a scalar context")
    return value


def to_bool(value) -> bool:
    kind = type(value)
    if kind is float:
        return value != 0.0
    if kind is StrNum:
        return value.num != 0.0
    return value != ""


class AwkRuntimeError(Exception):
    """A fatal run-time error (``division by zero attempted``...)."""
