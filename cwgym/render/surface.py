"""The pinned raster target: a CPU skia surface over a numpy buffer, read back as straight RGBA.

The surface is ``kRGBA_8888`` with premultiplied alpha (skia draws premultiplied; it
cannot draw into an unpremultiplied surface), no colour space (no colour management)
and default surface properties (no LCD layout: grey-scale text only). Pixels are read
back as straight (unpremultiplied) RGBA8, row-major. When every pixel is opaque the
premultiplied and straight encodings are the same bytes, so that case is a plain copy.
"""

from __future__ import annotations

import numpy as np
import skia

__all__ = [
    "ALPHA_TYPE",
    "COLOR_TYPE",
    "Target",
    "image_info",
]

#: Channel order of every surface and every frame.
COLOR_TYPE = skia.ColorType.kRGBA_8888_ColorType
#: Alpha type of the drawing surface (frames are converted to straight alpha).
ALPHA_TYPE = skia.AlphaType.kPremul_AlphaType


def image_info(width: int, height: int, alpha_type: skia.AlphaType = ALPHA_TYPE) -> skia.ImageInfo:
    """The pinned ImageInfo: RGBA8, the given alpha type, no colour space."""
    return skia.ImageInfo.Make(width, height, COLOR_TYPE, alpha_type)


class Target:
    """A ``width`` x ``height`` raster surface drawing into ``pixels`` (premultiplied RGBA8).

    Attributes:
        width, height: size in pixels.
        pixels: the ``(height, width, 4)`` uint8 buffer skia draws into.
        surface: the skia surface over ``pixels``.
        canvas: its canvas.
    """

    __slots__ = ("canvas", "height", "pixels", "surface", "width")

    def __init__(self, width: int, height: int) -> None:
        if type(width) is not int or type(height) is not int or width < 1 or height < 1:
            raise ValueError(f"a render target needs a positive int size, got {width!r}x{height!r}")
        self.width = width
        self.height = height
        self.pixels = np.zeros((height, width, 4), dtype=np.uint8)
        self.surface = skia.Surface.MakeRasterDirect(
            image_info(width, height), self.pixels, width * 4
        )
        self.canvas = self.surface.getCanvas()

    def straight_rgba(self, opaque: bool) -> bytes:
        """The frame as straight RGBA8 bytes, row-major, ``width * height * 4`` long.

        ``opaque`` promises that every pixel has alpha 255 (the scene background is
        opaque and everything is drawn source-over on it); then the buffer is copied
        as is. Otherwise skia converts premultiplied to straight alpha.
        """
        if opaque:
            return self.pixels.tobytes()
        out = np.empty((self.height, self.width, 4), dtype=np.uint8)
        info = image_info(self.width, self.height, skia.AlphaType.kUnpremul_AlphaType)
        pixmap = skia.Pixmap(info, out, self.width * 4)
        if not self.surface.readPixels(pixmap, 0, 0):
            raise RuntimeError("skia could not read the frame back")
        return out.tobytes()
