"""Verification: a procedure's checks against the world, as the owner sees it.

``verify(world, instance)`` runs the checks with no captured values (a check that names
one fails and says so); ``verify_with(world, instance, captures)`` fills them in. Each
check is judged by its kind (:mod:`cwgym.procedures.checks`), and each result says what
was expected and what was found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.checks import CHECK_KINDS, Check, CheckResult
from cwgym.procedures.instance import Instance, as_instance
from cwgym.procedures.template import TemplateError, captured_names, render_value

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


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
    results = [run_check(world, machine, index, check, captures) for index, check in enumerate(instance.verify)]
    passed = sum(1 for r in results if r.passed)
    return Verification(passed=passed == len(results), score=passed / len(results) if results else 0.0, checks=results)


def run_check(world: World, machine: Machine, index: int, check: Check, captures: dict[str, Any] | None) -> CheckResult:
    """One check's verdict: its captured placeholders filled, then judged by its kind."""
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
    CHECK_KINDS[kind].judge(world, machine, spec, result)
    return result
