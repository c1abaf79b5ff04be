"""Placeholders: ``{{name}}``, ``{{name.field}}``, ``{{name|filter:arg}}``, ``{{#name}}`` (a
JSON number), captured ``{{@name}}`` / ``{{#@name}}``, and the pattern tokens ``{{?}}`` and
``{{*}}`` (left for :mod:`cwgym.procedures.patterns`).

Parameters are substituted when an instance is drawn; captured placeholders are left in
place until the run binds them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from cwgym.procedures.dates import format_date

TOKEN = re.compile(r"\{\{([^{}]*?)\}\}")
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_REF = re.compile(rf"^\s*(?P<num>#?)(?P<cap>@?)(?P<name>{_NAME})(?P<path>(?:\.[A-Za-z0-9_-]+)*)(?P<filters>(?:\|[^|]+)*)\s*$")
PATTERN_TOKENS = ("?", "*")


class TemplateError(ValueError):
    """A placeholder that cannot be read or filled (the message says which and why)."""


class Ref:
    """One parsed placeholder (read-only: :func:`parse_ref` hands the same one to every
    caller that parses the same text)."""

    __slots__ = ("captured", "filters", "name", "numeric", "path", "text")

    def __init__(self, text: str, numeric: bool, captured: bool, name: str, path: tuple[str, ...],
                 filters: tuple[tuple[str, str | None], ...]) -> None:
        self.text = text
        self.numeric = numeric
        self.captured = captured
        self.name = name
        self.path = path
        self.filters = filters


def parse_ref(inner: str) -> Ref | None:
    """The placeholder inside ``{{...}}``; ``None`` for the pattern tokens ``?`` and ``*``.

    Memoised by the text (bounded): a procedure drawn for many seeds parses its
    placeholders once."""
    return _parse_ref(inner)


@lru_cache(maxsize=4096)
def _parse_ref(inner: str) -> Ref | None:
    if inner.strip() in PATTERN_TOKENS:
        return None
    match = _REF.match(inner)
    if match is None:
        raise TemplateError(f"malformed placeholder {{{{{inner}}}}}")
    filters: list[tuple[str, str | None]] = []
    for part in match["filters"].split("|")[1:]:
        name, sep, arg = part.partition(":")
        name = name.strip()
        if name not in FILTERS:
            raise TemplateError(f"unknown filter {name!r} in {{{{{inner}}}}} (known: {', '.join(sorted(FILTERS))})")
        filters.append((name, arg if sep else None))
    path = tuple(p for p in match["path"].split(".") if p)
    return Ref(inner, bool(match["num"]), bool(match["cap"]), match["name"], path, tuple(filters))


def refs(text: str) -> list[Ref]:
    """Every placeholder in ``text`` except the pattern tokens."""
    out = []
    for match in TOKEN.finditer(text):
        ref = parse_ref(match[1])
        if ref is not None:
            out.append(ref)
    return out


def walk_strings(value: Any, path: str = "$") -> list[tuple[str, str]]:
    """Every string inside a JSON value with its JSON path (keys are not templates)."""
    out: list[tuple[str, str]] = []
    if isinstance(value, str):
        out.append((path, value))
    elif isinstance(value, dict):
        for key, item in value.items():
            out += walk_strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += walk_strings(item, f"{path}[{index}]")
    return out


# -- values ------------------------------------------------------------------------------


def to_number(value: Any) -> int | float:
    """A parameter or captured value as a JSON number."""
    if isinstance(value, bool):
        raise TemplateError(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        return value
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise TemplateError(f"{value!r} is not a number") from None
    if number == number.to_integral_value() and "." not in str(value) and "e" not in str(value).lower():
        return int(number)
    return float(number)


def as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _lookup(ref: Ref, values: Mapping[str, Any]) -> Any:
    if ref.name not in values:
        kind = "capture" if ref.captured else "parameter"
        raise TemplateError(f"no {kind} {ref.name!r}")
    value = values[ref.name]
    for part in ref.path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise TemplateError(f"{{{{{ref.text}}}}}: {ref.name!r} has no {part!r}")
    return value


def _apply(ref: Ref, value: Any) -> Any:
    for name, arg in ref.filters:
        value = FILTERS[name](value, arg)
    return value


def render(text: str, params: Mapping[str, Any], captures: Mapping[str, Any] | None = None) -> Any:
    """Fill a string's placeholders.

    Parameters are always filled. Captured placeholders are filled when ``captures`` is
    given and left as they are otherwise. A string that is exactly one ``{{#...}}``
    placeholder becomes a JSON number.
    """
    if "{{" not in text:  # no placeholder: most strings of a procedure
        return text
    whole = TOKEN.fullmatch(text)
    if whole is not None:
        ref = parse_ref(whole[1])
        if ref is not None and ref.numeric and (not ref.captured or captures is not None):
            return to_number(_apply(ref, _lookup(ref, captures if ref.captured else params)))

    def fill(match: re.Match) -> str:
        ref = parse_ref(match[1])
        if ref is None:
            return match[0]
        if ref.captured:
            if captures is None:
                return match[0]
            value = _apply(ref, _lookup(ref, captures))
        else:
            value = _apply(ref, _lookup(ref, params))
        if ref.numeric:
            return as_text(to_number(value))
        return as_text(value)

    return TOKEN.sub(fill, text)


def render_value(value: Any, params: Mapping[str, Any], captures: Mapping[str, Any] | None = None) -> Any:
    """Fill every string inside a JSON value (object keys are left alone)."""
    if isinstance(value, str):
        return render(value, params, captures)
    if isinstance(value, dict):
        return {key: render_value(item, params, captures) for key, item in value.items()}
    if isinstance(value, list):
        return [render_value(item, params, captures) for item in value]
    return value


def captured_names(value: Any) -> list[str]:
    """The captured names a JSON value still waits for, in order of appearance."""
    names: list[str] = []
    for _, text in walk_strings(value):
        for ref in refs(text):
            if ref.captured and ref.name not in names:
                names.append(ref.name)
    return names


# -- filters -----------------------------------------------------------------------------


def _slug(value: Any, arg: str | None) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", as_text(value).lower()).strip("-")
    return text


def _sh(value: Any, arg: str | None) -> str:
    text = as_text(value)
    if text and re.fullmatch(r"[A-Za-z0-9_./:@%+=,-]+", text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _pad(value: Any, arg: str | None) -> str:
    width = int(arg or "2")
    text = as_text(value)
    return text.rjust(width, "0")


def _money(value: Any, arg: str | None) -> str:
    number = Decimal(str(to_number(value))).quantize(Decimal("0.01"))
    sign = "-" if number < 0 else ""
    whole, _, cents = f"{abs(number):.2f}".partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return f"{sign}{','.join(groups)}.{cents}"


def _date(value: Any, arg: str | None) -> str:
    return format_date(as_text(value), arg or "%Y-%m-%d")


def _join(value: Any, arg: str | None) -> str:
    if not isinstance(value, list):
        return as_text(value)
    sep = (arg if arg is not None else ", ").replace("\\n", "\n")
    return sep.join(as_text(v) for v in value)


def _first(value: Any, arg: str | None) -> str:
    parts = as_text(value).split()
    return parts[0] if parts else ""


def _last(value: Any, arg: str | None) -> str:
    parts = as_text(value).split()
    return parts[-1] if parts else ""


def _initial(value: Any, arg: str | None) -> str:
    text = as_text(value)
    return text[:1]


FILTERS: dict[str, Callable[[Any, str | None], Any]] = {
    "upper": lambda v, a: as_text(v).upper(),
    "lower": lambda v, a: as_text(v).lower(),
    "title": lambda v, a: as_text(v).title(),
    "slug": _slug,
    "sh": _sh,
    "pad": _pad,
    "money": _money,
    "date": _date,
    "join": _join,
    "first": _first,
    "last": _last,
    "initial": _initial,
}
