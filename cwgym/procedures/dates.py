"""Calendar dates for parameters and the ``date`` filter, independent of the host locale."""

from __future__ import annotations

import datetime

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def parse_iso(text: str) -> datetime.date:
    """``YYYY-MM-DD`` to a date; ``ValueError`` otherwise."""
    if not isinstance(text, str) or len(text) != 10:
        raise ValueError(f"not an ISO date (YYYY-MM-DD): {text!r}")
    return datetime.date.fromisoformat(text)


def add_days(text: str, days: int) -> str:
    return (parse_iso(text) + datetime.timedelta(days=days)).isoformat()


def days_between(start: str, end: str) -> int:
    return (parse_iso(end) - parse_iso(start)).days


def format_date(text: str, pattern: str) -> str:
    """Format an ISO date with ``%Y %m %d %e %B %b %A %a %j %%`` (English names always)."""
    day = parse_iso(text)
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch != "%" or i + 1 == len(pattern):
            out.append(ch)
            i += 1
            continue
        code = pattern[i + 1]
        i += 2
        if code == "Y":
            out.append(f"{day.year:04d}")
        elif code == "m":
            out.append(f"{day.month:02d}")
        elif code == "d":
            out.append(f"{day.day:02d}")
        elif code == "e":
            out.append(str(day.day))
        elif code == "B":
            out.append(MONTHS[day.month - 1])
        elif code == "b":
            out.append(MONTHS[day.month - 1][:3])
        elif code == "A":
            out.append(WEEKDAYS[day.weekday()])
        elif code == "a":
            out.append(WEEKDAYS[day.weekday()][:3])
        elif code == "j":
            out.append(f"{day.timetuple().tm_yday:03d}")
        elif code == "%":
            out.append("%")
        else:
            raise ValueError(f"unknown date format code %{code}")
    return "".join(out)


def is_weekday(text: str) -> bool:
    return parse_iso(text).weekday() < 5
