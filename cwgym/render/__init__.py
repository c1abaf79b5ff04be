"""Rasterizing the scene: skia-python draws every node of a ``Scene`` into straight RGBA.

* :func:`render_scene` draws a whole frame from a scene, keeping nothing.
* :class:`Renderer` keeps the last frame of a viewport and redraws only the damaged
  rectangles of the next scene, byte-identical to a full render.
* :func:`frame_array` wraps a frame as a numpy array without copying it;
  :func:`to_png` encodes one as a deterministic PNG.
* :mod:`cwgym.render.assets` is the registry of named icons and symbols
  (:data:`ASSET_NAMES`), all drawn as vector paths.

Determinism: fonts are the bundled files (through :mod:`cwgym.text`), every paint and
font setting is pinned, the surface is an explicit RGBA8 CPU raster, and caches only
save time. See ``docs/rendering.md``.
"""

from cwgym.render.assets import ASSET_NAMES, asset_kind, draw_asset, is_known, unknown_assets
from cwgym.render.frames import frame_array
from cwgym.render.incremental import Renderer
from cwgym.render.png import to_png
from cwgym.render.raster import render_scene
from cwgym.render.text import text_box, text_origin

__all__ = [
    "ASSET_NAMES",
    "Renderer",
    "asset_kind",
    "draw_asset",
    "frame_array",
    "is_known",
    "render_scene",
    "text_box",
    "text_origin",
    "to_png",
    "unknown_assets",
]
