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
     "focus": {"window"?, "target"?, "route", "text_entry", "caret"?}}

``focus.caret`` is the focused text field's insertion point when the application declares
one (the editor, the terminal's input line, a one-line field): ``{"line", "column",
"offset"}``, the 0-based line and column in the field's value and the offset into it. Keys
that only move the caret (``End``, the arrows, ``Home``, ``Ctrl+End``) change it and nothing
else in the projection. The terminal's element reports its input line as ``value``.

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

from cwgym.scene import Node, Rect, Scene, Text, UiText, UiTextBold
from cwgym.scene.accessibility import controls
from cwgym.scene.hit import measured

__all__ = ["semantic_view"]

_TEXT = (UiText, UiTextBold, Text)
_copy = dict.copy


def _rect(r: Any) -> dict[str, int]:
    return {"x": r.x, "y": r.y, "width": r.width, "height": r.height}


def _part(nodes: list[Node], focused: str | None, viewport: Rect) -> tuple[list, list]:
    """The elements and text runs of nodes in painter order: one element per control
    merged as the accessibility tree merges it (:func:`~cwgym.scene.accessibility.controls`),
    without the click point the tree samples. Visible bounds are the nodes' hit records'
    (:func:`~cwgym.scene.hit.measured`), which the action mask's hit index reuses."""
    width, height = viewport.width, viewport.height  # a scene's viewport starts at the origin
    text = []
    for n in nodes:
        prim = n.primitive
        if isinstance(prim, _TEXT) and prim.text:
            r = measured(n, width, height)
            if r is not None:
                t: dict[str, Any] = {"text": prim.text, "bounds": {"x": r.x0, "y": r.y0, "width": r.x1 - r.x0, "height": r.y1 - r.y0}}
                if n.window is not None:
                    t["window"] = n.window
                text.append(t)
    elements = []
    for target, group, c in controls(nodes):
        x0 = -1
        for n in group:
            r = measured(n, width, height)
            if r is not None:
                if x0 < 0:
                    x0, y0, x1, y1 = r.x0, r.y0, r.x1, r.y1
                else:
                    x0, y0 = min(x0, r.x0), min(y0, r.y0)
                    x1, y1 = max(x1, r.x1), max(y1, r.y1)
        if x0 < 0:
            continue
        e: dict[str, Any] = {"id": target, "role": c.role, "label": c.name}
        if c.value is not None:
            e["value"] = c.value
        if c.window is not None:
            e["window"] = c.window
        e["bounds"] = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
        e["enabled"] = c.enabled
        e["focused"] = c.state_focused or focused == target
        if c.checked is not None:
            e["checked"] = c.checked
        if c.selected is not None:
            e["selected"] = c.selected
        if c.expanded is not None:
            e["expanded"] = c.expanded
        elements.append(e)
    return elements, text


def _fresh(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of element or text entries, each with its own ``bounds`` (every other value in
    an entry is a string, a number, a bool or ``None``, which the copies may share)."""
    out = list(map(_copy, items))
    for item in out:
        item["bounds"] = item["bounds"].copy()
    return out


def _head(scene: Scene) -> dict[str, Any]:
    """The projection without its elements and text."""
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
    f = scene.focus
    focus: dict[str, Any] = {}
    if f.window is not None:
        focus["window"] = f.window
    if f.keyboard.target is not None:
        focus["target"] = f.keyboard.target
    focus["route"] = f.keyboard.route
    focus["text_entry"] = f.keyboard.text_entry
    if f.caret is not None:
        c = f.caret
        focus["caret"] = {"line": c.line, "column": c.column, "offset": c.offset}
    return {
        "version": 1,
        "title": title,
        "screen": {"width": scene.width, "height": scene.height},
        "windows": windows,
        "elements": None,  # filled by Template.view (the keys keep the projection's order)
        "text": None,
        "focus": focus,
    }


class Template:
    """A projection kept to be handed out again: its head, elements and text, gathered
    from the painted chunks' shares (or the whole scene's). Nothing in it is ever handed
    out; :meth:`view` builds a copy that shares only immutable values with it."""

    __slots__ = ("_shared", "elements", "head", "text")

    def __init__(self, head: dict[str, Any], parts: list[tuple[list, list]]) -> None:
        self.head = head
        self.elements = [e for part_elements, _ in parts for e in part_elements]
        self.text = [t for _, part_text in parts for t in part_text]
        self._shared: dict[str, Any] | None = None

    def shared(self) -> dict[str, Any]:
        """The projection made of the template's own values, handed out again while the
        screen stays the same, for owner-side readers that never change it (the RL layer
        reads it into its element table; copying ~200 dicts for it at every new screen would
        be waste). Never the actor's: a reader that changed it would change every later
        projection of that screen, in every world sharing the cache."""
        if self._shared is None:
            view = self.head.copy()
            view["elements"] = self.elements
            view["text"] = self.text
            self._shared = view
        return self._shared

    def view(self) -> dict[str, Any]:
        """A fresh projection: every dict and list in it is new."""
        head = self.head
        windows = []
        for w in head["windows"]:
            w = w.copy()
            w["bounds"] = w["bounds"].copy()
            if "exposed" in w:
                w["exposed"] = w["exposed"].copy()
            windows.append(w)
        view = head.copy()
        view["screen"] = head["screen"].copy()
        view["windows"] = windows
        view["elements"] = _fresh(self.elements)
        view["text"] = _fresh(self.text)
        focus = view["focus"] = head["focus"].copy()
        if "caret" in focus:
            focus["caret"] = focus["caret"].copy()
        return view


def _template(scene: Scene, chunks: list | None) -> Template:
    viewport = scene.viewport
    if chunks is None:
        return Template(_head(scene), [_part(scene.painted(), scene.focus.interaction, viewport)])
    parts = []
    for chunk in chunks:
        if chunk.semantic is None:
            chunk.semantic = _part(chunk.nodes, chunk.focused, viewport)
        parts.append(chunk.semantic)
    return Template(_head(scene), parts)


def semantic_view(scene: Scene, cache: Any = None, *, shared: bool = False) -> dict[str, Any]:
    """The projection of a stamped native-size scene (a fresh dict each call: nothing in
    it is shared with a cache or an earlier call but strings, numbers and bools).

    ``cache`` (the seat's :class:`~cwgym.desktop.compositor.SceneCache`) keeps the last
    projection by scene digest and each painted chunk's share of it, so a change to one
    window rebuilds that window's part only. With ``shared`` (and a cache) the projection
    is the cache's own (:meth:`Template.shared`): read it, never change it.
    """
    if cache is None:
        return _template(scene, None).view()
    if cache.semantic is None or cache.semantic[0] != scene.digest:
        cache.semantic = (scene.digest, _template(scene, cache.parts.get(scene.digest)))
    template = cache.semantic[1]
    return template.shared() if shared else template.view()
