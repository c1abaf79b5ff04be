"""Monochrome symbols: the shell's glyphs (window buttons, chevrons, status icons...).

Each symbol is a list of drawing operations on a 16 x 16 design grid, drawn in one
colour (the ``Symbol`` primitive's ``color``, or an ``AssetImage``'s ``tint``), in the
spirit of GNOME's symbolic icons. Operations:

* ``("stroke", path, width)``: stroke SVG path data, round caps and joins;
* ``("fill", path)``: fill SVG path data (non-zero rule);
* ``("fill-eo", path)``: fill with the even-odd rule (shapes with holes);
* ``("dot", cx, cy, r)``: a filled circle;
* ``("ring", cx, cy, r, width)``: a stroked circle.
"""

from __future__ import annotations

import skia

from cwgym.render.paints import fill, stroke
from cwgym.render.shapes import circle, gear, svg_path

__all__ = ["GRID", "SYMBOLS", "draw_symbol"]

#: Design grid of a symbol, in units per side.
GRID = 16


_GEAR16 = gear(8, 8, 7.2, 5.2, 8, 2.2)

SYMBOLS: dict[str, tuple[str, list[tuple]]] = {
    # window controls
    "close": (
        "close window: a diagonal cross",
        [("stroke", "M4.5 4.5 L11.5 11.5 M11.5 4.5 L4.5 11.5", 1.5)],
    ),
    "minimize": (
        "minimize window: a short bar at the bottom",
        [("stroke", "M4.5 11.5 H11.5", 1.5)],
    ),
    "maximize": (
        "maximize window: a square outline",
        [("stroke", "M4.5 4.5 H11.5 V11.5 H4.5 Z", 1.5)],
    ),
    "restore": (
        "restore (unmaximize) window: two overlapping squares",
        [("stroke", "M6.5 4.5 H11.5 V9.5 M4.5 6.5 H9.5 V11.5 H4.5 Z", 1.25)],
    ),
    # navigation
    "chevron-down": (
        "a chevron pointing down (menus, drop-downs)",
        [("stroke", "M4 6 L8 10 L12 6", 1.5)],
    ),
    "chevron-up": ("a chevron pointing up", [("stroke", "M4 10 L8 6 L12 10", 1.5)]),
    "chevron-left": ("a chevron pointing left (back)", [("stroke", "M10 4 L6 8 L10 12", 1.5)]),
    "chevron-right": (
        "a chevron pointing right (forward, submenu)",
        [("stroke", "M6 4 L10 8 L6 12", 1.5)],
    ),
    "arrow-left": ("an arrow pointing left", [("stroke", "M13 8 H3.5 M7.5 4 L3.5 8 L7.5 12", 1.5)]),
    "arrow-right": (
        "an arrow pointing right",
        [("stroke", "M3 8 H12.5 M8.5 4 L12.5 8 L8.5 12", 1.5)],
    ),
    "arrow-up": (
        "an arrow pointing up (parent folder)",
        [("stroke", "M8 13 V3.5 M4 7.5 L8 3.5 L12 7.5", 1.5)],
    ),
    "arrow-down": (
        "an arrow pointing down",
        [("stroke", "M8 3 V12.5 M4 8.5 L8 12.5 L12 8.5", 1.5)],
    ),
    "refresh": (
        "reload: a circular arrow",
        [
            ("stroke", "M12.5 8 A4.5 4.5 0 1 1 11 4.6", 1.5),
            ("fill", "M9.2 2.2 L13.6 2.6 L12.4 6.8 Z"),
        ],
    ),
    "menu": ("a hamburger menu: three bars", [("stroke", "M3 4.5 H13 M3 8 H13 M3 11.5 H13", 1.5)]),
    "more": (
        "more actions: three vertical dots",
        [("dot", 8, 3.5, 1.4), ("dot", 8, 8, 1.4), ("dot", 8, 12.5, 1.4)],
    ),
    "plus": ("add / new tab: a plus sign", [("stroke", "M8 3.5 V12.5 M3.5 8 H12.5", 1.5)]),
    "minus": ("a minus sign", [("stroke", "M3.5 8 H12.5", 1.5)]),
    "check": ("a check mark", [("stroke", "M3.5 8.5 L6.5 11.5 L12.5 4.5", 1.75)]),
    "search": (
        "search: a magnifying glass",
        [("ring", 6.75, 6.75, 4.25, 1.5), ("stroke", "M10 10 L13.5 13.5", 2.0)],
    ),
    "app-grid": (
        "show applications: a 3 x 3 grid of dots",
        [("dot", 3 + 5 * (k % 3), 3 + 5 * (k // 3), 1.5) for k in range(9)],
    ),
    "view-grid": (
        "icon view: four squares",
        [("fill", "M2 2 H7 V7 H2 Z M9 2 H14 V7 H9 Z M2 9 H7 V14 H2 Z M9 9 H14 V14 H9 Z")],
    ),
    "view-list": (
        "list view: bullets and lines",
        [
            ("dot", 3, 4, 1.2),
            ("dot", 3, 8, 1.2),
            ("dot", 3, 12, 1.2),
            ("stroke", "M6 4 H13.5 M6 8 H13.5 M6 12 H13.5", 1.5),
        ],
    ),
    "edit": (
        "edit: a pencil",
        [
            (
                "fill",
                "M11.2 1.8 L14.2 4.8 L12.6 6.4 L9.6 3.4 Z M8.9 4.1 L11.9 7.1 L5.5 13.5 L2 14 L2.5 10.5 Z",
            )
        ],
    ),
    # places and documents
    "home": (
        "home folder: a house",
        [("fill-eo", "M8 1.8 L15 8 H13 V14 H9.5 V10 H6.5 V14 H3 V8 H1 Z")],
    ),
    "folder": (
        "a folder",
        [
            (
                "fill",
                "M1.5 3.5 Q1.5 2.5 2.5 2.5 H6 L7.5 4 H13.5 Q14.5 4 14.5 5 V12.5 Q14.5 13.5 13.5 13.5 H2.5 Q1.5 13.5 1.5 12.5 Z",
            )
        ],
    ),
    "file": (
        "a file: a page with a folded corner",
        [("fill-eo", "M3 1.5 H9.5 L13 5 V14.5 H3 Z M4.5 3 V13 H11.5 V6 H8.5 V3 Z")],
    ),
    "document": (
        "a text document: a page with lines",
        [
            ("fill-eo", "M3 1.5 H9.5 L13 5 V14.5 H3 Z M4.5 3 V13 H11.5 V6 H8.5 V3 Z"),
            ("stroke", "M6 8 H10 M6 10.5 H10", 1.0),
        ],
    ),
    "download": (
        "downloads: an arrow into a tray",
        [("stroke", "M8 2 V10 M4.5 6.5 L8 10 L11.5 6.5 M2.5 11 V13.5 H13.5 V11", 1.5)],
    ),
    "pictures": (
        "pictures: a framed landscape",
        [
            ("stroke", "M2 3 H14 V13 H2 Z", 1.25),
            ("fill", "M2.6 12.4 L6 8 L8.5 10.5 L10.5 8.5 L13.4 12.4 Z"),
            ("dot", 10.5, 5.8, 1.3),
        ],
    ),
    "music": (
        "music: a pair of notes",
        [
            ("fill", "M5.5 3.5 L13.5 1.5 V11 H12 V4 L7 5.3 V12.5 H5.5 Z"),
            ("dot", 4.6, 12.5, 2.0),
            ("dot", 11.1, 11, 2.0),
        ],
    ),
    "videos": (
        "videos: a film frame with a play mark",
        [("stroke", "M1.5 3.5 H14.5 V12.5 H1.5 Z", 1.25), ("fill", "M6.5 5.5 L11 8 L6.5 10.5 Z")],
    ),
    "trash": (
        "trash: a waste bin",
        [
            ("stroke", "M2.5 4 H13.5 M6 4 V2.5 H10 V4", 1.25),
            (
                "fill-eo",
                "M3.5 5 H12.5 L11.8 14.5 H4.2 Z M5.2 6.5 L5.6 13 H6.6 L6.4 6.5 Z M7.5 6.5 V13 H8.5 V6.5 Z M9.6 6.5 L9.4 13 H10.4 L10.8 6.5 Z",
            ),
        ],
    ),
    # status area
    "wifi": (
        "wireless network: three arcs over a dot",
        [
            ("stroke", "M1.6 6.3 A9 9 0 0 1 14.4 6.3", 1.5),
            ("stroke", "M3.8 8.6 A6 6 0 0 1 12.2 8.6", 1.5),
            ("stroke", "M6 10.9 A3 3 0 0 1 10 10.9", 1.5),
            ("dot", 8, 13.2, 1.4),
        ],
    ),
    "network-wired": (
        "wired network: three linked boxes",
        [
            (
                "fill",
                "M6 1.5 H10 V5.5 H6 Z M1.5 10.5 H5.5 V14.5 H1.5 Z M10.5 10.5 H14.5 V14.5 H10.5 Z",
            ),
            ("stroke", "M8 5.5 V8 M3.5 10.5 V8 H12.5 V10.5", 1.25),
        ],
    ),
    "volume": (
        "sound volume: a speaker with waves",
        [
            ("fill", "M1.5 6 H4.5 L8.5 2.5 V13.5 L4.5 10 H1.5 Z"),
            ("stroke", "M10.5 5.8 A3 3 0 0 1 10.5 10.2", 1.25),
            ("stroke", "M12 3.8 A5.5 5.5 0 0 1 12 12.2", 1.25),
        ],
    ),
    "volume-muted": (
        "sound muted: a speaker with a cross",
        [
            ("fill", "M1.5 6 H4.5 L8.5 2.5 V13.5 L4.5 10 H1.5 Z"),
            ("stroke", "M10.5 6 L14.5 10 M14.5 6 L10.5 10", 1.25),
        ],
    ),
    "battery": (
        "battery: a cell mostly full",
        [
            ("stroke", "M1.5 4.5 H12.5 V11.5 H1.5 Z", 1.25),
            ("fill", "M13.2 6.5 H14.8 V9.5 H13.2 Z M3 6 H10 V10 H3 Z"),
        ],
    ),
    "battery-charging": (
        "battery charging: a cell with a bolt",
        [
            ("stroke", "M1.5 4.5 H12.5 V11.5 H1.5 Z", 1.25),
            ("fill", "M13.2 6.5 H14.8 V9.5 H13.2 Z M7.8 5.2 L4.6 8.4 H7 L6.2 10.8 L9.4 7.6 H7 Z"),
        ],
    ),
    "power": (
        "power: a broken circle with a bar",
        [("stroke", "M5.2 4 A5.2 5.2 0 1 0 10.8 4", 1.5), ("stroke", "M8 1.8 V7.5", 1.5)],
    ),
    "lock": (
        "lock screen: a padlock",
        [("stroke", "M5 7 V5 A3 3 0 0 1 11 5 V7", 1.5), ("fill", "M3 7 H13 V14 H3 Z")],
    ),
    "bell": (
        "notifications: a bell",
        [
            (
                "fill",
                "M8 1.5 A4.5 4.5 0 0 1 12.5 6 V10 L14 12 H2 L3.5 10 V6 A4.5 4.5 0 0 1 8 1.5 Z",
            ),
            ("dot", 8, 13.3, 1.5),
        ],
    ),
    "user": (
        "a user: head and shoulders",
        [("dot", 8, 5, 3), ("fill", "M2 14.5 Q2 9.5 8 9.5 Q14 9.5 14 14.5 Z")],
    ),
    "settings": ("settings: a gear", [("fill-eo", _GEAR16)]),
    "terminal": (
        "a terminal: a prompt in a box",
        [
            ("stroke", "M1.5 2.5 H14.5 V13.5 H1.5 Z", 1.25),
            ("stroke", "M4 5.5 L6.5 8 L4 10.5 M8 10.5 H12", 1.25),
        ],
    ),
    "globe": (
        "the web: a globe",
        [
            ("ring", 8, 8, 6.25, 1.25),
            (
                "stroke",
                "M8 1.75 A3 6.25 0 0 1 8 14.25 A3 6.25 0 0 1 8 1.75 M1.75 8 H14.25 M2.8 4.8 H13.2 M2.8 11.2 H13.2",
                1.0,
            ),
        ],
    ),
    "calendar": (
        "a calendar page",
        [
            ("fill-eo", "M2 3 H14 V14 H2 Z M3.5 6.5 V12.5 H12.5 V6.5 Z"),
            ("stroke", "M5 1.5 V4 M11 1.5 V4", 1.5),
            ("fill", "M5 8 H7 V10 H5 Z"),
        ],
    ),
    "star": (
        "favourite: a five-pointed star",
        [
            (
                "fill",
                "M8 1.3 L9.9 5.6 L14.5 6 L11 9.1 L12.1 13.7 L8 11.3 L3.9 13.7 L5 9.1 L1.5 6 L6.1 5.6 Z",
            )
        ],
    ),
    "info": (
        "information: an i in a circle",
        [("ring", 8, 8, 6.25, 1.25), ("dot", 8, 5, 1), ("stroke", "M8 7.5 V11.5", 1.5)],
    ),
    "warning": (
        "warning: an exclamation mark in a triangle",
        [("fill-eo", "M8 1.5 L15 14 H1 Z M7.2 5.5 V10 H8.8 V5.5 Z M7.2 11 V12.6 H8.8 V11 Z")],
    ),
}


def draw_symbol(canvas: skia.Canvas, name: str, color: tuple[int, int, int, int]) -> None:
    """Draw symbol ``name`` in ``color`` on the 16 x 16 design grid at the canvas origin."""
    for op in SYMBOLS[name][1]:
        kind = op[0]
        if kind == "stroke":
            canvas.drawPath(svg_path(op[1]), stroke(color, op[2]))
        elif kind == "fill":
            canvas.drawPath(svg_path(op[1]), fill(color))
        elif kind == "fill-eo":
            canvas.drawPath(svg_path(op[1], True), fill(color))
        elif kind == "dot":
            canvas.drawOval(circle(op[1], op[2], op[3]), fill(color))
        else:  # ring
            canvas.drawOval(circle(op[1], op[2], op[3]), stroke(color, op[4]))
