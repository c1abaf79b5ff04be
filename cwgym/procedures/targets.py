"""Finding what a gesture aims at on the typed scene, the way a person finds it on screen.

A target matches on whichever of its fields are given:

* ``role``: the control's accessible role (``button``, ``row``, ``textbox``...);
* ``label``: the control's accessible name, exactly;
* ``text``: painted text containing the string (a text primitive's content);
* ``interaction``: the control's interaction id, where ``*`` stands for any run of
  characters (nothing else is special, so the match is the same on every platform);
* ``app``: the application of the window the control belongs to (``shell`` for the
  desktop shell's own controls: the dock, the top bar, the desktop icons, panels).

Among the matches the topmost one that a click actually reaches wins, clicked at the
scene's :meth:`~cwgym.scene.Scene.reachable_point`, so a control half hidden behind another
window is clicked where it shows. A ``text`` target need not be interactive itself: it
resolves to the control a click on the painted text reaches, provided that control belongs
to the text's own window and nothing opaque or interactive lies between them. The click
goes where the matched characters are painted.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import msgspec

from cwgym.procedures.model import Target
from cwgym.scene import Scene
from cwgym.scene.node import Node, parse_window
from cwgym.scene.primitives import Text, UiText, UiTextBold

__all__ = ["Resolved", "describe_target", "resolve", "screen_dump", "wildcard"]

_TEXT = (UiText, UiTextBold, Text)
#: The app name of controls outside any window (dock, top bar, desktop icons, panels).
SHELL_APP = "shell"
#: Columns tried along a matched run of text before giving up on it.
TEXT_SAMPLES = 8
#: How many painted text runs a dump lists at most.
MAX_DUMP_TEXT = 400


class Resolved(msgspec.Struct, kw_only=True):
    """What a target resolved to: the control, its window and app, and the point to click."""

    interaction: str
    role: str
    name: str
    window: int | None
    app: str | None
    point: tuple[int, int]
    node: int
    text: str | None = None

    def record(self) -> dict[str, Any]:
        """The target as a step records it."""
        out: dict[str, Any] = {"interaction": self.interaction, "role": self.role, "name": self.name, "app": self.app}
        if self.window is not None:
            out["window"] = self.window
        if self.text is not None:
            out["text"] = self.text
        return out


@lru_cache(maxsize=512)
def wildcard(pattern: str) -> re.Pattern:
    """``pattern`` with ``*`` as any run of characters and everything else literal."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.S)


def _app(scene: Scene, window: int | None, interaction: str | None) -> str | None:
    if window is not None:
        w = scene.window(window)
        return w.app if w is not None else None
    if interaction is not None and interaction.startswith("shell:"):
        return SHELL_APP
    return None


class Control(msgspec.Struct):
    """A control as the accessibility tree names it (see :class:`~cwgym.scene.accessibility.AxNode`),
    built without the reachable point of every control: only matches need one."""

    id: str
    role: str
    name: str
    window: int | None
    nodes: list[Node]
    z: int
    order: int

    def hit(self, scene: Scene) -> tuple[int, int] | None:
        if _disabled(self.nodes):
            return None
        for node in reversed(self.nodes):
            point = scene.reachable_point(node.id)
            if point is not None:
                return point
        return None


def _disabled(nodes: list[Node]) -> bool:
    sem = next((n.semantic for n in nodes if n.semantic is not None), None)
    return sem is not None and sem.disabled


def controls(scene: Scene) -> list[Control]:
    """Every control on ``scene``, painter order of first appearance, named as the
    accessibility tree names it (the semantic label, else the control's first text)."""
    groups: dict[str, list[Node]] = {}
    for node in scene.painted():
        if node.interaction is not None:
            groups.setdefault(node.interaction, []).append(node)
    out = []
    for order, (target, nodes) in enumerate(groups.items()):
        sem = next((n.semantic for n in nodes if n.semantic is not None), None)
        name = sem.label if sem is not None else ""
        if not name:
            name = next((n.primitive.text for n in nodes if isinstance(n.primitive, _TEXT)), "")
        window = parse_window(target)
        if window is None:
            window = next((n.window for n in nodes if n.window is not None), None)
        role = sem.role if sem is not None else ""
        out.append(Control(target, role, name, window, nodes, max(n.z for n in nodes), order))
    return out


def _control_matches(target: Target, ax: Any, app: str | None) -> bool:
    if target.role is not None and ax.role != target.role:
        return False
    if target.label is not None and ax.name != target.label:
        return False
    if target.interaction is not None and not wildcard(target.interaction).fullmatch(ax.id):
        return False
    return target.app is None or app == target.app


def resolve(scene: Scene, target: Target) -> Resolved | None:
    """The control ``target`` names on ``scene`` and the point to click it at, or ``None``."""
    listed = controls(scene)
    if target.text is not None:
        return _resolve_text(scene, target, {c.id: c for c in listed})
    matches = [c for c in listed if _control_matches(target, c, _app(scene, c.window, c.id))]
    for control in sorted(matches, key=lambda c: (c.z, c.order), reverse=True):
        point = control.hit(scene)
        if point is None:
            continue
        hit = scene.hit_test(*point)
        return Resolved(
            interaction=control.id, role=control.role, name=control.name, window=control.window,
            app=_app(scene, control.window, control.id), point=point,
            node=hit.id if hit is not None else control.nodes[-1].id,
        )
    return None


