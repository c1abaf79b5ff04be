"""``image``: a PNG or JPEG file shows what is expected.

The file is decoded with Pillow from its bytes (never a host file) and read as straight
RGBA; a file that is not a PNG or JPEG picture, or is damaged, fails the check with that
reason. Every field but ``path`` is optional and each one given must hold:

* ``format``: ``"PNG"`` or ``"JPEG"``, what the bytes are (whatever the name says);
* ``width``, ``height``: the size in pixels;
* ``pixels``: ``{"at": [x, y], "color": "#rrggbb", "tolerance": 0}``, the pixel at
  ``(x, y)`` (from the top-left corner) is that colour;
* ``colors``: ``{"color": ..., "tolerance": 0, "box": [x0, y0, x1, y1], "min_share": ...,
  "max_share": 1, "rectangle": false, "min_width": ..., "min_height": ...}``: of the
  pixels in ``box`` (right and bottom edges excluded; the whole picture by default), the
  share near the colour lies in ``[min_share, max_share]`` (without ``min_share``: at least
  one pixel, unless ``"max_share": 0``, which means none); with ``rectangle`` those pixels fill one
  rectangle exactly, and ``min_width``/``min_height`` are the least size of the rectangle
  they span;
* ``equals``: ``{"path": ...}`` or ``{"content": "data:image/png;base64,..."}`` (a data URL,
  as a setup file's ``content``), with ``rotate`` (0, 90, 180 or 270: the reference turned
  that many degrees clockwise first, so 90 is the Image Viewer's Rotate Right) and
  ``tolerance``: the pictures have the same size and their mean absolute difference, over
  every pixel's red, green, blue and alpha, is at most ``tolerance`` (0 to 255; 0 means the
  same pixels).

A colour is ``#rrggbb`` (opaque) or ``#rrggbbaa``; a pixel is near it when each of its four
channels is within ``tolerance`` (0 to 255) of the colour's. Whole numbers (``width``,
``at``, ``box``...) may be one ``{{#name}}`` placeholder. Decoding is deterministic: the
same PNG or JPEG bytes give the same pixels on every host.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct
from PIL import Image as PILImage
from PIL import ImageChops

from cwgym.procedures.checks import CheckKind, CheckResult, register
from cwgym.procedures.files import read_file
from cwgym.procedures.template import TOKEN, TemplateError, parse_ref
from cwgym.protocol.definition import DefinitionError, file_bytes

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine

#: The formats a picture may be in, as Pillow names them.
FORMATS = ("PNG", "JPEG")
#: The largest file decoded (bytes), as the image applications.
MAX_FILE_BYTES = 32 << 20
#: The largest picture decoded: this many pixels at most, and no side longer than MAX_SIDE.
MAX_PIXELS = 4096 * 4096
MAX_SIDE = 8192
#: The turns ``equals`` knows, in degrees clockwise, and Pillow's transpose for each
#: (Pillow turns counter-clockwise).
TURNS = {
    0: None,
    90: PILImage.Transpose.ROTATE_270,
    180: PILImage.Transpose.ROTATE_180,
    270: PILImage.Transpose.ROTATE_90,
}

#: A whole number, or one ``{{#name}}`` placeholder that becomes one.
Whole = int | str

_COLOR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


class PixelAt(Struct, forbid_unknown_fields=True, kw_only=True):
    """The pixel at ``at`` (``[x, y]``) is near ``color``."""

    at: list[Whole]
    color: str
    tolerance: int = 0


class ColorIn(Struct, forbid_unknown_fields=True, kw_only=True):
    """How many pixels of ``box`` are near ``color``, and the shape they make."""

    color: str
    tolerance: int = 0
    box: list[Whole] | None = None
    min_share: float | None = None
    max_share: float = 1.0
    rectangle: bool = False
    min_width: Whole | None = None
    min_height: Whole | None = None


class SameAs(Struct, forbid_unknown_fields=True, kw_only=True):
    """Another picture (a file, or a data URL) turned ``rotate`` degrees clockwise."""

    path: str | None = None
    content: str | None = None
    rotate: int = 0
    tolerance: float = 0.0


class ImageCheck(Struct, forbid_unknown_fields=True, kw_only=True):
    """What the picture at ``path`` must be and show (see the module notes)."""

    path: str
    format: str | None = None
    width: Whole | None = None
    height: Whole | None = None
    pixels: list[PixelAt] = []
    colors: list[ColorIn] = []
    equals: SameAs | None = None


# -- reading a procedure -------------------------------------------------------------------


def is_template(text: str) -> bool:
    """Whether ``text`` holds a placeholder (checked once it is filled, not now)."""
    return TOKEN.search(text) is not None


def whole_problem(value: Any, least: int = 0) -> str | None:
    """Why ``value`` is not a whole number of at least ``least`` nor one ``{{#name}}``."""
    if isinstance(value, int):
        return None if value >= least else f"must be {least} or more, got {value}"
    whole = TOKEN.fullmatch(value)
    try:
        ref = parse_ref(whole[1]) if whole else None
    except TemplateError as exc:
        return str(exc)
    if ref is None or not ref.numeric:
        return f"is a whole number or one {{{{#name}}}} placeholder, got {value!r}"
    return None


def color_problem(text: str) -> str | None:
    if is_template(text) or _COLOR.match(text):
        return None
    return f"a colour is '#rrggbb' or '#rrggbbaa', got {text!r}"


def tolerance_problem(value: float) -> str | None:
    return None if 0 <= value <= 255 else f"a tolerance is 0 to 255, got {value}"


def box_problem(box: list[Any]) -> str | None:
    if len(box) != 4:
        return "a box is [x0, y0, x1, y1]"
    for value in box:
        problem = whole_problem(value)
        if problem:
            return f"each corner {problem}"
    if all(isinstance(v, int) for v in box) and not (box[0] < box[2] and box[1] < box[3]):
        return "a box is [x0, y0, x1, y1] with x0 < x1 and y0 < y1 (x1 and y1 are excluded)"
    return None


def problems(payload: ImageCheck) -> Iterator[tuple[str, str]]:
    if not payload.path:
        yield "path", "the path is empty"
    if payload.format is not None and payload.format not in FORMATS:
        yield "format", f"the format is one of {', '.join(FORMATS)}, got {payload.format!r}"
    for name in ("width", "height"):
        value = getattr(payload, name)
        problem = None if value is None else whole_problem(value, 1)
        if problem:
            yield name, f"{name} {problem}"
    for index, pixel in enumerate(payload.pixels):
        where = f"pixels[{index}]"
        if len(pixel.at) != 2:
            yield f"{where}.at", "a point is [x, y]"
        for value in pixel.at:
            problem = whole_problem(value)
            if problem:
                yield f"{where}.at", f"a coordinate {problem}"
        yield from _colour_problems(where, pixel.color, pixel.tolerance)
    for index, area in enumerate(payload.colors):
        yield from _area_problems(f"colors[{index}]", area)
    if payload.equals is not None:
        yield from _same_problems(payload.equals)


def _colour_problems(where: str, color: str, tolerance: float) -> Iterator[tuple[str, str]]:
    problem = color_problem(color)
    if problem:
        yield f"{where}.color", problem
    problem = tolerance_problem(tolerance)
    if problem:
        yield f"{where}.tolerance", problem


def _area_problems(where: str, area: ColorIn) -> Iterator[tuple[str, str]]:
    yield from _colour_problems(where, area.color, area.tolerance)
    problem = None if area.box is None else box_problem(area.box)
    if problem:
        yield f"{where}.box", problem
    for name in ("min_share", "max_share"):
        value = getattr(area, name)
        if value is not None and not 0 <= value <= 1:
            yield f"{where}.{name}", f"a share is 0 to 1, got {value}"
    if area.min_share is not None and area.min_share > area.max_share:
        yield f"{where}.min_share", "min_share is more than max_share"
    for name in ("min_width", "min_height"):
        value = getattr(area, name)
        problem = None if value is None else whole_problem(value, 1)
        if problem:
            yield f"{where}.{name}", f"{name} {problem}"


def _same_problems(same: SameAs) -> Iterator[tuple[str, str]]:
    if (same.path is None) == (same.content is None):
        yield "equals", "equals names exactly one of path or content"
    if same.path is not None and not same.path:
        yield "equals.path", "the path is empty"
    if same.content is not None and not is_template(same.content):
        problem = content_problem(same.content)
        if problem:
            yield "equals.content", problem
    if same.rotate not in TURNS:
        yield "equals.rotate", f"rotate is 0, 90, 180 or 270 (degrees clockwise), got {same.rotate}"
    problem = tolerance_problem(same.tolerance)
    if problem:
        yield "equals.tolerance", problem


def content_problem(content: str) -> str | None:
    """Why ``content`` is not a base64 data URL, or ``None``."""
    if not content.startswith("data:") or ";base64," not in content:
        return "content is a data URL (data:image/png;base64,...)"
    try:
        file_bytes(content)
    except DefinitionError:
        return "content is a data URL whose base64 payload does not decode"
    return None


# -- judging a world -----------------------------------------------------------------------


class Unreadable(Exception):
    """A picture that cannot be judged (the message says why)."""


def decode(data: bytes) -> tuple[PILImage.Image, str]:
    """The picture in ``data`` as straight RGBA, and its format.

    Raises:
        Unreadable: not a PNG or JPEG picture, damaged, or too large.
    """
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(f"the file is larger than {MAX_FILE_BYTES >> 20} MiB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            im = PILImage.open(io.BytesIO(data), formats=FORMATS)
            width, height = im.size
            if width * height > MAX_PIXELS or width > MAX_SIDE or height > MAX_SIDE:
                raise Unreadable(f"the picture is larger than {MAX_PIXELS} pixels")
            im.load()
    except Unreadable:
        raise
    except Exception:  # Pillow raises many kinds for a damaged file
        raise Unreadable("the file is not a PNG or JPEG picture, or it is damaged") from None
    if width < 1 or height < 1:
        raise Unreadable("the picture has no pixels")
    return rgba(im), im.format


def rgba(im: PILImage.Image) -> PILImage.Image:
    """``im`` in straight RGBA (a 16-bit or float grey picture scaled to 8 bits)."""
    if im.mode == "RGBA":
        return im
    if im.mode.startswith("I;16"):
        im = im.convert("I")
    if im.mode == "I":  # 16-bit grey: keep the high byte
        im = im.point(lambda v: v * (1 / 257)).convert("L")
    elif im.mode == "F":
        im = im.convert("L")
    return im.convert("RGBA")


def whole(value: Any, what: str) -> int:
    """A filled whole number; :class:`Unreadable` when the placeholder gave something else."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable(f"{what} is not a whole number: {value!r}")
    return value


def colour(text: Any) -> tuple[int, int, int, int]:
    """``#rrggbb`` or ``#rrggbbaa`` as RGBA; :class:`Unreadable` for anything else."""
    if not isinstance(text, str) or not _COLOR.match(text):
        raise Unreadable(f"a colour is '#rrggbb' or '#rrggbbaa', got {text!r}")
    channels = [int(text[i : i + 2], 16) for i in range(1, len(text), 2)]
    return (channels[0], channels[1], channels[2], channels[3] if len(channels) == 4 else 255)


def hex_of(pixel: tuple[int, ...]) -> str:
    """A pixel as ``#rrggbb`` when opaque, else ``#rrggbbaa``."""
    r, g, b, a = pixel
    return f"#{r:02x}{g:02x}{b:02x}" + ("" if a == 255 else f"{a:02x}")


def near_mask(im: PILImage.Image, color: tuple[int, ...], tolerance: int) -> PILImage.Image:
    """A grey picture of ``im``'s size: 255 where a pixel is near ``color``, else 0."""
    mask = None
    for band, value in zip(im.split(), color):
        table = [255 if abs(v - value) <= tolerance else 0 for v in range(256)]
        near = band.point(table)
        mask = near if mask is None else ImageChops.darker(mask, near)
    return mask


def turned(im: PILImage.Image, rotate: int) -> PILImage.Image:
    """``im`` turned ``rotate`` degrees clockwise (a lossless transpose)."""
    method = TURNS[rotate]
    return im if method is None else im.transpose(method)


def mean_difference(a: PILImage.Image, b: PILImage.Image) -> float:
    """The mean absolute difference of two RGBA pictures of one size, over every channel
    of every pixel (integer sums, so the same on every host)."""
    histogram = ImageChops.difference(a, b).histogram()
    total = sum((index % 256) * count for index, count in enumerate(histogram))
    return total / (a.width * a.height * 4)


def judge_pixel(im: PILImage.Image, spec: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    at = spec["at"]
    x, y = whole(at[0], "x"), whole(at[1], "y")
    if not (0 <= x < im.width and 0 <= y < im.height):
        return {"at": [x, y]}, f"({x}, {y}) is outside the {im.width} × {im.height} picture"
    want, tolerance = colour(spec["color"]), spec.get("tolerance", 0)
    pixel = im.getpixel((x, y))
    found = {"at": [x, y], "color": hex_of(pixel)}
    if all(abs(p - w) <= tolerance for p, w in zip(pixel, want)):
        return found, None
    return found, f"the pixel at ({x}, {y}) is {hex_of(pixel)}, expected {spec['color']} (tolerance {tolerance})"


def judge_area(im: PILImage.Image, spec: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    box = spec.get("box")
    if box is not None:
        x0, y0, x1, y1 = (whole(v, "a box corner") for v in box)
        if not (0 <= x0 < x1 <= im.width and 0 <= y0 < y1 <= im.height):
            return {"box": [x0, y0, x1, y1]}, f"the box {[x0, y0, x1, y1]} is not inside the {im.width} × {im.height} picture"
        im = im.crop((x0, y0, x1, y1))
    where = "the box" if box is not None else "the picture"
    name, tolerance = spec["color"], spec.get("tolerance", 0)
    mask = near_mask(im, colour(name), tolerance)
    count = mask.histogram()[255]
    share = count / (im.width * im.height)
    bbox = mask.getbbox()
    found: dict[str, Any] = {"color": name, "count": count, "share": round(share, 6), "span": list(bbox) if bbox else None}
    least, most = spec.get("min_share"), spec.get("max_share", 1.0)
    if least is None and most > 0 and count == 0:
        return found, f"no pixel of {where} is near {name} (tolerance {tolerance})"
    if least is not None and share < least:
        return found, f"{share:.4f} of {where} is near {name}, expected at least {least}"
    if share > most:
        return found, f"{share:.4f} of {where} is near {name}, expected at most {most}"
    if bbox is None:
        return found, None
    span_w, span_h = bbox[2] - bbox[0], bbox[3] - bbox[1]
    if spec.get("rectangle") and count != span_w * span_h:
        return found, f"the pixels near {name} do not fill one rectangle: {count} of the {span_w} × {span_h} they span"
    for field, size, side in (("min_width", span_w, "wide"), ("min_height", span_h, "high")):
        if spec.get(field) is not None and size < whole(spec[field], field):
            return found, f"the pixels near {name} span {span_w} × {span_h}, expected at least {spec[field]} {side}"
    return found, None


def reference(machine: Machine, spec: dict[str, Any]) -> PILImage.Image:
    """The picture ``equals`` names, turned as it says."""
    if spec.get("path") is not None:
        data = read_file(machine, spec["path"])
        if data is None:
            raise Unreadable(f"the reference {spec['path']} does not exist")
    else:
        problem = content_problem(spec.get("content") or "")
        if problem:
            raise Unreadable(f"the reference's {problem}")
        data = file_bytes(spec["content"])
    try:
        im, _format = decode(data)
    except Unreadable as exc:
        raise Unreadable(f"the reference: {exc}") from None
    rotate = spec.get("rotate", 0)
    if rotate not in TURNS:
        raise Unreadable(f"rotate is 0, 90, 180 or 270, got {rotate!r}")
    return turned(im, rotate)


def judge_same(machine: Machine, im: PILImage.Image, spec: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    other = reference(machine, spec)
    turn = f"turned {spec.get('rotate', 0)}° clockwise" if spec.get("rotate") else "as it is"
    found: dict[str, Any] = {"reference": [other.width, other.height]}
    if other.size != im.size:
        return found, f"the picture is {im.width} × {im.height}, the reference {turn} is {other.width} × {other.height}"
    difference = mean_difference(im, other)
    found["difference"] = round(difference, 4)
    tolerance = spec.get("tolerance", 0.0)
    if difference > tolerance:
        return found, f"the picture differs from the reference {turn}: mean difference {difference:.4f} per channel, tolerance {tolerance}"
    return found, None


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    r.expected = {k: v for k, v in spec.items() if k != "path" and v not in (None, [])}
    data = read_file(machine, spec["path"])
    if data is None:
        r.reason = "no such file"
        return
    try:
        im, fmt = decode(data)
        found: dict[str, Any] = {"format": fmt, "width": im.width, "height": im.height}
        reasons = []
        if spec.get("format") is not None and fmt != spec["format"]:
            reasons.append(f"the file is a {fmt} picture, expected {spec['format']}")
        for name in ("width", "height"):
            if spec.get(name) is not None and found[name] != whole(spec[name], name):
                reasons.append(f"the picture is {im.width} × {im.height}, expected {name} {spec[name]}")
        for key, judge_one in (("pixels", judge_pixel), ("colors", judge_area)):
            if spec.get(key):
                found[key] = []
                for item in spec[key]:
                    seen, reason = judge_one(im, item)
                    found[key].append(seen)
                    if reason:
                        reasons.append(reason)
        if spec.get("equals") is not None:
            found["equals"], reason = judge_same(machine, im, spec["equals"])
            if reason:
                reasons.append(reason)
    except Unreadable as exc:
        r.reason = str(exc)
        return
    r.found = found
    r.passed = not reasons
    r.reason = "; ".join(reasons)


KIND = register(CheckKind("image", ImageCheck, judge, problems, files_only=True, shows_values=True))
