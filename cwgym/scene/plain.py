"""The scene as plain data (dicts, lists, ints, strings), shaped like the spec's JSON.

Top-level keys ``width, height, revision, background, nodes, focus, digest`` are always
present; ``typeface, windows, buffers, scrolls`` only when non-empty. Optional fields of
nodes, windows, focus and scrolls are left out when they carry nothing (see each
function). Nodes are listed in painter order. ``image`` primitives inline their pixels as
a list of ints, as the reference engine does.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

from cwgym.scene.focus import Caret, Focus, Keyboard
from cwgym.scene.geometry import Rect, RoundedClip, Transform
from cwgym.scene.node import Node, NodeState, Semantic
from cwgym.scene.panes import ScrollArea, TextBuffer
from cwgym.scene.primitives import Image, Primitive
from cwgym.scene.text_lines import TextLine
from cwgym.scene.windows import SceneWindow

__all__ = [
    "PlainSource",
    "focus_plain",
    "node_from_plain",
    "node_plain",
    "primitive_plain",
    "scene_fields_from_plain",
    "scene_plain",
    "window_plain",
]

_json_encode = msgspec.json.Encoder().encode
_json_decode = msgspec.json.Decoder().decode


def _rect(r: Rect) -> dict:
    return {"x": r.x, "y": r.y, "width": r.width, "height": r.height}


def primitive_plain(p: Primitive) -> dict:
    """``{kind, ...fields}``; colours as 4-int lists, optional fields as ``null``."""
    if type(p) is Image:
        return {"kind": "image", "width": p.width, "height": p.height, "rgba": list(p.rgba)}
    cache = p.__dict__
    enc = cache.get("_json")
    if enc is None:
        enc = cache["_json"] = _json_encode(p)
    return _json_decode(enc)


def _state(s: NodeState) -> dict:
    out = {}
    if s.checked is not None:
        out["checked"] = s.checked
    if s.selected is not None:
        out["selected"] = s.selected
    if s.expanded is not None:
        out["expanded"] = s.expanded
    if s.focused is not None:
        out["focused"] = s.focused
    return out


def node_plain(n: Node) -> dict:
    """``{id, bounds, primitive, semantic, interaction, clip, rounded_clip?, transform, z,
    opacity, window?, state?, line?, revision}``."""
    s = n.semantic
    t = n.transform
    c = n.clip
    d = {
        "id": n.id,
        "bounds": _rect(n.bounds),
        "primitive": primitive_plain(n.primitive),
        "semantic": None
        if s is None
        else {
            "role": s.role,
            "label": s.label,
            "value": s.value,
            "disabled": s.disabled,
            "focusable": s.focusable,
        },
        "interaction": n.interaction,
        "clip": None if c is None else {"x": c.x, "y": c.y, "width": c.width, "height": c.height},
        "transform": {"a": t.a, "b": t.b, "c": t.c, "d": t.d, "tx": t.tx, "ty": t.ty},
        "z": n.z,
        "opacity": n.opacity,
        "revision": n.revision,
    }
    if n.rounded_clip is not None:
        d["rounded_clip"] = n.rounded_clip.to_plain()
    if n.window is not None:
        d["window"] = n.window
    if n.state is not None:
        d["state"] = _state(n.state)
    if n.line is not None:
        ln = n.line
        line: dict[str, Any] = {
            "logical": ln.logical,
            "continuation": ln.continuation,
            "offset": ln.offset,
        }
        if ln.wrapped_from is not None:
            line["wrapped_from"] = ln.wrapped_from
        if ln.pane is not None:
            line["pane"] = ln.pane
        d["line"] = line
    return d


def window_plain(w: SceneWindow) -> dict:
    """``{id, title, app, bounds, content, z, focused, minimized, maximized, document?,
    tabs?, active_tab, occluded_by?, exposed?}``."""
    d: dict[str, Any] = {
        "id": w.id,
        "title": w.title,
        "app": w.app,
        "bounds": _rect(w.bounds),
        "content": _rect(w.content),
        "z": w.z,
        "focused": w.focused,
        "minimized": w.minimized,
        "maximized": w.maximized,
    }
    if w.document:
        d["document"] = w.document
    if w.tabs:
        d["tabs"] = list(w.tabs)
    d["active_tab"] = w.active_tab
    if w.occluded_by:
        d["occluded_by"] = list(w.occluded_by)
    if w.exposed is not None:
        d["exposed"] = _rect(w.exposed)
    return d


def focus_plain(f: Focus) -> dict:
    """``{window?, node?, interaction?, role?, label?, value?, caret?, keyboard}``."""
    d: dict[str, Any] = {}
    if f.window is not None:
        d["window"] = f.window
    if f.node is not None:
        d["node"] = f.node
    if f.interaction is not None:
        d["interaction"] = f.interaction
    if f.role:
        d["role"] = f.role
    if f.label:
        d["label"] = f.label
    if f.value is not None:
        d["value"] = f.value
    if f.caret is not None:
        c = f.caret
        d["caret"] = {
            "bounds": _rect(c.bounds),
            "line": c.line,
            "column": c.column,
            "offset": c.offset,
        }
    k = f.keyboard
    kb: dict[str, Any] = {"route": k.route}
    if k.window is not None:
        kb["window"] = k.window
    if k.target is not None:
        kb["target"] = k.target
    kb["text_entry"] = k.text_entry
    d["keyboard"] = kb
    return d


def _buffer_plain(b: TextBuffer) -> dict:
    return {
        "handle": b.handle,
        "window": b.window,
        "kind": b.kind,
        "lines": list(b.lines),
        "first_visible": b.first_visible,
        "visible": b.visible,
        "truncated": b.truncated,
    }


def _scroll_plain(s: ScrollArea) -> dict:
    d: dict[str, Any] = {
        "target": s.target,
        "window": s.window,
        "bounds": _rect(s.bounds),
        "offset": s.offset,
        "extent": s.extent,
        "horizontal": s.horizontal,
    }
    if s.title_height is not None:
        d["title_height"] = s.title_height
    return d


class PlainSource(Protocol):
    """What :func:`scene_plain` reads of a scene (:class:`~cwgym.scene.Scene` has it all).

    This module knows scenes by this shape only, so :mod:`cwgym.scene.scene` can build on it
    without the two importing each other.
    """

    width: int
    height: int
    revision: int
    background: tuple[int, ...]
    typeface: str | None
    windows: list[SceneWindow]
    focus: Focus
    buffers: list[TextBuffer]
    scrolls: list[ScrollArea]
    digest: int

    def painted(self) -> list[Node]: ...


def scene_plain(scene: PlainSource) -> dict:
    """The whole scene as plain data (see the module docstring)."""
    out: dict[str, Any] = {
        "width": scene.width,
        "height": scene.height,
        "revision": scene.revision,
        "background": list(scene.background),
    }
    if scene.typeface:
        out["typeface"] = scene.typeface
    out["nodes"] = [node_plain(n) for n in scene.painted()]
    if scene.windows:
        out["windows"] = [window_plain(w) for w in scene.windows]
    out["focus"] = focus_plain(scene.focus)
    if scene.buffers:
        out["buffers"] = [_buffer_plain(b) for b in scene.buffers]
    if scene.scrolls:
        out["scrolls"] = [_scroll_plain(s) for s in scene.scrolls]
    out["digest"] = scene.digest
    return out


# ----------------------------------------------------------------------------- reading


def _r(d: dict | None) -> Rect | None:
    return None if d is None else Rect(d["x"], d["y"], d["width"], d["height"])


def node_from_plain(d: dict) -> Node:
    """The inverse of :func:`node_plain`."""
    p = d["primitive"]
    if p.get("kind") == "image":
        prim: Primitive = Image(p["width"], p["height"], bytes(p["rgba"]))
    else:
        prim = msgspec.convert(p, Primitive)  # type: ignore[arg-type]
    s = d.get("semantic")
    st = d.get("state")
    rc = d.get("rounded_clip")
    ln = d.get("line")
    return Node(
        id=d["id"],
        bounds=_r(d["bounds"]),  # type: ignore[arg-type]
        primitive=prim,
        semantic=None
        if s is None
        else Semantic(s["role"], s["label"], s["value"], s["disabled"], s["focusable"]),
        interaction=d.get("interaction"),
        clip=_r(d.get("clip")),
        rounded_clip=None
        if rc is None
        else RoundedClip(rc["x"], rc["y"], rc["width"], rc["height"], rc["radius"]),
        transform=Transform(**d["transform"]),
        z=d["z"],
        opacity=d["opacity"],
        window=d.get("window"),
        state=None if st is None else NodeState(**st),
        line=None if ln is None else TextLine(**ln),
        revision=d.get("revision", 0),
    )


def scene_fields_from_plain(d: dict) -> dict[str, Any]:
    """The keyword arguments of :class:`~cwgym.scene.Scene` (and its ``digest``) that
    rebuild a scene from :func:`scene_plain` output; ``Scene.from_plain`` uses them."""
    windows = []
    for w in d.get("windows", ()):
        windows.append(
            SceneWindow(
                id=w["id"],
                title=w["title"],
                app=w["app"],
                bounds=_r(w["bounds"]),  # type: ignore[arg-type]
                content=_r(w["content"]),  # type: ignore[arg-type]
                z=w["z"],
                focused=w["focused"],
                minimized=w["minimized"],
                maximized=w["maximized"],
                document=w.get("document", ""),
                tabs=list(w.get("tabs", ())),
                active_tab=w.get("active_tab", 0),
                occluded_by=list(w.get("occluded_by", ())),
                exposed=_r(w.get("exposed")),
            )
        )
    f = d["focus"]
    kb = f["keyboard"]
    caret = f.get("caret")
    focus = Focus(
        window=f.get("window"),
        node=f.get("node"),
        interaction=f.get("interaction"),
        role=f.get("role", ""),
        label=f.get("label", ""),
        value=f.get("value"),
        caret=None
        if caret is None
        else Caret(_r(caret["bounds"]), caret["line"], caret["column"], caret["offset"]),  # type: ignore[arg-type]
        keyboard=Keyboard(kb["route"], kb.get("window"), kb.get("target"), kb["text_entry"]),
    )
    buffers = [
        TextBuffer(
            b["handle"],
            b["window"],
            b["kind"],
            list(b["lines"]),
            b["first_visible"],
            b["visible"],
            b["truncated"],
        )
        for b in d.get("buffers", ())
    ]
    scrolls = [
        ScrollArea(
            s["target"],
            s["window"],
            _r(s["bounds"]),  # type: ignore[arg-type]
            s["offset"],
            s["extent"],
            s["horizontal"],
            s.get("title_height"),
        )
        for s in d.get("scrolls", ())
    ]
    return {
        "width": d["width"],
        "height": d["height"],
        "background": tuple(d["background"]),
        "nodes": [node_from_plain(n) for n in d["nodes"]],
        "windows": windows,
        "focus": focus,
        "buffers": buffers,
        "scrolls": scrolls,
        "typeface": d.get("typeface"),
        "revision": d.get("revision", 0),
        "digest": d.get("digest", 0),
    }
