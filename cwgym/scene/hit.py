"""Pointer hit testing on the retained scene, without pixels.

A node covers a screen pixel when the pixel is inside its world-space clip, its rounded
clip, the viewport, and (mapped back through its transform) its local bounds. Walking the
nodes that cover a point from the top down:

* the first node with an interaction wins — unless it is disabled, in which case the
  click lands on a disabled control and reaches nothing;
* a non-interactive opaque node (see :func:`cwgym.scene.primitives.is_opaque`) stops the
  walk: it hides whatever is under it;
* anything else (text, icons, shadows, transparent regions) lets the pointer through.

Opacity does not change this, except that a node painted at opacity 0 never hides what is
under it (an invisible interactive node still takes clicks, like a CSS ``opacity: 0``
element).

The index buckets nodes into 128-pixel tiles, topmost first, so a query looks only at the
nodes whose visible bounds touch the point's tile. Nodes are measured in parts
(:class:`HitPart`): a scene composed of cached pieces (the compositor's chunks) keeps one
part per piece, measured once, and its index stacks the parts. A tile's bucket is cut when
a query first needs it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from cwgym.scene.geometry import Rect
from cwgym.scene.node import Node
from cwgym.scene.primitives import is_opaque

__all__ = ["GRID", "Hit", "HitIndex", "HitPart"]

_SHIFT = 7  # 128-pixel tiles: a window's large rectangles land in few buckets
_TILE = 1 << _SHIFT
#: :meth:`HitIndex._uncovered` subtracts blockers in 64-pixel cells, whatever the tiles: the
#: order of subtraction shapes the pieces, and so the click points found from them.
_CELL_SHIFT = 6

_NONE: tuple = ()  # the bucket of a tile nothing covers
_LAZY_TILES = 8  # tiles a part cuts from its records before it buckets them all

#: The sampling grid of ``reachable_point`` is GRID x GRID cells (after the centre).
GRID = 8
#: The least area of an opaque rectangle :meth:`HitIndex.reaching` checks nodes below against.
_COVER_AREA = 64 * 64


class Hit(msgspec.Struct, frozen=True):
    """One node under a point, as ``hit_stack`` lists them (topmost first)."""

    node: int
    interaction: str | None
    role: str | None
    window: int | None
    z: int
    interactive: bool
    opaque: bool
    disabled: bool


class _Rec(msgspec.Struct, gc=False):
    """A node's precomputed hit data. Untracked by the garbage collector (it holds only a
    node, itself untracked, and plain values): the repaint caches keep tens of thousands,
    and a named tuple, which the collector never untracks, made every full collection walk
    them all."""

    node: Node
    x0: int
    y0: int
    x1: int
    y1: int
    fast: bool
    interaction: str | None
    disabled: bool
    opaque: bool

    def covers(self, x: int, y: int) -> bool:
        if not (self.x0 <= x < self.x1 and self.y0 <= y < self.y1):
            return False
        return self.fast or self.node.contains(x, y)


def _rec(node: Node, x0: int, y0: int, x1: int, y1: int, fast: bool) -> _Rec:
    sem = node.semantic
    return _Rec(node, x0, y0, x1, y1, fast, node.interaction, sem is not None and sem.disabled, node.opacity > 0 and is_opaque(node.primitive))


def _measure(node: Node, width: int, height: int) -> _Rec | None:
    """The node's hit record on a ``width`` x ``height`` screen (``None``: nothing on it)."""
    t = node.transform
    b = node.bounds
    fast = t.a == 1024 and t.d == 1024 and not (t.b or t.c)
    if fast:
        x0, y0 = b.x + t.tx, b.y + t.ty
        x1, y1 = x0 + b.width, y0 + b.height
    else:
        m = t.map_rect(b)
        x0, y0, x1, y1 = m.x, m.y, m.x + m.width, m.y + m.height
    for c in (node.clip, node.rounded_clip):
        if c is not None:
            x0, y0 = max(x0, c.x), max(y0, c.y)
            x1, y1 = min(x1, c.x + c.width), min(y1, c.y + c.height)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return None
    return _rec(node, x0, y0, x1, y1, fast and node.rounded_clip is None)


