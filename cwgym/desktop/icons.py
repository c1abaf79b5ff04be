"""Application icons drawn as vector shapes, so a renderer needs no icon files.

This is the desktop's one application icon set; a theme chooses it through
:meth:`~cwgym.desktop.themes.base.Theme.icon` (every theme does by default).

An icon is a rounded tile in the application's colour with a white glyph on it, made of
the scene's ``rounded_box`` and ``path`` primitives only. Glyphs are designed on a 48-unit
grid and scaled to the requested size. An id without a glyph gets its tile and the first
letter of its label.
"""

from __future__ import annotations

from collections.abc import Callable

from cwgym.scene import Color, Path, Primitive, Rect, RoundedBox, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["GLYPHS", "TILES", "icon"]

WHITE: Color = (255, 255, 255, 255)
Cmd = tuple[str | int, ...]

#: Tile colour per application id.
TILES: dict[str, Color] = {
    "files": (128, 128, 128, 255),
    "browser": (233, 84, 32, 255),
    "terminal": (48, 48, 48, 255),
    "editor": (62, 130, 200, 255),
    "calendar": (213, 60, 60, 255),
    "mail": (40, 120, 220, 255),
    "messages": (60, 180, 90, 255),
    "docs": (41, 98, 180, 255),
    "notes": (240, 190, 40, 255),
    "contacts": (120, 110, 200, 255),
    "settings": (95, 100, 110, 255),
    "calculator": (70, 70, 80, 255),
    "clock": (30, 30, 40, 255),
    "photos": (230, 120, 40, 255),
    "music": (220, 50, 110, 255),
    "maps": (70, 160, 90, 255),
    "weather": (60, 150, 230, 255),
    "code": (0, 120, 212, 255),
    "freecad": (180, 40, 40, 255),
    "kicad": (50, 70, 160, 255),
    "spreadsheet": (30, 140, 70, 255),
    "excel": (16, 124, 65, 255),
    "database": (70, 90, 120, 255),
}
_IMAGE_EDITORS = ("paint", "preview", "pixelmator", "gimp", "pinta", "sketchbook")
_VIDEO_EDITORS = ("clipchamp", "imovie", "kdenlive", "videoeditor")
for _app in _IMAGE_EDITORS:
    TILES.setdefault(_app, (200, 90, 160, 255))
for _app in _VIDEO_EDITORS:
    TILES.setdefault(_app, (110, 60, 190, 255))
_DEFAULT_TILE: Color = (90, 90, 100, 255)


def _circle(cx: int, cy: int, r: int) -> list[Cmd]:
    k = (r * 552 + 500) // 1000
    return [
        ("M", cx + r, cy),
        ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy),
        ("Z",),
    ]


def _rect(x: int, y: int, w: int, h: int) -> list[Cmd]:
    return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]


def _line(x0: int, y0: int, x1: int, y1: int) -> list[Cmd]:
    return [("M", x0, y0), ("L", x1, y1)]


# Each glyph: list of (commands, filled?) on the 48 grid.
Glyph = list[tuple[list[Cmd], bool]]


def _files() -> Glyph:
    return [([("M", 10, 16), ("L", 20, 16), ("L", 23, 19), ("L", 38, 19), ("L", 38, 34), ("L", 10, 34), ("Z",)], True)]


def _browser() -> Glyph:
    return [
        (_circle(24, 24, 13), False),
        (_line(11, 24, 37, 24), False),
        ([("M", 24, 11), ("C", 17, 17, 17, 31, 24, 37), ("C", 31, 31, 31, 17, 24, 11)], False),
    ]


def _terminal() -> Glyph:
    return [([("M", 12, 16), ("L", 20, 23), ("L", 12, 30)], False), (_line(23, 32, 35, 32), False)]


def _page(lines: int) -> Glyph:
    out: Glyph = [([("M", 14, 10), ("L", 29, 10), ("L", 35, 16), ("L", 35, 38), ("L", 14, 38), ("Z",)], False)]
    for i in range(lines):
        out.append((_line(18, 19 + 5 * i, 31, 19 + 5 * i), False))
    return out


