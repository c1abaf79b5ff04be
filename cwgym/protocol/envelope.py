"""Actions in and outcomes out: envelopes, outcomes and effects, typed and as plain data."""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.protocol.errors import SimError
from cwgym.protocol.plain import NotPlainData, plain_copy


class ActionEnvelope(msgspec.Struct, frozen=True):
    """One action: which family and operation, on which machine, with what payload."""

    family: str
    op: str
    machine: str
    payload: dict[str, Any] = {}

    def to_plain(self) -> dict:
        return {"family": self.family, "op": self.op, "machine": self.machine, "payload": self.payload}


ENVELOPE_KEYS = frozenset({"family", "op", "machine", "payload"})


def parse_envelope(obj: Any) -> ActionEnvelope | None:
    """Read and copy a plain envelope; ``None`` when it is not one.

    It is one when it is an object with exactly the keys ``family``, ``op``, ``machine``
    (strings) and optionally ``payload`` (an object; ``null`` or missing means ``{}``), and
    every value is plain data within the limits (see :func:`plain_copy`). The envelope
    returned holds copies: nothing the caller keeps aliases what the world dispatches or
    journals.
    """
    if isinstance(obj, ActionEnvelope):
        obj = obj.to_plain()
    if type(obj) is not dict or not obj.keys() <= ENVELOPE_KEYS:
        return None
    try:
        copied = plain_copy(obj)
    except NotPlainData:
        return None
    family, op, machine = copied.get("family"), copied.get("op"), copied.get("machine")
    payload = copied.get("payload")
    if payload is None:
        payload = {}
    if not (type(family) is str and type(op) is str and type(machine) is str) or type(payload) is not dict:
        return None
    return ActionEnvelope(family, op, machine, payload)


class ActionEffect(msgspec.Struct):
    """What an accepted action changed, as seen by the actor.

    ``changed`` holds sorted tags from :mod:`cwgym.protocol.effects`; empty means the action
    was accepted and nothing observable changed. ``state`` digests the target machine's
    actor-visible state afterwards.
    """

    changed: list[str]
    state: int
    windows_opened: list[int] = []
    windows_closed: list[int] = []
    focused_window: int | None = None
    url: str | None = None

    def to_plain(self) -> dict:
        out: dict[str, Any] = {"changed": list(self.changed), "state": str(self.state)}
        if self.windows_opened:
            out["windows_opened"] = list(self.windows_opened)
        if self.windows_closed:
            out["windows_closed"] = list(self.windows_closed)
        if self.focused_window is not None:
            out["focused_window"] = self.focused_window
        if self.url is not None:
            out["url"] = self.url
        return out


class ActionOutcome(msgspec.Struct):
    """The result of one action of a batch. ``effect`` is ``None`` only when it never reached a machine."""

    index: int
    success: bool
    value: Any = None
    error: SimError | None = None
    effect: ActionEffect | None = None

    def to_plain(self) -> dict:
        out: dict[str, Any] = {
            "index": self.index,
            "success": self.success,
            "value": self.value,
            "error": self.error.to_plain() if self.error is not None else None,
        }
        if self.effect is not None:
            out["effect"] = self.effect.to_plain()
        return out
