"""Actions in and outcomes out: envelopes, outcomes and effects, typed and as plain data."""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.protocol.errors import SimError


class ActionEnvelope(msgspec.Struct, frozen=True):
    """One action: which family and operation, on which machine, with what payload."""

    family: str
    op: str
    machine: str
    payload: dict[str, Any] = {}

    def to_plain(self) -> dict:
        return {"family": self.family, "op": self.op, "machine": self.machine, "payload": self.payload}


def parse_envelope(obj: Any) -> ActionEnvelope | None:
    """Read a plain envelope; ``None`` when it is not one (not a dict, missing or mistyped fields)."""
    if isinstance(obj, ActionEnvelope):
        return obj
    if not isinstance(obj, dict):
        return None
    family, op, machine = obj.get("family"), obj.get("op"), obj.get("machine")
    payload = obj.get("payload", {})
    if payload is None:
        payload = {}
    if not (isinstance(family, str) and isinstance(op, str) and isinstance(machine, str)):
        return None
    if not isinstance(payload, dict):
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
