"""``file_contains``: the text occurs somewhere in the file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import read_text

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileContains(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    text: str


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    found = read_text(machine, spec["path"])
    r.expected, r.found = spec["text"], found
    r.passed = found is not None and spec["text"] in found
    if not r.passed:
        r.reason = "no such file" if found is None else "the text is not in the file"


KIND = register(CheckKind("file_contains", FileContains, judge, files_only=True, shows_values=True))
