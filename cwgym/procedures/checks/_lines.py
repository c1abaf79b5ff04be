"""What ``file_has_line`` and ``file_lacks_line`` share: a line pattern and its verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import SHOWN_LINES, CheckResult, Judge
from cwgym.procedures.files import read_text
from cwgym.procedures.matching import line_matches, text_lines

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileLine(Struct, forbid_unknown_fields=True, kw_only=True):
    """A file and a line pattern (``{{*}}`` is any run of characters)."""

    path: str
    line: str


def line_judge(want_present: bool) -> Judge:
    """Judge whether some line of the file matches (``want_present``) or none does."""

    def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
        found = read_text(machine, spec["path"])
        r.expected = spec["line"]
        if found is None:
            r.reason = "no such file"
            return
        lines = text_lines(found)
        hits = [line for line in lines if line_matches(line, spec["line"])]
        r.passed = bool(hits) == want_present
        r.found = hits if hits else lines[:SHOWN_LINES]
        if not r.passed:
            r.reason = "no line matches" if want_present else f"{len(hits)} line(s) match"

    return judge
