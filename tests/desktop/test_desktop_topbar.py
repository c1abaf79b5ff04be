"""The top bar acts: the clock's calendar and notifications panel, quick settings, and
what they change — settings the Settings app shares, notifications raised on the logical
clock — each through a pointer click found in the scene and through ``application.v1 shell``."""

from __future__ import annotations

from desktop_fixture import M, act, app, click, desktop, ok, one, point, world

from cwgym import EnvironmentConfig, World
from cwgym.desktop.themes.ubuntu import UbuntuTheme
from cwgym.machine import notifications, settings
from cwgym.resources import load_world

W, H = 1280, 800


def _setup():
    w = world()
    return w, desktop(w), w.machine(M)


def _effect(outcome: dict) -> list[str]:
    return outcome["effect"]["changed"]


def _kinds(env) -> str | None:
    scene = env.scene(W, H)
    roles = {(n.get("semantic") or {}).get("label") for n in scene["nodes"] if (n.get("semantic") or {}).get("role") == "dialog"}
    if "Quick Settings" in roles:
        return "quick-settings"
    if "Notifications and calendar" in roles:
        return "calendar"
    return None


def test_the_clock_and_the_status_icons_open_their_panels_and_switch_between_them():
    _, env, _ = _setup()
    assert _effect(click(env, "shell:calendar")) == ["shell"] and _kinds(env) == "calendar"
    assert _effect(click(env, "shell:quick-settings")) == ["shell"] and _kinds(env) == "quick-settings"
    click(env, "shell:quick-settings")
    assert _kinds(env) is None
    ok(env, app("shell", target="shell:calendar"))
    assert _kinds(env) == "calendar"
    ok(env, act("pointer.v1", "click", x=W // 2, y=H - 20))  # outside: closes it
    assert _kinds(env) is None


def test_quick_settings_toggles_change_the_machines_settings_by_pointer_and_by_name():
    _, env, machine = _setup()
    click(env, "shell:quick-settings")
    outcome = click(env, "shell:toggle:dark_style")
    assert outcome["value"] == {"setting": "dark_style", "value": True} and _effect(outcome) == ["settings"]
    assert settings.read_settings(machine)["dark_style"] is True
    assert _kinds(env) == "quick-settings"  # a toggle leaves the panel open
    assert click(env, "shell:volume:70")["value"] == {"setting": "volume", "value": 70}
    ok(env, app("shell", target="shell:quick-settings"))  # closed
    assert ok(env, app("shell", target="shell:toggle:wifi")) == {"setting": "wifi", "value": False}
    assert settings.read_settings(machine)["wifi"] is False and settings.read_settings(machine)["volume"] == 70
    for bad in ("shell:toggle:volume", "shell:toggle:", "shell:volume:75", "shell:volume:110", "shell:quick-settings:nope"):
        assert one(env, app("shell", target=bad))["error"]["reason"] == "unknown_shell_target", bad


def test_the_status_icons_show_the_network_and_sound_state():
    _, env, _ = _setup()

    def symbols() -> list[str]:
        return [n["primitive"]["name"] for n in env.scene(W, H)["nodes"] if n.get("interaction") == "shell:quick-settings" and n["primitive"]["kind"] == "symbol"]

    assert symbols() == ["battery", "volume", "network-wired"]
    ok(env, app("shell", target="shell:toggle:muted"))
    ok(env, app("shell", target="shell:toggle:airplane_mode"))
    assert symbols() == ["battery", "volume-muted", "wifi"]


def test_a_machine_with_its_network_off_reaches_only_itself():
    w = World(load_world("small-office"), 1)
    env = w.environment(EnvironmentConfig.desktop("ada", ["reception"]))
    machine = w.machine("reception")
    assert machine.execute("curl -s http://wiki.office.internal/").exit_code == 0
    assert one(env, act("application.v1", "shell", machine="reception", target="shell:toggle:wifi"))["success"]
    offline = machine.execute("curl -sS http://wiki.office.internal/")
    assert offline.exit_code != 0 and "unreachable" in offline.stderr
    assert machine.execute("ping -c 1 127.0.0.1").exit_code == 0
    assert machine.execute("ping -c 1 10.0.0.1").exit_code != 0
    ok(env, act("application.v1", "shell", machine="reception", target="shell:toggle:wifi"))
    assert machine.execute("curl -s http://wiki.office.internal/").exit_code == 0


def test_notifications_list_open_their_app_dismiss_and_clear():
    _, env, machine = _setup()
    notifications.notify(machine, "notepad_test", "Saved", "todo.note")
    notifications.notify(machine, "clock", "Alarm", "07:30")
    notifications.notify(machine, "editor", "Third")
    click(env, "shell:calendar")
    labels = [n["semantic"]["label"] for n in env.scene(W, H)["nodes"] if (n.get("interaction") or "").startswith("shell:notification:") and (n.get("semantic") or {}).get("role") == "button" and not n["interaction"].endswith(":dismiss")]
    assert labels == ["Text Editor: Third", "Clocks: Alarm", "Test Notepad: Saved"]  # newest first
    outcome = click(env, "shell:notification:2:dismiss")
    assert _effect(outcome) == ["notifications"] and [n["id"] for n in notifications.notifications(machine)] == [1, 3]
    outcome = click(env, "shell:notification:1")  # opens its application and goes away
    assert outcome["value"] == {"window": 0} and "window.opened" in _effect(outcome) and _kinds(env) is None
    assert [n["id"] for n in notifications.notifications(machine)] == [3]
    ok(env, app("shell", target="shell:calendar"))
    assert one(env, app("shell", target="shell:notification:1"))["error"]["reason"] == "unknown_shell_target"
    assert _effect(click(env, "shell:notifications:clear")) == ["notifications"]
    assert notifications.notifications(machine) == []
    ok(env, app("shell", target="shell:calendar"))
    # panel targets need their panel
    assert one(env, app("shell", target="shell:notifications:clear"))["error"]["reason"] == "unknown_shell_target"


def test_the_calendar_panel_shows_the_logical_month_and_moves_through_months():
    _, env, _ = _setup()
    click(env, "shell:calendar")

    def title() -> str:
        return next(n["semantic"]["label"] for n in env.scene(W, H)["nodes"] if n.get("interaction") == "shell:calendar:today" and n.get("semantic"))

    assert title() == "September 2026"
    assert _effect(click(env, "shell:calendar:next")) == ["shell"] and title() == "October 2026"
    for _ in range(10):
        ok(env, app("shell", target="shell:calendar:next"))
    assert title() == "August 2027"
    click(env, "shell:calendar:today")
    click(env, "shell:calendar:prev")
    assert title() == "August 2026"


def test_scheduled_notifications_are_raised_after_the_action_that_reaches_their_time():
    w = world()
    env = desktop(w, actions=["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1"])
    machine = w.machine(M)
    notifications.schedule(machine, "alarm", machine.clock.now_us + 30_000_000, "clock", "Tea is ready")
    ok(env, app("shell", target="shell:calendar"))
    assert notifications.notifications(machine) == []
    outcome = one(env, act("terminal.v1", "execute", command="sleep 31"))
    assert "notifications" in _effect(outcome)
    assert [n["summary"] for n in notifications.notifications(machine)] == ["Tea is ready"]
    assert notifications.scheduled(machine) == []


def test_the_clock_shows_a_dot_while_notifications_wait_unless_do_not_disturb():
    _, env, machine = _setup()

    def dot() -> bool:
        return any(n.get("interaction") == "shell:calendar" and n["primitive"]["kind"] == "rounded_box" and n["bounds"]["width"] == 6 for n in env.scene(W, H)["nodes"])

    assert not dot()
    notifications.notify(machine, "clock", "Alarm")
    ok(env, app("shell", target="shell:calendar"))  # any action: the screen is composed afresh
    assert dot()
    ok(env, app("shell", target="shell:toggle:do_not_disturb"))
    assert not dot()


def test_dark_style_repaints_windows_with_the_dark_palette():
    _, env, _ = _setup()
    ok(env, app("launch", kind="notepad_test"))
    before = env.scene(W, H)
    ok(env, app("shell", target="shell:toggle:dark_style"))
    after = env.scene(W, H)
    dark = list(UbuntuTheme.dark_palette["window"])
    assert before["digest"] != after["digest"] and point(after, "window:0:close") is not None
    assert not any(n["primitive"].get("color") == dark for n in before["nodes"])
    assert any(n["primitive"]["kind"] == "box" and n["primitive"]["color"] == dark for n in after["nodes"])
