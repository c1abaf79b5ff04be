"""The shell's clock text, from the machine's logical clock (never the host's)."""

from __future__ import annotations

__all__ = ["MONTHS", "WEEKDAYS", "civil", "clock_text"]

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def civil(unix_seconds: int) -> tuple[int, int, int, int, int, int]:
    """``(year, month, day, hour, minute, weekday)`` in UTC; weekday 0 is Monday."""
    days, rest = divmod(unix_seconds, 86400)
    hour, minute = rest // 3600, (rest % 3600) // 60
    weekday = (days + 3) % 7  # 1970-01-01 was a Thursday
    # Howard Hinnant's days-to-civil algorithm.
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day, hour, minute, weekday


def clock_text(unix_seconds: int, *, weekday: bool = False) -> str:
    """GNOME's top-bar clock: ``Sep 17  09:00`` (``Thu Sep 17  09:00`` with ``weekday``)."""
    _, month, day, hour, minute, wd = civil(unix_seconds)
    text = f"{MONTHS[month - 1]} {day}  {hour:02d}:{minute:02d}"
    return f"{WEEKDAYS[wd]} {text}" if weekday else text
