"""The procedure format as msgspec types: parameters, setup, gestures, tool calls, captures
and phases; each check is a :class:`~cwgym.procedures.checks.Check` of a registered kind.

A procedure (or an instance) holding checks is read with
:func:`~cwgym.procedures.checks.decode_hook` as msgspec's ``dec_hook``
(:func:`cwgym.procedures.validate.parse_procedure` does).

These types check shape (fields, their types, unknown keys). What shape cannot say (a
placeholder naming no parameter, a gesture with nothing to aim at, a check kind's own
rules) is checked by :mod:`cwgym.procedures.validate`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from cwgym.procedures.checks import Check

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


class WebTaskParam(ParamBase, tag="webtask"):
    """A seeded web task of a kind of :mod:`cwgym.webtasks` (``{{task.instruction}}``,
    ``{{task.answer}}``, ``{{#task.seed}}``): its fields are what the kind generates."""

    task: str


class ExprParam(ParamBase, tag="expr"):
    """Arithmetic on earlier numeric parameters (``hours * rate``), exact in decimal."""

    expr: str
    places: int | None = None


Param = (ChoiceParam | IntegerParam | DecimalParam | FormatParam | DateParam | NameParam | SampleParam | ExprParam
         | WebTaskParam)

# -- setup -------------------------------------------------------------------------------


class SetupEntry(Struct, forbid_unknown_fields=True, kw_only=True):
    """A file (``content`` or ``lines``) or, with ``dir``, a folder to create before the run;
    or, with ``service``, a service's new ``state`` (its ``initial_state`` for this run).

    Paths are relative to the user's home (``~/`` allowed) or absolute. ``if_absent`` keeps
    a file the world already has (a register other procedures share).
    """

    path: str = ""
    service: str | None = None
    state: dict[str, Any] | None = None
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
    """A JSON pointer into ``World.inspect()`` (or, with ``service``, into that service's
    state); over a collection, ``where`` picks elements and the value is the element's key
    (or the field at ``value``)."""

    pointer: str
    service: str | None = None
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