def _resolve_text(scene: Scene, target: Target, controls: dict[str, Control]) -> Resolved | None:
    wanted = target.text or ""
    for node in reversed(scene.painted()):
        prim = node.primitive
        if not isinstance(prim, _TEXT) or wanted not in prim.text:
            continue
        if scene.visible_bounds(node.id) is None:
            continue
        for x, y in _text_points(scene, node, prim, wanted):
            hit = _control_under_text(scene, node, x, y)
            if hit is None:
                continue
            ax = controls.get(hit.interaction or "")
            if ax is None:
                continue
            app = _app(scene, ax.window, ax.id)
            if not _control_matches(target, ax, app):
                break
            return Resolved(
                interaction=ax.id, role=ax.role, name=ax.name, window=ax.window, app=app,
                point=(x, y), node=hit.node, text=prim.text,
            )
    return None


def _control_under_text(scene: Scene, text: Node, x: int, y: int) -> Any:
    """The interactive node a click at ``(x, y)`` on ``text`` reaches, when it is the text
    itself or lies under it in the text's own window; ``None`` otherwise."""
    seen = False
    for hit in scene.hit_stack(x, y):
        if hit.node == text.id:
            seen = True
        if hit.interaction is not None:
            if hit.disabled or not seen:
                return None
            if hit.window != text.window:
                return None
            return hit
        if hit.opaque and hit.node != text.id:
            return None
    return None


def _text_points(scene: Scene, node: Node, prim: Any, wanted: str) -> list[tuple[int, int]]:
    """Screen points over the matched characters: their middle first, then across them."""
    from cwgym.text import measure

    text = prim.text
    start = text.index(wanted)
    b = node.bounds
    try:
        left = measure(text[:start], prim.font, prim.size) if start else 0
        width = measure(wanted, prim.font, prim.size)
    except Exception:  # an unknown font: fall back to the whole run
        left, width = 0, b.width
    left = min(max(0, left), max(0, b.width - 1))
    width = max(1, min(width, b.width - left))
    y = b.y + b.height // 2
    columns = [left + width // 2] + [left + ((2 * i + 1) * width) // (2 * TEXT_SAMPLES) for i in range(TEXT_SAMPLES)]
    out: list[tuple[int, int]] = []
    for local_x in columns:
        point = node.transform.apply(b.x + local_x, y)
        if point not in out and node.contains(*point):
            out.append(point)
    return out


# -- what is on screen -------------------------------------------------------------------


def _rect(r: Any) -> list[int]:
    return [r.x, r.y, r.width, r.height]


def screen_dump(scene: Scene, *, text: bool = True) -> dict[str, Any]:
    """The windows, controls (and painted text) a session has on screen, as plain data.

    This is what a failure carries when a gesture finds nothing, so the author can see
    what was there: each window's id, app, title and bounds; each control's interaction,
    role, name, value, app, bounds and the point a click reaches it at (``None`` when
    covered or disabled); and with ``text`` every painted run of text with its window.
    """
    windows = [
        {
            "id": w.id, "app": w.app, "title": w.title, "bounds": _rect(w.bounds),
            "focused": w.focused, "minimized": w.minimized,
        }
        for w in scene.windows
    ]
    controls = []
    for ax in scene.accessibility():
        entry: dict[str, Any] = {
            "interaction": ax.id, "role": ax.role, "name": ax.name, "window": ax.window,
            "app": _app(scene, ax.window, ax.id), "bounds": _rect(ax.bounds),
            "reachable": list(ax.hit) if ax.hit is not None else None,
        }
        if ax.value is not None:
            entry["value"] = ax.value
        if not ax.enabled:
            entry["enabled"] = False
        controls.append(entry)
    out: dict[str, Any] = {"viewport": [scene.width, scene.height], "windows": windows, "controls": controls}
    focus = scene.focus
    out["focus"] = {"window": focus.window, "interaction": focus.interaction, "route": focus.keyboard.route}
    if text:
        runs = []
        for node in scene.painted():
            if isinstance(node.primitive, _TEXT) and node.primitive.text.strip():
                bounds = scene.visible_bounds(node.id)
                if bounds is None:
                    continue
                runs.append({"text": node.primitive.text, "window": node.window, "bounds": _rect(bounds)})
        out["text"] = runs[:MAX_DUMP_TEXT]
    return out


def describe_target(target: Target | dict) -> str:
    """``{text: 'Client:', app: 'editor'}``: a target as an author wrote it."""
    plain = target if isinstance(target, dict) else msgspec.to_builtins(target)
    return "{" + ", ".join(f"{key}: {value!r}" for key, value in plain.items() if value is not None) + "}"
