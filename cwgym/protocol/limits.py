"""Caps on what an actor may ask for, in one place (documented in docs/reference/security.md).

Envelope limits live in :mod:`cwgym.protocol.plain`; the caps here bound viewports, which
decide how much a scene or a frame costs to build.
"""

from __future__ import annotations

__all__ = ["MAX_VIEWPORT_PIXELS", "MAX_VIEWPORT_SIDE", "viewport_ok"]

#: The largest viewport ``scene``, ``render`` and pointer actions accept: 4096 x 4096.
MAX_VIEWPORT_PIXELS = 16_777_216
#: The longest side of a viewport, in pixels.
MAX_VIEWPORT_SIDE = 8192


def viewport_ok(width: object, height: object) -> bool:
    """Whether ``width`` x ``height`` is a viewport the world will build: ints (not bools)
    of 1 to :data:`MAX_VIEWPORT_SIDE` whose product is at most :data:`MAX_VIEWPORT_PIXELS`."""
    return (
        type(width) is int
        and type(height) is int
        and 1 <= width <= MAX_VIEWPORT_SIDE
        and 1 <= height <= MAX_VIEWPORT_SIDE
        and width * height <= MAX_VIEWPORT_PIXELS
    )
