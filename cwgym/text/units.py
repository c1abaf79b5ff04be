"""Break units: a character with the marks, joiners and selectors that belong to it.

Lines break only between units, carets stop only between units, and fallback
keeps a unit in one font file where it can. This is a small, fixed subset of
Unicode grapheme clustering (no Hangul jamo or regional-indicator rules), chosen
so that results depend only on Python's ``unicodedata`` version.
"""

from __future__ import annotations

import unicodedata

ZWJ = 0x200D


def attaches(cp: int) -> bool:
    """Whether code point ``cp`` belongs with the character before it."""
    if cp < 0x300:
        return False
    if cp in (0x200C, ZWJ) or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
        return True
    return unicodedata.category(chr(cp)) in ("Mn", "Mc", "Me")


def unit_starts(text: str) -> list[bool]:
    """Per character of ``text``, whether a new unit starts there."""
    starts: list[bool] = []
    prev = -1
    for i, ch in enumerate(text):
        cp = ord(ch)
        starts.append(i == 0 or not (attaches(cp) or prev == ZWJ))
        prev = cp
    return starts


def break_units(text: str) -> list[str]:
    """Split ``text`` into units; ``"".join`` of the result is ``text``."""
    units: list[str] = []
    for ch, new in zip(text, unit_starts(text)):
        if new:
            units.append(ch)
        else:
            units[-1] += ch
    return units
