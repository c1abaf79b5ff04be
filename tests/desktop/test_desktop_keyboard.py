"""keyboard.v1 routing: shell shortcuts, open panel, focused application, window manager."""

from __future__ import annotations

from desktop_fixture import M, app, click, desktop, key, ok, one, type_, window, world


def _focus(env) -> dict:
    return env.scene(1280, 800)["focus"]


def test_typing_goes_to_the_focused_field_and_keys_edit_it():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    out = one(env, type_("hello"))
    assert out["effect"]["changed"] == ["content", "window.title"]
    env.step([key("Home"), key("Delete"), key("H"), key("End"), key("Backspace"), key("Space"), type_("world")])
    f = _focus(env)
    assert f["value"] == "Hell world" and f["caret"]["offset"] == len("Hell world")
    assert f["keyboard"] == {"route": "application", "window": 0, "target": "window:0:content:note", "text_entry": True}
    assert env.scene(1280, 800)["buffers"] == [
        {"handle": "window:0:editor", "window": 0, "kind": "editor", "lines": ["Hell world"], "first_visible": 0, "visible": 1, "truncated": False}
    ]


def test_tab_moves_the_focus_inside_the_window():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    out = one(env, key("Tab"))
    assert out["effect"]["changed"] == ["focus"]
    f = _focus(env)
    assert f["interaction"] == "window:0:content:save" and f["keyboard"]["text_entry"] is False
    assert one(env, type_("x"))["error"]["code"] == "invalid"  # a button takes no text
    ok(env, key("Shift+Tab"))
    assert _focus(env)["interaction"] == "window:0:content:note"


def test_typing_with_nothing_focused_is_invalid():
    env = desktop(world())
    out = one(env, type_("hello"))
    assert out["error"] == {"code": "invalid", "message": "invalid action"} and "effect" in out
    assert _focus(env)["keyboard"]["route"] == "none"
    out = one(env, key("Enter"))  # a real key pressed into nothing: accepted, no change
    assert out["success"] and out["effect"]["changed"] == []


def test_an_open_panel_takes_the_keyboard_before_the_application():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    ok(env, key("ctrl+escape"))
    assert _focus(env)["keyboard"]["route"] == "panel"
    ok(env, type_("calc"))
    ok(env, key("Backspace"))
    assert _focus(env)["value"] == "cal"
    ok(env, key("Escape"))
    assert _focus(env)["keyboard"]["route"] == "application" and _focus(env)["value"] == ""


def test_ctrl_s_saves_through_the_users_files_and_the_clipboard_is_the_machines():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="notepad_test", argument="/home/ada/Desktop/todo.note"))
    assert _focus(env)["value"] == "buy milk"
    env.step([key("End"), type_(" and eggs")])
    assert window(env.scene(1280, 800), 0)["title"] == "*todo.note"
    out = one(env, key("Ctrl+S"))
    assert out["effect"]["changed"] == ["content", "window.title"]
    fs_env = w.environment({"actor": "ada", "machines": [M], "actions": ["filesystem.v1"], "observations": []})
    read = {"family": "filesystem.v1", "op": "read", "machine": M, "payload": {"path": "Desktop/todo.note"}}
    assert ok(fs_env, read)["content"] == "buy milk and eggs\n"
    out = one(env, key("Ctrl+C"))
    assert out["effect"]["changed"] == ["clipboard"]
    assert w.machine(M).clipboard == "buy milk and eggs"
    ok(env, app("launch", kind="notepad_test"))
    ok(env, key("Ctrl+V"))
    assert _focus(env)["value"] == "buy milk and eggs"


def test_saving_where_the_user_may_not_write_reports_it_in_the_window():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="notepad_test", argument="/etc/motd.note"))
    ok(env, type_("x"))
    ok(env, key("Enter"))
    texts = [n["primitive"].get("text") for n in env.scene(1280, 800)["nodes"]]
    assert "Could not save" in texts
    assert not w.machine(M).fs.exists("/etc/motd.note")


def test_meta_opens_the_launcher_and_alt_tab_the_switcher_even_over_an_application():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    ok(env, app("launch", kind="notepad_test"))
    ok(env, key("Meta"))
    assert _focus(env)["keyboard"]["target"] == "shell:launcher:search"
    ok(env, key("Meta"))
    ok(env, key("Alt+Tab"))
    assert _focus(env)["keyboard"]["target"] == "shell:switcher"
    ok(env, key("Alt"))  # letting go of Alt picks the selected window
    assert _focus(env)["window"] == 0


def test_keys_reach_a_window_clicked_into_focus():
    env = desktop(world())
    for _ in range(2):
        ok(env, app("launch", kind="notepad_test"))
    click(env, "window:0:drag")
    ok(env, type_("first"))
    scene = env.scene(1280, 800)
    assert scene["focus"]["window"] == 0 and scene["focus"]["value"] == "first"
