"""Where a text primitive's run sits in its bounds, and drawing it through the text layer.

A text node draws one line: its run (``cwgym.text.shape``) starts at the left edge of
``bounds`` and its line box (``line_height`` of the font and size) is centred
vertically in ``bounds``, rounding up: the baseline is at
``bounds.y + (bounds.height - line_height) // 2 + ascent``. A node whose bounds are
exactly ``measure(text)`` wide and ``line_height`` tall therefore holds its run's
advance box exactly, and its baseline is ``bounds.y + ascent``. Ink is clipped to the
node's bounds (as every node is), so painters size text bounds with ``measure``.
"""

from __future__ import annotations

import functools

import skia

from cwgym.scene.geometry import Rect
from cwgym.scene.primitives import Text, UiText, UiTextBold
from cwgym.text import FontMetrics, ShapedRun, draw_run, font_metrics, shape

__all__ = ["draw_text_primitive", "text_box", "text_origin"]


@functools.lru_cache(maxsize=4096)
def _layout(text: str, font: str, size: int) -> tuple[ShapedRun, FontMetrics]:
    """The shaped run and the font metrics of a text primitive (validated once)."""
    return shape(text, font, size), font_metrics(font, size)


def text_origin(primitive: UiText | UiTextBold | Text, bounds: Rect) -> tuple[int, int]:
    """The run origin ``(x, baseline y)`` of a text primitive in local coordinates."""
    m = _layout(primitive.text, primitive.font, primitive.size)[1]
    return bounds.x, bounds.y + (bounds.height - m.line_height) // 2 + m.ascent


def text_box(primitive: UiText | UiTextBold | Text, bounds: Rect) -> Rect:
    """The local box the run's advance and line box occupy: ``(x, top, measured width, line height)``."""
    run, m = _layout(primitive.text, primitive.font, primitive.size)
    x, baseline = text_origin(primitive, bounds)
    return Rect(x, baseline - m.ascent, run.width, m.line_height)


def draw_text_primitive(
    canvas: skia.Canvas, primitive: UiText | UiTextBold | Text, bounds: Rect
) -> None:
    """Draw the text primitive's run into ``bounds`` on the canvas (local coordinates)."""
    if not primitive.text or primitive.color[3] == 0:
        return
    run, m = _layout(primitive.text, primitive.font, primitive.size)
    draw_run(
        canvas,
        bounds.x,
        bounds.y + (bounds.height - m.line_height) // 2 + m.ascent,
        run,
        tuple(primitive.color),
    )
