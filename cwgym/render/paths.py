"""``Path`` primitive commands as skia paths."""

from __future__ import annotations

import functools

import skia

__all__ = ["build_path"]

_ARITY = {"M": 2, "L": 2, "Q": 4, "C": 6, "Z": 0}


@functools.lru_cache(maxsize=512)
def build_path(commands: tuple[tuple[str | int, ...], ...]) -> skia.Path:
    """The skia path of a ``Path`` primitive's commands (points relative to the bounds' corner).

    Commands: ``("M", x, y)``, ``("L", x, y)``, ``("Q", cx, cy, x, y)``,
    ``("C", c1x, c1y, c2x, c2y, x, y)``, ``("Z",)``. Non-zero fill rule. Raises
    ValueError naming the first malformed command. The result is shared: do not modify.
    """
    path = skia.Path()
    for index, cmd in enumerate(commands):
        op = cmd[0] if cmd else None
        if op not in _ARITY or len(cmd) != _ARITY[op] + 1:
            raise ValueError(f"path command {index} is malformed: {cmd!r}")
        args = [float(v) for v in cmd[1:]]
        if op == "M":
            path.moveTo(*args)
        elif op == "L":
            path.lineTo(*args)
        elif op == "Q":
            path.quadTo(*args)
        elif op == "C":
            path.cubicTo(*args)
        else:
            path.close()
    return path
