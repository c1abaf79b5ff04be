"""``file_absent``: nothing (no file, folder or link) is at the path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import kind_at

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FilePath(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    kind = kind_at(machine, spec["path"])
    r.expected, r.found = None, kind
    r.passed = kind is None
    if not r.passed:
        r.reason = f"a {kind} is there"


KIND = register(CheckKind("file_absent", FilePath, judge, files_only=True))
