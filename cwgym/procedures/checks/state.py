"""``state``: the value at ``pointer`` equals (or contains) what is given.

The document is ``World.inspect()``, with ``service`` that service's state (a web
service's pages are built from it), or with ``file`` a file read as data (see
:func:`cwgym.procedures.documents.document`). ``contains`` is a substring of a string, an
item of an array (matched as ``where`` matches values), or a part of an object.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import UNSET, Struct, UnsetType

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.documents import document
from cwgym.procedures.matching import PointerError, pointer_problem, resolve, value_matches

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


class StateCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """A value in a document: ``World.inspect()`` by default, or a JSON/CSV ``file``."""

    pointer: str = ""
    file: str | None = None
    service: str | None = None
    equals: Any | UnsetType = UNSET
    contains: Any | UnsetType = UNSET


def problems(payload: StateCheck) -> Iterator[tuple[str, str]]:
    if payload.service is not None and payload.file is not None:
        yield "service", "a check reads a service or a file, not both"
    if (payload.equals is UNSET) == (payload.contains is UNSET):
        yield "", "a state check has exactly one of equals or contains"
    problem = pointer_problem(payload.pointer)
    if problem:
        yield "pointer", problem


def contains(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` holds ``expected`` (see the module notes)."""
    if isinstance(actual, str) and isinstance(expected, str):
        return expected in actual
    if isinstance(actual, list):
        return any(item == expected or value_matches(item, expected) for item in actual)
    if isinstance(actual, dict) and isinstance(expected, dict):
        return all(key in actual and actual[key] == value for key, value in expected.items())
    return False


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    equals = "equals" in spec
    r.expected = spec["equals"] if equals else spec["contains"]
    try:
        r.found = resolve(document(world, machine, spec.get("file"), spec.get("service")), spec.get("pointer", ""))
    except (LookupError, PointerError) as exc:
        r.reason = str(exc)
        return
    r.passed = r.found == r.expected if equals else contains(r.found, r.expected)
    if not r.passed:
        r.reason = "the value differs" if equals else "the value does not contain what was expected"


KIND = register(CheckKind("state", StateCheck, judge, problems, shows_values=True))
