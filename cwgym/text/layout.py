"""Line layout on top of ``measure``: ellipsis and word wrap within a pixel width.

Every fit decision measures the exact string that will be returned (and drawn),
never a sum of word widths, so kerning across a break cannot make a line that
"fitted" draw wider than its box.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cwgym.text.fonts import FontKey
from cwgym.text.shaping import ShapedRun, measure, shape
from cwgym.text.units import break_units

ELLIPSIS = "\u2026"
"""The ellipsis ``ellipsize`` appends."""

_TOKENS = re.compile(r" +|[^ ]+")


def _longest_fitting(units: list[str], fits: Callable[[str], bool]) -> int:
    """A prefix length k >= 1 with ``fits`` true, found by bisection (k = 1 if none fit).

    Widths grow with length in practice, so this is the longest fitting prefix; every
    k it returns above 1 was measured to fit either way.
    """
    lo, hi = 1, len(units)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits("".join(units[:mid])):
            lo = mid
        else:
            hi = mid - 1
    return lo


#: How far past a line's width a prefix must reach before the rest of the text is taken not
#: to fit unshaped: more than shaping across the cut (a ligature, a kerning pair) can undo.
_PAST_PX = 32


def _run_past(text: str, font: FontKey | str, size: int, max_width: int) -> ShapedRun:
    """``text`` shaped whole, or a prefix of it already wider than ``max_width`` by
    ``_PAST_PX``: a long title cut to a short box is not shaped to its end. The first
    prefix is as many characters as a third of an em each would take to pass the box (text
    that fits a box is shaped once, whole); then prefixes double."""
    n = max(16, 3 * (max_width + _PAST_PX) // max(1, size))
    while n < len(text):
        run = shape(text[:n], font, size)
        if run.width > max_width + _PAST_PX:
            return run
        n *= 2
    return shape(text, font, size)


def ellipsize(
    text: str, font: FontKey | str, size: int, max_width: int, ellipsis: str = ELLIPSIS
) -> str:
    """Return ``text`` if it fits in ``max_width`` px, else its longest fitting prefix + ``ellipsis``.

    Trailing spaces of the kept prefix are dropped before the ellipsis. If not even
    the ellipsis fits, the result is the empty string: the result always fits.
    """
    run = _run_past(text, font, size, max_width)
    if run.text == text and run.width <= max_width:
        return text
    room = max_width * 64 - shape(ellipsis, font, size).advance
    if room < 0:
        return ""
    units = break_units(text)

    def candidate(k: int) -> str:
        return "".join(units[:k]).rstrip(" ") + ellipsis

    def fits(k: int) -> bool:
        return measure(candidate(k), font, size) <= max_width

    # Start where the whole text's own carets say the room ends, then walk to the longest
    # prefix that fits, measuring each candidate as it will be drawn: one or two measures
    # of short strings where bisection measured half the text, then a quarter...
    k, chars = 0, 0
    for unit in units:
        if chars + len(unit) >= len(run.carets) or run.carets[chars + len(unit)] > room:
            break
        chars += len(unit)
        k += 1
    while k > 0 and not fits(k):
        k -= 1
    while k < len(units) and fits(k + 1):
        k += 1
    return candidate(k)


def _break_word(word: str, font: FontKey | str, size: int, max_width: int) -> list[str]:
    """Split a string too wide for a line into chunks that fit (one unit at least each)."""
    units = break_units(word)
    chunks: list[str] = []
    while units:
        k = _longest_fitting(units, lambda s: measure(s, font, size) <= max_width)
        chunks.append("".join(units[:k]))
        units = units[k:]
    return chunks


def wrap(text: str, font: FontKey | str, size: int, max_width: int) -> list[str]:
    """Word-wrap ``text`` into lines no wider than ``max_width`` px.

    ``\\n`` (and ``\\r\\n``) are hard breaks, each giving at least one line. Lines
    break at spaces; the spaces at a break are dropped, spaces inside a line and a
    paragraph's leading spaces are kept, trailing spaces are dropped. A word wider
    than the line is broken between characters (a character keeps its combining
    marks). A line is wider than ``max_width`` only when it is a single character
    that is wider on its own.
    """
    lines: list[str] = []
    for paragraph in text.replace("\r\n", "\n").split("\n"):
        current: str | None = None
        pending = ""
        for token in _TOKENS.findall(paragraph):
            if token[0] == " ":
                pending = token
                continue
            candidate = pending + token if current is None else current + pending + token
            pending = ""
            if measure(candidate, font, size) <= max_width:
                current = candidate
                continue
            if current is not None:
                lines.append(current)
                candidate = token
                if measure(candidate, font, size) <= max_width:
                    current = candidate
                    continue
            chunks = _break_word(candidate, font, size, max_width)
            lines.extend(chunks[:-1])
            current = chunks[-1]
        lines.append(current if current is not None else "")
    return lines
