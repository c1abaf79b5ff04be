"""One drawing function per primitive, in a node's local coordinates.

Each function draws a primitive into its ``bounds`` on a canvas whose matrix already
maps the node's local space to the screen and whose clip is already the node's visible
area. :data:`DRAWERS` maps each primitive type to its function; ``Region`` draws
nothing and has none.

Pinned choices (see ``docs/rendering.md``): ``Box``/``RoundedBox`` strokes are inner
strokes (the ring between the bounds and the bounds inset by ``stroke_width``);
``Path`` fills with the non-zero rule and strokes with round caps and joins;
``Image`` pixels are scaled to the bounds with bilinear sampling (a same-size image at
a whole-pixel translation is copied exactly); asset icons and symbols are rasterized (and
cached) at the whole-pixel screen box their bounds map to and blitted there when the
transform is a translation or a scale (``b == c == 0``, ``a, d > 0``), and drawn as
vectors through the transform otherwise (rotations, flips, shears).
"""

from __future__ import annotations

from collections.abc import Callable

import skia

from cwgym.render.assets import asset_image, draw_asset
from cwgym.render.effects import draw_backdrop, draw_shadow
from cwgym.render.images import inline_image
from cwgym.render.paints import SAMPLING, fill, stroke
from cwgym.render.paths import build_path
from cwgym.render.surface import Target
from cwgym.render.text import draw_text_primitive
from cwgym.scene.geometry import Rect, Transform
from cwgym.scene.primitives import (
    AssetImage,
    Backdrop,
    Box,
    Image,
    Path,
    RoundedBox,
    Shadow,
    Symbol,
    Text,
    UiText,
    UiTextBold,
)

__all__ = ["DRAWERS", "Context"]


class Context:
    """What a drawing function may need beyond the canvas: the pixels, the node's area and transform."""

    __slots__ = ("area", "canvas", "pixels", "transform")

    def __init__(self, target: Target) -> None:
        self.pixels = target.pixels
        self.canvas = target.canvas
        self.area = Rect(0, 0, 0, 0)
        self.transform = Transform()


def _rect(b: Rect) -> skia.Rect:
    return skia.Rect.MakeXYWH(b.x, b.y, b.width, b.height)


def _ring(canvas: skia.Canvas, outer: skia.RRect, width: int, radius: int, color) -> None:
    """Fill the ring between ``outer`` and ``outer`` inset by ``width`` (an inner stroke)."""
    r = outer.rect()
    inner_rect = skia.Rect.MakeLTRB(
        r.left() + width, r.top() + width, r.right() - width, r.bottom() - width
    )
    if inner_rect.isEmpty():
        canvas.drawRRect(outer, fill(color))
        return
    ir = max(0, radius - width)
    inner = skia.RRect.MakeRectXY(inner_rect, ir, ir) if ir else skia.RRect.MakeRect(inner_rect)
    canvas.drawDRRect(outer, inner, fill(color))


def _box(ctx: Context, prim: Box, bounds: Rect) -> None:
    canvas = ctx.canvas
    if prim.color[3]:
        canvas.drawRect(_rect(bounds), fill(tuple(prim.color)))
    if prim.stroke is not None and prim.stroke_width > 0 and prim.stroke[3]:
        _ring(canvas, skia.RRect.MakeRect(_rect(bounds)), prim.stroke_width, 0, tuple(prim.stroke))


def _rounded_box(ctx: Context, prim: RoundedBox, bounds: Rect) -> None:
    canvas = ctx.canvas
    r = max(0, prim.radius)
    outer = skia.RRect.MakeRectXY(_rect(bounds), r, r) if r else skia.RRect.MakeRect(_rect(bounds))
    if prim.color[3]:
        canvas.drawRRect(outer, fill(tuple(prim.color)))
    if prim.stroke is not None and prim.stroke_width > 0 and prim.stroke[3]:
        _ring(canvas, outer, prim.stroke_width, r, tuple(prim.stroke))


def _text(ctx: Context, prim: UiText | UiTextBold | Text, bounds: Rect) -> None:
    draw_text_primitive(ctx.canvas, prim, bounds)


def _named(ctx: Context, name: str, box: Rect, color) -> None:
    if box.width <= 0 or box.height <= 0:
        return
    t = ctx.transform
    canvas = ctx.canvas
    if t.b == 0 and t.c == 0 and t.a > 0 and t.d > 0:
        # a translation or a scale: blit the asset rasterized at its whole-pixel screen box
        x0, y0 = t.apply(box.x, box.y)
        x1, y1 = t.apply(box.x + box.width, box.y + box.height)
        if x1 > x0 and y1 > y0:
            canvas.save()
            canvas.resetMatrix()
            canvas.drawImage(asset_image(name, x1 - x0, y1 - y0, color), x0, y0)
            canvas.restore()
    else:
        canvas.save()
        canvas.translate(box.x, box.y)
        draw_asset(canvas, name, box.width, box.height, color)
        canvas.restore()


def _asset(ctx: Context, prim: AssetImage, bounds: Rect) -> None:
    _named(ctx, prim.name, bounds, None if prim.tint is None else tuple(prim.tint))


def _symbol(ctx: Context, prim: Symbol, bounds: Rect) -> None:
    if prim.color[3] == 0:
        return
    box = bounds
    if prim.size > 0:
        box = Rect(
            bounds.x + (bounds.width - prim.size) // 2,
            bounds.y + (bounds.height - prim.size) // 2,
            prim.size,
            prim.size,
        )
    _named(ctx, prim.name, box, tuple(prim.color))


def _shadow(ctx: Context, prim: Shadow, bounds: Rect) -> None:
    draw_shadow(ctx.canvas, prim, bounds)


def _image(ctx: Context, prim: Image, bounds: Rect) -> None:
    image = inline_image(prim)
    if image is None or bounds.width <= 0 or bounds.height <= 0:
        return
    t = ctx.transform
    if (
        prim.width == bounds.width
        and prim.height == bounds.height
        and t.a == 1024
        and t.d == 1024
        and not (t.b or t.c)
    ):
        ctx.canvas.drawImage(image, bounds.x, bounds.y)
    else:
        ctx.canvas.drawImageRect(
            image,
            skia.Rect.MakeWH(prim.width, prim.height),
            _rect(bounds),
            SAMPLING,
            None,
            skia.Canvas.SrcRectConstraint.kStrict_SrcRectConstraint,
        )


def _path(ctx: Context, prim: Path, bounds: Rect) -> None:
    path = build_path(tuple(tuple(c) for c in prim.commands))
    canvas = ctx.canvas
    canvas.save()
    canvas.translate(bounds.x, bounds.y)
    if prim.fill is not None and prim.fill[3]:
        canvas.drawPath(path, fill(tuple(prim.fill)))
    if prim.stroke is not None and prim.stroke[3] and prim.stroke_width > 0:
        canvas.drawPath(path, stroke(tuple(prim.stroke), prim.stroke_width))
    canvas.restore()


def _backdrop(ctx: Context, prim: Backdrop, bounds: Rect) -> None:
    draw_backdrop(ctx.canvas, ctx.pixels, prim, bounds, ctx.area)


#: primitive type -> drawing function ``(context, primitive, bounds)``.
DRAWERS: dict[type, Callable[[Context, object, Rect], None]] = {
    Box: _box,
    RoundedBox: _rounded_box,
    UiText: _text,
    UiTextBold: _text,
    Text: _text,
    AssetImage: _asset,
    Shadow: _shadow,
    Image: _image,
    Path: _path,
    Symbol: _symbol,
    Backdrop: _backdrop,
}
