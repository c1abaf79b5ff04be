"""``Instance``: one procedure drawn for one seed, as plain data."""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.procedures.checks import Check, decode_hook
from cwgym.procedures.model import Phase, Procedure, SetupEntry


class Instance(msgspec.Struct, kw_only=True):
    """A procedure with its parameters drawn and substituted.

    ``instruction``, ``setup``, ``phases`` and ``verify`` hold the rendered text; captured
    placeholders (``{{@name}}``) wait for the run. ``procedure`` is the source, kept so a
    corrupted copy can redraw a value. ``corruption`` says how a negative was made.
    """

    id: str
    domain: str
    world: str
    machine: str
    seed: int
    params: dict[str, Any]
    builtins: dict[str, str]
    instruction: str
    setup: list[SetupEntry]
    phases: list[Phase]
    verify: list[Check]
    procedure: Procedure
    corruption: dict[str, Any] | None = None

    def machine_of(self, part: Phase | SetupEntry) -> str:
        """The machine a phase acts on (and its captures read) or a setup entry is laid
        on: the part's own ``machine``, else the procedure's."""
        return part.machine or self.machine

    def to_plain(self) -> dict:
        return msgspec.to_builtins(self)

    @classmethod
    def from_plain(cls, data: dict) -> Instance:
        return msgspec.convert(data, cls, dec_hook=decode_hook)


def as_instance(value: Instance | dict) -> Instance:
    """An :class:`Instance` from itself or its plain data."""
    if isinstance(value, Instance):
        return value
    if isinstance(value, dict):
        return Instance.from_plain(value)
    raise TypeError(f"an instance is an Instance or its plain dict, got {type(value).__name__}")
