"""Vertical font metrics and monospace cell size, in whole pixels.

All values come from the primary file of a font key (HarfBuzz font extents, which
read the hhea table for the bundled fonts) scaled to 1/64 px, then rounded
outward, so a line box always contains the primary font's ascent and descent.
Fallback glyphs may reach past it; the line height does not grow for them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from cwgym.text.fonts import FONT_CHAINS, FontKey, as_font_key, as_size, hb_font


@dataclass(frozen=True, slots=True)
class FontMetrics:
    """Whole-pixel vertical metrics of a font key at a size.

    Attributes:
        ascent: px from the top of the line box to the baseline.
        descent: px from the baseline to the bottom of the line box (positive).
        line_gap: extra px the font asks for between lines.
        line_height: ascent + descent + line_gap: the distance between baselines.
    """

    ascent: int
    descent: int
    line_gap: int
    line_height: int


def _ceil64(value: int) -> int:
    """Round a 1/64 px amount up to whole px."""
    return -(-value // 64)


@functools.lru_cache(maxsize=512)
def _metrics(font: FontKey, size: int) -> FontMetrics:
    extents = hb_font(FONT_CHAINS[font][0], size).get_font_extents("ltr")
    asc = _ceil64(extents.ascender)
    desc = _ceil64(-extents.descender)
    gap = (max(0, extents.line_gap) + 32) // 64
    return FontMetrics(ascent=asc, descent=desc, line_gap=gap, line_height=asc + desc + gap)


def font_metrics(font: FontKey | str, size: int) -> FontMetrics:
    """Whole-pixel ascent, descent, line gap and line height of ``font`` at ``size`` px."""
    return _metrics(as_font_key(font), as_size(size))


def ascent(font: FontKey | str, size: int) -> int:
    """Px from the top of a line box to its baseline."""
    return font_metrics(font, size).ascent


def descent(font: FontKey | str, size: int) -> int:
    """Px from the baseline to the bottom of a line box (positive)."""
    return font_metrics(font, size).descent


def line_height(font: FontKey | str, size: int) -> int:
    """Px between the baselines of consecutive lines."""
    return font_metrics(font, size).line_height


@functools.lru_cache(maxsize=512)
def cell_width64(font: FontKey, size: int) -> int:
    """The grid cell width in 1/64 px: the primary's "0" advance rounded to whole px."""
    hfont = hb_font(FONT_CHAINS[font][0], size)
    glyph = hfont.get_nominal_glyph(ord("0"))
    advance = hfont.get_glyph_h_advance(glyph)
    return max(1, (advance + 32) // 64) * 64


def cell_size(size: int, font: FontKey | str = FontKey.MONO) -> tuple[int, int]:
    """Whole-pixel (width, height) of one terminal/editor cell of a mono font.

    Mono runs from ``shape`` advance exactly one cell width per character (two for
    East Asian wide characters, none for marks), so column ``c`` starts at
    ``c * width`` px and the measured width of ``n`` cells is ``n * width``.
    """
    key = as_font_key(font)
    if not key.is_mono:
        raise ValueError(f"cell_size needs a mono font key, got {key.value!r}")
    size = as_size(size)
    return cell_width64(key, size) // 64, _metrics(key, size).line_height
