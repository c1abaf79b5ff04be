"""``dir_entries``: the folder holds exactly these names (in any order)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import listing

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class DirEntries(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    entries: list[str]


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    found = listing(machine, spec["path"])
    r.expected, r.found = sorted(spec["entries"]), found
    r.passed = found == sorted(spec["entries"])
    if not r.passed:
        r.reason = "no such folder" if found is None else "the folder holds other entries"


KIND = register(CheckKind("dir_entries", DirEntries, judge, files_only=True))
