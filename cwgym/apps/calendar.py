"""``calendar``: Calendar, in the manner of GNOME Calendar — month, week and day views of the
events kept in an iCalendar file, reminders, and invitations from a calendar service.

The events live in :data:`CALENDAR_FILE` (``~/.local/share/calendar/calendar.ics``), the
subset of iCalendar described in :mod:`cwgym.apps._ical`. Every window reads the file when
it paints, so every Calendar window and every session sees the same events; each change
(add, edit, delete, undo) rewrites it. A file that is not a calendar is reported in a red
banner and the calendar shows no events; the file is left as it is until the user saves a
change, which first copies it to ``calendar.ics.damaged`` and then writes a new file holding
only the change.

Dates and times are the machine's wall clock (the logical clock, UTC: tick 0 is Thursday
17 September 2026 09:00); weeks start on Monday. Every event that starts after now has a
reminder: a notification scheduled with :func:`cwgym.machine.notifications.schedule` under
the key ``calendar:<UID>`` 15 minutes before it starts. Deleting an event unschedules it,
changing its time reschedules it; events written into the file by other means are scheduled
the next time a Calendar window opens or handles an event.

Invitations come from the world's calendar service (:mod:`cwgym.services.calendar`) through
the machine's network, with the account in :data:`ACCOUNT_FILE`
(``~/.config/calendar/account.json``: ``{"server", "user", "password"}``, which the *Add
Account* dialog writes after the server accepted it). The *Invitations* panel lists the
events the account is invited to and has not answered (``GET /api/events``); *Accept* and
*Decline* answer (``POST /api/events/<id>/respond``); an accepted invitation is also added
to the local calendar (UID ``invite-<id>@<server host>``). Without an account, or when the
server cannot be reached, the panel says "No calendar account". The desktop's calendar sync
(:mod:`cwgym.machine.invitations`) polls the same account in the background and raises a
notification for each new invitation.

Control targets (``window:<id>:content:<target>``):

* header: ``today``, ``prev``, ``next``, ``view:month``, ``view:week``, ``view:day``,
  ``new-event``, ``invitations`` (shows or hides the Invitations panel);
* month view: ``day:YYYY-MM-DD`` (a day cell: a new all-day event that day),
  ``more:YYYY-MM-DD`` (that day's view), ``event:<key>`` (edit the event);
* week and day views: ``day:YYYY-MM-DD`` (a column's heading: that day's view),
  ``slot:YYYY-MM-DDTHH`` (an hour: a new event at that hour), ``allday:YYYY-MM-DD`` (a
  new all-day event), ``more:YYYY-MM-DD``, ``event:<key>``;
* the event dialog: ``event-title``, ``event-date``, ``event-start``, ``event-end``,
  ``event-location``, ``event-notes`` (fields), ``event-save``, ``event-cancel``,
  ``event-delete`` (an existing event only);
* the Invitations panel: ``invitations-refresh``, ``invite-accept:<id>``,
  ``invite-decline:<id>``, ``account-add``, ``account-remove``; the account dialog's
  ``account-server``, ``account-user``, ``account-password``, ``account-connect``,
  ``account-cancel``.

``<key>`` is the event's UID when it is made of letters, digits and ``@._+-`` (at most 120
characters), else ``h`` and the first 16 hex digits of its SHA-1.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from typing import Any

from cwgym.apps import _ical as ical
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.kernel.calendar import civil_from_days, days_from_civil, days_in_month, weekday
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine import notifications
from cwgym.machine.filesystem import FsError
from cwgym.machine.invitations import ACCOUNT_FILE
from cwgym.machine.view import NetFailure
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, Symbol, UiText, UiTextBold
from cwgym.text import line_height, measure, wrap

__all__ = [
    "ACCOUNT_FILE",
    "CALENDAR_FILE",
    "FIELD_CAPS",
    "REMINDER_S",
    "UNDO_MAX",
    "Calendar",
]

CALENDAR_FILE = ".local/share/calendar/calendar.ics"
#: How long before an event its reminder rings.
REMINDER_S = 15 * 60
#: How many changes Undo remembers.
UNDO_MAX = 20
#: The most invitations the panel lists.
INVITES_MAX = 50
#: The longest text each field takes.
FIELD_CAPS = {
    "event-title": 200,
    "event-date": 10,
    "event-start": 5,
    "event-end": 16,
    "event-location": 200,
    "event-notes": 500,
    "account-server": 200,
    "account-user": 64,
    "account-password": 128,
}
_CHARSETS = {
    "event-date": frozenset("0123456789-"),
    "event-start": frozenset("0123456789:"),
    "event-end": frozenset("0123456789:- "),
}
EVENT_FIELDS = (
    "event-title",
    "event-date",
    "event-start",
    "event-end",
    "event-location",
    "event-notes",
)
ACCOUNT_FIELDS = ("account-server", "account-user", "account-password")
_FIELD_LABELS = {
    "event-title": "Title",
    "event-date": "Date",
    "event-start": "Starts",
    "event-end": "Ends",
    "event-location": "Location",
    "event-notes": "Notes",
    "account-server": "Server",
    "account-user": "User name",
    "account-password": "Password",
}
VIEWS = (("day", "Day"), ("week", "Week"), ("month", "Month"))
_VIEW_IDS = tuple(v for v, _ in VIEWS)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

US = 1_000_000
NOW_LINE = (224, 27, 36, 255)
EVENT_FILL = (53, 132, 228, 255)
EVENT_INK = (255, 255, 255, 255)
TOP_H = 52
BANNER_H = 44
MARGIN = 12
PANEL_W = 300
GUTTER = 56
HOUR_H = 48
HEAD_H = 44
ALLDAY_LINE = 20
ALLDAY_LINES = 2
LINE_H = 18
_KEY_OK = re.compile(r"[A-Za-z0-9@._+-]{1,120}")
_TIME = re.compile(r"(\d{1,2})(?::(\d{2}))?")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


# -- dates ---------------------------------------------------------------------------------


def _now_s(ctx: AppContext) -> int:
    return WORLD_EPOCH_S + ctx.now_us // US


def _iso(day: int) -> str:
    y, m, d = civil_from_days(day)
    return f"{y:04d}-{m:02d}-{d:02d}"


def _parse_iso(text: str) -> int | None:
    m = _ISO.fullmatch(text.strip())
    if m is None:
        return None
    y, mo, d = (int(g) for g in m.groups())
    if not (1 <= y <= 9999 and 1 <= mo <= 12 and 1 <= d <= days_in_month(y, mo)):
        return None
    return days_from_civil(y, mo, d)


#: The days the calendar can show: years 1 to 9999 (a month view keeps a week of margin).
_FIRST_DAY = days_from_civil(1, 2, 1)
_LAST_DAY = days_from_civil(9999, 11, 30)


def _clamp(day: int) -> int:
    return max(_FIRST_DAY, min(_LAST_DAY, day))


def _parse_time(text: str) -> int | None:
    """Minutes after midnight of ``H``, ``HH``, ``H:MM`` or ``HH:MM``."""
    m = _TIME.fullmatch(text.strip())
    if m is None:
        return None
    h, mi = int(m[1]), int(m[2] or 0)
    if h > 23 or mi > 59:
        return None
    return h * 60 + mi


def _long(day: int) -> str:
    y, m, d = civil_from_days(day)
    return f"{WEEKDAYS[weekday(day)]}, {d} {MONTHS[m - 1]} {y}"


def _hm(seconds: int) -> str:
    rest = seconds % 86400
    return f"{rest // 3600:02d}:{rest % 3600 // 60:02d}"


def _month_start(day: int) -> int:
    y, m, _d = civil_from_days(day)
    return days_from_civil(y, m, 1)


def _shift_month(day: int, step: int) -> int:
    y, m, d = civil_from_days(day)
    k = y * 12 + (m - 1) + step
    y, m = divmod(k, 12)
    m += 1
    return days_from_civil(y, m, min(d, days_in_month(y, m)))


def _period(view: str, day: int) -> tuple[int, int]:
    """The first day and the number of days a view of ``day`` shows (the month view: its
    six weeks)."""
    if view == "day":
        return day, 1
    if view == "week":
        return day - weekday(day), 7
    first = _month_start(day)
    return first - weekday(first), 42


def _heading(view: str, day: int) -> str:
    y, m, _d = civil_from_days(day)
    if view == "month":
        return f"{MONTHS[m - 1]} {y}"
    if view == "day":
        return _long(day)
    first = day - weekday(day)
    y1, m1, d1 = civil_from_days(first)
    y2, m2, d2 = civil_from_days(first + 6)
    if y1 != y2:
        return f"{d1} {MONTHS[m1 - 1]} {y1} – {d2} {MONTHS[m2 - 1]} {y2}"
    if m1 != m2:
        return f"{d1} {MONTHS[m1 - 1]} – {d2} {MONTHS[m2 - 1]} {y2}"
    return f"{d1}–{d2} {MONTHS[m2 - 1]} {y2}"


def _when(event: ical.Event) -> str:
    """How an event's time reads: ``Thursday, 17 September 2026, 10:00–11:00``."""
    first = event.start // 86400
    if event.all_day:
        last = event.end // 86400 - 1
        if last <= first:
            return f"{_long(first)}, all day"
        return f"{_long(first)} – {_long(last)}, all day"
    if (event.end - 1) // 86400 == first or event.end == event.start:
        return f"{_long(first)}, {_hm(event.start)}–{_hm(event.end)}"
    return f"{_long(first)} {_hm(event.start)} – {_long(event.end // 86400)} {_hm(event.end)}"


