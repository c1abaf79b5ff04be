"""Full-colour application icons, drawn as vector paths on a 48 x 48 design grid.

The look follows Ubuntu's Yaru theme: rounded bodies, soft vertical gradients, the
Ubuntu orange as an accent. Each drawing function paints at the canvas origin in
design units; :mod:`cwgym.render.assets` scales and places it.
"""

from __future__ import annotations

from collections.abc import Callable

import skia

from cwgym.render.paints import fill, stroke
from cwgym.render.shapes import circle, gear, rrect, svg_path

__all__ = ["GRID", "ICONS"]

#: Design grid of an icon, in units per side.
GRID = 48

ORANGE = (233, 84, 32, 255)
WHITE = (255, 255, 255, 255)


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


def _terminal(c: skia.Canvas) -> None:
    c.drawRRect(rrect(4, 6, 40, 36, 6), _gradient(6, 42, (104, 104, 110, 255), (62, 62, 68, 255)))
    c.drawRRect(rrect(7, 12, 34, 27, 3), fill((34, 30, 44, 255)))
    for k in range(3):
        c.drawOval(circle(10 + 4 * k, 9, 1.2), fill((160, 160, 166, 255)))
    c.drawPath(svg_path("M12.5 19 L18.5 24.5 L12.5 30"), stroke((238, 238, 238, 255), 3))
    c.drawPath(svg_path("M22 31 H31"), stroke((238, 238, 238, 255), 3))


_FOLDER_BACK = "M4 12 Q4 8 8 8 H18 L22 12 H40 Q44 12 44 16 V38 Q44 42 40 42 H8 Q4 42 4 38 Z"
_FOLDER_FRONT = "M4 19 Q4 16 7 16 H41 Q44 16 44 19 V38 Q44 42 40 42 H8 Q4 42 4 38 Z"


def _folder(c: skia.Canvas) -> None:
    c.drawPath(svg_path(_FOLDER_BACK), fill((206, 112, 44, 255)))
    c.drawPath(svg_path(_FOLDER_FRONT), _gradient(16, 42, (250, 174, 84, 255), (236, 138, 50, 255)))
    c.drawPath(svg_path("M6 18.5 H42"), stroke((255, 204, 140, 255), 1))


def _files(c: skia.Canvas) -> None:
    c.drawPath(svg_path(_FOLDER_BACK), fill((206, 112, 44, 255)))
    c.drawRRect(rrect(9, 11, 30, 14, 1.5), fill((246, 246, 246, 255)))
    c.drawPath(svg_path("M12 15 H30 M12 19 H26"), stroke((190, 190, 190, 255), 1.2))
    c.drawPath(svg_path(_FOLDER_FRONT), _gradient(16, 42, (250, 174, 84, 255), (236, 138, 50, 255)))
    c.drawRRect(rrect(18, 27, 12, 4, 2), fill((176, 92, 30, 255)))


_PAGE = "M10 4 H29 L38 13 V42 Q38 44 36 44 H12 Q10 44 10 42 Z"


def _page(c: skia.Canvas) -> None:
    c.drawPath(svg_path(_PAGE), _gradient(4, 44, (255, 255, 255, 255), (232, 232, 232, 255)))
    c.drawPath(svg_path(_PAGE), stroke((170, 170, 170, 255), 1))
    c.drawPath(svg_path("M29 4 V11 Q29 13 31 13 H38 Z"), fill((205, 205, 205, 255)))


def _file(c: skia.Canvas) -> None:
    _page(c)


def _editor(c: skia.Canvas) -> None:
    _page(c)
    c.drawPath(
        svg_path("M15 18 H33 M15 23 H33 M15 28 H28 M15 33 H24"), stroke((150, 150, 156, 255), 2)
    )
    c.save()
    c.rotate(-45, 33, 33)
    c.drawRRect(rrect(20, 30, 20, 6, 1), fill(ORANGE))
    c.drawRect(skia.Rect.MakeXYWH(36, 30, 4, 6), fill((190, 190, 196, 255)))
    c.drawPath(svg_path("M20 30 L14 33 L20 36 Z"), fill((240, 210, 170, 255)))
    c.drawPath(svg_path("M16 32 L14 33 L16 34 Z"), fill((60, 60, 60, 255)))
    c.restore()


def _browser(c: skia.Canvas) -> None:
    c.drawOval(circle(24, 24, 20), _gradient(4, 44, (94, 178, 246, 255), (26, 98, 204, 255)))
    line = stroke((255, 255, 255, 210), 1.8)
    c.drawOval(circle(24, 24, 20), stroke((20, 80, 170, 255), 1))
    c.drawOval(skia.Rect.MakeLTRB(15, 4.5, 33, 43.5), line)
    c.drawPath(svg_path("M24 4.5 V43.5 M4.5 24 H43.5"), line)
    c.drawPath(svg_path("M8 13 Q24 19 40 13 M8 35 Q24 29 40 35"), line)
    c.drawOval(skia.Rect.MakeLTRB(11, 8, 23, 16), fill((255, 255, 255, 60)))


