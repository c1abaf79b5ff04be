"""Integer geometry: rectangles, rectangle algebra, exposure and affine transforms.

Every coordinate is an ``int`` (the determinism rules forbid float geometry). Rectangles
are half-open: ``Rect(x, y, w, h)`` covers the pixels ``x <= px < x + w`` and
``y <= py < y + h``. A rectangle with ``width <= 0`` or ``height <= 0`` is empty.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

__all__ = [
    "IDENTITY",
    "Rect",
    "RoundedClip",
    "Transform",
    "bounding_box",
    "exposed",
]

#: Fixed-point scale of a transform's linear part: 1024 means 1.0.
UNIT = 1024


class Rect(msgspec.Struct, frozen=True):
    """An axis-aligned integer rectangle (half-open)."""

    x: int
    y: int
    width: int
    height: int

    def __post_init__(self) -> None:
        if not (
            type(self.x) is int
            and type(self.y) is int
            and type(self.width) is int
            and type(self.height) is int
        ):
            raise TypeError(f"Rect fields must be ints, got {self!r}")

    @property
    def right(self) -> int:
        """One past the last covered column."""
        return self.x + self.width

    @property
    def bottom(self) -> int:
        """One past the last covered row."""
        return self.y + self.height

    @property
    def empty(self) -> bool:
        """True when the rectangle covers no pixel."""
        return self.width <= 0 or self.height <= 0

    @property
    def area(self) -> int:
        """Number of pixels covered (0 for an empty rectangle)."""
        if self.width <= 0 or self.height <= 0:
            return 0
        return self.width * self.height

    @property
    def center(self) -> tuple[int, int]:
        """The pixel at the centre (rounded towards the top-left)."""
        return self.x + self.width // 2, self.y + self.height // 2

    def contains(self, x: int, y: int) -> bool:
        """True when the pixel ``(x, y)`` lies inside."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height

    def contains_rect(self, other: Rect) -> bool:
        """True when ``other`` lies wholly inside (an empty ``other`` always does)."""
        if other.width <= 0 or other.height <= 0:
            return True
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.x + other.width <= self.x + self.width
            and other.y + other.height <= self.y + self.height
        )

    def intersects(self, other: Rect) -> bool:
        """True when the two rectangles share at least one pixel."""
        return max(self.x, other.x) < min(self.x + self.width, other.x + other.width) and max(
            self.y, other.y
        ) < min(self.y + self.height, other.y + other.height)

    def intersect(self, other: Rect) -> Rect | None:
        """The common part, or ``None`` when they share no pixel."""
        x0 = max(self.x, other.x)
        y0 = max(self.y, other.y)
        x1 = min(self.x + self.width, other.x + other.width)
        y1 = min(self.y + self.height, other.y + other.height)
        if x1 <= x0 or y1 <= y0:
            return None
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def union(self, other: Rect) -> Rect:
        """The bounding box of both; an empty operand is ignored."""
        if other.width <= 0 or other.height <= 0:
            return self
        if self.width <= 0 or self.height <= 0:
            return other
        x0 = min(self.x, other.x)
        y0 = min(self.y, other.y)
        x1 = max(self.x + self.width, other.x + other.width)
        y1 = max(self.y + self.height, other.y + other.height)
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def subtract(self, other: Rect) -> list[Rect]:
        """The part of ``self`` outside ``other`` as disjoint rectangles.

        At most four pieces, in this order: the full-width band above ``other``, the part
        left of it, the part right of it, the full-width band below it. An empty ``self``
        gives ``[]``; no overlap gives ``[self]``.
        """
        if self.width <= 0 or self.height <= 0:
            return []
        inter = self.intersect(other)
        if inter is None:
            return [self]
        pieces: list[Rect] = []
        sx1, sy1 = self.x + self.width, self.y + self.height
        ix1, iy1 = inter.x + inter.width, inter.y + inter.height
        if inter.y > self.y:
            pieces.append(Rect(self.x, self.y, self.width, inter.y - self.y))
        if inter.x > self.x:
            pieces.append(Rect(self.x, inter.y, inter.x - self.x, inter.height))
        if ix1 < sx1:
            pieces.append(Rect(ix1, inter.y, sx1 - ix1, inter.height))
        if iy1 < sy1:
            pieces.append(Rect(self.x, iy1, self.width, sy1 - iy1))
        return pieces

    def translate(self, dx: int, dy: int) -> Rect:
        """The same rectangle moved by ``(dx, dy)``."""
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def inflate(self, dx: int, dy: int | None = None) -> Rect:
        """Grow by ``dx`` on the left and right and ``dy`` (default ``dx``) on top and bottom."""
        if dy is None:
            dy = dx
        return Rect(self.x - dx, self.y - dy, self.width + 2 * dx, self.height + 2 * dy)

    def to_plain(self) -> dict:
        """``{x, y, width, height}``."""
        return {"x": self.x, "y": self.y, "width": self.width, "height": self.height}


