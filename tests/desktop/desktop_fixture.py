"""Helpers the desktop tests share: a world with the test application, envelopes, lookups.

Everything acts through the actor handle; the typed scene is rebuilt from the plain one
(``Scene.from_plain``) only to ask it for reachable points.
"""

from __future__ import annotations

from typing import Any

import notepad_app  # noqa: F401  (registers the notepad_test application)

from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world
from cwgym.scene import Scene

M = "workstation"
NOTE = "buy milk"


def definition() -> dict:
    """The bundled workstation, with the test notepad installed and a note on the Desktop."""
    d = load_world("ubuntu-workstation")
    computer = d["computers"][0]
    computer["installed_apps"] = [*computer["installed_apps"], "notepad_test"]
    computer["initial_files"] = {**computer["initial_files"], "Desktop/todo.note": NOTE + "\n"}
    return d


def world(seed: int = 7) -> World:
    return World(definition(), seed)


def desktop(w: World, **changes: Any):
    """A desktop session (application, keyboard, pointer; semantic + pixels), with changes."""
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config.update(changes)
    return w.environment(config)


def act(family: str, op: str, machine: str = M, **payload: Any) -> dict:
    return {"family": family, "op": op, "machine": machine, "payload": payload}


def app(op: str, **payload: Any) -> dict:
    return act("application.v1", op, **payload)


def key(name: str) -> dict:
    return act("keyboard.v1", "key", key=name)


def type_(text: str) -> dict:
    return act("keyboard.v1", "type", text=text)


def ptr(op: str, x: int, y: int, **payload: Any) -> dict:
    return act("pointer.v1", op, x=x, y=y, **payload)


def one(env, action: dict) -> dict:
    """Step one action and return its outcome."""
    return env.step([action])["outcomes"][0]


def ok(env, action: dict) -> Any:
    """Step one action, require success, return its value."""
    outcome = one(env, action)
    assert outcome["success"], outcome
    return outcome["value"]


def nodes(scene: dict, interaction: str) -> list[dict]:
    return [n for n in scene["nodes"] if n["interaction"] == interaction]


def bounds(scene: dict, interaction: str) -> dict:
    """The bounds of the control's node that carries its semantic (else its first node)."""
    found = nodes(scene, interaction)
    assert found, f"no node answers to {interaction}"
    node = next((n for n in found if n["semantic"]), found[0])
    b, t = node["bounds"], node["transform"]
    return {"x": b["x"] + t["tx"], "y": b["y"] + t["ty"], "width": b["width"], "height": b["height"]}


def point(scene: dict, interaction: str) -> tuple[int, int] | None:
    """A point where a click reaches the control, from the scene's own hit testing."""
    typed = Scene.from_plain(scene)
    for node in reversed(nodes(scene, interaction)):
        hit = typed.reachable_point(node["id"])
        if hit is not None:
            return hit
    return None


def window(scene: dict, wid: int) -> dict:
    return next(w for w in scene["windows"] if w["id"] == wid)


def click(env, interaction: str, width: int = 1280, height: int = 800, op: str = "click") -> dict:
    """Find a control in the scene at this viewport and click it where a click reaches it."""
    scene = env.scene(width, height)
    at = point(scene, interaction)
    assert at is not None, f"{interaction} cannot be reached"
    return one(env, ptr(op, *at, width=width, height=height))
