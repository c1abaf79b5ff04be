"""Shaping text into positioned glyphs with HarfBuzz, and measuring it.

``shape`` is the one place where text becomes glyphs; layout measures with it and
drawing draws its output, so a width that decided a wrap or an ellipsis is the
width drawn. Positions are integers in 1/64 px (HarfBuzz scaled to 64 units per
px, unhinted), so results are the same on every platform and process.

Pinned choices:
    * Direction left to right, language ``en``, script guessed by HarfBuzz from
      the text itself (never from the host locale). There is no bidi reordering.
    * Features: sans keys turn ``kern``, ``liga``, ``clig`` and ``calt`` on; mono
      keys turn them off, so a terminal never joins two cells. HarfBuzz's
      required features (``ccmp``, ``locl``, ``mark``, ...) stay on.
    * Control characters are invisible (zero-width in sans, one blank cell in
      mono), except a tab, which is a space; line breaking and tab stops are the
      caller's job. Lone surrogates become U+FFFD.
    * Missing glyphs: each character is shaped with the first file of the key's
      fallback chain (``fonts.FONT_CHAINS``) whose cmap has it; combining marks,
      joiners and variation selectors stay with the previous character's file
      when that file has them or the precomposed character (so NFD accents
      compose). A character no file has uses the primary file's
      ``.notdef`` glyph.
    * Mono keys snap to the cell grid: each cluster advances exactly its cells
      (1, 2 for East Asian wide, 0 for marks and format characters) times the
      whole-pixel cell width, with its glyphs centred in those cells.

``shape`` is cached per (text, font, size) in a bounded LRU of immutable runs. The
cache only saves time: a miss recomputes exactly the same run.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from types import MappingProxyType

import uharfbuzz as hb

from cwgym.text.fonts import FontKey, LoadedFont, as_font_key, as_size, font_chain, hb_font
from cwgym.text.metrics import cell_width64
from cwgym.text.units import attaches, unit_starts

SHAPE_CACHE_SIZE = 4096
"""Number of shaped runs kept by the LRU cache of ``shape``."""

_FEATURES_SANS = {"kern": True, "liga": True, "clig": True, "calt": True}
_FEATURES_MONO = {"kern": False, "liga": False, "clig": False, "calt": False}
_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class ShapedRun:
    """A line of text shaped into glyphs; all lengths are integers in 1/64 px.

    Attributes:
        text: the text as given.
        font: the font key it was shaped with.
        size: the size in px.
        glyphs: glyph ids, in drawing order (left to right).
        faces: per glyph, the index into ``font_chain(font)`` of its file.
        clusters: per glyph, the index in ``text`` of the first character it shows.
        advances: per glyph, the pen advance.
        x_offsets: per glyph, the horizontal offset from the pen.
        y_offsets: per glyph, the vertical offset from the baseline, up positive
            (HarfBuzz's convention; drawing negates it).
        xs: per glyph, its origin from the run origin (pen + x offset).
        carets: per boundary ``0..len(text)``, the pen position before that
            character (ligatures are divided evenly among their characters).
        advance: the total advance.
    """

    text: str
    font: FontKey
    size: int
    glyphs: tuple[int, ...]
    faces: tuple[int, ...]
    clusters: tuple[int, ...]
    advances: tuple[int, ...]
    x_offsets: tuple[int, ...]
    y_offsets: tuple[int, ...]
    xs: tuple[int, ...]
    carets: tuple[int, ...]
    advance: int

    @property
    def width(self) -> int:
        """The width in whole px: the total advance rounded up. ``measure`` returns it."""
        return max(0, -(-self.advance // 64))

    def caret_x(self, index: int) -> int:
        """Whole px (rounded half up) from the run origin to the caret before ``text[index]``."""
        if not 0 <= index <= len(self.text):
            raise IndexError(f"caret index {index} outside 0..{len(self.text)}")
        return (self.carets[index] + 32) // 64

    def index_at(self, x: int) -> int:
        """The caret index nearest to ``x`` px from the run origin (ties go left)."""
        target = x * 64
        best, best_dist = 0, abs(self.carets[0] - target)
        for i, caret in enumerate(self.carets):
            dist = abs(caret - target)
            if dist < best_dist:
                best, best_dist = i, dist
        return best


_CONTROLS = MappingProxyType(
    {**{cp: 0x200B for cp in (*range(0x20), *range(0x7F, 0xA0))}, 0x09: 0x20}
)
_SURROGATES = re.compile("[\ud800-\udfff]")


def _clean_codepoints(text: str) -> list[int]:
    """The code points that are shaped: controls made invisible, lone surrogates U+FFFD."""
    cleaned = _SURROGATES.sub("\ufffd", text.translate(_CONTROLS))
    return [ord(ch) for ch in cleaned]


def _covers(font: LoadedFont, base: int, mark: int) -> bool:
    """Whether ``font`` can show ``mark`` after ``base``: it has the mark or their NFC composite."""
    if mark in font.codepoints:
        return True
    composed = unicodedata.normalize("NFC", chr(base) + chr(mark))
    return len(composed) == 1 and ord(composed) in font.codepoints


def _assign_faces(cps: list[int], chain: tuple[LoadedFont, ...]) -> list[int]:
    """Pick, per code point, the index of the fallback-chain file that shapes it."""
    if chain[0].codepoints.issuperset(cps):
        return [0] * len(cps)
    faces: list[int] = []
    prev = 0
    for i, cp in enumerate(cps):
        if i > 0 and attaches(cp) and _covers(chain[prev], cps[i - 1], cp):
            faces.append(prev)
            continue
        prev = next((j for j, lf in enumerate(chain) if cp in lf.codepoints), 0)
        faces.append(prev)
    return faces


def _cells(cp: int) -> int:
    """Terminal cells a code point occupies: 0 for marks and format characters, 2 for wide.

    The same rule as ``cwgym.scene.text_lines.cell_width``, so panes and runs agree.
    """
    if cp < 0x300:
        return 1
    ch = chr(cp)
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _snap_to_cells(
    cps: list[int],
    clusters: list[int],
    advances: list[int],
    x_offsets: list[int],
    cell64: int,
) -> None:
    """Make each mono cluster advance exactly its cells, glyphs centred, in place."""
    n = len(clusters)
    starts = sorted(set(clusters))
    ends = {s: e for s, e in zip(starts, [*starts[1:], len(cps)])}
    i = 0
    while i < n:
        j = i
        while j + 1 < n and clusters[j + 1] == clusters[i]:
            j += 1
        start = clusters[i]
        target = sum(_cells(cp) for cp in cps[start : ends[start]]) * cell64
        natural = sum(advances[i : j + 1])
        shift = (target - natural) // 2
        for k in range(i, j + 1):
            x_offsets[k] += shift
        advances[j] += target - natural
        i = j + 1


def _carets(text: str, clusters: list[int], pens: list[int], total: int) -> tuple[int, ...]:
    """Pen position before each character boundary 0..len(text).

    A cluster's span is divided evenly among the break units it holds (so each
    letter of a ligature gets a caret); a boundary inside a unit (before a
    combining mark) sits where its unit starts.
    """
    n_chars = len(text)
    if len(clusters) == n_chars and all(c == i for i, c in enumerate(clusters)):
        return (*pens, total)
    spans: dict[int, list[int]] = {}
    for cluster, (before, after) in zip(clusters, zip(pens, [*pens[1:], total])):
        span = spans.setdefault(cluster, [before, after])
        span[0] = min(span[0], before)
        span[1] = max(span[1], after)
    new_unit = unit_starts(text)
    starts = sorted(spans)
    carets = [0] * (n_chars + 1)
    for start, end in zip(starts, [*starts[1:], n_chars]):
        left, right = spans[start]
        unit_index = [0] * (end - start)
        count = 0
        for idx in range(start, end):
            if new_unit[idx] or idx == start:
                count += 1
            unit_index[idx - start] = count - 1
        for idx in range(start, end):
            carets[idx] = left + (right - left) * unit_index[idx - start] // count
    carets[n_chars] = total
    return tuple(carets)


@functools.lru_cache(maxsize=SHAPE_CACHE_SIZE)
def _shape_cached(text: str, font: FontKey, size: int) -> ShapedRun:
    cps = _clean_codepoints(text)
    chain = font_chain(font)
    faces_of_cp = _assign_faces(cps, chain)
    features = _FEATURES_MONO if font.is_mono else _FEATURES_SANS

    glyphs: list[int] = []
    faces: list[int] = []
    clusters: list[int] = []
    advances: list[int] = []
    x_offsets: list[int] = []
    y_offsets: list[int] = []
    start = 0
    while start < len(cps):
        face = faces_of_cp[start]
        end = start
        while end < len(cps) and faces_of_cp[end] == face:
            end += 1
        buf = hb.Buffer()
        buf.add_codepoints(cps, start, end - start)
        buf.direction = "ltr"
        buf.language = _LANGUAGE
        buf.guess_segment_properties()
        hb.shape(hb_font(chain[face].filename, size), buf, features)
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            glyphs.append(info.codepoint)
            faces.append(face)
            clusters.append(info.cluster)
            advances.append(pos.x_advance)
            x_offsets.append(pos.x_offset)
            y_offsets.append(pos.y_offset)
        start = end

    if font.is_mono and glyphs:
        original = [ord(ch) for ch in text]  # cells follow the text, not its replacements
        _snap_to_cells(original, clusters, advances, x_offsets, cell_width64(font, size))

    pens: list[int] = []
    pen = 0
    for adv in advances:
        pens.append(pen)
        pen += adv
    return ShapedRun(
        text=text,
        font=font,
        size=size,
        glyphs=tuple(glyphs),
        faces=tuple(faces),
        clusters=tuple(clusters),
        advances=tuple(advances),
        x_offsets=tuple(x_offsets),
        y_offsets=tuple(y_offsets),
        xs=tuple(p + off for p, off in zip(pens, x_offsets)),
        carets=_carets(text, clusters, pens, pen),
        advance=pen,
    )


def shape(text: str, font: FontKey | str, size: int) -> ShapedRun:
    """Shape one line of ``text`` in ``font`` at ``size`` px into positioned glyphs."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _shape_cached(text, as_font_key(font), as_size(size))


def measure(text: str, font: FontKey | str, size: int) -> int:
    """Width in whole px of one line of ``text``: its shaped advance rounded up.

    This is the width ``draw_text`` draws: both use the same ``shape`` result.
    """
    return shape(text, font, size).width
