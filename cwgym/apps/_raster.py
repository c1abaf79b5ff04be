"""Pictures for the image applications (a helper module, not an application).

What the Image Viewer (``photos``) and Paint (``paint``) share:

* **Decoding** (:func:`decode`, :func:`load`): PNG and JPEG only, with Pillow, from bytes
  read on the simulated machine (never a host file). A file of more than
  :data:`MAX_FILE_BYTES` or a picture of more than :data:`MAX_PIXELS` pixels (or wider or
  taller than :data:`MAX_SIDE`) is refused like a damaged one: :class:`RasterError`.
  Results (failures too) are kept in a bounded least-recently-used cache keyed by the
  bytes' SHA-256, so a picture shown frame after frame is decoded once.
* **Encoding** (:func:`encode`): deterministic bytes. PNG with ``compress_level=6``, no
  ``optimize`` and no metadata chunk (no time, no text, no ICC profile; only a palette
  picture's transparency is kept); JPEG with quality :data:`JPEG_QUALITY`, 4:2:0
  subsampling, baseline, no EXIF or comment. The same pixels always give the same bytes.
* **Scene pixels** (:func:`scene_image`): a picture as a
  :class:`~cwgym.scene.primitives.Image` primitive of straight RGBA bytes, downscaled
  (box filter) to the size it is shown at, cached by a content key; the very same
  primitive object comes back for the same key, so its digest is computed once.
* :class:`Held`: a value handed from ``paint_key`` to ``paint`` that compares and hashes by
  a content key only (the repaint cache's key) while carrying the decoded pixels along.

Geometry is integer arithmetic throughout (``fit``).
"""

from __future__ import annotations

import hashlib
import io
import warnings
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

from PIL import Image as PILImage

from cwgym.scene.primitives import Image

if TYPE_CHECKING:
    from cwgym.machine.filesystem import UserFS

__all__ = [
    "FORMATS",
    "JPEG_QUALITY",
    "MAX_FILE_BYTES",
    "MAX_PIXELS",
    "MAX_SIDE",
    "Decoded",
    "Held",
    "Lru",
    "RasterError",
    "decode",
    "digest",
    "encode",
    "fit",
    "format_for",
    "is_image_name",
    "load",
    "rotated",
    "scene_image",
    "to_rgba",
]

#: The largest file decoded (bytes).
MAX_FILE_BYTES = 32 << 20
#: The largest picture decoded: this many pixels at most...
MAX_PIXELS = 4096 * 4096
#: ...and no side longer than this.
MAX_SIDE = 8192
#: JPEG quality of every JPEG written.
JPEG_QUALITY = 90
#: The formats read and written, as Pillow names them.
FORMATS = ("PNG", "JPEG")
#: File name suffixes of those formats.
SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


class RasterError(Exception):
    """A file that is not a picture these applications can read (the reason is the text)."""


class Held:
    """A ``paint_key`` value: equal and hashed by ``key`` (content), carrying ``value``."""

    __slots__ = ("key", "value")

    def __init__(self, key: Hashable, value: Any) -> None:
        self.key = key
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Held) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Held({self.key!r})"


class Lru:
    """A least-recently-used map bounded by entries and by a byte budget."""

    def __init__(self, items: int, budget: int) -> None:
        self.items = items
        self.budget = budget
        self.used = 0
        self.data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        hit = self.data.get(key)
        if hit is None:
            return None
        self.data.move_to_end(key)
        return hit[0]

    def put(self, key: Hashable, value: Any, size: int) -> Any:
        old = self.data.pop(key, None)
        if old is not None:
            self.used -= old[1]
        self.data[key] = (value, size)
        self.used += size
        while len(self.data) > 1 and (len(self.data) > self.items or self.used > self.budget):
            _k, (_v, s) = self.data.popitem(last=False)
            self.used -= s
        return value

    def clear(self) -> None:
        self.data.clear()
        self.used = 0


# -- content digests -----------------------------------------------------------------------

# id(bytes) -> (the bytes, their hex digest): holding the object keeps its id unique to it,
# so a file's data object (the filesystem hands out the same bytes until it is rewritten)
# is hashed once however often it is read.
_DIGESTS: OrderedDict[int, tuple[bytes, str]] = OrderedDict()
_DIGESTS_KEPT = 256


