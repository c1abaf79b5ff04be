"""The window manager through the pointer: drag, resize, controls, stacking, occlusion."""

from __future__ import annotations

from desktop_fixture import app, bounds, click, desktop, nodes, ok, one, point, ptr, window, world

from cwgym.scene import Scene


def _open(env, n: int = 1) -> list[int]:
    return [ok(env, app("launch", kind="notepad_test"))["window"] for _ in range(n)]


def test_dragging_the_title_bar_moves_the_window():
    env = desktop(world())
    _open(env)
    scene = env.scene(1280, 800)
    before = window(scene, 0)["bounds"]
    x, y = point(scene, "window:0:drag")
    assert one(env, ptr("down", x, y))["effect"]["changed"] == []
    assert ok(env, ptr("move", x + 50, y + 30)) == {"cursor": "grabbing"}
    out = one(env, ptr("up", x + 120, y + 70))
    assert out["effect"]["changed"] == ["window.moved"]
    after = window(env.scene(1280, 800), 0)["bounds"]
    assert after == {**before, "x": before["x"] + 120, "y": before["y"] + 70}


def test_capture_bypasses_hit_testing_and_keeps_the_title_bar_reachable():
    env = desktop(world())
    _open(env)
    x, y = point(env.scene(1280, 800), "window:0:drag")
    ok(env, ptr("down", x, y))
    ok(env, ptr("move", 5, 5))  # over the top bar and the dock: still the drag
    ok(env, ptr("up", 5, 5))
    b = window(env.scene(1280, 800), 0)["bounds"]
    assert b["y"] == 32  # never above the top bar
    assert b["x"] + b["width"] >= 68 + 64  # part of it stays on screen


def test_cancel_puts_a_dragged_window_back():
    env = desktop(world())
    _open(env)
    scene = env.scene(1280, 800)
    before = window(scene, 0)["bounds"]
    x, y = point(scene, "window:0:drag")
    env.step([ptr("down", x, y), ptr("move", x + 200, y + 100), ptr("cancel", x + 200, y + 100)])
    assert window(env.scene(1280, 800), 0)["bounds"] == before


def test_resizing_by_the_edges():
    env = desktop(world())
    _open(env)
    scene = env.scene(1280, 800)
    before = window(scene, 0)["bounds"]
    x, y = point(scene, "window:0:resize:se")
    assert ok(env, ptr("move", x, y)) == {"cursor": "nwse-resize"}
    env.step([ptr("down", x, y), ptr("move", x + 40, y + 30), ptr("up", x + 60, y + 50)])
    after = window(env.scene(1280, 800), 0)["bounds"]
    assert after == {**before, "width": before["width"] + 60, "height": before["height"] + 50}
    x, y = point(env.scene(1280, 800), "window:0:resize:w")
    assert ok(env, ptr("move", x, y)) == {"cursor": "ew-resize"}
    env.step([ptr("down", x, y), ptr("up", x + 5000, y)])  # the minimum size holds
    assert window(env.scene(1280, 800), 0)["bounds"]["width"] == 320


def test_double_click_on_the_title_bar_maximizes_and_restores():
    env = desktop(world())
    _open(env)
    scene = env.scene(1280, 800)
    before = window(scene, 0)["bounds"]
    x, y = point(scene, "window:0:drag")
    out = one(env, ptr("double_click", x, y))
    assert out["effect"]["changed"] == ["window.moved"]
    win = window(env.scene(1280, 800), 0)
    assert win["maximized"] and win["bounds"] == {"x": 68, "y": 32, "width": 1212, "height": 768}
    assert not nodes(env.scene(1280, 800), "window:0:resize:se")
    x, y = point(env.scene(1280, 800), "window:0:drag")
    ok(env, ptr("double_click", x, y))
    assert window(env.scene(1280, 800), 0)["bounds"] == before


def test_dragging_a_maximized_window_restores_its_size():
    env = desktop(world())
    _open(env)
    ok(env, app("maximize"))
    x, y = point(env.scene(1280, 800), "window:0:drag")
    env.step([ptr("down", x, y), ptr("move", x + 10, y + 100), ptr("up", x + 10, y + 100)])
    win = window(env.scene(1280, 800), 0)
    assert not win["maximized"] and win["bounds"]["width"] == 560 and win["bounds"]["y"] > 32


def test_window_buttons_minimize_maximize_close():
    env = desktop(world())
    _open(env, 2)
    out = click(env, "window:1:minimize")
    assert sorted(out["effect"]["changed"]) == ["window.focused", "window.moved"] and out["effect"]["focused_window"] == 0
    scene = env.scene(1280, 800)
    assert window(scene, 1)["minimized"] and window(scene, 1).get("exposed") is None
    assert not nodes(scene, "window:1:close")
    click(env, "window:0:maximize")
    assert window(env.scene(1280, 800), 0)["maximized"]
    assert bounds(env.scene(1280, 800), "window:0:maximize")  # now a restore button
    out = click(env, "window:0:close")
    assert out["effect"]["windows_closed"] == [0] and "window.closed" in out["effect"]["changed"]
    assert [w["id"] for w in env.scene(1280, 800)["windows"]] == [1]


def test_clicking_the_exposed_part_raises_an_occluded_window():
    env = desktop(world())
    _open(env, 2)
    scene = env.scene(1280, 800)
    low, high = window(scene, 0), window(scene, 1)
    assert low["occluded_by"] == [1] and not low["focused"] and high["focused"]
    ex = low["exposed"]
    assert ex is not None and ex["width"] * ex["height"] < low["bounds"]["width"] * low["bounds"]["height"]
    typed = Scene.from_plain(scene)
    # the low window's Save button is under the high window: no click reaches it
    save = next(n for n in nodes(scene, "window:0:content:save") if n["semantic"])
    assert typed.reachable_point(save["id"]) is None
    cx, cy = ex["x"] + ex["width"] // 2, ex["y"] + ex["height"] // 2
    out = one(env, ptr("click", cx, cy))
    assert out["effect"]["changed"] == ["window.focused"] and out["effect"]["focused_window"] == 0
    scene = env.scene(1280, 800)
    assert window(scene, 0)["focused"] and window(scene, 0)["z"] == 1 and window(scene, 1)["occluded_by"] == [0]
    assert point(scene, "window:0:content:save") is not None


def test_application_focus_raises_and_unminimizes():
    env = desktop(world())
    _open(env, 3)
    ok(env, app("minimize", window=0))
    out = one(env, app("focus", window=0))
    assert sorted(out["effect"]["changed"]) == ["window.focused", "window.moved"]
    scene = env.scene(1280, 800)
    assert [w["id"] for w in scene["windows"]] == [1, 2, 0] and window(scene, 0)["focused"]


def test_restore_leaves_maximized_and_minimized():
    env = desktop(world())
    _open(env)
    ok(env, app("maximize", window=0))
    ok(env, app("restore", window=0))
    assert not window(env.scene(1280, 800), 0)["maximized"]
    ok(env, app("minimize", window=0))
    ok(env, app("restore", window=0))
    win = window(env.scene(1280, 800), 0)
    assert not win["minimized"] and win["focused"]


def test_new_windows_cascade_inside_the_work_area():
    env = desktop(world())
    _open(env, 3)
    bs = [w["bounds"] for w in env.scene(1280, 800)["windows"]]
    assert bs[0]["x"] < bs[1]["x"] < bs[2]["x"] and bs[0]["y"] < bs[1]["y"]
    assert all(b["x"] >= 68 and b["y"] >= 32 and b["x"] + b["width"] <= 1280 and b["y"] + b["height"] <= 800 for b in bs)