def _key(uid: str) -> str:
    if _KEY_OK.fullmatch(uid):
        return uid
    return "h" + hashlib.sha1(uid.encode("utf-8")).hexdigest()[:16]


def _covers(event: ical.Event, day: int) -> bool:
    lo, hi = day * 86400, (day + 1) * 86400
    if event.end == event.start:
        return lo <= event.start < hi
    return event.start < hi and event.end > lo


# -- the file --------------------------------------------------------------------------------


def _path(home: str, relative: str = CALENDAR_FILE) -> str:
    return f"{home}/{relative}"


def _read_bytes(ctx: AppContext) -> tuple[bytes | None, str]:
    """The calendar file's bytes (``None``: there is none) and a problem reading it."""
    try:
        return ctx.files().read(_path(ctx.home), ctx.home), ""
    except FsError as exc:
        if exc.code == "ENOENT":
            return None, ""
        return None, f"Could not read ~/{CALENDAR_FILE}: {exc.strerror_text}."


def _load(data: bytes | None, problem: str) -> tuple[ical.Calendar, str]:
    """The calendar and the banner's sentence ("" when the file is fine or missing)."""
    if problem:
        return ical.empty(), problem
    if data is None:
        return ical.empty(), ""
    cal, bad = ical.parse(data)
    if bad:
        return cal, (
            f"The calendar file ~/{CALENDAR_FILE} is damaged ({bad}). Calendar shows no events "
            "and leaves the file as it is until you save a change."
        )
    return cal, ""


def _read(ctx: AppContext) -> tuple[ical.Calendar, str, bool]:
    """``(calendar, banner, damaged)``: ``damaged`` when a file is there that is not a
    calendar (saving a change then starts a new one)."""
    data, problem = _read_bytes(ctx)
    cal, banner = _load(data, problem)
    return cal, banner, bool(banner) and not problem


def _mkdirs(ctx: AppContext, folder: str) -> None:
    ufs = ctx.files()
    current = ""
    for part in [p for p in folder.split("/") if p]:
        current += "/" + part
        if not ufs.exists(current, "/"):
            ufs.mkdir(current, "/", 0o755)


def _write(ctx: AppContext, cal: ical.Calendar, damaged: bool) -> str:
    """Write the calendar file (copying a damaged one aside first); the problem, or ""."""
    ufs = ctx.files()
    path = _path(ctx.home)
    try:
        _mkdirs(ctx, path.rsplit("/", 1)[0])
        if damaged:
            old = ufs.read(path, "/")
            ufs.write(path + ".damaged", "/", old, mode=0o644)
        ufs.write(path, "/", ical.serialize(cal), mode=0o644)
    except FsError as exc:
        return f"Could not save ~/{CALENDAR_FILE}: {exc.strerror_text}."
    return ""


# -- reminders -----------------------------------------------------------------------------


def _reminder_key(uid: str) -> str:
    return f"calendar:{uid}"


def _due_us(event: ical.Event) -> int:
    return (event.start - REMINDER_S - WORLD_EPOCH_S) * US


def _reminder_body(event: ical.Event) -> str:
    text = "All day" if event.all_day else f"Starts at {_hm(event.start)}"
    return f"{text} · {event.location}" if event.location else text


def _table(cal: ical.Calendar) -> tuple[tuple[int, int, str, str, str, str], ...]:
    """Every event's reminder, soonest first: ``(start, due_us, key, uid, summary, body)``
    (summary and body cut as the schedule keeps them)."""
    rows = [
        (
            e.start,
            _due_us(e),
            _reminder_key(e.uid),
            e.uid,
            (e.summary or "Untitled event")[: notifications.SUMMARY_MAX],
            _reminder_body(e)[: notifications.BODY_MAX],
        )
        for e in cal.events
    ]
    return tuple(sorted(rows, key=lambda r: (r[1], r[2])))


@functools.lru_cache(maxsize=16)
def _table_of(data: bytes) -> tuple[tuple[int, int, str, str, str, str], ...] | None:
    """:func:`_table` of a calendar file's bytes (``None``: not a calendar)."""
    cal, bad = ical.parse(data)
    return None if bad else _table(cal)


@functools.lru_cache(maxsize=16)
def _scheduled_of(data: bytes) -> tuple[dict[str, tuple[Any, Any, Any]], int]:
    """The ``calendar:`` entries of a schedule file's bytes (key -> (due, summary, body))
    and how many other entries it holds."""
    try:
        items = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}, 0
    ours, others = {}, 0
    for s in items if isinstance(items, list) else []:
        if not isinstance(s, dict) or not isinstance(s.get("due_us"), int):
            continue
        key = s.get("key")
        if isinstance(key, str) and key.startswith("calendar:"):
            ours[key] = (s.get("due_us"), s.get("summary"), s.get("body"))
        else:
            others += 1
    return ours, others


def _sync(ctx: AppContext, table: tuple, keep: str = "") -> None:
    """Bring the schedule of ``calendar:`` reminders in line with the events: one for each
    event that starts after now whose reminder time is still to come (and for ``keep``, an
    event just saved, even when it starts within 15 minutes: its reminder rings at once; a
    reminder already scheduled stays until it rings),
    the soonest first while the schedule has room (:data:`notifications.SCHEDULED_MAX`
    entries in all)."""
    machine = ctx.machine
    try:
        data = machine.fs.read_path(f"{machine.home}/{notifications.SCHEDULED_FILE}")
    except (FsError, KeyError):
        data = b"[]"
    have, others = _scheduled_of(data)
    now_s, now_us = _now_s(ctx), ctx.now_us
    room = max(0, notifications.SCHEDULED_MAX - others)
    want: dict[str, tuple[int, str, str]] = {}
    for start, due, key, uid, summary, body in table:
        if start > now_s and (due > now_us or uid == keep or key in have):
            want[key] = (due, summary, body)
            if len(want) >= room:
                break
    if want == have:
        return
    try:
        for key in sorted(set(have) - set(want)):
            notifications.unschedule(machine, key)
        for key in sorted(want, key=lambda k: (want[k][0], k)):
            if have.get(key) != want[key]:
                notifications.schedule(
                    machine, key, want[key][0], "calendar", want[key][1], want[key][2]
                )
    except (ValueError, notifications.UserDataError):
        return


def _sync_file(ctx: AppContext) -> None:
    """:func:`_sync` with the calendar file as it is (nothing when it is damaged)."""
    data, problem = _read_bytes(ctx)
    if problem:
        return
    table = () if data is None else _table_of(data)
    if table is not None:
        _sync(ctx, table)


# -- fields --------------------------------------------------------------------------------


