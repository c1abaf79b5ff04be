"""The ``semantic.v1`` projection: what is on a screen, as structure, without pixels.

Built from the scene at the native screen size (so bounds are native screen pixels) and
shaped::

    {"version": 1,
     "title": "<focused window's title, or 'Desktop'>",
     "screen": {"width": 1280, "height": 800},
     "windows": [{"id", "title", "app", "bounds", "focused", "minimized", "maximized",
                  "document"?, "exposed"?}, ...],          # bottom to top
     "elements": [{"id", "role", "label", "value"?, "window"?, "bounds", "enabled",
                   "focused", "checked"?, "selected"?, "expanded"?}, ...],
     "text": [{"text", "bounds", "window"?}, ...],
     "focus": {"window"?, "target"?, "route", "text_entry"}}

``elements`` has one entry per control (an interaction target) with something inside the
screen and its clips, merged over the nodes painted for it (as
:meth:`~cwgym.scene.Scene.accessibility` merges them), in painter order; ``bounds`` is the
union of their visible parts. A control under another window is still listed: the
windows' ``exposed`` rectangles say what can be clicked. (The typed scene's
``accessibility()`` adds a verified click point per control; it costs a sampling pass, so
this per-step observation leaves it out.) ``text`` lists every painted run of text that is
inside the screen and its clips, in painter order.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.scene import Node, Rect, Scene, Text, UiText, UiTextBold
from cwgym.scene.node import parse_window

__all__ = ["semantic_view"]

_TEXT = (UiText, UiTextBold, Text)
_STATES = ("checked", "selected", "expanded")
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode


def _rect(r: Any) -> dict[str, int]:
    return {"x": r.x, "y": r.y, "width": r.width, "height": r.height}


def _part(nodes: list[Node], focused: str | None, viewport: Rect) -> tuple[list, list]:
    """The elements and text runs of nodes in painter order.

    Each element merges the nodes of one interaction as
    :func:`~cwgym.scene.accessibility.build_accessibility` does (the first semantic's
    role, label and value, the label falling back to the first painted text, the first
    checked/selected/expanded state), without the click point it samples.
    """
    groups: dict[str, list[Node]] = {}
    text = []
    for n in nodes:
        if n.interaction is not None:
            group = groups.get(n.interaction)
            if group is None:
                groups[n.interaction] = [n]
            else:
                group.append(n)
        prim = n.primitive
        if isinstance(prim, _TEXT) and prim.text:
            r = n.visible_bounds(viewport)
            if r is not None:
                t: dict[str, Any] = {"text": prim.text, "bounds": _rect(r)}
                if n.window is not None:
                    t["window"] = n.window
                text.append(t)
    elements = []
    for target, group in groups.items():
        shown: Rect | None = None
        for n in group:
            r = n.visible_bounds(viewport)
            if r is not None:
                shown = r if shown is None else shown.union(r)
        if shown is None:
            continue
        sem = next((n.semantic for n in group if n.semantic is not None), None)
        label = sem.label if sem is not None else ""
        if not label:
            label = next((n.primitive.text for n in group if isinstance(n.primitive, _TEXT)), "")
        e: dict[str, Any] = {"id": target, "role": sem.role if sem is not None else "", "label": label}
        if sem is not None and sem.value is not None:
            e["value"] = sem.value
        window = parse_window(target)
        if window is None:
            window = next((n.window for n in group if n.window is not None), None)
        if window is not None:
            e["window"] = window
        e["bounds"] = _rect(shown)
        e["enabled"] = not (sem is not None and sem.disabled)
        is_focused = focused == target
        states: dict[str, bool] = {}
        for n in group:
            st = n.state
            if st is None:
                continue
            for name in _STATES:
                if name not in states:
                    v = getattr(st, name)
                    if v is not None:
                        states[name] = v
            if st.focused:
                is_focused = True
        e["focused"] = is_focused
        for name in _STATES:
            if name in states:
                e[name] = states[name]
        elements.append(e)
    return elements, text


def _build(scene: Scene, chunks: list | None) -> dict[str, Any]:
    windows = []
    title = "Desktop"
    for w in scene.windows:
        d: dict[str, Any] = {
            "id": w.id,
            "title": w.title,
            "app": w.app,
            "bounds": _rect(w.bounds),
            "focused": w.focused,
            "minimized": w.minimized,
            "maximized": w.maximized,
        }
        if w.document:
            d["document"] = w.document
        if w.exposed is not None:
            d["exposed"] = _rect(w.exposed)
        windows.append(d)
        if w.focused:
            title = w.title
    viewport = scene.viewport
    if chunks is None:
        elements, text = _part(scene.painted(), scene.focus.interaction, viewport)
    else:
        elements, text = [], []
        for chunk in chunks:
            if chunk.semantic is None:
                chunk.semantic = _encode(_part(chunk.nodes, chunk.focused, viewport))
            e, t = _decode(chunk.semantic)
            elements.extend(e)
            text.extend(t)
    f = scene.focus
    focus: dict[str, Any] = {}
    if f.window is not None:
        focus["window"] = f.window
    if f.keyboard.target is not None:
        focus["target"] = f.keyboard.target
    focus["route"] = f.keyboard.route
    focus["text_entry"] = f.keyboard.text_entry
    return {
        "version": 1,
        "title": title,
        "screen": {"width": scene.width, "height": scene.height},
        "windows": windows,
        "elements": elements,
        "text": text,
        "focus": focus,
    }


def semantic_view(scene: Scene, cache: Any = None) -> dict[str, Any]:
    """The projection of a stamped native-size scene (a fresh dict each call).

    ``cache`` (the seat's :class:`~cwgym.desktop.compositor.SceneCache`) keeps the last
    projection by scene digest and each painted chunk's share of it, so a change to one
    window rebuilds that window's part only.
    """
    if cache is None:
        return _build(scene, None)
    if cache.semantic is not None and cache.semantic[0] == scene.digest:
        return _decode(cache.semantic[1])
    view = _build(scene, cache.parts.get(scene.digest))
    cache.semantic = (scene.digest, _encode(view))
    return view
