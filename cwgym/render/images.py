"""Inline ``Image`` pixels as skia images, decoded once per distinct content."""

from __future__ import annotations

from collections import OrderedDict

import skia

from cwgym.render.surface import COLOR_TYPE
from cwgym.scene.primitives import Image, primitive_digest

__all__ = ["inline_image"]

_CACHE: OrderedDict[bytes, skia.Image] = OrderedDict()
_CACHE_SIZE = 128


def inline_image(primitive: Image) -> skia.Image | None:
    """The skia image of an ``Image`` primitive's straight RGBA8 pixels; None if it has none.

    Images are kept in a small LRU keyed by the primitive's content digest (the one
    the scene stamps nodes with), so a picture shown frame after frame is decoded once.
    Raises ValueError when ``rgba`` is not ``width * height * 4`` bytes.
    """
    w, h, rgba = primitive.width, primitive.height, primitive.rgba
    if w <= 0 or h <= 0:
        return None
    if len(rgba) != w * h * 4:
        raise ValueError(
            f"image primitive of {w}x{h} pixels needs {w * h * 4} rgba bytes, got {len(rgba)}"
        )
    key = primitive_digest(primitive)
    image = _CACHE.get(key)
    if image is None:
        image = skia.Image.frombytes(
            bytes(rgba),
            skia.ISize(w, h),
            COLOR_TYPE,
            skia.AlphaType.kUnpremul_AlphaType,
            None,
            True,
        )
        _CACHE[key] = image
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return image
