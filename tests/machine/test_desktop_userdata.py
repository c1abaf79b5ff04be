"""The machine's desktop data: settings, notifications (now and scheduled), recent documents,
and data-URL files in a world — each kept in the user's home, so it snapshots with the machine."""

from __future__ import annotations

import base64

import pytest

from cwgym import World
from cwgym.machine import notifications, recent, settings
from cwgym.protocol import DefinitionError, load_definition
from cwgym.resources import load_world


@pytest.fixture
def machine():
    return World(load_world("ubuntu-workstation"), 3).machine("workstation")


def test_settings_default_change_and_refuse(machine):
    assert settings.read_settings(machine) == {
        name: s.default for name, s in settings.SETTINGS.items()
    }
    assert settings.change_setting(machine, "volume", 30) == 30
    assert settings.change_setting(machine, "wifi", False) is False
    assert settings.read_settings(machine)["volume"] == 30
    assert not settings.network_up(machine)
    stored = machine.fs.read_path(f"{machine.home}/{settings.SETTINGS_FILE}")
    for name, value in (
        ("volume", 300),
        ("volume", True),
        ("wifi", 1),
        ("display_scale", 110),
        ("colour", "red"),
    ):
        with pytest.raises(ValueError, match=name):
            settings.change_setting(machine, name, value)
    assert machine.fs.read_path(f"{machine.home}/{settings.SETTINGS_FILE}") == stored
    settings.change_setting(machine, "wifi", True)
    settings.change_setting(machine, "volume", 50)
    assert settings.read_settings(machine) == {
        name: s.default for name, s in settings.SETTINGS.items()
    }


def test_a_corrupt_settings_file_reads_as_defaults_and_is_replaced(machine):
    machine.execute(
        "mkdir -p ~/.config/cwgym && printf '{not json' > ~/.config/cwgym/settings.json"
    )
    assert settings.read_settings(machine)["volume"] == 50
    settings.change_setting(machine, "dark_style", True)
    assert settings.read_settings(machine)["dark_style"] is True


def test_a_read_only_home_refuses_the_change_with_a_clear_error(machine):
    machine.execute("mkdir -p ~/.config/cwgym && chmod 500 ~/.config/cwgym")
    with pytest.raises(settings.UserDataError, match=r"settings\.json"):
        settings.change_setting(machine, "volume", 20)
    assert settings.read_settings(machine)["volume"] == 50


def test_notify_dismiss_clear_and_keep_the_newest(machine):
    first = notifications.notify(machine, "clock", "Alarm", "07:00")
    assert first["id"] == 1 and first["time_us"] == machine.clock.now_us
    for i in range(notifications.KEPT + 5):
        notifications.notify(machine, "test", f"n{i}")
    items = notifications.notifications(machine)
    assert len(items) == notifications.KEPT and items[-1]["summary"] == f"n{notifications.KEPT + 4}"
    assert notifications.dismiss(machine, items[0]["id"]) and not notifications.dismiss(
        machine, 10_000
    )
    assert (
        notifications.clear(machine) == notifications.KEPT - 1
        and notifications.notifications(machine) == []
    )
    assert (
        notifications.notify(machine, "x", "y")["id"] == notifications.KEPT + 7
    )  # ids never reused


def test_scheduled_notifications_fire_in_due_order_once(machine):
    now = machine.clock.now_us
    notifications.schedule(machine, "b", now + 20, "clock", "Second")
    notifications.schedule(machine, "a", now + 10, "clock", "First")
    notifications.schedule(machine, "c", now + 30, "calendar", "Gone")
    notifications.schedule(machine, "b", now + 15, "clock", "Second, moved")
    assert notifications.unschedule(machine, "c") and not notifications.unschedule(machine, "c")
    assert notifications.fire_due(machine) == []
    machine.clock.advance(16)
    fired = notifications.fire_due(machine)
    assert [(n["summary"], n["time_us"]) for n in fired] == [
        ("First", now + 10),
        ("Second, moved", now + 15),
    ]
    assert notifications.fire_due(machine) == [] and notifications.scheduled(machine) == []
    with pytest.raises(ValueError):
        notifications.schedule(machine, "", now, "x", "y")


def test_recent_documents_newest_first_one_per_path(machine):
    recent.add_recent(machine, "/home/ada/a.txt", "editor")
    recent.add_recent(machine, "/home/ada/b.txt", "editor")
    recent.add_recent(machine, "/home/ada/a.txt", "code")
    assert [(r["path"], r["app"]) for r in recent.recent(machine)] == [
        ("/home/ada/a.txt", "code"),
        ("/home/ada/b.txt", "editor"),
    ]


def test_desktop_data_is_part_of_the_snapshot_and_hash():
    world = World(load_world("ubuntu-workstation"), 3)
    machine = world.machine("workstation")
    snap = world.snapshot()
    before = world.state_hash()
    settings.change_setting(machine, "bluetooth", True)
    notifications.notify(machine, "clock", "Alarm")
    assert world.state_hash() != before
    world.restore(snap)
    machine = world.machine("workstation")
    assert world.state_hash() == before
    assert (
        settings.read_settings(machine)["bluetooth"] is False
        and notifications.notifications(machine) == []
    )


def test_world_files_may_be_base64_data_urls():
    d = load_world("ubuntu-workstation")
    png = b"\x89PNG\r\n\x1a\n\x00\x01binary"
    d["computers"][0]["initial_files"]["Pictures/x.png"] = (
        "data:image/png;base64," + base64.b64encode(png).decode()
    )
    d["computers"][0]["initial_files"]["plain.txt"] = "data: is just text without the marker"
    machine = World(d, 1).machine("workstation")
    assert machine.fs.read_path("/home/ada/Pictures/x.png") == png
    assert machine.fs.read_path("/home/ada/plain.txt") == b"data: is just text without the marker"
    d["computers"][0]["initial_files"]["Pictures/bad.png"] = "data:image/png;base64,@@not base64@@"
    with pytest.raises(DefinitionError, match=r"initial_files\['Pictures/bad.png'\].*base64"):
        load_definition(d)
