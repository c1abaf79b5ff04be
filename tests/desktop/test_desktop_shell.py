"""The Ubuntu shell in the scene: dock, top bar, wallpaper, launcher, per-session desktops."""

from __future__ import annotations

from desktop_fixture import (
    M,
    act,
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
    type_,
    window,
    world,
)

from cwgym.desktop.themes.ubuntu import ASSETS, SYMBOLS


def test_launching_by_clicking_the_dock_icon_found_in_the_scene():
    env = desktop(world())
    scene = env.scene(1280, 800)
    assert scene["typeface"] == "ubuntu" and "windows" not in scene
    assert bounds(scene, "shell:launch:terminal") == {"x": 10, "y": 163, "width": 48, "height": 48}
    out = click(env, "shell:launch:notepad_test")
    assert out["success"] and out["value"] == {"window": 0}
    assert out["effect"]["changed"] == ["shell", "window.focused", "window.opened"]
    assert out["effect"]["windows_opened"] == [0] and out["effect"]["focused_window"] == 0
    scene = env.scene(1280, 800)
    win = window(scene, 0)
    assert win["app"] == "notepad_test" and win["focused"] and win["title"] == "Untitled"
    assert scene["focus"]["keyboard"] == {"route": "application", "window": 0, "target": "window:0:content:note", "text_entry": True}
    # the dock launcher of a running application shows it again instead of opening another
    ok(env, app("minimize", window=0))
    assert click(env, "shell:launch:notepad_test")["value"] == {"window": 0}
    assert len(env.scene(1280, 800)["windows"]) == 1


def test_dock_lists_installed_apps_and_marks_the_running_one():
    env = desktop(world())
    scene = env.scene(1280, 800)
    launchers = sorted({n["interaction"] for n in scene["nodes"] if (n["interaction"] or "").startswith("shell:launch:")})
    assert launchers == sorted(f"shell:launch:{a}" for a in ("terminal", "files", "editor", "browser", "calculator", "calendar", "notes", "notepad_test"))
    ok(env, app("launch", kind="notepad_test"))
    tile = next(n for n in nodes(env.scene(1280, 800), "shell:launch:notepad_test") if n["semantic"])
    assert tile["semantic"]["label"] == "Test Notepad" and tile["state"] == {"selected": True}


def test_dock_icons_are_vector_shapes_and_named_assets_are_documented():
    scene = desktop(world()).scene(1280, 800)
    for target in ("shell:launch:terminal", "shell:launch:files", "shell:launch:browser"):
        kinds = {n["primitive"]["kind"] for n in nodes(scene, target)}
        assert kinds == {"rounded_box", "path"}
    used_assets = {n["primitive"]["name"] for n in scene["nodes"] if n["primitive"]["kind"] == "asset_image"}
    used_symbols = {n["primitive"]["name"] for n in scene["nodes"] if n["primitive"]["kind"] == "symbol"}
    assert used_assets <= set(ASSETS) and used_symbols <= set(SYMBOLS)


