"""``file_equals``: the file holds exactly this text (``content``, or ``lines`` each ended by a newline)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import read_text
from cwgym.procedures.matching import text_lines

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileEquals(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    content: str | None = None
    lines: list[str] | None = None


def problems(payload: FileEquals) -> Iterator[tuple[str, str]]:
    if (payload.content is None) == (payload.lines is None):
        yield "", "file_equals has exactly one of content or lines"


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    expected = spec["content"] if spec.get("content") is not None else "".join(f"{line}\n" for line in spec["lines"])
    found = read_text(machine, spec["path"])
    r.expected, r.found = expected, found
    r.passed = found == expected
    if found is None:
        r.reason = "no such file"
    elif not r.passed:
        r.reason = first_difference(expected, found)


def first_difference(expected: str, found: str) -> str:
    """Where two texts part: the first differing line, else the line counts, else the ends."""
    want, got = text_lines(expected), text_lines(found)
    for number, (a, b) in enumerate(zip(want, got), start=1):
        if a != b:
            return f"line {number} differs: expected {a!r}, found {b!r}"
    if len(want) != len(got):
        return f"expected {len(want)} lines, found {len(got)}"
    return "the line ends or final newline differ"


KIND = register(CheckKind("file_equals", FileEquals, judge, problems, files_only=True, shows_values=True))
