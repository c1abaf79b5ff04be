"""Verification: a procedure's checks against the world, as the owner sees it.

``verify(world, instance)`` runs the checks with no captured values (a check that names
one fails and says so); ``verify_with(world, instance, captures)`` fills them in. Each
result says what was expected and what was found.
"""

from __future__ import annotations

import csv
import itertools
import json
from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.files import abspath, kind_at, listing, mode_at, read_text
from cwgym.procedures.instance import Instance, as_instance
from cwgym.procedures.matching import (
    PointerError,
    elements,
    line_matches,
    resolve,
    text_lines,
    value_matches,
    where_matches,
)
from cwgym.procedures.model import Check
from cwgym.procedures.template import TemplateError, captured_names, render_value

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine

#: How many lines of a file a failed line check shows as "found".
SHOWN_LINES = 40


class CheckResult(msgspec.Struct, kw_only=True):
    """One check's verdict: its kind, what it looked at, expected and found, and why."""

    index: int
    kind: str
    passed: bool
    subject: str
    expected: Any = None
    found: Any = None
    reason: str = ""


class Verification(msgspec.Struct, kw_only=True):
    """All checks' verdicts; ``passed`` when every check passed, ``score`` the share that did."""

    passed: bool
    score: float
    checks: list[CheckResult]

    def failures(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.passed]

    def to_plain(self) -> dict:
        return msgspec.to_builtins(self)


def verify(world: World, instance: Instance | dict) -> Verification:
    """The instance's checks without captured values."""
    return verify_with(world, instance, None)


def verify_with(world: World, instance: Instance | dict, captures: dict[str, Any] | None) -> Verification:
    """The instance's checks with the captured values a demonstration bound."""
    instance = as_instance(instance)
    machine = world.machine(instance.machine)
    results = [_run(world, machine, index, check, captures) for index, check in enumerate(instance.verify)]
    passed = sum(1 for r in results if r.passed)
    return Verification(passed=passed == len(results), score=passed / len(results) if results else 0.0, checks=results)


def _run(world: World, machine: Machine, index: int, check: Check, captures: dict[str, Any] | None) -> CheckResult:
    kind = check.kind()
    raw = msgspec.to_builtins(check.spec())
    subject = raw.get("path") or raw.get("file") or raw.get("pointer") or ""
    missing = [name for name in captured_names(raw) if not captures or name not in captures]
    if missing:
        return CheckResult(
            index=index, kind=kind, passed=False, subject=subject,
            reason=f"needs the captured value {', '.join(repr(m) for m in missing)} (verify_with a demonstration's captures)",
        )
    try:
        spec = render_value(raw, {}, captures or {})
    except TemplateError as exc:
        return CheckResult(index=index, kind=kind, passed=False, subject=subject, reason=str(exc))
    subject = spec.get("path") or spec.get("file") or spec.get("pointer") or ""
    result = CheckResult(index=index, kind=kind, passed=False, subject=subject)
    CHECKS[kind](world, machine, spec, result)
    return result


# -- file checks ---------------------------------------------------------------------------


