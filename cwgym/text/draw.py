"""Drawing shaped runs onto a skia canvas, glyph for glyph as ``shape`` placed them.

Skia never shapes or measures here: a TextBlob is built from the glyph ids and the
1/64 px positions of ``shape()``, so the drawn run is exactly the measured run.
Every ``skia.Font`` setting that changes pixels is pinned (see ``skia_font``).
"""

from __future__ import annotations

import functools

import skia

from cwgym.text.fonts import FontKey, as_font_key, as_size, font_chain
from cwgym.text.shaping import ShapedRun, shape

HINTING = skia.FontHinting.kSlight
"""Outline hinting: slight (vertical-only, as Ubuntu's desktop uses), FreeType's
light autohinter bundled in skia, never the host's."""
EDGING = skia.Font.Edging.kAntiAlias
"""Grey-scale anti-aliasing: no LCD subpixel colour fringes."""
SUBPIXEL = True
"""Glyphs are drawn at their fractional positions (skia quantises x to 1/4 px)."""
LINEAR_METRICS = True
"""Skia's own metrics stay unhinted; it never decides positions here anyway."""
EMBEDDED_BITMAPS = False
"""Outlines only, never bitmap strikes."""
FORCE_AUTOHINTING = False
BASELINE_SNAP = True
"""The baseline is snapped to whole pixels (callers pass integer baselines)."""


def skia_font(font: FontKey | str, size: int, face: int = 0) -> skia.Font:
    """A new ``skia.Font`` for file ``face`` of the key's fallback chain, all settings pinned."""
    key = as_font_key(font)
    size = as_size(size)
    result = skia.Font(font_chain(key)[face].typeface, float(size))
    result.setHinting(HINTING)
    result.setEdging(EDGING)
    result.setSubpixel(SUBPIXEL)
    result.setLinearMetrics(LINEAR_METRICS)
    result.setEmbeddedBitmaps(EMBEDDED_BITMAPS)
    result.setForceAutoHinting(FORCE_AUTOHINTING)
    result.setBaselineSnap(BASELINE_SNAP)
    result.setEmbolden(False)
    result.setScaleX(1.0)
    result.setSkewX(0.0)
    return result


@functools.lru_cache(maxsize=256)
def _cached_font(font: FontKey, size: int, face: int) -> skia.Font:
    """Pinned fonts reused by the blob builder only; never handed out."""
    return skia_font(font, size, face)


@functools.lru_cache(maxsize=2048)
def _blob(text: str, font: FontKey, size: int) -> skia.TextBlob | None:
    """The immutable TextBlob of a shaped run, origin at (0, baseline 0)."""
    run = shape(text, font, size)
    if not run.glyphs:
        return None
    builder = skia.TextBlobBuilder()
    n = len(run.glyphs)
    start = 0
    while start < n:
        face = run.faces[start]
        end = start
        while end < n and run.faces[end] == face:
            end += 1
        points = [skia.Point(run.xs[i] / 64.0, -run.y_offsets[i] / 64.0) for i in range(start, end)]
        builder.allocRunPos(_cached_font(font, size, face), list(run.glyphs[start:end]), points)
        start = end
    return builder.make()


def text_blob(run: ShapedRun) -> skia.TextBlob | None:
    """The skia TextBlob that draws ``run`` at origin (0, 0) on its baseline; None if empty."""
    return _blob(run.text, run.font, run.size)


def _paint(color_rgba: tuple[int, int, int, int]) -> skia.Paint:
    """A fill paint of an (r, g, b, a) colour, 0..255 each, unpremultiplied."""
    if len(color_rgba) != 4 or not all(isinstance(c, int) and 0 <= c <= 255 for c in color_rgba):
        raise ValueError(f"color_rgba must be four ints 0..255, got {color_rgba!r}")
    r, g, b, a = color_rgba
    paint = skia.Paint()
    paint.setColor(skia.Color(r, g, b, a))
    paint.setAntiAlias(True)
    paint.setStyle(skia.Paint.kFill_Style)
    return paint


def draw_run(
    canvas: skia.Canvas,
    x: int,
    y_baseline: int,
    run: ShapedRun,
    color_rgba: tuple[int, int, int, int],
) -> None:
    """Draw an already shaped run with its origin at (x, y_baseline)."""
    blob = text_blob(run)
    if blob is not None:
        canvas.drawTextBlob(blob, float(x), float(y_baseline), _paint(color_rgba))


def draw_text(
    canvas: skia.Canvas,
    x: int,
    y_baseline: int,
    text: str,
    font: FontKey | str,
    size: int,
    color_rgba: tuple[int, int, int, int],
) -> ShapedRun:
    """Shape ``text`` and draw it with its origin at (x, y_baseline); return the run drawn.

    The run's ``width`` (= ``measure(text, font, size)``) is the advance box drawn.
    """
    run = shape(text, font, size)
    draw_run(canvas, x, y_baseline, run, color_rgba)
    return run
