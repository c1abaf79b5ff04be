"""pointer.v1 behaviours: press identity, capture, context button, cursors, wheel, viewports."""

from __future__ import annotations

import pytest
from desktop_fixture import (
    M,
    app,
    bounds,
    click,
    desktop,
    key,
    nodes,
    ok,
    one,
    point,
    ptr,
    window,
    world,
)


def _notepad(env) -> int:
    return ok(env, app("launch", kind="notepad_test"))["window"]


def _state(scene: dict, interaction: str) -> dict | None:
    return next(n for n in nodes(scene, interaction) if n["semantic"]).get("state")


def test_up_fires_only_inside_the_pressed_control():
    env = desktop(world())
    _notepad(env)
    scene = env.scene(1280, 800)
    x, y = point(scene, "window:0:content:item:0")
    ok(env, ptr("down", x, y))
    out = one(env, ptr("up", x, y + 200))  # dragged out: no click
    assert out["success"] and out["effect"]["changed"] == []
    assert _state(env.scene(1280, 800), "window:0:content:item:0") == {"selected": False}
    ok(env, ptr("down", x, y))
    out = one(env, ptr("up", x + 3, y + 2))  # released inside: a click
    assert out["effect"]["changed"] == ["content"]
    assert _state(env.scene(1280, 800), "window:0:content:item:0") == {"selected": True}


def test_up_without_a_press_does_nothing():
    env = desktop(world())
    _notepad(env)
    x, y = point(env.scene(1280, 800), "window:0:content:save")
    out = one(env, ptr("up", x, y))
    assert out["success"] and out["value"] is None and out["effect"]["changed"] == []


def test_application_drag_surface_captures_the_pointer():
    env = desktop(world())
    _notepad(env)
    scene = env.scene(1280, 800)
    track = bounds(scene, "window:0:content:slider")
    x, y = track["x"] + 8, track["y"] + 12
    assert ok(env, ptr("move", x, y)) == {"cursor": "grab"}
    ok(env, ptr("down", x, y))
    ok(env, ptr("move", 5, 5))  # far outside the window: the slider still follows
    ok(env, ptr("up", 5, 5))
    slider = next(n for n in nodes(env.scene(1280, 800), "window:0:content:slider") if n["semantic"])
    assert slider["semantic"]["value"] == "0"
    ok(env, ptr("click", track["x"] + track["width"] - 4, y))
    slider = next(n for n in nodes(env.scene(1280, 800), "window:0:content:slider") if n["semantic"])
    assert slider["semantic"]["value"] == "100"


def test_button_two_opens_the_context_panel_and_its_items_act():
    w = world()
    env = desktop(w)
    out = one(env, ptr("down", 900, 600, button=2))
    assert out["effect"]["changed"] == ["shell"]
    scene = env.scene(1280, 800)
    assert scene["focus"]["keyboard"]["route"] == "panel"
    items = [n["semantic"]["label"] for n in scene["nodes"] if (n["interaction"] or "").startswith("shell:context:") and n["semantic"]]
    assert items == ["New Folder", "Show Desktop in Files", "Open in Terminal"]
    ok(env, ptr("up", 900, 600, button=2))
    out = click(env, "shell:context:new-folder")
    assert out["success"]
    listing = {"family": "filesystem.v1", "op": "list", "machine": M, "payload": {"path": "Desktop"}}
    fs_env = w.environment({"actor": "ada", "machines": [M], "actions": ["filesystem.v1"], "observations": []})
    assert "New Folder" in ok(fs_env, listing)
    scene = env.scene(1280, 800)
    assert not any((n["interaction"] or "").startswith("shell:context:") for n in scene["nodes"])
    assert _state(scene, "shell:icon:file:New Folder") == {"selected": True}


def test_button_two_on_a_window_offers_window_operations():
    env = desktop(world())
    _notepad(env)
    x, y = point(env.scene(1280, 800), "window:0:drag")
    ok(env, ptr("click", x, y, button=2))
    scene = env.scene(1280, 800)
    labels = [n["semantic"]["label"] for n in scene["nodes"] if (n["interaction"] or "").startswith("shell:context:") and n["semantic"]]
    assert labels == ["Minimize", "Maximize", "Close"]
    out = click(env, "shell:context:close")
    assert out["effect"]["windows_closed"] == [0]


def test_a_click_outside_an_open_panel_only_closes_it():
    env = desktop(world())
    _notepad(env)
    ok(env, ptr("click", 1200, 700, button=2))
    save = point(env.scene(1280, 800), "window:0:content:save")
    out = one(env, ptr("click", *save))
    assert out["effect"]["changed"] == ["shell"]  # the panel closed, Save was not pressed
    assert one(env, ptr("click", *save))["effect"]["changed"] == ["content", "document", "focus", "window.title"]