def _file_equals(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    expected = spec["content"] if spec.get("content") is not None else "".join(f"{line}\n" for line in spec["lines"])
    found = read_text(machine, spec["path"])
    r.expected, r.found = expected, found
    r.passed = found == expected
    if found is None:
        r.reason = "no such file"
    elif not r.passed:
        r.reason = _first_difference(expected, found)


def _first_difference(expected: str, found: str) -> str:
    want, got = text_lines(expected), text_lines(found)
    for number, (a, b) in enumerate(zip(want, got), start=1):
        if a != b:
            return f"line {number} differs: expected {a!r}, found {b!r}"
    if len(want) != len(got):
        return f"expected {len(want)} lines, found {len(got)}"
    return "the line ends or final newline differ"


def _lines_check(want_present: bool):
    def check(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
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

    return check


def _file_contains(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    found = read_text(machine, spec["path"])
    r.expected, r.found = spec["text"], found
    r.passed = found is not None and spec["text"] in found
    if not r.passed:
        r.reason = "no such file" if found is None else "the text is not in the file"


def _file_absent(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    kind = kind_at(machine, spec["path"])
    r.expected, r.found = None, kind
    r.passed = kind is None
    if not r.passed:
        r.reason = f"a {kind} is there"


def _file_exists(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    want = "dir" if spec.get("dir") else "file"
    kind = kind_at(machine, spec["path"])
    r.expected, r.found = want, kind
    r.passed = kind == want
    if not r.passed:
        r.reason = "nothing is there" if kind is None else f"a {kind} is there"


def _file_mode(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    mode = mode_at(machine, spec["path"])
    r.expected = spec["mode"]
    r.found = None if mode is None else f"{mode:04o}"
    r.passed = mode is not None and mode == int(spec["mode"], 8)
    if not r.passed:
        r.reason = "nothing is there" if mode is None else "the mode differs"


def _file_sorted(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
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


def _dir_entries(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    found = listing(machine, spec["path"])
    r.expected, r.found = sorted(spec["entries"]), found
    r.passed = found == sorted(spec["entries"])
    if not r.passed:
        r.reason = "no such folder" if found is None else "the folder holds other entries"


# -- document checks ---------------------------------------------------------------------


def document(world: World, machine: Machine, file: str | None) -> Any:
    """``World.inspect()``, or a file read as data: JSON, JSON lines, CSV rows by header,
    or else its lines. ``LookupError`` when the file is missing or unreadable."""
    if file is None:
        return world.inspect()
    text = read_text(machine, file)
    if text is None:
        raise LookupError(f"no file {file}")
    try:
        if file.endswith(".json"):
            return json.loads(text)
        if file.endswith(".jsonl"):
            return [json.loads(line) for line in text_lines(text) if line.strip()]
    except json.JSONDecodeError as exc:
        raise LookupError(f"{file} is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if file.endswith(".csv"):
        return [dict(row) for row in csv.DictReader(text_lines(text))]
    return text_lines(text)


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(actual, str) and isinstance(expected, str):
        return expected in actual
    if isinstance(actual, list):
        return any(item == expected or value_matches(item, expected) for item in actual)
    if isinstance(actual, dict) and isinstance(expected, dict):
        return all(key in actual and actual[key] == value for key, value in expected.items())
    return False


def _state(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    equals = "equals" in spec
    r.expected = spec["equals"] if equals else spec["contains"]
    try:
        r.found = resolve(document(world, machine, spec.get("file")), spec.get("pointer", ""))
    except (LookupError, PointerError) as exc:
        r.reason = str(exc)
        return
    r.passed = r.found == r.expected if equals else _contains(r.found, r.expected)
    if not r.passed:
        r.reason = "the value differs" if equals else "the value does not contain what was expected"


def _find(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    where, count = spec.get("where", {}), spec.get("count")
    r.expected = {"where": where, "count": count if count is not None else "at least 1"}
    try:
        collection = resolve(document(world, machine, spec.get("file")), spec.get("pointer", ""))
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


# -- desktop checks ----------------------------------------------------------------------


def _window_matches(window: dict, spec: dict, document: str | None) -> bool:
    if spec.get("app") is not None and window["app"] != spec["app"]:
        return False
    if spec.get("title") is not None and spec["title"] not in (window["title"] or ""):
        return False
    if document is not None and window["document"] != document:
        return False
    for flag in ("maximized", "minimized", "focused"):
        if spec.get(flag) is not None and window[flag] != spec[flag]:
            return False
    within = spec.get("within")
    if within is not None:
        x, y, width, height = window["bounds"]
        if not (within[0] <= x and within[1] <= y and x + width <= within[2] and y + height <= within[3]):
            return False
    return True


def _window(world: World, machine: Machine, spec: dict, r: CheckResult) -> None:
    count = spec.get("count")
    wanted = {k: v for k, v in spec.items() if k != "count" and v is not None}
    within = spec.get("within")
    if within is not None and len(within) != 4:
        r.reason = "within must be [x0, y0, x1, y1]"
        return
    document = abspath(machine, spec["document"]) if spec.get("document") is not None else None
    if document is not None:
        wanted["document"] = document
    r.subject = f"window {spec['app']}" if spec.get("app") else "window"
    r.expected = {"window": wanted, "count": count if count is not None else "at least 1"}
    if world.desktop_session(machine.id) is None:
        r.reason = "no session has a desktop on this machine"
        return
    windows = world.windows(machine.id)
    matching = [w for w in windows if _window_matches(w, spec, document)]
    r.found = {
        "count": len(matching),
        "windows": [{k: w[k] for k in ("app", "title", "bounds", "minimized", "maximized", "focused")} for w in windows],
    }
    r.passed = len(matching) == count if count is not None else bool(matching)
    if not r.passed:
        r.reason = f"{len(matching)} window(s) match"


#: Check kinds that read only their machine's files: their verdicts can change only when
#: its filesystem does.
FILE_CHECKS = frozenset(
    {"file_equals", "file_has_line", "file_lacks_line", "file_contains", "file_absent", "file_exists", "file_mode", "file_sorted", "dir_entries"}
)

CHECKS = {
    "file_equals": _file_equals,
    "file_has_line": _lines_check(True),
    "file_lacks_line": _lines_check(False),
    "file_contains": _file_contains,
    "file_absent": _file_absent,
    "file_exists": _file_exists,
    "file_mode": _file_mode,
    "file_sorted": _file_sorted,
    "dir_entries": _dir_entries,
    "state": _state,
    "find": _find,
    "window": _window,
}
