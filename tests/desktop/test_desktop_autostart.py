"""Autostart: ``~/.config/autostart/*.desktop`` files open windows at a graphical login."""

from __future__ import annotations

import pytest

from cwgym import World
from cwgym.desktop.autostart import parse_entry
from cwgym.protocol.config import EnvironmentConfig
from cwgym.resources import load_world

HOME = "/home/ada"
FOLDER = f"{HOME}/.config/autostart"


def entry(*lines: str) -> str:
    return "\n".join(["[Desktop Entry]", *lines]) + "\n"


def world_with(files: dict[str, str]) -> World:
    world = World(load_world("ubuntu-workstation"))
    machine = world.machine("workstation")
    machine.fs.makedirs(FOLDER, 1000, 1000)
    for name, text in files.items():
        machine.fs.put_file(f"{FOLDER}/{name}", text.encode(), 1000, 1000)
    return world


def login(world: World, actions=("application.v1", "pointer.v1", "keyboard.v1")):
    return world.environment(EnvironmentConfig(actor="ada", machines=["workstation"], actions=list(actions), observations=["semantic.v1"]))


def test_parse_reads_the_desktop_entry_group_only():
    text = "[Other]\nExec=files\n" + entry("Type=Application", "Exec=editor ~/notes.txt %f", "X-Cwgym-Bounds=10,20,300,200")
    parsed = parse_entry(text, HOME)
    assert parsed.app == "editor" and parsed.argument == f"{HOME}/notes.txt"
    assert parsed.bounds == (10, 20, 300, 200) and not parsed.maximized and not parsed.once


@pytest.mark.parametrize("lines", [("Exec=files", "Hidden=true"), ("Exec=files", "X-GNOME-Autostart-enabled=false"), ("Type=Link", "Exec=files")])
def test_parse_skips_hidden_disabled_and_non_applications(lines):
    assert parse_entry(entry(*lines), HOME) is None


@pytest.mark.parametrize(("lines", "message"), [
    (("Type=Application",), "no Exec key"),
    (("Exec=files", "X-Cwgym-Bounds=1,2,3"), "x,y,width,height"),
    (("Exec=files", "X-Cwgym-Bounds=1,2,0,5"), "positive width"),
])
def test_parse_names_what_is_wrong(lines, message):
    with pytest.raises(ValueError, match=message):
        parse_entry(entry(*lines), HOME)


def test_login_opens_the_files_in_name_order_with_their_geometry():
    world = world_with({
        "b.desktop": entry("Exec=terminal", "X-Cwgym-Maximized=true"),
        "a.desktop": entry("Exec=editor ~/x.txt", "X-Cwgym-Bounds=400,300,500,300"),
        "notes.txt": "not an autostart file",
    })
    login(world)
    windows = world.windows("workstation")
    assert [w["app"] for w in windows] == ["editor", "terminal"]  # a first, so b is on top
    assert windows[0]["bounds"] == [400, 300, 500, 300] and windows[0]["document"] == f"{HOME}/x.txt"
    assert windows[1]["maximized"] and windows[1]["focused"]


def test_a_failing_entry_is_journaled_and_the_others_still_open():
    world = world_with({"a.desktop": entry("Exec=nosuch"), "b.desktop": entry("Type=Application"), "c.desktop": entry("Exec=files")})
    login(world)
    assert [w["app"] for w in world.windows("workstation")] == ["files"]
    records = [e["data"] for e in world.trajectory() if e["kind"] == "application.autostart"]
    assert records[0] == {"file": "a.desktop", "error": "application_not_installed"}
    assert records[1]["file"] == "b.desktop" and "no Exec key" in records[1]["error"]
    assert records[2] == {"file": "c.desktop", "window": 0, "once": False}


def test_once_opens_at_the_next_login_only():
    world = world_with({"task.desktop": entry("Exec=files", "X-Cwgym-Once=true")})
    first = login(world)
    assert not world.machine("workstation").fs.exists(f"{FOLDER}/task.desktop")
    login(world)
    assert world.windows("workstation") == []  # the newest login opened nothing
    assert [w["app"] for w in world.windows("workstation", first.id)] == ["files"]


def test_a_session_without_the_desktop_shell_starts_nothing():
    world = world_with({"task.desktop": entry("Exec=files", "X-Cwgym-Once=true")})
    login(world, actions=("terminal.v1",))
    assert world.desktop_session("workstation") is None
    assert world.machine("workstation").fs.exists(f"{FOLDER}/task.desktop")


def test_autostart_replays_to_the_same_state_hash():
    hashes = []
    for _ in range(2):
        world = world_with({"a.desktop": entry("Exec=editor", "X-Cwgym-Bounds=300,200,500,300", "X-Cwgym-Once=true")})
        login(world)
        hashes.append(world.state_hash())
    assert hashes[0] == hashes[1]
