"""``clock``: Clocks, in the manner of GNOME Clocks — world clocks, alarms, a stopwatch, a timer.

The world clocks and the alarms are kept in the machine's filesystem, in
:data:`CLOCKS_FILE` (``~/.config/gnome-clocks/clocks.json``), so every Clocks window and
every session sees the same ones::

    {"alarms": [{"enabled": true, "id": 1, "label": "Wake up", "time": "07:30"}],
     "world": ["tokyo", "new-york"]}

``world`` lists city ids of the built-in table :data:`CITIES` (fixed standard-time UTC
offsets: no time zone database is read and daylight saving time is not applied), in the
order they were added. ``alarms`` holds at most :data:`ALARMS_MAX` alarms; ``time`` is
``HH:MM`` on the machine's clock (UTC), ``label`` at most :data:`LABEL_MAX` characters.
A file that is not this (not JSON, an unknown city, a bad time...) is reported in a red
banner and never rewritten: what would change it does nothing.

Every enabled alarm rings every day: it is a notification scheduled with
:func:`cwgym.machine.notifications.schedule` under the key ``clock:alarm:<id>`` at its
next occurrence after the logical clock. Turning it off or deleting it unschedules it.
After it has rung, the next day's is scheduled the next time a Clocks window opens or
handles an event (the same sync schedules alarms written into the file by other means).
A running timer schedules ``clock:timer:<window>`` at its end; pausing or resetting it
unschedules it.

The window's state holds only the view (the tab, a dialog, the timer and stopwatch of this
window). Time is the logical clock (``AppContext.now_us``): the world clocks show the
minute the compositor repaints at; the stopwatch and the timer show the time computed at
the last event the window handled — the display advances on events (any click or key in
the window), not by itself.

Control targets (``window:<id>:content:<target>``):

* ``tab:world``, ``tab:alarms``, ``tab:stopwatch``, ``tab:timer`` (role ``tab``);
* World: ``world-add`` (opens the Add World Clock dialog), ``world-remove:<city>``; the
  dialog's ``city-search`` field, ``city:<city>`` (adds it), ``city-cancel``;
* Alarms: ``alarm-add`` (opens the New Alarm dialog), ``alarm-toggle:<id>`` (a
  ``checkbox``), ``alarm-delete:<id>``; the dialog's ``alarm-hour``, ``alarm-minute``,
  ``alarm-label`` fields, ``alarm-cancel``, ``alarm-save``;
* Stopwatch: ``stopwatch-start`` (Start / Resume), ``stopwatch-stop`` (Pause),
  ``stopwatch-lap``, ``stopwatch-reset`` — each only while it is shown;
* Timer: ``timer-minutes``, ``timer-seconds`` (fields), ``timer-preset:<seconds>``,
  ``timer-start`` (Start / Resume), ``timer-pause``, ``timer-reset`` — each only while shown.

Keys: ``Alt+1`` … ``Alt+4`` and ``Ctrl+PageUp`` / ``Ctrl+PageDown`` switch tabs,
``Primary+n`` adds (a world clock or an alarm, on their tab); in a dialog ``Tab`` /
``Shift+Tab`` move between fields, ``Enter`` confirms, ``Escape`` cancels, ``ArrowUp`` /
``ArrowDown`` step the hour or minute field (and move in the city list); Stopwatch:
``Space`` starts or pauses, ``Enter`` takes a lap, ``Delete`` resets; Timer: ``Enter``
starts, ``Space`` starts, pauses or resumes, ``Delete`` resets.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.kernel.calendar import civil
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine import notifications
from cwgym.machine.filesystem import FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import line_height, measure, wrap

__all__ = ["ALARMS_MAX", "CITIES", "CLOCKS_FILE", "LABEL_MAX", "LAPS_MAX", "Clock"]

CLOCKS_FILE = ".config/gnome-clocks/clocks.json"
#: The most alarms the file holds.
ALARMS_MAX = 50
#: The longest alarm label.
LABEL_MAX = 64
#: The longest search in the Add World Clock dialog.
SEARCH_MAX = 64
#: The most laps a stopwatch keeps.
LAPS_MAX = 100
#: The longest timer: 99 minutes 59 seconds.
TIMER_MAX_S = 99 * 60 + 59

#: ``(id, name, country, UTC offset in minutes)`` — standard time, no daylight saving.
CITIES: tuple[tuple[str, str, str, int], ...] = (
    ("honolulu", "Honolulu", "United States", -600),
    ("anchorage", "Anchorage", "United States", -540),
    ("los-angeles", "Los Angeles", "United States", -480),
    ("denver", "Denver", "United States", -420),
    ("chicago", "Chicago", "United States", -360),
    ("mexico-city", "Mexico City", "Mexico", -360),
    ("new-york", "New York", "United States", -300),
    ("sao-paulo", "São Paulo", "Brazil", -180),
    ("london", "London", "United Kingdom", 0),
    ("reykjavik", "Reykjavík", "Iceland", 0),
    ("berlin", "Berlin", "Germany", 60),
    ("lagos", "Lagos", "Nigeria", 60),
    ("paris", "Paris", "France", 60),
    ("cairo", "Cairo", "Egypt", 120),
    ("johannesburg", "Johannesburg", "South Africa", 120),
    ("moscow", "Moscow", "Russia", 180),
    ("dubai", "Dubai", "United Arab Emirates", 240),
    ("karachi", "Karachi", "Pakistan", 300),
    ("mumbai", "Mumbai", "India", 330),
    ("kathmandu", "Kathmandu", "Nepal", 345),
    ("dhaka", "Dhaka", "Bangladesh", 360),
    ("bangkok", "Bangkok", "Thailand", 420),
    ("beijing", "Beijing", "China", 480),
    ("singapore", "Singapore", "Singapore", 480),
    ("tokyo", "Tokyo", "Japan", 540),
    ("sydney", "Sydney", "Australia", 600),
    ("auckland", "Auckland", "New Zealand", 720),
)
_CITY = {c[0]: c for c in CITIES}
TABS = (("world", "World"), ("alarms", "Alarms"), ("stopwatch", "Stopwatch"), ("timer", "Timer"))
_TAB_IDS = tuple(t for t, _ in TABS)
PRESETS = ((60, "1 min"), (300, "5 min"), (600, "10 min"), (1800, "30 min"))
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

TOP_H = 48
ROW_H = 64
CITY_ROW = 36
MARGIN = 16
US = 1_000_000
DAY_US = 86_400 * US
#: The fields of each dialog (and of the timer), in Tab order.
FIELDS = {
    "alarm": ("alarm-hour", "alarm-minute", "alarm-label"),
    "city": ("city-search",),
    "timer": ("timer-minutes", "timer-seconds"),
}
_CAPS = {
    "alarm-hour": 2,
    "alarm-minute": 2,
    "alarm-label": LABEL_MAX,
    "city-search": SEARCH_MAX,
    "timer-minutes": 2,
    "timer-seconds": 2,
}
_DIGITS = frozenset(("alarm-hour", "alarm-minute", "timer-minutes", "timer-seconds"))


# -- the clocks file -----------------------------------------------------------------------


def _path(home: str) -> str:
    return f"{home}/{CLOCKS_FILE}"


def _valid_time(text: Any) -> bool:
    if (
        not isinstance(text, str)
        or len(text) != 5
        or text[2] != ":"
        or not (text[:2] + text[3:]).isdigit()
    ):
        return False
    return int(text[:2]) < 24 and int(text[3:]) < 60


@functools.lru_cache(maxsize=64)
def _parse(data: bytes) -> tuple[tuple[str, ...], tuple[tuple[int, str, str, bool], ...], str]:
    """``(world, alarms, problem)`` of the file's bytes; alarms are ``(id, time, label,
    enabled)``; ``problem`` is "" for a good file."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return (), (), "it is not JSON"
    if not isinstance(value, dict):
        return (), (), "it is not a JSON object"
    world = value.get("world", [])
    alarms = value.get("alarms", [])
    if not isinstance(world, list) or not isinstance(alarms, list):
        return (), (), "world and alarms must be lists"
    seen: set[str] = set()
    for city in world:
        if not isinstance(city, str) or city not in _CITY:
            return (), (), f"unknown city {city!r}"
        if city in seen:
            return (), (), f"city {city!r} is listed twice"
        seen.add(city)
    if len(alarms) > ALARMS_MAX:
        return (), (), f"more than {ALARMS_MAX} alarms"
    out = []
    ids: set[int] = set()
    for i, a in enumerate(alarms):
        if not isinstance(a, dict):
            return (), (), f"alarm {i + 1} is not an object"
        aid, time, label, enabled = (
            a.get("id"),
            a.get("time"),
            a.get("label", "Alarm"),
            a.get("enabled", True),
        )
        if isinstance(aid, bool) or not isinstance(aid, int) or aid <= 0 or aid in ids:
            return (), (), f"alarm {i + 1} has no unique positive id"
        if not _valid_time(time):
            return (), (), f"alarm {i + 1} has no time HH:MM"
        if not isinstance(label, str) or len(label) > LABEL_MAX:
            return (), (), f"alarm {i + 1} has a bad label"
        if not isinstance(enabled, bool):
            return (), (), f"alarm {i + 1} has a bad enabled flag"
        ids.add(aid)
        out.append((aid, time, label, enabled))
    return tuple(world), tuple(out), ""


