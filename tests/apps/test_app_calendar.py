"""Calendar, driven only through the actor handle (pointer, keyboard, application; the
terminal's ``sleep`` moves the logical clock).

Controls are found in the scene by interaction id, role and label; the calendar file, the
scheduled reminders and the calendar service's state are checked through the owner's world.
The world starts on Thursday 17 September 2026 at 09:00 UTC (logical tick 0).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _ical as ical
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine import notifications
from cwgym.resources import load_world

W, H = 1280, 800
ICS = "/home/ada/.local/share/calendar/calendar.ics"
ICS_REL = ".local/share/calendar/calendar.ics"
US = 1_000_000
HOUR = 3600 * US


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    if "calendar" not in d["computers"][0]["installed_apps"]:
        d["computers"][0]["installed_apps"].append("calendar")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World, machine: str = M, user: str = "ada"):
    config = EnvironmentConfig.desktop(user, [machine]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = _env(w)
    payload = {"kind": "calendar"}
    if argument is not None:
        payload["argument"] = argument
    wid = ok(env, app("launch", **payload))["window"]
    ok(env, app("maximize"))
    return w, env, wid


def _elements(env, machine: str = M) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][machine]["elements"]}


def _texts(env, machine: str = M) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][machine]["text"]]


def _click(env, target: str, wid: int = 0) -> dict:
    at = point(env.scene(W, H), f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0, machine: str = M) -> dict:
    return one(
        env, act("application.v1", "shell", machine, target=f"window:{wid}:content:{target}")
    )


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _ics(w: World, path: str = ICS) -> str:
    return w.machine(M).fs.read_path(path).decode("utf-8")


def _events(w: World) -> dict[str, ical.Event]:
    cal, problem = ical.parse(w.machine(M).fs.read_path(ICS))
    assert not problem, problem
    return {e.summary: e for e in cal.events}


def _scheduled(w: World) -> dict[str, dict]:
    return {s["key"]: s for s in notifications.scheduled(w.machine(M))}


def _due(day: int, hour: int, minute: int = 0) -> int:
    """The reminder's logical time for an event starting on 2026-09-<day> at hour:minute."""
    return ((day - 17) * 24 * 3600 + (hour - 9) * 3600 + minute * 60 - 15 * 60) * US


def _focus(env) -> str:
    return env.scene(W, H)["focus"]["interaction"]


# -- opening and navigating ------------------------------------------------------------------


def test_open_from_the_dock_with_a_month_of_today():
    w = _world()
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:calendar")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    scene = env.scene(W, H)
    assert scene["windows"][0]["title"] == "Calendar"
    elements = _elements(env)
    assert "September 2026" in _texts(env)
    today = elements["window:0:content:day:2026-09-17"]
    assert today["role"] == "gridcell" and today["selected"] is True
    assert today["label"] == "Thursday, 17 September 2026, 0 events"
    assert elements["window:0:content:view:month"]["selected"] is True
    assert "window:0:content:day:2026-08-31" in elements  # six weeks from the Monday before
    assert not w.machine(M).fs.exists(ICS)  # looking writes nothing


def test_views_and_navigation_by_pointer_shell_and_keys():
    _w, env, _wid = _open()
    _click(env, "next")
    assert "October 2026" in _texts(env)
    _click(env, "prev")
    _click(env, "prev")
    assert "August 2026" in _texts(env)
    _click(env, "today")
    assert "September 2026" in _texts(env)
    _click(env, "view:week")
    assert "14–20 September 2026" in _texts(env)
    assert _elements(env)["window:0:content:view:week"]["selected"] is True
    assert "window:0:content:slot:2026-09-17T14" in _elements(env)
    assert _shell(env, "next")["value"] == "2026-09-24"
    assert "21–27 September 2026" in _texts(env)
    _click(env, "view:day")
    assert "Thursday, 24 September 2026" in _texts(env)
    _keys(env, "PageDown")
    assert "Friday, 25 September 2026" in _texts(env)
    _keys(env, "Home")
    assert "Thursday, 17 September 2026" in _texts(env)
    _keys(env, "Alt+2")
    assert "14–20 September 2026" in _texts(env)
    _keys(env, "Alt+ArrowRight")
    assert "21–27 September 2026" in _texts(env)
    _keys(env, "m")
    assert "September 2026" in _texts(env)
    _keys(env, "ArrowDown", "ArrowDown", "ArrowDown")  # three weeks after the 24th
    assert _elements(env)["window:0:content:day:2026-10-15"]["selected"] is True
    assert "October 2026" in _texts(env)
    _keys(env, "PageUp", "d")
    assert "Tuesday, 15 September 2026" in _texts(env)
    # a week's column heading opens that day
    _keys(env, "w")
    _click(env, "day:2026-09-16")
    assert "Wednesday, 16 September 2026" in _texts(env)
    assert _shell(env, "day:2026-12-01")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "nowhere")["error"]["reason"] == "unknown_shell_target"


