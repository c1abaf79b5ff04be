"""The expert as an agent: a procedure's demonstration played through an env's own interface.

:func:`expert_rollout` has the expert perform instance ``seed`` of an env's task on a fork
of its template (owner side: the procedure engine's ``project``), then resets the env to
the same instance and sends the demonstration's steps as actions of the env's action
space, recording every transition — demonstrations for behaviour cloning, and the check
that an env's interface can do its task.

Each step is translated into the interface: an envelope as JSON text (``envelopes``,
``screen``); a click or double click on a control as the element row showing that control
(``click-element``, ``double-click-element``); a key as its index in the key set; typed
text as vocabulary slots (split greedily into the instruction's words and spaces); a
pointer action as the grid cell holding its point (a wheel as enough ``wheel_delta``
turns). A step the interface cannot express raises ``ValueError`` naming it.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from cwgym.desktop.keys import parse_key
from cwgym.procedures import project, stage
from cwgym.rl.actions import (
    ActionCodec,
    ClickElementCodec,
    EnvelopeCodec,
    FlatCodec,
    KeysCodec,
    OneOfCodec,
    PointerBoxCodec,
    PointerGridCodec,
    TypeTokenCodec,
)
from cwgym.rl.env import ComputerEnv

if TYPE_CHECKING:
    import gymnasium as gym

    from cwgym.procedures import Demonstration, Step
    from cwgym.rl.episode import Episode

__all__ = ["Transition", "expert_demonstration", "expert_rollout", "translate"]

TOOL_FAMILIES = ("terminal.v1", "filesystem.v1")


class Transition(NamedTuple):
    """One step of a rollout: what the agent saw, did and got."""

    observation: Any
    action: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict


def _episode(env: gym.Env) -> Episode:
    base = env.unwrapped
    if not isinstance(base, ComputerEnv):
        raise TypeError(f"expert_rollout needs a cwgym ComputerEnv, got {type(base).__name__}")
    return base.episode


def expert_demonstration(env: gym.Env, seed: int, mode: str | None = None) -> Demonstration:
    """The expert's demonstration of instance ``seed``, made on a fork of the env's template.

    ``mode`` is ``gui`` or ``tool``; by default ``tool`` when the interface sends only
    terminal and filesystem actions, else ``gui`` (at the env's viewport).
    """
    episode = _episode(env)
    blueprint = episode.blueprint
    if mode is None:
        families = blueprint.actions.families
        mode = "tool" if families and all(f in TOOL_FAMILIES for f in families) else "gui"
    world = blueprint.world.fork(blueprint.template)
    instance = stage(world, blueprint.procedure, seed)
    return project(world, instance, {"mode": mode, "width": blueprint.config.width, "height": blueprint.config.height})


def expert_rollout(env: gym.Env, seed: int, *, mode: str | None = None, demonstration: Demonstration | None = None) -> list[Transition]:
    """Reset ``env`` to instance ``seed`` and play the expert's steps through its interface.

    Stops when the env ends the episode. Raises ``ValueError`` when the demonstration did
    not complete, acts through more than one session, or has a step the interface cannot
    express.
    """
    demo = demonstration if demonstration is not None else expert_demonstration(env, seed, mode)
    if not demo.completed:
        raise ValueError(f"the expert's demonstration did not complete: {demo.failure}")
    if len({step.session_id for step in demo.steps}) > 1:
        raise ValueError("the demonstration acts through several sessions; an env has one agent")
    episode = _episode(env)
    observation, info = env.reset(seed=seed)
    transitions: list[Transition] = []
    for step in demo.steps:
        for action in translate(episode, step):
            after, reward, terminated, truncated, info = env.step(action)
            transitions.append(Transition(observation, action, float(reward), bool(terminated), bool(truncated), info))
            observation = after
            if terminated or truncated:
                return transitions
    return transitions


def translate(episode: Episode, step: Step) -> list[Any]:
    """The actions of the episode's interface that do what ``step`` did (now, on its screen)."""
    out = _codec(episode.blueprint.actions, episode, step)
    if out is None:
        action = step.action
        raise ValueError(
            f"step {step.index} ({action.get('family')} {action.get('op')} {action.get('payload')}) "
            f"cannot be expressed in interface {episode.config.interface!r}"
        )
    return out


_ORDER = (ClickElementCodec, KeysCodec, TypeTokenCodec, EnvelopeCodec, PointerGridCodec, PointerBoxCodec)


def _codec(codec: ActionCodec, episode: Episode, step: Step) -> list[Any] | None:
    if isinstance(codec, FlatCodec):
        ranked = sorted(zip(codec.parts, codec.offsets), key=lambda p: _rank(p[0]))
        for part, offset in ranked:
            found = _part(part, episode, step, flat=True)
            if found is not None:
                return [offset + index for index in found]
        return None
    if isinstance(codec, OneOfCodec):
        ranked = sorted(enumerate(codec.parts), key=lambda p: _rank(p[1]))
        for which, part in ranked:
            found = _part(part, episode, step, flat=False)
            if found is not None:
                return [(which, a) for a in found]
        return None
    return _part(codec, episode, step, flat=False)


def _rank(part: ActionCodec) -> int:
    return next((i for i, kind in enumerate(_ORDER) if isinstance(part, kind)), len(_ORDER))


def _part(part: ActionCodec, episode: Episode, step: Step, *, flat: bool) -> list[Any] | None:
    action = step.action
    family, op, payload = action.get("family"), action.get("op"), action.get("payload") or {}
    if isinstance(part, EnvelopeCodec):
        if family not in part.families:
            return None
        return [json.dumps({"family": family, "op": op, "payload": payload})]
    if isinstance(part, ClickElementCodec):
        if family != "pointer.v1" or op != part.op or payload.get("button", 0) != 0 or step.target is None:
            return None
        table = episode.table
        wanted = step.target.get("interaction")
        rows = [row for row, element in enumerate(table.rows) if element["id"] == wanted] if table is not None else []
        return [rows[0]] if rows else None
    if isinstance(part, KeysCodec):
        if family != "keyboard.v1" or op != "key":
            return None
        try:
            chord = parse_key(payload.get("key"))
        except KeyError:
            return None
        keys = [i for i, key in enumerate(part.keys) if parse_key(key) == chord]
        return keys[:1] or None
    if isinstance(part, TypeTokenCodec):
        if family != "keyboard.v1" or op != "type" or not isinstance(payload.get("text"), str):
            return None
        return _split(payload["text"], episode.ctx.vocabulary)
    if isinstance(part, (PointerGridCodec, PointerBoxCodec)):
        return _pointer(part, episode, family, op, payload, flat)
    return None


def _split(text: str, vocabulary: list[str]) -> list[int] | None:
    """``text`` as vocabulary slots, longest word first at every position."""
    ranked = sorted(range(len(vocabulary)), key=lambda i: -len(vocabulary[i]))
    out: list[int] = []
    at = 0
    while at < len(text):
        match = next((i for i in ranked if vocabulary[i] and text.startswith(vocabulary[i], at)), None)
        if match is None:
            return None
        out.append(match)
        at += len(vocabulary[match])
    return out or None


def _pointer(part: Any, episode: Episode, family: str, op: str, payload: dict, flat: bool) -> list[Any] | None:
    if family != "pointer.v1" or "x" not in payload:
        return None
    width, height = episode.config.width, episode.config.height
    if payload.get("width", width) != width or payload.get("height", height) != height:
        return None
    if op == "wheel":
        dy = int(payload.get("delta_y", 0))
        if payload.get("delta_x") or not dy:
            return None
        name = "wheel_down" if dy > 0 else "wheel_up"
        count = math.ceil(abs(dy) / part.wheel_delta)
    elif op in ("click", "double_click", "down", "up", "move"):
        button = payload.get("button", 0)
        name = "right_click" if (op == "click" and button == 2) else op
        if button not in (0, 2) or (button == 2 and op != "click"):
            return None
        count = 1
    else:
        return None
    if name not in part.ops:
        return None
    index = part.ops.index(name)
    x, y = int(payload["x"]), int(payload["y"])
    if isinstance(part, PointerBoxCodec):
        box = np.array([(index + 0.5) / len(part.ops), (x + 0.5) / width, (y + 0.5) / height], dtype=np.float32)
        return [box.copy() for _ in range(count)]
    column = min(max(x * part.columns // width, 0), part.columns - 1)
    row = min(max(y * part.rows // height, 0), part.rows - 1)
    if flat:
        return [(index * part.columns + column) * part.rows + row] * count
    return [[index, column, row]] * count
