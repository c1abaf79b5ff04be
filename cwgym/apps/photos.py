"""``photos``: the Image Viewer, in the manner of GNOME's Loupe, for PNG and JPEG pictures.

Launched with a picture's path it shows that picture; with a folder's path, or with no
argument, it shows the pictures of that folder (``~/Pictures`` by default) as a grid of
thumbnails to pick from (previews drawn from half as many pixels a side as they show:
:data:`THUMB_DETAIL`). A missing path refuses the launch (``AppError``).

A **picture** is a file whose name ends in ``.png``, ``.jpg`` or ``.jpeg`` (any case).
Next and Previous walk the pictures of the shown picture's folder in name order (Python's
code-point order; no wrap-around). Pictures are decoded with Pillow from the bytes on the
machine (:mod:`cwgym.apps._raster`): a file that is not a PNG or JPEG picture, or is
damaged or truncated, shows "Could not load image: <name>" in place of the picture, and
the window keeps it in ``state["error"]``; nothing can be rotated or saved then and no
file is changed.

**Zoom** is Best Fit (the whole picture, shrunk to the view but never enlarged) or one of
:data:`ZOOMS` (percent). Zoom In and Zoom Out step to the next level above or below the
zoom shown; a picture larger than the view is panned by dragging it. **Rotate** turns the
picture a quarter turn (left: counter-clockwise, right: clockwise); the turn is the
window's until **Save** writes the turned picture back to its file in its own format
(PNG with Pillow's ``compress_level=6``, JPEG at quality 90 — see
:func:`cwgym.apps._raster.encode`). While a turn is unsaved the title starts with the
dirty marker ``•``; moving to another picture drops an unsaved turn. Opening and saving a
picture add it to the desktop's recent documents (:func:`cwgym.machine.recent.add_recent`).
**Properties** shows the file name, folder, format, dimensions and file size.

Control targets (``window:<id>:content:<target>``):

* picture view: ``browse`` (All Images: the folder's grid), ``previous``, ``next``,
  ``zoom-out``, ``zoom-in``, ``zoom-fit`` (Best Fit), ``zoom-100`` (the zoom level's label:
  100 %), ``rotate-left``, ``rotate-right``, ``save``, ``properties`` (a toggle), ``image``
  (the picture: a drag surface that pans; a double click switches between Best Fit and
  100 %), ``dismiss`` (closes a save error's banner);
* grid: ``open:<file name>`` (a thumbnail: a click opens it), scroll pane ``pane:grid``.

Keys: ``ArrowRight`` / ``ArrowLeft`` next / previous picture, ``Home`` / ``End`` the first /
last; ``+`` or ``=`` zoom in, ``-`` zoom out, ``0`` best fit, ``1`` 100 % (also with the
primary modifier: ``Primary++``, ``Primary+-``, ``Primary+0``); ``Primary+r`` rotate right
(clockwise), ``Primary+Shift+r`` rotate left; ``Primary+s`` save; ``F9`` or ``Alt+Enter``
properties; ``Escape`` hides the properties or the error banner; ``Primary+w`` closes the
window. In the grid the arrows, ``Home`` and ``End`` move the selection and ``Enter`` opens
it. ``Primary`` + the wheel zooms.
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.apps import _raster as rs
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent
from cwgym.scene import Box, NodeState, Path, Rect, RoundedBox, Semantic, Symbol, UiText, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["DIRTY_MARK", "GRID_MAX", "ZOOMS", "Photos"]

#: What the title shows in front of the name while a turn is unsaved.
DIRTY_MARK = "• "
#: The zoom levels, in percent.
ZOOMS = (10, 25, 33, 50, 67, 100, 150, 200, 300, 400, 800)
#: The most pictures a folder's grid lists (sorted by name; the rest are left out).
GRID_MAX = 1000

HEADER_H = 48
PROPS_W = 280
PAD = 16
BANNER_H = 40
CELL_W, CELL_H = 184, 168
THUMB_W, THUMB_H = 168, 120
#: A grid thumbnail carries its pixels at 1/THUMB_DETAIL of the size it is shown at, a
#: side (rounded up), and the renderer scales them up (bilinear): a preview needs no more,
#: and every pixel is four ints in each scene handed out.
THUMB_DETAIL = 2
BANNER = (252, 228, 230, 255)
PANE = "grid"
#: The zoom keys (alone, with Shift or with the primary modifier) and typed characters.
ZOOM_KEYS = {"+": "in", "=": "in", "-": "out", "0": "fit", "1": "100"}


def _name(path: str | None) -> str:
    return posixpath.basename(path) if path else ""


def _resolve(raw: str, home: str, base: str) -> str:
    raw = raw.strip()
    if raw == "~":
        path = home
    elif raw.startswith("~/"):
        path = home + raw[1:]
    elif raw.startswith("/"):
        path = raw
    else:
        path = f"{base.rstrip('/')}/{raw}"
    return posixpath.normpath(path)


def _pictures(ctx: AppContext, folder: str) -> list[str]:
    """The picture names of a folder, sorted (at most :data:`GRID_MAX`); [] if unreadable."""
    fs = ctx.files()
    try:
        names = fs.listdir(folder, ctx.home)
    except FsError:
        return []
    out = []
    for name in names:
        if rs.is_image_name(name) and not fs.is_dir(f"{folder.rstrip('/')}/{name}", ctx.home):
            out.append(name)
            if len(out) >= GRID_MAX:
                break
    return out


def _file_size(n: int) -> str:
    """A file size as GNOME shows it (decimal units)."""
    if n < 1000:
        return f"{n} bytes"
    for unit, scale in (("kB", 1000), ("MB", 1000**2), ("GB", 1000**3)):
        if n < scale * 1000 or unit == "GB":
            tenths = (n * 10 + scale // 2) // scale
            return f"{tenths // 10}.{tenths % 10} {unit}"
    return f"{n} bytes"  # pragma: no cover


# -- geometry --------------------------------------------------------------------------------


def _view_rect(width: int, height: int, state: dict) -> Rect:
    right = PROPS_W if state["props"] and state["view"] == "image" else 0
    return Rect(0, HEADER_H, max(1, width - right), max(1, height - HEADER_H))


def _turned(pic: rs.Decoded, rotation: int) -> tuple[int, int]:
    return (pic.height, pic.width) if rotation in (90, 270) else (pic.width, pic.height)


def _display(
    view: Rect, iw: int, ih: int, zoom: int | None, center: list | None
) -> tuple[Rect, tuple, tuple]:
    """Where the picture shows, the part of it shown (left, top, right, bottom) and the
    size of the pixels handed to the scene."""
    vw, vh = view.width, view.height
    if zoom is None:
        dw, dh = rs.fit(iw, ih, vw - 2 * PAD, vh - 2 * PAD)
        box = (0, 0, iw, ih)
        pixels = (dw, dh)
    else:
        sw, sh = max(1, iw * zoom // 100), max(1, ih * zoom // 100)
        dw, dh = min(sw, vw), min(sh, vh)
        cw = min(iw, max(1, -(-dw * 100 // zoom)))
        ch = min(ih, max(1, -(-dh * 100 // zoom)))
        cx, cy = (center[0], center[1]) if center else (iw // 2, ih // 2)
        left = max(0, min(cx - cw // 2, iw - cw))
        top = max(0, min(cy - ch // 2, ih - ch))
        box = (left, top, left + cw, top + ch)
        pixels = (dw, dh) if zoom < 100 else (cw, ch)
    rect = Rect(view.x + (vw - dw) // 2, view.y + (vh - dh) // 2, dw, dh)
    return rect, box, pixels


def _compare_fit(level: int, iw: int, ih: int, view: Rect) -> int:
    """Whether ``level`` % is above (1), at (0) or below (-1) the best-fit zoom."""
    fw = rs.fit(iw, ih, view.width - 2 * PAD, view.height - 2 * PAD)[0]
    a, b = level * iw, 100 * fw
    return (a > b) - (a < b)


def _toolbar(width: int, view: str) -> list[tuple[str, str, Rect, str]]:
    """The header's controls: (target, label, rect, kind) — kind is the icon or ``text``."""
    y, h = 8, 32
    out: list[tuple[str, str, Rect, str]] = []
    if view == "grid":
        return out
    x = 8
    for name, label, icon in (
        ("browse", "All Images", "view-grid"),
        ("previous", "Previous Image", "chevron-left"),
        ("next", "Next Image", "chevron-right"),
    ):
        out.append((name, label, Rect(x, y, 36, h), icon))
        x += 40
    right = [
        ("zoom-out", "Zoom Out", 36, "minus"),
        ("zoom-100", "100 %", 64, "level"),
        ("zoom-in", "Zoom In", 36, "plus"),
        ("zoom-fit", "Best Fit", measure("Best Fit", "sans", 14) + 24, "text"),
        ("rotate-left", "Rotate Left", 36, "rotate-left"),
        ("rotate-right", "Rotate Right", 36, "rotate-right"),
        ("save", "Save", measure("Save", "sans", 14) + 28, "text"),
        ("properties", "Image Properties", 36, "info"),
    ]
    x = width - 8 - sum(w for _n, _l, w, _k in right) - 4 * (len(right) - 1)
    x = max(x, 8 + 3 * 40 + 8)
    for name, label, w, kind in right:
        out.append((name, label, Rect(x, y, w, h), kind))
        x += w + 4
    return out


