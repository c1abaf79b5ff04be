"""Scene nodes: what is painted where, what it means, and what clicking it does."""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.kernel.digest import u64
from cwgym.scene.geometry import IDENTITY, Rect, RoundedClip, Transform
from cwgym.scene.primitives import Primitive, is_opaque, painted_rect
from cwgym.scene.text_lines import TextLine

__all__ = [
    "OPAQUE",
    "Node",
    "NodeState",
    "Semantic",
    "node_id",
    "parse_window",
]

#: Full opacity. ``Node.opacity`` runs from 0 (invisible) to 255 (opaque), like an alpha byte.
OPAQUE = 255


class Semantic(msgspec.Struct, frozen=True):
    """What a node means to an assistive reader: role, accessible name, value, state."""

    role: str
    label: str = ""
    value: str | None = None
    disabled: bool = False
    focusable: bool = False


class NodeState(msgspec.Struct, frozen=True):
    """Widget state; ``None`` means the role has no such state."""

    checked: bool | None = None
    selected: bool | None = None
    expanded: bool | None = None
    focused: bool | None = None


class Node(msgspec.Struct, gc=False):
    """One painted thing in the scene.

    Nodes are never tracked by the garbage collector (``gc=False``): every field is an
    immutable value, so a node cannot be part of a reference cycle, and repaint caches
    keep tens of thousands of them that a collection would otherwise walk.

    Attributes:
        id: stable 64-bit id chosen by the painter (see :func:`node_id`).
        bounds: rectangle in the node's local coordinates.
        primitive: what is drawn in ``bounds``.
        semantic: role/label/value/disabled/focusable, or ``None`` for decoration.
        interaction: the target string a click on this node reaches
            (``window:<id>:close``, ``shell:launch:terminal``...), or ``None`` (inert).
        clip: world-space (screen) clip rectangle, or ``None`` for no clip.
        rounded_clip: an additional world-space rounded clip.
        transform: local to screen map (identity by default).
        z: paint layer; higher paints later. Equal ``z`` paints in insertion order.
        opacity: 0 (invisible) .. 255 (opaque), multiplies the primitive's alpha.
        window: id of the window this node belongs to, if any.
        state: checked/selected/expanded/focused.
        line: text-line provenance of a painted line of a text pane.
        revision: content digest filled by ``Scene.stamp`` (0 = unstamped).
    """

    id: int
    bounds: Rect
    primitive: Primitive
    semantic: Semantic | None = None
    interaction: str | None = None
    clip: Rect | None = None
    rounded_clip: RoundedClip | None = None
    transform: Transform = IDENTITY
    z: int = 0
    opacity: int = OPAQUE
    window: int | None = None
    state: NodeState | None = None
    line: TextLine | None = None
    revision: int = 0

    @property
    def disabled(self) -> bool:
        """True when the semantic marks the node disabled."""
        s = self.semantic
        return s is not None and s.disabled

    @property
    def interactive(self) -> bool:
        """True when a click can reach it: it has an interaction and is not disabled."""
        return self.interaction is not None and not (
            self.semantic is not None and self.semantic.disabled
        )

    @property
    def opaque(self) -> bool:
        """True when the node hides what is below it from the pointer (see ``is_opaque``)."""
        return self.opacity > 0 and is_opaque(self.primitive)

    def screen_bounds(self) -> Rect:
        """The screen-space bounding box of ``bounds`` (ignoring clips)."""
        return self.transform.map_rect(self.bounds)

    def visible_bounds(self, viewport: Rect | None = None) -> Rect | None:
        """Screen bounds cut by the clip, the rounded clip's rectangle and ``viewport``."""
        t = self.transform
        if t.a == 1024 and t.d == 1024 and not (t.b or t.c):  # a translation: no Rect to map
            b = self.bounds
            x0, y0 = b.x + t.tx, b.y + t.ty
            x1, y1 = x0 + b.width, y0 + b.height
        else:
            m = t.map_rect(self.bounds)
            x0, y0, x1, y1 = m.x, m.y, m.x + m.width, m.y + m.height
        for c in (self.clip, self.rounded_clip, viewport):
            if c is not None:  # Rect.intersect, without the intermediate Rects
                x0, y0 = max(x0, c.x), max(y0, c.y)
                x1, y1 = min(x1, c.x + c.width), min(y1, c.y + c.height)
                if x1 <= x0 or y1 <= y0:
                    return None
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def damage_bounds(self) -> Rect | None:
        """The screen area a change to this node repaints (visible paint extent)."""
        b = self.bounds
        r: Rect | None = self.transform.map_rect(
            Rect(*painted_rect(self.primitive, b.x, b.y, b.width, b.height))
        )
        if self.clip is not None:
            r = r.intersect(self.clip)
        if r is not None and self.rounded_clip is not None:
            r = r.intersect(self.rounded_clip.rect)
        return r

    def contains(self, x: int, y: int) -> bool:
        """True when the screen pixel ``(x, y)`` is inside the transformed bounds and clips."""
        if self.clip is not None and not self.clip.contains(x, y):
            return False
        if self.rounded_clip is not None and not self.rounded_clip.contains(x, y):
            return False
        t = self.transform
        if t.a == 1024 and t.d == 1024 and not (t.b or t.c):
            return self.bounds.contains(x - t.tx, y - t.ty)
        local = t.inverse_apply(x, y)
        return local is not None and self.bounds.contains(*local)


def node_id(window: int | None, key: Any) -> int:
    """A deterministic node id from a window id and a painter-chosen local key.

    ``key`` is any msgspec-encodable value (a string, an int, a tuple of them). The id
    is a 64-bit content digest, identical in every process. Ids are memoized under the
    key's ``repr``, which tells apart keys that compare equal but encode differently
    (``1``, ``1.0`` and ``True``); painters ask for the same ids on every repaint.
    """
    memo = (window, repr(key))
    found = _IDS.get(memo)
    if found is None:
        if len(_IDS) >= _IDS_KEPT:
            _IDS.clear()
        found = _IDS[memo] = u64(("cwgym.scene.node", window, key))
    return found


_IDS: dict[tuple[int | None, str], int] = {}
_IDS_KEPT = 1 << 16


def parse_window(interaction: str | None) -> int | None:
    """The window id in a ``window:<id>:...`` interaction string, else ``None``."""
    if interaction is None or not interaction.startswith("window:"):
        return None
    head = interaction[7:].split(":", 1)[0]
    return int(head) if head.isdigit() else None
