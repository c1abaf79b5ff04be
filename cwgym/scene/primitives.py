"""The twelve drawing primitives a scene node can carry.

Each primitive is an immutable msgspec Struct tagged by ``kind`` (the name the plain
scene uses). Colours are RGBA tuples of four ints in ``0..=255`` with straight (not
premultiplied) alpha. Geometry inside a primitive (path points, shadow offsets) is in
whole pixels of the node's local space; path points are relative to the top-left corner
of the node's ``bounds`` so one path can be reused at any position.

Text primitives name a font family key (one of :data:`FONTS`: ``"sans"``, ``"sans-bold"``,
``"mono"``, ``"mono-bold"``, the text layer's font keys) and a pixel size. Measuring text is the text layer's job: nothing here measures.

Primitives are frozen and carry a private per-object cache (``__dict__``) of their content
digest, so a painter that reuses a primitive object (an icon, an inline image) pays for
hashing it once.
"""

from __future__ import annotations

import hashlib
from typing import Union

import msgspec

from cwgym.kernel.digest import canonical

__all__ = [
    "FONTS",
    "KINDS",
    "AssetImage",
    "Backdrop",
    "Box",
    "Color",
    "Image",
    "Path",
    "Primitive",
    "Region",
    "RoundedBox",
    "Shadow",
    "Symbol",
    "Text",
    "UiText",
    "UiTextBold",
    "is_opaque",
    "painted_rect",
    "primitive_digest",
]

#: RGBA, four ints in 0..=255, straight alpha.
Color = tuple[int, int, int, int]

#: Font family keys a text primitive may name.
FONTS = ("sans", "sans-bold", "mono", "mono-bold")

_OPTS = {"frozen": True, "tag_field": "kind", "dict": True}


class Box(msgspec.Struct, tag="box", **_OPTS):
    """A filled rectangle covering the node's bounds, with an optional inner stroke."""

    color: Color
    stroke: Color | None = None
    stroke_width: int = 0


class RoundedBox(msgspec.Struct, tag="rounded_box", **_OPTS):
    """A filled rectangle with corners of ``radius`` pixels, optional inner stroke."""

    color: Color
    radius: int
    stroke: Color | None = None
    stroke_width: int = 0


class UiText(msgspec.Struct, tag="ui_text", **_OPTS):
    """A run of interface text (labels, titles, menu items) on one line."""

    text: str
    size: int
    color: Color
    font: str = "sans"


class UiTextBold(msgspec.Struct, tag="ui_text_bold", **_OPTS):
    """A run of bold interface text on one line."""

    text: str
    size: int
    color: Color
    font: str = "sans-bold"


class Text(msgspec.Struct, tag="text", **_OPTS):
    """A run of document text: a page's words, a terminal or editor line (``font="mono"``)."""

    text: str
    size: int
    color: Color
    font: str = "sans"


class AssetImage(msgspec.Struct, tag="asset_image", **_OPTS):
    """A bundled image (icon, wallpaper) named by asset key, scaled to the bounds.

    ``tint`` (optional) recolours a monochrome asset.
    """

    name: str
    tint: Color | None = None


class Shadow(msgspec.Struct, tag="shadow", **_OPTS):
    """A soft drop shadow of the rounded rectangle ``bounds`` (corner ``radius``).

    The shape is moved by ``(offset_x, offset_y)``, grown by ``spread`` and blurred over
    ``blur`` pixels, so it paints within ``painted_rect``.
    """

    color: Color
    blur: int
    offset_x: int = 0
    offset_y: int = 0
    spread: int = 0
    radius: int = 0


class Image(msgspec.Struct, tag="image", **_OPTS):
    """Inline pixels: ``width * height`` straight RGBA8 pixels, row-major, scaled to the bounds."""

    width: int
    height: int
    rgba: bytes


class Path(msgspec.Struct, tag="path", **_OPTS):
    """A vector path, filled and/or stroked.

    ``commands`` is a sequence of tuples, points relative to the bounds' top-left corner:
    ``("M", x, y)`` move, ``("L", x, y)`` line, ``("Q", cx, cy, x, y)`` quadratic,
    ``("C", c1x, c1y, c2x, c2y, x, y)`` cubic, ``("Z",)`` close.
    """

    commands: tuple[tuple[str | int, ...], ...]
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: int = 1


class Symbol(msgspec.Struct, tag="symbol", **_OPTS):
    """A named glyph from the shell's symbol set (``close``, ``minimize``, ``chevron-down``...).

    ``size`` 0 means fit the bounds.
    """

    name: str
    color: Color
    size: int = 0


class Backdrop(msgspec.Struct, tag="backdrop", **_OPTS):
    """Frosted glass: what lies beneath the bounds, blurred over ``blur`` pixels, then tinted."""

    color: Color
    blur: int = 0
    radius: int = 0


class Region(msgspec.Struct, tag="region", **_OPTS):
    """Paints nothing: an invisible area that carries semantics or an interaction."""


Primitive = Union[  # noqa: UP007 - msgspec wants a real Union of tagged Structs
    Box,
    RoundedBox,
    UiText,
    UiTextBold,
    Text,
    AssetImage,
    Shadow,
    Image,
    Path,
    Symbol,
    Backdrop,
    Region,
]

#: The kind names, in the order of the spec.
KINDS = (
    "box",
    "rounded_box",
    "ui_text",
    "ui_text_bold",
    "text",
    "asset_image",
    "shadow",
    "image",
    "path",
    "symbol",
    "backdrop",
    "region",
)

_FILLED = (Box, RoundedBox, Backdrop)


def is_opaque(primitive: Primitive) -> bool:
    """Whether the primitive hides what is under it from the pointer.

    Boxes, rounded boxes and backdrops with a non-transparent colour, and inline images,
    are opaque. Text, symbols, asset images (icons drawn over their control), paths,
    shadows and regions are not: clicks pass through them to what lies below.
    """
    if isinstance(primitive, _FILLED):
        return primitive.color[3] > 0
    return isinstance(primitive, Image)


def painted_rect(
    primitive: Primitive, x: int, y: int, width: int, height: int
) -> tuple[int, int, int, int]:
    """The local-space area ``(x, y, w, h)`` the primitive paints for those bounds.

    Only a shadow paints outside its bounds (moved by its offset, grown by spread and
    blur).
    """
    if type(primitive) is Shadow:
        grow = max(0, primitive.blur) + primitive.spread
        return (
            x + primitive.offset_x - grow,
            y + primitive.offset_y - grow,
            width + 2 * grow,
            height + 2 * grow,
        )
    return x, y, width, height


def primitive_digest(primitive: Primitive) -> bytes:
    """The canonical encoding of a primitive, cached on the (immutable) object.

    Long encodings (inline images, long text) are replaced by their sha256 so a node's
    digest input stays small.
    """
    cache = primitive.__dict__
    enc = cache.get("_enc")
    if enc is None:
        enc = canonical(primitive)
        if len(enc) > 256:
            # '#' can never start a msgpack map, so this cannot equal a short encoding
            enc = b"#" + hashlib.sha256(enc).digest()
        cache["_enc"] = enc
    return enc