def bounding_box(rects: Iterable[Rect]) -> Rect | None:
    """The union of the non-empty rectangles, or ``None`` when there is none."""
    out: Rect | None = None
    for r in rects:
        if r.width <= 0 or r.height <= 0:
            continue
        out = r if out is None else out.union(r)
    return out


def exposed(bounds: Rect, covers: Iterable[Rect]) -> Rect | None:
    """The largest rectangle inside ``bounds`` that no cover overlaps.

    This is the exact maximal empty rectangle (not merely the biggest piece of a
    ``subtract`` decomposition): the edges of ``bounds`` and of the covers split the area
    into a grid of cells, and the largest all-uncovered block of cells is found with the
    histogram method, row by row. Ties are broken by the smallest ``y``, then the smallest
    ``x``, then the larger width, so the answer is the same on every run. ``None`` when
    ``bounds`` is empty or wholly covered.
    """
    if bounds.width <= 0 or bounds.height <= 0:
        return None
    clipped = [c for c in (bounds.intersect(c) for c in covers) if c is not None]
    if not clipped:
        return bounds
    xs = sorted(
        {
            bounds.x,
            bounds.x + bounds.width,
            *(c.x for c in clipped),
            *(c.x + c.width for c in clipped),
        }
    )
    ys = sorted(
        {
            bounds.y,
            bounds.y + bounds.height,
            *(c.y for c in clipped),
            *(c.y + c.height for c in clipped),
        }
    )
    xi = {v: i for i, v in enumerate(xs)}
    yi = {v: i for i, v in enumerate(ys)}
    cols, rows = len(xs) - 1, len(ys) - 1
    covered = [bytearray(cols) for _ in range(rows)]
    for c in clipped:
        c0, c1 = xi[c.x], xi[c.x + c.width]
        for r in range(yi[c.y], yi[c.y + c.height]):
            row = covered[r]
            for col in range(c0, c1):
                row[col] = 1
    heights = [0] * cols
    best: tuple[int, int, int, int] | None = None  # (-area, y, x, -width)
    best_rect: Rect | None = None
    for r in range(rows):
        row_h = ys[r + 1] - ys[r]
        row = covered[r]
        for col in range(cols):
            heights[col] = 0 if row[col] else heights[col] + row_h
        bottom = ys[r + 1]
        stack: list[tuple[int, int]] = []  # (start column, height)
        for col in range(cols + 1):
            h = heights[col] if col < cols else 0
            start = col
            while stack and stack[-1][1] >= h:
                s, sh = stack.pop()
                if sh > 0:
                    x0, width = xs[s], xs[col] - xs[s]
                    key = (-(width * sh), bottom - sh, x0, -width)
                    if best is None or key < best:
                        best = key
                        best_rect = Rect(x0, bottom - sh, width, sh)
                start = s
            stack.append((start, h))
    return best_rect


