"""The iCalendar (RFC 5545) subset the Calendar application reads and writes.

A file is one ``VCALENDAR`` holding ``VEVENT`` components (other components, such as
``VTODO`` or ``VTIMEZONE``, are kept as they are and otherwise ignored). Of an event the
application uses:

=================  ============================================================================
``UID``            required, unique in the file
``SUMMARY``        the title (may be missing: an untitled event)
``DTSTART``        required: ``YYYYMMDDTHHMMSSZ`` (UTC), ``YYYYMMDDTHHMMSS`` (floating, read as
                   UTC) or ``;VALUE=DATE:YYYYMMDD`` (an all-day event); a ``TZID`` parameter is
                   ignored (every time is read as UTC)
``DTEND``          the same form as ``DTSTART``, not before it (exclusive: an all-day event on
                   one day ends the next day); or ``DURATION`` (``P1D``, ``PT1H30M``, ``P2W``...);
                   with neither, a timed event lasts no time and an all-day event one day
``LOCATION``       where
``DESCRIPTION``    notes
``DTSTAMP``        written as the moment the event was last saved
=================  ============================================================================

Text values are unescaped (``\\n``, ``\\,``, ``\\;``, ``\\\\``) and long lines unfolded.
Every other property of an event (``RRULE``, ``ATTENDEE``, a nested ``VALARM``...) is kept
verbatim when the event is written back; recurrences are not expanded (an event with an
``RRULE`` shows its first occurrence only). An event the application did not change is
written back exactly as it was read (its unfolded lines); one it created or changed is
written in this module's form. The calendar keeps its UID counter in the
``X-CWGYM-NEXT-UID`` property: new events get ``UID:event-<n>@cwgym-calendar``.

:func:`parse` never raises: it returns the calendar or a sentence saying why the bytes are
not one.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from cwgym.kernel.calendar import civil_from_days, days_from_civil, days_in_month

__all__ = [
    "MAX_BYTES",
    "MAX_EVENTS",
    "Calendar",
    "Event",
    "empty",
    "new_uid",
    "parse",
    "serialize",
]

#: The largest calendar file the application reads.
MAX_BYTES = 1_000_000
#: The most events a calendar file may hold.
MAX_EVENTS = 2000
UID_DOMAIN = "cwgym-calendar"
PRODID = "-//cwgym//Calendar//EN"
_NEXT = "X-CWGYM-NEXT-UID"
_KNOWN = frozenset(
    ("UID", "SUMMARY", "DTSTART", "DTEND", "DURATION", "LOCATION", "DESCRIPTION", "DTSTAMP")
)
_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})")
_DATETIME = re.compile(r"(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)")
_DURATION = re.compile(r"([+-]?)P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?")


class Event(NamedTuple):
    """One ``VEVENT``. ``start`` and ``end`` are seconds since 1970-01-01 UTC (``end``
    exclusive; an all-day event starts and ends at midnight). ``extra`` are the unfolded
    lines of the properties (and nested components) the application does not use; ``raw``
    the event's unfolded lines as read (empty for an event to be written afresh)."""

    uid: str
    summary: str
    start: int
    end: int
    all_day: bool
    location: str = ""
    description: str = ""
    stamp: str = ""
    extra: tuple[str, ...] = ()
    raw: tuple[str, ...] = ()


class Calendar(NamedTuple):
    """A parsed file: the ``VCALENDAR``'s own property lines (besides ``VERSION``,
    ``PRODID`` and the UID counter), its events in file order, its other components'
    lines, and the next UID number."""

    head: tuple[str, ...]
    events: tuple[Event, ...]
    others: tuple[tuple[str, ...], ...]
    next_uid: int


def empty() -> Calendar:
    return Calendar((), (), (), 1)


def new_uid(n: int) -> str:
    return f"event-{n}@{UID_DOMAIN}"


# -- reading --------------------------------------------------------------------------------


def _unfold(text: str) -> list[tuple[int, str]]:
    """Logical lines with the number of their first physical line."""
    out: list[tuple[int, str]] = []
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if line[:1] in (" ", "\t") and out:
            out[-1] = (out[-1][0], out[-1][1] + line[1:])
        elif line.strip():
            out.append((number, line))
    return out


def _split(line: str) -> tuple[str, dict[str, str], str] | None:
    """``(NAME, {PARAM: value}, value)`` of a content line; ``None`` without a ``:``."""
    quoted = False
    colon = -1
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            colon = i
            break
    if colon < 0:
        return None
    head, value = line[:colon], line[colon + 1 :]
    parts = []
    cur, quoted = "", False
    for ch in head:
        if ch == '"':
            quoted = not quoted
            cur += ch
        elif ch == ";" and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    name = parts[0].strip().upper()
    if not name:
        return None
    params = {}
    for part in parts[1:]:
        key, _, val = part.partition("=")
        params[key.strip().upper()] = val.strip().strip('"')
    return name, params, value