def _calculator() -> Glyph:
    out: Glyph = [(_rect(14, 10, 20, 8), False)]
    for row in range(2):
        for col in range(3):
            out.append((_rect(14 + 7 * col, 22 + 7 * row, 5, 5), True))
    return out


def _calendar() -> Glyph:
    out: Glyph = [(_rect(11, 13, 26, 23), False), (_rect(11, 13, 26, 6), True)]
    for row in range(2):
        for col in range(4):
            out.append((_rect(14 + 6 * col, 23 + 6 * row, 3, 3), True))
    return out


def _photos() -> Glyph:
    return [
        (_rect(10, 12, 28, 24), False),
        ([("M", 12, 34), ("L", 21, 22), ("L", 27, 29), ("L", 31, 25), ("L", 36, 34), ("Z",)], True),
        (_circle(30, 18, 3), True),
    ]


def _code() -> Glyph:
    return [([("M", 19, 15), ("L", 11, 24), ("L", 19, 33)], False), ([("M", 29, 15), ("L", 37, 24), ("L", 29, 33)], False)]


def _grid() -> Glyph:
    out: Glyph = [(_rect(11, 12, 26, 24), False)]
    out += [(_line(11, 20, 37, 20), False), (_line(11, 28, 37, 28), False), (_line(20, 12, 20, 36), False)]
    return out


def _mail() -> Glyph:
    return [(_rect(10, 14, 28, 20), False), ([("M", 10, 14), ("L", 24, 26), ("L", 38, 14)], False)]


def _messages() -> Glyph:
    return [([("M", 11, 13), ("L", 37, 13), ("L", 37, 31), ("L", 20, 31), ("L", 13, 37), ("L", 14, 31), ("L", 11, 31), ("Z",)], False)]


def _contacts() -> Glyph:
    return [(_circle(24, 18, 6), True), ([("M", 12, 37), ("C", 12, 26, 36, 26, 36, 37), ("Z",)], True)]


def _settings() -> Glyph:
    out: Glyph = []
    for i, knob in enumerate((18, 30, 22)):
        y = 15 + 9 * i
        out += [(_line(11, y, 37, y), False), (_circle(knob, y, 3), True)]
    return out


def _clock() -> Glyph:
    return [(_circle(24, 24, 13), False), ([("M", 24, 15), ("L", 24, 24), ("L", 31, 28)], False)]


def _music() -> Glyph:
    return [([("M", 20, 33), ("L", 20, 13), ("L", 34, 10), ("L", 34, 30)], False), (_circle(17, 33, 4), True), (_circle(31, 30, 4), True)]


def _maps() -> Glyph:
    return [([("M", 24, 38), ("C", 14, 26, 14, 22, 14, 20), ("C", 14, 8, 34, 8, 34, 20), ("C", 34, 22, 34, 26, 24, 38), ("Z",)], False), (_circle(24, 20, 4), True)]


def _weather() -> Glyph:
    return [(_circle(19, 19, 6), False), ([("M", 16, 35), ("C", 10, 35, 10, 27, 16, 27), ("C", 17, 21, 27, 21, 28, 26), ("C", 36, 25, 37, 35, 31, 35), ("Z",)], True)]


def _cube() -> Glyph:
    return [
        ([("M", 24, 10), ("L", 37, 17), ("L", 37, 31), ("L", 24, 38), ("L", 11, 31), ("L", 11, 17), ("Z",)], False),
        ([("M", 11, 17), ("L", 24, 24), ("L", 37, 17)], False),
        (_line(24, 24, 24, 38), False),
    ]


def _chip() -> Glyph:
    out: Glyph = [(_rect(16, 16, 16, 16), True)]
    for i in range(3):
        p = 19 + 5 * i
        out += [(_line(p, 10, p, 16), False), (_line(p, 32, p, 38), False), (_line(10, p, 16, p), False), (_line(32, p, 38, p), False)]
    return out