def _read(ctx: AppContext) -> tuple[tuple[str, ...], tuple[tuple[int, str, str, bool], ...], str]:
    """The clocks file: ``(world, alarms, problem)`` — a missing file is empty and fine."""
    try:
        data = ctx.files().read(_path(ctx.home), ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT":
            return (), (), ""
        return (), (), f"Could not read ~/{CLOCKS_FILE}: {exc.strerror_text}."
    world, alarms, problem = _parse(data)
    if problem:
        return (
            (),
            (),
            f"The clocks file ~/{CLOCKS_FILE} is damaged ({problem}); Clocks leaves it as it is.",
        )
    return world, alarms, ""


def _write(ctx: AppContext, world: list[str], alarms: list[tuple[int, str, str, bool]]) -> str:
    """Write the clocks file; the problem, or ""."""
    body = {
        "world": list(world),
        "alarms": [
            {"id": a, "time": t, "label": label, "enabled": on} for a, t, label, on in alarms
        ],
    }
    data = (json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode("utf-8")
    ufs = ctx.files()
    path = _path(ctx.home)
    try:
        current = ""
        for part in [p for p in path.rsplit("/", 1)[0].split("/") if p]:
            current += "/" + part
            if not ufs.exists(current, "/"):
                ufs.mkdir(current, "/", 0o755)
        ufs.write(path, "/", data, mode=0o644)
    except FsError as exc:
        return f"Could not save ~/{CLOCKS_FILE}: {exc.strerror_text}."
    return ""


# -- time ----------------------------------------------------------------------------------


def _wall_minute(now_us: int) -> int:
    """Minutes since the Unix epoch the logical clock reads (UTC)."""
    return WORLD_EPOCH_S // 60 + now_us // (60 * US)


def _next_due(time: str, now_us: int) -> int:
    """The logical microsecond of the next ``HH:MM`` strictly after ``now_us``."""
    epoch_us = WORLD_EPOCH_S * US
    wall = epoch_us + now_us
    at = wall - wall % DAY_US + (int(time[:2]) * 3600 + int(time[3:]) * 60) * US
    if at <= wall:
        at += DAY_US
    return at - epoch_us


def _offset_text(minutes: int) -> str:
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "−"
    h, m = divmod(abs(minutes), 60)
    return f"UTC{sign}{h}" + (f":{m:02d}" if m else "")


def _duration(us: int, tenths: bool = False) -> str:
    """``MM:SS`` (``H:MM:SS`` past an hour), with tenths for the stopwatch."""
    if tenths:
        t = us // 100_000
        s, d = divmod(t, 10)
    else:
        s, d = -(-us // US), 0  # a countdown shows the second it is in
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    text = f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"
    return f"{text}.{d}" if tenths else text


def _alarm_key(aid: int) -> str:
    return f"clock:alarm:{aid}"


def _sync(ctx: AppContext, alarms: tuple[tuple[int, str, str, bool], ...]) -> None:
    """Schedule every enabled alarm that is not scheduled (at its next occurrence) and
    drop the schedule of alarms that are off or gone."""
    machine = ctx.machine
    have = {
        s["key"]
        for s in notifications.scheduled(machine)
        if str(s.get("key", "")).startswith("clock:alarm:")
    }
    want = {}
    for aid, time, label, on in alarms:
        if on:
            want[_alarm_key(aid)] = (time, label)
    for key in sorted(have - set(want)):
        notifications.unschedule(machine, key)
    for key in sorted(set(want) - have):
        time, label = want[key]
        try:
            notifications.schedule(
                machine, key, _next_due(time, ctx.now_us), "clock", label or "Alarm"
            )
        except (ValueError, notifications.UserDataError):
            return


# -- fields --------------------------------------------------------------------------------


def _span(f: dict) -> tuple[int, int]:
    a, c = f["anchor"], f["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _field_insert(name: str, f: dict, text: str) -> None:
    """Type ``text`` into the field ``name`` over its selection, within its cap (and digits
    only in a number field); otherwise :class:`InvalidInput`, changing nothing."""
    text = "".join(
        ch if ch.isprintable() else " " for ch in text.replace("\r\n", " ").replace("\n", " ")
    )
    if name in _DIGITS and not all(ch in "0123456789" for ch in text):
        raise InvalidInput(f"{name} takes digits only")
    s, e = _span(f)
    new = f["text"][:s] + text + f["text"][e:]
    if len(new) > _CAPS[name]:
        raise InvalidInput(f"{name} holds at most {_CAPS[name]} characters")
    f["text"], f["caret"], f["anchor"] = new, s + len(text), None


def _num(f: dict, default: int = 0) -> int:
    t = f["text"].strip()
    return int(t) if t.isdigit() else default


# -- geometry ------------------------------------------------------------------------------


def _tab_rects(width: int) -> list[tuple[str, str, Rect]]:
    out = []
    x = MARGIN
    for tab, label in TABS:
        w = measure(label, "sans", 14) + 32
        out.append((tab, label, Rect(x, 8, w, 32)))
        x += w + 4
    return out


def _add_rect(width: int, label: str) -> Rect:
    w = measure(label, "sans", 14) + 28
    return Rect(width - MARGIN - w, 8, w, 32)


def _body_top(state: dict, problem: str) -> int:
    return TOP_H + (44 if problem or state["error"] else 0)


def _dialog_box(width: int, height: int, kind: str) -> Rect:
    w = max(260, min(440, width - 40))
    h = 260 if kind == "alarm" else max(200, min(440, height - 60))
    return Rect((width - w) // 2, max(0, (height - h) // 2), w, h)


def _alarm_rects(box: Rect) -> dict[str, Rect]:
    x = box.x + 20
    out = {
        "alarm-hour": Rect(x, box.y + 74, 64, 40),
        "alarm-minute": Rect(x + 88, box.y + 74, 64, 40),
        "alarm-label": Rect(x, box.y + 146, box.width - 40, 34),
    }
    bx = box.right - 20
    for name, label in (("alarm-save", "Add"), ("alarm-cancel", "Cancel")):
        w = measure(label, "sans", 14) + 32
        bx -= w
        out[name] = Rect(bx, box.bottom - 48, w, 34)
        bx -= 8
    return out


def _city_rects(box: Rect) -> dict[str, Rect]:
    cw = measure("Cancel", "sans", 14) + 32
    return {
        "city-search": Rect(box.x + 20, box.y + 52, box.width - 40, 34),
        "list": Rect(box.x + 12, box.y + 96, box.width - 24, max(0, box.height - 96 - 58)),
        "city-cancel": Rect(box.right - 20 - cw, box.bottom - 48, cw, 34),
    }


def _timer_rects(width: int, top: int) -> dict[str, Rect]:
    cx = width // 2
    out = {
        "timer-minutes": Rect(cx - 110, top + 60, 96, 56),
        "timer-seconds": Rect(cx + 14, top + 60, 96, 56),
    }
    widths = [measure(label, "sans", 14) + 28 for _, label in PRESETS]
    x = cx - (sum(widths) + 8 * (len(widths) - 1)) // 2
    for (secs, _label), w in zip(PRESETS, widths):
        out[f"timer-preset:{secs}"] = Rect(x, top + 140, w, 32)
        x += w + 8
    return out


def _matches(state: dict, world: tuple[str, ...]) -> list[tuple[str, str, str, int]]:
    """The cities the Add World Clock dialog lists: not added yet, matching the search."""
    query = state["dialog"]["search"]["text"].strip().casefold() if state["dialog"] else ""
    return [
        c
        for c in CITIES
        if c[0] not in world and (not query or query in f"{c[1]} {c[2]}".casefold())
    ]


def _buttons(
    width: int, y: int, items: list[tuple[str, str, bool]]
) -> list[tuple[str, str, bool, Rect]]:
    """Centred push buttons ``(target, label, suggested)`` on one row."""
    widths = [max(96, measure(label, "sans", 14) + 36) for _, label, _ in items]
    x = (width - (sum(widths) + 12 * (len(items) - 1))) // 2
    out = []
    for (name, label, suggested), w in zip(items, widths):
        out.append((name, label, suggested, Rect(x, y, w, 38)))
        x += w + 12
    return out


def _stopwatch_buttons(sw: dict) -> list[tuple[str, str, bool]]:
    if sw["running"]:
        return [("stopwatch-stop", "Pause", False), ("stopwatch-lap", "Lap", False)]
    if sw["base_us"]:
        return [("stopwatch-start", "Resume", True), ("stopwatch-reset", "Reset", False)]
    return [("stopwatch-start", "Start", True)]


def _timer_phase(t: dict) -> str:
    if t["running"]:
        return "running"
    if t["left_us"] is None:
        return "setup"
    return "done" if t["left_us"] == 0 else "paused"


def _timer_buttons(t: dict) -> list[tuple[str, str, bool]]:
    phase = _timer_phase(t)
    if phase == "running":
        return [("timer-pause", "Pause", False), ("timer-reset", "Reset", False)]
    if phase == "paused":
        return [("timer-start", "Resume", True), ("timer-reset", "Reset", False)]
    if phase == "done":
        return [("timer-reset", "Reset", True)]
    return [("timer-start", "Start", True)]


class Clock(App):
    id = "clock"
    label = "Clocks"
    kind = "native"
    default_size = (720, 520)
    min_size = (480, 400)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        state: dict[str, Any] = {
            "tab": "world",
            "dialog": None,
            "focus": "",
            "error": "",
            "timer": {
                "minutes": tp.field("05"),
                "seconds": tp.field("00"),
                "running": False,
                "ends_us": None,
                "left_us": None,
                "total_us": 0,
                "shown": "05:00",
            },
            "stopwatch": {
                "running": False,
                "since_us": None,
                "base_us": 0,
                "laps": [],
                "shown": "00:00.0",
            },
            "highlight": 0,
        }
        _world, alarms, problem = _read(ctx)
        if not problem:
            _sync(ctx, alarms)
        return state

    def title(self, state: dict) -> str:
        return ""  # the theme's label: "Clocks"

    # -- time passing (computed at events) ---------------------------------------------
    def _tick(self, ctx: AppContext, state: dict) -> None:
        """Bring the timer and the stopwatch to ``now_us``. New dicts replace the old ones,
        so an event refused as invalid puts them back as they were."""
        now = ctx.now_us
        t = state["timer"]
        if t["running"]:
            left = max(0, t["ends_us"] - now)
            t = state["timer"] = {**t, "left_us": left, "shown": _duration(left)}
            if left == 0:
                t["running"], t["ends_us"] = False, None
        sw = state["stopwatch"]
        if sw["running"]:
            shown = _duration(sw["base_us"] + now - sw["since_us"], tenths=True)
            state["stopwatch"] = {**sw, "laps": list(sw["laps"]), "shown": shown}

    def _begin(self, ctx: AppContext, state: dict) -> tuple[tuple[str, ...], tuple, str]:
        """What every event starts with: the time, and the clocks file."""
        self._tick(ctx, state)
        state["error"] = ""
        return _read(ctx)

    def _sync_after(self, ctx: AppContext) -> None:
        """What every event that was taken ends with: the alarms' schedule brought up to
        date (the next day's ring of an alarm that rang, alarms written by others)."""
        _world, alarms, problem = _read(ctx)
        if not problem:
            _sync(ctx, alarms)

    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        result = self._activate(ctx, state, target, point)
        self._sync_after(ctx)
        return result

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        taken = self._key(ctx, state, chord)
        if taken:
            self._sync_after(ctx)
        return taken

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        taken = self._type(ctx, state, text)
        if taken:
            self._sync_after(ctx)
        return taken

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        world, alarms, problem = _read(ctx)
        return world, alarms, problem, _wall_minute(ctx.now_us)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        world, alarms, problem, minute = key
        p.box(Rect(0, 0, p.width, TOP_H), pal.get("header", pal["button"]), key="clk-top")
        for tab, label, rect in _tab_rects(p.width):
            on = state["tab"] == tab
            p.paint(
                RoundedBox(pal["accent"] if on else pal["button"], 6, pal["border"], 1),
                rect,
                key=("clk-tab", tab),
                target=f"tab:{tab}",
                semantic=Semantic("tab", label, None, False, True),
                state=NodeState(selected=on),
            )
            lw, lh = measure(label, "sans", 14), line_height("sans", 14)
            p.paint(
                UiText(label, 14, pal["accent_text"] if on else pal["text"]),
                Rect(rect.x + (rect.width - lw) // 2, rect.y + (rect.height - lh) // 2, lw, lh),
                key=("clk-tab-label", tab),
                target=f"tab:{tab}",
            )
        if state["tab"] in ("world", "alarms"):
            name, label = (
                ("world-add", "Add World Clock…")
                if state["tab"] == "world"
                else ("alarm-add", "Add Alarm…")
            )
            p.button(name, label, _add_rect(p.width, label), disabled=bool(problem))
        banner = problem or state["error"]
        if banner:
            for i, line in enumerate(wrap(banner, "sans", 13, max(1, p.width - 2 * MARGIN))[:2]):
                p.text(
                    line,
                    MARGIN,
                    TOP_H + 6 + 17 * i,
                    size=13,
                    color=ERROR,
                    width=p.width - 2 * MARGIN,
                    key=("clk-banner", i),
                )
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(MARGIN, TOP_H + 4, p.width - 2 * MARGIN, 36),
                key="clk-alert",
                semantic=Semantic("alert", banner),
            )
        top = _body_top(state, problem)
        tab = state["tab"]
        if tab == "world":
            self._paint_world(p, world, minute, top)
        elif tab == "alarms":
            self._paint_alarms(p, alarms, top)
        elif tab == "stopwatch":
            self._paint_stopwatch(p, state["stopwatch"], top)
        else:
            self._paint_timer(p, state, top)
        dialog = state["dialog"]
        if dialog is not None:
            p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="clk-scrim")
            if dialog["kind"] == "alarm":
                self._paint_alarm_dialog(p, state, dialog)
            else:
                self._paint_city_dialog(p, state, dialog, world)

    def _list_area(
        self, p: Painter, name: str, top: int, rows: int, row_h: int
    ) -> tuple[Rect, int]:
        area = Rect(MARGIN, top, max(0, p.width - 2 * MARGIN), max(0, p.height - top - MARGIN))
        offset = p.scroll(name, area, rows * row_h)
        return area, offset

    def _paint_world(self, p: Painter, world: tuple[str, ...], minute: int, top: int) -> None:
        pal = p.palette
        year, month, day, hour, mins, wd = civil(minute * 60)
        p.text(
            "Local time (UTC)", MARGIN, top + 10, size=13, color=pal["muted"], key="clk-local-label"
        )
        p.paint(
            UiTextBold(f"{hour:02d}:{mins:02d}", 40, pal["text"]),
            Rect(
                MARGIN,
                top + 28,
                measure(f"{hour:02d}:{mins:02d}", "sans-bold", 40),
                line_height("sans-bold", 40),
            ),
            key="clk-local-time",
            semantic=Semantic("text", f"Local time {hour:02d}:{mins:02d}"),
        )
        p.text(
            f"{WEEKDAYS[wd]}, {day} {MONTHS[month - 1]} {year}",
            MARGIN,
            top + 82,
            size=14,
            color=pal["muted"],
            key="clk-local-date",
        )
        top += 112
        if not world:
            p.text(
                "No world clocks yet — add one with “Add World Clock…”.",
                MARGIN,
                top + 12,
                size=14,
                color=pal["muted"],
                key="clk-world-empty",
            )
            return
        area, offset = self._list_area(p, "world", top, len(world), ROW_H)
        today = minute // 1440
        with p.clipped(area):
            for i, cid in enumerate(world):
                y = area.y + i * ROW_H - offset
                if y + ROW_H <= area.y or y >= area.bottom:
                    continue
                _id, name, country, off = _CITY[cid]
                local = minute + off
                _y, _m, _d, h, m, _wd = civil(local * 60)
                delta = local // 1440 - today
                when = "Today" if delta == 0 else "Tomorrow" if delta > 0 else "Yesterday"
                row = Rect(area.x, y + 2, area.width, ROW_H - 4)
                p.paint(
                    RoundedBox(pal["field"], 8, pal["border"], 1),
                    row,
                    key=("clk-wrow", cid),
                    semantic=Semantic(
                        "listitem", f"{name} {h:02d}:{m:02d} {when}", f"{h:02d}:{m:02d}"
                    ),
                )
                p.text(name, row.x + 14, row.y + 10, size=15, bold=True, key=("clk-wname", cid))
                p.text(
                    f"{country} · {_offset_text(off)}",
                    row.x + 14,
                    row.y + 34,
                    size=12,
                    color=pal["muted"],
                    key=("clk-wsub", cid),
                )
                tt = f"{h:02d}:{m:02d}"
                tw = measure(tt, "sans-bold", 22)
                rx = row.right - 56
                p.paint(
                    UiTextBold(tt, 22, pal["text"]),
                    Rect(rx - tw, row.y + 6, tw, line_height("sans-bold", 22)),
                    key=("clk-wtime", cid),
                )
                ww = measure(when, "sans", 12)
                p.text(
                    when, rx - ww, row.y + 36, size=12, color=pal["muted"], key=("clk-wwhen", cid)
                )
                _icon_button(
                    p,
                    f"world-remove:{cid}",
                    "✕",
                    f"Remove {name}",
                    Rect(row.right - 48, row.y + (row.height - 32) // 2, 40, 32),
                )

    def _paint_alarms(self, p: Painter, alarms: tuple, top: int) -> None:
        pal = p.palette
        if not alarms:
            p.text(
                "No alarms yet — add one with “Add Alarm…”.",
                MARGIN,
                top + 24,
                size=14,
                color=pal["muted"],
                key="clk-alarm-empty",
            )
            return
        area, offset = self._list_area(p, "alarms", top + 8, len(alarms), ROW_H)
        with p.clipped(area):
            for i, (aid, time, label, on) in enumerate(alarms):
                y = area.y + i * ROW_H - offset
                if y + ROW_H <= area.y or y >= area.bottom:
                    continue
                row = Rect(area.x, y + 2, area.width, ROW_H - 4)
                p.paint(
                    RoundedBox(pal["field"], 8, pal["border"], 1),
                    row,
                    key=("clk-arow", aid),
                    semantic=Semantic("listitem", f"{time} {label}", "on" if on else "off"),
                )
                ink = pal["text"] if on else pal["muted"]
                p.paint(
                    UiTextBold(time, 24, ink),
                    Rect(
                        row.x + 14,
                        row.y + 4,
                        measure(time, "sans-bold", 24),
                        line_height("sans-bold", 24),
                    ),
                    key=("clk-atime", aid),
                )
                p.text(
                    label,
                    row.x + 14,
                    row.y + 36,
                    size=13,
                    color=pal["muted"],
                    width=max(0, row.width - 200),
                    key=("clk-alabel", aid),
                )
                # the switch
                sw = Rect(row.right - 120, row.y + (row.height - 26) // 2, 48, 26)
                p.paint(
                    RoundedBox(pal["accent"] if on else pal["border"], 13),
                    sw,
                    key=("clk-aswitch", aid),
                    target=f"alarm-toggle:{aid}",
                    semantic=Semantic(
                        "checkbox", f"Alarm {time} {label}", "on" if on else "off", False, True
                    ),
                    state=NodeState(checked=on),
                )
                knob = Rect(sw.x + (24 if on else 2), sw.y + 2, 22, 22)
                p.paint(
                    RoundedBox((255, 255, 255, 255), 11),
                    knob,
                    key=("clk-aknob", aid),
                    target=f"alarm-toggle:{aid}",
                )
                drect = Rect(row.right - 56, row.y + (row.height - 32) // 2, 40, 32)
                _icon_button(p, f"alarm-delete:{aid}", "✕", f"Delete alarm {time} {label}", drect)

    def _big(self, p: Painter, text: str, y: int, key: str, label: str) -> None:
        w, h = measure(text, "sans-bold", 56), line_height("sans-bold", 56)
        p.paint(
            UiTextBold(text, 56, p.palette["text"]),
            Rect((p.width - w) // 2, y, w, h),
            key=key,
            semantic=Semantic("status", label, text),
        )

    def _paint_stopwatch(self, p: Painter, sw: dict, top: int) -> None:
        pal = p.palette
        self._big(p, sw["shown"], top + 24, "clk-sw-time", "Stopwatch")
        for name, label, suggested, rect in _buttons(p.width, top + 116, _stopwatch_buttons(sw)):
            p.button(name, label, rect, suggested=suggested)
        laps = sw["laps"]
        if not laps:
            return
        area, offset = self._list_area(p, "laps", top + 172, len(laps), 30)
        with p.clipped(area):
            prev_total = 0
            rows = []
            for i, total in enumerate(laps):
                rows.append((i + 1, total - prev_total, total))
                prev_total = total
            for j, (n, split, total) in enumerate(reversed(rows)):
                y = area.y + j * 30 - offset
                if y + 30 <= area.y or y >= area.bottom:
                    continue
                text = f"Lap {n}"
                p.paint(
                    Box(pal["window"]),
                    Rect(area.x, y, area.width, 30),
                    key=("clk-lap", n),
                    semantic=Semantic(
                        "listitem", f"Lap {n} {_duration(split, True)} {_duration(total, True)}"
                    ),
                )
                p.text(text, area.x + 40, y + 6, size=14, key=("clk-lap-n", n))
                p.text(
                    _duration(split, True),
                    area.x + area.width // 2 - 40,
                    y + 6,
                    size=14,
                    key=("clk-lap-split", n),
                )
                p.text(
                    _duration(total, True),
                    area.right - 140,
                    y + 6,
                    size=14,
                    color=pal["muted"],
                    key=("clk-lap-total", n),
                )

    def _paint_timer(self, p: Painter, state: dict, top: int) -> None:
        pal = p.palette
        t = state["timer"]
        phase = _timer_phase(t)
        if phase == "setup":
            rects = _timer_rects(p.width, top)
            p.text(
                "Minutes",
                rects["timer-minutes"].x,
                top + 36,
                size=13,
                color=pal["muted"],
                key="clk-tm-l",
            )
            p.text(
                "Seconds",
                rects["timer-seconds"].x,
                top + 36,
                size=13,
                color=pal["muted"],
                key="clk-ts-l",
            )
            focus = state["focus"] if state["dialog"] is None else ""
            tp.paint_field(
                p,
                "timer-minutes",
                t["minutes"],
                rects["timer-minutes"],
                label="Minutes",
                focused=focus == "timer-minutes",
            )
            tp.paint_field(
                p,
                "timer-seconds",
                t["seconds"],
                rects["timer-seconds"],
                label="Seconds",
                focused=focus == "timer-seconds",
            )
            for secs, label in PRESETS:
                p.button(f"timer-preset:{secs}", label, rects[f"timer-preset:{secs}"])
            y = top + 196
        else:
            self._big(p, t["shown"], top + 24, "clk-timer-time", "Timer")
            if phase == "done":
                msg = "Time is up"
                p.text(
                    msg,
                    (p.width - measure(msg, "sans", 15)) // 2,
                    top + 96,
                    size=15,
                    color=ERROR,
                    key="clk-timer-done",
                )
            y = top + 130
        total = _timer_total(t)
        for name, label, suggested, rect in _buttons(p.width, y, _timer_buttons(t)):
            disabled = name == "timer-start" and phase == "setup" and total <= 0
            p.button(name, label, rect, suggested=suggested and not disabled, disabled=disabled)

    def _paint_alarm_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        pal = p.palette
        box = _dialog_box(p.width, p.height, "alarm")
        rects = _alarm_rects(box)
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="clk-dlg",
            semantic=Semantic("dialog", "New Alarm"),
        )
        p.paint(
            UiTextBold("New Alarm", 16, pal["text"]),
            Rect(
                box.x + 20,
                box.y + 16,
                measure("New Alarm", "sans-bold", 16),
                line_height("sans-bold", 16),
            ),
            key="clk-dlg-title",
        )
        p.text(
            "Time (HH : MM)",
            box.x + 20,
            box.y + 52,
            size=13,
            color=pal["muted"],
            key="clk-dlg-time",
        )
        p.text(
            ":",
            rects["alarm-hour"].right + 9,
            rects["alarm-hour"].y + 8,
            size=20,
            key="clk-dlg-colon",
        )
        p.text("Name", box.x + 20, box.y + 126, size=13, color=pal["muted"], key="clk-dlg-name")
        f = state["focus"]
        tp.paint_field(
            p,
            "alarm-hour",
            dialog["hour"],
            rects["alarm-hour"],
            label="Hour",
            focused=f == "alarm-hour",
        )
        tp.paint_field(
            p,
            "alarm-minute",
            dialog["minute"],
            rects["alarm-minute"],
            label="Minute",
            focused=f == "alarm-minute",
        )
        tp.paint_field(
            p,
            "alarm-label",
            dialog["label"],
            rects["alarm-label"],
            label="Name",
            focused=f == "alarm-label",
            placeholder="Alarm",
        )
        if dialog["error"]:
            p.text(
                dialog["error"],
                box.x + 20,
                box.y + 186,
                size=13,
                color=ERROR,
                width=box.width - 40,
                key="clk-dlg-error",
            )
        p.button("alarm-cancel", "Cancel", rects["alarm-cancel"])
        p.button("alarm-save", "Add", rects["alarm-save"], suggested=True)

    def _paint_city_dialog(
        self, p: Painter, state: dict, dialog: dict, world: tuple[str, ...]
    ) -> None:
        pal = p.palette
        box = _dialog_box(p.width, p.height, "city")
        rects = _city_rects(box)
        title = "Add a New World Clock"
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="clk-dlg",
            semantic=Semantic("dialog", title),
        )
        p.paint(
            UiTextBold(title, 16, pal["text"]),
            Rect(
                box.x + 20,
                box.y + 16,
                measure(title, "sans-bold", 16),
                line_height("sans-bold", 16),
            ),
            key="clk-dlg-title",
        )
        tp.paint_field(
            p,
            "city-search",
            dialog["search"],
            rects["city-search"],
            label="Search for a city",
            focused=state["focus"] == "city-search",
            placeholder="Search for a city",
        )
        found = _matches(state, world)
        area = rects["list"]
        if not found:
            p.text(
                "No matching city",
                area.x + 8,
                area.y + 8,
                size=14,
                color=pal["muted"],
                key="clk-city-none",
            )
        offset = p.scroll("cities", area, len(found) * CITY_ROW)
        hi = max(0, min(state["highlight"], len(found) - 1))
        with p.clipped(area):
            for i, (cid, name, country, off) in enumerate(found):
                y = area.y + i * CITY_ROW - offset
                if y + CITY_ROW <= area.y or y >= area.bottom:
                    continue
                row = Rect(area.x, y, area.width, CITY_ROW)
                chosen = i == hi
                p.paint(
                    RoundedBox(pal["selection"] if chosen else pal["window"], 6),
                    row,
                    key=("clk-city", cid),
                    target=f"city:{cid}",
                    semantic=Semantic(
                        "listitem", f"{name}, {country}", _offset_text(off), False, True
                    ),
                    state=NodeState(selected=chosen),
                )
                p.text(
                    f"{name}, {country}",
                    row.x + 10,
                    row.y + 9,
                    size=14,
                    width=row.width - 110,
                    key=("clk-city-name", cid),
                    target=f"city:{cid}",
                )
                ot = _offset_text(off)
                p.text(
                    ot,
                    row.right - 10 - measure(ot, "sans", 13),
                    row.y + 10,
                    size=13,
                    color=pal["muted"],
                    key=("clk-city-off", cid),
                    target=f"city:{cid}",
                )
        p.button("city-cancel", "Cancel", rects["city-cancel"])

    # -- actions -------------------------------------------------------------------------
    def _save(self, ctx: AppContext, state: dict, world: list[str], alarms: list) -> bool:
        problem = _write(ctx, world, alarms)
        state["error"] = problem
        if not problem:
            _sync(ctx, tuple(alarms))
        return not problem

    def _switch(self, state: dict, tab: str) -> None:
        state["tab"] = tab
        state["dialog"] = None
        if tab == "timer" and _timer_phase(state["timer"]) == "setup":
            state["focus"] = "timer-minutes"
            tp.field_select_all(state["timer"]["minutes"])
        else:
            state["focus"] = ""

    def _open_alarm(self, ctx: AppContext, state: dict, problem: str) -> None:
        if problem:
            state["error"] = problem
            return
        minute = _wall_minute(ctx.now_us) % 1440
        state["dialog"] = {
            "kind": "alarm",
            "hour": tp.field(f"{minute // 60:02d}", select=True),
            "minute": tp.field(f"{minute % 60:02d}", select=True),
            "label": tp.field(""),
            "error": "",
        }
        state["focus"] = "alarm-hour"

    def _open_city(self, ctx: AppContext, state: dict, problem: str) -> None:
        if problem:
            state["error"] = problem
            return
        state["dialog"] = {"kind": "city", "search": tp.field(""), "error": ""}
        state["focus"] = "city-search"
        state["highlight"] = 0
        ctx.set_scroll_offset("cities", None)

    def _close_dialog(self, state: dict) -> None:
        state["dialog"] = None
        state["focus"] = (
            "timer-minutes"
            if state["tab"] == "timer" and _timer_phase(state["timer"]) == "setup"
            else ""
        )

    def _add_city(
        self, ctx: AppContext, state: dict, cid: str, world: tuple, alarms: tuple, problem: str
    ) -> None:
        if problem:
            state["error"] = problem
            return
        if cid not in world:
            if self._save(ctx, state, [*world, cid], list(alarms)):
                self._close_dialog(state)
        else:
            self._close_dialog(state)

    def _save_alarm(
        self, ctx: AppContext, state: dict, world: tuple, alarms: tuple, problem: str
    ) -> None:
        dialog = state["dialog"]
        if problem:
            dialog["error"] = problem
            return
        h, m = dialog["hour"]["text"].strip(), dialog["minute"]["text"].strip()
        if not h.isdigit() or int(h) > 23:
            dialog["error"] = "Type an hour from 0 to 23."
            return
        if not m.isdigit() or int(m) > 59:
            dialog["error"] = "Type minutes from 0 to 59."
            return
        if len(alarms) >= ALARMS_MAX:
            dialog["error"] = f"Clocks keeps at most {ALARMS_MAX} alarms."
            return
        label = dialog["label"]["text"].strip() or "Alarm"
        aid = max((a[0] for a in alarms), default=0) + 1
        new = [*alarms, (aid, f"{int(h):02d}:{int(m):02d}", label, True)]
        if self._save(ctx, state, list(world), new):
            self._close_dialog(state)
        else:
            dialog["error"] = state["error"]

    def _alarm_id(self, target: str, alarms: tuple) -> int:
        raw = target.split(":", 1)[1]
        if not raw.isdigit() or not any(a[0] == int(raw) for a in alarms):
            raise UnknownTarget(target)
        return int(raw)

    # stopwatch and timer
    def _stopwatch(self, ctx: AppContext, state: dict, command: str) -> None:
        sw = state["stopwatch"]
        now = ctx.now_us
        if command == "start":
            sw["running"], sw["since_us"] = True, now
        elif command == "stop":
            sw["base_us"] += now - sw["since_us"]
            sw["running"], sw["since_us"] = False, None
            sw["shown"] = _duration(sw["base_us"], tenths=True)
        elif command == "lap":
            if len(sw["laps"]) >= LAPS_MAX:
                raise InvalidInput(f"a stopwatch keeps at most {LAPS_MAX} laps")
            sw["laps"].append(sw["base_us"] + now - sw["since_us"])
        elif command == "reset":
            sw.update(
                {
                    "running": False,
                    "since_us": None,
                    "base_us": 0,
                    "laps": [],
                    "shown": _duration(0, tenths=True),
                }
            )

    def _timer_key(self, ctx: AppContext) -> str:
        return f"clock:timer:{ctx.window}"

    def _timer(self, ctx: AppContext, state: dict, command: str) -> None:
        t = state["timer"]
        now = ctx.now_us
        machine = ctx.machine
        if command == "start":
            if t["left_us"] is None:  # from the setup
                total = _timer_total(t)
                if total <= 0:
                    state["error"] = ""
                    return
                t["total_us"] = total * US
                t["left_us"] = total * US
            t["running"], t["ends_us"] = True, now + t["left_us"]
            t["shown"] = _duration(t["left_us"])
            state["focus"] = ""
            try:
                notifications.schedule(
                    machine,
                    self._timer_key(ctx),
                    t["ends_us"],
                    "clock",
                    "Timer finished",
                    f"{_duration(t['total_us'])} timer",
                )
            except (ValueError, notifications.UserDataError):
                state["error"] = "Could not schedule the timer's notification."
        elif command == "pause":
            t["left_us"] = max(0, t["ends_us"] - now)
            t["running"], t["ends_us"] = False, None
            t["shown"] = _duration(t["left_us"])
            notifications.unschedule(machine, self._timer_key(ctx))
        elif command == "reset":
            t["running"], t["ends_us"], t["left_us"] = False, None, None
            t["shown"] = _duration(_timer_total(t) * US)
            notifications.unschedule(machine, self._timer_key(ctx))
            if state["tab"] == "timer":
                state["focus"] = "timer-minutes"
                tp.field_select_all(t["minutes"])

    def _preset(self, state: dict, secs: int) -> None:
        t = state["timer"]
        t["minutes"] = tp.field(f"{secs // 60:02d}")
        t["seconds"] = tp.field(f"{secs % 60:02d}")
        t["shown"] = _duration(secs * US)

    # -- events --------------------------------------------------------------------------
    def _activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> Any:
        world, alarms, problem = self._begin(ctx, state)
        dialog = state["dialog"]
        if dialog is not None:
            return self._dialog_target(ctx, state, target, point, world, alarms, problem)
        if target.startswith("tab:") and target[4:] in _TAB_IDS:
            self._switch(state, target[4:])
            return None
        tab = state["tab"]
        if tab == "world":
            if target == "world-add":
                self._open_city(ctx, state, problem)
                return None
            if target.startswith("world-remove:") and target[13:] in world:
                if problem:
                    state["error"] = problem
                else:
                    self._save(ctx, state, [c for c in world if c != target[13:]], list(alarms))
                return None
        elif tab == "alarms":
            if target == "alarm-add":
                self._open_alarm(ctx, state, problem)
                return None
            if target.startswith(("alarm-toggle:", "alarm-delete:")):
                aid = self._alarm_id(target, alarms)
                if target.startswith("alarm-toggle:"):
                    new = [
                        (a, t, label, (not on) if a == aid else on) for a, t, label, on in alarms
                    ]
                else:
                    new = [a for a in alarms if a[0] != aid]
                self._save(ctx, state, list(world), new)
                return None
        elif tab == "stopwatch":
            shown = {name for name, _l, _s in _stopwatch_buttons(state["stopwatch"])}
            if target in shown:
                self._stopwatch(ctx, state, target.split("-", 1)[1])
                return state["stopwatch"]["shown"]
        else:
            t = state["timer"]
            phase = _timer_phase(t)
            shown = {name for name, _l, _s in _timer_buttons(t)}
            if target in shown:
                self._timer(ctx, state, target.split("-", 1)[1])
                return t["shown"]
            if phase == "setup" and target in ("timer-minutes", "timer-seconds"):
                self._focus_field(ctx, state, target, point)
                return None
            if phase == "setup" and target.startswith("timer-preset:"):
                raw = target[13:]
                if raw in {str(s) for s, _ in PRESETS}:
                    self._preset(state, int(raw))
                    return None
        raise UnknownTarget(target)

    def _focus_field(
        self, ctx: AppContext, state: dict, name: str, point: tuple[int, int] | None
    ) -> None:
        state["focus"] = name
        f = self._field(state, name)
        if name in _DIGITS:
            tp.field_select_all(f)  # a number field selects its value, as a spin button does
        elif point is not None:
            box = _dialog_box(ctx.width, ctx.height, state["dialog"]["kind"])
            rect = (_alarm_rects(box) if state["dialog"]["kind"] == "alarm" else _city_rects(box))[
                name
            ]
            f["caret"], f["anchor"] = tp.field_index(f, rect, point[0]), None

    def _field(self, state: dict, name: str) -> dict:
        if name.startswith("timer-"):
            return state["timer"]["minutes" if name == "timer-minutes" else "seconds"]
        dialog = state["dialog"]
        return dialog[
            {
                "alarm-hour": "hour",
                "alarm-minute": "minute",
                "alarm-label": "label",
                "city-search": "search",
            }[name]
        ]

    def _dialog_target(
        self, ctx: AppContext, state: dict, target: str, point, world, alarms, problem
    ) -> Any:
        dialog = state["dialog"]
        if dialog["kind"] == "alarm":
            if target in FIELDS["alarm"]:
                self._focus_field(ctx, state, target, point)
            elif target == "alarm-cancel":
                self._close_dialog(state)
            elif target == "alarm-save":
                self._save_alarm(ctx, state, world, alarms, problem)
            else:
                raise UnknownTarget(target)
            return None
        if target == "city-search":
            self._focus_field(ctx, state, target, point)
        elif target == "city-cancel":
            self._close_dialog(state)
        elif target.startswith("city:") and any(c[0] == target[5:] for c in _matches(state, world)):
            self._add_city(ctx, state, target[5:], world, alarms, problem)
        else:
            raise UnknownTarget(target)
        return None

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        world, alarms, problem = self._begin(ctx, state)
        name = chord.name
        cmd = ctx.shortcut
        dialog = state["dialog"]
        if dialog is not None:
            return self._dialog_key(ctx, state, chord, world, alarms, problem)
        if name.startswith("Alt+") and name[4:] in ("1", "2", "3", "4"):
            self._switch(state, _TAB_IDS[int(name[4:]) - 1])
            return True
        if name in ("Ctrl+PageUp", "Ctrl+PageDown"):
            i = _TAB_IDS.index(state["tab"]) + (1 if name == "Ctrl+PageDown" else -1)
            self._switch(state, _TAB_IDS[i % len(_TAB_IDS)])
            return True
        tab = state["tab"]
        if name == cmd("Primary+n"):
            if tab == "world":
                self._open_city(ctx, state, problem)
            elif tab == "alarms":
                self._open_alarm(ctx, state, problem)
            else:
                return False
            return True
        if tab == "stopwatch":
            sw = state["stopwatch"]
            if name == "Space":
                self._stopwatch(ctx, state, "stop" if sw["running"] else "start")
            elif name == "Enter" and sw["running"]:
                self._stopwatch(ctx, state, "lap")
            elif name == "Delete" and not sw["running"]:
                self._stopwatch(ctx, state, "reset")
            else:
                return False
            return True
        if tab == "timer":
            return self._timer_key_press(ctx, state, chord)
        return False

    def _timer_key_press(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        t = state["timer"]
        name = chord.name
        phase = _timer_phase(t)
        if name == "Delete" and phase != "setup":
            self._timer(ctx, state, "reset")
            return True
        if phase == "setup":
            if name == "Enter" or (name == "Space" and not state["focus"]):
                self._timer(ctx, state, "start")
                return True
            if state["focus"] in FIELDS["timer"]:
                if name in ("Tab", "Shift+Tab"):
                    state["focus"] = (
                        "timer-seconds" if state["focus"] == "timer-minutes" else "timer-minutes"
                    )
                    tp.field_select_all(self._field(state, state["focus"]))
                    return True
                return self._edit_field(ctx, state, state["focus"], chord)
            return False
        if name == "Space":
            self._timer(
                ctx,
                state,
                "pause" if phase == "running" else "start" if phase == "paused" else "reset",
            )
            return True
        return False

    def _dialog_key(
        self, ctx: AppContext, state: dict, chord: Chord, world, alarms, problem
    ) -> bool:
        dialog = state["dialog"]
        name = chord.name
        if name == "Escape":
            self._close_dialog(state)
            return True
        fields = FIELDS[dialog["kind"]]
        if dialog["kind"] == "city":
            found = _matches(state, world)
            if name == "Enter":
                if found:
                    hi = max(0, min(state["highlight"], len(found) - 1))
                    self._add_city(ctx, state, found[hi][0], world, alarms, problem)
                return True
            if name in ("ArrowDown", "ArrowUp"):
                if found:
                    step = 1 if name == "ArrowDown" else -1
                    hi = state["highlight"] = max(0, min(len(found) - 1, state["highlight"] + step))
                    # keep the highlighted city in view
                    area = _city_rects(_dialog_box(ctx.width, ctx.height, "city"))["list"]
                    offset = ctx.scroll_offset("cities") or 0
                    if hi * CITY_ROW < offset:
                        ctx.set_scroll_offset("cities", hi * CITY_ROW)
                    elif (hi + 1) * CITY_ROW > offset + area.height:
                        ctx.set_scroll_offset("cities", (hi + 1) * CITY_ROW - area.height)
                return True
        else:
            if name == "Enter":
                self._save_alarm(ctx, state, world, alarms, problem)
                return True
            if name in ("Tab", "Shift+Tab"):
                i = fields.index(state["focus"]) if state["focus"] in fields else -1
                i = (i + (-1 if chord.shift else 1)) % len(fields)
                state["focus"] = fields[i]
                tp.field_select_all(self._field(state, fields[i]))
                return True
            if name in ("ArrowUp", "ArrowDown") and state["focus"] in (
                "alarm-hour",
                "alarm-minute",
            ):
                f = self._field(state, state["focus"])
                top = 24 if state["focus"] == "alarm-hour" else 60
                f["text"] = f"{(_num(f) + (1 if name == 'ArrowUp' else -1)) % top:02d}"
                tp.field_select_all(f)
                dialog["error"] = ""
                return True
            if chord.char == ":" and state["focus"] == "alarm-hour":
                state["focus"] = "alarm-minute"
                tp.field_select_all(dialog["minute"])
                return True
        if state["focus"] not in fields:
            return name in ("Tab", "Shift+Tab")
        taken = self._edit_field(ctx, state, state["focus"], chord)
        if taken:
            dialog["error"] = ""
            if dialog["kind"] == "city":
                state["highlight"] = 0
                ctx.set_scroll_offset("cities", None)
        return taken

    def _edit_field(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = self._field(state, name)
        if chord.char is not None:
            _field_insert(name, f, chord.char)
            self._after_timer_edit(state, name)
            return True
        if chord.name in (ctx.shortcut("Primary+v"), "Shift+Insert"):
            _field_insert(name, f, ctx.clipboard)
            self._after_timer_edit(state, name)
            return True
        taken = tp.field_key(ctx, f, chord)
        if taken:
            self._after_timer_edit(state, name)
        return taken

    def _after_timer_edit(self, state: dict, name: str) -> None:
        if name.startswith("timer-"):
            t = state["timer"]
            t["shown"] = _duration(_timer_total(t) * US)

    def _type(self, ctx: AppContext, state: dict, text: str) -> bool:
        self._begin(ctx, state)
        name = state["focus"]
        if not name:
            return False
        if state["dialog"] is None and not (name.startswith("timer-") and state["tab"] == "timer"):
            return False
        f = self._field(state, name)
        if name == "alarm-hour" and ":" in text:  # "7:30" typed into the hour field
            hour, _, minute = text.partition(":")
            m = state["dialog"]["minute"]
            before = dict(f)
            _field_insert(name, f, hour)
            if minute:
                try:
                    _field_insert("alarm-minute", m, minute)
                except InvalidInput:
                    f.update(before)
                    raise
                state["focus"] = "alarm-minute"
            state["dialog"]["error"] = ""
            return True
        _field_insert(name, f, text)
        self._after_timer_edit(state, name)
        if state["dialog"] is not None:
            state["dialog"]["error"] = ""
            if state["dialog"]["kind"] == "city":
                state["highlight"] = 0
                ctx.set_scroll_offset("cities", None)
        return True


def _icon_button(p: Painter, target: str, glyph: str, label: str, rect: Rect) -> None:
    """A small button showing ``glyph`` whose accessible name is ``label``."""
    pal = p.palette
    p.paint(
        RoundedBox(pal["button"], 6, pal["border"], 1),
        rect,
        key=("clk-icon", target),
        target=target,
        semantic=Semantic("button", label, None, False, True),
    )
    w, h = measure(glyph, "sans", 14), line_height("sans", 14)
    p.paint(
        UiText(glyph, 14, pal["text"]),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("clk-icon-glyph", target),
        target=target,
    )


def _timer_total(t: dict) -> int:
    """The timer's set length in seconds (from its fields), at most :data:`TIMER_MAX_S`."""
    return min(TIMER_MAX_S, _num(t["minutes"]) * 60 + _num(t["seconds"]))


register(Clock())
