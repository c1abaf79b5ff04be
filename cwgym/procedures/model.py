"""The procedure format as msgspec types: parameters, setup, gestures, tool calls, captures,
phases and checks.

These types check shape (fields, their types, unknown keys). What shape cannot say (a
placeholder naming no parameter, a gesture target that matches on nothing, two checks in
one entry) is checked by :mod:`cwgym.procedures.validate`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, Struct, UnsetType

# -- parameters --------------------------------------------------------------------------


class ParamBase(Struct, tag_field="kind", forbid_unknown_fields=True, kw_only=True):
    """What every parameter has: a name, and other parameters it must differ from."""

    name: str
    distinct_from: list[str] = []


class ChoiceParam(ParamBase, tag="choice"):
    """One of ``choices``; an object choice is read by field (``{{name.field}}``)."""

    choices: list[Any]


class IntegerParam(ParamBase, tag="integer"):
    """An integer in ``min..max`` (inclusive), a multiple of ``step`` above ``min``."""

    min: int
    max: int
    step: int = 1


class DecimalParam(ParamBase, tag="decimal"):
    """A decimal number in ``min..max`` with ``places`` digits after the point, as text."""

    min: float
    max: float
    places: int = 2


class FormatParam(ParamBase, tag="format"):
    """Text made from earlier parameters: ``"2026-{{sequence}}"``."""

    template: str


class DateParam(ParamBase, tag="date"):
    """An ISO date between ``start`` and ``end``, or ``add_days`` after an earlier date ``from``."""

    start: str | None = None
    end: str | None = None
    from_: str | None = msgspec.field(default=None, name="from")
    add_days: int | str | None = None
    weekdays: bool = False


class NameParam(ParamBase, tag="name"):
    """A name from a built-in list: ``person``, ``given``, ``surname``, ``company``, ``city``."""

    of: str


class SampleParam(ParamBase, tag="sample"):
    """``k`` distinct items from ``choices`` or a built-in list ``of``, in drawn order."""

    k: int
    choices: list[Any] | None = None
    of: str | None = None


class ExprParam(ParamBase, tag="expr"):
    """Arithmetic on earlier numeric parameters (``hours * rate``), exact in decimal."""

    expr: str
    places: int | None = None


Param = ChoiceParam | IntegerParam | DecimalParam | FormatParam | DateParam | NameParam | SampleParam | ExprParam

# -- setup -------------------------------------------------------------------------------


class SetupEntry(Struct, forbid_unknown_fields=True, kw_only=True):
    """A file (``content`` or ``lines``) or, with ``dir``, a folder to create before the run.

    Paths are relative to the user's home (``~/`` allowed) or absolute. ``if_absent`` keeps
    a file the world already has (a register other procedures share).
    """

    path: str
    content: str | None = None
    lines: list[str] | None = None
    dir: bool = False
    mode: str | None = None
    if_absent: bool = False
    machine: str | None = None


# -- gestures ----------------------------------------------------------------------------


class Target(Struct, forbid_unknown_fields=True, kw_only=True):
    """What a gesture aims at, matched on whichever fields are given."""

    role: str | None = None
    label: str | None = None
    text: str | None = None
    interaction: str | None = None
    app: str | None = None


class GestureBase(Struct, tag_field="do", forbid_unknown_fields=True, kw_only=True):
    pass


class Click(GestureBase, tag="click"):
    target: Target


class DoubleClick(GestureBase, tag="double_click"):
    target: Target


class RightClick(GestureBase, tag="right_click"):
    target: Target


class Drag(GestureBase, tag="drag"):
    """Press on ``from``, move, release on ``to`` or at an offset ``dx``/``dy`` from the press."""

    from_: Target = msgspec.field(name="from")
    to: Target | None = None
    dx: int = 0
    dy: int = 0


class Key(GestureBase, tag="key"):
    """A key (``keyboard.v1`` key names), pressed ``repeat`` times."""

    key: str
    repeat: int = 1


class Type(GestureBase, tag="type"):
    """Text typed at the focus: one action (``typing: text``) or one per character (``keys``)."""

    text: str


class Scroll(GestureBase, tag="scroll"):
    """The wheel at ``target`` (or the middle of the focused window), by ``dx``/``dy`` pixels."""

    target: Target | None = None
    dx: int = 0
    dy: int = 0


Gesture = Click | DoubleClick | RightClick | Drag | Key | Type | Scroll

# -- tool calls and captures ---------------------------------------------------------------


class ToolCall(Struct, forbid_unknown_fields=True, kw_only=True):
    """An action envelope without ``machine``: the phase's machine fills it in."""

    family: str
    op: str
    payload: dict[str, Any] = {}


