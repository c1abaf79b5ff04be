"""The asset registry: every name an ``AssetImage`` or a ``Symbol`` may use, drawn as vectors.

There are three kinds of asset, one namespace:

* **icons** (:data:`cwgym.render.icons.ICONS`): full-colour file and place icons on a
  48 x 48 grid (``folder``, ``file``, ``trash``, ``avatar``). Application icons are not
  assets: the desktop theme paints them as primitives (:mod:`cwgym.desktop.icons`);
* **symbols** (:data:`cwgym.render.symbols.SYMBOLS`): monochrome glyphs on a 16 x 16
  grid (``close``, ``minimize``, ``search``, ``wifi``...);
* the **wallpaper** (``wallpaper``), which fills its bounds.

How a name is drawn into a ``w`` x ``h`` box (see :func:`draw_asset`):

* icons and symbols keep their square aspect: they are scaled to the largest square
  that fits, centred (whole-pixel offsets); the wallpaper stretches to the box;
* with no colour, an icon draws in its own colours and a symbol in
  :data:`SYMBOL_COLOR`; with a colour (a ``Symbol``'s ``color``, an ``AssetImage``'s
  ``tint``), a symbol draws in that colour and an icon or the wallpaper becomes a
  silhouette of that colour (its alpha is kept, its colour replaced);
* an unknown name draws :func:`draw_placeholder`, a grey box with a cross, and is
  reported by :func:`unknown_assets`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import skia

from cwgym.render.icons import GRID as ICON_GRID
from cwgym.render.icons import ICONS
from cwgym.render.paints import fill, stroke
from cwgym.render.surface import image_info
from cwgym.render.symbols import GRID as SYMBOL_GRID
from cwgym.render.symbols import SYMBOLS, draw_symbol
from cwgym.render.wallpaper import draw_wallpaper
from cwgym.scene.node import Node
from cwgym.scene.primitives import AssetImage, Color, Symbol

__all__ = [
    "ASSET_NAMES",
    "ICON_NAMES",
    "SYMBOL_COLOR",
    "SYMBOL_NAMES",
    "WALLPAPER",
    "asset_image",
    "asset_kind",
    "describe",
    "draw_asset",
    "draw_placeholder",
    "is_known",
    "unknown_assets",
]

#: The name of the wallpaper asset.
WALLPAPER = "wallpaper"
#: Full-colour icon names, sorted.
ICON_NAMES: tuple[str, ...] = tuple(sorted(ICONS))
#: Symbol names, sorted. A name may be both an icon and a symbol (``folder``, ``file``,
#: ``trash``): the icon is used when no colour is given, the symbol when one is.
SYMBOL_NAMES: tuple[str, ...] = tuple(sorted(SYMBOLS))
#: Every known asset name, sorted.
ASSET_NAMES: tuple[str, ...] = tuple(sorted({*ICONS, *SYMBOLS, WALLPAPER}))
#: The colour of a symbol drawn without one (GNOME's foreground grey).
SYMBOL_COLOR: Color = (46, 52, 54, 255)

_PLACEHOLDER_FILL: Color = (204, 204, 204, 255)
_PLACEHOLDER_LINE: Color = (128, 128, 128, 255)


def is_known(name: str) -> bool:
    """Whether ``name`` is a registered asset."""
    return name in ICONS or name in SYMBOLS or name == WALLPAPER


def asset_kind(name: str) -> str:
    """``"icon"``, ``"symbol"`` (symbol only), ``"wallpaper"`` or ``"unknown"``."""
    if name == WALLPAPER:
        return "wallpaper"
    if name in ICONS:
        return "icon"
    if name in SYMBOLS:
        return "symbol"
    return "unknown"


def describe(name: str) -> str:
    """A one-line description of what the asset shows (icon first when both exist)."""
    if name == WALLPAPER:
        return "the desktop wallpaper: an aubergine-to-orange gradient with soft ribbons"
    if name in ICONS:
        return ICONS[name][0]
    if name in SYMBOLS:
        return SYMBOLS[name][0]
    raise KeyError(f"unknown asset {name!r}")


def draw_placeholder(canvas: skia.Canvas, w: float, h: float) -> None:
    """The stand-in for an unknown asset: a grey box with a border and a diagonal cross."""
    canvas.drawRect(skia.Rect.MakeWH(w, h), fill(_PLACEHOLDER_FILL))
    line = stroke(_PLACEHOLDER_LINE, 1)
    canvas.drawRect(skia.Rect.MakeLTRB(0.5, 0.5, w - 0.5, h - 0.5), line)
    canvas.drawLine(0, 0, w, h, line)
    canvas.drawLine(w, 0, 0, h, line)


def _silhouette(canvas: skia.Canvas, w: float, h: float, color: Color, draw) -> None:
    """Run ``draw`` in a layer, then replace its colour with ``color`` (keeping coverage)."""
    canvas.saveLayer(skia.Rect.MakeWH(w, h), None)
    draw()
    paint = skia.Paint()
    paint.setColor(skia.Color(*color))
    paint.setBlendMode(skia.BlendMode.kSrcIn)
    canvas.drawPaint(paint)
    canvas.restore()


def _square(canvas: skia.Canvas, w: int, h: int, grid: int) -> None:
    """Map the ``grid`` x ``grid`` design square onto the largest centred square of the box."""
    side = min(w, h)
    canvas.translate((w - side) // 2, (h - side) // 2)
    canvas.scale(side / grid, side / grid)


def draw_asset(canvas: skia.Canvas, name: str, w: int, h: int, color: Color | None = None) -> None:
    """Draw asset ``name`` into the box ``(0, 0, w, h)`` of the canvas (see the module doc)."""
    if w <= 0 or h <= 0:
        return
    canvas.save()
    try:
        if name == WALLPAPER:
            if color is None:
                draw_wallpaper(canvas, w, h)
            else:
                _silhouette(canvas, w, h, color, lambda: draw_wallpaper(canvas, w, h))
        elif name in SYMBOLS and (color is not None or name not in ICONS):
            colour = SYMBOL_COLOR if color is None else tuple(color)
            _square(canvas, w, h, SYMBOL_GRID)
            if colour[3] == 255:
                draw_symbol(canvas, name, colour)
            elif colour[3] > 0:
                canvas.saveLayerAlpha(skia.Rect.MakeWH(SYMBOL_GRID, SYMBOL_GRID), colour[3])
                draw_symbol(canvas, name, (*colour[:3], 255))
                canvas.restore()
        elif name in ICONS:
            draw = ICONS[name][1]
            _square(canvas, w, h, ICON_GRID)
            if color is None:
                draw(canvas)
            else:
                _silhouette(canvas, ICON_GRID, ICON_GRID, color, lambda: draw(canvas))
        else:
            draw_placeholder(canvas, w, h)
    finally:
        canvas.restore()


@functools.lru_cache(maxsize=256)
def _raster(name: str, w: int, h: int, color: Color | None) -> skia.Image:
    surface = skia.Surface.MakeRaster(image_info(w, h))
    canvas = surface.getCanvas()
    canvas.clear(skia.Color4f(0, 0, 0, 0))
    draw_asset(canvas, name, w, h, color)
    image = surface.makeImageSnapshot()
    pixels = image.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
    if (pixels[:, :, 3] == 255).all():
        # tell skia the image is opaque: it then copies it instead of blending (same bytes)
        image = skia.Image.fromarray(pixels, skia.kRGBA_8888_ColorType, skia.kOpaque_AlphaType)
    return image


def asset_image(name: str, w: int, h: int, color: Color | None = None) -> skia.Image:
    """The asset drawn by :func:`draw_asset` into a transparent ``w`` x ``h`` image (cached).

    The renderer blits this image when a node's transform is a whole-pixel translation
    (an icon drawn many times costs one rasterization); the cache holds immutable
    images only and never changes a result.
    """
    return _raster(name, w, h, None if color is None else tuple(color))


def unknown_assets(nodes: Iterable[Node] | object) -> list[str]:
    """The sorted, distinct asset and symbol names a scene (or node list) uses but no asset has.

    Accepts a :class:`cwgym.scene.Scene` or any iterable of nodes.
    """
    items = getattr(nodes, "nodes", nodes)
    missing = set()
    for node in items:
        prim = node.primitive
        if (type(prim) is AssetImage or type(prim) is Symbol) and not is_known(prim.name):
            missing.add(prim.name)
    return sorted(missing)
