"""Clocks, driven only through the actor handle (pointer, keyboard, application; the
terminal's ``sleep`` moves the logical clock).

Controls are found in the scene by interaction id, role and label; the clocks file and the
scheduled notifications are checked through the owner's machine.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.machine import notifications
from cwgym.resources import load_world

W, H = 1280, 800
CLOCKS = "/home/ada/.config/gnome-clocks/clocks.json"
US = 1_000_000
#: 07:30 tomorrow (the world starts on Thu 17 Sep 2026 at 09:00 UTC), in logical microseconds.
TOMORROW_0730 = (22 * 3600 + 30 * 60) * US


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("clock")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None):
    w = _world(files)
    env = _env(w)
    wid = ok(env, app("launch", kind="clock"))["window"]
    return w, env, wid


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str, wid: int = 0) -> dict:
    at = point(env.scene(W, H), f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _sleep(env, seconds: float) -> None:
    out = one(env, act("terminal.v1", "execute", command=f"sleep {seconds}"))
    assert out["success"] and out["value"]["exit_code"] == 0, out


def _file(w: World) -> dict:
    return json.loads(w.machine(M).fs.read_path(CLOCKS))


def _scheduled(w: World) -> dict[str, dict]:
    return {s["key"]: s for s in notifications.scheduled(w.machine(M))}


def _raised(w: World) -> list[str]:
    return [n["summary"] for n in notifications.notifications(w.machine(M))]


# -- tabs ----------------------------------------------------------------------------------


def test_open_from_the_dock_and_switch_tabs_by_pointer_and_keys():
    w = _world()
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:clock")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    scene = env.scene(W, H)
    assert scene["windows"][0]["title"] == "Clocks"
    tabs = {e["label"]: e for e in _elements(env).values() if e["role"] == "tab"}
    assert sorted(tabs) == ["Alarms", "Stopwatch", "Timer", "World"]
    assert tabs["World"]["selected"] is True and tabs["Alarms"]["selected"] is False
    assert "09:00" in _texts(env) and "Thursday, 17 September 2026" in _texts(env)
    _click(env, "tab:alarms")
    assert "window:0:content:alarm-add" in _elements(env)
    _keys(env, "Alt+3")
    assert "window:0:content:stopwatch-start" in _elements(env)
    _keys(env, "Ctrl+PageDown")
    assert "window:0:content:timer-start" in _elements(env)
    _keys(env, "Ctrl+PageDown")
    assert "window:0:content:world-add" in _elements(env)
    assert _shell(env, "tab:alarms")["success"]
    assert _shell(env, "tab:nowhere")["error"]["reason"] == "unknown_shell_target"
    assert not w.machine(M).fs.exists(CLOCKS)  # looking writes nothing


# -- world clocks --------------------------------------------------------------------------


def test_add_and_remove_world_clocks():
    w, env, _wid = _open()
    _click(env, "world-add")
    dialog = _elements(env)
    assert dialog["window:0:content:city-search"]["role"] == "textbox"
    assert dialog["window:0:content:city:honolulu"]["label"] == "Honolulu, United States"
    assert dialog["window:0:content:city:honolulu"]["selected"] is True  # Enter adds it
    # the dialog is modal
    assert _shell(env, "tab:alarms")["error"]["reason"] == "unknown_shell_target"
    ok(env, type_("tok"))
    assert [e for e in _elements(env) if e.startswith("window:0:content:city:")] == [
        "window:0:content:city:tokyo"
    ]
    _click(env, "city:tokyo")
    assert _file(w) == {"alarms": [], "world": ["tokyo"]}
    # by keyboard: Primary+n, search, arrows, Enter
    _keys(env, "Ctrl+n")
    ok(env, type_("kat"))
    _keys(env, "ArrowDown", "Enter")
    _keys(env, "Ctrl+n")
    ok(env, type_("new y"))
    _keys(env, "Enter")
    assert _file(w)["world"] == ["tokyo", "kathmandu", "new-york"]
    texts = _texts(env)
    for shown in ("Tokyo", "18:00", "Kathmandu", "14:45", "Nepal · UTC+5:45", "New York", "04:00"):
        assert shown in texts, shown
    # a city already listed is not offered again
    _click(env, "world-add")
    ok(env, type_("tok"))
    assert "No matching city" in _texts(env)
    _click(env, "city-cancel")
    assert _elements(env)["window:0:content:world-remove:tokyo"]["label"] == "Remove Tokyo"
    _click(env, "world-remove:tokyo")
    assert _shell(env, "world-remove:new-york")["success"]
    assert _file(w)["world"] == ["kathmandu"]


def test_world_clocks_follow_the_logical_clock_across_midnight():
    _w, env, _wid = _open(
        {".config/gnome-clocks/clocks.json": json.dumps({"world": ["auckland", "honolulu"]})}
    )
    texts = _texts(env)
    assert "21:00" in texts and "23:00" in texts  # Auckland 21:00 today, Honolulu 23:00 yesterday
    assert "Yesterday" in texts and "Today" in texts
    _sleep(env, 3 * 3600)
    texts = _texts(env)
    assert "12:00" in texts and "00:00" in texts and "02:00" in texts  # local, Auckland, Honolulu
    assert "Tomorrow" in texts


def test_search_cap_is_refused():
    _w, env, _wid = _open()
    _click(env, "world-add")
    ok(env, type_("a" * 64))
    assert one(env, type_("a"))["error"]["code"] == "invalid"
    assert "No matching city" in _texts(env)
    _keys(env, "Escape")
    assert "window:0:content:city-search" not in _elements(env)


# -- alarms --------------------------------------------------------------------------------


def test_add_an_alarm_by_pointer_and_keys_and_it_is_scheduled():
    w, env, _wid = _open()
    _click(env, "tab:alarms")
    _click(env, "alarm-add")
    elements = _elements(env)
    assert elements["window:0:content:alarm-hour"]["value"] == "09"  # the time now
    assert env.scene(W, H)["focus"]["interaction"] == "window:0:content:alarm-hour"
    _click(env, "alarm-hour")
    ok(env, type_("07"))
    _keys(env, "Tab")
    ok(env, type_("30"))
    _keys(env, "Tab")
    ok(env, type_("Wake up"))
    _click(env, "alarm-save")
    assert _file(w) == {
        "alarms": [{"enabled": True, "id": 1, "label": "Wake up", "time": "07:30"}],
        "world": [],
    }
    assert _scheduled(w)["clock:alarm:1"] == {
        "key": "clock:alarm:1",
        "due_us": TOMORROW_0730,
        "source": "clock",
        "summary": "Wake up",
        "body": "",
    }
    toggle = _elements(env)["window:0:content:alarm-toggle:1"]
    assert toggle["role"] == "checkbox" and toggle.get("checked") is True
    # keyboard only: Primary+n, "18:05" typed into the hour field, Enter; an empty name is "Alarm"
    _keys(env, "Ctrl+n")
    ok(env, type_("18:05"))
    _keys(env, "Enter")
    assert _file(w)["alarms"][1] == {"enabled": True, "id": 2, "label": "Alarm", "time": "18:05"}
    assert _scheduled(w)["clock:alarm:2"]["due_us"] == (9 * 3600 + 5 * 60) * US  # today
    # arrows step the hour and the minute
    _keys(env, "Ctrl+n", "ArrowUp", "Tab", "ArrowDown", "ArrowDown")
    assert _elements(env)["window:0:content:alarm-hour"]["value"] == "10"
    assert _elements(env)["window:0:content:alarm-minute"]["value"] == "58"
    _click(env, "alarm-cancel")
    assert len(_file(w)["alarms"]) == 2


def test_toggle_and_delete_unschedule_and_reschedule():
    w, env, _wid = _open()
    _click(env, "tab:alarms")
    _shell(env, "alarm-add")
    ok(env, type_("7:30"))
    _shell(env, "alarm-save")
    _click(env, "alarm-toggle:1")
    assert _file(w)["alarms"][0]["enabled"] is False
    assert "clock:alarm:1" not in _scheduled(w)
    assert _shell(env, "alarm-toggle:1")["success"]
    assert _scheduled(w)["clock:alarm:1"]["due_us"] == TOMORROW_0730
    _click(env, "alarm-delete:1")
    assert _file(w)["alarms"] == [] and _scheduled(w) == {}
    assert _shell(env, "alarm-delete:1")["error"]["reason"] == "unknown_shell_target"


def test_an_alarm_rings_and_the_next_day_is_scheduled():
    w, env, _wid = _open()
    _click(env, "tab:alarms")
    _shell(env, "alarm-add")
    ok(env, type_("09:01"))  # the minute field has the keyboard after the ":"
    _keys(env, "Tab")
    ok(env, type_("Stand-up"))
    _keys(env, "Enter")
    assert _scheduled(w)["clock:alarm:1"]["due_us"] == 60 * US
    _sleep(env, 90)
    assert _raised(w) == ["Stand-up"]
    assert "clock:alarm:1" not in _scheduled(w)
    _click(env, "tab:world")  # any event of a Clocks window schedules the next ring
    assert _scheduled(w)["clock:alarm:1"]["due_us"] == (86_400 + 60) * US


def test_alarms_written_into_the_file_are_scheduled_when_clocks_opens():
    alarms = {
        "alarms": [
            {"id": 4, "time": "21:15", "label": "Lock up", "enabled": True},
            {"id": 5, "time": "06:00", "label": "Off", "enabled": False},
        ]
    }
    w, env, _wid = _open({".config/gnome-clocks/clocks.json": json.dumps(alarms)})
    assert sorted(_scheduled(w)) == ["clock:alarm:4"]
    assert _scheduled(w)["clock:alarm:4"]["due_us"] == (12 * 3600 + 15 * 60) * US
    _click(env, "tab:alarms")
    assert _elements(env)["window:0:content:alarm-toggle:5"].get("checked") is False


def test_alarm_dialog_refusals_and_caps():
    w, env, _wid = _open()
    _click(env, "tab:alarms")
    _click(env, "alarm-add")
    ok(env, type_("25"))
    _click(env, "alarm-save")
    assert "Type an hour from 0 to 23." in _texts(env)
    assert not w.machine(M).fs.exists(CLOCKS)
    _click(env, "alarm-hour")
    assert one(env, type_("7a"))["error"]["code"] == "invalid"  # digits only
    assert one(env, type_("123"))["error"]["code"] == "invalid"  # two at most
    ok(env, type_("6"))
    _click(env, "alarm-minute")
    ok(env, type_("75"))
    _keys(env, "Enter")
    assert "Type minutes from 0 to 59." in _texts(env)
    _click(env, "alarm-label")
    ok(env, type_("n" * 64))
    assert one(env, type_("n"))["error"]["code"] == "invalid"
    assert _elements(env)["window:0:content:alarm-label"]["value"] == "n" * 64
    _keys(env, "Escape")
    assert "window:0:content:alarm-label" not in _elements(env)
    assert not w.machine(M).fs.exists(CLOCKS)


def test_a_damaged_clocks_file_is_reported_and_never_rewritten():
    for bad in (
        "{oops",
        json.dumps({"world": ["atlantis"]}),
        json.dumps({"alarms": [{"id": 1, "time": "25:00"}]}),
    ):
        w, env, _wid = _open({".config/gnome-clocks/clocks.json": bad})
        assert any("damaged" in t for t in _texts(env)), bad
        assert _elements(env)["window:0:content:world-add"]["enabled"] is False
        _shell(env, "world-add")
        assert "window:0:content:city-search" not in _elements(env)
        _click(env, "tab:alarms")
        _keys(env, "Ctrl+n")
        assert w.machine(M).fs.read_path(CLOCKS) == bad.encode()
    assert any(
        "unknown city 'atlantis'" in t
        for t in _texts(
            _open({".config/gnome-clocks/clocks.json": json.dumps({"world": ["atlantis"]})})[1]
        )
    )


def test_two_windows_share_the_clocks_file():
    w, env, _wid = _open()
    _click(env, "world-add")
    ok(env, type_("par"))
    _click(env, "city:paris")
    second = ok(env, app("launch", kind="clock"))["window"]
    assert f"window:{second}:content:world-remove:paris" in _elements(env)
    assert _file(w)["world"] == ["paris"]


# -- stopwatch and timer ---------------------------------------------------------------------


def test_stopwatch_start_lap_pause_reset_on_the_logical_clock():
    _w, env, _wid = _open()
    _click(env, "tab:stopwatch")
    assert "00:00.0" in _texts(env)
    _click(env, "stopwatch-start")
    _sleep(env, 12.34)
    _click(env, "stopwatch-lap")
    assert "00:12.3" in _texts(env)  # the display shows the time of the last event
    _sleep(env, 5)
    _keys(env, "Enter")  # a lap by keyboard
    assert "Lap 2" in _texts(env) and "00:05.0" in _texts(env) and "00:17.3" in _texts(env)
    _click(env, "stopwatch-stop")
    _sleep(env, 60)
    _click(env, "tab:world")
    _click(env, "tab:stopwatch")
    assert "00:17.3" in _texts(env)  # paused: no time passes
    assert _shell(env, "stopwatch-lap")["error"]["reason"] == "unknown_shell_target"
    _keys(env, "Space")  # resume
    _sleep(env, 1)
    _keys(env, "Space")  # pause
    assert "00:18.3" in _texts(env)
    _click(env, "stopwatch-reset")
    assert "00:00.0" in _texts(env) and "Lap 1" not in _texts(env)


def test_stopwatch_laps_are_capped():
    _w, env, _wid = _open()
    _click(env, "tab:stopwatch")
    _keys(env, "Space")
    for _ in range(100):
        assert _shell(env, "stopwatch-lap")["success"]
    assert _shell(env, "stopwatch-lap")["error"]["code"] == "invalid"


def test_timer_runs_on_the_logical_clock_and_notifies_at_the_end():
    w, env, _wid = _open()
    _click(env, "tab:timer")
    focus = env.scene(W, H)["focus"]
    assert focus["interaction"] == "window:0:content:timer-minutes" and focus["value"] == "05"
    ok(env, type_("01"))
    _keys(env, "Tab")
    ok(env, type_("30"))
    _click(env, "timer-start")
    assert "01:30" in _texts(env)
    assert _scheduled(w)["clock:timer:0"]["due_us"] == 90 * US
    _sleep(env, 30)
    _click(env, "timer-pause")
    assert "01:00" in _texts(env)
    assert "clock:timer:0" not in _scheduled(w)
    _sleep(env, 600)
    _click(env, "timer-start")  # Resume
    assert _scheduled(w)["clock:timer:0"]["due_us"] == (630 + 60) * US
    _sleep(env, 59.5)
    _keys(env, "Alt+4")
    assert "00:01" in _texts(env)  # a countdown shows the second it is in
    _sleep(env, 1)
    assert _raised(w) == ["Timer finished"]
    _keys(env, "Alt+4")
    assert "00:00" in _texts(env) and "Time is up" in _texts(env)
    _click(env, "timer-reset")
    assert "window:0:content:timer-minutes" in _elements(env)


def test_timer_presets_space_and_reset_by_keyboard():
    w, env, _wid = _open()
    _keys(env, "Alt+4")
    _click(env, "timer-preset:600")
    assert _elements(env)["window:0:content:timer-minutes"]["value"] == "10"
    _keys(env, "Enter")
    assert _scheduled(w)["clock:timer:0"]["due_us"] == 600 * US
    _keys(env, "Space")
    assert "clock:timer:0" not in _scheduled(w)
    _keys(env, "Space")
    assert "clock:timer:0" in _scheduled(w)
    _keys(env, "Delete")
    assert "clock:timer:0" not in _scheduled(w)
    # a zero timer cannot start; fields take two digits
    _click(env, "timer-minutes")
    ok(env, type_("00"))
    _click(env, "timer-seconds")
    ok(env, type_("00"))
    assert _elements(env)["window:0:content:timer-start"]["enabled"] is False
    assert one(env, type_("123"))["error"]["code"] == "invalid"


def test_arrows_keep_the_chosen_city_in_view_and_the_wheel_scrolls_the_list():
    w, env, _wid = _open()
    _keys(env, "Ctrl+n")
    for _ in range(20):
        _keys(env, "ArrowDown")
    chosen = [
        e
        for e in _elements(env).values()
        if e["id"].startswith("window:0:content:city:") and e.get("selected")
    ]
    # the 21st city, scrolled into view
    assert [e["label"] for e in chosen] == ["Dhaka, Bangladesh"]
    _keys(env, "Enter")
    assert _file(w)["world"] == ["dhaka"]
    _keys(env, "Ctrl+n")
    scene = env.scene(W, H)
    first = point(scene, "window:0:content:city:honolulu")
    assert one(env, ptr("wheel", *first, delta_y=2000, width=W, height=H))["success"]
    assert "window:0:content:city:honolulu" not in _elements(env)
    _click(env, "city:auckland")
    assert _file(w)["world"] == ["dhaka", "auckland"]


def test_refused_input_leaves_the_window_as_it_was_even_with_time_running():
    _w, env, _wid = _open()
    _keys(env, "Alt+3", "Space")  # the stopwatch runs
    _keys(env, "Alt+4")
    _click(env, "timer-minutes")
    _sleep(env, 7)
    scene = env.scene(W, H)["digest"]
    assert one(env, type_("abc"))["error"]["code"] == "invalid"
    assert env.scene(W, H)["digest"] == scene
    _keys(env, "Alt+3")
    assert "00:07.0" in _texts(env)