#: Records measured before, by node identity: a repainted chunk is mostly nodes of pieces
#: painted earlier (the same objects), whose records are the same. Each entry holds its
#: node, so an id is never another node's while it is kept.
_MEASURED: dict[int, tuple[Node, int, int, _Rec | None]] = {}
_MEASURED_KEPT = 1 << 16


def measured(node: Node, width: int, height: int) -> _Rec | None:
    """The node's hit record on a ``width`` x ``height`` screen, ``None`` when nothing of it
    is on the screen: its ``x0, y0, x1, y1`` are :meth:`Node.visible_bounds` on that
    viewport. Remembered per node (nodes are never changed once painted)."""
    kept = _MEASURED.get(id(node))
    if kept is not None and kept[0] is node and kept[1] == width and kept[2] == height:
        return kept[3]
    rec = _measure(node, width, height)
    if len(_MEASURED) >= _MEASURED_KEPT:
        _MEASURED.clear()
    _MEASURED[id(node)] = (node, width, height, rec)
    return rec


class HitPart:
    """The hit records of a run of nodes (painter order) on a ``width`` x ``height`` screen.

    Records are kept topmost first and bucketed by tile on demand: a click needs one or
    two tiles, so the first few buckets are cut from the records as they are asked for,
    and only a part asked for many is bucketed whole. A scene composed of independently
    painted pieces keeps one part per piece, so its index stacks the parts' buckets
    (:meth:`HitIndex.from_parts`) instead of measuring every node again.
    """

    __slots__ = ("_asked", "_cols", "_tiles", "_whole", "by_id", "recs")

    def __init__(self, painted: Sequence[Node], width: int, height: int) -> None:
        recs: list[_Rec] = []
        by_id: dict[int, _Rec] = {}
        for rank in range(len(painted) - 1, -1, -1):
            node = painted[rank]
            rec = measured(node, width, height)
            if rec is not None:
                by_id[node.id] = rec
                recs.append(rec)
        self.recs = recs
        self.by_id = by_id
        self._cols = max(1, (width + _TILE - 1) >> _SHIFT)
        self._tiles: dict[int, tuple[_Rec, ...]] = {}
        self._asked = 0
        self._whole = False  # every bucket cut: a tile not in _tiles is empty

    def tile(self, index: int) -> tuple[_Rec, ...]:
        """The records touching tile ``index`` (row-major), topmost first."""
        tiles = self._tiles
        bucket = tiles.get(index)
        if bucket is None:
            if self._whole:
                return _NONE
            self._asked += 1
            if self._asked > _LAZY_TILES:
                self._bucket_all()
                return self.tile(index)
            ty, tx = divmod(index, self._cols)
            x0, y0 = tx << _SHIFT, ty << _SHIFT
            x1, y1 = x0 + _TILE, y0 + _TILE
            bucket = tiles[index] = tuple(r for r in self.recs if r.x0 < x1 and x0 < r.x1 and r.y0 < y1 and y0 < r.y1)
        return bucket

    def _bucket_all(self) -> None:
        cols = self._cols
        tiles: dict[int, list[_Rec]] = {}
        get = tiles.get
        for rec in self.recs:
            tx0, tx1 = rec.x0 >> _SHIFT, (rec.x1 - 1) >> _SHIFT
            ty0, ty1 = rec.y0 >> _SHIFT, (rec.y1 - 1) >> _SHIFT
            if tx0 == tx1 and ty0 == ty1:  # most records lie in one tile
                index = ty0 * cols + tx0
                bucket = get(index)
                if bucket is None:
                    tiles[index] = [rec]
                else:
                    bucket.append(rec)
                continue
            for ty in range(ty0, ty1 + 1):
                base = ty * cols
                for index in range(base + tx0, base + tx1 + 1):
                    bucket = get(index)
                    if bucket is None:
                        tiles[index] = [rec]
                    else:
                        bucket.append(rec)
        # tuples of untracked records: the collector untracks them, where lists stay walked
        self._tiles = {index: tuple(bucket) for index, bucket in tiles.items()}
        self._whole = True


