"""Pixel probes shared by the render tests."""

from __future__ import annotations

from cwgym.render import frame_array, render_scene
from cwgym.scene import Scene


def frame(scene: Scene):
    """The rendered frame of ``scene`` as an (H, W, 4) array."""
    return frame_array(render_scene(scene), scene.width, scene.height)


def px(array, x: int, y: int) -> tuple[int, int, int, int]:
    """The RGBA pixel at ``(x, y)``."""
    return tuple(int(v) for v in array[y, x])


def near(a, b, tol: int = 1) -> bool:
    """Channel-wise equality within ``tol``."""
    return all(abs(int(p) - int(q)) <= tol for p, q in zip(a, b))


def ink_box(array, background) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)`` (exclusive) of the pixels that differ from ``background``."""
    import numpy as np

    mask = (array != np.array(background, dtype=np.uint8)).any(axis=2)
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