def _rotate_icon(clockwise: bool) -> Path:
    if clockwise:
        cmds = (("M", 3, 11), ("C", 3, 4, 12, 2, 13, 8), ("M", 10, 7), ("L", 13, 9), ("L", 15, 6))
    else:
        cmds = (("M", 13, 11), ("C", 13, 4, 4, 2, 3, 8), ("M", 6, 7), ("L", 3, 9), ("L", 1, 6))
    return cmds


def _grid_geometry(width: int, height: int) -> tuple[Rect, int, int]:
    """The grid's pane, its column count and the x of its first column."""
    area = Rect(0, HEADER_H, width, max(1, height - HEADER_H))
    cols = max(1, (width - 2 * PAD) // CELL_W)
    x0 = (width - cols * CELL_W) // 2
    return area, cols, x0


class _Shown:
    """What ``paint`` needs of the picture shown (carried by :class:`~cwgym.apps._raster.Held`)."""

    __slots__ = ("box", "error", "facts", "pixels", "rect")

    def __init__(
        self,
        error: str = "",
        pixels: Any = None,
        rect: Rect | None = None,
        facts: tuple = (),
        box: tuple = (),
    ) -> None:
        self.error = error
        self.pixels = pixels
        self.rect = rect
        self.facts = facts
        self.box = box


class Photos(App):
    id = "photos"
    label = "Image Viewer"
    default_size = (900, 640)
    min_size = (640, 420)
    opens = (".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG")

    # -- lifecycle -----------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        label = ctx.theme.label(self.id, self.label) if ctx.theme is not None else self.label
        state: dict[str, Any] = {
            "label": label,
            "view": "grid",
            "folder": f"{ctx.home}/Pictures",
            "path": None,
            "rotation": 0,
            "zoom": None,
            "center": None,
            "pan": None,
            "props": False,
            "error": "",
            "status": "",
            "selected": 0,
        }
        if not argument:
            return state
        path = _resolve(argument, ctx.home, ctx.cwd)
        fs = ctx.files()
        if fs.is_dir(path, ctx.home):
            state["folder"] = path
            return state
        if not fs.exists(path, ctx.home):
            raise AppError(f"{argument}: No such file or directory")
        self._open(ctx, state, path)
        return state

    def title(self, state: dict) -> str:
        if state["view"] == "grid" or not state["path"]:
            return state["label"]  # the theme's label: "Image Viewer"
        dirty = DIRTY_MARK if state["rotation"] else ""
        return f"{dirty}{_name(state['path'])} — {state['label']}"

    def document(self, state: dict) -> str:
        return (state["path"] or "") if state["view"] == "image" else ""

    # -- opening -------------------------------------------------------------------------
    def _open(self, ctx: AppContext, state: dict, path: str) -> None:
        """Show the picture at ``path`` (an unreadable one shows the error page)."""
        state.update(
            view="image",
            path=path,
            folder=posixpath.dirname(path) or "/",
            rotation=0,
            zoom=None,
            center=None,
            pan=None,
            status="",
            error="",
        )
        try:
            rs.load(ctx.files(), path, ctx.home)
        except (FsError, rs.RasterError):
            state["error"] = f"Could not load image: {_name(path)}"
            return
        add_recent(ctx.machine, path, self.id)

    def _neighbours(self, ctx: AppContext, state: dict) -> tuple[list[str], int]:
        names = _pictures(ctx, state["folder"])
        current = _name(state["path"])
        if current not in names:
            names = sorted([*names, current])
        return names, names.index(current)

    def _step(self, ctx: AppContext, state: dict, where: str) -> None:
        if state["view"] != "image" or not state["path"]:
            return
        names, i = self._neighbours(ctx, state)
        j = {"next": i + 1, "previous": i - 1, "first": 0, "last": len(names) - 1}[where]
        if j == i or not 0 <= j < len(names):
            return
        self._open(ctx, state, posixpath.join(state["folder"], names[j]))

    def _picture(self, ctx: AppContext, state: dict) -> rs.Decoded | None:
        if state["view"] != "image" or not state["path"]:
            return None
        try:
            return rs.load(ctx.files(), state["path"], ctx.home)
        except (FsError, rs.RasterError):
            return None

    # -- commands --------------------------------------------------------------------------
    def _rotate(self, ctx: AppContext, state: dict, quarter: int) -> None:
        if self._picture(ctx, state) is None:
            return
        state["rotation"] = (state["rotation"] + quarter) % 360
        state["center"] = None
        state["pan"] = None

    def _save(self, ctx: AppContext, state: dict) -> None:
        if not state["rotation"]:
            return
        path = state["path"]
        pic = self._picture(ctx, state)
        if pic is None:
            state["status"] = (
                f"Could not save “{_name(path)}”: it is no longer a picture Image Viewer can read."
            )
            return
        data = rs.encode(rs.turn(pic.image, state["rotation"]), pic.format)
        try:
            ctx.files().write(path, ctx.home, data)
        except FsError as exc:
            state["status"] = f"Could not save “{_name(path)}”: {exc.strerror_text}"
            return
        state["rotation"] = 0
        state["center"] = None
        state["status"] = ""
        add_recent(ctx.machine, path, self.id)

    def _zoom(self, ctx: AppContext, state: dict, how: str) -> None:
        pic = self._picture(ctx, state)
        if pic is None:
            return
        if how == "fit":
            state["zoom"], state["center"] = None, None
            return
        if how == "100":
            state["zoom"] = 100
            return
        iw, ih = _turned(pic, state["rotation"])
        view = _view_rect(ctx.width, ctx.height, state)
        current = state["zoom"]
        if how == "in":
            if current is None:
                bigger = [z for z in ZOOMS if _compare_fit(z, iw, ih, view) > 0]
            else:
                bigger = [z for z in ZOOMS if z > current]
            if bigger:
                state["zoom"] = bigger[0]
        else:
            if current is None:
                smaller = [z for z in ZOOMS if _compare_fit(z, iw, ih, view) < 0]
            else:
                smaller = [z for z in ZOOMS if z < current]
            if smaller:
                state["zoom"] = smaller[-1]

    def _browse(self, ctx: AppContext, state: dict) -> None:
        names = _pictures(ctx, state["folder"])
        current = _name(state["path"])
        state.update(view="grid", rotation=0, zoom=None, center=None, pan=None, status="", error="")
        state["selected"] = names.index(current) if current in names else 0
        self._reveal(ctx, state, len(names))

    def _reveal(self, ctx: AppContext, state: dict, count: int) -> None:
        """Scroll the grid the least that shows the selected thumbnail."""
        area, cols, _x0 = _grid_geometry(ctx.width, ctx.height)
        if count == 0:
            return
        row = state["selected"] // cols
        top = row * CELL_H
        offset = ctx.scroll_offset(PANE) or 0
        if top < offset:
            offset = top
        elif top + CELL_H + PAD > offset + area.height:
            offset = top + CELL_H + PAD - area.height
        ctx.set_scroll_offset(PANE, offset or None)

    # -- pointer ---------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["view"] == "grid":
            if target.startswith("open:"):
                name = target[5:]
                if name not in _pictures(ctx, state["folder"]):
                    raise UnknownTarget(target)
                self._open(ctx, state, posixpath.join(state["folder"], name))
                return None
            raise UnknownTarget(target)
        commands = {
            "browse": lambda: self._browse(ctx, state),
            "previous": lambda: self._step(ctx, state, "previous"),
            "next": lambda: self._step(ctx, state, "next"),
            "zoom-out": lambda: self._zoom(ctx, state, "out"),
            "zoom-in": lambda: self._zoom(ctx, state, "in"),
            "zoom-fit": lambda: self._zoom(ctx, state, "fit"),
            "zoom-100": lambda: self._zoom(ctx, state, "100"),
            "rotate-left": lambda: self._rotate(ctx, state, 270),
            "rotate-right": lambda: self._rotate(ctx, state, 90),
            "save": lambda: self._save(ctx, state),
            "properties": lambda: state.__setitem__("props", not state["props"]),
            "image": lambda: None,
        }
        if target == "dismiss" and state["status"]:
            state["status"] = ""
            return None
        command = commands.get(target)
        if command is None:
            raise UnknownTarget(target)
        command()
        return None

    def is_drag_surface(self, target: str, button: int) -> bool:
        return target == "image" and button == 0

    def cursor(self, target: str) -> str | None:
        return "grab" if target == "image" else None

    def drag(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        phase: str,
        point: tuple[int, int],
        button: int,
        modifiers: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> None:
        if target != "image" or state["view"] != "image":
            return
        if phase in ("up", "cancel"):
            state["pan"] = None
            return
        pic = self._picture(ctx, state)
        if pic is None:
            return
        if phase == "down":
            if clicks == 2:
                state["zoom"] = None if state["zoom"] is not None else 100
                state["center"], state["pan"] = None, None
                return
            if state["zoom"] is None:
                return
            iw, ih = _turned(pic, state["rotation"])
            view = _view_rect(ctx.width, ctx.height, state)
            _rect, box, _px = _display(view, iw, ih, state["zoom"], state["center"])
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            state["pan"] = [point[0], point[1], cx, cy]
            return
        pan = state["pan"]
        if pan is None or state["zoom"] is None:
            return
        z = state["zoom"]
        iw, ih = _turned(pic, state["rotation"])
        cx = pan[2] - (point[0] - pan[0]) * 100 // z
        cy = pan[3] - (point[1] - pan[1]) * 100 // z
        state["center"] = [max(0, min(iw, cx)), max(0, min(ih, cy))]

    def wheel(
        self,
        ctx: AppContext,
        state: dict,
        target: str | None,
        point: tuple[int, int],
        dx: int,
        dy: int,
        modifiers: tuple[str, ...],
    ) -> bool:
        if state["view"] != "image" or ctx.primary not in modifiers or not dy:
            return False
        self._zoom(ctx, state, "in" if dy < 0 else "out")
        return True

    # -- keys ------------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        if ctx.pressed(chord, "Primary+w"):
            ctx.close()
            return True
        if state["view"] == "grid":
            return self._grid_key(ctx, state, name)
        if name == "Escape":
            if state["props"]:
                state["props"] = False
                return True
            if state["status"]:
                state["status"] = ""
                return True
            return False
        steps = {"ArrowRight": "next", "ArrowLeft": "previous", "Home": "first", "End": "last"}
        if name in steps:
            self._step(ctx, state, steps[name])
            return True
        if ctx.pressed(chord, "Primary+r"):
            self._rotate(ctx, state, 90)
            return True
        if ctx.pressed(chord, "Primary+Shift+r"):
            self._rotate(ctx, state, 270)
            return True
        if ctx.pressed(chord, "Primary+s"):
            self._save(ctx, state)
            return True
        if name in ("F9", "Alt+Enter"):
            state["props"] = not state["props"]
            return True
        held = set(chord.modifiers) - {"Shift"}
        zoom = ZOOM_KEYS.get(chord.key) if held in (set(), {ctx.primary}) else None
        if zoom is not None:
            self._zoom(ctx, state, zoom)
            return True
        return False

    def _grid_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        names = _pictures(ctx, state["folder"])
        if not names:
            return False
        _area, cols, _x0 = _grid_geometry(ctx.width, ctx.height)
        i = max(0, min(state["selected"], len(names) - 1))
        moves = {
            "ArrowRight": i + 1,
            "ArrowLeft": i - 1,
            "ArrowDown": i + cols,
            "ArrowUp": i - cols,
            "Home": 0,
            "End": len(names) - 1,
        }
        if name in moves:
            state["selected"] = max(0, min(moves[name], len(names) - 1))
            self._reveal(ctx, state, len(names))
            return True
        if name in ("Enter", "Space"):
            self._open(ctx, state, posixpath.join(state["folder"], names[i]))
            return True
        return False

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["view"] != "image":
            return False
        taken = False
        for ch in text:
            how = ZOOM_KEYS.get(ch)
            if how is not None:
                self._zoom(ctx, state, how)
                taken = True
        return taken

    # -- painting --------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        if state["view"] == "grid":
            return self._grid_key_value(ctx, state)
        path = state["path"]
        try:
            pic = rs.load(ctx.files(), path, ctx.home)
        except (FsError, rs.RasterError) as exc:
            reason = exc.strerror_text if isinstance(exc, FsError) else str(exc)
            return rs.Held(("error", path, reason), _Shown(error=reason))
        rotation = state["rotation"]
        iw, ih = _turned(pic, rotation)
        view = _view_rect(ctx.width, ctx.height, state)
        rect, box, pixels = _display(view, iw, ih, state["zoom"], state["center"])
        prim = rs.scene_image(
            (pic.digest, rotation), rs.rotated(pic, rotation), pixels[0], pixels[1], box
        )
        facts = (pic.format, pic.width, pic.height, pic.size)
        return rs.Held(
            (pic.digest, rotation, rect, box, pixels),
            _Shown(pixels=prim, rect=rect, facts=facts, box=box),
        )

    def _grid_key_value(self, ctx: AppContext, state: dict) -> rs.Held:
        folder = state["folder"]
        names = _pictures(ctx, folder)
        area, cols, _x0 = _grid_geometry(ctx.width, ctx.height)
        rows = -(-len(names) // cols)
        extent = rows * CELL_H + PAD
        offset = max(0, min(ctx.scroll_offset(PANE) or 0, max(0, extent - area.height)))
        first = offset // CELL_H
        last = (offset + area.height) // CELL_H + 1
        fs = ctx.files()
        cells = []
        key = []
        for i, name in enumerate(names):
            if not first <= i // cols <= last:
                cells.append((name, None))
                key.append((name, None))
                continue
            try:
                pic = rs.load(fs, f"{folder.rstrip('/')}/{name}", ctx.home)
            except (FsError, rs.RasterError):
                cells.append((name, "error"))
                key.append((name, "error"))
                continue
            tw, th = rs.fit(pic.width, pic.height, THUMB_W, THUMB_H)
            pw, ph = rs.fit(pic.width, pic.height, -(-tw // THUMB_DETAIL), -(-th // THUMB_DETAIL))
            image = rs.scene_image(("thumb", pic.digest), rs.rotated(pic, 0), pw, ph)
            cells.append((name, (image, tw, th)))
            key.append((name, pic.digest))
        return rs.Held(("grid", folder, tuple(key)), cells)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        p.box(Rect(0, 0, p.width, HEADER_H), pal.get("header", pal["button"]), key="header")
        p.paint(Box(pal["border"]), Rect(0, HEADER_H - 1, p.width, 1), key="header-line")
        if state["view"] == "grid":
            self._paint_grid(p, state, key.value if isinstance(key, rs.Held) else [])
            return
        shown: _Shown = key.value
        ok = not shown.error
        disabled = {
            "zoom-out": not ok,
            "zoom-in": not ok,
            "zoom-fit": not ok,
            "zoom-100": not ok,
            "rotate-left": not ok,
            "rotate-right": not ok,
            "save": not (ok and state["rotation"]),
        }
        view = _view_rect(p.width, p.height, state)
        for name, label, rect, kind in _toolbar(p.width, "image"):
            self._control(p, state, name, label, rect, kind, disabled.get(name, False), shown)
        title = _name(state["path"])
        tx = 8 + 3 * 40 + 8
        right_edge = min(r.x for n, _l, r, _k in _toolbar(p.width, "image") if n == "zoom-out") - 12
        p.text(
            title,
            tx,
            (HEADER_H - line_height("sans-bold", 15)) // 2,
            size=15,
            bold=True,
            width=max(0, right_edge - tx),
            key="name",
        )
        p.box(view, pal["window"], key="view-bg")
        if ok:
            p.paint(
                shown.pixels,
                shown.rect,
                key="image",
                target="image",
                semantic=Semantic("img", title, f"{shown.facts[1]} × {shown.facts[2]}"),
            )
        else:
            self._paint_error(p, state, view, shown.error)
        if state["status"]:
            self._paint_banner(p, state, view)
        if state["props"]:
            self._paint_props(p, state, shown)

    @staticmethod
    def _level(state: dict, shown: _Shown) -> str:
        """The zoom shown, in percent (best fit's own when fitted)."""
        if state["zoom"] is not None:
            return f"{state['zoom']} %"
        if not shown.facts or shown.rect is None:
            return "—"
        iw = shown.facts[2] if state["rotation"] in (90, 270) else shown.facts[1]
        return f"{shown.rect.width * 100 // iw} %"

    def _control(
        self,
        p: Painter,
        state: dict,
        name: str,
        label: str,
        rect: Rect,
        kind: str,
        disabled: bool,
        key_value: Any = None,
    ) -> None:
        pal = p.palette
        if kind == "text":
            p.button(
                name, label, rect, disabled=disabled, suggested=name == "save" and not disabled
            )
            return
        checked = state["props"] if name == "properties" else None
        fill = pal["selection"] if checked else pal["button"]
        if kind == "level":
            shown = self._level(state, key_value) if key_value is not None else ""
            label = "Zoom 100 %"
        p.paint(
            RoundedBox(fill, 6, pal["border"], 1),
            rect,
            key=("button", name),
            target=name,
            semantic=Semantic(
                "togglebutton" if checked is not None else "button", label, None, disabled, True
            ),
            state=NodeState(checked=checked) if checked is not None else None,
        )
        ink = pal["muted"] if disabled else pal["text"]
        if kind == "level":
            w = measure(shown, "sans", 13)
            h = line_height("sans", 13)
            p.paint(
                UiText(shown, 13, ink),
                Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
                key=("label", name),
                target=name,
            )
        elif kind in ("rotate-left", "rotate-right"):
            p.paint(
                Path(_rotate_icon(kind == "rotate-right"), None, ink, 2),
                Rect(rect.x + (rect.width - 16) // 2, rect.y + (rect.height - 16) // 2, 16, 16),
                key=("icon", name),
                target=name,
            )
        else:
            p.paint(
                Symbol(kind, ink, 16),
                Rect(rect.x + (rect.width - 16) // 2, rect.y + (rect.height - 16) // 2, 16, 16),
                key=("icon", name),
                target=name,
            )

    def _paint_error(self, p: Painter, state: dict, view: Rect, reason: str) -> None:
        pal = p.palette
        message = f"Could not load image: {_name(state['path'])}"
        cy = view.y + view.height // 2
        p.paint(
            Symbol("warning", pal["muted"], 48),
            Rect(view.x + (view.width - 48) // 2, cy - 72, 48, 48),
            key="error-icon",
        )
        w = measure(message, "sans-bold", 16)
        p.paint(
            UiTextBold(message, 16, pal["text"]),
            Rect(
                view.x + max(8, (view.width - w) // 2),
                cy - 12,
                min(w, view.width - 16),
                line_height("sans-bold", 16),
            ),
            key="error",
            semantic=Semantic("alert", message),
        )
        detail = reason[:1].upper() + reason[1:] + "." if reason else ""
        if detail:
            dw = measure(detail, "sans", 13)
            p.text(
                detail,
                view.x + max(8, (view.width - dw) // 2),
                cy + 16,
                size=13,
                color=pal["muted"],
                width=view.width - 16,
                key="error-detail",
            )

    def _paint_banner(self, p: Painter, state: dict, view: Rect) -> None:
        rect = Rect(view.x + 12, view.y + 12, view.width - 24, BANNER_H)
        p.paint(
            RoundedBox(BANNER, 8, ERROR, 1),
            rect,
            key="banner",
            semantic=Semantic("alert", state["status"]),
        )
        p.text(
            state["status"],
            rect.x + 12,
            rect.y + (BANNER_H - line_height("sans", 14)) // 2,
            color=ERROR,
            width=rect.width - 110,
            key="banner-text",
        )
        p.button("dismiss", "Dismiss", Rect(rect.right - 88, rect.y + 4, 80, BANNER_H - 8))

    def _paint_props(self, p: Painter, state: dict, shown: _Shown) -> None:
        pal = p.palette
        panel = Rect(p.width - PROPS_W, HEADER_H, PROPS_W, p.height - HEADER_H)
        p.paint(
            Box(pal["field"], pal["border"], 1),
            panel,
            key="props",
            semantic=Semantic("region", "Image Properties"),
        )
        x = panel.x + 16
        y = panel.y + 16
        p.text("Image Properties", x, y, size=15, bold=True, key="props-title")
        y += 36
        path = state["path"] or ""
        rows = [("File Name", _name(path)), ("Folder", posixpath.dirname(path))]
        if shown.facts:
            fmt, w, h, size = shown.facts
            rows += [
                ("Format", fmt),
                ("Dimensions", f"{w} × {h} pixels"),
                ("File Size", _file_size(size)),
            ]
        for label, value in rows:
            p.text(label, x, y, size=12, color=pal["muted"], key=("props-label", label))
            p.text(value, x, y + 18, size=14, width=PROPS_W - 32, key=("props-value", label))
            y += 50

    def _paint_grid(self, p: Painter, state: dict, cells: list) -> None:
        pal = p.palette
        folder = state["folder"]
        heading = posixpath.basename(folder.rstrip("/")) or folder
        count = len(cells)
        p.text(
            heading,
            16,
            (HEADER_H - line_height("sans-bold", 15)) // 2,
            size=15,
            bold=True,
            key="heading",
        )
        summary = f"{count} image" + ("" if count == 1 else "s")
        sw = measure(summary, "sans", 13)
        p.text(
            summary,
            p.width - sw - 16,
            (HEADER_H - line_height("sans", 13)) // 2,
            size=13,
            color=pal["muted"],
            key="count",
        )
        area, cols, x0 = _grid_geometry(p.width, p.height)
        if not cells:
            message = f"No PNG or JPEG images in {heading}"
            mw = measure(message, "sans", 15)
            p.text(
                message,
                (p.width - mw) // 2,
                area.y + area.height // 2 - 10,
                size=15,
                color=pal["muted"],
                key="empty",
            )
            return
        rows = -(-count // cols)
        offset = p.scroll(PANE, area, rows * CELL_H + PAD)
        selected = max(0, min(state["selected"], count - 1))
        with p.clipped(area, dy=-offset):
            for i, (name, thumb) in enumerate(cells):
                if thumb is None:
                    continue
                r, c = divmod(i, cols)
                cell = Rect(
                    x0 + c * CELL_W + 4, area.y + PAD // 2 + r * CELL_H, CELL_W - 8, CELL_H - 8
                )
                target = f"open:{name}"
                chosen = i == selected
                p.paint(
                    RoundedBox(pal["selection"] if chosen else pal["window"], 8),
                    cell,
                    key=("cell", name),
                    target=target,
                    semantic=Semantic("listitem", name, None, False, True),
                    state=NodeState(selected=chosen),
                )
                if thumb == "error":
                    p.paint(
                        Symbol("warning", pal["muted"], 32),
                        Rect(cell.x + (cell.width - 32) // 2, cell.y + 44, 32, 32),
                        key=("thumb", name),
                        target=target,
                    )
                else:
                    image, tw, th = thumb
                    p.paint(
                        image,
                        Rect(
                            cell.x + (cell.width - tw) // 2,
                            cell.y + 8 + (THUMB_H - th) // 2,
                            tw,
                            th,
                        ),
                        key=("thumb", name),
                        target=target,
                    )
                nw = min(measure(name, "sans", 13), cell.width - 12)
                p.text(
                    name,
                    cell.x + (cell.width - nw) // 2,
                    cell.y + THUMB_H + 18,
                    size=13,
                    width=cell.width - 12,
                    key=("label", name),
                    target=target,
                )


register(Photos())
