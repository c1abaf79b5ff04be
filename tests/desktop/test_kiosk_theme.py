"""The kiosk theme: a 320x420 screen that is nothing but the topmost window's content.

One machine on the ``kiosk`` theme, with the browser (opened by autostart at the tasks
service's page) and the test notepad installed. Windows fill the screen undecorated; the
shell paints no control; the window manager refuses to minimize, restore or show a panel
and paints nothing to move or resize with; no key is the shell's."""

from __future__ import annotations

import pytest
from desktop_fixture import ok, one

from cwgym import World
from cwgym.desktop.themes import theme
from cwgym.desktop.themes.kiosk import SCREEN, KioskTheme
from cwgym.desktop.themes.ubuntu import UbuntuTheme
from cwgym.scene import Scene

M = "kiosk"
FULL = {"x": 0, "y": 0, "width": 320, "height": 420}
UNSUPPORTED = {"code": "invalid", "reason": "unsupported_operation"}
NO_CONTROL = {"code": "invalid", "reason": "unknown_shell_target"}
AUTOSTART = ".config/autostart"


def definition(**autostart: str) -> dict:
    """A one-machine world on the kiosk theme; ``autostart`` adds files (name -> extra lines)
    to the one that opens the browser at ``http://tasks.web/``."""
    files = {f"{AUTOSTART}/tasks.desktop": "[Desktop Entry]\nType=Application\nExec=browser http://tasks.web/\n"}
    for name, lines in autostart.items():
        files[f"{AUTOSTART}/{name}.desktop"] = f"[Desktop Entry]\nExec=notepad_test\n{lines}\n"
    return {
        "schema_version": 1,
        "id": "kiosk-test",
        "internet": False,
        "profiles": [{"id": "ubuntu", "name": "Ubuntu 24.04 LTS", "family": "linux", "home": "/home/{user}", "case_sensitive": True, "shell": "posix"}],
        "computers": [{
            "id": M,
            "profile": "ubuntu",
            "address": "10.0.0.10",
            "user": "agent",
            "presentation": "desktop",
            "initial_files": files,
            "installed_apps": ["browser", "notepad_test"],
            "packages": ["coreutils"],
        }],
        "network": {
            "nodes": [{"id": M, "address": "10.0.0.10", "zone": "local"}],
            "links": [],
            "dns": [{"name": "tasks.web", "address": "10.0.0.10", "ttl_us": 60000000, "resolver": M}],
            "routes": [],
            "implicit_lan": False,
            "gateway": {"allow_local": True, "allow_internet": False, "allow_host": False},
        },
        "services": [{"id": "tasks", "kind": "tasks", "node": M, "domains": ["tasks.web"], "port": 80, "tls": False, "initial_state": {}}],
        "metadata": {"desktop_themes": {M: "kiosk"}},
    }


def session(**autostart: str):
    world = World(definition(**autostart), 5)
    env = world.environment({
        "actor": "agent",
        "machines": [M],
        "actions": ["application.v1", "browser.v1", "keyboard.v1", "pointer.v1"],
        "observations": ["semantic.v1", "pixels.v1"],
    })
    return world, env


def act(family: str, op: str, **payload) -> dict:
    return {"family": family, "op": op, "machine": M, "payload": payload}


def app(op: str, **payload) -> dict:
    return act("application.v1", op, **payload)


def refused(env, action: dict, error: dict) -> None:
    outcome = one(env, action)
    assert not outcome["success"], outcome
    assert {k: outcome["error"][k] for k in error} == error


def layout(world: World) -> list[tuple]:
    return [(w["id"], tuple(w["bounds"]), w["minimized"], w["maximized"], w["focused"]) for w in world.windows(M)]


def test_the_kiosk_theme_is_registered_with_no_shell_keys():
    kiosk = theme("kiosk")
    assert isinstance(kiosk, KioskTheme) and kiosk.kiosk and kiosk.screen == SCREEN == (320, 420)
    assert kiosk.shell_keys == {} and kiosk.window_keys == {} and kiosk.covers() == []
    assert not UbuntuTheme.kiosk  # the default: a desktop, not a kiosk


def test_autostart_opens_the_browser_at_its_url_over_the_whole_screen():
    world, env = session()
    [win] = world.windows(M)
    assert (win["app"], win["document"]) == ("browser", "http://tasks.web/")
    assert win["bounds"] == [0, 0, 320, 420] and win["maximized"] and win["focused"]
    [shown] = env.scene(320, 420)["windows"]
    assert shown["bounds"] == shown["content"] == shown["exposed"] == FULL


def test_a_launched_window_fills_the_screen_and_the_shell_paints_no_control():
    _world, env = session()
    wid = ok(env, app("launch", kind="notepad_test"))["window"]
    scene = env.scene(320, 420)
    top = scene["windows"][-1]
    assert top["id"] == wid and top["bounds"] == top["content"] == FULL and top["maximized"]
    targets = {n["interaction"] for n in scene["nodes"] if n["interaction"] is not None}
    # the applications' own controls only (the browser's, covered, and the notepad's)
    assert {t.split(":")[2] for t in targets} == {"content"} and any(t.startswith(f"window:{wid}:") for t in targets)
    shell = [n["primitive"] for n in scene["nodes"] if n.get("window") is None]
    assert shell == [{"kind": "box", "color": [0, 0, 0, 255], "stroke": None, "stroke_width": 0}]  # the plain screen
    semantic = env.observe()["channels"]["semantic.v1"][M]
    assert semantic["screen"] == {"width": 320, "height": 420}
    assert semantic["elements"] and all(e.get("window") is not None for e in semantic["elements"])
    assert all(t.get("window") is not None for t in semantic["text"])  # no clock, no labels


