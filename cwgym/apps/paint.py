"""``paint``: a raster editor in the manner of Windows Paint and Pinta.

A window holds one picture: a new blank (white) canvas of :data:`NEW_SIZE`, or the PNG or
JPEG file given as the launch argument. A missing file passed as the argument opens a
blank canvas that the first save creates there (its name must end in ``.png``, ``.jpg``
or ``.jpeg``, else the launch is refused); a folder refuses the launch (``AppError``); a
file that is not a readable PNG or JPEG picture opens a blank, untitled canvas with
"Could not load image: <name>" in the status bar (``state["error"]``) and the file is
left alone.

**The picture is an operation list.** The window's state keeps what was drawn — each
operation's tool, colour, size and points in picture pixels — never pixels: the picture
is the opened file's pixels (or white) with the operations applied in order, rasterised
with Pillow's ``ImageDraw`` (integer geometry, no anti-aliasing except text; strokes are
segments with a round dot at each point, never joints computed with trigonometry), so the
same list always gives the same pixels. Flood fill is ``ImageDraw.floodfill`` with threshold 0
(the 4-connected region of exactly the clicked colour). Text is drawn in the bundled
Ubuntu font (``cwgym/assets/fonts/Ubuntu-R.ttf``, read with :func:`cwgym.text.fonts.load_font`)
with Pillow's basic layout, never a host font. Rasters are cached (least recently used,
keyed by the file's digest and a hash chained through the operations, with a checkpoint
every :data:`CHECKPOINT` operations) and the scene gets the picture as an ``Image``
primitive, shrunk to the canvas area when larger.

Tools (each operation records the colour and size chosen when it started):

* **Brush** — a freehand stroke along the drag (round ends), **Eraser** — the same in
  white;
* **Line**, **Rectangle**, **Ellipse** — from the press to the release (a release where
  it started draws nothing); Rectangle and Ellipse are outlines of the brush size, or
  filled with *Filled*;
* **Fill** — a click floods the region under it;
* **Text** — a click places the text; typing fills it (at most :data:`MAX_TEXT`
  characters), ``Backspace`` deletes, ``Enter`` draws it, ``Escape`` drops it. The text
  size follows the brush size (:data:`TEXT_PX`).

Undo (``Primary+z``) takes the last operation off the list and Redo (``Primary+y``,
``Primary+Shift+z``) puts it back. **Save** (``Primary+s``) writes the picture to its file
(PNG, or JPEG for a ``.jpg``/``.jpeg`` name: :func:`cwgym.apps._raster.encode`); an untitled
picture asks for a path first (Save As, ``Primary+Shift+s``: a name without a suffix gets
``.png``). Saving commits the drawing: the saved file becomes the picture's base and the
operation list (with Undo's history) starts again empty. A picture holds at most
:data:`MAX_OPS` operations and a stroke at most :data:`MAX_POINTS` points: going past
either fails the action with ``invalid`` and changes nothing. Opening and saving add the
file to the desktop's recent documents. Closing with unsaved changes asks first.

Control targets (``window:<id>:content:<target>``): ``new``, ``save``, ``save-as``,
``undo``, ``redo``; ``tool:brush``, ``tool:eraser``, ``tool:line``, ``tool:rectangle``,
``tool:ellipse``, ``tool:fill``, ``tool:text``; ``color:0`` … ``color:11`` (the palette);
``size:2``, ``size:4``, ``size:8``, ``size:16``; ``shape:outline``, ``shape:filled``;
``canvas`` (the picture: a drag surface, crosshair cursor); the Save As dialog's
``save-path``, ``save-cancel``, ``save-confirm``; the New Image dialog's ``new-width``,
``new-height``, ``new-cancel``, ``new-confirm``; the unsaved-changes dialog's
``close-cancel``, ``close-discard``, ``close-save``.

Keys: ``Primary+z`` undo, ``Primary+y`` / ``Primary+Shift+z`` redo, ``Primary+s`` save,
``Primary+Shift+s`` save as, ``Primary+n`` new image, ``Primary+w`` close; tools ``b``
brush, ``e`` eraser, ``l`` line, ``r`` rectangle, ``o`` ellipse, ``f`` fill, ``t`` text;
``1``–``4`` the brush sizes; ``[`` / ``]`` the previous / next colour; ``m`` outline or
filled. In a dialog: ``Tab`` moves between the fields, ``Enter`` confirms, ``Escape``
cancels.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
import posixpath
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from cwgym.apps import _raster as rs
from cwgym.apps import _save_dialog as sd
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent
from cwgym.scene import Box, NodeState, Path, Rect, RoundedBox, Semantic, Text, UiText, UiTextBold
from cwgym.text import line_height, measure
from cwgym.text.fonts import load_font

__all__ = [
    "COLORS",
    "MAX_OPS",
    "MAX_POINTS",
    "MAX_TEXT",
    "NEW_SIZE",
    "SIZES",
    "TEXT_PX",
    "TOOLS",
    "Paint",
    "rasterise",
]

#: A new canvas's size.
NEW_SIZE = (640, 400)
#: The largest canvas side of a new image.
MAX_SIDE = 4096
#: Operations a picture holds (since it was opened or last saved).
MAX_OPS = 256
#: Points a brush or eraser stroke holds.
MAX_POINTS = 512
#: Characters a text holds.
MAX_TEXT = 200
#: A raster checkpoint is cached every this many operations.
CHECKPOINT = 16
#: How far outside the canvas a point may be recorded (pixels).
OUTSIDE = 1024
UNTITLED = "Untitled"
DIRTY_MARK = "• "

#: The palette: (name, colour).
COLORS = (
    ("Black", (0, 0, 0)),
    ("Gray", (127, 127, 127)),
    ("Dark Red", (136, 0, 21)),
    ("Red", (237, 28, 36)),
    ("Orange", (255, 127, 39)),
    ("Yellow", (255, 242, 0)),
    ("Green", (34, 177, 76)),
    ("Turquoise", (0, 162, 232)),
    ("Indigo", (63, 72, 204)),
    ("Purple", (163, 73, 164)),
    ("Brown", (185, 122, 87)),
    ("White", (255, 255, 255)),
)
#: The tools: (id, label, key).
TOOLS = (
    ("brush", "Brush", "b"),
    ("eraser", "Eraser", "e"),
    ("line", "Line", "l"),
    ("rectangle", "Rectangle", "r"),
    ("ellipse", "Ellipse", "o"),
    ("fill", "Fill", "f"),
    ("text", "Text", "t"),
)
#: Brush sizes in pixels.
SIZES = (2, 4, 8, 16)
#: The text size (px) each brush size gives.
TEXT_PX = {2: 16, 4: 24, 8: 36, 16: 56}
WHITE = (255, 255, 255, 255)
FONT_FILE = "Ubuntu-R.ttf"

TOOLBAR_H = 44
OPTIONS_H = 44
TOP = TOOLBAR_H + OPTIONS_H
STATUS_H = 26
MARGIN = 12
WORKSPACE = (202, 208, 218, 255)
FILE_BUTTONS = (
    ("new", "New"),
    ("save", "Save"),
    ("save-as", "Save As…"),
    ("undo", "Undo"),
    ("redo", "Redo"),
)
DIALOG_TARGETS = {
    "save-as": ("save-path", "save-cancel", "save-confirm"),
    "new": ("new-width", "new-height", "new-cancel", "new-confirm"),
    "close": ("close-cancel", "close-discard", "close-save"),
}


# -- rasterising ---------------------------------------------------------------------------


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _rgba(color: str) -> tuple[int, int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16), 255


def _pairs(points: list[int]) -> list[tuple[int, int]]:
    return list(zip(points[0::2], points[1::2]))


@functools.lru_cache(maxsize=16)
def _font(px: int) -> ImageFont.FreeTypeFont:
    """The bundled Ubuntu font at ``px`` (Pillow's basic layout: no host shaping library)."""
    data = load_font(FONT_FILE).data
    return ImageFont.truetype(io.BytesIO(data), px, layout_engine=ImageFont.Layout.BASIC)


def _box(points: list[int]) -> list[int]:
    x0, y0, x1, y1 = points[:4]
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


def draw_op(im: PILImage.Image, op: dict) -> None:
    """Apply one operation to ``im`` (RGBA) in place."""
    tool = op["tool"]
    color = _rgba(op["color"])
    size = op["size"]
    points = op["points"]
    d = ImageDraw.Draw(im)
    if tool in ("brush", "eraser"):
        # segment by segment with a round dot at every point (round ends and joins), all
        # integer geometry: no trigonometry whose last bit could differ between hosts
        xy = _pairs(points)
        for a, b in itertools.pairwise(xy):
            d.line([a, b], fill=color, width=size)
        lo = size // 2
        for x, y in xy:
            d.ellipse([x - lo, y - lo, x - lo + size - 1, y - lo + size - 1], fill=color)
    elif tool == "line":
        d.line(_pairs(points), fill=color, width=size)
    elif tool in ("rectangle", "ellipse"):
        box = _box(points)
        shape = d.rectangle if tool == "rectangle" else d.ellipse
        if op.get("filled"):
            shape(box, fill=color)
        else:
            shape(box, outline=color, width=size)
    elif tool == "fill":
        x, y = points[:2]
        if 0 <= x < im.width and 0 <= y < im.height:
            ImageDraw.floodfill(im, (x, y), color, thresh=0)
    elif tool == "text":
        d.text((points[0], points[1]), op["text"], fill=color, font=_font(TEXT_PX.get(size, 24)))


def _chain(previous: str, op: dict) -> str:
    """The hash naming the picture after ``op``, from the one before it."""
    body = json.dumps(
        {k: v for k, v in op.items() if k != "h"}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(f"{previous}|{body}".encode()).hexdigest()[:24]


_RASTERS = rs.Lru(128, 256 << 20)


def rasterise(base_key: Any, make_base: Any, ops: list[dict]) -> PILImage.Image:
    """The picture (RGBA) of ``ops`` applied to the base ``make_base()`` returns (called
    only on a cache miss); ``base_key`` names the base's content and size. Never mutate
    what it returns."""
    n = len(ops)
    k = n
    hit = None
    while k > 0:
        hit = _RASTERS.get((base_key, ops[k - 1]["h"]))
        if hit is not None:
            break
        k -= 1
    if k == 0:
        hit = _RASTERS.get((base_key, ""))
        if hit is None:
            hit = make_base()
            _RASTERS.put((base_key, ""), hit, hit.width * hit.height * 4)
    if k == n:
        return hit
    im = hit.copy()
    for i in range(k, n):
        draw_op(im, ops[i])
        if (i + 1) % CHECKPOINT == 0 and i + 1 < n:
            _RASTERS.put((base_key, ops[i]["h"]), im.copy(), im.width * im.height * 4)
    _RASTERS.put((base_key, ops[-1]["h"]), im, im.width * im.height * 4)
    return im


# -- geometry ------------------------------------------------------------------------------


def _area(width: int, height: int) -> Rect:
    return Rect(0, TOP, width, max(1, height - TOP - STATUS_H))


def _canvas_rect(width: int, height: int, cw: int, ch: int) -> Rect:
    area = _area(width, height)
    dw, dh = rs.fit(cw, ch, area.width - 2 * MARGIN, area.height - 2 * MARGIN)
    return Rect(area.x + MARGIN, area.y + MARGIN, dw, dh)


def _to_image(state: dict, rect: Rect, point: tuple[int, int]) -> tuple[int, int]:
    """A content point as picture pixel coordinates (kept near the canvas)."""
    w, h = state["width"], state["height"]
    x = (point[0] - rect.x) * w // rect.width
    y = (point[1] - rect.y) * h // rect.height
    return max(-OUTSIDE, min(w + OUTSIDE, x)), max(-OUTSIDE, min(h + OUTSIDE, y))


def _to_screen(state: dict, rect: Rect, x: int, y: int) -> tuple[int, int]:
    """Picture pixel coordinates as a point relative to the canvas's top-left corner."""
    return x * rect.width // state["width"], y * rect.height // state["height"]


def _toolbar() -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in FILE_BUTTONS:
        w = measure(label, "sans", 14) + 22
        out.append((name, label, Rect(x, 6, w, 32)))
        x += w + 4
    x += 14
    for tool, label, _key in TOOLS:
        w = measure(label, "sans", 14) + 22
        out.append((f"tool:{tool}", label, Rect(x, 6, w, 32)))
        x += w + 4
    return out


def _options() -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    y = TOOLBAR_H + 6
    for i, (name, _rgb) in enumerate(COLORS):
        out.append((f"color:{i}", name, Rect(x, y, 28, 32)))
        x += 30
    x += 16
    for size in SIZES:
        label = f"{size} px"
        w = measure(label, "sans", 13) + 18
        out.append((f"size:{size}", label, Rect(x, y, w, 32)))
        x += w + 4
    x += 16
    for name, label in (("shape:outline", "Outline"), ("shape:filled", "Filled")):
        w = measure(label, "sans", 13) + 22
        out.append((name, label, Rect(x, y, w, 32)))
        x += w + 4
    return out


def _dialog_rects(width: int, height: int, kind: str) -> tuple[Rect, dict[str, Rect]]:
    w = max(260, min(440, width - 40))
    h = {"save-as": 190, "new": 210, "close": 156}[kind]
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    controls: dict[str, Rect] = {}
    if kind == "save-as":
        controls["save-path"] = Rect(box.x + 16, box.y + 68, w - 32, 32)
        labels = (("save-cancel", "Cancel"), ("save-confirm", "Save"))
    elif kind == "new":
        half = (w - 48) // 2
        controls["new-width"] = Rect(box.x + 16, box.y + 68, half, 32)
        controls["new-height"] = Rect(box.x + 32 + half, box.y + 68, half, 32)
        labels = (("new-cancel", "Cancel"), ("new-confirm", "Create"))
    else:
        labels = sd.CLOSE_BUTTONS
    controls.update(sd.button_row(box, labels))
    return box, controls


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


def _shown_path(path: str, home: str) -> str:
    if path == home or path.startswith(home + "/"):
        return "~" + path[len(home) :]
    return path


def _dirty(state: dict) -> bool:
    return bool(state["ops"]) or bool(state["text"] and state["text"]["value"])


def _new_picture(width: int, height: int) -> dict[str, Any]:
    return {
        "path": None,
        "base": None,
        "width": width,
        "height": height,
        "alpha": False,
        "ops": [],
        "redo": [],
        "stroke": None,
        "text": None,
    }


class _Canvas:
    """What ``paint`` needs of the raster: the scene's pixels and a note on the base file."""

    __slots__ = ("note", "pixels")

    def __init__(self, pixels: Any, note: str) -> None:
        self.pixels = pixels
        self.note = note


class Paint(App):
    id = "paint"
    label = "Paint"
    default_size = (1000, 700)
    min_size = (760, 460)
    focus_keys = ("focus",)

    # -- lifecycle -----------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        label = ctx.theme.label(self.id, self.label) if ctx.theme is not None else self.label
        state: dict[str, Any] = {
            "label": label,
            **_new_picture(*NEW_SIZE),
            "tool": "brush",
            "color": 0,
            "size": 4,
            "filled": False,
            "dialog": None,
            "focus": "canvas",
            "status": "",
            "error": "",
        }
        if not argument:
            return state
        path = _resolve(argument, ctx.home, ctx.cwd)
        fs = ctx.files()
        if fs.is_dir(path, ctx.home):
            raise AppError(f"{argument}: Is a directory")
        if not fs.exists(path, ctx.home):
            if rs.format_for(path) is None:
                raise AppError(f"{argument}: Paint saves PNG or JPEG files (.png, .jpg, .jpeg)")
            state["path"] = path
            return state
        try:
            pic = rs.load(fs, path, ctx.home)
        except (FsError, rs.RasterError):
            state["error"] = f"Could not load image: {posixpath.basename(path)}"
            return state
        state.update(path=path, base=path, width=pic.width, height=pic.height, alpha=pic.alpha)
        add_recent(ctx.machine, path, self.id)
        return state

    def title(self, state: dict) -> str:
        name = posixpath.basename(state["path"]) if state["path"] else UNTITLED
        return f"{DIRTY_MARK if _dirty(state) else ''}{name} — {state['label']}"

    def document(self, state: dict) -> str:
        return state["path"] or ""

    # -- the raster ------------------------------------------------------------------------
    def _raster(self, ctx: AppContext, state: dict) -> tuple[Any, PILImage.Image, str]:
        """(the raster's key, the raster, a note when the base file cannot be read)."""
        size = (state["width"], state["height"])
        note = ""
        base_key: Any = ("blank", size)
        pic = None
        if state["base"]:
            try:
                pic = rs.load(ctx.files(), state["base"], ctx.home)
                base_key = (pic.digest, size)
            except (FsError, rs.RasterError):
                note = f"“{posixpath.basename(state['base'])}” can no longer be read: drawing on white."

        def make_base() -> PILImage.Image:
            canvas = PILImage.new("RGBA", size, WHITE)
            if pic is not None:
                pixels = rs.to_rgba(pic.image)
                if pixels.size == size:
                    return pixels.copy()
                canvas.paste(pixels, (0, 0))
            return canvas

        ops = state["ops"]
        raster = rasterise(base_key, make_base, ops)
        return (base_key, ops[-1]["h"] if ops else ""), raster, note

    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        key, raster, note = self._raster(ctx, state)
        rect = _canvas_rect(ctx.width, ctx.height, state["width"], state["height"])
        prim = rs.scene_image(key, raster, rect.width, rect.height)
        return rs.Held((key, rect, note), _Canvas(prim, note))

    # -- operations ------------------------------------------------------------------------
    def _push(self, state: dict, op: dict) -> None:
        """Add an operation (refused past :data:`MAX_OPS`)."""
        if len(state["ops"]) >= MAX_OPS:
            raise InvalidInput(f"a picture holds at most {MAX_OPS} operations until it is saved")
        previous = state["ops"][-1]["h"] if state["ops"] else ""
        op["h"] = _chain(previous, op)
        state["ops"] = [*state["ops"], op]
        state["redo"] = []
        state["status"] = ""

    def _room(self, state: dict) -> None:
        if len(state["ops"]) >= MAX_OPS:
            raise InvalidInput(f"a picture holds at most {MAX_OPS} operations until it is saved")

    def _commit_text(self, state: dict) -> None:
        pending = state["text"]
        if pending is None:
            return
        if pending["value"]:
            self._push(
                state,
                {
                    "tool": "text",
                    "color": pending["color"],
                    "size": pending["size"],
                    "points": list(pending["at"]),
                    "text": pending["value"],
                },
            )
        state["text"] = None

    def _undo(self, state: dict) -> None:
        if state["text"] is not None:
            state["text"] = None
            return
        if state["stroke"] is not None:
            state["stroke"] = None
            return
        if state["ops"]:
            state["redo"] = [*state["redo"], state["ops"][-1]]
            state["ops"] = state["ops"][:-1]

    def _redo(self, state: dict) -> None:
        if state["redo"] and state["text"] is None and state["stroke"] is None:
            self._room(state)
            state["ops"] = [*state["ops"], state["redo"][-1]]
            state["redo"] = state["redo"][:-1]

    # -- saving ----------------------------------------------------------------------------
    def _write(self, ctx: AppContext, state: dict, path: str) -> str | None:
        """Write the picture to ``path``; the reason it failed, or ``None``."""
        self._commit_text(state)
        _key, raster, _note = self._raster(ctx, state)
        fmt = rs.format_for(path) or "PNG"
        im = raster if state["alpha"] or fmt == "JPEG" else raster.convert("RGB")
        data = rs.encode(im, fmt)
        try:
            ctx.files().write(path, ctx.home, data)
        except FsError as exc:
            return exc.strerror_text
        state.update(
            path=path,
            base=path,
            ops=[],
            redo=[],
            stroke=None,
            text=None,
            status=f"Saved “{posixpath.basename(path)}”.",
            error="",
        )
        add_recent(ctx.machine, path, self.id)
        return None

    def _save(self, ctx: AppContext, state: dict, then: str | None = None) -> bool:
        if state["path"] is None:
            self._open_save_as(ctx, state, then)
            return False
        problem = self._write(ctx, state, state["path"])
        if problem is not None:
            state["error"] = f"Could not save “{posixpath.basename(state['path'])}”: {problem}"
            return False
        return True

    def _open_save_as(self, ctx: AppContext, state: dict, then: str | None = None) -> None:
        if state["path"]:
            shown = _shown_path(state["path"], ctx.home)
        else:
            pictures = f"{ctx.home}/Pictures"
            folder = pictures if ctx.files().is_dir(pictures, ctx.home) else ctx.home
            shown = _shown_path(f"{folder}/{UNTITLED}.png", ctx.home)
        state["dialog"] = {
            "kind": "save-as",
            "path": tp.field(shown, select=True),
            "error": "",
            "then": then,
        }
        state["focus"] = "save-path"

    def _confirm_save_as(self, ctx: AppContext, state: dict) -> None:
        dialog = state["dialog"]
        raw = dialog["path"]["text"].strip()
        if not raw or raw.endswith("/"):
            dialog["error"] = "Type a file name, like ~/Pictures/drawing.png."
            return
        path = _resolve(raw, ctx.home, ctx.home)
        base = posixpath.basename(path)
        if "." not in base.lstrip("."):
            path += ".png"
        elif rs.format_for(path) is None:
            dialog["error"] = "Paint saves PNG or JPEG files: end the name in .png, .jpg or .jpeg."
            return
        folder = posixpath.dirname(path)
        if not ctx.files().is_dir(folder, ctx.home):
            dialog["error"] = f"There is no folder “{_shown_path(folder, ctx.home)}”."
            return
        if ctx.files().is_dir(path, ctx.home):
            dialog["error"] = f"“{posixpath.basename(path)}” is a folder."
            return
        problem = self._write(ctx, state, path)
        if problem is not None:
            dialog["error"] = f"Could not save “{posixpath.basename(path)}”: {problem}"
            return
        state["dialog"] = None
        state["focus"] = "canvas"
        if dialog["then"] == "close":
            ctx.close()

    def _open_new(self, state: dict) -> None:
        state["dialog"] = {
            "kind": "new",
            "width": tp.field(str(NEW_SIZE[0]), select=True),
            "height": tp.field(str(NEW_SIZE[1])),
            "error": "",
        }
        state["focus"] = "new-width"

    def _confirm_new(self, state: dict) -> None:
        dialog = state["dialog"]
        try:
            w = int(dialog["width"]["text"].strip())
            h = int(dialog["height"]["text"].strip())
        except ValueError:
            dialog["error"] = "Width and height are whole numbers of pixels."
            return
        if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE) or w * h > rs.MAX_PIXELS:
            dialog["error"] = f"Width and height are 1 to {MAX_SIDE} pixels."
            return
        state.update(_new_picture(w, h))
        state.update(dialog=None, focus="canvas", status="", error="")

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        if not _dirty(state):
            return True
        if state["dialog"] is None:
            state["dialog"] = {"kind": "close"}
            state["focus"] = "canvas"
        return False

    def _request_close(self, ctx: AppContext, state: dict) -> None:
        if self.can_close(ctx, state):
            ctx.close()

    def _dialog_control(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> None:
        dialog = state["dialog"]
        kind = dialog["kind"]
        if target in ("save-path", "new-width", "new-height"):
            state["focus"] = target
            f = dialog[target.split("-", 1)[1]]
            if point is not None:
                _box, controls = _dialog_rects(ctx.width, ctx.height, kind)
                f["caret"] = tp.field_index(f, controls[target], point[0])
                f["anchor"] = None
        elif target in ("save-cancel", "new-cancel", "close-cancel"):
            state["dialog"], state["focus"] = None, "canvas"
        elif target == "save-confirm":
            self._confirm_save_as(ctx, state)
        elif target == "new-confirm":
            self._confirm_new(state)
        elif target == "close-discard":
            state["dialog"] = None
            ctx.close()
        elif target == "close-save":
            state["dialog"] = None
            if self._save(ctx, state, then="close"):
                ctx.close()

    # -- pointer ---------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        dialog = state["dialog"]
        if dialog is not None:
            if target not in DIALOG_TARGETS[dialog["kind"]]:
                raise UnknownTarget(target)
            self._dialog_control(ctx, state, target, point)
            return None
        if target == "canvas":
            state["focus"] = "canvas"
            return None
        if target in ("new", "save", "save-as", "undo", "redo"):
            if target == "new":
                self._open_new(state)
            elif target == "save":
                self._save(ctx, state)
            elif target == "save-as":
                self._open_save_as(ctx, state)
            elif target == "undo":
                self._undo(state)
            else:
                self._redo(state)
            return None
        kind, _, arg = target.partition(":")
        if kind == "tool" and arg in {t for t, _l, _k in TOOLS}:
            self._choose_tool(state, arg)
        elif kind == "color" and arg.isdigit() and int(arg) < len(COLORS) and arg == str(int(arg)):
            state["color"] = int(arg)
        elif kind == "size" and arg in {str(s) for s in SIZES}:
            state["size"] = int(arg)
        elif kind == "shape" and arg in ("outline", "filled"):
            state["filled"] = arg == "filled"
        else:
            raise UnknownTarget(target)
        return None

    def _choose_tool(self, state: dict, tool: str) -> None:
        if tool != "text":
            self._commit_text(state)
        state["tool"] = tool
        state["stroke"] = None

    def is_drag_surface(self, target: str, button: int) -> bool:
        return target == "canvas" and button == 0

    def cursor(self, target: str) -> str | None:
        return "crosshair" if target == "canvas" else None

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
        if target != "canvas" or state["dialog"] is not None:
            return
        if phase == "cancel":
            state["stroke"] = None
            return
        rect = _canvas_rect(ctx.width, ctx.height, state["width"], state["height"])
        x, y = _to_image(state, rect, point)
        tool = state["tool"]
        color = _hex(COLORS[state["color"]][1])
        if phase == "down":
            inside = 0 <= x < state["width"] and 0 <= y < state["height"]
            state["focus"] = "canvas"
            if tool == "text":
                pending = state["text"]
                if pending is not None and pending["value"]:
                    self._room(state)
                if inside:
                    self._commit_text(state)
                    state["text"] = {
                        "at": [x, y],
                        "value": "",
                        "color": color,
                        "size": state["size"],
                    }
                return
            self._room(state)
            self._commit_text(state)
            if tool == "fill":
                if inside:
                    self._push(
                        state,
                        {"tool": "fill", "color": color, "size": state["size"], "points": [x, y]},
                    )
                return
            op: dict[str, Any] = {
                "tool": tool,
                "color": "#ffffff" if tool == "eraser" else color,
                "size": state["size"],
            }
            if tool in ("rectangle", "ellipse"):
                op["filled"] = state["filled"]
            op["points"] = [x, y] if tool in ("brush", "eraser") else [x, y, x, y]
            state["stroke"] = op
            return
        stroke = state["stroke"]
        if stroke is None:
            return
        if stroke["tool"] in ("brush", "eraser"):
            pts = stroke["points"]
            if (pts[-2], pts[-1]) != (x, y):
                if len(pts) // 2 >= MAX_POINTS:
                    if phase == "move":
                        raise InvalidInput(f"a stroke holds at most {MAX_POINTS} points")
                else:
                    stroke["points"] = [*pts, x, y]
        else:
            stroke["points"] = [*stroke["points"][:2], x, y]
        if phase == "up":
            state["stroke"] = None
            pts = stroke["points"]
            if stroke["tool"] in ("brush", "eraser") or (pts[0], pts[1]) != (pts[2], pts[3]):
                self._push(state, stroke)

    # -- keys ------------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        dialog = state["dialog"]
        if dialog is not None:
            return self._dialog_key(ctx, state, chord)
        if ctx.pressed(chord, "Primary+z"):
            self._undo(state)
            return True
        if ctx.pressed(chord, "Primary+y", "Primary+Shift+z"):
            self._redo(state)
            return True
        if ctx.pressed(chord, "Primary+s"):
            self._save(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+Shift+s"):
            self._open_save_as(ctx, state)
            return True
        if ctx.pressed(chord, "Primary+n"):
            self._open_new(state)
            return True
        if ctx.pressed(chord, "Primary+w"):
            self._request_close(ctx, state)
            return True
        pending = state["text"]
        if pending is not None:
            if name == "Enter":
                self._commit_text(state)
                return True
            if name == "Escape":
                state["text"] = None
                return True
            if name == "Backspace":
                pending["value"] = pending["value"][:-1]
                return True
            if chord.char is not None:
                self._type_text(state, chord.char)
                return True
            return False
        if name == "Escape" and state["stroke"] is not None:
            state["stroke"] = None
            return True
        if chord.modifiers:
            return False
        tools = {k: t for t, _l, k in TOOLS}
        if chord.key in tools:
            self._choose_tool(state, tools[chord.key])
            return True
        if chord.key in ("1", "2", "3", "4"):
            state["size"] = SIZES[int(chord.key) - 1]
            return True
        if chord.key in ("[", "]"):
            state["color"] = (state["color"] + (1 if chord.key == "]" else -1)) % len(COLORS)
            return True
        if chord.key == "m":
            state["filled"] = not state["filled"]
            return True
        return False

    def _dialog_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        dialog = state["dialog"]
        kind = dialog["kind"]
        name = chord.name
        if name == "Escape":
            state["dialog"], state["focus"] = None, "canvas"
            return True
        if kind == "close":
            if name == "Enter":
                self._dialog_control(ctx, state, "close-save", None)
                return True
            return name in ("Tab", "Shift+Tab")
        if name == "Enter":
            (self._confirm_save_as if kind == "save-as" else lambda c, s: self._confirm_new(s))(
                ctx, state
            )
            return True
        if name in ("Tab", "Shift+Tab"):
            if kind == "new":
                state["focus"] = "new-height" if state["focus"] == "new-width" else "new-width"
                tp.field_select_all(dialog[state["focus"].split("-", 1)[1]])
            return True
        f = self._dialog_field(state)
        if f is not None and tp.field_key(ctx, f, chord):
            dialog["error"] = ""
            return True
        return False

    def _dialog_field(self, state: dict) -> dict | None:
        dialog = state["dialog"]
        if dialog is None or dialog["kind"] == "close":
            return None
        if dialog["kind"] == "save-as":
            return dialog["path"]
        return dialog["height" if state["focus"] == "new-height" else "width"]

    def _type_text(self, state: dict, text: str) -> None:
        pending = state["text"]
        text = "".join(ch for ch in text if ch.isprintable())
        if len(pending["value"]) + len(text) > MAX_TEXT:
            raise InvalidInput(f"a text holds at most {MAX_TEXT} characters")
        pending["value"] += text

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        dialog = state["dialog"]
        if dialog is not None:
            f = self._dialog_field(state)
            if f is None:
                return False
            tp.field_type(f, text)
            dialog["error"] = ""
            return True
        if state["text"] is None:
            return False
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        line, newline, _rest = text.partition("\n")
        if (
            len(state["text"]["value"]) + len("".join(ch for ch in line if ch.isprintable()))
            > MAX_TEXT
        ):
            raise InvalidInput(f"a text holds at most {MAX_TEXT} characters")
        if newline:
            self._room(state)
        self._type_text(state, line)
        if newline:
            self._commit_text(state)
        return True

    # -- painting --------------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        canvas: _Canvas = key.value
        p.reuse(
            (
                "paint-bars",
                state["tool"],
                state["color"],
                state["size"],
                state["filled"],
                bool(state["ops"]) or state["text"] is not None or state["stroke"] is not None,
                bool(state["redo"]),
                _dirty(state),
            ),
            _paint_bars,
            state,
        )
        area = _area(p.width, p.height)
        p.box(area, WORKSPACE, key="workspace")
        rect = _canvas_rect(p.width, p.height, state["width"], state["height"])
        p.paint(Box((0, 0, 0, 40)), rect.translate(2, 2), key="canvas-shadow")
        name = posixpath.basename(state["path"]) if state["path"] else UNTITLED
        p.paint(
            canvas.pixels,
            rect,
            key="canvas",
            target="canvas",
            semantic=Semantic("canvas", name, f"{state['width']} × {state['height']}", False, True),
            state=NodeState(focused=state["focus"] == "canvas" and state["dialog"] is None),
        )
        self._paint_preview(p, state, rect)
        # the status bar
        st = Rect(0, p.height - STATUS_H, p.width, STATUS_H)
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        ty = st.y + (STATUS_H - line_height("sans", 13)) // 2
        dims = f"{state['width']} × {state['height']} px"
        dw = measure(dims, "sans", 13)
        p.text(dims, st.right - dw - 12, ty, size=13, color=pal["muted"], key="dims")
        tool_label = next(label for t, label, _k in TOOLS if t == state["tool"])
        parts = [tool_label, f"{state['size']} px", COLORS[state["color"]][0]]
        if state["tool"] in ("rectangle", "ellipse"):
            parts.append("Filled" if state["filled"] else "Outline")
        message = state["error"] or canvas.note or state["status"] or " · ".join(parts)
        p.text(
            message,
            10,
            ty,
            size=13,
            color=ERROR if (state["error"] or canvas.note) else pal["muted"],
            width=max(0, st.width - dw - 40),
            key="status",
        )
        if state["error"]:
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(10, ty, 1, 1),
                key="status-alert",
                semantic=Semantic("alert", state["error"]),
            )
        if state["dialog"] is not None:
            self._paint_dialog(p, state)

    def _paint_preview(self, p: Painter, state: dict, rect: Rect) -> None:
        """The stroke being drawn and the text being typed, as vectors over the raster."""
        stroke = state["stroke"]
        if stroke is not None:
            color = _rgba(stroke["color"])
            width = max(1, stroke["size"] * rect.width // state["width"])
            pts = [_to_screen(state, rect, x, y) for x, y in _pairs(stroke["points"])]
            if stroke["tool"] in ("brush", "eraser", "line"):
                cmds: list[tuple] = [("M", *pts[0])] + [("L", *q) for q in pts[1:]]
                if len(pts) == 1:
                    cmds.append(("L", *pts[0]))
                path = Path(tuple(cmds), None, color, width)
            else:
                x0, y0 = min(pts[0][0], pts[1][0]), min(pts[0][1], pts[1][1])
                x1, y1 = max(pts[0][0], pts[1][0]), max(pts[0][1], pts[1][1])
                if stroke["tool"] == "rectangle":
                    cmds = [("M", x0, y0), ("L", x1, y0), ("L", x1, y1), ("L", x0, y1), ("Z",)]
                else:
                    cx, cy, rx, ry = (x0 + x1) // 2, (y0 + y1) // 2, (x1 - x0) // 2, (y1 - y0) // 2
                    kx, ky = rx * 552 // 1000, ry * 552 // 1000
                    cmds = [
                        ("M", cx + rx, cy),
                        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
                        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
                        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
                        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
                        ("Z",),
                    ]
                filled = stroke.get("filled")
                path = Path(
                    tuple(cmds), color if filled else None, None if filled else color, width
                )
            with p.clipped(rect):
                p.paint(path, rect, key="preview")
        pending = state["text"]
        if pending is not None:
            px = max(6, TEXT_PX.get(pending["size"], 24) * rect.width // state["width"])
            x, y = _to_screen(state, rect, *pending["at"])
            value = pending["value"]
            h = line_height("sans", px)
            w = measure(value, "sans", px) if value else 0
            box = Rect(rect.x + x - 2, rect.y + y - 2, max(w, 8) + 6, h + 4)
            with p.clipped(rect):
                p.paint(Box((0, 0, 0, 0), (0, 120, 215, 255), 1), box, key="text-box")
                if value:
                    p.paint(
                        Text(value, px, _rgba(pending["color"]), "sans"),
                        Rect(rect.x + x, rect.y + y, w, h),
                        key="text-preview",
                    )
            caret = Rect(min(rect.x + x + w, rect.right - 1), rect.y + y, 1, h)
            p.paint(
                Box(_rgba(pending["color"])), caret, key="text-caret", clip=rect, target="canvas"
            )
            if state["dialog"] is None:
                p.focus(
                    "canvas",
                    role="textbox",
                    label="Text",
                    value=value,
                    caret=caret,
                    column=len(value),
                    offset=len(value),
                    text_entry=True,
                )

    def _paint_dialog(self, p: Painter, state: dict) -> None:
        pal = p.palette
        dialog = state["dialog"]
        kind = dialog["kind"]
        p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="scrim")
        box, controls = _dialog_rects(p.width, p.height, kind)
        title = {"save-as": "Save As", "new": "New Image", "close": "Save Changes?"}[kind]
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="dialog",
            semantic=Semantic("dialog", title),
        )
        h = line_height("sans-bold", 15)
        p.paint(
            UiTextBold(title, 15, pal["text"]),
            Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), h),
            key="dialog-title",
        )
        if kind == "save-as":
            p.text(
                "File (PNG or JPEG)",
                box.x + 16,
                box.y + 46,
                size=13,
                color=pal["muted"],
                key="label-path",
            )
            tp.paint_field(
                p,
                "save-path",
                dialog["path"],
                controls["save-path"],
                label="File",
                focused=state["focus"] == "save-path",
            )
            confirm = ("save-cancel", "Cancel"), ("save-confirm", "Save")
        elif kind == "new":
            p.text(
                "Width (px)",
                controls["new-width"].x,
                box.y + 46,
                size=13,
                color=pal["muted"],
                key="label-width",
            )
            p.text(
                "Height (px)",
                controls["new-height"].x,
                box.y + 46,
                size=13,
                color=pal["muted"],
                key="label-height",
            )
            tp.paint_field(
                p,
                "new-width",
                dialog["width"],
                controls["new-width"],
                label="Width",
                focused=state["focus"] == "new-width",
            )
            tp.paint_field(
                p,
                "new-height",
                dialog["height"],
                controls["new-height"],
                label="Height",
                focused=state["focus"] == "new-height",
            )
            if _dirty(state):
                p.text(
                    "The current picture's unsaved changes will be lost.",
                    box.x + 16,
                    box.y + 110,
                    size=13,
                    color=pal["muted"],
                    width=box.width - 32,
                    key="new-note",
                )
            confirm = ("new-cancel", "Cancel"), ("new-confirm", "Create")
        else:
            name = posixpath.basename(state["path"]) if state["path"] else UNTITLED
            p.text(
                f"“{name}” has unsaved changes. Save them before closing?",
                box.x + 16,
                box.y + 48,
                size=13,
                width=box.width - 32,
                key="dialog-text",
            )
            confirm = (
                ("close-cancel", "Cancel"),
                ("close-discard", "Discard"),
                ("close-save", "Save"),
            )
        if dialog.get("error"):
            p.text(
                dialog["error"],
                box.x + 16,
                box.bottom - 78,
                size=13,
                color=ERROR,
                width=box.width - 32,
                key="dialog-error",
            )
        for i, (target, label) in enumerate(confirm):
            last = i == len(confirm) - 1
            p.button(
                target, label, controls[target], suggested=last, focused=last and kind == "close"
            )
        if kind == "close":
            p.focus("close-save", role="button", label="Save")