class StateSource(Struct, forbid_unknown_fields=True, kw_only=True):
    """A JSON pointer into ``World.inspect()``; over a collection, ``where`` picks elements
    and the value is the element's key (or the field at ``value``)."""

    pointer: str
    where: dict[str, Any] = {}
    value: str | None = None


class CaptureSource(Struct, forbid_unknown_fields=True, kw_only=True):
    """Exactly one of: owner ``state``, the lines of a ``file``, the output lines of a ``command``."""

    state: StateSource | None = None
    file: str | None = None
    command: str | None = None


class Capture(Struct, forbid_unknown_fields=True, kw_only=True):
    """Bind ``name`` to one value read from the world after a phase."""

    name: str
    from_: CaptureSource = msgspec.field(name="from")
    pattern: str | None = None
    last: bool = False


# -- phases ------------------------------------------------------------------------------


class Phase(Struct, forbid_unknown_fields=True, kw_only=True):
    """One step of the work, with its gestures, its tool-mode equivalent and its captures.

    ``writes: false`` marks a phase that only looks (opens, reads, navigates).
    """

    label: str
    role: str | None = None
    session: str | None = None
    machine: str | None = None
    writes: bool = True
    gui: list[Gesture] = []
    tool: list[ToolCall] = []
    capture: list[Capture] = []


# -- checks ------------------------------------------------------------------------------


class FileEquals(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    content: str | None = None
    lines: list[str] | None = None


class FileLine(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    line: str


class FileContains(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    text: str


class FilePath(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str


class FileExists(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    dir: bool = False


class FileMode(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    mode: str


class FileSorted(Struct, forbid_unknown_fields=True, kw_only=True):
    """The file's lines after the first ``header`` lines are in ascending (byte) order."""

    path: str
    header: int = 0


class DirEntries(Struct, forbid_unknown_fields=True, kw_only=True):
    path: str
    entries: list[str]


class StateCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """A value in a document: ``World.inspect()`` by default, or a JSON/CSV ``file``."""

    pointer: str = ""
    file: str | None = None
    equals: Any | UnsetType = UNSET
    contains: Any | UnsetType = UNSET


class FindCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """Some element (or exactly ``count``) of the collection at ``pointer`` holds ``where``."""

    pointer: str = ""
    file: str | None = None
    where: dict[str, Any] = {}
    count: int | None = None


class WindowCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """Windows on the machine's desktop that hold all the given fields: some window, or
    exactly ``count`` (``0``: no such window). The desktop is the latest session's that has
    one on the machine (the user's current login).

    ``title`` is a part of the title; ``document`` a path (relative to home allowed);
    ``within`` a rectangle ``[x0, y0, x1, y1]`` of the native screen the whole frame lies in.
    """

    app: str | None = None
    title: str | None = None
    document: str | None = None
    maximized: bool | None = None
    minimized: bool | None = None
    focused: bool | None = None
    within: list[int] | None = None
    count: int | None = None


class Check(Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """One check: exactly one of the fields is given."""

    file_equals: FileEquals | None = None
    file_has_line: FileLine | None = None
    file_lacks_line: FileLine | None = None
    file_contains: FileContains | None = None
    file_absent: FilePath | None = None
    file_exists: FileExists | None = None
    file_mode: FileMode | None = None
    file_sorted: FileSorted | None = None
    dir_entries: DirEntries | None = None
    state: StateCheck | None = None
    find: FindCheck | None = None
    window: WindowCheck | None = None

    def kind(self) -> str:
        """The check's kind (its one given field)."""
        for name in self.__struct_fields__:
            if getattr(self, name) is not None:
                return name
        return ""

    def spec(self) -> Any:
        return getattr(self, self.kind())


CHECK_KINDS = Check.__struct_fields__

# -- the procedure -------------------------------------------------------------------------


class Procedure(Struct, forbid_unknown_fields=True, kw_only=True):
    """A procedure file: one piece of work, its parameters, setup, phases and checks."""

    id: str
    domain: str
    instruction: str
    title: str | None = None
    world: str = "ubuntu-workstation"
    machine: str = "workstation"
    params: list[Param] = []
    setup: list[SetupEntry] = []
    phases: list[Phase]
    verify: list[Check]

    def to_plain(self) -> dict:
        return msgspec.to_builtins(self)
