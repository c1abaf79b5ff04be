"""Frames as numpy arrays without copying the pixels.

``frame_array`` wraps the bytes a render returned with ``np.frombuffer``: the array
*is* the bytes' memory (read-only, because ``bytes`` are immutable). The RGB form is a
strided view of the same memory (``[..., :3]``): no copy, but not C-contiguous; call
``np.ascontiguousarray`` on it (one copy) where a consumer needs contiguous data.
"""

from __future__ import annotations

import numpy as np

__all__ = ["frame_array"]


def frame_array(rgba: bytes, width: int, height: int, channels: int = 4) -> np.ndarray:
    """A ``(height, width, channels)`` uint8 view of a straight RGBA8 frame.

    Args:
        rgba: ``width * height * 4`` bytes, row-major (a render's ``rgba``).
        width, height: the frame size in pixels.
        channels: 4 for RGBA (a contiguous view), 3 for RGB (a strided view, alpha
            skipped). Neither copies.

    Raises:
        ValueError: the byte count does not match the size, or ``channels`` is not 3 or 4.
    """
    if channels not in (3, 4):
        raise ValueError(f"channels must be 3 (RGB) or 4 (RGBA), got {channels!r}")
    if len(rgba) != width * height * 4:
        raise ValueError(
            f"a {width}x{height} RGBA frame is {width * height * 4} bytes, got {len(rgba)}"
        )
    array = np.frombuffer(rgba, dtype=np.uint8).reshape(height, width, 4)
    return array if channels == 4 else array[:, :, :3]
