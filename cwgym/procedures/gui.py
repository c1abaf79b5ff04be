"""GUI mode: a procedure's gestures performed on screen through pointer and keyboard.

Each ``(role, session, machine)`` the phases name gets a session granted
``application.v1``, ``keyboard.v1`` and ``pointer.v1`` on that one machine (a person sits
at one screen), observing ``terminal.v1`` so a command typed into a Terminal window that
exits non-zero stops the run as it would in tool mode. Every action is chosen from the
typed scene at the options' viewport: gestures with a target resolve it there
(:mod:`cwgym.procedures.targets`), and each step records the digest of the scene it was
chosen from, so replaying the steps re-renders the very frames.

=============== ==========================================================================
gesture         actions sent
=============== ==========================================================================
``click``       ``pointer.v1 click`` at the target's reachable point
``double_click`` ``pointer.v1 double_click`` there
``right_click`` ``pointer.v1 down`` then ``up`` with ``button: 2``
``drag``        ``down`` on ``from``, ``move`` and ``up`` on ``to`` (or at ``dx``/``dy``)
``key``         ``keyboard.v1 key``, ``repeat`` times
``type``        ``keyboard.v1 type`` of the whole text (``typing: text``), or one action
                per character (``typing: keys``): ``type`` of the character, ``key Enter``
                for a line break and ``key Tab`` for a tab
``scroll``      ``pointer.v1 wheel`` at the target (or the middle of the focused window)
=============== ==========================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from cwgym.procedures.demonstration import SessionRecord, Step
from cwgym.procedures.model import (
    Click,
    DoubleClick,
    Drag,
    Gesture,
    Key,
    Phase,
    RightClick,
    Scroll,
    Target,
    Type,
)
from cwgym.procedures.run import Run, phase_role
from cwgym.procedures.targets import Resolved, describe_target, resolve, screen_dump
from cwgym.procedures.template import TemplateError, render_value
from cwgym.protocol.config import EnvironmentConfig

if TYPE_CHECKING:
    from cwgym.environment.actor import Environment
    from cwgym.scene import Scene

#: Families every GUI-mode session is granted.
GUI_FAMILIES = ("application.v1", "keyboard.v1", "pointer.v1")
#: A family a GUI-mode session is also granted when the procedure's tool calls use it: the
#: browser's pages load only for a session that may browse (``browser_family_required``),
#: yet the gestures stay pointer and keyboard.
GUI_GATES = ("browser.v1",)
#: Channels every GUI-mode session observes: the terminal latch, for exit statuses.
GUI_CHANNELS = ("terminal.v1",)
#: Keys a typed character becomes with ``typing: keys``.
TYPED_KEYS = {"\n": "Enter", "\t": "Tab"}


class _Phase(msgspec.Struct):
    """Where a phase acts: its index and label, the session and the machine."""

    index: int
    phase: Phase
    role: str
    session: str
    machine: str
    env: Any


class GuiRun(Run):
    """GUI mode: gestures resolved on the scene and sent as pointer and keyboard actions."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.envs: dict[tuple[str, str, str], Environment] = {}
        self.width = self.options.width
        self.height = self.options.height
        self.action_bytes = 0

    def grant(self) -> None:
        """One session per (role, session, machine) the phases name, in order of first use."""
        used = {call.family for phase in self.instance.phases for call in phase.tool}
        families = [*GUI_FAMILIES, *(family for family in GUI_GATES if family in used)]
        for phase in self.instance.phases:
            key = phase_role(self.world, self.instance, phase)
            if key in self.envs:
                continue
            role, session, machine = key
            config = EnvironmentConfig(
                actor=role, machines=[machine], actions=list(families), observations=list(GUI_CHANNELS)
            )
            env = self.world.environment(config)
            self.envs[key] = env
            self.sessions.append(
                SessionRecord(id=env.id, role=role, session=session, config=config.to_plain(), machine=machine)
            )

    # -- gestures -------------------------------------------------------------------------
    def act(self, index: int, phase: Phase) -> bool:
        role, session, machine = phase_role(self.world, self.instance, phase)
        at = _Phase(index, phase, role, session, machine, self.envs[(role, session, machine)])
        for number, raw in enumerate(phase.gui):
            try:
                gesture = msgspec.convert(render_value(msgspec.to_builtins(raw), {}, self.captures), Gesture)
            except TemplateError as exc:
                return self.stop(index, phase, f"{phase.label}: {exc}")
            if not self.gesture(at, number, gesture):
                return False
        return True

    def gesture(self, at: _Phase, number: int, g: Any) -> bool:
        info = {"index": number, "do": g.__struct_config__.tag}
        if isinstance(g, (Click, DoubleClick, RightClick)):
            scene = self.scene(at)
            found = resolve(scene, g.target)
            if found is None:
                return self.miss(at, g.target, scene)
            x, y = found.point
            if isinstance(g, RightClick):
                return self.send(at, info, self.pointer(at, "down", x, y, button=2), scene, found) and self.send(
                    at, info, self.pointer(at, "up", x, y, button=2), self.scene(at), found
                )
            op = "click" if isinstance(g, Click) else "double_click"
            return self.send(at, info, self.pointer(at, op, x, y), scene, found)
        if isinstance(g, Drag):
            scene = self.scene(at)
            start = resolve(scene, g.from_)
            if start is None:
                return self.miss(at, g.from_, scene)
            end: Resolved | None = None
            if g.to is not None:
                end = resolve(scene, g.to)
                if end is None:
                    return self.miss(at, g.to, scene)
                tx, ty = end.point
            else:
                tx, ty = start.point[0] + g.dx, start.point[1] + g.dy
            x, y = start.point
            return (
                self.send(at, info, self.pointer(at, "down", x, y), scene, start)
                and self.send(at, info, self.pointer(at, "move", tx, ty), self.scene(at), end, (tx, ty))
                and self.send(at, info, self.pointer(at, "up", tx, ty), self.scene(at), end, (tx, ty))
            )
        if isinstance(g, Key):
            for _ in range(g.repeat):
                if not self.send(at, info, self.keyboard(at, "key", key=g.key), self.scene(at)):
                    return False
            return True
        if isinstance(g, Type):
            info["characters"] = len(g.text)
            if self.options.typing == "text":
                return self.send(at, info, self.keyboard(at, "type", text=g.text), self.scene(at))
            for char in g.text:
                key = TYPED_KEYS.get(char)
                action = self.keyboard(at, "key", key=key) if key else self.keyboard(at, "type", text=char)
                if not self.send(at, info, action, self.scene(at)):
                    return False
            return True
        if isinstance(g, Scroll):
            scene = self.scene(at)
            found = None
            if g.target is not None:
                found = resolve(scene, g.target)
                if found is None:
                    return self.miss(at, g.target, scene)
                x, y = found.point
            else:
                x, y = _middle(scene)
            action = self.pointer(at, "wheel", x, y, delta_x=g.dx, delta_y=g.dy)
            return self.send(at, info, action, scene, found, (x, y))
        raise TypeError(f"unknown gesture {g!r}")  # pragma: no cover - the model has no other

    # -- actions ----------------------------------------------------------------------------
    def scene(self, at: _Phase) -> Scene:
        return self.world.scene(at.env.id, self.width, self.height)

    def pointer(self, at: _Phase, op: str, x: int, y: int, **extra: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"x": x, "y": y}
        if op != "wheel":
            payload.update(width=self.width, height=self.height)
        payload.update(extra)
        return {"family": "pointer.v1", "op": op, "machine": at.machine, "payload": payload}

    def keyboard(self, at: _Phase, op: str, **payload: Any) -> dict[str, Any]:
        return {"family": "keyboard.v1", "op": op, "machine": at.machine, "payload": payload}

    def send(
        self,
        at: _Phase,
        gesture: dict[str, Any],
        action: dict[str, Any],
        scene: Scene,
        target: Resolved | None = None,
        point: tuple[int, int] | None = None,
    ) -> bool:
        self.action_bytes += len(msgspec.json.encode(action))
        result = at.env.step([action])
        outcome = result["outcomes"][0]
        success = bool(outcome["success"])
        exit_code = None
        latched = None
        if success and action["family"] == "keyboard.v1" and "terminal" in (outcome.get("effect") or {}).get("changed", ()):
            latched = (result["observation"]["channels"].get("terminal.v1") or {}).get(at.machine)
            if isinstance(latched, dict):
                exit_code = latched.get("exit_code")
        if point is None and target is not None:
            point = target.point
        step = Step(
            index=len(self.steps), phase=at.phase.label, phase_index=at.index, role=at.role, session=at.session,
            session_id=at.env.id, kind="gui", action=action, success=success and exit_code in (None, 0),
            exit_code=exit_code, error=outcome.get("error"), gesture=dict(gesture),
            target=target.record() if target is not None else None,
            point=list(point) if point is not None else None, scene=str(scene.digest),
        )
        self.steps.append(step)
        if not success:
            error = outcome.get("error") or {}
            detail = ", ".join(str(error[k]) for k in ("code", "reason") if error.get(k)) or "failed"
            return self.stop(at.index, at.phase, f"{at.phase.label}: {action['family']} {action['op']} failed ({detail})", step.index)
        if exit_code not in (None, 0):
            stderr = (latched.get("stderr") or "").strip().splitlines() if isinstance(latched, dict) else []
            detail = f": {stderr[-1]}" if stderr else ""
            return self.stop(at.index, at.phase, f"{at.phase.label}: the command exited with status {exit_code}{detail}", step.index)
        return True

    def miss(self, at: _Phase, target: Target, scene: Scene) -> bool:
        plain = {k: v for k, v in msgspec.to_builtins(target).items() if v is not None}
        return self.stop(
            at.index, at.phase, f"{at.phase.label}: nothing on screen matches {describe_target(plain)}",
            target=plain, session=at.env.id, screen=screen_dump(scene),
        )

    def counts(self) -> dict[str, int | float]:
        counts = self.base_counts()
        pointer = sum(1 for s in self.steps if s.action["family"] == "pointer.v1")
        keys = sum(1 for s in self.steps if s.action["family"] == "keyboard.v1")
        typed = 0
        seen: set[tuple[int, int]] = set()
        for s in self.steps:
            g = s.gesture or {}
            if g.get("do") == "type" and (s.phase_index, g["index"]) not in seen:
                seen.add((s.phase_index, g["index"]))
                typed += g.get("characters", 0)
        gui = sum(1 for s in self.steps if s.kind == "gui")
        counts.update(
            gui_actions=gui, pointer_actions=pointer, key_actions=keys, characters_typed=typed,
            keyboard_share=round(keys / gui, 4) if gui else 0.0, gui_action_bytes=self.action_bytes,
        )
        return counts


def _middle(scene: Scene) -> tuple[int, int]:
    """The middle of the focused window's content, else of the screen."""
    focused = scene.focus.window
    window = scene.window(focused) if focused is not None else None
    if window is not None and not window.minimized:
        return window.content.center
    return scene.width // 2, scene.height // 2