def _calculator(c: skia.Canvas) -> None:
    c.drawRRect(rrect(8, 4, 32, 40, 5), _gradient(4, 44, (96, 96, 102, 255), (56, 56, 62, 255)))
    c.drawRRect(rrect(12, 8, 24, 9, 2), fill((202, 222, 196, 255)))
    c.drawPath(svg_path("M27 14.5 H33"), stroke((60, 70, 60, 255), 1.6))
    for row in range(4):
        for col in range(4):
            colour = ORANGE if col == 3 else (212, 212, 216, 255)
            c.drawRRect(rrect(12 + col * 6.33, 21 + row * 5.5, 5, 4, 1), fill(colour))


def _calendar(c: skia.Canvas) -> None:
    body = rrect(6, 7, 36, 35, 5)
    c.drawRRect(body, fill((250, 250, 250, 255)))
    c.save()
    c.clipRRect(body, skia.ClipOp.kIntersect, True)
    c.drawRect(skia.Rect.MakeXYWH(6, 7, 36, 10), fill((224, 52, 52, 255)))
    c.restore()
    c.drawRRect(body, stroke((180, 180, 180, 255), 1))
    for x in (15, 30):
        c.drawRRect(rrect(x, 3, 3, 8, 1.5), fill((70, 70, 76, 255)))
    for row in range(3):
        for col in range(5):
            colour = (224, 52, 52, 255) if (row, col) == (1, 2) else (170, 170, 176, 255)
            c.drawRect(skia.Rect.MakeXYWH(10 + col * 6, 21 + row * 6.5, 4, 4), fill(colour))


def _notes(c: skia.Canvas) -> None:
    c.drawPath(
        svg_path("M8 6 H40 V33 L31 42 H8 Z"),
        _gradient(6, 42, (255, 228, 110, 255), (246, 200, 60, 255)),
    )
    c.drawPath(svg_path("M40 33 H34 Q31 33 31 36 V42 Z"), fill((214, 168, 40, 255)))
    c.drawRect(skia.Rect.MakeXYWH(8, 6, 32, 5), fill((236, 184, 40, 255)))
    c.drawPath(svg_path("M13 18 H35 M13 24 H35 M13 30 H28"), stroke((166, 130, 40, 255), 1.6))


def _photos(c: skia.Canvas) -> None:
    frame = rrect(5, 8, 38, 32, 5)
    c.save()
    c.clipRRect(frame, skia.ClipOp.kIntersect, True)
    c.drawRRect(frame, _gradient(8, 40, (116, 186, 240, 255), (190, 226, 250, 255)))
    c.drawOval(circle(33, 17, 4), fill((255, 208, 64, 255)))
    c.drawPath(svg_path("M2 42 L17 22 L25 32 L30 27 L46 42 Z"), fill((64, 150, 84, 255)))
    c.drawPath(svg_path("M22 42 L30 30 L40 42 Z"), fill((46, 120, 66, 255)))
    c.restore()
    c.drawRRect(frame, stroke((250, 250, 250, 255), 2.5))
    c.drawRRect(rrect(3.75, 6.75, 40.5, 34.5, 6), stroke((150, 150, 150, 255), 1))


def _settings(c: skia.Canvas) -> None:
    c.drawPath(
        svg_path(gear(24, 24, 20, 15, 10, 6.5), True),
        _gradient(4, 44, (158, 158, 164, 255), (96, 96, 104, 255)),
    )
    c.drawOval(circle(24, 24, 10), stroke((80, 80, 88, 255), 2))


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
    "terminal": ("Terminal: a dark window with a >_ prompt", _terminal),
    "files": ("Files (the file manager): an orange folder holding a sheet", _files),
    "editor": ("Text Editor: a page of lines with an orange pencil", _editor),
    "browser": ("Web browser: a blue globe", _browser),
    "calculator": ("Calculator: a keypad with a display and orange keys", _calculator),
    "calendar": ("Calendar: a page with a red header and a day grid", _calendar),
    "notes": ("Notes: a yellow sticky note", _notes),
    "photos": ("Photos: a framed landscape with a sun", _photos),
    "settings": ("Settings: a grey gear", _settings),
    "trash": ("Trash: a grey waste bin", _trash),
    "folder": ("a folder (full colour, for file views and the desktop)", _folder),
    "file": ("a file: a white page with a folded corner", _file),
    "avatar": ("a user picture: a person in a grey disc", _avatar),
}
