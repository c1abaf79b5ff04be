"""``project(world, instance, options)``: perform an instance and record the demonstration.

Tool mode sends each phase's tool calls through an ordinary granted session, as an agent
with terminal and file access would. GUI mode (:mod:`cwgym.procedures.gui`) performs the
phases' gestures on screen through pointer and keyboard actions. Both share the run
below: one phase after another, the phase's captures once its actions are done, and a
failure that stops the run naming the phase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.captures import CaptureMissed, run_capture
from cwgym.procedures.checks import verify_with
from cwgym.procedures.demonstration import (
    Demonstration,
    Failure,
    ProjectOptions,
    SessionRecord,
    Step,
    project_options,
)
from cwgym.procedures.instance import Instance, as_instance
from cwgym.procedures.model import Capture, Phase, ToolCall
from cwgym.procedures.template import TemplateError, render_value
from cwgym.protocol.config import EnvironmentConfig

if TYPE_CHECKING:
    from cwgym.environment.actor import Environment
    from cwgym.environment.world import World

#: Families every tool-mode session is granted, besides any other a tool call names.
TOOL_FAMILIES = ("filesystem.v1", "terminal.v1")
TOOL_CHANNELS = ["terminal.v1", "filesystem.v1"]
DEFAULT_SESSION = "main"

#: ``checkpoint(k, world)``: called with 0 once the sessions are granted, then with ``k``
#: after the ``k``-th phase ran to its end (the world as the first ``k`` phases left it).
Checkpoint = Callable[[int, "World"], None]


def phase_role(world: World, instance: Instance, phase: Phase) -> tuple[str, str, str]:
    """``(role, session, machine)`` a phase acts as: the machine's user and ``main`` by default."""
    machine = phase.machine or instance.machine
    role = phase.role or world.machine(machine).user
    return role, phase.session or DEFAULT_SESSION, machine


def project(
    world: World,
    instance: Instance | dict,
    options: ProjectOptions | dict | None = None,
    *,
    checkpoint: Checkpoint | None = None,
) -> Demonstration:
    """Perform ``instance`` in ``world`` and return the demonstration.

    The world is left in the state the demonstration ends in (fork first to keep the
    start). An action that fails (a refused or failed call, a command that exits
    non-zero, a gesture whose target nothing on screen matches) or a capture that finds
    nothing stops the run with a failure naming the phase. ``checkpoint(k, world)`` is
    called once the sessions are granted (``k = 0``) and after each phase that ran to its
    end (``k`` phases done); the tests use it to see what each phase changes.

    Raises:
        ValueError: malformed options, or an instance drawn for another world.
    """
    opts = project_options(options)
    instance = as_instance(instance)
    world_id = world.definition().get("id")
    if world_id != instance.world:
        raise ValueError(f"instance of {instance.id!r} belongs to world {instance.world!r}, not {world_id!r}")
    if opts.mode == "gui":
        from cwgym.procedures.gui import GuiRun

        return GuiRun(world, instance, opts, checkpoint).run()
    return ToolRun(world, instance, opts, checkpoint).run()


class Run:
    """What both modes share: the phase loop, captures, the failure and the result."""

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
        raise NotImplementedError

    def act(self, index: int, phase: Phase) -> bool:
        """Perform the phase's actions; ``False`` once the run has stopped."""
        raise NotImplementedError

    def counts(self) -> dict[str, int | float]:
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
        self.failure = Failure(phase=phase.label, phase_index=index, reason=reason, step=step, **extra)
        return False

    def capture(self, index: int, phase: Phase) -> bool:
        _, _, machine = phase_role(self.world, self.instance, phase)
        for capture in phase.capture:
            try:
                rendered = msgspec.convert(render_value(msgspec.to_builtins(capture), {}, self.captures), Capture)
                self.captures[capture.name] = run_capture(self.world, machine, rendered)
            except (CaptureMissed, TemplateError) as exc:
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


class ToolRun(Run):
    """Tool mode: each phase's tool calls through a session granted terminal and files."""

    def __init__(self, world: World, instance: Instance, options: ProjectOptions, checkpoint: Checkpoint | None = None) -> None:
        super().__init__(world, instance, options, checkpoint)
        self.envs: dict[tuple[str, str], Environment] = {}
        self.tool_bytes = 0

    def grant(self) -> None:
        """One session per (role, session) the phases name, in order of first use."""
        plan: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        for phase in self.instance.phases:
            role, session, machine = phase_role(self.world, self.instance, phase)
            machines, families = plan.setdefault((role, session), ([], list(TOOL_FAMILIES)))
            if machine not in machines:
                machines.append(machine)
            families.extend(call.family for call in phase.tool if call.family not in families)
        for (role, session), (machines, families) in plan.items():
            config = EnvironmentConfig(actor=role, machines=machines, actions=sorted(families), observations=list(TOOL_CHANNELS))
            env = self.world.environment(config)
            self.envs[(role, session)] = env
            self.sessions.append(SessionRecord(id=env.id, role=role, session=session, config=config.to_plain()))

    def act(self, index: int, phase: Phase) -> bool:
        role, session, machine = phase_role(self.world, self.instance, phase)
        env = self.envs[(role, session)]
        for call in phase.tool:
            try:
                action = self.envelope(call, machine)
            except TemplateError as exc:
                return self.stop(index, phase, f"{phase.label}: {exc}")
            self.tool_bytes += len(msgspec.json.encode(action))
            outcome = env.step([action])["outcomes"][0]
            value = outcome.get("value")
            exit_code = value.get("exit_code") if call.family == "terminal.v1" and isinstance(value, dict) else None
            success = bool(outcome["success"]) and exit_code in (None, 0)
            step = Step(
                index=len(self.steps), phase=phase.label, phase_index=index, role=role, session=session,
                session_id=env.id, kind="tool", action=action, success=success, exit_code=exit_code,
                error=outcome.get("error"),
            )
            self.steps.append(step)
            if not success:
                return self.stop(index, phase, _why(call, outcome, exit_code, value), step.index)
        return True

    def envelope(self, call: ToolCall, machine: str) -> dict[str, Any]:
        payload = render_value(call.payload, {}, self.captures)
        return {"family": call.family, "op": call.op, "machine": machine, "payload": payload}

    def counts(self) -> dict[str, int | float]:
        counts = self.base_counts()
        counts["tool_calls"] = sum(1 for s in self.steps if s.kind == "tool")
        counts["tool_call_bytes"] = self.tool_bytes
        return counts


def _why(call: ToolCall, outcome: dict[str, Any], exit_code: int | None, value: Any) -> str:
    if exit_code not in (None, 0):
        stderr = (value.get("stderr") or "").strip().splitlines()
        detail = f": {stderr[-1]}" if stderr else ""
        return f"{call.family} {call.op} exited with status {exit_code}{detail}"
    error = outcome.get("error") or {}
    detail = ", ".join(str(error[k]) for k in ("code", "reason") if error.get(k)) or "failed"
    return f"{call.family} {call.op} failed ({detail})"
