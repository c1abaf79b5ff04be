"""What ``project`` returns: the demonstration, its steps, sessions, failure and counts."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from cwgym.procedures.verification import Verification


class ProjectOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """How to perform an instance: the viewport, gestures (``gui``) or tool calls
    (``tool``), and typing as one action per run of text or one per character (``keys``)."""

    width: int = 1280
    height: int = 800
    mode: Literal["gui", "tool"] = "gui"
    typing: Literal["text", "keys"] = "text"


def project_options(options: ProjectOptions | dict | None) -> ProjectOptions:
    """Options from a dict (unknown keys refused) or ``None`` (the defaults)."""
    if options is None:
        return ProjectOptions()
    if isinstance(options, ProjectOptions):
        result = options
    else:
        try:
            result = msgspec.convert(options, ProjectOptions)
        except msgspec.ValidationError as exc:
            raise ValueError(f"invalid project options: {exc}") from None
    if result.width < 1 or result.height < 1:
        raise ValueError(f"invalid project options: the viewport must be positive, got {result.width}x{result.height}")
    return result


class SessionRecord(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A session the demonstration acted through: the role and session name the phases
    give, the world's session id, and the grant (replaying grants it again). A GUI
    session sits at one machine's screen, which ``machine`` names."""

    id: str
    role: str
    session: str
    config: dict[str, Any]
    machine: str | None = None


class Step(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One action sent: its phase, who sent it, the envelope, and whether it worked.

    GUI steps also carry the ``gesture`` they perform (its index in the phase's ``gui``
    list and its kind), the resolved ``target`` (interaction, role, name and the ``app`` of
    its window), the ``point`` clicked and the ``scene`` digest (decimal text) of the screen
    the action was chosen from. A key that ran a terminal command records its
    ``exit_code``.
    """

    index: int
    phase: str
    phase_index: int
    role: str
    session: str
    session_id: str
    kind: Literal["gui", "tool"]
    action: dict[str, Any]
    success: bool
    exit_code: int | None = None
    error: dict[str, Any] | None = None
    gesture: dict[str, Any] | None = None
    target: dict[str, Any] | None = None
    point: list[int] | None = None
    scene: str | None = None


class Failure(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Why a demonstration stopped: the phase, the step (if an action failed), the reason.

    When a gesture found nothing, ``target`` is the target as written and ``screen`` is
    what the acting session had on screen at that moment (see
    :func:`cwgym.procedures.targets.screen_dump`): its windows, its controls with role,
    name, interaction and bounds, and the painted text. ``session`` names that session.
    """

    phase: str
    phase_index: int
    reason: str
    step: int | None = None
    target: dict[str, Any] | None = None
    session: str | None = None
    screen: dict[str, Any] | None = None


class Demonstration(msgspec.Struct, kw_only=True):
    """A procedure performed: steps, outcome, verification, captures and the end state."""

    id: str
    seed: int
    mode: str
    instruction: str
    sessions: list[SessionRecord]
    steps: list[Step]
    completed: bool
    failure: Failure | None
    verification: Verification
    captures: dict[str, Any] | None
    state_hash: str
    counts: dict[str, int | float]
    corruption: dict[str, Any] | None = None

    def actions(self) -> list[tuple[str, dict[str, Any]]]:
        """``(session id, envelope)`` for every step, in order."""
        return [(step.session_id, step.action) for step in self.steps]

    def to_plain(self) -> dict:
        return msgspec.to_builtins(self)
