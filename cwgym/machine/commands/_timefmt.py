"""Calendar arithmetic, GNU ``strftime`` and a ``date -d`` parser, on integers only.

The world's wall clock is ``WORLD_EPOCH_S + now_us // 10**6`` (``Clock.unix_seconds``) and
every machine keeps UTC, so nothing here knows time zones beyond numeric offsets a date
string spells out. Nothing reads the host clock.
"""

from __future__ import annotations

import re

from cwgym.kernel.calendar import civil_from_days, days_from_civil, days_in_month, is_leap

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


class Tm:
    """A broken-down UTC time (like C's ``struct tm``, with readable fields)."""

    __slots__ = (
        "day",
        "epoch",
        "hour",
        "minute",
        "month",
        "nsec",
        "offset",
        "second",
        "wday",
        "yday",
        "year",
    )

    def __init__(self, epoch: int, nsec: int = 0, offset: int = 0) -> None:
        self.epoch = epoch
        self.nsec = nsec
        self.offset = offset  # seconds east of UTC the fields are shown in
        local = epoch + offset
        days, rem = divmod(local, 86400)
        self.year, self.month, self.day = civil_from_days(days)
        self.hour, rem = divmod(rem, 3600)
        self.minute, self.second = divmod(rem, 60)
        self.wday = (days + 4) % 7  # 0 = Sunday, as in C
        self.yday = days - days_from_civil(self.year, 1, 1)  # 0-based


def iso_week(tm: Tm) -> tuple[int, int]:
    """ISO 8601 (year, week)."""
    wday_mon = (tm.wday + 6) % 7  # 0 = Monday
    thursday = tm.yday - wday_mon + 3
    year = tm.year
    if thursday < 0:
        year -= 1
        thursday += 366 if is_leap(year) else 365
    elif thursday >= (366 if is_leap(year) else 365):
        thursday -= 366 if is_leap(year) else 365
        year += 1
    return year, thursday // 7 + 1


# -- strftime ------------------------------------------------------------------------------


def _zone(offset: int, colons: int) -> str:
    sign = "-" if offset < 0 else "+"
    off = abs(offset)
    hh, rem = divmod(off, 3600)
    mm, ss = divmod(rem, 60)
    if colons == 0:
        return f"{sign}{hh:02d}{mm:02d}"
    if colons == 1:
        return f"{sign}{hh:02d}:{mm:02d}"
    if colons == 2:
        return f"{sign}{hh:02d}:{mm:02d}:{ss:02d}"
    if ss:
        return f"{sign}{hh:02d}:{mm:02d}:{ss:02d}"
    if mm:
        return f"{sign}{hh:02d}:{mm:02d}"
    return f"{sign}{hh:02d}"


_SPEC = re.compile(r"%([-_0^#+]*)(\d*)([EO]?)(:{0,3})(.)", re.S)


def strftime(fmt: str, tm: Tm, zone_name: str = "UTC") -> str:
    """GNU ``strftime`` in the C locale, with GNU's flags (``-_0^#``) and field widths."""
    out: list[str] = []
    pos = 0
    while pos < len(fmt):
        pct = fmt.find("%", pos)
        if pct < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:pct])
        match = _SPEC.match(fmt, pct)
        if match is None:  # a trailing lone '%'
            out.append(fmt[pct:])
            break
        flags, width_text, _modifier, colons, conv = match.groups()
        pos = match.end()
        if colons and conv != "z":
            out.append(match.group(0))
            continue
        text = _convert(conv, flags, width_text, len(colons), tm, zone_name)
        if text is None:
            out.append(match.group(0))
            continue
        out.append(text)
    return "".join(out)


def _num(value: int, flags: str, width_text: str, default_width: int, pad: str = "0") -> str:
    if "-" in flags:
        return str(value)
    if "_" in flags:
        pad = " "
    elif "0" in flags or "+" in flags:
        pad = "0"
    width = int(width_text) if width_text else default_width
    text = str(abs(value))
    sign = "-" if value < 0 else ""
    if pad == "0":
        return sign + text.rjust(width - len(sign), "0")
    return (sign + text).rjust(width, " ")


def _text(value: str, flags: str, width_text: str, upper_with_hash: bool = True) -> str:
    if "^" in flags:
        value = value.upper()
    elif "#" in flags:
        value = value.upper() if upper_with_hash else value.lower()
    if width_text:
        pad = "0" if "0" in flags else " "
        value = value.rjust(int(width_text), pad)
    return value