def _span(f: dict) -> tuple[int, int]:
    a, c = f["anchor"], f["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _field_insert(name: str, f: dict, text: str) -> None:
    """Type ``text`` into field ``name`` over its selection, within its cap and character
    set; otherwise :class:`InvalidInput`, changing nothing."""
    text = "".join(
        ch if ch.isprintable() else " " for ch in text.replace("\r\n", " ").replace("\n", " ")
    )
    allowed = _CHARSETS.get(name)
    if allowed is not None and not all(ch in allowed for ch in text):
        raise InvalidInput(f"{_FIELD_LABELS[name]} takes {''.join(sorted(allowed)).strip()!r} only")
    s, e = _span(f)
    new = f["text"][:s] + text + f["text"][e:]
    if len(new) > FIELD_CAPS[name]:
        raise InvalidInput(f"{_FIELD_LABELS[name]} holds at most {FIELD_CAPS[name]} characters")
    f["text"], f["caret"], f["anchor"] = new, s + len(text), None


def _event_plain(e: ical.Event) -> dict:
    return {
        "uid": e.uid,
        "summary": e.summary,
        "start": e.start,
        "end": e.end,
        "all_day": e.all_day,
        "location": e.location,
        "description": e.description,
        "stamp": e.stamp,
        "extra": list(e.extra),
        "raw": list(e.raw),
    }


def _event_from(d: dict) -> ical.Event:
    return ical.Event(
        d["uid"],
        d["summary"],
        d["start"],
        d["end"],
        d["all_day"],
        d["location"],
        d["description"],
        d["stamp"],
        tuple(d["extra"]),
        tuple(d["raw"]),
    )


def _end_text(e: ical.Event) -> str:
    """What the Ends field shows for an event (see :meth:`Calendar._parse_dialog`)."""
    first = e.start // 86400
    if e.all_day:
        last = e.end // 86400 - 1
        return "" if last <= first else _iso(last)
    end_day, start_tod, end_tod = e.end // 86400, e.start % 86400, e.end % 86400
    if end_day == first and e.end > e.start:
        return _hm(e.end)
    if end_day == first + 1 and end_tod < start_tod:  # overnight: "HH:MM" reads as the next day
        return _hm(e.end)
    return f"{_iso(end_day)} {_hm(e.end)}"


# -- the account -----------------------------------------------------------------------------


def _read_account(ctx: AppContext) -> tuple[dict | None, str]:
    """The account (``{server, user, password}``) or ``None``, and a problem with its file."""
    try:
        data = ctx.files().read(_path(ctx.home, ACCOUNT_FILE), ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT":
            return None, ""
        return None, f"Could not read ~/{ACCOUNT_FILE}: {exc.strerror_text}."
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        value = None
    if (
        not isinstance(value, dict)
        or not all(isinstance(value.get(k), str) for k in ("server", "user", "password"))
        or _server(value["server"]) is None
    ):
        return (
            None,
            f"The account file ~/{ACCOUNT_FILE} is damaged: it is not {{server, user, password}}.",
        )
    return {
        "server": _server(value["server"]),
        "user": value["user"],
        "password": value["password"],
    }, ""


def _server(text: str) -> str | None:
    """``http://host[:port]`` of what was typed as a server (a bare host gets ``http://``)."""
    text = text.strip().rstrip("/")
    if "://" not in text:
        text = "http://" + text
    m = re.fullmatch(r"(https?)://([A-Za-z0-9.-]+)(:\d{1,5})?", text, re.IGNORECASE)
    if m is None:
        return None
    return f"{m[1].lower()}://{m[2].lower()}{m[3] or ''}"


def _host(server: str) -> str:
    return server.split("://", 1)[1].split(":")[0]


def _request(
    ctx: AppContext, account: dict, method: str, path: str, body: Any = None
) -> tuple[int, Any] | str:
    """One JSON exchange with the calendar service: ``(status, value)`` or the problem."""
    net = ctx.machine.net
    host = _host(account["server"])
    if net is None:
        return "This computer is not on a network."
    token = base64.b64encode(f"{account['user']}:{account['password']}".encode()).decode("ascii")
    headers = [("Authorization", f"Basic {token}"), ("Accept", "application/json")]
    data = b""
    if body is not None:
        headers.append(("Content-Type", "application/json"))
        data = json.dumps(body, sort_keys=True).encode("utf-8")
    try:
        status, _headers, answer = net.request(method, account["server"] + path, headers, data)
    except NetFailure as exc:
        return f"Could not reach {host}: {exc.detail}."
    except ValueError as exc:
        return f"Could not reach {host}: {exc}."
    if status == 401:
        return f"{host} refused the user name or password."
    try:
        value = json.loads(answer.decode("utf-8")) if answer else None
    except (UnicodeDecodeError, ValueError):
        return f"{host} did not answer as a calendar service (HTTP {status})."
    if status >= 400:
        reason = value.get("error") if isinstance(value, dict) else None
        return f"{host} answered HTTP {status}" + (
            f": {reason}." if isinstance(reason, str) else "."
        )
    return status, value


def _no_invites(message: str = "", account: str = "") -> dict:
    return {"status": "none", "account": account, "message": message, "items": [], "notice": ""}


# -- geometry ------------------------------------------------------------------------------


def _body_rect(width: int, height: int, state: dict, banner: bool) -> Rect:
    top = TOP_H + (BANNER_H if banner else 0)
    w = width - (PANEL_W if state["panel"] and width > PANEL_W + 200 else 0)
    return Rect(0, top, max(0, w), max(0, height - top))


def _header_rects(width: int) -> dict[str, Rect]:
    out = {"today": Rect(MARGIN, 10, measure("Today", "sans", 14) + 28, 32)}
    x = out["today"].right + 8
    out["prev"] = Rect(x, 10, 36, 32)
    out["next"] = Rect(x + 40, 10, 36, 32)
    right = width - MARGIN
    for name, label in (("new-event", "New Event"), ("invitations", "Invitations")):
        w = measure(label, "sans", 14) + 28
        out[name] = Rect(right - w, 10, w, 32)
        right -= w + 8
    right -= 8
    for view, label in reversed(VIEWS):
        w = measure(label, "sans", 14) + 24
        out[f"view:{view}"] = Rect(right - w, 10, w, 32)
        right -= w
    return out


def _dialog_box(width: int, height: int) -> Rect:
    w = max(300, min(520, width - 32))
    h = 420
    return Rect((width - w) // 2, max(0, (height - h) // 2), w, h)


def _dialog_rects(width: int, height: int, kind: str) -> dict[str, Rect]:
    box = _dialog_box(width, height)
    x, w = box.x + 20, box.width - 40
    if kind == "account":
        out = {
            "account-server": Rect(x, box.y + 90, w, 34),
            "account-user": Rect(x, box.y + 156, w, 34),
            "account-password": Rect(x, box.y + 222, w, 34),
        }
        buttons = (("account-connect", "Connect"), ("account-cancel", "Cancel"))
    else:
        third = (w - 16) // 3
        out = {
            "event-title": Rect(x, box.y + 74, w, 34),
            "event-date": Rect(x, box.y + 140, third, 34),
            "event-start": Rect(x + third + 8, box.y + 140, third, 34),
            "event-end": Rect(x + 2 * (third + 8), box.y + 140, w - 2 * (third + 8), 34),
            "event-location": Rect(x, box.y + 206, w, 34),
            "event-notes": Rect(x, box.y + 272, w, 34),
        }
        buttons = (("event-save", "Save"), ("event-cancel", "Cancel"))
        out["event-delete"] = Rect(x, box.bottom - 50, measure("Delete", "sans", 14) + 32, 34)
    bx = box.right - 20
    for name, label in buttons:
        bw = measure(label, "sans", 14) + 32
        bx -= bw
        out[name] = Rect(bx, box.bottom - 50, bw, 34)
        bx -= 8
    return out


def _lanes(items: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any, int, int]]:
    """Side-by-side placement of overlapping intervals: ``(start, end, item, lane,
    lanes)``, each cluster of overlapping items sharing the width."""
    items = sorted(items, key=lambda t: (t[0], -t[1]))
    out: list[tuple[int, int, Any, int, int]] = []
    cluster: list[list] = []
    cluster_end = None
    ends: list[int] = []

    def flush() -> None:
        n = max((c[3] for c in cluster), default=-1) + 1
        out.extend((c[0], c[1], c[2], c[3], n) for c in cluster)

    for start, end, item in items:
        end = max(end, start + 1)
        if cluster_end is not None and start >= cluster_end:
            flush()
            cluster, ends, cluster_end = [], [], None
        lane = next((i for i, e in enumerate(ends) if e <= start), None)
        if lane is None:
            lane = len(ends)
            ends.append(end)
        else:
            ends[lane] = end
        cluster.append([start, end, item, lane])
        cluster_end = end if cluster_end is None else max(cluster_end, end)
    flush()
    return out


def _visible(cal: ical.Calendar, first: int, count: int) -> list[ical.Event]:
    """The events showing in the days ``first`` .. ``first + count - 1``, by start."""
    lo, hi = first * 86400, (first + count) * 86400
    found = [
        e
        for e in cal.events
        if (e.start < hi and e.end > lo) or (e.start == e.end and lo <= e.start < hi)
    ]
    return sorted(found, key=lambda e: (e.start, not e.all_day, e.end, e.uid))


def _day_events(events: list[ical.Event], day: int) -> list[ical.Event]:
    out = [e for e in events if _covers(e, day)]
    return sorted(out, key=lambda e: (not e.all_day, e.start, e.end, e.uid))


class Calendar(App):
    id = "calendar"
    label = "Calendar"
    kind = "native"
    default_size = (980, 680)
    min_size = (640, 480)
    focus_keys = ("focus",)

    # -- lifecycle -------------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        today = _now_s(ctx) // 86400
        day = today
        if argument:
            parsed = _parse_iso(argument)
            if parsed is None:
                raise AppError(f"Calendar opens a date YYYY-MM-DD, not {argument!r}")
            day = _clamp(parsed)
        state: dict[str, Any] = {
            "view": "month",
            "day": day,
            "sel": "",
            "dialog": None,
            "focus": "",
            "error": "",
            "panel": False,
            "invites": _no_invites(),
            "undo": [],
            "redo": [],
        }
        _sync_file(ctx)
        return state

    def title(self, state: dict) -> str:
        return ""  # the theme's label: "Calendar"

    # -- painting ----------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        data, problem = _read_bytes(ctx)
        return data, problem, _now_s(ctx) // 60

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        data, problem, minute = key
        cal, banner = _load(data, problem)
        pal = p.palette
        banner = banner or state["error"]
        p.box(Rect(0, 0, p.width, TOP_H), pal.get("header", pal["button"]), key="cal-top")
        self._paint_header(p, state)
        if banner:
            for i, line in enumerate(wrap(banner, "sans", 13, max(1, p.width - 2 * MARGIN))[:2]):
                p.text(
                    line,
                    MARGIN,
                    TOP_H + 5 + 17 * i,
                    size=13,
                    color=ERROR,
                    width=p.width - 2 * MARGIN,
                    key=("cal-banner", i),
                )
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(MARGIN, TOP_H + 3, p.width - 2 * MARGIN, BANNER_H - 6),
                key="cal-alert",
                semantic=Semantic("alert", banner),
            )
        body = _body_rect(p.width, p.height, state, bool(banner))
        first, count = _period(state["view"], state["day"])
        events = _visible(cal, first, count)
        today = minute // 1440
        if state["view"] == "month":
            p.reuse(
                ("cal-month", state["day"], state["sel"], today, body, tuple(events)),
                self._paint_month,
                body,
                state,
                events,
                today,
            )
        else:
            self._paint_columns(p, body, state, events, first, count, minute)
        if state["panel"] and p.width > PANEL_W + 200:
            self._paint_panel(p, state, body)
        dialog = state["dialog"]
        if dialog is not None:
            p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="cal-scrim")
            if dialog["kind"] == "account":
                self._paint_account_dialog(p, state, dialog)
            else:
                self._paint_event_dialog(p, state, dialog)

    def _paint_header(self, p: Painter, state: dict) -> None:
        pal = p.palette
        rects = _header_rects(p.width)
        p.button("today", "Today", rects["today"])
        for name, glyph, label in (
            ("prev", "chevron-left", "Previous"),
            ("next", "chevron-right", "Next"),
        ):
            r = rects[name]
            p.paint(
                RoundedBox(pal["button"], 6, pal["border"], 1),
                r,
                key=("cal-nav", name),
                target=name,
                semantic=Semantic("button", label, None, False, True),
            )
            p.paint(
                Symbol(glyph, pal["text"], 16),
                Rect(r.x + (r.width - 16) // 2, r.y + 8, 16, 16),
                key=("cal-nav-g", name),
                target=name,
            )
        title = _heading(state["view"], state["day"])
        tx = rects["next"].right + 16
        limit = rects["view:day"].x - 12 - tx
        if limit > 40:
            p.paint(
                UiTextBold(title, 18, pal["text"]),
                Rect(
                    tx,
                    14,
                    min(limit, measure(title, "sans-bold", 18)),
                    line_height("sans-bold", 18),
                ),
                key="cal-heading",
                semantic=Semantic("heading", title),
                clip=Rect(tx, 0, limit, TOP_H),
            )
        for view, label in VIEWS:
            r = rects[f"view:{view}"]
            on = state["view"] == view
            p.paint(
                RoundedBox(pal["accent"] if on else pal["button"], 6, pal["border"], 1),
                r,
                key=("cal-view", view),
                target=f"view:{view}",
                semantic=Semantic("tab", label, None, False, True),
                state=NodeState(selected=on),
            )
            lw, lh = measure(label, "sans", 14), line_height("sans", 14)
            p.paint(
                UiText(label, 14, pal["accent_text"] if on else pal["text"]),
                Rect(r.x + (r.width - lw) // 2, r.y + (r.height - lh) // 2, lw, lh),
                key=("cal-view-l", view),
                target=f"view:{view}",
            )
        r = rects["invitations"]
        on = bool(state["panel"])
        p.paint(
            RoundedBox(pal["selection"] if on else pal["button"], 6, pal["border"], 1),
            r,
            key="cal-inv-btn",
            target="invitations",
            semantic=Semantic("button", "Invitations", "shown" if on else "hidden", False, True),
            state=NodeState(checked=on),
        )
        lw, lh = measure("Invitations", "sans", 14), line_height("sans", 14)
        p.paint(
            UiText("Invitations", 14, pal["text"]),
            Rect(r.x + (r.width - lw) // 2, r.y + (r.height - lh) // 2, lw, lh),
            key="cal-inv-btn-l",
            target="invitations",
        )
        p.button("new-event", "New Event", rects["new-event"], suggested=True)

    # month
    def _paint_month(
        self, p: Painter, body: Rect, state: dict, events: list[ical.Event], today: int
    ) -> None:
        pal = p.palette
        first, _count = _period("month", state["day"])
        month = civil_from_days(state["day"])[1]
        cw = body.width / 7
        head = 26
        for i, name in enumerate(WEEKDAYS):
            x = body.x + round(i * cw)
            p.text(name[:3], x + 8, body.y + 5, size=12, color=pal["muted"], key=("cal-wd", i))
        rows_h = (body.height - head) / 6
        for cell in range(42):
            day = first + cell
            r, c = divmod(cell, 7)
            x0, x1 = body.x + round(c * cw), body.x + round((c + 1) * cw)
            y0, y1 = body.y + head + round(r * rows_h), body.y + head + round((r + 1) * rows_h)
            rect = Rect(x0, y0, x1 - x0, y1 - y0)
            iso = _iso(day)
            todays = _day_events(events, day)
            selected = day == state["day"]
            label = f"{_long(day)}, {len(todays)} event{'s' if len(todays) != 1 else ''}"
            p.paint(
                Box(
                    pal["field"] if civil_from_days(day)[1] == month else pal["window"],
                    pal["border"],
                    1,
                ),
                rect,
                key=("cal-cell", cell),
                target=f"day:{iso}",
                semantic=Semantic("gridcell", label, None, False, True),
                state=NodeState(selected=selected),
            )
            if selected:
                p.paint(
                    RoundedBox((0, 0, 0, 0), 2, pal["accent"], 2),
                    Rect(x0 + 1, y0 + 1, rect.width - 2, rect.height - 2),
                    key=("cal-cell-sel", cell),
                    target=f"day:{iso}",
                )
            num = str(civil_from_days(day)[2])
            ink = pal["text"] if civil_from_days(day)[1] == month else pal["muted"]
            if day == today:
                p.paint(
                    RoundedBox(pal["accent"], 11),
                    Rect(x0 + 4, y0 + 3, 24, 22),
                    key=("cal-today", cell),
                    target=f"day:{iso}",
                )
                ink = pal["accent_text"]
            nw = measure(num, "sans-bold", 13)
            p.paint(
                UiTextBold(num, 13, ink),
                Rect(x0 + 16 - nw // 2, y0 + 6, nw, line_height("sans-bold", 13)),
                key=("cal-num", cell),
                target=f"day:{iso}",
            )
            room = max(0, (rect.height - 30) // LINE_H)
            shown = todays if len(todays) <= room else todays[: max(0, room - 1)]
            for j, e in enumerate(shown):
                self._month_line(
                    p,
                    e,
                    day,
                    Rect(x0 + 3, y0 + 28 + j * LINE_H, rect.width - 6, LINE_H - 2),
                    state,
                    (cell, j),
                )
            if len(shown) < len(todays):
                more = f"+{len(todays) - len(shown)} more"
                p.paint(
                    UiText(more, 12, pal["muted"]),
                    Rect(
                        x0 + 6, y0 + 28 + len(shown) * LINE_H, measure(more, "sans", 12), LINE_H - 2
                    ),
                    key=("cal-more", cell),
                    target=f"more:{iso}",
                    semantic=Semantic("button", f"{more} on {_long(day)}", None, False, True),
                )

    def _month_line(
        self, p: Painter, e: ical.Event, day: int, rect: Rect, state: dict, key: Any
    ) -> None:
        pal = p.palette
        target = f"event:{_key(e.uid)}"
        sel = state["sel"] == e.uid
        title = e.summary or "Untitled event"
        if e.all_day:
            p.paint(
                RoundedBox(EVENT_FILL, 4, pal["text"] if sel else None, 2 if sel else 0),
                rect,
                key=("cal-mev", key),
                target=target,
                semantic=Semantic("button", title, _when(e), False, True),
                state=NodeState(selected=sel),
            )
            p.text(
                title,
                rect.x + 4,
                rect.y + 1,
                size=12,
                color=EVENT_INK,
                width=rect.width - 8,
                key=("cal-mev-t", key),
                target=target,
            )
            return
        p.paint(
            RoundedBox(pal["selection"] if sel else (0, 0, 0, 0), 4),
            rect,
            key=("cal-mev", key),
            target=target,
            semantic=Semantic("button", title, _when(e), False, True),
            state=NodeState(selected=sel),
        )
        p.paint(
            RoundedBox(EVENT_FILL, 3),
            Rect(rect.x + 2, rect.y + 5, 6, 6),
            key=("cal-mev-dot", key),
            target=target,
        )
        lead = _hm(e.start) if e.start // 86400 == day else "…"
        p.text(
            f"{lead} {title}",
            rect.x + 12,
            rect.y + 1,
            size=12,
            width=rect.width - 14,
            key=("cal-mev-t", key),
            target=target,
        )

    # week and day
    def _paint_columns(
        self,
        p: Painter,
        body: Rect,
        state: dict,
        events: list[ical.Event],
        first: int,
        count: int,
        minute: int,
    ) -> None:
        pal = p.palette
        today = minute // 1440
        cw = max(1, (body.width - GUTTER)) / count
        # headings
        for i in range(count):
            day = first + i
            x0, x1 = body.x + GUTTER + round(i * cw), body.x + GUTTER + round((i + 1) * cw)
            y, _m, d = civil_from_days(day)
            label = f"{WEEKDAYS[weekday(day)][:3]} {d}"
            on = day == today
            p.paint(
                Box(pal["window"]),
                Rect(x0, body.y, x1 - x0, HEAD_H),
                key=("cal-colhead", i),
                target=f"day:{_iso(day)}",
                semantic=Semantic("columnheader", _long(day), None, False, True),
                state=NodeState(selected=day == state["day"]),
            )
            p.paint(
                UiTextBold(label, 15, pal["accent"] if on else pal["text"]),
                Rect(
                    x0 + 8,
                    body.y + 12,
                    measure(label, "sans-bold", 15),
                    line_height("sans-bold", 15),
                ),
                key=("cal-colhead-t", i),
                target=f"day:{_iso(day)}",
                clip=Rect(x0 + 4, body.y, max(0, x1 - x0 - 8), HEAD_H),
            )
        # the all-day row
        ay = body.y + HEAD_H
        allday_h = ALLDAY_LINE * ALLDAY_LINES + 6
        p.box(Rect(body.x, ay, body.width, allday_h), pal["window"], key="cal-allday-bg")
        p.text("all day", body.x + 6, ay + 6, size=11, color=pal["muted"], key="cal-allday-l")
        for i in range(count):
            day = first + i
            x0, x1 = body.x + GUTTER + round(i * cw), body.x + GUTTER + round((i + 1) * cw)
            iso = _iso(day)
            p.paint(
                Box(pal["field"], pal["border"], 1),
                Rect(x0, ay, x1 - x0, allday_h),
                key=("cal-allday", i),
                target=f"allday:{iso}",
                semantic=Semantic(
                    "button", f"New all-day event on {_long(day)}", None, False, True
                ),
            )
            alls = [e for e in _day_events(events, day) if e.all_day]
            shown = alls if len(alls) <= ALLDAY_LINES else alls[: ALLDAY_LINES - 1]
            for j, e in enumerate(shown):
                r = Rect(x0 + 2, ay + 3 + j * ALLDAY_LINE, x1 - x0 - 4, ALLDAY_LINE - 2)
                self._month_line(p, e, day, r, state, ("ad", i, j))
            if len(shown) < len(alls):
                more = f"+{len(alls) - len(shown)} more"
                p.paint(
                    UiText(more, 12, pal["muted"]),
                    Rect(
                        x0 + 6,
                        ay + 3 + len(shown) * ALLDAY_LINE,
                        measure(more, "sans", 12),
                        ALLDAY_LINE - 2,
                    ),
                    key=("cal-admore", i),
                    target=f"more:{iso}",
                    semantic=Semantic("button", f"{more} on {_long(day)}", None, False, True),
                )
        # the hours
        area = Rect(body.x, ay + allday_h, body.width, max(0, body.bottom - ay - allday_h))
        stored = p.scroll_offset("hours")
        offset = p.scroll("hours", area, 24 * HOUR_H, 8 * HOUR_H if stored is None else None)
        with p.clipped(area):
            top = area.y - offset
            for h in range(24):
                y = top + h * HOUR_H
                if y + HOUR_H <= area.y or y >= area.bottom:
                    continue
                p.text(
                    f"{h:02d}:00",
                    body.x + 8,
                    y + 2,
                    size=11,
                    color=pal["muted"],
                    key=("cal-hour", h),
                )
                for i in range(count):
                    day = first + i
                    x0, x1 = body.x + GUTTER + round(i * cw), body.x + GUTTER + round((i + 1) * cw)
                    p.paint(
                        Box(pal["field"], pal["border"], 1),
                        Rect(x0, y, x1 - x0, HOUR_H + 1),
                        key=("cal-slot", i, h),
                        target=f"slot:{_iso(day)}T{h:02d}",
                        semantic=Semantic(
                            "button", f"New event on {_long(day)} at {h:02d}:00", None, False, True
                        ),
                    )
            for i in range(count):
                day = first + i
                x0, x1 = body.x + GUTTER + round(i * cw), body.x + GUTTER + round((i + 1) * cw)
                lo = day * 86400
                timed = [
                    (max(e.start, lo) - lo, min(max(e.end, e.start + 1), lo + 86400) - lo, e)
                    for e in events
                    if not e.all_day and _covers(e, day)
                ]
                for s, t, e, lane, lanes in _lanes(timed):
                    lw = (x1 - x0 - 6) / lanes
                    ex = x0 + 2 + round(lane * lw)
                    ey = top + s * HOUR_H // 3600
                    eh = max(20, (t - s) * HOUR_H // 3600 - 2)
                    r = Rect(ex, ey, max(4, round(lw) - 2), eh)
                    if r.bottom <= area.y or r.y >= area.bottom:
                        continue
                    target = f"event:{_key(e.uid)}"
                    sel = state["sel"] == e.uid
                    title = e.summary or "Untitled event"
                    p.paint(
                        RoundedBox(EVENT_FILL, 5, pal["text"] if sel else None, 2 if sel else 0),
                        r,
                        key=("cal-wev", i, e.uid),
                        target=target,
                        semantic=Semantic("button", title, _when(e), False, True),
                        state=NodeState(selected=sel),
                    )
                    inner = Rect(r.x + 5, r.y + 2, max(0, r.width - 8), max(0, r.height - 4))
                    p.text(
                        title,
                        inner.x,
                        inner.y,
                        size=12,
                        color=EVENT_INK,
                        bold=True,
                        width=inner.width,
                        key=("cal-wev-t", i, e.uid),
                        target=target,
                    )
                    if r.height >= 38:
                        sub = f"{_hm(e.start)}–{_hm(e.end)}" + (
                            f" · {e.location}" if e.location else ""
                        )
                        p.text(
                            sub,
                            inner.x,
                            inner.y + 17,
                            size=11,
                            color=EVENT_INK,
                            width=inner.width,
                            key=("cal-wev-s", i, e.uid),
                            target=target,
                        )
            if first <= today < first + count:
                i = today - first
                x0, x1 = body.x + GUTTER + round(i * cw), body.x + GUTTER + round((i + 1) * cw)
                y = top + (minute % 1440) * HOUR_H // 60
                p.paint(
                    Box(NOW_LINE),
                    Rect(x0, y, x1 - x0, 2),
                    key="cal-now",
                    semantic=Semantic(
                        "status", f"Now {(minute % 1440) // 60:02d}:{minute % 60:02d}"
                    ),
                )

    # the invitations panel
    def _paint_panel(self, p: Painter, state: dict, body: Rect) -> None:
        pal = p.palette
        x = p.width - PANEL_W
        area = Rect(x, body.y, PANEL_W, body.height)
        p.box(area, pal["window"], key="cal-panel")
        p.box(Rect(x, body.y, 1, body.height), pal["border"], key="cal-panel-edge")
        p.paint(
            UiTextBold("Invitations", 16, pal["text"]),
            Rect(
                x + 16,
                body.y + 12,
                measure("Invitations", "sans-bold", 16),
                line_height("sans-bold", 16),
            ),
            key="cal-panel-title",
            semantic=Semantic("heading", "Invitations"),
        )
        inv = state["invites"]
        y = body.y + 44
        if inv["status"] != "ok":
            p.paint(
                UiTextBold("No calendar account", 14, pal["text"]),
                Rect(
                    x + 16,
                    y,
                    measure("No calendar account", "sans-bold", 14),
                    line_height("sans-bold", 14),
                ),
                key="cal-noacct",
                semantic=Semantic("status", "No calendar account", inv["message"] or None),
            )
            y += 24
            for i, line in enumerate(
                wrap(inv["message"], "sans", 13, PANEL_W - 32)[:4] if inv["message"] else []
            ):
                p.text(
                    line,
                    x + 16,
                    y + 17 * i,
                    size=13,
                    color=ERROR if inv["status"] == "error" else pal["muted"],
                    key=("cal-noacct-m", i),
                )
            y += (
                17 * min(4, len(wrap(inv["message"], "sans", 13, PANEL_W - 32))) + 10
                if inv["message"]
                else 4
            )
            if inv["account"]:
                p.button("invitations-refresh", "Try Again", Rect(x + 16, y, 110, 32))
                p.button("account-remove", "Remove Account", Rect(x + 134, y, 150, 32))
            else:
                p.button("account-add", "Add Account…", Rect(x + 16, y, 140, 32), suggested=True)
            return
        p.text(
            inv["account"],
            x + 16,
            y,
            size=12,
            color=pal["muted"],
            width=PANEL_W - 32,
            key="cal-acct",
        )
        y += 22
        p.button("invitations-refresh", "Refresh", Rect(x + 16, y, 96, 30))
        p.button("account-remove", "Remove Account", Rect(x + 120, y, 150, 30))
        y += 40
        if inv["notice"]:
            for i, line in enumerate(wrap(inv["notice"], "sans", 12, PANEL_W - 32)[:3]):
                p.text(line, x + 16, y + 16 * i, size=12, color=pal["muted"], key=("cal-notice", i))
            y += 16 * min(3, len(wrap(inv["notice"], "sans", 12, PANEL_W - 32))) + 6
        if not inv["items"]:
            p.text(
                "No invitations waiting for an answer.",
                x + 16,
                y,
                size=13,
                color=pal["muted"],
                width=PANEL_W - 32,
                key="cal-inv-none",
            )
            return
        row_h = 92
        list_area = Rect(x + 8, y, PANEL_W - 16, max(0, body.bottom - y - 8))
        offset = p.scroll("invites", list_area, len(inv["items"]) * row_h)
        with p.clipped(list_area):
            for i, item in enumerate(inv["items"]):
                ry = list_area.y + i * row_h - offset
                if ry + row_h <= list_area.y or ry >= list_area.bottom:
                    continue
                n = item["id"]
                row = Rect(list_area.x, ry + 2, list_area.width, row_h - 6)
                when = f"{item['start'].replace('T', ' ')}–{item['end'][11:] if item['end'][:10] == item['start'][:10] else item['end'].replace('T', ' ')}"
                p.paint(
                    RoundedBox(pal["field"], 8, pal["border"], 1),
                    row,
                    key=("cal-inv", n),
                    semantic=Semantic(
                        "listitem", f"{item['title']}, {when}, from {item['organizer']}"
                    ),
                )
                p.text(
                    item["title"],
                    row.x + 10,
                    row.y + 6,
                    size=14,
                    bold=True,
                    width=row.width - 20,
                    key=("cal-inv-t", n),
                )
                p.text(
                    when,
                    row.x + 10,
                    row.y + 26,
                    size=12,
                    color=pal["muted"],
                    width=row.width - 20,
                    key=("cal-inv-w", n),
                )
                sub = f"from {item['organizer']}" + (
                    f" · {item['location']}" if item["location"] else ""
                )
                p.text(
                    sub,
                    row.x + 10,
                    row.y + 42,
                    size=12,
                    color=pal["muted"],
                    width=row.width - 20,
                    key=("cal-inv-o", n),
                )
                self._small_button(
                    p,
                    f"invite-accept:{n}",
                    "Accept",
                    f"Accept {item['title']}",
                    Rect(row.x + 10, row.y + 58, 80, 26),
                    True,
                )
                self._small_button(
                    p,
                    f"invite-decline:{n}",
                    "Decline",
                    f"Decline {item['title']}",
                    Rect(row.x + 98, row.y + 58, 80, 26),
                    False,
                )

    def _small_button(
        self, p: Painter, target: str, text: str, label: str, rect: Rect, suggested: bool
    ) -> None:
        pal = p.palette
        p.paint(
            RoundedBox(pal["accent"] if suggested else pal["button"], 6, pal["border"], 1),
            rect,
            key=("cal-sb", target),
            target=target,
            semantic=Semantic("button", label, None, False, True),
        )
        w, h = measure(text, "sans", 13), line_height("sans", 13)
        p.paint(
            UiText(text, 13, pal["accent_text"] if suggested else pal["text"]),
            Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
            key=("cal-sb-l", target),
            target=target,
        )

    # dialogs
    def _dialog_frame(self, p: Painter, title: str) -> Rect:
        pal = p.palette
        box = _dialog_box(p.width, p.height)
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="cal-dlg",
            semantic=Semantic("dialog", title),
        )
        p.paint(
            UiTextBold(title, 17, pal["text"]),
            Rect(
                box.x + 20,
                box.y + 16,
                measure(title, "sans-bold", 17),
                line_height("sans-bold", 17),
            ),
            key="cal-dlg-title",
        )
        return box

    def _paint_fields(
        self,
        p: Painter,
        state: dict,
        dialog: dict,
        rects: dict[str, Rect],
        names: tuple[str, ...],
        placeholders: dict[str, str],
    ) -> None:
        pal = p.palette
        for name in names:
            r = rects[name]
            p.text(
                _FIELD_LABELS[name],
                r.x,
                r.y - 20,
                size=12,
                color=pal["muted"],
                key=("cal-fl", name),
            )
            f = dialog["fields"][name]
            if name == "account-password":
                f = {**f, "text": "•" * len(f["text"])}
            tp.paint_field(
                p,
                name,
                f,
                r,
                label=_FIELD_LABELS[name],
                focused=state["focus"] == name,
                placeholder=placeholders.get(name, ""),
            )

    def _paint_event_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        pal = p.palette
        editing = bool(dialog["uid"])
        box = self._dialog_frame(p, "Edit Event" if editing else "New Event")
        rects = _dialog_rects(p.width, p.height, "event")
        self._paint_fields(
            p,
            state,
            dialog,
            rects,
            EVENT_FIELDS,
            {
                "event-title": "Event title",
                "event-date": "YYYY-MM-DD",
                "event-start": "All day",
                "event-end": "HH:MM",
                "event-location": "Where",
                "event-notes": "Notes",
            },
        )
        if dialog["error"]:
            p.text(
                dialog["error"],
                box.x + 20,
                box.bottom - 80,
                size=13,
                color=ERROR,
                width=box.width - 40,
                key="cal-dlg-error",
            )
        else:
            hint = "Leave Starts empty for an all-day event."
            p.text(
                hint,
                box.x + 20,
                box.bottom - 80,
                size=12,
                color=pal["muted"],
                width=box.width - 40,
                key="cal-dlg-hint",
            )
        if editing:
            p.button("event-delete", "Delete", rects["event-delete"])
        p.button("event-cancel", "Cancel", rects["event-cancel"])
        p.button("event-save", "Save" if editing else "Add", rects["event-save"], suggested=True)

    def _paint_account_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        pal = p.palette
        box = self._dialog_frame(p, "Add Calendar Account")
        p.text(
            "Connect to a calendar server to see its invitations.",
            box.x + 20,
            box.y + 46,
            size=13,
            color=pal["muted"],
            width=box.width - 40,
            key="cal-acct-intro",
        )
        rects = _dialog_rects(p.width, p.height, "account")
        self._paint_fields(
            p, state, dialog, rects, ACCOUNT_FIELDS, {"account-server": "calendar.example.com"}
        )
        if dialog["error"]:
            for i, line in enumerate(wrap(dialog["error"], "sans", 13, box.width - 40)[:2]):
                p.text(
                    line,
                    box.x + 20,
                    box.y + 270 + 17 * i,
                    size=13,
                    color=ERROR,
                    key=("cal-dlg-error", i),
                )
        p.button("account-cancel", "Cancel", rects["account-cancel"])
        p.button("account-connect", "Connect", rects["account-connect"], suggested=True)

    # -- events ------------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        cal, _banner, damaged = _read(ctx)
        state["error"] = ""
        result = self._activate(ctx, state, target, point, cal, damaged)
        self._after(ctx)
        return result

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        cal, _banner, damaged = _read(ctx)
        taken = self._key(ctx, state, chord, cal, damaged)
        if taken:
            self._after(ctx)
        return taken

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        dialog = state["dialog"]
        name = state["focus"]
        if dialog is None or name not in dialog["fields"]:
            return False
        _field_insert(name, dialog["fields"][name], text)
        dialog["error"] = ""
        return True

    def _after(self, ctx: AppContext) -> None:
        _sync_file(ctx)

    def _activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        cal: ical.Calendar,
        damaged: bool,
    ) -> Any:
        dialog = state["dialog"]
        if dialog is not None:
            return self._dialog_target(ctx, state, target, point, cal, damaged)
        head, _, arg = target.partition(":")
        if target == "today":
            state["day"] = _now_s(ctx) // 86400
            return _iso(state["day"])
        if target in ("prev", "next"):
            self._step(state, -1 if target == "prev" else 1)
            return _iso(state["day"])
        if head == "view" and arg in _VIEW_IDS:
            state["view"] = arg
            return None
        if target == "new-event":
            self._open_event(ctx, state, None, state["day"], self._default_hour(ctx, state["day"]))
            return None
        if target == "invitations":
            state["panel"] = not state["panel"]
            if state["panel"]:
                self._refresh(ctx, state)
            return state["panel"]
        first, count = _period(state["view"], state["day"])
        if head in ("day", "more", "allday"):
            day = _parse_iso(arg)
            if (
                day is None
                or not first <= day < first + count
                or (head == "allday" and state["view"] == "month")
            ):
                raise UnknownTarget(target)
            state["day"] = day
            state["sel"] = ""
            if head == "more" or (head == "day" and state["view"] != "month"):
                state["view"] = "day"
            else:  # a month cell or the all-day row: a new all-day event
                self._open_event(ctx, state, None, day, None)
            return _iso(day)
        if head == "slot" and state["view"] != "month":
            day = _parse_iso(arg[:10])
            hour = arg[11:]
            if (
                day is None
                or arg[10:11] != "T"
                or not hour.isdigit()
                or len(hour) != 2
                or int(hour) > 23
                or not first <= day < first + count
            ):
                raise UnknownTarget(target)
            state["day"] = day
            self._open_event(ctx, state, None, day, int(hour) * 60)
            return None
        if head == "event":
            event = self._event_by_key(cal, arg, first, count)
            if event is None:
                raise UnknownTarget(target)
            state["sel"] = event.uid
            self._open_event(ctx, state, event, event.start // 86400, None)
            return event.uid
        if state["panel"]:
            return self._panel_target(ctx, state, target, cal, damaged)
        raise UnknownTarget(target)

    def _panel_target(
        self, ctx: AppContext, state: dict, target: str, cal: ical.Calendar, damaged: bool
    ) -> Any:
        inv = state["invites"]
        if target == "account-add" and not inv["account"] and inv["status"] != "ok":
            account, _problem = _read_account(ctx)
            server = account["server"] if account else ""
            user = account["user"] if account else ""
            state["dialog"] = {
                "kind": "account",
                "uid": "",
                "fields": {
                    "account-server": tp.field(server),
                    "account-user": tp.field(user),
                    "account-password": tp.field(""),
                },
                "error": "",
            }
            state["focus"] = "account-server"
            return None
        if target == "invitations-refresh" and inv["account"]:
            self._refresh(ctx, state)
            return len(state["invites"]["items"])
        if target == "account-remove" and inv["account"]:
            try:
                ctx.files().unlink(_path(ctx.home, ACCOUNT_FILE), "/")
            except FsError as exc:
                state["error"] = f"Could not remove ~/{ACCOUNT_FILE}: {exc.strerror_text}."
                return None
            state["invites"] = _no_invites()
            return None
        head, _, arg = target.partition(":")
        if head in ("invite-accept", "invite-decline") and inv["status"] == "ok":
            item = next((i for i in inv["items"] if str(i["id"]) == arg), None)
            if item is None:
                raise UnknownTarget(target)
            return self._answer(ctx, state, item, head == "invite-accept", cal, damaged)
        raise UnknownTarget(target)

    def _event_by_key(
        self, cal: ical.Calendar, key: str, first: int, count: int
    ) -> ical.Event | None:
        for e in _visible(cal, first, count):
            if _key(e.uid) == key:
                return e
        return None

    def _step(self, state: dict, step: int) -> None:
        view = state["view"]
        if view == "month":
            state["day"] = _clamp(_shift_month(state["day"], step))
        else:
            state["day"] = _clamp(state["day"] + step * (7 if view == "week" else 1))
        state["sel"] = ""

    def _default_hour(self, ctx: AppContext, day: int) -> int:
        """A new event's start: the next full hour today (up to 23:00), else 09:00."""
        now_s = _now_s(ctx)
        if day == now_s // 86400:
            return min(23, (now_s % 86400) // 3600 + 1) * 60
        return 9 * 60

    # -- the event dialog ------------------------------------------------------------------
    def _open_event(
        self, ctx: AppContext, state: dict, event: ical.Event | None, day: int, minute: int | None
    ) -> None:
        if event is None:
            if minute is None:
                start = end = ""
            else:
                start = f"{minute // 60:02d}:{minute % 60:02d}"
                stop = (minute + 60) % 1440
                end = f"{stop // 60:02d}:{stop % 60:02d}"
            values = {
                "event-title": "",
                "event-date": _iso(day),
                "event-start": start,
                "event-end": end,
                "event-location": "",
                "event-notes": "",
            }
        else:
            values = {
                "event-title": event.summary[: FIELD_CAPS["event-title"]],
                "event-date": _iso(event.start // 86400),
                "event-start": "" if event.all_day else _hm(event.start),
                "event-end": _end_text(event),
                "event-location": event.location[: FIELD_CAPS["event-location"]],
                "event-notes": event.description.replace("\n", " ")[: FIELD_CAPS["event-notes"]],
            }
        state["dialog"] = {
            "kind": "event",
            "uid": event.uid if event is not None else "",
            "fields": {name: tp.field(values[name]) for name in EVENT_FIELDS},
            "error": "",
        }
        state["focus"] = "event-title"

    def _close(self, state: dict) -> None:
        state["dialog"] = None
        state["focus"] = ""

    def _dialog_target(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        cal: ical.Calendar,
        damaged: bool,
    ) -> Any:
        dialog = state["dialog"]
        kind = dialog["kind"]
        if target in dialog["fields"]:
            state["focus"] = target
            f = dialog["fields"][target]
            if point is not None and target != "account-password":
                rect = _dialog_rects(ctx.width, ctx.height, kind)[target]
                f["caret"], f["anchor"] = tp.field_index(f, rect, point[0]), None
            else:
                f["caret"], f["anchor"] = len(f["text"]), None
            return None
        if kind == "account":
            if target == "account-cancel":
                self._close(state)
                return None
            if target == "account-connect":
                return self._connect(ctx, state)
            raise UnknownTarget(target)
        if target == "event-cancel":
            self._close(state)
            return None
        if target == "event-save":
            return self._save_event(ctx, state, cal, damaged)
        if target == "event-delete" and dialog["uid"]:
            return self._delete(ctx, state, cal, damaged, dialog["uid"])
        raise UnknownTarget(target)

    def _parse_dialog(self, dialog: dict) -> tuple[int, int, bool] | str:
        """``(start, end, all_day)`` in seconds from the dialog's fields, or the problem.

        Date ``YYYY-MM-DD``. Starts ``HH:MM`` (or empty: all day). Ends: empty (an hour
        after the start; an all-day event: that day), ``HH:MM`` (that day, or the next when
        it is not after the start), ``YYYY-MM-DD HH:MM``; for an all-day event ``YYYY-MM-DD``
        (the last day)."""
        f = {name: dialog["fields"][name]["text"].strip() for name in EVENT_FIELDS}
        day = _parse_iso(f["event-date"])
        if day is None:
            return "Type the date as YYYY-MM-DD."
        if not f["event-start"]:
            if not f["event-end"]:
                return day * 86400, (day + 1) * 86400, True
            last = _parse_iso(f["event-end"])
            if last is None:
                return "An all-day event ends on a date YYYY-MM-DD (or leave Ends empty)."
            if last < day:
                return "The event ends before it starts."
            return day * 86400, (last + 1) * 86400, True
        start_min = _parse_time(f["event-start"])
        if start_min is None:
            return "Type the start as HH:MM (or leave it empty for an all-day event)."
        start = day * 86400 + start_min * 60
        end_text = f["event-end"]
        if not end_text:
            return start, start + 3600, False
        if " " in end_text:
            date_part, _, time_part = end_text.partition(" ")
            end_day, end_min = _parse_iso(date_part), _parse_time(time_part)
            if end_day is None or end_min is None:
                return "Type the end as HH:MM or YYYY-MM-DD HH:MM."
            end = end_day * 86400 + end_min * 60
        else:
            end_min = _parse_time(end_text)
            if end_min is None:
                return "Type the end as HH:MM or YYYY-MM-DD HH:MM."
            end = day * 86400 + end_min * 60
            if end_min < start_min:
                end += 86400
        if end <= start:
            return (
                "The event ends before it starts."
                if end < start
                else "The event ends when it starts."
            )
        return start, end, False

    def _save_event(self, ctx: AppContext, state: dict, cal: ical.Calendar, damaged: bool) -> Any:
        dialog = state["dialog"]
        title = dialog["fields"]["event-title"]["text"].strip()
        if not title:
            dialog["error"] = "Give the event a title."
            return None
        when = self._parse_dialog(dialog)
        if isinstance(when, str):
            dialog["error"] = when
            return None
        start, end, all_day = when
        fields = {
            "summary": title,
            "location": dialog["fields"]["event-location"]["text"].strip(),
            "description": dialog["fields"]["event-notes"]["text"].strip(),
        }
        stamp = ical.stamp(_now_s(ctx))
        uid = dialog["uid"]
        if uid:
            index, old = next(
                ((i, e) for i, e in enumerate(cal.events) if e.uid == uid), (None, None)
            )
            if old is None:
                dialog["error"] = "This event is no longer in the calendar."
                return None
            new = ical.replace(
                old, start=start, end=end, all_day=all_day, stamp=stamp, raw=(), **fields
            )
            if ical.replace(new, stamp=old.stamp, raw=old.raw) == old:
                self._close(state)
                return uid
            events = list(cal.events)
            events[index] = new
            entry = {"before": _event_plain(old), "after": _event_plain(new), "index": index}
            cal = ical.replace(cal, events=tuple(events))
        else:
            if damaged:
                cal = ical.empty()
            if len(cal.events) >= ical.MAX_EVENTS:
                dialog["error"] = f"Calendar keeps at most {ical.MAX_EVENTS} events."
                return None
            uid = ical.new_uid(cal.next_uid)
            new = ical.Event(uid, start=start, end=end, all_day=all_day, stamp=stamp, **fields)
            entry = {"before": None, "after": _event_plain(new), "index": len(cal.events)}
            cal = ical.replace(cal, events=(*cal.events, new), next_uid=cal.next_uid + 1)
        problem = _write(ctx, cal, damaged)
        if problem:
            dialog["error"] = problem
            return None
        self._push_undo(state, entry)
        _sync(ctx, _table(cal), keep=uid)
        self._close(state)
        state["sel"] = uid
        state["day"] = start // 86400
        return uid

    def _delete(
        self, ctx: AppContext, state: dict, cal: ical.Calendar, damaged: bool, uid: str
    ) -> Any:
        index, old = next(((i, e) for i, e in enumerate(cal.events) if e.uid == uid), (None, None))
        if old is None or damaged:
            self._close(state)
            return None
        cal = ical.replace(cal, events=cal.events[:index] + cal.events[index + 1 :])
        problem = _write(ctx, cal, False)
        if problem:
            if state["dialog"] is not None:
                state["dialog"]["error"] = problem
            else:
                state["error"] = problem
            return None
        self._push_undo(state, {"before": _event_plain(old), "after": None, "index": index})
        _sync(ctx, _table(cal))
        self._close(state)
        state["sel"] = ""
        return uid

    def _push_undo(self, state: dict, entry: dict) -> None:
        state["undo"] = [*state["undo"], entry][-UNDO_MAX:]
        state["redo"] = []

    def _undo(
        self, ctx: AppContext, state: dict, cal: ical.Calendar, damaged: bool, redo: bool
    ) -> bool:
        stack = state["redo" if redo else "undo"]
        if not stack or damaged:
            return bool(stack)
        entry = stack[-1]
        remove, restore = (
            (entry["before"], entry["after"]) if redo else (entry["after"], entry["before"])
        )
        events = list(cal.events)
        if remove is not None:
            events = [e for e in events if e.uid != remove["uid"]]
        if restore is not None:
            events = [e for e in events if e.uid != restore["uid"]]
            events.insert(min(entry["index"], len(events)), _event_from(restore))
        new = ical.replace(cal, events=tuple(events))
        problem = _write(ctx, new, False)
        if problem:
            state["error"] = problem
            return True
        if redo:
            state["redo"] = stack[:-1]
            state["undo"] = [*state["undo"], entry][-UNDO_MAX:]
        else:
            state["undo"] = stack[:-1]
            state["redo"] = [*state["redo"], entry][-UNDO_MAX:]
        keep = restore["uid"] if restore is not None else ""
        _sync(ctx, _table(new), keep=keep)
        state["sel"] = keep
        if restore is not None:
            state["day"] = restore["start"] // 86400
        return True

    # -- the account and invitations -------------------------------------------------------------
    def _connect(self, ctx: AppContext, state: dict) -> Any:
        dialog = state["dialog"]
        fields = dialog["fields"]
        server = _server(fields["account-server"]["text"])
        user = fields["account-user"]["text"].strip()
        password = fields["account-password"]["text"]
        if server is None:
            dialog["error"] = "Type the server as a host name, such as calendar.example.com."
            return None
        if not user or not password:
            dialog["error"] = "Type the user name and the password."
            return None
        account = {"server": server, "user": user, "password": password}
        today = _now_s(ctx) // 86400
        answer = _request(ctx, account, "GET", f"/api/events?start={_iso(today)}&end={_iso(today)}")
        if isinstance(answer, str):
            dialog["error"] = answer
            return None
        data = (json.dumps(account, indent=2, sort_keys=True) + "\n").encode("utf-8")
        path = _path(ctx.home, ACCOUNT_FILE)
        try:
            _mkdirs(ctx, path.rsplit("/", 1)[0])
            ctx.files().write(path, "/", data, mode=0o600)
        except FsError as exc:
            dialog["error"] = f"Could not save ~/{ACCOUNT_FILE}: {exc.strerror_text}."
            return None
        self._close(state)
        self._refresh(ctx, state)
        return f"{user}@{_host(server)}"

    def _refresh(self, ctx: AppContext, state: dict) -> None:
        """Ask the service for the account's unanswered invitations (a year from today)."""
        account, problem = _read_account(ctx)
        if account is None:
            state["invites"] = _no_invites(problem, "")
            if problem:
                state["invites"]["status"] = "error"
            return
        name = f"{account['user']}@{_host(account['server'])}"
        today = _now_s(ctx) // 86400
        answer = _request(
            ctx, account, "GET", f"/api/events?start={_iso(today)}&end={_iso(today + 366)}"
        )
        if isinstance(answer, str):
            state["invites"] = {
                "status": "error",
                "account": name,
                "message": answer,
                "items": [],
                "notice": "",
            }
            return
        _status, value = answer
        events = value.get("events") if isinstance(value, dict) else None
        if not isinstance(events, list):
            state["invites"] = {
                "status": "error",
                "account": name,
                "message": f"{_host(account['server'])} did not answer as a calendar service.",
                "items": [],
                "notice": "",
            }
            return
        items = []
        for e in events:
            if not isinstance(e, dict) or not isinstance(e.get("attendees"), dict):
                continue
            if e["attendees"].get(account["user"]) != "needs-action" or not isinstance(
                e.get("id"), int
            ):
                continue
            items.append(
                {
                    "id": e["id"],
                    "title": str(e.get("title", ""))[:200],
                    "start": str(e.get("start", ""))[:16],
                    "end": str(e.get("end", ""))[:16],
                    "location": str(e.get("location", ""))[:200],
                    "organizer": str(e.get("organizer", ""))[:64],
                }
            )
        items.sort(key=lambda i: (i["start"], i["id"]))
        state["invites"] = {
            "status": "ok",
            "account": name,
            "message": "",
            "items": items[:INVITES_MAX],
            "notice": "",
        }

    def _answer(
        self,
        ctx: AppContext,
        state: dict,
        item: dict,
        accept: bool,
        cal: ical.Calendar,
        damaged: bool,
    ) -> Any:
        account, problem = _read_account(ctx)
        inv = state["invites"]
        if account is None:
            state["invites"] = _no_invites(problem, "")
            return None
        response = "accepted" if accept else "declined"
        answer = _request(
            ctx, account, "POST", f"/api/events/{item['id']}/respond", {"response": response}
        )
        if isinstance(answer, str):
            inv["notice"] = answer
            return None
        inv["items"] = [i for i in inv["items"] if i["id"] != item["id"]]
        uid = f"invite-{item['id']}@{_host(account['server'])}"
        notice = f"{'Accepted' if accept else 'Declined'} “{item['title']}”."
        start, end = self._service_time(item["start"]), self._service_time(item["end"])
        if damaged:
            notice += " The local calendar file is damaged: it was not changed."
        elif accept and start is not None and end is not None and end > start:
            events = [e for e in cal.events if e.uid != uid]
            new = ical.Event(
                uid,
                item["title"],
                start,
                end,
                False,
                item["location"],
                f"Invitation from {item['organizer']}",
                ical.stamp(_now_s(ctx)),
            )
            new_cal = ical.replace(cal, events=(*events, new))
            problem = _write(ctx, new_cal, False)
            notice += f" {problem}" if problem else " It is in your calendar."
            if not problem:
                _sync(ctx, _table(new_cal), keep=uid)
        elif not accept and any(e.uid == uid for e in cal.events):
            new_cal = ical.replace(cal, events=tuple(e for e in cal.events if e.uid != uid))
            problem = _write(ctx, new_cal, False)
            notice += f" {problem}" if problem else " It was removed from your calendar."
        inv["notice"] = notice
        return response

    @staticmethod
    def _service_time(text: str) -> int | None:
        day = _parse_iso(text[:10])
        minute = _parse_time(text[11:]) if text[10:11] == "T" else None
        return None if day is None or minute is None else day * 86400 + minute * 60

    # -- keys ---------------------------------------------------------------------------------
    def _key(
        self, ctx: AppContext, state: dict, chord: Chord, cal: ical.Calendar, damaged: bool
    ) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        state["error"] = ""
        if state["dialog"] is not None:
            return self._dialog_key(ctx, state, chord, cal, damaged)
        if name == cmd("Primary+z"):
            return self._undo(ctx, state, cal, damaged, redo=False) or True
        if name in (cmd("Primary+Shift+z"), cmd("Primary+y")):
            return self._undo(ctx, state, cal, damaged, redo=True) or True
        if name == cmd("Primary+n"):
            self._open_event(ctx, state, None, state["day"], self._default_hour(ctx, state["day"]))
            return True
        views = {
            "Alt+1": "day",
            "Alt+2": "week",
            "Alt+3": "month",
            "d": "day",
            "w": "week",
            "m": "month",
        }
        if name in views:
            state["view"] = views[name]
            return True
        if name in ("PageUp", "PageDown", "Alt+ArrowLeft", "Alt+ArrowRight"):
            self._step(state, -1 if name in ("PageUp", "Alt+ArrowLeft") else 1)
            return True
        if name in ("Home", "t", cmd("Primary+t")):
            state["day"] = _now_s(ctx) // 86400
            state["sel"] = ""
            return True
        if name in ("ArrowLeft", "ArrowRight"):
            state["day"] = _clamp(state["day"] + (-1 if name == "ArrowLeft" else 1))
            state["sel"] = ""
            return True
        if name in ("ArrowUp", "ArrowDown"):
            if state["view"] == "month":
                state["day"] = _clamp(state["day"] + (-7 if name == "ArrowUp" else 7))
                state["sel"] = ""
            else:
                offset = ctx.scroll_offset("hours")
                offset = 8 * HOUR_H if offset is None else offset
                offset += -HOUR_H if name == "ArrowUp" else HOUR_H
                ctx.set_scroll_offset("hours", max(0, min(offset, 24 * HOUR_H)))
            return True
        if name in ("Tab", "Shift+Tab"):
            first, count = _period(state["view"], state["day"])
            shown = _visible(cal, first, count)
            if not shown:
                return True
            uids = [e.uid for e in shown]
            i = (
                uids.index(state["sel"])
                if state["sel"] in uids
                else (-1 if not chord.shift else len(uids))
            )
            i = (i + (-1 if chord.shift else 1)) % len(uids)
            state["sel"] = uids[i]
            return True
        if name == "Enter":
            event = next((e for e in cal.events if e.uid == state["sel"]), None)
            if event is not None:
                self._open_event(ctx, state, event, event.start // 86400, None)
            else:
                self._open_event(
                    ctx, state, None, state["day"], self._default_hour(ctx, state["day"])
                )
            return True
        if name == "Delete" and state["sel"]:
            self._delete(ctx, state, cal, damaged, state["sel"])
            return True
        if name == "Escape":
            if state["sel"]:
                state["sel"] = ""
            elif state["panel"]:
                state["panel"] = False
            return True
        return False

    def _dialog_key(
        self, ctx: AppContext, state: dict, chord: Chord, cal: ical.Calendar, damaged: bool
    ) -> bool:
        dialog = state["dialog"]
        name = chord.name
        fields = EVENT_FIELDS if dialog["kind"] == "event" else ACCOUNT_FIELDS
        if name == "Escape":
            self._close(state)
            return True
        if name == "Enter":
            if dialog["kind"] == "event":
                self._save_event(ctx, state, cal, damaged)
            else:
                self._connect(ctx, state)
            return True
        if name in ("Tab", "Shift+Tab"):
            i = fields.index(state["focus"]) if state["focus"] in fields else -1
            i = (i + (-1 if chord.shift else 1)) % len(fields)
            state["focus"] = fields[i]
            tp.field_select_all(dialog["fields"][fields[i]])
            return True
        focus = state["focus"]
        if focus not in fields:
            return False
        f = dialog["fields"][focus]
        if chord.char is not None:
            _field_insert(focus, f, chord.char)
            dialog["error"] = ""
            return True
        if name in (ctx.shortcut("Primary+v"), "Shift+Insert"):
            _field_insert(focus, f, ctx.clipboard)
            dialog["error"] = ""
            return True
        if focus == "account-password" and name in (
            ctx.shortcut("Primary+c"),
            ctx.shortcut("Primary+x"),
        ):
            return True  # a password is not copied
        taken = tp.field_key(ctx, f, chord)
        if taken:
            dialog["error"] = ""
        return taken


register(Calendar())
