"""``Run``: what performing an instance means in either mode.

One phase after another: the mode performs the phase's actions (:mod:`~cwgym.procedures.project`
sends tool calls, :mod:`~cwgym.procedures.gui` gestures), then the phase's captures are
bound; the first failure stops the run naming the phase. At the end the checks run with
what was captured and the run becomes a :class:`~cwgym.procedures.demonstration.Demonstration`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cwgym.procedures.captures import CaptureMissed, bind_phase
from cwgym.procedures.demonstration import (
    Demonstration,
    Failure,
    ProjectOptions,
    SessionRecord,
    Step,
)
from cwgym.procedures.instance import Instance
from cwgym.procedures.model import Phase
from cwgym.procedures.verification import verify_with

if TYPE_CHECKING:
    from cwgym.environment.world import World

DEFAULT_SESSION = "main"

#: ``checkpoint(k, world)``: called with 0 once the sessions are granted, then with ``k``
#: after the ``k``-th phase ran to its end (the world as the first ``k`` phases left it).
Checkpoint = Callable[[int, "World"], None]


def phase_role(world: World, instance: Instance, phase: Phase) -> tuple[str, str, str]:
    """``(role, session, machine)`` a phase acts as: the machine's user and ``main`` by default."""
    machine = instance.machine_of(phase)
    role = phase.role or world.machine(machine).user
    return role, phase.session or DEFAULT_SESSION, machine


class Run:
    """What both modes share: the phase loop, captures, the failure and the result.

    A mode subclasses it and fills in :meth:`grant`, :meth:`act` and :meth:`counts`.
    """

    def __init__(self, world: World, instance: Instance, options: ProjectOptions, checkpoint: Checkpoint | None = None) -> None:
        self.world = world
        self.instance = instance
        self.options = options
        self.checkpoint = checkpoint
        self.sessions: list[SessionRecord] = []
        self.steps: list[Step] = []
        self.captures: dict[str, Any] = {}
        self.failure: Failure | None = None

    # -- hooks ------------------------------------------------------------------------------
    def grant(self) -> None:
        """Grant the sessions the phases act through, recording them in ``sessions``."""
        raise NotImplementedError

    def act(self, index: int, phase: Phase) -> bool:
        """Perform the phase's actions; ``False`` once the run has stopped."""
        raise NotImplementedError

    def counts(self) -> dict[str, int | float]:
        """The demonstration's counts (start from :meth:`base_counts`)."""
        raise NotImplementedError

    # -- the run ----------------------------------------------------------------------------
    def run(self) -> Demonstration:
        self.grant()
        if self.checkpoint is not None:
            self.checkpoint(0, self.world)
        for index, phase in enumerate(self.instance.phases):
            if not (self.act(index, phase) and self.capture(index, phase)):
                break
            if self.checkpoint is not None:
                self.checkpoint(index + 1, self.world)
        verification = verify_with(self.world, self.instance, self.captures)
        return Demonstration(
            id=self.instance.id,
            seed=self.instance.seed,
            mode=self.options.mode,
            instruction=self.instance.instruction,
            sessions=self.sessions,
            steps=self.steps,
            completed=self.failure is None,
            failure=self.failure,
            verification=verification,
            captures=dict(self.captures) or None,
            state_hash=self.world.state_hash(),
            counts=self.counts(),
            corruption=self.instance.corruption,
        )

    def stop(self, index: int, phase: Phase, reason: str, step: int | None = None, **extra: Any) -> bool:
        """End the run with a failure in phase ``index``; returns ``False`` for the caller to pass on."""
        self.failure = Failure(phase=phase.label, phase_index=index, reason=reason, step=step, **extra)
        return False

    def capture(self, index: int, phase: Phase) -> bool:
        """Bind the phase's captures; a capture that finds nothing stops the run."""
        try:
            bind_phase(self.world, self.instance, phase, self.captures)
        except CaptureMissed as exc:
            return self.stop(index, phase, f"{phase.label}: {exc}")
        return True

    def base_counts(self) -> dict[str, int | float]:
        return {
            "phases": len(self.instance.phases),
            "steps": len(self.steps),
            "gui_actions": 0,
            "pointer_actions": 0,
            "key_actions": 0,
            "characters_typed": 0,
            "keyboard_share": 0.0,
            "gui_action_bytes": 0,
            "tool_calls": 0,
            "tool_call_bytes": 0,
            "captures": len(self.captures),
        }
