"""Bundled fonts: the font keys, their files, and loading them by path.

Fonts are read from ``cwgym/assets/fonts/`` next to this package, never from the
host: skia typefaces come from a FreeType-backed empty custom font manager
(``skia.FontMgr.New_Custom_Empty``) fed with the file bytes, so neither
fontconfig, CoreText nor DirectWrite is consulted, and HarfBuzz gets a face built
from the very same bytes. Each file is loaded once per process; the cache holds
only immutable loaded data.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path

import skia
import uharfbuzz as hb

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
"""Directory of the bundled font files and their licence texts."""


class FontKey(enum.StrEnum):
    """The named fonts of the text layer; each names a fallback chain of files."""

    SANS = "sans"
    SANS_BOLD = "sans-bold"
    MONO = "mono"
    MONO_BOLD = "mono-bold"

    @property
    def is_mono(self) -> bool:
        """Whether runs in this font snap to the monospace cell grid."""
        return self in (FontKey.MONO, FontKey.MONO_BOLD)


FONT_CHAINS: dict[FontKey, tuple[str, ...]] = {
    FontKey.SANS: ("Ubuntu-R.ttf", "DejaVuSans.ttf"),
    FontKey.SANS_BOLD: ("Ubuntu-B.ttf", "DejaVuSans.ttf"),
    FontKey.MONO: ("UbuntuMono-R.ttf", "DejaVuSansMono.ttf", "DejaVuSans.ttf"),
    FontKey.MONO_BOLD: ("UbuntuMono-B.ttf", "DejaVuSansMono.ttf", "DejaVuSans.ttf"),
}
"""Files per key, primary first. A character is shaped with the first file whose
cmap has it; a character no file has falls to the primary's ``.notdef``."""


@dataclass(frozen=True, slots=True, eq=False)
class LoadedFont:
    """One font file loaded once: its bytes, HarfBuzz face and skia typeface."""

    filename: str
    data: bytes
    hb_face: hb.Face
    typeface: skia.Typeface
    upem: int
    codepoints: frozenset[int]


def as_font_key(font: FontKey | str) -> FontKey:
    """Return ``font`` as a FontKey; raise ValueError naming an unknown key."""
    if type(font) is FontKey:
        return font
    found = _KEYS_BY_VALUE.get(font) if isinstance(font, str) else None
    if found is not None:
        return found
    try:
        return FontKey(font)
    except ValueError:
        known = ", ".join(k.value for k in FontKey)
        raise ValueError(f"unknown font key {font!r}; known keys: {known}") from None


_KEYS_BY_VALUE = {k.value: k for k in FontKey}


@functools.cache
def _font_manager() -> skia.FontMgr:
    """The FreeType-backed font manager that knows no host fonts."""
    return skia.FontMgr.New_Custom_Empty()


@functools.cache
def load_font(filename: str) -> LoadedFont:
    """Load a bundled font file by name (once per process)."""
    path = FONT_DIR / filename
    if path.parent != FONT_DIR or not path.is_file():
        raise FileNotFoundError(f"no bundled font file {filename!r} in {FONT_DIR}")
    data = path.read_bytes()
    face = hb.Face(hb.Blob(data))
    typeface = _font_manager().makeFromData(skia.Data.MakeWithCopy(data))
    if typeface is None:
        raise ValueError(f"skia could not load bundled font file {path}")
    return LoadedFont(
        filename=filename,
        data=data,
        hb_face=face,
        typeface=typeface,
        upem=face.upem,
        codepoints=frozenset(face.unicodes),
    )


def font_chain(font: FontKey | str) -> tuple[LoadedFont, ...]:
    """The loaded fallback chain of a font key, primary first."""
    return tuple(load_font(name) for name in FONT_CHAINS[as_font_key(font)])


@functools.lru_cache(maxsize=256)
def hb_font(filename: str, size: int) -> hb.Font:
    """A HarfBuzz font for a file at ``size`` px, scaled to 1/64 px units.

    Unhinted (ppem left unset, so no device-table or hinting adjustments): the
    advances are the design advances scaled, identical on every platform. Used
    only for shaping inside this package; callers must not change it.
    """
    font = hb.Font(load_font(filename).hb_face)
    font.scale = (size * 64, size * 64)
    return font


MAX_SIZE = 1024
"""Largest accepted text size in px."""


def as_size(size: int) -> int:
    """Return ``size`` as a px size; raise naming it if it is not an int in 1..MAX_SIZE."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"text size must be an int number of px, got {size!r}")
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"text size must be between 1 and {MAX_SIZE} px, got {size}")
    return size
