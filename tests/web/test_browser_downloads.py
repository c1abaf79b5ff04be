"""Downloads: an answer sent as an attachment is saved into ~/Downloads (its own name, then
"(1)", "(2)"...), a notification says so, and the tab keeps its page — in a headless
profile and in a browser window alike; a folder the user cannot write is a "Download
failed" notification and no file."""

from __future__ import annotations

import pytest

from cwgym import EnvironmentConfig, World
from cwgym.machine.notifications import notifications
from cwgym.resources import load_world
from cwgym.web.engine import attachment_name

M = "maya-ws"
ACCOUNT = "http://bank.northwind.internal/accounts/NW-ENG-0001"


def browser(world: World, desktop: bool):
    if desktop:
        config = EnvironmentConfig.desktop("maya", [M]).to_plain()
        config["actions"] = sorted({*config["actions"], "browser.v1"})
    else:
        config = {"actor": "maya", "machines": [M], "actions": ["browser.v1"], "observations": []}
    env = world.environment(config)

    def act(op: str, **payload) -> dict:
        outcome = env.step([{"family": "browser.v1", "op": op, "machine": M, "payload": payload}])["outcomes"][0]
        assert outcome["success"], outcome
        return outcome["value"]

    act("navigate", url="http://bank.northwind.internal/login")
    act("fill", id="login-username", value="maya")
    act("fill", id="login-password", value="maya-nw-2026")
    act("submit", id="login-submit")
    return act


def files(world: World, folder: str = "/home/maya/Downloads") -> dict[str, bytes]:
    machine = world.runtime.machines[M]
    ufs = machine.user_fs()
    if not ufs.exists(folder, machine.home):
        return {}
    return {name: ufs.read(f"{folder}/{name}", machine.home) for name in ufs.listdir(folder, machine.home)}


@pytest.mark.parametrize("desktop", [False, True], ids=["headless", "window"])
def test_an_attachment_is_saved_in_downloads_and_the_page_stays(desktop):
    world = World(load_world("company"))
    act = browser(world, desktop)
    page = act("navigate", url=ACCOUNT)
    assert act("click", id="statement-csv")["title"] == page["title"]
    again = act("click", id="statement-csv")
    assert again["title"] == page["title"]
    saved = files(world)
    assert sorted(saved) == ["statement-NW-ENG-0001 (1).csv", "statement-NW-ENG-0001.csv"]
    assert saved["statement-NW-ENG-0001.csv"].startswith(b"date,description,amount,balance")
    said = [n for n in notifications(world.runtime.machines[M]) if n["source"] == "browser"]
    assert [n["summary"] for n in said] == ["Download complete"] * 2
    assert "statement-NW-ENG-0001 (1).csv" in said[-1]["body"]


def test_a_download_is_world_state_and_a_restore_takes_it_back():
    world = World(load_world("company"))
    act = browser(world, desktop=False)
    act("navigate", url=ACCOUNT)
    before, snap = world.state_hash(), world.snapshot()
    act("click", id="statement-csv")
    assert world.state_hash() != before and files(world)
    world.restore(snap)
    assert world.state_hash() == before and not files(world)


def test_a_downloads_folder_the_user_cannot_write_is_a_failed_download_and_no_file():
    world = World(load_world("company"))
    act = browser(world, desktop=False)
    machine = world.runtime.machines[M]
    machine.user_fs().mkdir("/home/maya/Downloads", machine.home)
    machine.user_fs().chmod("/home/maya/Downloads", machine.home, 0o500)
    page = act("navigate", url=ACCOUNT)
    assert act("click", id="statement-csv")["title"] == page["title"]
    assert files(world) == {}
    said = [n for n in notifications(machine) if n["source"] == "browser"]
    assert said[-1]["summary"] == "Download failed" and "statement-NW-ENG-0001.csv" in said[-1]["body"]


def test_a_user_whose_notifications_cannot_be_written_still_gets_the_file():
    world = World(load_world("company"))
    act = browser(world, desktop=False)
    machine = world.runtime.machines[M]
    ufs = machine.user_fs()
    if not ufs.exists("/home/maya/.local", machine.home):
        ufs.mkdir("/home/maya/.local", machine.home)
    ufs.chmod("/home/maya/.local", machine.home, 0o500)
    act("navigate", url=ACCOUNT)
    act("click", id="statement-csv")
    assert list(files(world)) == ["statement-NW-ENG-0001.csv"]
    assert not [n for n in notifications(machine) if n["source"] == "browser"]


@pytest.mark.parametrize(("value", "url", "name"), [
    ('attachment; filename="inv 7.pdf"', "http://x/a", "inv 7.pdf"),
    ('attachment; filename="a\\"b.txt"', "http://x/a", 'a"b.txt'),
    ("attachment; filename=\"_t_.txt\"; filename*=UTF-8''%C3%A9t%C3%A9.txt", "http://x/a", "été.txt"),
    ("ATTACHMENT; FileName=tok.txt", "http://x/a", "tok.txt"),
    ('attachment; note="a;b"; filename=x.csv', "http://x/a", "x.csv"),
    ("attachment", "http://x/files/r%20e.csv", "r e.csv"),
    ("attachment", "http://x/", "download"),
    ('inline; filename="x.txt"', "http://x/a", None),
    (None, "http://x/a", None),
])
def test_the_file_name_comes_from_the_header_then_the_url(value, url, name):
    headers = [] if value is None else [("Content-Disposition", value)]
    assert attachment_name(headers, url) == name
