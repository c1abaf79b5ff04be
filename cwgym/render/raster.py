"""``render_scene``: a whole frame from a scene, with no state kept between calls."""

from __future__ import annotations

from cwgym.render.painter import paint_items, paintable
from cwgym.render.surface import Target
from cwgym.scene.scene import Scene

__all__ = ["render_scene"]


def render_scene(scene: Scene) -> bytes:
    """Rasterize ``scene`` at its own size: straight RGBA8, row-major, ``width * height * 4`` bytes.

    Every node paints in painter order (``scene.painted()``) with its transform, clip,
    rounded clip and opacity, over the scene's background. The bytes depend only on
    the scene's content (and the skia build), never on the process or the call history.
    """
    target = Target(scene.width, scene.height)
    background = tuple(scene.background)
    paint_items(target, paintable(scene.painted(), scene.viewport), background)
    return target.straight_rgba(background[3] == 255)
