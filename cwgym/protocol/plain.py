"""Plain data at the world's boundary: checked copies in, clones out.

Whatever crosses into the world (an action envelope's payload) is copied by
:func:`plain_copy`, which also refuses anything outside the JSON data model or over the
limits below; whatever goes back out to a caller (outcomes, observations, scenes, the
journal, inspections) is a :func:`clone`, so no caller can reach world state by mutating
what it passed in or got back.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_DEPTH", "MAX_ITEMS", "MAX_KEY", "MAX_STRING", "MAX_TOTAL_CHARS", "NotPlainData", "check_json", "clone", "plain_copy"]

#: Limits on plain data crossing into the world (an envelope, a config); past them a
#: value is refused (an action gets an ``invalid`` outcome).
MAX_DEPTH = 32  # nesting of objects and arrays inside an envelope
MAX_ITEMS = 100_000  # values (scalars, objects, arrays) in one envelope
MAX_STRING = 8 * 1024 * 1024  # characters in one string (a command, a file's content)
MAX_KEY = 1024  # characters in one object key
MAX_TOTAL_CHARS = 16 * 1024 * 1024  # characters across every string and key of an envelope
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1


class NotPlainData(ValueError):
    """A value outside the JSON data model or the limits above; ``path`` is where (a JSON
    path such as ``$.computers[0].id``, when the check knows it)."""

    def __init__(self, problem: str, path: str = "$") -> None:
        self.problem = problem
        self.path = path
        super().__init__(problem)


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
    if not value.isascii():  # only a non-ASCII string can hold a surrogate
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
    if kind is str:
        return _text(value, MAX_STRING, budget)
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
    if depth >= MAX_DEPTH:
        raise NotPlainData(f"values are nested deeper than {MAX_DEPTH} levels")
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlainData("an object key is not a string")
            if type(item) is str:  # _copy's first step, inlined for the commonest value
                budget[0] -= 1
                if budget[0] < 0:
                    raise NotPlainData(f"the envelope holds more than {MAX_ITEMS} values")
                if item.isascii() and len(item) <= MAX_STRING:  # _text's checks, inlined
                    budget[1] -= len(item)
                    if budget[1] < 0:
                        raise NotPlainData(f"the envelope holds more than {MAX_TOTAL_CHARS} characters")
                else:
                    _text(item, MAX_STRING, budget)
            else:
                item = _copy(item, depth + 1, budget)
            if key.isascii() and len(key) <= MAX_KEY:  # the value is checked before its key
                budget[1] -= len(key)
                if budget[1] < 0:
                    raise NotPlainData(f"the envelope holds more than {MAX_TOTAL_CHARS} characters")
            else:
                _text(key, MAX_KEY, budget)
            out[key] = item
        return out
    if kind is list or kind is tuple:
        return [_copy(item, depth + 1, budget) for item in value]
    raise NotPlainData(f"a {kind.__name__} is not JSON data")


def _where(path: str, key: str) -> str:
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{key!r}]"


def check_json(value: Any, path: str = "$", *, max_depth: int = 64, max_key: int = 4096,
               max_text: int = 16 * 1024 * 1024, _depth: int = 0) -> None:
    """Refuse a document (a world definition, a procedure, a journal) that JSON cannot hold
    or that is past the limits, naming the path: a non-string key, a lone surrogate, a
    non-finite number, an integer outside -2**63..2**64-1 (what canonical digests encode),
    an oversized key or string, nesting deeper than ``max_depth``, a non-JSON type.

    Raises:
        NotPlainData: with ``path`` and ``problem``.
    """
    if _depth > max_depth:
        raise NotPlainData(f"nested deeper than {max_depth} levels", path)
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlainData(f"object key {key!r} is not a string", path)
            _json_text(key, path, max_key, "key")
            check_json(item, _where(path, key), max_depth=max_depth, max_key=max_key, max_text=max_text, _depth=_depth + 1)
    elif kind is list or kind is tuple:
        for index, item in enumerate(value):
            check_json(item, f"{path}[{index}]", max_depth=max_depth, max_key=max_key, max_text=max_text, _depth=_depth + 1)
    elif kind is str:
        _json_text(value, path, max_text, "string")
    elif kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise NotPlainData("a number must be finite", path)
    elif kind is int:
        if not INT_MIN <= value <= (1 << 64) - 1:
            raise NotPlainData("an integer is outside -2**63..2**64-1", path)
    elif value is not None and kind is not bool:
        raise NotPlainData(f"a {kind.__name__} is not JSON data", path)


def _json_text(text: str, path: str, limit: int, what: str) -> None:
    if len(text) > limit:
        raise NotPlainData(f"a {what} of {len(text)} characters is over the limit of {limit}", path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotPlainData(f"a {what} holds a lone surrogate (not valid Unicode)", path) from None


#: Immutable element types a list may be copied shallowly for.
_SCALARS = frozenset({int, float, str, bool, type(None), bytes})


def clone(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists and tuples are rebuilt; scalars, strings and
    bytes are immutable and shared)."""
    kind = type(value)
    if kind is dict:
        return {key: clone(item) for key, item in value.items()}
    if kind is list:
        if _SCALARS.issuperset(map(type, value)):  # a body's bytes, a row of numbers: one C-level copy
            return value.copy()
        return [clone(item) for item in value]
    if kind is tuple:
        return tuple(clone(item) for item in value)
    return value
