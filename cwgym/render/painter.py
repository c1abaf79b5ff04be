"""Painting nodes in painter order, and repainting one rectangle of a frame exactly.

Every node is clipped to its *area*: its ``damage_bounds()`` (the transformed painted
rectangle, cut by its clip and its rounded clip's rectangle) cut by the viewport. So a
node's pixels never leave the rectangle the scene's damage reports for it. Within the
area the rounded clip (anti-aliased), then the opacity (a layer of alpha ``opacity``),
then the transform apply.

Skia's anti-aliased rasterization of a shape depends on the clip it is drawn under
(coverage at and even far from the clip's edges can change by a level), so a repaint
never draws a shape under a different clip than a full frame does.
:func:`repaint_region` repaints a rectangle ``R`` of a frame on a scratch target: it
clears ``R``, draws every node whose area meets ``R`` exactly as a full frame draws it
(same clip, same matrix, same pixel grid) and copies ``R`` back. Only draws that are
provably clip-independent (:func:`clip_invariant`: whole-pixel boxes, image blits,
glyph-mask text, all without a rounded clip) are also cut to ``R`` to save work. Pixels
inside ``R`` then come out exactly as in a full frame: a node only changes pixels in
its area, blending is per pixel, and a blurring ``Backdrop``, which reads what is below
it, is only drawn when ``R`` holds its whole area (the caller grows the damage so).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import skia

from cwgym.render.draw import DRAWERS, Context
from cwgym.render.paints import ANTI_ALIAS
from cwgym.render.surface import Target
from cwgym.scene.geometry import Rect
from cwgym.scene.node import Node
from cwgym.scene.primitives import (
    AssetImage,
    Box,
    Color,
    Image,
    Region,
    Shadow,
    Symbol,
    Text,
    UiText,
    UiTextBold,
)

__all__ = [
    "clear",
    "clip_invariant",
    "node_area",
    "paint_items",
    "paint_node",
    "paintable",
    "repaint_region",
]

_UNIT = 1024.0


def node_area(node: Node, viewport: Rect) -> Rect | None:
    """The screen rectangle a node may paint, or None when it paints nothing on screen.

    Equal to ``node.damage_bounds()`` cut by the viewport (computed inline, with the
    same integer arithmetic, because every frame asks it of every node). Regions and
    nodes of opacity 0 paint nothing.
    """
    prim = node.primitive
    if node.opacity <= 0 or type(prim) is Region:
        return None
    b = node.bounds
    x, y, w, h = b.x, b.y, b.width, b.height
    if type(prim) is Shadow:
        grow = max(0, prim.blur) + prim.spread
        x, y = x + prim.offset_x - grow, y + prim.offset_y - grow
        w, h = w + 2 * grow, h + 2 * grow
    t = node.transform
    if t.a == 1024 and t.d == 1024 and not (t.b or t.c):
        x0, y0 = x + t.tx, y + t.ty
        x1, y1 = x0 + w, y0 + h
    else:
        a, bb, c, d, tx, ty = t.a, t.b, t.c, t.d, t.tx, t.ty
        xs = (
            (a * x + c * y) // 1024,
            (a * (x + w) + c * y) // 1024,
            (a * x + c * (y + h)) // 1024,
            (a * (x + w) + c * (y + h)) // 1024,
        )
        ys = (
            (bb * x + d * y) // 1024,
            (bb * (x + w) + d * y) // 1024,
            (bb * x + d * (y + h)) // 1024,
            (bb * (x + w) + d * (y + h)) // 1024,
        )
        x0, y0 = min(xs) + tx, min(ys) + ty
        x1, y1 = max(xs) + tx, max(ys) + ty
    for r in (node.clip, node.rounded_clip, viewport):
        if r is not None:
            if r.x > x0:
                x0 = r.x
            if r.y > y0:
                y0 = r.y
            if r.x + r.width < x1:
                x1 = r.x + r.width
            if r.y + r.height < y1:
                y1 = r.y + r.height
    if x1 <= x0 or y1 <= y0:
        return None
    return Rect(x0, y0, x1 - x0, y1 - y0)


def paintable(nodes: Iterable[Node], viewport: Rect) -> list[tuple[Node, Rect]]:
    """``(node, area)`` for every node that paints something inside the viewport, same order."""
    out = []
    for n in nodes:
        a = node_area(n, viewport)
        if a is not None:
            out.append((n, a))
    return out


def clear(canvas: skia.Canvas, background: Color) -> None:
    """Fill the canvas clip with the background colour (replacing, not blending)."""
    r, g, b, a = background
    canvas.clear(skia.Color(r, g, b, a))


def clip_invariant(node: Node) -> bool:
    """Whether drawing the node under an extra whole-pixel rectangle clip changes no pixel inside it.

    True for whole-pixel boxes (translation), same-size image blits (translation),
    asset and symbol blits (translation or positive scale) and glyph-mask text up to
    128 px (translation), each without a rounded clip. Anti-aliased shapes (rounded
    boxes, paths, shadows, backdrops, anything rotated or sheared) are not.
    """
    rc = node.rounded_clip
    if rc is not None and rc.radius > 0:
        return False
    t = node.transform
    prim = node.primitive
    kind = type(prim)
    if t.b or t.c:
        return False
    if t.a == 1024 and t.d == 1024:
        if kind is Box:
            return True
        if kind is UiText or kind is UiTextBold or kind is Text:
            return prim.size <= 128
        if kind is Image:
            b = node.bounds
            return prim.width == b.width and prim.height == b.height
    if kind is AssetImage or kind is Symbol:
        return t.a > 0 and t.d > 0
    return False


def paint_node(ctx: Context, node: Node, area: Rect, region: Rect | None = None) -> None:
    """Draw one node, clipped to its ``area`` (and to ``region`` when given)."""
    canvas = ctx.canvas
    count = canvas.save()
    canvas.clipRect(
        skia.Rect.MakeXYWH(area.x, area.y, area.width, area.height), skia.ClipOp.kIntersect, False
    )
    if region is not None:
        canvas.clipRect(
            skia.Rect.MakeXYWH(region.x, region.y, region.width, region.height),
            skia.ClipOp.kIntersect,
            False,
        )
    rc = node.rounded_clip
    if rc is not None and rc.radius > 0:
        canvas.clipRRect(
            skia.RRect.MakeRectXY(
                skia.Rect.MakeXYWH(rc.x, rc.y, rc.width, rc.height), rc.radius, rc.radius
            ),
            skia.ClipOp.kIntersect,
            ANTI_ALIAS,
        )
    if node.opacity < 255:
        canvas.saveLayerAlpha(
            skia.Rect.MakeXYWH(area.x, area.y, area.width, area.height), node.opacity
        )
    t = node.transform
    if t.a == 1024 and t.d == 1024 and not (t.b or t.c):
        if t.tx or t.ty:
            canvas.translate(t.tx, t.ty)
    else:
        canvas.concat(
            skia.Matrix.MakeAll(
                t.a / _UNIT, t.c / _UNIT, t.tx, t.b / _UNIT, t.d / _UNIT, t.ty, 0, 0, 1
            )
        )
    ctx.area = area
    ctx.transform = t
    DRAWERS[type(node.primitive)](ctx, node.primitive, node.bounds)
    canvas.restoreToCount(count)


def paint_items(target: Target, items: Sequence[tuple[Node, Rect]], background: Color) -> None:
    """A full frame: clear the target to ``background`` and paint ``items`` in order."""
    canvas = target.canvas
    ctx = Context(target)
    clear(canvas, background)
    for node, area in items:
        paint_node(ctx, node, area)


def repaint_region(
    target: Target,
    scratch: Target,
    items: Sequence[tuple[Node, Rect]],
    background: Color,
    region: Rect,
) -> None:
    """Repaint ``region`` of ``target`` so it equals a full frame of ``items`` there.

    ``scratch`` is a target of the same size whose pixels outside ``region`` may be
    anything (they are overwritten freely); see the module doc.
    """
    canvas = scratch.canvas
    canvas.save()
    canvas.clipRect(
        skia.Rect.MakeXYWH(region.x, region.y, region.width, region.height),
        skia.ClipOp.kIntersect,
        False,
    )
    clear(canvas, background)
    canvas.restore()
    ctx = Context(scratch)
    rx0, ry0, rx1, ry1 = region.x, region.y, region.right, region.bottom
    for node, area in items:
        if (
            area.x < rx1
            and rx0 < area.x + area.width
            and area.y < ry1
            and ry0 < area.y + area.height
        ):
            paint_node(ctx, node, area, region if clip_invariant(node) else None)
    target.pixels[ry0:ry1, rx0:rx1] = scratch.pixels[ry0:ry1, rx0:rx1]
