"""What changed between two stamped scenes, and which screen areas need repainting."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from cwgym.scene.geometry import Rect, bounding_box
from cwgym.scene.node import Node
from cwgym.scene.windows import SceneWindow

__all__ = ["MAX_DAMAGE_RECTS", "SceneDelta", "coalesce", "diff_scenes"]

#: Past this many separate damage rectangles the list collapses into their bounding box.
MAX_DAMAGE_RECTS = 16


class SceneDelta(msgspec.Struct, frozen=True):
    """The difference ``new.diff(old)``.

    Attributes:
        changed: False when the two scene digests are equal (nothing else is computed).
        added, removed, updated: node ids (painter order of the scene that has them)
            that are new, gone, or present in both with a different revision.
        windows: ids of windows added, removed or changed in any field, ascending.
        background, resized, focus: whether those changed.
        damage: screen rectangles to repaint, coalesced (see :func:`coalesce`).
    """

    changed: bool
    added: list[int] = msgspec.field(default_factory=list)
    removed: list[int] = msgspec.field(default_factory=list)
    updated: list[int] = msgspec.field(default_factory=list)
    windows: list[int] = msgspec.field(default_factory=list)
    background: bool = False
    resized: bool = False
    focus: bool = False
    damage: list[Rect] = msgspec.field(default_factory=list)


def _touch(a: Rect, b: Rect) -> bool:
    return (
        a.x <= b.x + b.width
        and b.x <= a.x + a.width
        and a.y <= b.y + b.height
        and b.y <= a.y + a.height
    )


def coalesce(rects: Iterable[Rect | None], viewport: Rect) -> list[Rect]:
    """Clip rectangles to the viewport and merge those that overlap or touch.

    Merging repeats until no two results overlap or touch; the result is sorted by
    ``(y, x, height, width)``. More than :data:`MAX_DAMAGE_RECTS` results collapse into
    one bounding box. The answer depends only on the set of input rectangles.
    """
    work = sorted(
        {c for c in (viewport.intersect(r) for r in rects if r is not None) if c is not None},
        key=lambda r: (r.y, r.x, r.height, r.width),
    )
    merged = True
    while merged and len(work) > 1:
        merged = False
        out: list[Rect] = []
        for r in work:
            for i, o in enumerate(out):
                if _touch(o, r):
                    out[i] = o.union(r)
                    merged = True
                    break
            else:
                out.append(r)
        work = sorted(set(out), key=lambda r: (r.y, r.x, r.height, r.width))
    if len(work) > MAX_DAMAGE_RECTS:
        box = bounding_box(work)
        return [box] if box is not None else []
    return work


def diff_scenes(
    new_nodes: Sequence[Node],
    old_nodes: Sequence[Node],
    new_windows: Sequence[SceneWindow],
    old_windows: Sequence[SceneWindow],
    *,
    viewport: Rect,
    background: bool,
    resized: bool,
    focus: bool,
) -> SceneDelta:
    """The node, window and damage difference of two stamped scenes (painter-ordered nodes)."""
    old_by_id = {n.id: n for n in old_nodes}
    new_ids = set()
    added: list[int] = []
    updated: list[int] = []
    damage: list[Rect | None] = []
    for n in new_nodes:
        new_ids.add(n.id)
        o = old_by_id.get(n.id)
        if o is None:
            added.append(n.id)
            damage.append(n.damage_bounds())
        elif o.revision != n.revision:
            updated.append(n.id)
            damage.append(o.damage_bounds())
            damage.append(n.damage_bounds())
    removed = [n.id for n in old_nodes if n.id not in new_ids]
    damage.extend(old_by_id[i].damage_bounds() for i in removed)
    old_w = {w.id: w for w in old_windows}
    new_w = {w.id: w for w in new_windows}
    windows = sorted(i for i in old_w.keys() | new_w.keys() if old_w.get(i) != new_w.get(i))
    if background or resized:
        damage = [viewport]
    return SceneDelta(
        changed=True,
        added=added,
        removed=removed,
        updated=updated,
        windows=windows,
        background=background,
        resized=resized,
        focus=focus,
        damage=coalesce(damage, viewport),
    )