def test_a_date_argument_opens_that_day_and_a_bad_one_is_refused():
    _w, env, _wid = _open(argument="2026-12-04")
    assert "December 2026" in _texts(env)
    assert _elements(env)["window:0:content:day:2026-12-04"]["selected"] is True
    out = one(env, app("launch", kind="calendar", argument="next week"))
    assert not out["success"] and out["error"]["code"] == "action_failed"


# -- creating, editing, deleting ---------------------------------------------------------------


def test_create_an_event_in_an_hour_slot_by_pointer():
    w, env, _wid = _open()
    _click(env, "view:week")
    _click(env, "slot:2026-09-18T10")
    elements = _elements(env)
    assert elements["window:0:content:event-date"]["value"] == "2026-09-18"
    assert elements["window:0:content:event-start"]["value"] == "10:00"
    assert elements["window:0:content:event-end"]["value"] == "11:00"
    assert _focus(env) == "window:0:content:event-title"
    ok(env, type_("Design review"))
    _click(env, "event-end")
    ok(env, key("Ctrl+a"))
    ok(env, type_("11:30"))
    _click(env, "event-location")
    ok(env, type_("Atlas room, 2nd floor"))
    _click(env, "event-save")
    text = _ics(w)
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    for line in (
        "UID:event-1@cwgym-calendar",
        "DTSTART:20260918T100000Z",
        "DTEND:20260918T113000Z",
        "SUMMARY:Design review",
        "LOCATION:Atlas room\\, 2nd floor",
        "END:VEVENT",
    ):
        assert line in text.split("\r\n"), line
    assert _scheduled(w)["calendar:event-1@cwgym-calendar"] == {
        "key": "calendar:event-1@cwgym-calendar",
        "due_us": _due(18, 10),
        "source": "calendar",
        "summary": "Design review",
        "body": "Starts at 10:00 · Atlas room, 2nd floor",
    }
    box = _elements(env)["window:0:content:event:event-1@cwgym-calendar"]
    assert box["label"] == "Design review"
    assert box["value"] == "Friday, 18 September 2026, 10:00–11:30"


def test_create_by_keyboard_and_from_the_month_and_the_new_event_button():
    w, env, _wid = _open()
    # keyboard only: Primary+n on the selected day (today: the next full hour)
    _keys(env, "Ctrl+n")
    assert _elements(env)["window:0:content:event-start"]["value"] == "10:00"
    ok(env, type_("Call the bank"))
    _keys(env, "Enter")
    assert _events(w)["Call the bank"].start == WORLD_EPOCH_S + 3600  # today 10:00
    # a month cell: a new all-day event that day; an end date makes it span days
    _click(env, "day:2026-09-21")
    elements = _elements(env)
    assert elements["window:0:content:event-date"]["value"] == "2026-09-21"
    assert elements["window:0:content:event-start"]["value"] == ""
    ok(env, type_("Conference"))
    _keys(env, "Tab", "Tab", "Tab")
    ok(env, type_("2026-09-23"))
    _keys(env, "Enter")
    lines = _ics(w).split("\r\n")
    assert "DTSTART;VALUE=DATE:20260921" in lines and "DTEND;VALUE=DATE:20260924" in lines
    for day in ("21", "22", "23"):
        label = _elements(env)[f"window:0:content:day:2026-09-{day}"]["label"]
        assert label.endswith("1 event"), label
    # the New Event button, on another day
    _click(env, "next")
    _click(env, "new-event")
    assert _elements(env)["window:0:content:event-date"]["value"] == "2026-10-21"
    assert _elements(env)["window:0:content:event-start"]["value"] == "09:00"
    ok(env, type_("Dentist"))
    _shell(env, "event-save")
    assert _events(w)["Dentist"].start % 86400 == 9 * 3600
    assert sorted(_events(w)) == ["Call the bank", "Conference", "Dentist"]
    assert "X-CWGYM-NEXT-UID:4" in _ics(w).split("\r\n")