def digest(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex (memoised on the bytes object)."""
    hit = _DIGESTS.get(id(data))
    if hit is not None and hit[0] is data:
        _DIGESTS.move_to_end(id(data))
        return hit[1]
    value = hashlib.sha256(data).hexdigest()
    _DIGESTS[id(data)] = (data, value)
    if len(_DIGESTS) > _DIGESTS_KEPT:
        _DIGESTS.popitem(last=False)
    return value


# -- decoding ------------------------------------------------------------------------------


class Decoded(NamedTuple):
    """A decoded picture: the Pillow image as the file holds it (its own mode) and facts."""

    image: PILImage.Image
    format: str  # "PNG" or "JPEG"
    width: int
    height: int
    mode: str
    alpha: bool
    size: int  # the file's length in bytes
    digest: str


_DECODED = Lru(24, 256 << 20)


def is_image_name(name: str) -> bool:
    """Whether a file name has a PNG or JPEG suffix (any case)."""
    return format_for(name) is not None


def format_for(name: str) -> str | None:
    """The format a file name's suffix names (``PNG``/``JPEG``), or ``None``."""
    dot = name.rfind(".")
    return SUFFIXES.get(name[dot:].lower()) if dot > 0 else None


def decode(data: bytes) -> Decoded:
    """Decode a PNG or JPEG file's bytes; :class:`RasterError` says why it cannot be."""
    key = digest(data)
    hit = _DECODED.get(key)
    if hit is None:
        hit = _decode(data, key)
        size = hit.width * hit.height * 4 if isinstance(hit, Decoded) else 64
        _DECODED.put(key, hit, size)
    if isinstance(hit, RasterError):
        raise hit
    return hit


def _decode(data: bytes, key: str) -> Decoded | RasterError:
    if len(data) > MAX_FILE_BYTES:
        return RasterError(f"the file is larger than {MAX_FILE_BYTES >> 20} MiB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            im = PILImage.open(io.BytesIO(data), formats=FORMATS)
            fmt = im.format
            w, h = im.size
            if w < 1 or h < 1:
                return RasterError("the picture has no pixels")
            if w * h > MAX_PIXELS or w > MAX_SIDE or h > MAX_SIDE:
                return RasterError(f"the picture is larger than {MAX_PIXELS} pixels")
            im.load()
    except Exception:  # Pillow raises many kinds for a damaged file
        return RasterError("the file is not a PNG or JPEG picture, or it is damaged")
    if fmt not in FORMATS:
        return RasterError("the file is not a PNG or JPEG picture")
    alpha = im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in im.info
    return Decoded(im, fmt, w, h, im.mode, alpha, len(data), key)


def load(fs: UserFS, path: str, cwd: str) -> Decoded:
    """Read and decode a file as the machine's user (``FsError`` or :class:`RasterError`)."""
    return decode(fs.read(path, cwd))


# -- pixels --------------------------------------------------------------------------------


_RGBA = Lru(24, 256 << 20)


def to_rgba(im: PILImage.Image) -> PILImage.Image:
    """The picture in straight RGBA (a 16-bit or float grey picture is scaled to 8 bits)."""
    if im.mode == "RGBA":
        return im
    if im.mode.startswith("I;16"):
        im = im.convert("I")
    if im.mode == "I":  # 16-bit grey: keep the high byte
        im = im.point(lambda v: v * (1 / 257)).convert("L")
    elif im.mode == "F":
        im = im.convert("L")
    return im.convert("RGBA")


def rotated(pic: Decoded, rotation: int) -> PILImage.Image:
    """The decoded picture turned ``rotation`` degrees clockwise (0, 90, 180, 270), in RGBA;
    cached by content digest and rotation."""
    key = (pic.digest, rotation)
    hit = _RGBA.get(key)
    if hit is None:
        hit = turn(to_rgba(pic.image), rotation)
        _RGBA.put(key, hit, hit.width * hit.height * 4)
    return hit


def turn(im: PILImage.Image, rotation: int) -> PILImage.Image:
    """``im`` turned ``rotation`` degrees clockwise (a lossless transpose; any mode)."""
    rotation %= 360
    if rotation == 0:
        return im
    method = {
        90: PILImage.Transpose.ROTATE_270,  # Pillow turns counter-clockwise
        180: PILImage.Transpose.ROTATE_180,
        270: PILImage.Transpose.ROTATE_90,
    }[rotation]
    return im.transpose(method)


def encode(im: PILImage.Image, fmt: str) -> bytes:
    """The file bytes of ``im`` in ``fmt`` (``PNG`` or ``JPEG``), deterministically."""
    keep = (
        {"transparency": im.info["transparency"]}
        if fmt == "PNG" and "transparency" in im.info
        else {}
    )
    if im.info != keep:
        im = im.copy()
        im.info = keep
    buf = io.BytesIO()
    if fmt == "PNG":
        if im.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16", "I;16B"):
            im = im.convert("RGBA")
        im.save(buf, "PNG", compress_level=6, optimize=False)
    elif fmt == "JPEG":
        if im.mode not in ("L", "RGB", "CMYK"):
            im = _flatten(im)
        im.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=False, progressive=False)
    else:
        raise ValueError(f"cannot write {fmt!r}")
    return buf.getvalue()


def _flatten(im: PILImage.Image) -> PILImage.Image:
    """An RGB picture of ``im`` over white (JPEG has no transparency)."""
    rgba = to_rgba(im)
    white = PILImage.new("RGBA", rgba.size, (255, 255, 255, 255))
    return PILImage.alpha_composite(white, rgba).convert("RGB")


# -- fitting and scene pixels --------------------------------------------------------------


def fit(width: int, height: int, max_w: int, max_h: int) -> tuple[int, int]:
    """The largest size of ``width`` x ``height``'s proportions within ``max_w`` x
    ``max_h``, never larger than the picture itself (integer arithmetic, at least 1x1)."""
    max_w, max_h = max(1, max_w), max(1, max_h)
    if width <= max_w and height <= max_h:
        return width, height
    if width * max_h >= height * max_w:  # the width limits
        return max_w, max(1, height * max_w // width)
    return max(1, width * max_h // height), max_h


_SCENE = Lru(64, 128 << 20)


def scene_image(
    key: Hashable,
    im: PILImage.Image,
    width: int,
    height: int,
    box: tuple[int, int, int, int] | None = None,
) -> Image:
    """``im`` (RGBA), or its part ``box`` (left, top, right, bottom), as an ``Image``
    primitive of ``width`` x ``height`` pixels (box-filtered when smaller), cached by
    ``(key, box, width, height)``: ``key`` must name ``im``'s content."""
    full = (key, box, width, height)
    hit = _SCENE.get(full)
    if hit is None:
        if box is not None and box != (0, 0, im.width, im.height):
            im = im.crop(box)
        if im.size != (width, height):
            im = im.resize((width, height), PILImage.Resampling.BOX, reducing_gap=None)
        if im.mode != "RGBA":
            im = im.convert("RGBA")
        hit = _SCENE.put(full, Image(width, height, im.tobytes()), width * height * 4)
    return hit
