"""Vector shapes for the asset drawings: an SVG path-data subset and small helpers.

``svg_path`` turns SVG path data (``M L H V C Q A Z``, absolute upper case, relative
lower case) into a ``skia.Path``; results are cached per string. Numbers are parsed
with Python's ``float`` (exact decimal-to-binary), so a path is the same in every
process.
"""

from __future__ import annotations

import functools
import math
import re

import skia

__all__ = ["circle", "gear", "rrect", "svg_path"]

_TOKEN = re.compile(r"[MmLlHhVvCcQqAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "A": 7, "Z": 0}


@functools.lru_cache(maxsize=1024)
def svg_path(data: str, even_odd: bool = False) -> skia.Path:
    """The skia path of SVG path ``data``; ``even_odd`` picks the even-odd fill rule.

    The returned path is shared: copy it (``skia.Path(p)``) before changing it.
    """
    tokens = _TOKEN.findall(data)
    path = skia.Path()
    x = y = 0.0
    start_x = start_y = 0.0
    i = 0
    cmd = ""
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                path.close()
                x, y = start_x, start_y
                continue
        elif not cmd:
            raise ValueError(f"path data must start with a command: {data!r}")
        upper = cmd.upper()
        n = _ARITY[upper]
        args = [float(t) for t in tokens[i : i + n]]
        if len(args) != n:
            raise ValueError(f"path command {cmd!r} needs {n} numbers in {data!r}")
        i += n
        rel = cmd.islower()
        if upper == "M":
            x, y = (x + args[0], y + args[1]) if rel else (args[0], args[1])
            path.moveTo(x, y)
            start_x, start_y = x, y
            cmd = "l" if rel else "L"  # further pairs are line-tos
        elif upper == "L":
            x, y = (x + args[0], y + args[1]) if rel else (args[0], args[1])
            path.lineTo(x, y)
        elif upper == "H":
            x = x + args[0] if rel else args[0]
            path.lineTo(x, y)
        elif upper == "V":
            y = y + args[0] if rel else args[0]
            path.lineTo(x, y)
        elif upper == "C":
            if rel:
                args = [a + (x if k % 2 == 0 else y) for k, a in enumerate(args)]
            path.cubicTo(*args)
            x, y = args[4], args[5]
        elif upper == "Q":
            if rel:
                args = [a + (x if k % 2 == 0 else y) for k, a in enumerate(args)]
            path.quadTo(*args)
            x, y = args[2], args[3]
        else:  # A: rx ry rotation large-arc sweep x y
            rx, ry, rot, large, sweep, ex, ey = args
            if rel:
                ex, ey = x + ex, y + ey
            path.arcTo(
                rx,
                ry,
                rot,
                skia.Path.ArcSize.kLarge_ArcSize if large else skia.Path.ArcSize.kSmall_ArcSize,
                skia.PathDirection.kCW if sweep else skia.PathDirection.kCCW,
                ex,
                ey,
            )
            x, y = ex, ey
    if even_odd:
        path.setFillType(skia.PathFillType.kEvenOdd)
    return path


def rrect(x: float, y: float, w: float, h: float, r: float) -> skia.RRect:
    """A rounded rectangle with corner radius ``r`` (clamped by skia to fit)."""
    return skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), r, r)


def circle(cx: float, cy: float, r: float) -> skia.Rect:
    """The bounding oval rectangle of a circle."""
    return skia.Rect.MakeLTRB(cx - r, cy - r, cx + r, cy + r)


def gear(cx: float, cy: float, outer: float, inner: float, teeth: int, hole: float) -> str:
    """SVG path data of a gear with ``teeth`` flat teeth and a round hole (even-odd)."""
    pts: list[str] = []
    step = 2 * math.pi / teeth
    for k in range(teeth):
        a = k * step
        for da, r in ((-0.30, inner), (-0.17, outer), (0.17, outer), (0.30, inner)):
            pts.append(
                f"{cx + r * math.cos(a + da * step * 1.6):.3f} {cy + r * math.sin(a + da * step * 1.6):.3f}"
            )
    body = "M" + " L".join(pts) + " Z"
    ring = f" M{cx + hole:.3f} {cy:.3f} A{hole} {hole} 0 1 0 {cx - hole:.3f} {cy:.3f} A{hole} {hole} 0 1 0 {cx + hole:.3f} {cy:.3f} Z"
    return body + ring