@pytest.mark.parametrize(
    ("target", "cursor"),
    [
        ("window:0:content:note", "text"),
        ("window:0:content:save", "pointer"),
        ("window:0:drag", "grab"),
        ("window:0:resize:n", "ns-resize"),
        ("window:0:resize:ne", "nesw-resize"),
        ("shell:launch:terminal", "pointer"),
    ],
)
def test_cursor_hints(target, cursor):
    env = desktop(world())
    _notepad(env)
    x, y = point(env.scene(1280, 800), target)
    assert ok(env, ptr("move", x, y)) == {"cursor": cursor}


def test_cursor_over_the_wallpaper_is_the_default():
    env = desktop(world())
    assert ok(env, ptr("move", 1000, 700)) == {"cursor": "default"}


def test_wheel_scrolls_the_innermost_pane_that_can_move():
    env = desktop(world())
    _notepad(env)
    scene = env.scene(1280, 800)
    [area] = scene["scrolls"]
    assert area["target"] == "window:0:content:pane:items" and area["offset"] == 0 and area["extent"] == 30 * 28
    x, y = area["bounds"]["x"] + 20, area["bounds"]["y"] + 20
    assert ok(env, ptr("wheel", x, y, delta_y=-100)) == {"handled": False}  # already at the top
    out = one(env, ptr("wheel", x, y, delta_y=120))
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    assert env.scene(1280, 800)["scrolls"][0]["offset"] == 120
    ok(env, ptr("wheel", x, y, delta_y=100000))
    area = env.scene(1280, 800)["scrolls"][0]
    assert area["offset"] == area["extent"] - area["bounds"]["height"]
    assert ok(env, ptr("wheel", x, y, delta_y=50)) == {"handled": False}  # at the end
    assert ok(env, ptr("wheel", x, y, delta_y=50, modifiers=["Shift"])) == {"handled": False}  # sideways: no pane
    assert ok(env, ptr("wheel", 1200, 700, delta_y=50)) == {"handled": False}  # over the desktop
    # a scrolled-in row is clickable where it is painted now
    assert point(env.scene(1280, 800), "window:0:content:item:29") is not None
    assert point(env.scene(1280, 800), "window:0:content:item:0") is None


def test_coordinates_clamp_and_the_viewport_defaults_to_the_last_one_named():
    env = desktop(world())
    assert ok(env, ptr("move", 10**9, -(10**9))) == {"cursor": "default"}
    # at first the native screen: the terminal launcher is at (34, 187)
    assert ok(env, ptr("move", 34, 187)) == {"cursor": "pointer"}
    # name a half-size viewport once; later actions without width/height use it
    ok(env, ptr("move", 0, 0, width=640, height=400))
    assert ok(env, ptr("move", 17, 93)) == {"cursor": "pointer"}
    assert ok(env, ptr("click", 17, 238)) == {"window": 0}  # the notepad launcher, halved
    # a viewport past the caps (8192 a side, 4096x4096 pixels) is invalid and changes nothing
    assert one(env, ptr("move", 34, 187, width=99999, height=800))["error"]["code"] == "invalid"
    assert one(env, ptr("move", 34, 187, width=8192, height=8192))["error"]["code"] == "invalid"
    assert ok(env, ptr("move", 17, 93)) == {"cursor": "pointer"}  # still the 640x400 one


def test_double_click_in_an_application():
    env = desktop(world())
    _notepad(env)
    x, y = point(env.scene(1280, 800), "window:0:content:item:2")
    ok(env, ptr("double_click", x, y))
    texts = [n["primitive"].get("text") for n in env.scene(1280, 800)["nodes"]]
    assert "Opened Item 3" in texts


def test_pointer_payload_errors():
    env = desktop(world())
    assert one(env, {"family": "pointer.v1", "op": "click", "machine": M, "payload": {"x": 1}})["error"]["code"] == "invalid"
    assert one(env, ptr("click", "a", 1))["error"]["code"] == "invalid"
    assert one(env, ptr("click", 1, 1, modifiers=["Hyper"]))["error"]["code"] == "invalid"
    assert one(env, ptr("teleport", 1, 1))["error"]["reason"] == "unsupported_operation"


def test_alt_tab_switcher_and_keyboard_window_shortcuts():
    env = desktop(world())
    for _ in range(3):
        _notepad(env)
    out = one(env, key("Alt+Tab"))
    assert out["effect"]["changed"] == ["shell"]
    scene = env.scene(1280, 800)
    assert _state(scene, "shell:switcher:1") == {"selected": True}
    ok(env, key("Alt+Tab"))
    assert _state(env.scene(1280, 800), "shell:switcher:0") == {"selected": True}
    out = one(env, key("Enter"))
    assert out["effect"]["focused_window"] == 0 and "window.focused" in out["effect"]["changed"]
    ok(env, app("switcher"))
    assert click(env, "shell:switcher:2")["effect"]["focused_window"] == 2
    ok(env, key("Meta+Up"))
    assert window(env.scene(1280, 800), 2)["maximized"]
    out = one(env, key("Alt+F4"))
    assert out["effect"]["windows_closed"] == [2]