def test_top_bar_shows_the_logical_clock():
    w = world()
    env = desktop(w, actions=["application.v1", "pointer.v1", "keyboard.v1", "terminal.v1"])
    texts = lambda: {n["primitive"]["text"] for n in env.scene(1280, 800)["nodes"] if n["primitive"]["kind"] == "ui_text_bold"}  # noqa: E731
    assert "Sep 17  09:00" in texts()
    ok(env, {"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "sleep 3600"}})
    assert "Sep 17  10:00" in texts()


def test_without_application_v1_the_scene_is_the_wallpaper_only():
    w = world()
    env = w.environment({"actor": "ada", "machines": [M], "actions": ["pointer.v1", "keyboard.v1"], "observations": ["semantic.v1"]})
    scene = env.scene(1280, 800)
    assert len(scene["nodes"]) == 1 and scene["nodes"][0]["primitive"] == {"kind": "asset_image", "name": "wallpaper", "tint": None}
    assert "windows" not in scene and scene["focus"]["keyboard"]["route"] == "none"
    out = one(env, ptr("click", 34, 187))
    assert out["success"] and out["value"] is None and out["effect"]["changed"] == []
    assert one(env, type_("hello"))["error"]["code"] == "invalid"
    assert one(env, key("Meta"))["effect"]["changed"] == []


def test_a_second_session_sees_its_own_windows_but_shares_the_files():
    w = world()
    first, second = desktop(w), desktop(w)
    ok(first, app("launch", kind="notepad_test"))
    ok(first, type_("shared"))
    ok(first, key("Ctrl+S"))
    assert "windows" not in second.scene(1280, 800)
    assert ok(second, app("launch", kind="notepad_test")) == {"window": 0}
    read = {"family": "filesystem.v1", "op": "read", "machine": M, "payload": {"path": "Documents/untitled.note"}}
    fs_env = w.environment({"actor": "ada", "machines": [M], "actions": ["filesystem.v1"], "observations": []})
    assert ok(fs_env, read)["content"] == "shared\n"
    assert [x["id"] for x in first.scene(1280, 800)["windows"]] == [0]


def test_launcher_search_and_enter_launch_the_first_match():
    env = desktop(world())
    out = one(env, key("Meta"))
    assert out["effect"]["changed"] == ["shell"]
    scene = env.scene(1280, 800)
    assert scene["focus"]["keyboard"] == {"route": "panel", "target": "shell:launcher:search", "text_entry": True}
    grid = [n["interaction"] for n in scene["nodes"] if (n["interaction"] or "").startswith("shell:grid:") and n["semantic"]]
    assert "shell:grid:notepad_test" in grid and "shell:grid:terminal" in grid
    ok(env, type_("test no"))
    scene = env.scene(1280, 800)
    assert scene["focus"]["value"] == "test no"
    grid = [n["interaction"] for n in scene["nodes"] if (n["interaction"] or "").startswith("shell:grid:") and n["semantic"]]
    assert grid == ["shell:grid:notepad_test"]
    out = one(env, key("Enter"))
    assert out["value"] is None and out["effect"]["windows_opened"] == [0]
    assert "shell:launcher:search" not in {n["interaction"] for n in env.scene(1280, 800)["nodes"]}


def test_launcher_closes_with_escape_meta_or_a_click_outside():
    env = desktop(world())
    for closer in (key("Escape"), key("Super"), ptr("click", 1200, 700)):
        ok(env, app("launcher"))
        assert nodes(env.scene(1280, 800), "shell:launcher:search")
        ok(env, closer)
        assert not nodes(env.scene(1280, 800), "shell:launcher:search")


def test_app_grid_entry_launches_from_a_click():
    env = desktop(world())
    click(env, "shell:launcher")
    assert click(env, "shell:grid:notepad_test")["value"] == {"window": 0}


def test_desktop_icons_select_on_click_and_open_on_double_click():
    env = desktop(world())
    target = "shell:icon:file:todo.note"
    out = click(env, target)
    assert out["effect"]["changed"] == ["shell"]
    cell = next(n for n in nodes(env.scene(1280, 800), target) if n["semantic"])
    assert cell["state"] == {"selected": True} and cell["semantic"]["label"] == "todo.note"
    out = click(env, target, op="double_click")
    assert out["value"] == {"window": 0} and "window.opened" in out["effect"]["changed"]
    win = window(env.scene(1280, 800), 0)
    assert win["app"] == "notepad_test" and win["document"] == "/home/ada/Desktop/todo.note"
    assert win["title"] == "todo.note"
    # a click on the empty desktop clears the selection
    click(env, target)
    ok(env, ptr("click", 1200, 760))
    assert next(n for n in nodes(env.scene(1280, 800), target) if n["semantic"])["state"] == {"selected": False}


def test_home_icon_opens_the_file_manager_on_the_home_folder():
    env = desktop(world())
    out = click(env, "shell:icon:home", op="double_click")
    assert out["success"] and "window.opened" in out["effect"]["changed"]
    win = window(env.scene(1280, 800), out["value"]["window"])
    assert win["app"] == "files" and win["document"] == "/home/ada"


def test_machine_without_a_theme_has_no_desktop_shell(office):
    from cwgym import World

    w = World(office)
    env = w.environment({"actor": "a", "machines": ["fileserver"], "actions": ["application.v1", "pointer.v1"], "observations": ["semantic.v1"]})
    assert one(env, act("application.v1", "launch", "fileserver", kind="terminal"))["error"]["reason"] == "no_desktop_shell"
    scene = env.scene(320, 200)
    assert len(scene["nodes"]) == 1 and "typeface" not in scene


def test_scaled_viewport_shows_the_whole_desktop_and_clicks_map_back():
    env = desktop(world())
    small = env.scene(84, 84)
    assert small["width"] == 84 and small["nodes"][0]["transform"]["a"] == 84 * 1024 // 1280
    at = point(small, "shell:launch:notepad_test")
    assert at is not None and 0 <= at[0] < 84 and 0 <= at[1] < 84
    assert ok(env, ptr("click", *at, width=84, height=84)) == {"window": 0}
    assert point(env.scene(1280, 800), "shell:launch:notepad_test") is not None
