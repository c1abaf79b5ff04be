"""Pinned paint settings: every skia.Paint the renderer uses is made here.

Colours are straight (unpremultiplied) RGBA tuples of four ints in ``0..=255``, as in
the scene. Anti-aliasing is always on, strokes have round caps and joins, and image
sampling is bilinear without mipmaps, so no paint setting is left to a skia default
that could change between builds.
"""

from __future__ import annotations

import functools

import skia

from cwgym.scene.primitives import Color

__all__ = [
    "ANTI_ALIAS",
    "SAMPLING",
    "fill",
    "stroke",
    "with_alpha",
]

#: Anti-aliasing of every fill, stroke and rounded clip.
ANTI_ALIAS = True

#: Image sampling when an image is scaled or transformed: bilinear, no mipmaps.
SAMPLING = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kNone)


def _check(color: Color) -> tuple[int, int, int, int]:
    if len(color) != 4 or not all(type(c) is int and 0 <= c <= 255 for c in color):
        raise ValueError(f"a colour is four ints 0..255 (r, g, b, a), got {color!r}")
    return color[0], color[1], color[2], color[3]


@functools.lru_cache(maxsize=1024)
def _fill(color: tuple[int, int, int, int]) -> skia.Paint:
    r, g, b, a = color
    paint = skia.Paint()
    paint.setColor(skia.Color(r, g, b, a))
    paint.setAntiAlias(ANTI_ALIAS)
    paint.setStyle(skia.Paint.kFill_Style)
    return paint


def fill(color: Color) -> skia.Paint:
    """A fill paint of ``color``. The paint is shared: do not modify it."""
    return _fill(_check(color))


@functools.lru_cache(maxsize=1024)
def _stroke(color: tuple[int, int, int, int], width: float) -> skia.Paint:
    r, g, b, a = color
    paint = skia.Paint()
    paint.setColor(skia.Color(r, g, b, a))
    paint.setAntiAlias(ANTI_ALIAS)
    paint.setStyle(skia.Paint.kStroke_Style)
    paint.setStrokeWidth(width)
    paint.setStrokeCap(skia.Paint.kRound_Cap)
    paint.setStrokeJoin(skia.Paint.kRound_Join)
    paint.setStrokeMiter(4.0)
    return paint


def stroke(color: Color, width: float) -> skia.Paint:
    """A stroke paint (round caps and joins) of ``color`` and ``width`` px. Shared: do not modify."""
    return _stroke(_check(color), float(width))


def with_alpha(color: Color, alpha: int) -> tuple[int, int, int, int]:
    """``color`` with its alpha multiplied by ``alpha`` (0..255), rounded to nearest."""
    r, g, b, a = color
    return r, g, b, (a * alpha + 127) // 255
