"""``file_mode``: the permission bits of what is at the path are ``mode`` (octal text, ``"0755"``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import is_octal_mode, mode_at

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileMode(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    mode: str


def problems(payload: FileMode) -> Iterator[tuple[str, str]]:
    if not is_octal_mode(payload.mode):
        yield "mode", f"a mode is octal text such as \"0755\", got {payload.mode!r}"


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    mode = mode_at(machine, spec["path"])
    r.expected = spec["mode"]
    r.found = None if mode is None else f"{mode:04o}"
    r.passed = mode is not None and mode == int(spec["mode"], 8)
    if not r.passed:
        r.reason = "nothing is there" if mode is None else "the mode differs"


KIND = register(CheckKind("file_mode", FileMode, judge, problems, files_only=True))
