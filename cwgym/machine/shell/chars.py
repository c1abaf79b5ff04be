"""Character classes as bash sees them: ASCII only, whatever Unicode calls a digit."""

from __future__ import annotations


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``str.isdigit`` also accepts ``'፩'``)."""
    return text.isascii() and text.isdigit()
