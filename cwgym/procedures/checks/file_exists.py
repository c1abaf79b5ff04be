"""``file_exists``: a regular file (or with ``dir``, a folder) is at the path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import kind_at

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileExists(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    dir: bool = False


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    want = "dir" if spec.get("dir") else "file"
    kind = kind_at(machine, spec["path"])
    r.expected, r.found = want, kind
    r.passed = kind == want
    if not r.passed:
        r.reason = "nothing is there" if kind is None else f"a {kind} is there"


KIND = register(CheckKind("file_exists", FileExists, judge, files_only=True))
