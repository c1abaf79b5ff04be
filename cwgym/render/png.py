"""A deterministic PNG encoder for frames (no image library, no host files).

Every choice that changes the bytes is pinned: 8-bit RGBA (colour type 6), no
interlacing, filter type 1 (Sub) on every row, one IDAT chunk compressed by zlib at
level :data:`LEVEL` with the default window and strategy, and no ancillary chunks (no
time, gamma or text). The same pixels give the same file for a given zlib build.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["LEVEL", "to_png"]

#: zlib compression level of the image data.
LEVEL = 6

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def to_png(rgba: bytes, width: int, height: int) -> bytes:
    """The PNG file of a straight RGBA8 frame of ``width`` x ``height`` pixels."""
    if width < 1 or height < 1 or len(rgba) != width * height * 4:
        raise ValueError(
            f"a {width}x{height} RGBA frame is {max(0, width * height * 4)} bytes, got {len(rgba)}"
        )
    rows = np.frombuffer(rgba, dtype=np.uint8).reshape(height, width * 4)
    filtered = np.empty((height, width * 4 + 1), dtype=np.uint8)
    filtered[:, 0] = 1  # Sub: each byte minus the byte one pixel to the left
    filtered[:, 1:5] = rows[:, :4]
    np.subtract(rows[:, 4:], rows[:, :-4], out=filtered[:, 5:])
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(filtered.tobytes(), LEVEL))
        + _chunk(b"IEND", b"")
    )
