"""``project(world, instance, options)``: perform an instance and record the demonstration.

Tool mode sends each phase's tool calls through an ordinary granted session, as an agent
with terminal and file access would. GUI mode (:mod:`cwgym.procedures.gui`) performs the
phases' gestures on screen through pointer and keyboard actions. Both share the run
(:class:`~cwgym.procedures.run.Run`): one phase after another, the phase's captures once
its actions are done, and a failure that stops the run naming the phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.demonstration import (
    Demonstration,
    ProjectOptions,
    SessionRecord,
    Step,
    project_options,
)
from cwgym.procedures.gui import GuiRun
from cwgym.procedures.instance import Instance, as_instance
from cwgym.procedures.model import Phase, ToolCall
from cwgym.procedures.run import Checkpoint, Run, phase_role
from cwgym.procedures.template import TemplateError, render_value
from cwgym.protocol.config import EnvironmentConfig

if TYPE_CHECKING:
    from cwgym.environment.actor import Environment
    from cwgym.environment.world import World

#: Families every tool-mode session is granted, besides any other a tool call names.
TOOL_FAMILIES = ("filesystem.v1", "terminal.v1")
TOOL_CHANNELS = ["terminal.v1", "filesystem.v1"]


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
        return GuiRun(world, instance, opts, checkpoint).run()
    return ToolRun(world, instance, opts, checkpoint).run()


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