def _paint_bars(p: Painter, state: dict) -> None:
    """The toolbar (file commands and tools) and the options bar (palette, sizes, fill)."""
    pal = p.palette
    header = pal.get("header", pal["button"])
    p.box(Rect(0, 0, p.width, TOP), header, key="bars")
    p.paint(Box(pal["border"]), Rect(0, TOP - 1, p.width, 1), key="bars-line")
    can_undo = bool(state["ops"]) or state["text"] is not None or state["stroke"] is not None
    for name, label, rect in _toolbar():
        if name.startswith("tool:"):
            _choice(p, name, label, rect, state["tool"] == name[5:])
        else:
            disabled = (name == "undo" and not can_undo) or (name == "redo" and not state["redo"])
            p.button(
                name, label, rect, disabled=disabled, suggested=name == "save" and _dirty(state)
            )
    for name, label, rect in _options():
        kind, _, arg = name.partition(":")
        if kind == "color":
            i = int(arg)
            chosen = state["color"] == i
            p.paint(
                RoundedBox(
                    pal["selection"] if chosen else header,
                    5,
                    pal["accent"] if chosen else header,
                    2 if chosen else 0,
                ),
                rect,
                key=("swatch-bg", name),
                target=name,
                semantic=Semantic("radio", label, None, False, True),
                state=NodeState(checked=chosen),
            )
            p.paint(
                Box((*COLORS[i][1], 255), pal["border"], 1),
                Rect(rect.x + 4, rect.y + 6, rect.width - 8, rect.height - 12),
                key=("swatch", name),
                target=name,
            )
        elif kind == "size":
            _choice(p, name, label, rect, state["size"] == int(arg), size=13)
        else:
            _choice(p, name, label, rect, state["filled"] == (arg == "filled"), size=13)


def _choice(
    p: Painter, name: str, label: str, rect: Rect, checked: bool, *, size: int = 14
) -> None:
    """A radio-like toolbar button: checked shows as selected."""
    pal = p.palette
    p.paint(
        RoundedBox(
            pal["selection"] if checked else pal["button"],
            6,
            pal["accent"] if checked else pal["border"],
            1,
        ),
        rect,
        key=("choice", name),
        target=name,
        semantic=Semantic("radio", label, None, False, True),
        state=NodeState(checked=checked),
    )
    w = measure(label, "sans", size)
    h = line_height("sans", size)
    p.paint(
        UiText(label, size, pal["text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("choice-label", name),
        target=name,
    )


register(Paint())