def unescape(value: str) -> str:
    out = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append("\n" if nxt in "nN" else nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def escape(value: str) -> str:
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def _when(params: dict[str, str], value: str) -> tuple[int, bool] | None:
    """``(seconds since the epoch, is a date)`` of a DTSTART/DTEND value, or ``None``."""
    value = value.strip()
    if params.get("VALUE", "").upper() == "DATE" or len(value) == 8:
        m = _DATE.fullmatch(value)
        if m is None:
            return None
        y, mo, d = (int(g) for g in m.groups())
        if not (1 <= y <= 9999 and 1 <= mo <= 12 and 1 <= d <= days_in_month(y, mo)):
            return None
        return days_from_civil(y, mo, d) * 86400, True
    m = _DATETIME.fullmatch(value)
    if m is None:
        return None
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    if not (1 <= y <= 9999 and 1 <= mo <= 12 and 1 <= d <= days_in_month(y, mo)):
        return None
    if h > 23 or mi > 59 or s > 60:
        return None
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + min(s, 59), False


def _duration(value: str) -> int | None:
    m = _DURATION.fullmatch(value.strip())
    if m is None or not any(m.groups()[1:]):
        return None
    sign, w, d, h, mi, s = m.groups()
    total = (
        (int(w or 0) * 7 + int(d or 0)) * 86400
        + int(h or 0) * 3600
        + int(mi or 0) * 60
        + int(s or 0)
    )
    return -total if sign == "-" else total


def _event(lines: list[tuple[int, str]], at: int) -> Event | str:
    """An event from its lines (between BEGIN and END), or the problem."""
    props: dict[str, tuple[int, dict[str, str], str]] = {}
    extra: list[str] = []
    depth = 0
    for number, line in lines:
        parsed = _split(line)
        if parsed is None:
            return f"line {number} has no ':'"
        name, params, value = parsed
        if depth or name in ("BEGIN", "END"):
            depth += 1 if name == "BEGIN" else -1 if name == "END" else 0
            extra.append(line)
            continue
        if name in _KNOWN:
            if name in props:
                return f"line {number}: the event has two {name} properties"
            props[name] = (number, params, value)
        else:
            extra.append(line)
    if "UID" not in props or not props["UID"][2].strip():
        return f"the event that begins on line {at} has no UID"
    if "DTSTART" not in props:
        return f"the event that begins on line {at} has no DTSTART"
    number, params, value = props["DTSTART"]
    start = _when(params, value)
    if start is None:
        return f"line {number}: DTSTART {value!r} is not a date or a date-time (YYYYMMDD or YYYYMMDDTHHMMSSZ)"
    begin, all_day = start
    if "DTEND" in props:
        number, params, value = props["DTEND"]
        end = _when(params, value)
        if end is None:
            return f"line {number}: DTEND {value!r} is not a date or a date-time"
        if end[1] != all_day:
            return (
                f"line {number}: DTEND is a {'date' if end[1] else 'date-time'} but DTSTART is not"
            )
        finish = end[0]
    elif "DURATION" in props:
        number, _params, value = props["DURATION"]
        length = _duration(value)
        if length is None:
            return f"line {number}: DURATION {value!r} is not a duration such as PT1H or P1D"
        finish = begin + length
    else:
        finish = begin + (86400 if all_day else 0)
    if finish < begin:
        return f"the event that begins on line {at} ends before it starts"
    if all_day and finish == begin:
        finish = begin + 86400

    def text(name: str) -> str:
        return unescape(props[name][2]) if name in props else ""

    raw = tuple(line for _n, line in lines)
    return Event(
        props["UID"][2].strip(),
        text("SUMMARY"),
        begin,
        finish,
        all_day,
        text("LOCATION"),
        text("DESCRIPTION"),
        props["DTSTAMP"][2].strip() if "DTSTAMP" in props else "",
        tuple(extra),
        raw,
    )


@functools.lru_cache(maxsize=64)
def parse(data: bytes) -> tuple[Calendar, str]:
    """``(calendar, problem)`` of a file's bytes; ``problem`` is ``""`` for a good file and
    otherwise says what is wrong (the calendar is then empty). Blank bytes are an empty
    calendar."""
    if len(data) > MAX_BYTES:
        return empty(), f"it is larger than {MAX_BYTES // 1000} kB"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return empty(), "it is not UTF-8 text"
    lines = _unfold(text)
    if not lines:
        return empty(), ""
    first = _split(lines[0][1])
    if first is None or first[0] != "BEGIN" or first[2].strip().upper() != "VCALENDAR":
        return empty(), "it does not begin with BEGIN:VCALENDAR"
    head: list[str] = []
    events: list[Event] = []
    others: list[tuple[str, ...]] = []
    uids: set[str] = set()
    next_uid = 1
    i = 1
    closed = False
    while i < len(lines):
        number, line = lines[i]
        parsed = _split(line)
        if parsed is None:
            return empty(), f"line {number} has no ':'"
        name, _params, value = parsed
        if closed:
            return empty(), f"line {number} comes after END:VCALENDAR"
        if name == "END":
            if value.strip().upper() != "VCALENDAR":
                return empty(), f"line {number}: END:{value.strip()} closes nothing that is open"
            closed = True
            i += 1
            continue
        if name == "BEGIN":
            kind = value.strip().upper()
            depth, j, body = 1, i + 1, []
            while j < len(lines):
                sub = _split(lines[j][1])
                if sub is None:
                    return empty(), f"line {lines[j][0]} has no ':'"
                if sub[0] == "BEGIN":
                    depth += 1
                elif sub[0] == "END":
                    depth -= 1
                    if depth == 0:
                        if sub[2].strip().upper() != kind:
                            return (
                                empty(),
                                f"line {lines[j][0]}: END:{sub[2].strip()} closes BEGIN:{kind}",
                            )
                        break
                body.append(lines[j])
                j += 1
            else:
                return empty(), f"BEGIN:{kind} on line {number} is never closed"
            if kind == "VEVENT":
                event = _event(body, number)
                if isinstance(event, str):
                    return empty(), event
                if event.uid in uids:
                    return empty(), f"the UID {event.uid!r} is used by two events"
                uids.add(event.uid)
                events.append(event)
                if len(events) > MAX_EVENTS:
                    return empty(), f"it holds more than {MAX_EVENTS} events"
            else:
                others.append((line, *(x for _n, x in body), lines[j][1]))
            i = j + 1
            continue
        if name == _NEXT:
            if value.strip().isdigit():
                next_uid = max(next_uid, int(value.strip()))
        elif name not in ("VERSION", "PRODID"):
            head.append(line)
        i += 1
    if not closed:
        return empty(), "it ends before END:VCALENDAR"
    for event in events:
        m = re.fullmatch(r"event-(\d+)@" + re.escape(UID_DOMAIN), event.uid)
        if m is not None:
            next_uid = max(next_uid, int(m[1]) + 1)
    return Calendar(tuple(head), tuple(events), tuple(others), next_uid), ""


# -- writing --------------------------------------------------------------------------------


def stamp(seconds: int) -> str:
    """``YYYYMMDDTHHMMSSZ`` of a Unix time."""
    days, rest = divmod(seconds, 86400)
    y, m, d = civil_from_days(days)
    return f"{y:04d}{m:02d}{d:02d}T{rest // 3600:02d}{rest % 3600 // 60:02d}{rest % 60:02d}Z"


def _date(seconds: int) -> str:
    y, m, d = civil_from_days(seconds // 86400)
    return f"{y:04d}{m:02d}{d:02d}"


def _fold(line: str) -> list[str]:
    """A content line folded at 75 octets (continuations start with a space)."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return [line]
    out, cur, size, limit = [], "", 0, 75
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > limit:
            out.append(cur)
            cur, size, limit = " ", 1, 75
        cur += ch
        size += n
    out.append(cur)
    return out


def _event_lines(event: Event) -> list[str]:
    if event.raw:
        return list(event.raw)
    lines = [f"UID:{event.uid}"]
    if event.stamp:
        lines.append(f"DTSTAMP:{event.stamp}")
    if event.all_day:
        lines.append(f"DTSTART;VALUE=DATE:{_date(event.start)}")
        lines.append(f"DTEND;VALUE=DATE:{_date(event.end)}")
    else:
        lines.append(f"DTSTART:{stamp(event.start)}")
        lines.append(f"DTEND:{stamp(event.end)}")
    lines.append(f"SUMMARY:{escape(event.summary)}")
    if event.location:
        lines.append(f"LOCATION:{escape(event.location)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape(event.description)}")
    lines.extend(event.extra)
    return lines


def serialize(cal: Calendar) -> bytes:
    """The file's bytes: CRLF line ends, lines folded at 75 octets."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        f"{_NEXT}:{cal.next_uid}",
        *cal.head,
    ]
    for event in cal.events:
        lines.append("BEGIN:VEVENT")
        lines.extend(_event_lines(event))
        lines.append("END:VEVENT")
    for other in cal.others:
        lines.extend(other)
    lines.append("END:VCALENDAR")
    out = []
    for line in lines:
        out.extend(_fold(line))
    return ("\r\n".join(out) + "\r\n").encode("utf-8")


def replace(record: Event | Calendar, **changes: object) -> Any:
    """``record`` with ``changes`` (an :class:`Event` or :class:`Calendar` is immutable)."""
    return record._replace(**changes)
