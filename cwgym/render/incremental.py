"""``Renderer``: frames of one viewport, redrawing only what changed since the last frame.

The renderer remembers, from the last frame it produced, the pixels and a record of
the scene: its digest, size and background, and each painted node's id, revision and
screen area, in painter order. Given the next scene it decides:

* **cached**: the scene digest, size and background are the same: the same bytes
  object is returned.
* **partial**: the damage is computed exactly as ``Scene.diff`` does (the old and new
  areas of updated nodes, the areas of added and removed ones), coalesced with
  :func:`cwgym.scene.coalesce`; a damage rectangle that touches a blurring
  ``Backdrop`` grows to hold its whole area (the blur reads what is below it). Each
  rectangle is repainted on a scratch frame (cleared to the background, every node
  whose area meets it drawn in painter order exactly as a full frame draws it) and
  copied back (:func:`cwgym.render.painter.repaint_region`), so the result is
  byte-identical to a full render of the new scene.
* **full**: the first frame, a new size or background, a change in the painter order
  of nodes both scenes hold, or damage covering more than ``max_damage`` of the
  viewport.

The record is taken when a frame is rendered, so changing an old scene object in place
afterwards cannot fool the next comparison. Everything kept is a cache: it never
changes a result, it only saves time, and it is not world state.
"""

from __future__ import annotations

from cwgym.render.painter import node_area, paint_items, repaint_region
from cwgym.render.surface import Target
from cwgym.scene.delta import coalesce
from cwgym.scene.digest import primitive_digest
from cwgym.scene.geometry import Rect
from cwgym.scene.node import Node
from cwgym.scene.primitives import Backdrop
from cwgym.scene.scene import Scene

__all__ = ["Renderer"]

_NONE = object()


class Renderer:
    """Renders successive scenes of one viewport, reusing the previous frame's pixels.

    Args:
        max_damage: the largest fraction of the viewport a partial redraw may cover;
            beyond it the frame is rendered in full.

    Attributes:
        last_mode: how the last frame was made: ``"full"``, ``"partial"`` or ``"cached"``.
        last_damage: the rectangles repainted by the last frame (the viewport for a
            full frame, ``[]`` for a cached one or when only semantics changed).
    """

    __slots__ = (
        "_areas",
        "_background",
        "_digest",
        "_frame",
        "_ids",
        "_order",
        "_scratch",
        "_size",
        "_target",
        "last_damage",
        "last_mode",
        "max_damage",
    )

    def __init__(self, max_damage: float = 0.5) -> None:
        self.max_damage = max_damage
        self.reset()

    def reset(self) -> None:
        """Forget the last frame; the next render is full."""
        self._target: Target | None = None
        self._scratch: Target | None = None
        self._size = (0, 0)
        self._digest = 0
        self._background: tuple[int, ...] = ()
        self._order: list[int] = []
        self._ids: dict[int, tuple[int, Rect | None]] = {}
        self._areas: dict[int, Rect | None] = {}
        self._frame = b""
        self.last_mode = ""
        self.last_damage: list[Rect] = []

    def render(self, scene: Scene) -> bytes:
        """The frame of ``scene``: straight RGBA8, row-major, ``width * height * 4`` bytes.

        Byte-identical to ``render_scene(scene)``. The scene is stamped first if it is
        not (a scene changed in place must be re-stamped, as ``Scene`` requires).
        """
        if not scene.digest:
            scene.stamp()
        size = (scene.width, scene.height)
        background = tuple(scene.background)
        if (
            self._target is not None
            and scene.digest == self._digest
            and size == self._size
            and background == self._background
        ):
            self.last_mode = "cached"
            self.last_damage = []
            return self._frame

        viewport = scene.viewport
        painted = scene.painted()
        old_areas = self._areas
        areas: dict[int, Rect | None] = {}
        ids: dict[int, tuple[int, Rect | None, Node]] = {}
        order: list[int] = []
        items: list[tuple[Node, Rect]] = []
        for n in painted:
            rev = n.revision
            area = areas.get(rev, _NONE)
            if area is _NONE:
                area = old_areas.get(rev, _NONE)
                if area is _NONE or size != self._size:
                    area = node_area(n, viewport)
                areas[rev] = area
            ids[n.id] = (rev, area, n)
            order.append(n.id)
            if area is not None:
                items.append((n, area))

        damage = None
        if self._target is not None and size == self._size and background == self._background:
            damage = self._damage(ids, order, items, viewport)
        try:
            if damage is None:
                if self._target is None or size != self._size:
                    self._target = Target(*size)
                    self._scratch = None
                paint_items(self._target, items, background)
                self.last_mode = "full"
                self.last_damage = [viewport]
            else:
                if self._scratch is None:
                    self._scratch = Target(*size)
                for rect in damage:
                    repaint_region(self._target, self._scratch, items, background, rect)
                self.last_mode = "partial"
                self.last_damage = damage
            if damage != []:  # nothing repainted (semantics or focus changed): same bytes
                self._frame = self._target.straight_rgba(background[3] == 255)
        except BaseException:
            self.reset()  # a half-painted frame must not be reused
            raise
        self._size = size
        self._digest = scene.digest
        self._background = background
        self._order = order
        self._ids = ids
        self._areas = areas
        return self._frame

    def _damage(
        self,
        ids: dict[int, tuple[int, Rect | None, Node]],
        order: list[int],
        items: list[tuple[Node, Rect]],
        viewport: Rect,
    ) -> list[Rect] | None:
        """The rectangles to repaint, or None when the frame must be rendered in full."""
        old = self._ids
        rects: list[Rect | None] = []
        for i, (rev, area, node) in ids.items():
            before = old.get(i)
            if before is None:
                rects.append(area)
            elif before[0] != rev and _drawn(before[2]) != _drawn(node):
                rects.append(before[1])
                rects.append(area)
        for i, (_rev, area, _node) in old.items():
            if i not in ids:
                rects.append(area)
        # the painter order of the nodes both frames hold must not have changed
        if [i for i in order if i in old] != [i for i in self._order if i in ids]:
            return None
        damage = coalesce(rects, viewport)
        blurs = [
            area for n, area in items if type(n.primitive) is Backdrop and n.primitive.blur > 0
        ]
        grown = True
        while grown and blurs:
            grown = False
            for area in blurs:
                if any(r.intersects(area) and not r.contains_rect(area) for r in damage):
                    damage = coalesce([*damage, area], viewport)
                    grown = True
        if sum(r.area for r in damage) > self.max_damage * viewport.area:
            return None
        return damage


def _drawn(n: Node) -> tuple:
    """What a node draws: a change of its semantics alone (a text field's value announced
    on a background node) damages nothing. Asked only of a node whose revision changed."""
    return (primitive_digest(n.primitive), n.bounds, n.clip, n.rounded_clip, n.transform, n.z, n.opacity)