def _convert(conv: str, flags: str, width_text: str, colons: int, tm: Tm, zone: str) -> str | None:
    hour12 = tm.hour % 12 or 12
    if conv == "a":
        return _text(DAYS[(tm.wday + 6) % 7][:3], flags, width_text)
    if conv == "A":
        return _text(DAYS[(tm.wday + 6) % 7], flags, width_text)
    if conv in "bh":
        return _text(MONTHS[tm.month - 1][:3], flags, width_text)
    if conv == "B":
        return _text(MONTHS[tm.month - 1], flags, width_text)
    if conv == "c":
        return _text(strftime("%a %b %e %H:%M:%S %Y", tm, zone), flags, width_text)
    if conv == "C":
        return _num(tm.year // 100, flags, width_text, 2)
    if conv == "d":
        return _num(tm.day, flags, width_text, 2)
    if conv == "D":
        return _text(strftime("%m/%d/%y", tm, zone), flags, width_text)
    if conv == "e":
        return _num(tm.day, flags, width_text, 2, " ")
    if conv == "F":
        year_width = str(max(int(width_text) - 6, 1)) if width_text else ""
        year = _num(tm.year, flags.replace("-", ""), year_width, 4 if width_text else 1)
        return f"{year}-{tm.month:02d}-{tm.day:02d}"
    if conv == "g":
        return _num(iso_week(tm)[0] % 100, flags, width_text, 2)
    if conv == "G":
        return _num(iso_week(tm)[0], flags, width_text, 4)
    if conv == "H":
        return _num(tm.hour, flags, width_text, 2)
    if conv == "I":
        return _num(hour12, flags, width_text, 2)
    if conv == "j":
        return _num(tm.yday + 1, flags, width_text, 3)
    if conv == "k":
        return _num(tm.hour, flags, width_text, 2, " ")
    if conv == "l":
        return _num(hour12, flags, width_text, 2, " ")
    if conv == "m":
        return _num(tm.month, flags, width_text, 2)
    if conv == "M":
        return _num(tm.minute, flags, width_text, 2)
    if conv == "n":
        return "\n"
    if conv == "N":
        digits = f"{tm.nsec:09d}"
        if width_text:
            width = int(width_text)
            return digits[:width] if width <= 9 else digits.ljust(width, "0")
        return digits
    if conv == "p":
        return _text("AM" if tm.hour < 12 else "PM", flags, width_text, upper_with_hash=False)
    if conv == "P":
        return _text("am" if tm.hour < 12 else "pm", flags, width_text)
    if conv == "q":
        return _num((tm.month - 1) // 3 + 1, flags, width_text, 1)
    if conv == "r":
        return _text(strftime("%I:%M:%S %p", tm, zone), flags, width_text)
    if conv == "R":
        return _text(strftime("%H:%M", tm, zone), flags, width_text)
    if conv == "s":
        return _num(tm.epoch, flags, width_text, 1)
    if conv == "S":
        return _num(tm.second, flags, width_text, 2)
    if conv == "t":
        return "\t"
    if conv == "T":
        return _text(strftime("%H:%M:%S", tm, zone), flags, width_text)
    if conv == "u":
        return _num((tm.wday + 6) % 7 + 1, flags, width_text, 1)
    if conv == "U":
        return _num((tm.yday + 7 - tm.wday) // 7, flags, width_text, 2)
    if conv == "V":
        return _num(iso_week(tm)[1], flags, width_text, 2)
    if conv == "w":
        return _num(tm.wday, flags, width_text, 1)
    if conv == "W":
        return _num((tm.yday + 7 - (tm.wday + 6) % 7) // 7, flags, width_text, 2)
    if conv == "x":
        return _text(strftime("%m/%d/%y", tm, zone), flags, width_text)
    if conv == "X":
        return _text(strftime("%H:%M:%S", tm, zone), flags, width_text)
    if conv == "y":
        return _num(tm.year % 100, flags, width_text, 2)
    if conv == "Y":
        return _num(tm.year, flags, width_text, 4 if "0" in flags or "+" in flags else 1)
    if conv == "z":
        if colons or not (flags or width_text):
            return _text(_zone(tm.offset, colons), flags, width_text)
        sign = "-" if tm.offset < 0 else "+"
        hh, rem = divmod(abs(tm.offset), 3600)
        number = str(hh * 100 + rem // 60)
        if "-" in flags:
            return sign + number
        width = max(int(width_text) if width_text else 5, 2)
        if "_" in flags:
            return (sign + number).rjust(width)
        return sign + number.rjust(width - 1, "0")
    if conv == "Z":
        return _text(zone, flags, width_text, upper_with_hash=False)
    if conv == "%":
        return "%"
    return None


# -- common renderings ---------------------------------------------------------------------


def default_date(tm: Tm, zone: str = "UTC") -> str:
    """``date``'s default output: ``Thu Sep 17 09:00:00 UTC 2026``."""
    return strftime("%a %b %e %H:%M:%S %Z %Y", tm, zone)


def full_time(tm: Tm) -> str:
    """``stat``'s ``2026-09-17 09:00:00.000000000 +0000``."""
    return strftime("%Y-%m-%d %H:%M:%S.%N %z", tm)


# -- date strings (date -d, touch -d) ------------------------------------------------------


class DateError(ValueError):
    """``invalid``: GNU would reject it too; otherwise GNU accepts it and we do not."""

    def __init__(self, text: str, *, unsupported: bool = False) -> None:
        self.text = text
        self.unsupported = unsupported
        super().__init__(text)


_UNITS = {
    "year": ("months", 12),
    "month": ("months", 1),
    "fortnight": ("days", 14),
    "week": ("days", 7),
    "day": ("days", 1),
    "hour": ("seconds", 3600),
    "minute": ("seconds", 60),
    "min": ("seconds", 60),
    "second": ("seconds", 1),
    "sec": ("seconds", 1),
}
_MONTH_NAMES = {name[:3].lower(): i + 1 for i, name in enumerate(MONTHS)}
_MONTH_NAMES.update({name.lower(): i + 1 for i, name in enumerate(MONTHS)})
_MONTH_NAMES["sept"] = 9
_DAY_NAMES = {name.lower(): i for i, name in enumerate(DAYS)}
_DAY_NAMES.update({name[:3].lower(): i for i, name in enumerate(DAYS)})
_DAY_NAMES.update({"tues": 1, "wednes": 2, "thur": 3, "thurs": 3})
_ZONES = {"utc": 0, "gmt": 0, "z": 0, "ut": 0}
#: Words GNU's parser knows that this one does not handle: their use is refused by name.
_KNOWN_UNHANDLED = {
    "noon",
    "midnight",
    "first",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "est",
    "edt",
    "cst",
    "cdt",
    "mst",
    "mdt",
    "pst",
    "pdt",
    "bst",
    "cet",
    "cest",
    "eet",
    "jst",
    "ist",
    "dst",
}

_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<iso>\d{4}-\d{1,2}-\d{1,2})(?:T(?P<isotime>\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?))?"
    r"|(?P<slash>\d{1,2}/\d{1,2}/\d{2,4})"
    r"|(?P<time>\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)"
    r"|(?P<offset>[+-]\d{2}:\d{2})(?![\d])"
    r"|(?P<num>[+-]?\d+)"
    r"|(?P<word>[A-Za-z]+\.?)"
    r"|(?P<comma>,)"
    r")"
)


def parse_date(text: str, now_s: int, now_ns: int = 0) -> tuple[int, int]:
    """Parse a ``date -d`` string against ``now_s``; returns (Unix seconds, nanoseconds).

    Understood: ``@SECONDS[.frac]``; ``now``/``today``/``yesterday``/``tomorrow``;
    ``YYYY-MM-DD`` (optionally ``T``/space and ``HH:MM[:SS[.frac]]``), ``MM/DD/YYYY``,
    ``Mon DD [YYYY]``, ``DD Mon [YYYY]``, a leading day name that matches the date; times
    with ``am``/``pm``; ``UTC``/``Z``/``+HH:MM`` zones; relative items like ``2 days ago``,
    ``+1 week``, ``-3 hours``, ``next month``, ``last year``. Raises :class:`DateError`.
    """
    stripped = text.strip()
    if stripped.startswith("@"):
        match = re.fullmatch(r"@\s*([+-]?\d+)(?:[.,](\d+))?", stripped)
        if not match:
            raise DateError(text)
        seconds = int(match.group(1))
        frac = (match.group(2) or "").ljust(9, "0")[:9]
        nsec = int(frac)
        if seconds < 0 and nsec:
            seconds -= 1
            nsec = 1_000_000_000 - nsec
        return seconds, nsec
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(stripped):
        match = _TOKEN.match(stripped, pos)
        if match is None or match.end() == pos:
            raise DateError(text)
        kind = match.lastgroup or ""
        if kind == "isotime":
            kind = "iso"
        value = match.group(kind)
        if kind == "iso" and match.group("isotime"):
            tokens.append(("iso", value))
            tokens.append(("time", match.group("isotime")))
        else:
            tokens.append((kind, value))
        pos = match.end()
    now = Tm(now_s)
    date: tuple[int, int, int] | None = None
    clock: tuple[int, int, int, int] | None = None
    zone: int | None = None
    rel = {"months": 0, "days": 0, "seconds": 0}
    weekday: int | None = None
    i = 0

    def unit_of(word: str) -> tuple[str, int] | None:
        word = word.lower().rstrip(".")
        if word.endswith("s") and word[:-1] in _UNITS:
            word = word[:-1]
        return _UNITS.get(word)

    while i < len(tokens):
        kind, value = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if kind == "comma":
            i += 1
            continue
        if kind == "iso":
            if date is not None:
                raise DateError(text)
            y, m, d = (int(p) for p in value.split("-"))
            date = (y, m, d)
            i += 1
            continue
        if kind == "slash":
            if date is not None:
                raise DateError(text)
            m, d, y = (int(p) for p in value.split("/"))
            if len(value.split("/")[2]) == 2:
                y += 2000 if y < 69 else 1900
            date = (y, m, d)
            i += 1
            continue
        if kind == "time":
            if clock is not None:
                raise DateError(text)
            parts = re.split(r"[:.,]", value)
            hh, mm = int(parts[0]), int(parts[1])
            ss = int(parts[2]) if len(parts) > 2 else 0
            frac = int(parts[3].ljust(9, "0")[:9]) if len(parts) > 3 else 0
            i += 1
            if (
                i < len(tokens)
                and tokens[i][0] == "word"
                and tokens[i][1].lower().rstrip(".") in ("am", "pm", "a.m", "p.m")
            ):
                hh = _meridian(hh, tokens[i][1], text)
                i += 1
            clock = (hh, mm, ss, frac)
            continue
        if kind == "offset":
            if zone is not None:
                raise DateError(text)
            sign = -1 if value[0] == "-" else 1
            digits = value[1:].replace(":", "")
            zone = sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
            i += 1
            continue
        if kind == "num":
            unit = unit_of(nxt[1]) if nxt and nxt[0] == "word" else None
            if unit is not None:
                count = int(value)
                i += 2
                if (
                    i < len(tokens)
                    and tokens[i] == ("word", tokens[i][1])
                    and tokens[i][1].lower() == "ago"
                ):
                    count = -count
                    i += 1
                rel[unit[0]] += count * unit[1]
                continue
            if (
                nxt
                and nxt[0] == "word"
                and nxt[1].lower().rstrip(".") in ("am", "pm", "a.m", "p.m")
                and value.isdigit()
            ):
                if clock is not None:
                    raise DateError(text)
                clock = (_meridian(int(value), nxt[1], text), 0, 0, 0)
                i += 2
                continue
            if (
                nxt
                and nxt[0] == "word"
                and nxt[1].lower().rstrip(".") in _MONTH_NAMES
                and value.isdigit()
            ):
                # DD Mon [YYYY]
                if date is not None:
                    raise DateError(text)
                day = int(value)
                month = _MONTH_NAMES[nxt[1].lower().rstrip(".")]
                i += 2
                year = now.year
                if (
                    i < len(tokens)
                    and tokens[i][0] == "num"
                    and tokens[i][1].isdigit()
                    and len(tokens[i][1]) == 4
                ):
                    year = int(tokens[i][1])
                    i += 1
                date = (year, month, day)
                continue
            if value.isdigit() and len(value) == 4 and date is not None and date[0] == -1:
                date = (int(value), date[1], date[2])
                i += 1
                continue
            if value.isdigit() and len(value) == 8 and date is None:
                date = (int(value[:4]), int(value[4:6]), int(value[6:]))
                i += 1
                continue
            if value[0] in "+-" and zone is None and clock is not None and len(value) == 5:
                sign = -1 if value[0] == "-" else 1
                zone = sign * (int(value[1:3]) * 3600 + int(value[3:]) * 60)
                i += 1
                continue
            raise DateError(text, unsupported=True)
        # a word
        word = value.lower().rstrip(".")
        if word in ("now", "today"):
            i += 1
            continue
        if word == "yesterday":
            rel["days"] -= 1
            i += 1
            continue
        if word == "tomorrow":
            rel["days"] += 1
            i += 1
            continue
        if word in ("next", "last", "this"):
            count = {"next": 1, "last": -1, "this": 0}[word]
            unit = unit_of(nxt[1]) if nxt and nxt[0] == "word" else None
            if unit is None:
                raise DateError(
                    text,
                    unsupported=bool(nxt and nxt[0] == "word" and nxt[1].lower() in _DAY_NAMES),
                )
            rel[unit[0]] += count * unit[1]
            i += 2
            continue
        unit = unit_of(word)
        if unit is not None:
            count = 1
            i += 1
            if i < len(tokens) and tokens[i][0] == "word" and tokens[i][1].lower() == "ago":
                count = -1
                i += 1
            rel[unit[0]] += count * unit[1]
            continue
        if word in _ZONES:
            if zone is not None:
                raise DateError(text)
            zone = _ZONES[word]
            i += 1
            if i < len(tokens) and tokens[i][0] in ("offset", "num") and tokens[i][1][0] in "+-":
                raw = tokens[i][1].replace(":", "")
                sign = -1 if raw[0] == "-" else 1
                digits = raw[1:]
                if len(digits) <= 2:
                    zone = sign * int(digits) * 3600
                elif len(digits) == 4:
                    zone = sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
                else:
                    raise DateError(text)
                i += 1
            continue
        if word in _MONTH_NAMES:
            # Mon DD [YYYY]
            if date is not None:
                raise DateError(text)
            month = _MONTH_NAMES[word]
            i += 1
            if i < len(tokens) and tokens[i][0] == "num" and tokens[i][1].isdigit():
                day = int(tokens[i][1])
                i += 1
                year = -1
                while i < len(tokens) and tokens[i][0] == "comma":
                    i += 1
                if (
                    i < len(tokens)
                    and tokens[i][0] == "num"
                    and tokens[i][1].isdigit()
                    and len(tokens[i][1]) == 4
                ):
                    year = int(tokens[i][1])
                    i += 1
                date = (year, month, day)
                continue
            raise DateError(text, unsupported=True)
        if word in _DAY_NAMES:
            if weekday is not None:
                raise DateError(text)
            weekday = _DAY_NAMES[word]
            i += 1
            continue
        if word in _KNOWN_UNHANDLED or word in ("am", "pm", "ago"):
            raise DateError(text, unsupported=word not in ("am", "pm", "ago"))
        raise DateError(text)

    if date is not None and date[0] == -1:
        date = (now.year, date[1], date[2])
    if date is not None:
        y, m, d = date
        if not (1 <= m <= 12 and 1 <= d <= days_in_month(y, m)):
            raise DateError(text)
    if clock is not None:
        hh, mm, ss, _ = clock
        if not (0 <= hh <= 23 and 0 <= mm <= 59 and 0 <= ss <= 60):
            raise DateError(text)
    base_y, base_m, base_d = date if date is not None else (now.year, now.month, now.day)
    if clock is not None:
        hh, mm, ss, nsec = clock
    elif date is not None:
        hh = mm = ss = nsec = 0
    else:
        hh, mm, ss, nsec = now.hour, now.minute, now.second, now_ns
    if weekday is not None:
        shown = (days_from_civil(base_y, base_m, base_d) + 3) % 7  # 0 = Monday
        if date is None or shown != weekday:
            raise DateError(text, unsupported=True)
    months = base_y * 12 + (base_m - 1) + rel["months"]
    year, month0 = divmod(months, 12)
    days = days_from_civil(year, month0 + 1, 1) + base_d - 1 + rel["days"]
    seconds = days * 86400 + hh * 3600 + mm * 60 + ss + rel["seconds"]
    if zone is not None:
        seconds -= zone
    return seconds, nsec


def _meridian(hour: int, word: str, text: str) -> int:
    if not 1 <= hour <= 12:
        raise DateError(text)
    pm = word.lower().startswith("p")
    return (hour % 12) + (12 if pm else 0)


def parse_touch_stamp(stamp: str, now_s: int) -> int | None:
    """``touch -t [[CC]YY]MMDDhhmm[.ss]`` to Unix seconds, or ``None`` when malformed."""
    match = re.fullmatch(r"(\d+)(?:\.(\d{2}))?", stamp)
    if not match:
        return None
    digits, secs = match.group(1), match.group(2)
    if len(digits) not in (8, 10, 12):
        return None
    if len(digits) == 12:
        year = int(digits[:4])
        digits = digits[4:]
    elif len(digits) == 10:
        yy = int(digits[:2])
        year = 2000 + yy if yy < 69 else 1900 + yy
        digits = digits[2:]
    else:
        year = Tm(now_s).year
    month, day, hour, minute = (int(digits[i : i + 2]) for i in range(0, 8, 2))
    second = int(secs) if secs else 0
    if not (1 <= month <= 12 and 1 <= day <= days_in_month(year, month)):
        return None
    if hour > 23 or minute > 59 or second > 60:
        return None
    return days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
