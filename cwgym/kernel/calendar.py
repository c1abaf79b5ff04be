"""The one civil calendar of the simulator: proleptic Gregorian dates in UTC.

Every clock the world shows (``date``, ``ls -l``, ``diff``'s headers, the top bar, the file
manager) turns logical time into a date here. The conversions are Howard Hinnant's
``days_from_civil`` / ``civil_from_days``, exact for any integer day count (years before 1
included), so a date never depends on the host's time zone or C library.
"""

from __future__ import annotations

__all__ = ["civil", "civil_from_days", "days_from_civil", "days_in_month", "is_leap", "weekday"]


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of the date ``year-month-day``."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """``(year, month, day)`` of the date ``days`` after 1970-01-01 (negative: before)."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def weekday(days: int) -> int:
    """The weekday of the date ``days`` after 1970-01-01; 0 is Monday (1970-01-01 was a Thursday)."""
    return (days + 3) % 7


def civil(unix_seconds: int) -> tuple[int, int, int, int, int, int]:
    """``(year, month, day, hour, minute, weekday)`` of a Unix time in UTC; weekday 0 is Monday."""
    days, rest = divmod(unix_seconds, 86400)
    year, month, day = civil_from_days(days)
    return year, month, day, rest // 3600, (rest % 3600) // 60, weekday(days)


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if is_leap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31