def test_the_topmost_window_is_what_shows_and_focus_raises_another():
    _world, env = session()
    wid = ok(env, app("launch", kind="notepad_test"))["window"]
    typed = Scene.from_plain(env.scene(320, 420))
    assert {typed.hit_stack(x, y)[0].window for x, y in ((1, 1), (80, 105), (158, 208))} == {wid}
    ok(env, app("focus", window=0))
    typed = Scene.from_plain(env.scene(320, 420))
    assert typed.hit_stack(80, 105)[0].window == 0
    assert [w["id"] for w in env.scene(320, 420)["windows"]] == [wid, 0]


def test_the_window_manager_refuses_to_uncover_the_screen_and_maximize_changes_nothing():
    world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    before = layout(world)
    for op, payload in (("minimize", {}), ("restore", {}), ("minimize", {"window": 0}), ("home", {}), ("launcher", {}), ("switcher", {})):
        refused(env, app(op, **payload), UNSUPPORTED)
    assert ok(env, app("maximize", window=1)) is None
    assert layout(world) == before
    refused(env, app("minimize", window=99), {"code": "invalid"})  # no such window: as anywhere


@pytest.mark.parametrize("target", [
    "window:1:drag", "window:1:resize:se", "window:1:close", "window:1:minimize", "window:1:maximize", "window:1:restore",
    "shell:launcher", "shell:activities", "shell:launch:browser", "shell:switcher", "shell:home", "shell:icon:home",
])
def test_no_frame_or_shell_control_answers(target):
    world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    before = layout(world)
    refused(env, app("shell", target=target), NO_CONTROL)
    assert layout(world) == before


def test_focus_and_close_still_work():
    world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    ok(env, app("shell", target="window:0:focus"))
    assert [w["id"] for w in world.windows(M) if w["focused"]] == [0]
    ok(env, app("close", window=1))
    assert [w["id"] for w in world.windows(M)] == [0]


def test_a_drag_moves_nothing_and_a_right_click_opens_no_menu():
    world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    before = layout(world)
    env.step([
        act("pointer.v1", "down", x=80, y=2, width=320, height=420),
        act("pointer.v1", "move", x=120, y=60),
        act("pointer.v1", "up", x=150, y=100),
        act("pointer.v1", "down", x=159, y=209),
        act("pointer.v1", "up", x=100, y=150),
        act("pointer.v1", "click", x=80, y=105, button=2),
    ])
    assert layout(world) == before
    assert env.observe()["channels"]["semantic.v1"][M]["focus"]["route"] != "panel"


@pytest.mark.parametrize("name", ["Alt+F4", "Alt+Tab", "Meta", "Meta+Down", "Meta+H", "Ctrl+Escape"])
def test_no_key_is_the_shells(name):
    world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    before = layout(world)
    env.step([act("keyboard.v1", "key", key=name)])
    assert layout(world) == before
    assert env.observe()["channels"]["semantic.v1"][M]["focus"]["route"] != "panel"


def test_autostart_geometry_does_not_apply_and_the_journal_says_so():
    world, _env = session(**{"z-note": "X-Cwgym-Bounds=10,10,80,80\nX-Cwgym-Minimized=true"})
    assert [(w["app"], w["bounds"], w["minimized"], w["maximized"]) for w in world.windows(M)] == [
        ("browser", [0, 0, 320, 420], False, True),
        ("notepad_test", [0, 0, 320, 420], False, True),
    ]
    records = [e["data"] for e in world.trajectory() if e["kind"] == "application.autostart"]
    assert records[0] == {"file": "tasks.desktop", "window": 0, "once": False}
    assert records[1]["file"] == "z-note.desktop" and "kiosk" in records[1]["error"]


def test_pixels_render_at_the_native_320_by_420():
    _world, env = session()
    ok(env, app("launch", kind="notepad_test"))
    scene = env.scene(320, 420)
    assert all(n["transform"]["a"] == n["transform"]["d"] == 1024 for n in scene["nodes"])  # no scaling
    frame = env.render(320, 420)
    assert (frame["width"], frame["height"], len(frame["rgba"])) == (320, 420, 320 * 420 * 4)
    black = bytes((0, 0, 0, 255))
    pixels = [frame["rgba"][i : i + 4] for i in range(0, len(frame["rgba"]), 4)]
    assert black not in (pixels[0], pixels[-1])  # the window, not the empty kiosk, at the corners
    ok(env, app("close", window=1))
    ok(env, app("close", window=0))
    empty = env.render(320, 420)["rgba"]
    assert empty == black * (320 * 420)  # no window: the plain screen, nothing else


def test_the_same_actions_give_the_same_state_and_screen():
    def run():
        world, env = session()
        ok(env, app("launch", kind="notepad_test"))
        env.step([act("pointer.v1", "click", x=40, y=20, width=320, height=420), act("keyboard.v1", "type", text="hi")])
        return world.state_hash(), env.scene(320, 420)["digest"], env.render(320, 420)["rgba"]

    assert run() == run()
