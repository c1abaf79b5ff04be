"""Shadows and backdrops: the two primitives whose pixels are more than a fill.

* ``Shadow``: the rounded rectangle of the bounds, moved by the offset, grown by
  ``spread`` (its radius too), filled with the colour and blurred with a Gaussian of
  sigma ``blur / 3`` (skia's CPU blur mask filter, whose kernel reaches ``3 * sigma``),
  so the shadow fades out within the ``blur`` pixels the scene's damage allows for it.
  Like a CSS ``box-shadow`` it is cut out under its caster: nothing is painted inside
  the rounded rectangle of the bounds themselves (anti-aliased edge), so a translucent
  window is not darkened by its own shadow and the hidden middle costs nothing.
* ``Backdrop``: frosted glass. With ``blur > 0`` the pixels already drawn beneath the
  node's visible area (its *area*) are blurred and drawn back inside its rounded
  bounds; then the bounds are filled with the (translucent) colour. With ``blur == 0``
  it is just the translucent rounded panel. The blur reads nothing outside the area
  (edges are clamped) and runs at a reduced resolution: the area is scaled down by
  ``f = max(1, blur // 3)`` (bilinear), blurred there with a Gaussian of sigma
  ``blur / (3 * f)`` and scaled back up (bilinear), which looks like a Gaussian of
  sigma about ``blur / 3`` at a fraction of the cost.
"""

from __future__ import annotations

import numpy as np
import skia

from cwgym.render.paints import ANTI_ALIAS, SAMPLING, fill
from cwgym.render.surface import ALPHA_TYPE, COLOR_TYPE, image_info
from cwgym.scene.geometry import Rect
from cwgym.scene.primitives import Backdrop, Shadow

__all__ = ["blur_sigma", "blurred", "draw_backdrop", "draw_shadow", "rounded"]


def blur_sigma(blur: int) -> float:
    """The Gaussian sigma of a ``blur`` radius in pixels."""
    return blur / 3.0


def rounded(bounds: Rect, radius: int, grow: int = 0, dx: int = 0, dy: int = 0) -> skia.RRect:
    """The rounded rectangle of ``bounds`` moved by ``(dx, dy)`` and grown by ``grow``."""
    rect = skia.Rect.MakeXYWH(
        bounds.x + dx - grow,
        bounds.y + dy - grow,
        bounds.width + 2 * grow,
        bounds.height + 2 * grow,
    )
    r = max(0, radius + grow) if radius > 0 else 0
    if r == 0:
        return skia.RRect.MakeRect(rect)
    return skia.RRect.MakeRectXY(rect, r, r)


def draw_shadow(canvas: skia.Canvas, shadow: Shadow, bounds: Rect) -> None:
    """Draw a ``Shadow`` for ``bounds`` (local coordinates)."""
    if shadow.color[3] == 0:
        return
    shape = rounded(bounds, shadow.radius, shadow.spread, shadow.offset_x, shadow.offset_y)
    if shape.rect().isEmpty():
        return
    r, g, b, a = shadow.color
    paint = skia.Paint()
    paint.setAntiAlias(ANTI_ALIAS)
    paint.setColor(skia.Color(r, g, b, a))
    if shadow.blur > 0:
        paint.setMaskFilter(
            skia.MaskFilter.MakeBlur(skia.kNormal_BlurStyle, blur_sigma(shadow.blur), True)
        )
    canvas.save()
    if bounds.width > 0 and bounds.height > 0:
        canvas.clipRRect(rounded(bounds, shadow.radius), skia.ClipOp.kDifference, ANTI_ALIAS)
    canvas.drawRRect(shape, paint)
    canvas.restore()


def blurred(region: np.ndarray, blur: int) -> skia.Image:
    """A blurred copy of a premultiplied ``(h, w, 4)`` pixel region, same size (see module doc)."""
    h, w = region.shape[0], region.shape[1]
    source = skia.Image.fromarray(np.ascontiguousarray(region), COLOR_TYPE, ALPHA_TYPE)
    f = max(1, blur // 3)
    sw, sh = -(-w // f), -(-h // f)
    small = skia.Surface.MakeRaster(image_info(sw, sh))
    canvas = small.getCanvas()
    canvas.clear(skia.Color4f(0, 0, 0, 0))
    canvas.drawImageRect(source, skia.Rect.MakeWH(sw, sh), SAMPLING)
    shrunk = small.makeImageSnapshot()
    sigma = blur_sigma(blur) / f
    paint = skia.Paint()
    paint.setImageFilter(skia.ImageFilters.Blur(sigma, sigma, skia.TileMode.kClamp))
    canvas.clear(skia.Color4f(0, 0, 0, 0))
    canvas.drawImage(shrunk, 0, 0, SAMPLING, paint)
    if f == 1:
        return small.makeImageSnapshot()
    out = skia.Surface.MakeRaster(image_info(w, h))
    out.getCanvas().drawImageRect(small.makeImageSnapshot(), skia.Rect.MakeWH(w, h), SAMPLING)
    return out.makeImageSnapshot()


def draw_backdrop(
    canvas: skia.Canvas, pixels: np.ndarray, backdrop: Backdrop, bounds: Rect, area: Rect
) -> None:
    """Draw a ``Backdrop`` for ``bounds`` (local coordinates) whose screen area is ``area``.

    ``pixels`` is the premultiplied frame drawn so far (the canvas's own memory); only
    its pixels inside ``area`` are read.
    """
    shape = rounded(bounds, backdrop.radius)
    if backdrop.blur > 0 and area.width > 0 and area.height > 0:
        below = blurred(pixels[area.y : area.bottom, area.x : area.right], backdrop.blur)
        canvas.save()
        canvas.clipRRect(shape, skia.ClipOp.kIntersect, ANTI_ALIAS)
        canvas.resetMatrix()
        canvas.drawImage(below, area.x, area.y)
        canvas.restore()
    if backdrop.color[3]:
        canvas.drawRRect(shape, fill(tuple(backdrop.color)))
