"""Settings, driven only through the actor handle (pointer, keyboard, application; the
terminal for a home that refuses the write).

Controls are found in the scene by interaction id, role and label; the settings file is
checked through the owner's machine, and the top bar's quick settings change the same
values the window shows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, bounds, key, ok, one, point, ptr

from cwgym import EnvironmentConfig, World
from cwgym.machine.settings import read_settings
from cwgym.resources import load_world

W, H = 1280, 800
FILE = "/home/ada/.config/cwgym/settings.json"
FILE_REL = ".config/cwgym/settings.json"


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("settings")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = _env(w)
    payload = {"kind": "settings"}
    if argument is not None:
        payload["argument"] = argument
    wid = ok(env, app("launch", **payload))["window"]
    return w, env, wid


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _el(env, target: str) -> dict:
    return _elements(env)[f"window:0:content:{target}"]


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str) -> dict:
    at = point(env.scene(W, H), f"window:0:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str) -> dict:
    return one(env, app("shell", target=f"window:0:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _file(w: World) -> dict:
    return json.loads(w.machine(M).fs.read_path(FILE))


def _focus(env) -> str:
    return env.scene(W, H)["focus"]["interaction"]


def test_open_and_switch_panels_by_pointer_shell_and_keys():
    w = _world()
    env = _env(w)
    at = point(env.scene(W, H), "shell:launch:settings")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    assert env.scene(W, H)["windows"][0]["title"] == "Settings"
    tabs = {e["label"]: e for e in _elements(env).values() if e["role"] == "tab"}
    assert list(tabs) == [
        "Wi-Fi",
        "Bluetooth",
        "Appearance",
        "Sound",
        "Displays",
        "Notifications",
        "Users",
    ]
    assert tabs["Wi-Fi"]["selected"] is True
    assert _focus(env) == "window:0:content:panel:wifi"
    _click(env, "panel:sound")
    assert _el(env, "volume")["role"] == "slider" and _el(env, "volume")["value"] == "50"
    assert _shell(env, "panel:displays")["value"] == "displays"
    assert "window:0:content:scale:150" in _elements(env)
    _keys(env, "ArrowUp")
    assert _el(env, "panel:sound")["selected"] is True
    _keys(env, "ArrowDown", "ArrowDown")
    assert _el(env, "panel:notifications")["selected"] is True
    _keys(env, "Home")
    assert _el(env, "panel:wifi")["selected"] is True
    _keys(env, "End")
    assert _el(env, "panel:users")["selected"] is True
    _keys(env, "Alt+3")
    assert _el(env, "panel:appearance")["selected"] is True
    # controls of a panel not shown are unknown
    assert _shell(env, "toggle:wifi")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "panel:nowhere")["error"]["reason"] == "unknown_shell_target"
    assert not w.machine(M).fs.exists(FILE)  # looking writes nothing


def test_a_panel_argument_and_a_bad_one():
    _w, env, _wid = _open(argument="sound")
    assert _el(env, "panel:sound")["selected"] is True
    out = one(env, app("launch", kind="settings", argument="printers"))
    assert not out["success"] and out["error"]["code"] == "action_failed"


def test_wifi_and_airplane_mode_switches():
    w, env, _wid = _open()
    wifi = _el(env, "toggle:wifi")
    assert wifi["role"] == "switch" and wifi["checked"] is True
    assert "cwgym-10-0-0" in _texts(env) and "Connected · IPv4 address 10.0.0.10" in _texts(env)
    _click(env, "toggle:wifi")
    assert _file(w) == {"wifi": False}
    assert _el(env, "toggle:wifi")["checked"] is False
    assert "Wi-Fi is turned off: the computer reaches no network." in _texts(env)
    assert _shell(env, "toggle:wifi")["value"] == {"setting": "wifi", "value": True}
    assert not w.machine(M).fs.exists(FILE) or _file(w) == {}
    # keyboard: Tab (from the Wi-Fi switch just used) to the airplane switch, Space flips it
    _keys(env, "Tab")
    assert _focus(env) == "window:0:content:toggle:airplane_mode"
    _keys(env, "Space")
    assert read_settings(w.machine(M))["airplane_mode"] is True
    assert "Airplane Mode is on: the computer reaches no network." in _texts(env)
    _keys(env, "Enter")
    assert read_settings(w.machine(M))["airplane_mode"] is False
    _keys(env, "Shift+Tab", "Shift+Tab")
    assert _focus(env) == "window:0:content:panel:wifi"


def test_bluetooth_notifications_and_night_light():
    w, env, _wid = _open()
    _click(env, "panel:bluetooth")
    assert "Bluetooth is turned off." in _texts(env)
    _click(env, "toggle:bluetooth")
    assert "Visible as “workstation”. No devices found nearby." in _texts(env)
    _click(env, "panel:notifications")
    _click(env, "toggle:do_not_disturb")
    _click(env, "panel:displays")
    _keys(env, "Tab", "Tab", "Tab", "Tab", "Tab", "Tab")
    assert _focus(env) == "window:0:content:toggle:night_light"
    _keys(env, "Space")
    assert _file(w) == {"bluetooth": True, "do_not_disturb": True, "night_light": True}


def test_dark_style_by_tile_switch_and_keys_and_quick_settings_agree():
    w, env, _wid = _open()
    _click(env, "panel:appearance")
    assert (
        _el(env, "style:default")["checked"] is True and _el(env, "style:dark")["role"] == "radio"
    )
    _click(env, "style:dark")
    assert _file(w) == {"dark_style": True}
    assert _el(env, "toggle:dark_style")["checked"] is True
    _click(env, "toggle:dark_style")
    assert read_settings(w.machine(M))["dark_style"] is False
    # Tab goes round (the switch, the side bar, the tiles); arrows pick
    _keys(env, "Tab", "Tab")
    assert _focus(env) == "window:0:content:style:default"
    _keys(env, "ArrowRight")
    assert read_settings(w.machine(M))["dark_style"] is True
    _keys(env, "ArrowLeft")
    assert read_settings(w.machine(M))["dark_style"] is False
    # the top bar's quick settings change the same value, and the window shows it
    assert one(env, app("shell", target="shell:toggle:dark_style"))["success"]
    assert _el(env, "toggle:dark_style")["checked"] is True
    assert _el(env, "style:dark")["checked"] is True


def test_volume_by_click_drag_and_keys_and_mute():
    w, env, _wid = _open()
    _click(env, "panel:sound")
    scene = env.scene(W, H)
    track = next(
        n
        for n in scene["nodes"]
        if n["interaction"] == "window:0:content:volume" and n["semantic"] is None
    )
    b = bounds(scene, "window:0:content:volume")
    y = b["y"] + b["height"] // 2
    tx = track["bounds"]["x"] + track["transform"]["tx"]
    tw = track["bounds"]["width"]
    ok(env, ptr("click", tx + tw * 3 // 4, y, width=W, height=H))
    assert read_settings(w.machine(M))["volume"] == 75
    assert _focus(env) == "window:0:content:volume"
    # a drag follows the pointer
    ok(env, ptr("down", tx + tw // 2, y, width=W, height=H))
    ok(env, ptr("move", tx + tw // 5, y, width=W, height=H))
    assert read_settings(w.machine(M))["volume"] == 20
    ok(env, ptr("move", tx + tw + 40, y, width=W, height=H))
    ok(env, ptr("up", tx + tw + 40, y, width=W, height=H))
    assert read_settings(w.machine(M))["volume"] == 100
    _keys(env, "Home", "PageUp", "PageUp", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft")
    assert _file(w)["volume"] == 22 and _el(env, "volume")["value"] == "22"
    _keys(env, "End")
    assert read_settings(w.machine(M))["volume"] == 100
    _keys(env, "PageDown")
    assert read_settings(w.machine(M))["volume"] == 90
    # the shell's target focuses the slider without moving it
    assert _shell(env, "volume")["value"] == {"setting": "volume", "value": 90}
    _keys(env, "Tab", "Space")
    assert _file(w) == {"volume": 90, "muted": True}
    assert "90 % (muted)" in _texts(env)
    # the marks under the slider set their value
    assert _el(env, "volume:70")["label"] == "Volume 70 %"
    _click(env, "volume:70")
    assert read_settings(w.machine(M))["volume"] == 70 and _focus(env) == "window:0:content:volume"
    _keys(env, "ArrowRight")
    assert read_settings(w.machine(M))["volume"] == 71
    assert _shell(env, "volume:20")["value"] == {"setting": "volume", "value": 20}
    assert _shell(env, "volume:25")["error"]["reason"] == "unknown_shell_target"
    # quick settings' volume scale shows here
    assert one(env, app("shell", target="shell:volume:30"))["success"]
    assert _el(env, "volume")["value"] == "30"


def test_display_scale_radios():
    w, env, _wid = _open(argument="displays")
    assert _el(env, "scale:100")["checked"] is True
    _click(env, "scale:150")
    assert _file(w) == {"display_scale": 150}
    assert _el(env, "scale:150")["checked"] is True and _el(env, "scale:100")["checked"] is False
    assert _shell(env, "scale:200")["value"] == {"setting": "display_scale", "value": 200}
    _keys(env, "ArrowLeft")  # the focus is on 200
    assert read_settings(w.machine(M))["display_scale"] == 175
    _keys(env, "ArrowRight", "ArrowRight")
    assert read_settings(w.machine(M))["display_scale"] == 200
    assert _shell(env, "scale:130")["error"]["reason"] == "unknown_shell_target"


def test_users_are_listed_read_only():
    _w, env, _wid = _open(argument="users")
    texts = _texts(env)
    assert "ada" in texts and "Standard · uid 1000 · /home/ada" in texts
    assert "Administrator · uid 0 · /root" in texts
    assert any(t.startswith("This computer's accounts come with its definition") for t in texts)
    controls = [
        e for e in _elements(env) if e.startswith("window:0:content:") and "panel:" not in e
    ]
    assert controls == []


def test_a_damaged_settings_file_is_reported_and_the_next_change_rewrites_it():
    w, env, _wid = _open({FILE_REL: '{"volume": "loud", "wifi": false}'})
    banner = " ".join(t for t in _texts(env) if "damaged" in t or "rewrites" in t)
    assert 'is damaged (volume holds "loud")' in banner
    assert _el(env, "toggle:wifi")["checked"] is False  # what it can read, it shows
    _click(env, "panel:sound")
    assert _el(env, "volume")["value"] == "50"
    _keys(env, "Tab", "ArrowRight")
    assert _file(w) == {"volume": 51, "wifi": False}
    assert not [t for t in _texts(env) if "damaged" in t]


def test_a_home_that_refuses_the_write_shows_an_error():
    w, env, _wid = _open()
    out = one(
        env,
        act(
            "terminal.v1",
            "execute",
            command="mkdir -p ~/.config/cwgym && chmod 500 ~/.config/cwgym",
        ),
    )
    assert out["success"] and out["value"]["exit_code"] == 0, out
    _click(env, "toggle:wifi")
    assert any(t.startswith("Could not change Wi-Fi") for t in _texts(env))
    assert read_settings(w.machine(M))["wifi"] is True
    assert _el(env, "toggle:wifi")["checked"] is True