class HitIndex:
    """Hit-testing structure over nodes in painter order (bottom first).

    Built once per scene state; rebuild it after the nodes change.
    """

    __slots__ = ("_by_id", "_cols", "_parts", "_tiles", "height", "width")

    def __init__(self, painted: Sequence[Node], width: int, height: int) -> None:
        self._stack([HitPart(painted, width, height)], width, height)

    @classmethod
    def from_parts(cls, parts: Sequence[HitPart], width: int, height: int) -> HitIndex:
        """The index of the parts' nodes painted one part after another (bottom part first).

        Every part must be measured on the same ``width`` x ``height`` screen, and each
        part's nodes must all paint before the next part's.
        """
        index = cls.__new__(cls)
        index._stack(parts, width, height)
        return index

    def _stack(self, parts: Sequence[HitPart], width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._cols = max(1, (width + _TILE - 1) >> _SHIFT)
        self._parts = parts[::-1]  # topmost first
        self._tiles: dict[int, tuple[_Rec, ...]] = {}
        by_id: dict[int, _Rec] = {}
        for part in parts:
            by_id.update(part.by_id)
        self._by_id = by_id

    def _bucket(self, index: int) -> tuple[_Rec, ...]:
        """Every record touching tile ``index``, topmost first."""
        bucket = self._tiles.get(index)
        if bucket is None:
            parts = self._parts
            if len(parts) == 1:
                bucket = parts[0].tile(index)
            else:
                merged: list[_Rec] = []
                for part in parts:
                    merged.extend(part.tile(index))
                bucket = tuple(merged)
            self._tiles[index] = bucket
        return bucket

    def _tile(self, x: int, y: int) -> Sequence[_Rec]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return _NONE
        return self._bucket((y >> _SHIFT) * self._cols + (x >> _SHIFT))

    def hit_test(self, x: int, y: int) -> Node | None:
        """The node a click at ``(x, y)`` reaches, or ``None``."""
        for rec in self._tile(x, y):
            if not (rec.x0 <= x < rec.x1 and rec.y0 <= y < rec.y1):
                continue
            if not rec.fast and not rec.node.contains(x, y):
                continue
            if rec.interaction is not None:
                return None if rec.disabled else rec.node
            if rec.opaque:
                return None
        return None

    def hit_stack(self, x: int, y: int) -> list[Hit]:
        """Every node covering ``(x, y)``, topmost first."""
        out = []
        for rec in self._tile(x, y):
            if rec.covers(x, y):
                n = rec.node
                out.append(
                    Hit(
                        n.id,
                        n.interaction,
                        n.semantic.role if n.semantic is not None else None,
                        n.window,
                        n.z,
                        rec.interaction is not None and not rec.disabled,
                        rec.opaque,
                        rec.disabled,
                    )
                )
        return out

    def hit_reaches(self, node_id: int, x: int, y: int) -> bool:
        """True when ``(x, y)`` is on the node and a click there reaches its control.

        The node must cover the point, and the hit must be the node itself or another
        node of the same interaction (a label painted over its own button).
        """
        rec = self._by_id.get(node_id)
        if rec is None or rec.interaction is None or rec.disabled or not rec.covers(x, y):
            return False
        hit = self.hit_test(x, y)
        return hit is not None and (hit is rec.node or hit.interaction == rec.interaction)

    def visible(self, node_id: int) -> Rect | None:
        """The node's on-screen bounds after clips (``None`` when nothing is on screen)."""
        rec = self._by_id.get(node_id)
        if rec is None:
            return None
        return Rect(rec.x0, rec.y0, rec.x1 - rec.x0, rec.y1 - rec.y0)

    def reachable_point(self, node_id: int) -> tuple[int, int] | None:
        """A point where a click reaches the node, or ``None``.

        ``None`` when the node is inert (no interaction), disabled, off screen or fully
        covered. Candidates, in order: the centre of its visible bounds; the centres of
        the cells of a GRID x GRID grid over them, row by row; then the centres of the
        uncovered pieces left after removing everything painted above that stops the
        click (largest piece first, ties by ``y`` then ``x``), which finds slivers the
        grid steps over. Every candidate is confirmed with :meth:`hit_reaches`.
        """
        rec = self._by_id.get(node_id)
        if rec is None or rec.interaction is None or rec.disabled:
            return None
        x0, y0 = rec.x0, rec.y0
        w, h = rec.x1 - x0, rec.y1 - y0
        cx, cy = x0 + w // 2, y0 + h // 2
        if self.hit_reaches(node_id, cx, cy):  # a reachable point is never outside the pieces
            return cx, cy
        pieces = self._uncovered(rec)
        if not pieces:
            return None

        def tries(px: int, py: int) -> bool:
            for p in pieces:
                if p.x <= px < p.x + p.width and p.y <= py < p.y + p.height:
                    return self.hit_reaches(node_id, px, py)
            return False

        seen = {(cx, cy)}
        for j in range(GRID):
            py = y0 + ((2 * j + 1) * h) // (2 * GRID)
            for i in range(GRID):
                px = x0 + ((2 * i + 1) * w) // (2 * GRID)
                if (px, py) in seen:
                    continue
                seen.add((px, py))
                if tries(px, py):
                    return px, py
        for p in sorted(pieces, key=lambda p: (-p.area, p.y, p.x))[:64]:
            pt = p.center
            if pt not in seen and self.hit_reaches(node_id, *pt):
                return pt
        return None

    def reaching(self, wanted: set[str]) -> dict[str, bool]:
        """For each interaction of ``wanted`` with a node on screen, whether a click reaches
        one of its nodes (:meth:`reaches`); the rest are absent.

        Records are walked topmost first. A node lying wholly inside a large plain opaque
        rectangle above it (a window's background) that is above every record of the node's
        control is answered ``False`` without a hit test: every candidate point's test meets
        that rectangle, or a control of another id above it, first; and
        :meth:`_covered_whole` finds the rectangle. So :meth:`reaches` answers the same.
        """
        answers: dict[str, bool] = {}
        blockers: list[_Rec] = []  # topmost first
        before: dict[str, int] = {}  # control -> how many blockers lie above its first record
        for part in self._parts:
            for rec in part.recs:
                target = rec.interaction
                if target is not None:
                    k = before.get(target)
                    if k is None:
                        k = before[target] = len(blockers)
                    if target in wanted and not answers.get(target):
                        x0, y0, x1, y1 = rec.x0, rec.y0, rec.x1, rec.y1
                        for i in range(k - 1, -1, -1):  # the nearest rectangle first: likeliest to hold it
                            b = blockers[i]
                            if b.x0 <= x0 and b.y0 <= y0 and x1 <= b.x1 and y1 <= b.y1:
                                answers.setdefault(target, False)
                                break
                        else:
                            answers[target] = self._reaches(rec)
                if rec.opaque and rec.fast and (rec.x1 - rec.x0) * (rec.y1 - rec.y0) >= _COVER_AREA:
                    blockers.append(rec)
        return answers

    def reaches(self, node_id: int) -> bool:
        """Whether :meth:`reachable_point` finds a point, with fewer hit tests: only whether
        one of its candidates reaches matters here, not which is first.

        After the centre, on an unscaled node, the grid points no blocker above holds are
        tried before the pieces are cut: the pieces hold every such point however
        :meth:`_uncovered` cuts them, so each is a candidate. Then, as
        :meth:`reachable_point`, the other grid points in the pieces and the pieces'
        centres; no point is tested twice."""
        rec = self._by_id.get(node_id)
        return rec is not None and self._reaches(rec)

    def _reaches(self, rec: _Rec) -> bool:
        if rec.interaction is None or rec.disabled:
            return False
        node_id = rec.node.id
        x0, y0 = rec.x0, rec.y0
        w, h = rec.x1 - x0, rec.y1 - y0
        cx, cy = x0 + w // 2, y0 + h // 2
        for r in self._tile(cx, cy):  # hit_reaches at the centre, inline: most controls answer here
            if not (r.x0 <= cx < r.x1 and r.y0 <= cy < r.y1) or not (r.fast or r.node.contains(cx, cy)):
                continue
            if r.interaction is not None:
                if not r.disabled and (r is rec or r.interaction == rec.interaction) and rec.covers(cx, cy):
                    return True
                break
            if r.opaque:
                break
        if self._covered_whole(rec):
            return False
        grid = [
            (x0 + ((2 * i + 1) * w) // (2 * GRID), y0 + ((2 * j + 1) * h) // (2 * GRID))
            for j in range(GRID)
            for i in range(GRID)
        ]
        tried = {(cx, cy)}
        if rec.fast:
            # a grid point no blocker above holds lies in the pieces however they are cut: try
            # those before cutting (a partly covered control is usually found here)
            for px, py in grid:
                if (px, py) not in tried and self._unblocked(rec, px, py):
                    if self.hit_reaches(node_id, px, py):
                        return True
                    tried.add((px, py))
        pieces = self._uncovered(rec)
        if not pieces:
            return False
        for px, py in grid:
            if (px, py) in tried:
                continue
            for p in pieces:
                if p.x <= px < p.x + p.width and p.y <= py < p.y + p.height:
                    if self.hit_reaches(node_id, px, py):
                        return True
                    break
            tried.add((px, py))
        for p in sorted(pieces, key=lambda p: (-p.area, p.y, p.x))[:64]:
            pt = p.center
            if pt not in tried and self.hit_reaches(node_id, *pt):
                return True
        return False

    def _unblocked(self, rec: _Rec, x: int, y: int) -> bool:
        """Whether no record above ``rec`` that :meth:`_uncovered` subtracts holds ``(x, y)``."""
        target = rec.interaction
        for r in self._tile(x, y):
            if r is rec:
                return True
            if (
                r.fast
                and r.x0 <= x < r.x1 and r.y0 <= y < r.y1
                and (r.opaque or (r.interaction is not None and (r.interaction != target or r.disabled)))
            ):
                return False
        return True

    def _covered_whole(self, rec: _Rec) -> bool:
        """Whether one blocker above the node (as :meth:`_uncovered` counts them) contains its
        whole visible rectangle: then nothing of it is left, whatever else lies above. Such a
        blocker touches the node's first tile, so one bucket is enough to look in; a node
        behind a window is answered here without cutting its rectangle into pieces."""
        target = rec.interaction
        x0, y0, x1, y1 = rec.x0, rec.y0, rec.x1, rec.y1
        for r in self._bucket((y0 >> _SHIFT) * self._cols + (x0 >> _SHIFT)):
            if r is rec:
                return False
            if (
                r.fast
                and r.x0 <= x0 and r.y0 <= y0 and x1 <= r.x1 and y1 <= r.y1
                and (r.opaque or (r.interaction is not None and (r.interaction != target or r.disabled)))
            ):
                return True
        return False

    def _uncovered(self, rec: _Rec) -> list[Rect]:
        """The node's visible bounds minus the exact areas of nodes above that stop a click.

        Only blockers whose area is exactly their rectangle (no rotation, no rounded clip)
        are removed, so the result may be larger than the truly clickable area but never
        smaller. Blockers are taken cell by cell (64 pixels), topmost first (a blocker
        spanning several cells is removed again harmlessly); subtracting stops past 256 pieces,
        which is still a safe over-estimate.
        """
        target = rec.interaction
        cols = self._cols
        if self._covered_whole(rec):
            return []
        pieces = [Rect(rec.x0, rec.y0, rec.x1 - rec.x0, rec.y1 - rec.y0)]
        down = _SHIFT - _CELL_SHIFT
        for cy in range(rec.y0 >> _CELL_SHIFT, ((rec.y1 - 1) >> _CELL_SHIFT) + 1):
            top, bottom = cy << _CELL_SHIFT, (cy + 1) << _CELL_SHIFT
            for cx in range(rec.x0 >> _CELL_SHIFT, ((rec.x1 - 1) >> _CELL_SHIFT) + 1):
                left, right = cx << _CELL_SHIFT, (cx + 1) << _CELL_SHIFT
                for r in self._bucket((cy >> down) * cols + (cx >> down)):
                    if r is rec:  # the bucket is topmost first: the rest paint below the node
                        break
                    if not r.fast or not (
                        r.opaque
                        or (r.interaction is not None and (r.interaction != target or r.disabled))
                    ) or not (r.x0 < right and left < r.x1 and r.y0 < bottom and top < r.y1):
                        continue
                    x0, y0, x1, y1 = r.x0, r.y0, r.x1, r.y1
                    nxt: list[Rect] = []
                    for p in pieces:
                        if x0 < p.x + p.width and p.x < x1 and y0 < p.y + p.height and p.y < y1:
                            nxt.extend(p.subtract(Rect(x0, y0, x1 - x0, y1 - y0)))
                        else:
                            nxt.append(p)
                    pieces = nxt
                    if not pieces or len(pieces) > 256:
                        return pieces
        return pieces
