"""``file_sorted``: the file's lines after the first ``header`` lines are in ascending (byte) order."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import SHOWN_LINES, CheckKind, CheckResult, register
from cwgym.procedures.files import read_text
from cwgym.procedures.matching import text_lines

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FileSorted(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    header: int = 0


def problems(payload: FileSorted) -> Iterator[tuple[str, str]]:
    if payload.header < 0:
        yield "header", "header must be 0 or more"


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    found = read_text(machine, spec["path"])
    if found is None:
        r.reason = "no such file"
        return
    body = text_lines(found)[spec.get("header", 0):]
    r.expected = "ascending lines"
    r.found = body[:SHOWN_LINES]
    out_of_order = [(a, b) for a, b in itertools.pairwise(body) if a.encode() > b.encode()]
    r.passed = not out_of_order
    if out_of_order:
        r.reason = f"{out_of_order[0][1]!r} comes after {out_of_order[0][0]!r}"


KIND = register(CheckKind("file_sorted", FileSorted, judge, problems, files_only=True))
