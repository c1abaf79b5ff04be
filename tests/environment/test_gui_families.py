"""application.v1, keyboard.v1 and pointer.v1 at the actor boundary; semantic.v1 and pixels.v1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "desktop"))

from desktop_fixture import M, act, app, definition, desktop, key, ok, one, point, ptr, type_, world

from cwgym import World
from cwgym.protocol import errors
from cwgym.protocol.catalogue import CATALOGUE


def test_list_reports_installed_applications_with_their_labels_and_gates():
    d = definition()
    d["computers"][0]["installed_apps"].append("maps")  # catalogued, never implemented here
    env = desktop(World(d, 7))
    listed = {e["id"]: e for e in ok(env, app("list"))}
    assert list(listed)[:4] == ["files", "browser", "terminal", "editor"]
    assert set(listed) == {"files", "browser", "terminal", "editor", "calendar", "notes", "calculator", "maps", "notepad_test"}
    assert listed["browser"] == {
        "id": "browser", "label": "Firefox", "kind": "builtin", "installed": True,
        "launchable": False, "blocked_by": "browser_family_required",
    }
    assert listed["notepad_test"] == {
        "id": "notepad_test", "label": "Test Notepad", "kind": "native", "installed": True,
        "launchable": True, "blocked_by": None,
    }
    # installed but not implemented by this engine: not launchable, and it says so
    assert listed["maps"]["launchable"] is False and listed["maps"]["blocked_by"] == "application_not_implemented"
    assert listed["calendar"]["launchable"] is True and listed["calendar"]["blocked_by"] is None
    # ... nor offered: no dock launcher, no app grid entry, and its shell target is unknown
    interactions = {n.get("interaction") for n in env.scene(1280, 800)["nodes"]}
    assert "shell:launch:calendar" in interactions and "shell:launch:maps" not in interactions
    assert one(env, app("shell", target="shell:launch:maps"))["error"]["reason"] == "unknown_shell_target"
    assert one(env, app("launch", kind="maps"))["error"]["code"] == "action_failed"
    everything = ok(env, app("list", installed=False))
    ids = [e["id"] for e in everything]
    assert ids[: len(CATALOGUE)] == list(CATALOGUE) and ids[-1] == "notepad_test" and len(ids) == 34
    mail = next(e for e in everything if e["id"] == "mail")
    assert mail == {"id": "mail", "label": "Thunderbird Mail", "kind": "native", "installed": False,
                    "launchable": False, "blocked_by": "application_not_installed"}
    assert one(env, app("list", installed="no"))["error"]["code"] == "invalid"


@pytest.mark.parametrize("world_id", ["ubuntu-workstation", "ubuntu-apps", "small-office", "company"])
def test_the_shell_command_apps_agrees_with_application_list(world_id):
    from cwgym import EnvironmentConfig
    from cwgym.resources import load_world

    w = World(load_world(world_id), 1)
    for machine_id, theme in sorted(w.definition()["metadata"].get("desktop_themes", {}).items()):
        if theme != "ubuntu":
            continue
        env = w.environment(EnvironmentConfig.desktop(w.machine(machine_id).user, [machine_id]))
        out = env.step([{"family": "application.v1", "op": "list", "machine": machine_id, "payload": {}}])
        listed = [e["id"] for e in out["outcomes"][0]["value"] if e["kind"] != "web"]
        assert w.machine(machine_id).execute("apps").stdout.split() == listed, machine_id


def test_launch_returns_increasing_window_ids_and_its_refusals():
    env = desktop(world())
    assert ok(env, app("launch", kind="notepad_test")) == {"window": 0}
    assert ok(env, app("launch", kind="notepad_test")) == {"window": 1}
    cases = {
        "mail": ("not_found", errors.APPLICATION_NOT_INSTALLED),
        "nonexistent": ("not_found", errors.APPLICATION_NOT_INSTALLED),
        "browser": ("denied", errors.BROWSER_FAMILY_REQUIRED),
    }
    for kind, (code, reason) in cases.items():
        out = one(env, app("launch", kind=kind))
        assert out["error"]["code"] == code and out["error"]["reason"] == reason, kind
        assert out["effect"]["changed"] == []
    # installed, but this engine has no implementation of it
    d = definition()
    d["computers"][0]["installed_apps"].append("maps")
    assert one(desktop(World(d, 7)), app("launch", kind="maps"))["error"] == {"code": "action_failed", "message": "action failed"}
    assert one(env, app("launch"))["error"]["code"] == "invalid"
    assert one(env, app("launch", kind="notepad_test", argument=5))["error"]["code"] == "invalid"
    # the aliases name the built-in editor and file manager
    assert ok(env, app("launch", kind="text_editor")) == {"window": 2}
    assert ok(env, app("launch", kind="file_manager")) == {"window": 3}
    assert [w["app"] for w in env.scene(1280, 800)["windows"]][-2:] == ["editor", "files"]


def test_focus_close_minimize_maximize_home():
    env = desktop(world())
    for _ in range(2):
        ok(env, app("launch", kind="notepad_test"))
    out = one(env, app("focus", window=0))
    assert out["value"] is None and out["effect"]["changed"] == ["window.focused"] and out["effect"]["focused_window"] == 0
    assert one(env, app("focus", window=0))["effect"]["changed"] == []
    out = one(env, app("maximize"))
    assert out["effect"]["changed"] == ["window.moved"]
    out = one(env, app("minimize"))
    assert sorted(out["effect"]["changed"]) == ["window.focused", "window.moved"] and out["effect"]["focused_window"] == 1
    out = one(env, app("close", window=1))
    assert out["effect"]["windows_closed"] == [1] and "focused_window" not in out["effect"]
    for bad in ({"window": "0"}, {"window": 9}, {}, {"window": True}):
        assert one(env, app("focus", **bad))["error"] == {"code": "invalid", "message": "invalid action"}
    assert one(env, app("minimize"))["error"]["code"] == "invalid"  # nothing focused
    ok(env, app("focus", window=0))
    out = one(env, app("home"))
    assert out["effect"]["changed"] == ["window.focused", "window.moved"]
    scene = env.scene(1280, 800)
    assert scene["windows"][0]["minimized"] and scene["focus"]["keyboard"]["route"] == "none"


def test_shell_targets_reach_the_same_handlers_as_clicks():
    w = world()
    env = desktop(w)
    assert ok(env, app("shell", target="shell:launch:notepad_test")) == {"window": 0}
    ok(env, app("shell", target="window:0:content:item:3"))
    sel = [n for n in env.scene(1280, 800)["nodes"] if n["interaction"] == "window:0:content:item:3" and n["semantic"]]
    assert sel[0]["state"] == {"selected": True}
    ok(env, app("launch", kind="notepad_test"))
    # a window target focuses its window first
    out = one(env, app("shell", target="window:0:content:save"))
    assert out["effect"]["focused_window"] == 0 and "window.focused" in out["effect"]["changed"]
    assert ok(env, app("shell", target="window:1:maximize")) is None
    assert env.scene(1280, 800)["windows"][-1]["maximized"]
    ok(env, app("shell", target="shell:launcher"))
    assert ok(env, app("shell", target="shell:grid:notepad_test")) == {"window": 1}
    ok(env, app("shell", target="shell:icon:file:todo.note"))
    out = one(env, app("shell", target="window:1:close"))
    assert out["effect"]["windows_closed"] == [1]
    for target in ("shell:bogus", "foo", "window:9:close", "window:0:content:nothing", "window:0:fly",
                   "shell:grid:notepad_test", "shell:context:close", "shell:launch:mail", "shell:icon:file:nope"):
        out = one(env, app("shell", target=target))
        assert out["error"]["reason"] == errors.UNKNOWN_SHELL_TARGET, target
    assert one(env, app("shell", target=3))["error"]["code"] == "invalid"


def test_launcher_and_switcher_operations():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    ok(env, app("launch", kind="notepad_test"))
    out = one(env, app("launcher"))
    assert out["effect"]["changed"] == ["shell"]
    assert one(env, app("launcher"))["effect"]["changed"] == []  # already open
    ok(env, app("switcher"))
    scene = env.scene(1280, 800)
    assert scene["focus"]["keyboard"]["target"] == "shell:switcher"
    assert ok(env, app("shell", target="shell:switcher:0")) is None
    assert env.scene(1280, 800)["focus"]["window"] == 0


def test_unsupported_operations():
    env = desktop(world())
    for family in ("application.v1", "keyboard.v1", "pointer.v1"):
        out = one(env, act(family, "teleport"))
        assert out["error"]["reason"] == errors.UNSUPPORTED_OPERATION and out["effect"]["changed"] == []


def test_no_desktop_shell_on_a_machine_without_a_theme(office):
    w = World(office)
    env = w.environment({"actor": "a", "machines": ["legal-laptop", "fileserver"],
                         "actions": ["application.v1", "keyboard.v1"], "observations": []})
    for machine in ("legal-laptop", "fileserver"):  # a macOS theme this engine lacks; a server
        for op, payload in (("launch", {"kind": "terminal"}), ("home", {}), ("launcher", {}),
                            ("shell", {"target": "shell:launcher"}), ("focus", {"window": 0})):
            out = one(env, act("application.v1", op, machine, **payload))
            assert out["error"]["reason"] == errors.NO_DESKTOP_SHELL, (machine, op)
        entries = ok(env, act("application.v1", "list", machine))
        assert all(e["blocked_by"] == errors.NO_DESKTOP_SHELL and not e["launchable"] for e in entries)
        assert one(env, act("keyboard.v1", "type", machine, text="x"))["error"]["code"] == "invalid"


def test_shell_targets_need_application_v1():
    w = world()
    env = w.environment({"actor": "a", "machines": [M], "actions": ["pointer.v1"], "observations": ["semantic.v1"]})
    ok(env, ptr("click", 34, 187))  # the dock is not there without application.v1
    from cwgym.desktop import launcher as shell_behaviour

    seat = w.runtime.seat(w.runtime.session(env.id), M)
    with pytest.raises(errors.ActionError) as info:
        shell_behaviour.activate(seat, "shell:launcher")
    assert info.value.error.reason == errors.APPLICATION_FAMILY_REQUIRED


def test_effect_tags_for_each_kind_of_change():
    env = desktop(world())
    tags = lambda action: one(env, action)["effect"]["changed"]  # noqa: E731
    assert tags(app("launch", kind="notepad_test")) == ["shell", "window.focused", "window.opened"]
    assert tags(type_("a")) == ["content", "window.title"]
    assert tags(key("ArrowLeft")) == ["content"]
    assert tags(key("Tab")) == ["focus"]
    assert tags(key("Shift+Tab")) == ["focus"]
    assert tags(key("Ctrl+C")) == ["clipboard"]
    assert tags(app("maximize")) == ["window.moved"]
    scene = env.scene(1280, 800)
    area = scene["scrolls"][0]["bounds"]
    assert tags(ptr("wheel", area["x"] + 5, area["y"] + 5, delta_y=30)) == ["scroll"]
    assert tags(key("Meta")) == ["shell"]
    assert tags(key("Escape")) == ["shell"]
    assert tags(app("launch", kind="notepad_test")) == ["window.focused", "window.opened"]  # already running
    assert tags(app("focus", window=0)) == ["window.focused"]
    assert tags(app("close", window=1)) == ["window.closed"]
    assert tags(app("close", window=0)) == ["shell", "window.closed", "window.focused"]
    assert tags(ptr("click", 1000, 700)) == []


def test_effect_state_is_content_derived():
    w = world()
    env = desktop(w)
    ok(env, app("launch", kind="notepad_test"))
    a = one(env, type_("x"))["effect"]["state"]
    b = one(env, key("Backspace"))["effect"]["state"]
    c = one(env, type_("x"))["effect"]["state"]
    assert a == c != b


def test_semantic_v1_projects_the_focused_machine_without_pixels():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    out = env.step([type_("hi")])
    channels = out["observation"]["channels"]
    assert channels["pixels.v1"] == {}
    view = channels["semantic.v1"][M]
    assert set(view) == {"version", "title", "screen", "windows", "elements", "text", "focus"}
    assert view["version"] == 1 and view["title"] == "*Untitled"
    assert view["screen"] == {"width": 1280, "height": 800}
    assert view["windows"][0]["id"] == 0 and view["windows"][0]["focused"]
    note = next(e for e in view["elements"] if e["id"] == "window:0:content:note")
    assert note["role"] == "textbox" and note["value"] == "hi" and note["focused"] and note["window"] == 0
    dock = next(e for e in view["elements"] if e["id"] == "shell:launch:terminal")
    assert dock == {"id": "shell:launch:terminal", "role": "button", "label": "Terminal",
                    "bounds": {"x": 10, "y": 163, "width": 48, "height": 48}, "enabled": True, "focused": False}
    assert not any(e["id"] == "window:0:content:item:29" for e in view["elements"])  # scrolled out of view
    assert {"text": "Sep 17  09:00"} .items() <= next(t for t in view["text"] if t["text"] == "Sep 17  09:00").items()
    assert view["focus"] == {"window": 0, "target": "window:0:content:note", "route": "application", "text_entry": True,
                             "caret": {"line": 0, "column": 2, "offset": 2}}  # after the typed "hi"
    assert env.observe()["channels"]["semantic.v1"][M] == view
    view["elements"].clear()  # the caller's copy is its own
    assert env.observe()["channels"]["semantic.v1"][M]["elements"]


def test_semantic_elements_point_at_clickable_controls():
    env = desktop(world())
    view = env.observe()["channels"]["semantic.v1"][M]
    launcher = next(e for e in view["elements"] if e["id"] == "shell:launch:notepad_test")
    b = launcher["bounds"]
    assert ok(env, ptr("click", b["x"] + b["width"] // 2, b["y"] + b["height"] // 2)) == {"window": 0}


def test_scene_viewport_limits_and_grants():
    w = world()
    env = desktop(w)
    for bad in ((0, 10), (10, 0), (4097, 4097), (1.5, 10), (-1, 5)):
        with pytest.raises(ValueError, match="viewport"):
            env.scene(*bad)
    assert env.scene(4096, 4096)["width"] == 4096
    assert env.scene(1, 1)["height"] == 1
    blind = w.environment({"actor": "a", "machines": [M], "actions": ["pointer.v1"], "observations": []})
    with pytest.raises(ValueError, match="denied"):
        blind.scene(320, 200)


def test_scene_shape_matches_the_reference():
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    scene = env.scene(1280, 800)
    assert {"width", "height", "revision", "background", "typeface", "nodes", "windows", "focus", "digest"} <= set(scene)
    win = scene["windows"][0]
    assert set(win) >= {"id", "title", "app", "bounds", "content", "z", "focused", "minimized", "maximized", "active_tab"}
    assert win["content"]["y"] == win["bounds"]["y"] + 36
    controls = {n["interaction"] for n in scene["nodes"] if n["interaction"]}
    assert {"window:0:close", "window:0:minimize", "window:0:maximize", "window:0:drag", "window:0:resize:se",
            "window:0:content:note", "window:0:content:save"} <= controls
    assert all(n["window"] == 0 for n in scene["nodes"] if (n["interaction"] or "").startswith("window:0:"))
    assert point(scene, "window:0:close") is not None


def test_render_is_gated_like_scene():
    w = world()
    blind = w.environment({"actor": "a", "machines": [M], "actions": ["pointer.v1"], "observations": []})
    with pytest.raises(ValueError, match="denied"):
        blind.render(32, 20)


def test_first_login_makes_the_desktop_folders_only_on_a_themed_machine(office):
    w = World(office)
    w.environment({"actor": "a", "machines": ["reception", "fileserver"], "actions": ["application.v1"], "observations": []})
    made = {(e["machine"], e["data"]["path"]) for e in w.trajectory() if e["kind"] == "filesystem.mkdir"}
    assert ("reception", "/home/grace/Desktop") in made
    assert not any(machine == "fileserver" for machine, _ in made)


def test_render_rasterizes_the_composed_scene():
    pytest.importorskip("cwgym.render")
    env = desktop(world())
    ok(env, app("launch", kind="notepad_test"))
    frame = env.render(64, 40)
    assert (frame["width"], frame["height"], len(frame["rgba"])) == (64, 40, 64 * 40 * 4)
    assert env.render(64, 40)["rgba"] == frame["rgba"]


def test_owner_gets_the_typed_scene_without_a_visual_grant():
    from cwgym import World
    from cwgym.resources import load_world
    from cwgym.scene import Scene

    world = World(load_world("ubuntu-workstation"))
    env = world.environment({"actor": "ada", "machines": ["workstation"], "actions": ["application.v1"], "observations": []})
    scene = world.scene(env.id, 1280, 800)
    assert isinstance(scene, Scene)
    launchers = scene.find("shell:launch:terminal")
    assert launchers and scene.reachable_point(launchers[0].id) is not None
    with pytest.raises(ValueError, match="denied"):
        env.scene(1280, 800)  # the actor, without a visual channel, still cannot look