def _brush() -> Glyph:
    return [([("M", 35, 11), ("L", 38, 14), ("L", 24, 28), ("L", 21, 25), ("Z",)], True), ([("M", 20, 27), ("L", 22, 29), ("C", 20, 36, 14, 37, 10, 37), ("C", 13, 34, 12, 28, 20, 27), ("Z",)], True)]


def _database() -> Glyph:
    return [
        ([("M", 12, 15), ("C", 12, 9, 36, 9, 36, 15), ("L", 36, 33), ("C", 36, 39, 12, 39, 12, 33), ("Z",)], False),
        ([("M", 12, 15), ("C", 12, 21, 36, 21, 36, 15)], False),
        ([("M", 12, 24), ("C", 12, 30, 36, 30, 36, 24)], False),
    ]


def _film() -> Glyph:
    out: Glyph = [(_rect(10, 13, 28, 22), False), ([("M", 21, 19), ("L", 29, 24), ("L", 21, 29), ("Z",)], True)]
    for i in range(4):
        out += [(_rect(12 + 7 * i, 15, 3, 2), True), (_rect(12 + 7 * i, 31, 3, 2), True)]
    return out


def _notes() -> Glyph:
    return [(_rect(13, 10, 22, 28), False), *[(_line(17, 17 + 5 * i, 31, 17 + 5 * i), False) for i in range(4)]]


#: Application id -> glyph builder.
GLYPHS: dict[str, Callable[[], Glyph]] = {
    "files": _files,
    "browser": _browser,
    "terminal": _terminal,
    "editor": lambda: _page(4),
    "docs": lambda: _page(4),
    "calculator": _calculator,
    "calendar": _calendar,
    "photos": _photos,
    "code": _code,
    "spreadsheet": _grid,
    "excel": _grid,
    "mail": _mail,
    "messages": _messages,
    "contacts": _contacts,
    "settings": _settings,
    "clock": _clock,
    "music": _music,
    "maps": _maps,
    "weather": _weather,
    "freecad": _cube,
    "kicad": _chip,
    "database": _database,
    "notes": _notes,
    **{app: _brush for app in _IMAGE_EDITORS},
    **{app: _film for app in _VIDEO_EDITORS},
}


def _scaled(cmds: list[Cmd], size: int) -> tuple[Cmd, ...]:
    out = []
    for cmd in cmds:
        op, *nums = cmd
        out.append((op, *((n * size + 24) // 48 for n in nums)))  # type: ignore[operator]
    return tuple(out)


_CACHE: dict[tuple[str, int, str], list[tuple[Primitive, Rect]]] = {}


def icon(app: str, x: int, y: int, size: int, label: str = "") -> list[tuple[Primitive, Rect]]:
    """The primitives of ``app``'s icon in the square ``(x, y, size, size)``, bottom first."""
    key = (app, size, label[:1])
    parts = _CACHE.get(key)
    if parts is None:
        tile = TILES.get(app, _DEFAULT_TILE)
        parts = [(RoundedBox(tile, max(2, size // 5)), Rect(0, 0, size, size))]
        builder = GLYPHS.get(app)
        stroke = max(1, size // 16)
        if builder is not None:
            for cmds, filled in builder():
                prim = Path(_scaled(cmds, size), fill=WHITE if filled else None, stroke=None if filled else WHITE, stroke_width=stroke)
                parts.append((prim, Rect(0, 0, size, size)))
        else:
            letter = (label or app)[:1].upper()
            fs = max(8, size // 2)
            w, h = measure(letter, "sans-bold", fs), line_height("sans-bold", fs)
            parts.append((UiTextBold(letter, fs, WHITE), Rect((size - w) // 2, (size - h) // 2, w, h)))
        _CACHE[key] = parts
    return [(prim, Rect(x + r.x, y + r.y, r.width, r.height)) for prim, r in parts]