def test_overnight_and_explicit_ends():
    w, env, _wid = _open()
    _keys(env, "Ctrl+n")
    ok(env, type_("Night shift"))
    _keys(env, "Tab", "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("22:00"))
    _keys(env, "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("06:00"))  # before the start: the next morning
    _keys(env, "Enter")
    e = _events(w)["Night shift"]
    assert (e.end - e.start) == 8 * 3600
    _click(env, f"event:{e.uid}")
    assert _elements(env)["window:0:content:event-end"]["value"] == "06:00"
    _keys(env, "Tab", "Tab", "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("2026-09-19 12:00"))
    _keys(env, "Enter")
    e = _events(w)["Night shift"]
    assert e.end - e.start == 38 * 3600


def test_the_dialog_refuses_what_is_not_an_event_and_writes_nothing():
    w, env, _wid = _open()
    _click(env, "new-event")
    _click(env, "event-save")
    assert "Give the event a title." in _texts(env)
    ok(env, type_("Lunch"))
    _click(env, "event-date")
    ok(env, key("Ctrl+a"))
    ok(env, type_("2026-02-30"))
    _keys(env, "Enter")
    assert "Type the date as YYYY-MM-DD." in _texts(env)
    ok(env, key("Ctrl+a"))
    ok(env, type_("2026-09-18"))
    _keys(env, "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("12:00"))
    _keys(env, "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("12:00"))
    _keys(env, "Enter")
    assert "The event ends when it starts." in _texts(env)
    ok(env, key("Ctrl+a"))
    ok(env, type_("2026-09-17 13:00"))
    _keys(env, "Enter")
    assert "The event ends before it starts." in _texts(env)
    assert not w.machine(M).fs.exists(ICS)
    # characters a field does not take, and the caps, are invalid and change nothing
    assert one(env, type_("x"))["error"]["code"] == "invalid"
    _click(env, "event-title")
    ok(env, key("Ctrl+a"))
    ok(env, type_("t" * 200))
    assert one(env, type_("t"))["error"]["code"] == "invalid"
    assert _elements(env)["window:0:content:event-title"]["value"] == "t" * 200
    _click(env, "event-cancel")
    assert "window:0:content:event-title" not in _elements(env)
    assert not w.machine(M).fs.exists(ICS)


def test_edit_reschedules_and_delete_unschedules():
    w, env, _wid = _open()
    _click(env, "view:week")
    _click(env, "slot:2026-09-18T14")
    ok(env, type_("Budget review"))
    _keys(env, "Enter")
    uid = _events(w)["Budget review"].uid
    assert _scheduled(w)[f"calendar:{uid}"]["due_us"] == _due(18, 14)
    # edit: a click on the event opens it
    _click(env, f"event:{uid}")
    assert _elements(env)["window:0:content:event-delete"]["role"] == "button"
    ok(env, key("Ctrl+a"))
    ok(env, type_("Budget review (moved)"))
    _click(env, "event-start")
    ok(env, key("Ctrl+a"))
    ok(env, type_("16:00"))
    _click(env, "event-end")
    ok(env, key("Ctrl+a"))
    ok(env, type_("17:00"))
    _click(env, "event-save")
    events = _events(w)
    assert list(events) == ["Budget review (moved)"] and events["Budget review (moved)"].uid == uid
    assert _scheduled(w)[f"calendar:{uid}"] == {
        "key": f"calendar:{uid}",
        "due_us": _due(18, 16),
        "source": "calendar",
        "summary": "Budget review (moved)",
        "body": "Starts at 16:00",
    }
    # moved into the past: no reminder
    _shell(env, f"event:{uid}")
    _click(env, "event-date")
    ok(env, key("Ctrl+a"))
    ok(env, type_("2026-09-16"))
    _keys(env, "Enter")
    assert f"calendar:{uid}" not in _scheduled(w)
    _click(env, "prev")
    _click(env, "next")
    _keys(env, "Ctrl+z")  # back to Friday 16:00
    assert _events(w)["Budget review (moved)"].start % 86400 == 16 * 3600
    assert _scheduled(w)[f"calendar:{uid}"]["due_us"] == _due(18, 16)
    # delete from the dialog
    _click(env, f"event:{uid}")
    _click(env, "event-delete")
    assert _events(w) == {} and f"calendar:{uid}" not in _scheduled(w)
    assert _shell(env, f"event:{uid}")["error"]["reason"] == "unknown_shell_target"


def test_keyboard_selection_delete_undo_and_redo():
    w, env, _wid = _open()
    for title in ("First", "Second"):
        _keys(env, "Ctrl+n")
        ok(env, type_(title))
        _keys(env, "Enter")
    assert sorted(_events(w)) == ["First", "Second"]
    _keys(env, "Escape", "Tab")  # the first event of the view
    first = _events(w)["First"].uid
    assert _elements(env)[f"window:0:content:event:{first}"]["selected"] is True
    _keys(env, "Delete")
    assert sorted(_events(w)) == ["Second"]
    assert f"calendar:{first}" not in _scheduled(w)
    _keys(env, "Ctrl+z")
    assert sorted(_events(w)) == ["First", "Second"]
    assert [e.summary for e in ical.parse(w.machine(M).fs.read_path(ICS))[0].events] == [
        "First",
        "Second",
    ]
    assert f"calendar:{first}" in _scheduled(w)
    _keys(env, "Ctrl+Shift+z")
    assert sorted(_events(w)) == ["Second"]
    _keys(env, "Ctrl+z", "Ctrl+z")  # the delete, then the second event's creation
    assert sorted(_events(w)) == ["First"]
    # Enter opens the selected event
    _keys(env, "Tab", "Enter")
    assert _elements(env)["window:0:content:event-title"]["value"] == "First"
    _keys(env, "Escape")
    assert "window:0:content:event-title" not in _elements(env)


def test_a_reminder_rings_fifteen_minutes_before():
    w, env, _wid = _open()
    _keys(env, "Ctrl+n")
    ok(env, type_("Stand-up"))
    _keys(env, "Tab", "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("09:30"))
    _keys(env, "Enter")
    assert _scheduled(w)[f"calendar:{_events(w)['Stand-up'].uid}"]["due_us"] == 15 * 60 * US
    out = one(env, act("terminal.v1", "execute", command="sleep 960"))
    assert out["success"], out
    raised = notifications.notifications(w.machine(M))
    assert [(n["source"], n["summary"], n["body"]) for n in raised] == [
        ("calendar", "Stand-up", "Starts at 09:30")
    ]
    assert _scheduled(w) == {}
    # a reminder that has rung is not scheduled again
    _click(env, "next")
    assert _scheduled(w) == {}


# -- the file ----------------------------------------------------------------------------------

_FOREIGN = "\r\n".join(
    [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Someone//Else//EN",
        "X-WR-CALNAME:Home",
        "BEGIN:VTIMEZONE",
        "TZID:UTC",
        "END:VTIMEZONE",
        "BEGIN:VEVENT",
        "UID:weekly-sync@example.com",
        "DTSTART;TZID=UTC:20260918T130000",
        "DURATION:PT45M",
        "RRULE:FREQ=WEEKLY",
        "SUMMARY:Weekly sync\\; all hands",
        "DESCRIPTION:Line one\\nLine two with a very long text that goes on and on so that the line",
        " must be folded",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT10M",
        "END:VALARM",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:holiday@example.com",
        "DTSTART;VALUE=DATE:20260925",
        "SUMMARY:Holiday",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
    ]
)


def test_a_foreign_file_is_read_and_untouched_events_are_kept_as_they_were():
    w, env, _wid = _open({ICS_REL: _FOREIGN})
    elements = _elements(env)
    sync = elements["window:0:content:event:weekly-sync@example.com"]
    assert sync["label"] == "Weekly sync; all hands"
    assert sync["value"] == "Friday, 18 September 2026, 13:00–13:45"
    assert elements["window:0:content:day:2026-09-25"]["label"].endswith("1 event")
    assert _scheduled(w)["calendar:weekly-sync@example.com"]["due_us"] == _due(18, 13)
    # edit the holiday: the other event is written back line for line
    _click(env, "event:holiday@example.com")
    ok(env, key("Ctrl+a"))
    ok(env, type_("Bank holiday"))
    _keys(env, "Enter")
    text = _ics(w)
    lines = text.split("\r\n")
    for line in (
        "X-WR-CALNAME:Home",
        "DTSTART;TZID=UTC:20260918T130000",
        "RRULE:FREQ=WEEKLY",
        "TRIGGER:-PT10M",
        "BEGIN:VTIMEZONE",
        "SUMMARY:Bank holiday",
        "DTSTART;VALUE=DATE:20260925",
        "DTEND;VALUE=DATE:20260926",
    ):
        assert line in lines, line
    assert all(len(line.encode()) <= 75 for line in lines)
    cal, problem = ical.parse(text.encode())
    assert problem == ""
    sync_event = next(e for e in cal.events if e.uid == "weekly-sync@example.com")
    assert sync_event.description.startswith(
        "Line one\nLine two"
    ) and sync_event.description.endswith("must be folded")


def test_a_damaged_file_shows_an_error_and_is_kept_until_a_change_is_saved():
    damaged = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:No uid\r\nDTSTART:20260918T100000Z\r\nEND:VEVENT\r\n"
    w, env, _wid = _open({ICS_REL: damaged})
    banner = " ".join(t for t in _texts(env) if "damaged" in t)
    assert "is damaged (the event that begins on line 2 has no UID)" in banner
    assert all(
        not e["label"].endswith(" 1 event")
        for e in _elements(env).values()
        if e["role"] == "gridcell"
    )
    _click(env, "next")
    _click(env, "view:week")
    _keys(env, "Ctrl+z", "Tab", "Delete")
    assert _ics(w) == damaged  # looking and navigating leave it alone
    _click(env, "today")
    _click(env, "new-event")
    ok(env, type_("Fresh start"))
    _click(env, "event-save")
    assert _ics(w, ICS + ".damaged") == damaged
    assert list(_events(w)) == ["Fresh start"]
    assert not [t for t in _texts(env) if "damaged" in t]


def test_parse_reports_what_is_wrong():
    cases = {
        b"\xff\xfe": "it is not UTF-8 text",
        b"hello": "it does not begin with BEGIN:VCALENDAR",
        b"BEGIN:VCALENDAR\r\n": "it ends before END:VCALENDAR",
        b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n": "has no DTSTART",
        b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:2026\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n": "DTSTART '2026'",
        b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260918T100000Z\r\nDTEND:20260918T090000Z\r\n"
        b"END:VEVENT\r\nEND:VCALENDAR\r\n": "ends before it starts",
        b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260918T100000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n": (
            "END:VTODO closes BEGIN:VEVENT"
        ),
        b"BEGIN:VCALENDAR\r\nno colon here\r\nEND:VCALENDAR\r\n": "line 2 has no ':'",
    }
    for data, expected in cases.items():
        cal, problem = ical.parse(data)
        assert expected in problem, (data, problem)
        assert cal.events == ()
    assert ical.parse(b"") == (ical.empty(), "")


# -- invitations -------------------------------------------------------------------------------

MAYA = "maya-ws"


def _company(account: dict | None = None):
    d = load_world("company")
    computer = next(c for c in d["computers"] if c["id"] == MAYA)
    if account is not None:
        computer["initial_files"][".config/calendar/account.json"] = json.dumps(account)
    w = World(d, 7)
    env = w.environment(EnvironmentConfig.desktop("maya", [MAYA]))
    assert one(env, act("application.v1", "launch", MAYA, kind="calendar"))["success"]
    return w, env


def _mstep(env, target: str) -> dict:
    return one(env, act("application.v1", "shell", MAYA, target=f"window:0:content:{target}"))


def _mtype(env, text: str) -> dict:
    return one(env, act("keyboard.v1", "type", MAYA, text=text))


def _mkey(env, name: str) -> dict:
    return one(env, act("keyboard.v1", "key", MAYA, key=name))


def _maya_texts(env) -> list[str]:
    return _texts(env, MAYA)


def test_without_a_calendar_service_the_panel_says_no_calendar_account():
    _w, env, _wid = _open()
    _click(env, "invitations")
    assert "No calendar account" in _texts(env)
    assert _elements(env)["window:0:content:invitations"]["checked"] is True
    assert "window:0:content:account-add" in _elements(env)
    _click(env, "account-add")
    ok(env, type_("calendar.example.com"))
    _keys(env, "Tab")
    ok(env, type_("ada"))
    _keys(env, "Tab")
    ok(env, type_("secret"))
    assert _elements(env)["window:0:content:account-password"]["value"] == "••••••"
    _click(env, "account-connect")
    assert any(t.startswith("Could not reach calendar.example.com") for t in _texts(env))
    _click(env, "account-cancel")
    _keys(env, "Escape")
    assert "window:0:content:account-add" not in _elements(env)


def test_add_an_account_accept_and_decline_invitations():
    w, env = _company()
    assert _mstep(env, "invitations")["success"]
    assert "No calendar account" in _maya_texts(env)
    _mstep(env, "account-add")
    _mtype(env, "calendar.northwind.internal")
    _mkey(env, "Tab")
    _mtype(env, "maya")
    _mkey(env, "Tab")
    _mtype(env, "wrong")
    _mkey(env, "Enter")
    assert "calendar.northwind.internal refused the user name or password." in _maya_texts(env)
    _mkey(env, "Ctrl+a")
    _mtype(env, "maya-nw-2026")
    _mstep(env, "account-connect")
    account = json.loads(w.machine(MAYA).fs.read_path("/home/maya/.config/calendar/account.json"))
    assert account == {
        "password": "maya-nw-2026",
        "server": "http://calendar.northwind.internal",
        "user": "maya",
    }
    elements = _elements(env, MAYA)
    assert elements["window:0:content:invite-accept:2"]["label"] == "Accept Friday release"
    assert "maya@calendar.northwind.internal" in _maya_texts(env)
    assert _mstep(env, "invite-accept:2")["value"] == "accepted"
    assert w.service_state("calendar")["events"]["2"]["attendees"]["maya"] == "accepted"
    assert "Accepted “Friday release”. It is in your calendar." in _maya_texts(env)
    cal, _problem = ical.parse(
        w.machine(MAYA).fs.read_path("/home/maya/.local/share/calendar/calendar.ics")
    )
    assert [(e.uid, e.summary, e.start % 86400) for e in cal.events] == [
        ("invite-2@calendar.northwind.internal", "Friday release", 15 * 3600)
    ]
    assert "calendar:invite-2@calendar.northwind.internal" in {
        s["key"] for s in notifications.scheduled(w.machine(MAYA))
    }
    assert _mstep(env, "invite-accept:2")["error"]["reason"] == "unknown_shell_target"
    assert "No invitations waiting for an answer." in _maya_texts(env)


def test_decline_with_an_account_file_and_offline():
    account = {"server": "calendar.northwind.internal", "user": "omar", "password": "omar-nw-2026"}
    d = load_world("company")
    computer = next(c for c in d["computers"] if c["id"] == MAYA)
    computer["initial_files"][".config/calendar/account.json"] = json.dumps(account)
    w = World(d, 7)
    env = w.environment(EnvironmentConfig.desktop("maya", [MAYA]))
    assert one(env, act("application.v1", "launch", MAYA, kind="calendar"))["success"]
    _mstep(env, "invitations")
    ids = {e for e in _elements(env, MAYA) if "invite-" in e}
    assert ids == {
        f"window:0:content:invite-{v}:{n}" for n in (1, 2) for v in ("accept", "decline")
    }
    assert _mstep(env, "invite-decline:1")["value"] == "declined"
    assert w.service_state("calendar")["events"]["1"]["attendees"]["omar"] == "declined"
    assert not w.machine(MAYA).fs.exists("/home/maya/.local/share/calendar/calendar.ics")
    # Wi-Fi off: the service cannot be reached
    assert one(env, act("application.v1", "shell", MAYA, target="shell:toggle:wifi"))["success"]
    _mstep(env, "invitations-refresh")
    texts = _maya_texts(env)
    assert "No calendar account" in texts
    assert any("Could not reach calendar.northwind.internal" in t for t in texts)
    _mstep(env, "account-remove")
    assert not w.machine(MAYA).fs.exists("/home/maya/.config/calendar/account.json")
    assert "window:0:content:account-add" in _elements(env, MAYA)


def test_a_busy_day_shows_more_and_the_week_has_an_all_day_row():
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
    for i in range(6):
        lines += [
            "BEGIN:VEVENT",
            f"UID:busy-{i}",
            f"DTSTART:20260922T{10 + i:02d}0000Z",
            f"SUMMARY:Meeting {i}",
            "END:VEVENT",
        ]
    lines += ["END:VCALENDAR", ""]
    w, env, _wid = _open({ICS_REL: "\r\n".join(lines)})
    more = _elements(env)["window:0:content:more:2026-09-22"]
    assert more["role"] == "button" and more["label"].endswith("more on Tuesday, 22 September 2026")
    _click(env, "more:2026-09-22")
    assert "Tuesday, 22 September 2026" in _texts(env)
    assert _elements(env)["window:0:content:view:day"]["selected"] is True
    elements = _elements(env)
    assert all(f"window:0:content:event:busy-{i}" in elements for i in range(6) if 10 + i < 16)
    # the week's all-day row makes all-day events
    _click(env, "view:week")
    _click(env, "allday:2026-09-24")
    assert _elements(env)["window:0:content:event-start"]["value"] == ""
    ok(env, type_("Away"))
    _keys(env, "Enter")
    assert _events(w)["Away"].all_day
    assert _elements(env)["window:0:content:event:event-1@cwgym-calendar"]["value"] == (
        "Thursday, 24 September 2026, all day"
    )
    # the hours scroll with the keys (and the wheel); 08:00 is at the top at first
    assert "window:0:content:slot:2026-09-24T08" in _elements(env)
    _keys(env, "ArrowUp", "ArrowUp")
    assert "window:0:content:slot:2026-09-24T06" in _elements(env)
    # Escape closes the Invitations panel
    _click(env, "invitations")
    assert "No calendar account" in _texts(env)
    _keys(env, "Escape", "Escape")
    assert "No calendar account" not in _texts(env)


def test_an_event_starting_within_fifteen_minutes_rings_at_once_and_only_once():
    w, env, _wid = _open()
    _keys(env, "Ctrl+n")
    ok(env, type_("Quick sync"))
    _keys(env, "Tab", "Tab")
    ok(env, key("Ctrl+a"))
    ok(env, type_("09:10"))
    _keys(env, "Enter")
    assert [n["summary"] for n in notifications.notifications(w.machine(M))] == ["Quick sync"]
    _click(env, "next")
    _click(env, "prev")
    assert [n["summary"] for n in notifications.notifications(w.machine(M))] == ["Quick sync"]
    assert _scheduled(w) == {}
