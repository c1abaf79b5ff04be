"""Full-colour file and place icons (folder, file, trash, avatar) on a 48 x 48 design grid.

The look follows Ubuntu's Yaru theme: rounded bodies, soft vertical gradients. Each
drawing function paints at the canvas origin in design units; :mod:`cwgym.render.assets`
scales and places it. Application icons are not here: they are the desktop theme's
(:meth:`cwgym.desktop.themes.base.Theme.icon`, by default :mod:`cwgym.desktop.icons`),
painted as scene primitives.
"""

from __future__ import annotations

from collections.abc import Callable

import skia

from cwgym.render.paints import fill, stroke
from cwgym.render.shapes import circle, rrect, svg_path

__all__ = ["GRID", "ICONS"]

#: Design grid of an icon, in units per side.
GRID = 48


def _gradient(y0: float, y1: float, top: tuple, bottom: tuple) -> skia.Paint:
    """A fill paint with a vertical linear gradient from ``top`` (at y0) to ``bottom`` (at y1)."""
    paint = skia.Paint()
    paint.setAntiAlias(True)
    paint.setShader(
        skia.GradientShader.MakeLinear(
            [skia.Point(0, y0), skia.Point(0, y1)],
            [skia.Color(*top), skia.Color(*bottom)],
        )
    )
    return paint


_FOLDER_BACK = "M4 12 Q4 8 8 8 H18 L22 12 H40 Q44 12 44 16 V38 Q44 42 40 42 H8 Q4 42 4 38 Z"
_FOLDER_FRONT = "M4 19 Q4 16 7 16 H41 Q44 16 44 19 V38 Q44 42 40 42 H8 Q4 42 4 38 Z"


def _folder(c: skia.Canvas) -> None:
    c.drawPath(svg_path(_FOLDER_BACK), fill((206, 112, 44, 255)))
    c.drawPath(svg_path(_FOLDER_FRONT), _gradient(16, 42, (250, 174, 84, 255), (236, 138, 50, 255)))
    c.drawPath(svg_path("M6 18.5 H42"), stroke((255, 204, 140, 255), 1))


_PAGE = "M10 4 H29 L38 13 V42 Q38 44 36 44 H12 Q10 44 10 42 Z"


def _page(c: skia.Canvas) -> None:
    c.drawPath(svg_path(_PAGE), _gradient(4, 44, (255, 255, 255, 255), (232, 232, 232, 255)))
    c.drawPath(svg_path(_PAGE), stroke((170, 170, 170, 255), 1))
    c.drawPath(svg_path("M29 4 V11 Q29 13 31 13 H38 Z"), fill((205, 205, 205, 255)))


def _file(c: skia.Canvas) -> None:
    _page(c)


def _trash(c: skia.Canvas) -> None:
    c.drawRRect(rrect(18, 4.5, 12, 6, 2.5), stroke((96, 96, 104, 255), 2))
    c.drawRRect(rrect(8, 9, 32, 6, 2), fill((112, 112, 120, 255)))
    c.drawPath(
        svg_path("M11 16 H37 L35 42 Q34.8 44 33 44 H15 Q13.2 44 13 42 Z"),
        _gradient(16, 44, (204, 204, 210, 255), (152, 152, 160, 255)),
    )
    c.drawPath(
        svg_path("M18 20 L18.5 40 M24 20 V40 M30 20 L29.5 40"), stroke((118, 118, 126, 255), 2)
    )


def _avatar(c: skia.Canvas) -> None:
    c.drawOval(circle(24, 24, 20), _gradient(4, 44, (200, 200, 206, 255), (150, 150, 158, 255)))
    c.save()
    c.clipRRect(skia.RRect.MakeOval(circle(24, 24, 20)), skia.ClipOp.kIntersect, True)
    c.drawOval(circle(24, 19, 8), fill((250, 250, 250, 255)))
    c.drawOval(skia.Rect.MakeLTRB(9, 30, 39, 58), fill((250, 250, 250, 255)))
    c.restore()


#: name -> (description, drawing function on the 48 x 48 grid)
ICONS: dict[str, tuple[str, Callable[[skia.Canvas], None]]] = {
    "trash": ("Trash: a grey waste bin", _trash),
    "folder": ("a folder (full colour, for file views and the desktop)", _folder),
    "file": ("a file: a white page with a folded corner", _file),
    "avatar": ("a user picture: a person in a grey disc", _avatar),
}
