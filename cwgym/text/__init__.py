"""Text shaping, metrics, line layout and drawing over bundled fonts.

Layout and drawing share one implementation: ``measure`` and ``draw_text`` both use
the run from ``shape``, so the width that decided a wrap or an ellipsis is the
width drawn. Fonts are loaded from ``cwgym/assets/fonts`` by path, never looked up
on the host.
"""

from cwgym.text.draw import draw_run, draw_text, skia_font, text_blob
from cwgym.text.fonts import FONT_DIR, FontKey, font_chain
from cwgym.text.layout import ELLIPSIS, ellipsize, wrap
from cwgym.text.metrics import (
    FontMetrics,
    ascent,
    cell_size,
    descent,
    font_metrics,
    line_height,
)
from cwgym.text.shaping import ShapedRun, measure, shape
from cwgym.text.units import break_units

__all__ = [
    "ELLIPSIS",
    "FONT_DIR",
    "FontKey",
    "FontMetrics",
    "ShapedRun",
    "ascent",
    "break_units",
    "cell_size",
    "descent",
    "draw_run",
    "draw_text",
    "ellipsize",
    "font_chain",
    "font_metrics",
    "line_height",
    "measure",
    "shape",
    "skia_font",
    "text_blob",
    "wrap",
]
