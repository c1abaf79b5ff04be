"""Plain data at the world's boundary: checked copies in, clones out.

Whatever crosses into the world (an action envelope's payload) is copied by
:func:`plain_copy`, which also refuses anything outside the JSON data model or over the
limits below; whatever goes back out to a caller (outcomes, observations, scenes, the
journal, inspections) is a :func:`clone`, so no caller can reach world state by mutating
what it passed in or got back.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_DEPTH", "MAX_ITEMS", "MAX_KEY", "MAX_STRING", "MAX_TOTAL_CHARS", "NotPlainData", "clone", "plain_copy"]

#: Limits on plain data crossing into the world (an envelope, a config); past them a
#: value is refused (an action gets an ``invalid`` outcome).
MAX_DEPTH = 32  # nesting of objects and arrays inside an envelope
MAX_ITEMS = 100_000  # values (scalars, objects, arrays) in one envelope
MAX_STRING = 8 * 1024 * 1024  # characters in one string (a command, a file's content)
MAX_KEY = 1024  # characters in one object key
MAX_TOTAL_CHARS = 16 * 1024 * 1024  # characters across every string and key of an envelope
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1


class NotPlainData(ValueError):
    """A value outside the JSON data model or the limits above."""


def plain_copy(value: Any) -> Any:
    """A fresh copy of ``value`` if it is plain JSON data within the limits, else
    :class:`NotPlainData`.

    Plain data is ``None``, ``bool``, ``int`` within the signed 64-bit range, a finite
    ``float``, a ``str`` of valid Unicode scalar values (no lone surrogates), a ``list``
    or ``tuple`` of plain data (copied as a list), and a ``dict`` with ``str`` keys and
    plain values. Subclasses of these types are refused: their methods could run during
    dispatch.
    """
    budget = [MAX_ITEMS, MAX_TOTAL_CHARS]
    return _copy(value, 0, budget)


def _text(value: str, limit: int, budget: list[int]) -> str:
    if len(value) > limit:
        raise NotPlainData(f"a string of {len(value)} characters is over the limit of {limit}")
    budget[1] -= len(value)
    if budget[1] < 0:
        raise NotPlainData(f"the envelope holds more than {MAX_TOTAL_CHARS} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise NotPlainData("a string holds a lone surrogate (not valid Unicode)") from None
    return value


def _copy(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise NotPlainData(f"the envelope holds more than {MAX_ITEMS} values")
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:
            raise NotPlainData("an integer is outside the signed 64-bit range")
        return value
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise NotPlainData("a number is not finite")
        return value
    if kind is str:
        return _text(value, MAX_STRING, budget)
    if depth >= MAX_DEPTH:
        raise NotPlainData(f"values are nested deeper than {MAX_DEPTH} levels")
    if kind is list or kind is tuple:
        return [_copy(item, depth + 1, budget) for item in value]
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlainData("an object key is not a string")
            out[_text(key, MAX_KEY, budget)] = _copy(item, depth + 1, budget)
        return out
    raise NotPlainData(f"a {kind.__name__} is not JSON data")



def clone(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists and tuples are rebuilt; scalars, strings and
    bytes are immutable and shared)."""
    kind = type(value)
    if kind is dict:
        return {key: clone(item) for key, item in value.items()}
    if kind is list:
        return [clone(item) for item in value]
    if kind is tuple:
        return tuple(clone(item) for item in value)
    return value
