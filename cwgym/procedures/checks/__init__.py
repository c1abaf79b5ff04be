"""Check kinds: what a procedure's ``verify`` list can ask of the world, one module each.

A check is written ``{kind: payload}`` (``{"file_contains": {"path": ..., "text": ...}}``).
Each kind is a :class:`CheckKind` in :data:`CHECK_KINDS`: its payload type (a msgspec
struct, so reading a procedure checks the payload's shape), the rules its type cannot say,
how it judges the world, and what it reads. Every public module of this package registers
one kind when the registry is first read, so adding a kind is adding a module here (or
calling :func:`register` from anywhere, as a test does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.kernel.registry import Registry

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


#: ``judge(world, machine, spec, result)``: look at the world and fill in ``result``
#: (``passed``, ``expected``, ``found``, ``reason``). ``spec`` is the payload as plain data
#: with every placeholder filled; ``machine`` is the procedure's machine.
Judge = Callable[["World", "Machine", dict[str, Any], CheckResult], None]

#: ``problems(payload)``: the rules the payload's type cannot say, as ``(field, problem)``
#: pairs; ``field`` is ``""`` for the check as a whole. The first one refuses the procedure.
Problems = Callable[[Any], Iterable[tuple[str, str]]]


def no_problems(payload: Any) -> Iterable[tuple[str, str]]:
    """The rules of a kind whose payload type says everything: none."""
    return ()


@dataclass(frozen=True, slots=True)
class CheckKind:
    """Everything one kind of check needs.

    Attributes:
        name: the key it is written under in a procedure (``file_contains``).
        payload: the msgspec struct its payload is read into (unknown fields refused).
        judge: how it verifies a world (see :data:`Judge`).
        problems: the payload rules its type cannot say (see :data:`Problems`).
        files_only: it reads nothing but its machine's files, so its verdict can change
            only when that filesystem does.
        shows_values: a failure's ``expected`` and ``found`` are short enough to print
            (``cwgym procedure debug`` shows them).
    """

    name: str
    payload: type
    judge: Judge
    problems: Problems = no_problems
    files_only: bool = False
    shows_values: bool = False


#: Every check kind, by name.
CHECK_KINDS: Registry[CheckKind] = Registry("check kind", __name__)


def register(kind: CheckKind, *, replace: bool = False) -> CheckKind:
    """Add ``kind`` to :data:`CHECK_KINDS` under its name; a taken name is refused unless ``replace``."""
    return CHECK_KINDS.register(kind.name, kind, replace=replace)


class Check(dict[str, Any]):
    """One entry of a procedure's ``verify`` list: ``{kind: payload}``, exactly one key.

    It is a ``dict`` so it is written out (``to_plain``, JSON) exactly as it was read; the
    payload is the kind's struct. :func:`parse_check` makes one from plain data.
    """

    def kind(self) -> str:
        """The check's kind (its one key)."""
        return next(iter(self))

    def spec(self) -> Any:
        """The check's payload, a struct of its kind's ``payload`` type."""
        return self[self.kind()]

    def __repr__(self) -> str:
        return f"Check({self.kind()}={self.spec()!r})" if len(self) == 1 else f"Check({dict.__repr__(self)})"


def parse_check(data: Any) -> Check:
    """A :class:`Check` from its plain form, its payload read into its kind's type.

    Raises:
        ValueError: not one known kind, or a payload its type refuses; the message ends
            with `` - at `$.kind.field` `` (msgspec's way of saying where).
    """
    if not isinstance(data, dict):
        raise ValueError(f"a check is an object {{kind: {{...}}}}, got {type(data).__name__}")
    names = CHECK_KINDS.names()
    if len(data) != 1:
        given = f", got {', '.join(data)}" if data else ""
        raise ValueError(f"a check is exactly one of {', '.join(names)}{given}")
    (name, payload), = data.items()
    kind = CHECK_KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown field `{name}`: no check kind {name!r} is registered (known: {', '.join(names)})")
    try:
        value = msgspec.convert(payload, kind.payload)
    except msgspec.ValidationError as exc:
        problem, _, inner = str(exc).partition(" - at `$")
        raise ValueError(f"{problem} - at `$.{name}{inner.rstrip('`')}`") from None
    return Check({name: value})


def decode_hook(kind: type, value: Any) -> Any:
    """The msgspec ``dec_hook`` that reads :class:`Check` values (see :func:`parse_check`)."""
    if kind is Check:
        return parse_check(value)
    raise NotImplementedError(f"no decoder for {kind!r}")


def problems_of(check: Check) -> Iterator[tuple[str, str]]:
    """The rules ``check``'s payload breaks, as ``(path below the check, problem)``."""
    kind = CHECK_KINDS[check.kind()]
    for field, problem in kind.problems(check.spec()):
        yield (f"{kind.name}.{field}" if field else kind.name), problem


class FileCheckNames(Set[str]):
    """The names of the kinds that read only their machine's files, as registered now."""

    def __contains__(self, name: object) -> bool:
        kind = CHECK_KINDS.get(name) if isinstance(name, str) else None
        return kind is not None and kind.files_only

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, kind in CHECK_KINDS.items() if kind.files_only])

    def __len__(self) -> int:
        return sum(1 for _, kind in CHECK_KINDS.items() if kind.files_only)


#: Check kinds that read only their machine's files: their verdicts can change only when
#: its filesystem does (``name in FILE_CHECKS``).
FILE_CHECKS = FileCheckNames()

__all__ = [
    "CHECK_KINDS",
    "FILE_CHECKS",
    "SHOWN_LINES",
    "Check",
    "CheckKind",
    "CheckResult",
    "Judge",
    "Problems",
    "decode_hook",
    "no_problems",
    "parse_check",
    "problems_of",
    "register",
]