class Transform(msgspec.Struct, frozen=True):
    """An affine map from a node's local coordinates to screen coordinates.

    ``a, b, c, d`` are the linear part in 1/1024 units (1024 = 1.0); ``tx, ty`` are whole
    pixels. ``apply`` maps a local point to ``((a*x + c*y) // 1024 + tx,
    (b*x + d*y) // 1024 + ty)``. Division rounds towards negative infinity (Python
    ``//``), so a translation or an integer scale is exact and a fractional scale or a
    rotation lands on the pixel whose top-left corner is at or before the exact point.
    """

    a: int = UNIT
    b: int = 0
    c: int = 0
    d: int = UNIT
    tx: int = 0
    ty: int = 0

    def __post_init__(self) -> None:
        for v in (self.a, self.b, self.c, self.d, self.tx, self.ty):
            if type(v) is not int:
                raise TypeError(f"Transform fields must be ints, got {self!r}")

    @staticmethod
    def translate(tx: int, ty: int) -> Transform:
        """A pure translation."""
        return Transform(UNIT, 0, 0, UNIT, tx, ty)

    @staticmethod
    def scale(sx: int, sy: int | None = None, tx: int = 0, ty: int = 0) -> Transform:
        """A scale (in 1/1024 units) followed by a translation."""
        return Transform(sx, 0, 0, sx if sy is None else sy, tx, ty)

    @property
    def is_identity(self) -> bool:
        return self.a == UNIT and self.d == UNIT and not (self.b or self.c or self.tx or self.ty)

    @property
    def is_translation(self) -> bool:
        """True when the linear part is the identity (only ``tx``/``ty`` move points)."""
        return self.a == UNIT and self.d == UNIT and not (self.b or self.c)

    @property
    def determinant(self) -> int:
        """``a*d - b*c`` in 1/1024² units; 0 means the map is not invertible."""
        return self.a * self.d - self.b * self.c

    def apply(self, x: int, y: int) -> tuple[int, int]:
        """The screen point of the local point ``(x, y)``."""
        return (
            (self.a * x + self.c * y) // UNIT + self.tx,
            (self.b * x + self.d * y) // UNIT + self.ty,
        )

    def inverse_apply(self, x: int, y: int) -> tuple[int, int] | None:
        """The local point that maps to the screen point ``(x, y)``; ``None`` if singular.

        Computed exactly with integers and floored, so for translations and integer
        scales it is the exact inverse of ``apply``; for other maps it is the local pixel
        containing the exact preimage.
        """
        det = self.a * self.d - self.b * self.c
        if det == 0:
            return None
        px, py = x - self.tx, y - self.ty
        return (
            ((self.d * px - self.c * py) * UNIT) // det,
            ((self.a * py - self.b * px) * UNIT) // det,
        )

    def map_rect(self, r: Rect) -> Rect:
        """The screen-space bounding box of a local rectangle."""
        if not (self.b or self.c):  # axis-aligned: the corners' extremes are two values per axis
            if self.a == UNIT and self.d == UNIT:
                return Rect(r.x + self.tx, r.y + self.ty, r.width, r.height)
            xa, xb = (self.a * r.x) // UNIT, (self.a * (r.x + r.width)) // UNIT
            ya, yb = (self.d * r.y) // UNIT, (self.d * (r.y + r.height)) // UNIT
            if xa > xb:
                xa, xb = xb, xa
            if ya > yb:
                ya, yb = yb, ya
            return Rect(xa + self.tx, ya + self.ty, xb - xa, yb - ya)
        x1, y1 = r.x + r.width, r.y + r.height
        pts = (self.apply(r.x, r.y), self.apply(x1, r.y), self.apply(r.x, y1), self.apply(x1, y1))
        minx = min(p[0] for p in pts)
        miny = min(p[1] for p in pts)
        maxx = max(p[0] for p in pts)
        maxy = max(p[1] for p in pts)
        return Rect(minx, miny, maxx - minx, maxy - miny)

    def then(self, outer: Transform) -> Transform:
        """The map that applies ``self`` first and then ``outer``.

        The linear parts multiply in 1/1024 units (floored); the translation is
        ``outer.apply(tx, ty)``. Compositions of translations are exact.
        """
        return Transform(
            (outer.a * self.a + outer.c * self.b) // UNIT,
            (outer.b * self.a + outer.d * self.b) // UNIT,
            (outer.a * self.c + outer.c * self.d) // UNIT,
            (outer.b * self.c + outer.d * self.d) // UNIT,
            *outer.apply(self.tx, self.ty),
        )

    def to_plain(self) -> dict:
        return {"a": self.a, "b": self.b, "c": self.c, "d": self.d, "tx": self.tx, "ty": self.ty}


#: The transform that leaves points where they are.
IDENTITY = Transform()


class RoundedClip(msgspec.Struct, frozen=True):
    """A world-space clip rectangle with rounded corners of ``radius`` pixels.

    A pixel is inside when its centre is inside the rounded rectangle (tested exactly
    with integers on doubled coordinates).
    """

    x: int
    y: int
    width: int
    height: int
    radius: int = 0

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.width, self.height)

    def contains(self, x: int, y: int) -> bool:
        x0, y0 = self.x, self.y
        x1, y1 = x0 + self.width, y0 + self.height
        if not (x0 <= x < x1 and y0 <= y < y1):
            return False
        r = min(self.radius, self.width // 2, self.height // 2)
        if r <= 0:
            return True
        # doubled coordinates: the pixel centre is (2x+1, 2y+1)
        cx, cy = 2 * x + 1, 2 * y + 1
        if cx < 2 * (x0 + r):
            ox = 2 * (x0 + r)
        elif cx > 2 * (x1 - r):
            ox = 2 * (x1 - r)
        else:
            return True
        if cy < 2 * (y0 + r):
            oy = 2 * (y0 + r)
        elif cy > 2 * (y1 - r):
            oy = 2 * (y1 - r)
        else:
            return True
        return (cx - ox) ** 2 + (cy - oy) ** 2 <= (2 * r) ** 2

    def to_plain(self) -> dict:
        return {
            "x": self.x,
            "y": self.y,
            "width": self.width,
            "height": self.height,
            "radius": self.radius,
        }
