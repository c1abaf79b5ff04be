"""``find``: some element (or exactly ``count``) of the collection at ``pointer`` holds ``where``.

The document is ``World.inspect()``, with ``service`` that service's state (a web
service's pages are built from it), or with ``file`` a file read as data (see
:func:`cwgym.procedures.documents.document`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.documents import document
from cwgym.procedures.matching import (
    PointerError,
    elements,
    pointer_problem,
    resolve,
    where_matches,
)

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class FindCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """Some element (or exactly ``count``) of the collection at ``pointer`` holds ``where``."""

    pointer: str = ""
    file: str | None = None
    service: str | None = None
    where: dict[str, Any] = {}
    count: int | None = None


def problems(payload: FindCheck) -> Iterator[tuple[str, str]]:
    if payload.service is not None and payload.file is not None:
        yield "service", "a check reads a service or a file, not both"
    for field, pointer in [("pointer", payload.pointer), *(("where", key) for key in payload.where)]:
        problem = pointer_problem(pointer)
        if problem:
            yield field, problem
    if payload.count is not None and payload.count < 0:
        yield "count", "count must be 0 or more"


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    where, count = spec.get("where", {}), spec.get("count")
    r.expected = {"where": where, "count": count if count is not None else "at least 1"}
    try:
        collection = resolve(document(world, machine, spec.get("file"), spec.get("service")), spec.get("pointer", ""))
    except (LookupError, PointerError) as exc:
        r.reason = str(exc)
        return
    if not isinstance(collection, (dict, list)):
        r.reason = "the pointer does not lead to an object or array"
        return
    keys = [key for key, element in elements(collection) if where_matches(element, where)]
    r.found = {"count": len(keys), "keys": keys}
    r.passed = len(keys) == count if count is not None else bool(keys)
    if not r.passed:
        r.reason = f"{len(keys)} element(s) match"


KIND = register(CheckKind("find", FindCheck, judge, problems))
