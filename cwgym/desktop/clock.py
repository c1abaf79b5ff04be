"""The shell's clock text, from the machine's logical clock (never the host's)."""

from __future__ import annotations

from cwgym.kernel.calendar import civil

__all__ = ["MONTHS", "WEEKDAYS", "clock_text"]

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def clock_text(unix_seconds: int, *, weekday: bool = False) -> str:
    """GNOME's top-bar clock: ``Sep 17  09:00`` (``Thu Sep 17  09:00`` with ``weekday``)."""
    _, month, day, hour, minute, wd = civil(unix_seconds)
    text = f"{MONTHS[month - 1]} {day}  {hour:02d}:{minute:02d}"
    return f"{WEEKDAYS[wd]} {text}" if weekday else text
