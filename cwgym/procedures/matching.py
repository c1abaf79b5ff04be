"""JSON pointers, ``where`` clauses and text patterns, shared by captures and checks.

* A JSON pointer (RFC 6901) walks objects by key and arrays by index: ``/state/computers``.
* A ``where`` maps a pointer inside an element to what it must hold: a string matches as a
  pattern with ``{{*}}`` for any run, a number or an object by value (a number also
  matches text that reads as that number, as CSV cells are text), and an array field
  matches when any of its items does.
* A pattern finds a value in text: ``{{?}}`` is the value (an identifier: letters, digits,
  ``-``, ``_`` and a ``.`` between them) and ``{{*}}`` any run, matched anywhere.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

_MISSING = object()
IDENTIFIER = r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*"


class PointerError(LookupError):
    """A pointer that leads nowhere in the document."""


def pointer_parts(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PointerError(f"a JSON pointer starts with '/': {pointer!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def pointer_problem(pointer: str) -> str | None:
    """Why ``pointer`` cannot be a JSON pointer, or ``None`` when it can (empty, or from ``/``)."""
    if pointer and not pointer.startswith("/"):
        return f"a JSON pointer is empty or starts with '/', got {pointer!r}"
    return None


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer``; :class:`PointerError` naming the first step that fails."""
    value = document
    walked = ""
    for part in pointer_parts(pointer):
        walked += "/" + part
        if isinstance(value, dict):
            if part not in value:
                raise PointerError(f"nothing at {walked}")
            value = value[part]
        elif isinstance(value, list):
            if not part.isdigit() or int(part) >= len(value):
                raise PointerError(f"nothing at {walked}")
            value = value[int(part)]
        else:
            raise PointerError(f"nothing at {walked} (not an object or array)")
    return value


def lookup(document: Any, pointer: str) -> Any:
    """Like :func:`resolve`, but a private sentinel instead of an error."""
    try:
        return resolve(document, pointer)
    except PointerError:
        return _MISSING


def elements(collection: Any) -> list[tuple[str, Any]]:
    """A collection's ``(key, element)`` pairs: object keys, or array indices as text."""
    if isinstance(collection, dict):
        return [(str(k), v) for k, v in collection.items()]
    if isinstance(collection, list):
        return [(str(i), v) for i, v in enumerate(collection)]
    return []


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return Decimal(str(value))
    if isinstance(value, str):
        try:
            return Decimal(value.strip())
        except InvalidOperation:
            return None
    return None


def value_matches(actual: Any, expected: Any) -> bool:
    """Whether one field holds what a ``where`` entry asks for."""
    if isinstance(actual, list) and not isinstance(expected, list):
        return any(value_matches(item, expected) for item in actual)
    if isinstance(expected, str):
        return isinstance(actual, str) and compile_pattern(expected, anchored=True).fullmatch(actual) is not None
    if isinstance(expected, bool) or expected is None:
        return actual is expected
    if isinstance(expected, (int, float)):
        number = _number(actual)
        return number is not None and number == Decimal(str(expected))
    return actual == expected


def where_matches(element: Any, where: dict[str, Any]) -> bool:
    for pointer, expected in where.items():
        actual = lookup(element, pointer)
        if actual is _MISSING or not value_matches(actual, expected):
            return False
    return True


def compile_pattern(pattern: str, *, anchored: bool = False) -> re.Pattern:
    """``{{?}}`` becomes a captured identifier and ``{{*}}`` any run; the rest is literal."""
    out = []
    for piece in re.split(r"(\{\{[?*]\}\})", pattern):
        if piece == "{{?}}":
            out.append(f"({IDENTIFIER})")
        elif piece == "{{*}}":
            out.append(".*?" if not anchored else ".*")
        else:
            out.append(re.escape(piece))
    return re.compile("".join(out), re.S)


def find_value(pattern: str, text: str) -> str | None:
    """The ``{{?}}`` value of the first match of ``pattern`` anywhere in ``text``."""
    match = compile_pattern(pattern).search(text)
    if match is None:
        return None
    return match.group(1) if match.groups() else match.group(0)


def line_matches(line: str, pattern: str) -> bool:
    """A whole line against a pattern where ``{{*}}`` is any run and the rest is literal."""
    return compile_pattern(pattern, anchored=True).fullmatch(line) is not None


def text_lines(data: bytes | str) -> list[str]:
    """A file's lines without their ends (``\\n`` or ``\\r\\n``)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
