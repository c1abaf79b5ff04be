"""browser.v1 on the company world: the address bar, pages over the network, forms that
sign in with the profile's cookies, history and tabs, the browser.v1 channel, and the
browser as world state (snapshots, forks, export, replay)."""

from __future__ import annotations

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.resources import load_world


@pytest.fixture
def company():
    return load_world("company")


def browser(world: World, machine: str = "maya-ws", actor: str = "maya"):
    env = world.environment({"actor": actor, "machines": [machine], "actions": ["browser.v1"], "observations": ["browser.v1"]})

    def act(op: str, **payload) -> dict:
        out = env.step([{"family": "browser.v1", "op": op, "machine": machine, "payload": payload}])
        outcome = out["outcomes"][0]
        outcome["observed"] = out["observation"]["channels"]["browser.v1"][machine]
        return outcome

    return act


def ids(outcome: dict) -> list[str]:
    return [e["id"] for e in outcome["value"]["elements"]]


def test_navigate_answers_the_page_projection(company):
    act = browser(World(company))
    page = act("navigate", url="http://wiki.northwind.internal/wiki/On-call")["value"]
    assert page["version"] == 1 and page["lang"] == "en" and page["title"].startswith("On-call")
    assert any("Maya Chen" in e.get("text", "") for e in page["elements"])


def test_the_omnibox_decides_what_typed_text_means(company):
    act = browser(World(company))
    assert act("navigate", url="csv export")["value"]["title"] == "csv export — Search"  # the world's engine
    unreachable = act("navigate", url="wiki.northwind.internal")  # https://, and the wiki has no TLS listener
    assert unreachable["success"] and unreachable["value"]["title"] == "This site can't be reached"
    assert unreachable["observed"]["url"] == "https://wiki.northwind.internal/"
    refused = act("navigate", url="file:///etc/passwd")
    assert (refused["success"], refused["error"]["code"]) == (False, "invalid")


def test_a_form_signs_in_and_the_cookie_is_this_machines_alone(company):
    world = World(company)
    maya = browser(world)
    maya("navigate", url="http://mail.northwind.internal/login")
    maya("fill", id="login-username", value="maya")
    maya("fill", id="login-password", value="maya-nw-2026")
    filled = maya("fill", id="login-username", value="maya")["observed"]
    assert filled["fields"] == {"login-password": "maya-nw-2026", "login-username": "maya"}
    inbox = maya("submit", id="login-submit")
    assert inbox["value"]["title"] == "Inbox — Mail"
    assert "Acme Corp: invoice totals wrong in the CSV export (BILL-42)" in str(inbox["value"]["elements"])
    omar = browser(world, "omar-ws", "omar")
    assert omar("navigate", url="http://mail.northwind.internal/")["value"]["title"] != "Inbox — Mail"


def test_links_history_and_tabs(company):
    act = browser(World(company))
    act("navigate", url="http://wiki.northwind.internal/")
    home = act("navigate", url="http://wiki.northwind.internal/wiki/Main_Page")
    assert act("back")["value"]["title"] == "Northwind wiki"
    assert act("back")["value"]["title"] == "New Tab"  # the tab's first page
    assert act("back")["error"]["code"] == "not_found"
    home = act("forward") and act("forward")
    link = next(e["id"] for e in home["value"]["elements"] if e["kind"] == "link" and e["text"] == "Release process")
    followed = act("click", id=link)
    assert followed["value"]["title"].startswith("Release process")
    assert act("back")["value"]["title"].startswith("Main Page")
    assert act("forward")["value"]["title"].startswith("Release process")
    assert act("forward")["error"]["code"] == "not_found"
    opened = act("new_tab", url="http://ask.northwind.internal/t/1")
    assert opened["value"]["title"].startswith("Exported invoice")
    assert act("switch_tab", tab=0)["value"]["title"].startswith("Release process")
    assert act("close_tab", tab=0)["value"]["title"].startswith("Exported invoice")
    assert act("switch_tab", tab=9)["error"]["code"] == "not_found"
    assert act("click", id="no-such-element")["error"]["code"] == "not_found"
    assert act("fill", id="brand", value="x")["error"]["code"] == "invalid"
    assert act("key", key="Enter")["error"]["reason"] == "unsupported_operation"
    assert act("navigate")["error"]["code"] == "invalid"


def test_the_browser_is_world_state(company):
    world = World(company)
    world.enable_replay_verification(True)
    act = browser(world)
    act("navigate", url="http://wiki.northwind.internal/")
    snap = world.snapshot()
    act("navigate", url="http://ask.northwind.internal/")
    fork = world.fork(snap)
    assert fork.inspect()["state"]["browsers"]["maya-ws"]["url"] == "http://wiki.northwind.internal/"
    assert world.inspect()["state"]["browsers"]["maya-ws"]["url"] == "http://ask.northwind.internal/"
    again = World(company)
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()
    assert replay(company, 0, world.trajectory()).state_hash() == world.state_hash()
    broken = world.export_snapshot().replace('"index":2}],"active"', '"index":7}],"active"', 1)
    assert broken != world.export_snapshot()
    with pytest.raises(ValueError, match=r"browsers\.maya-ws"):
        World(company).import_snapshot(broken)


def test_a_name_in_etc_hosts_is_an_address_in_the_address_bar(company):
    maya = next(c for c in company["computers"] if c["id"] == "maya-ws")
    maya["initial_files"]["/etc/hosts"] = "127.0.0.1 localhost\n10.40.2.10 intranet\n"
    act = browser(World(company))
    assert act("navigate", url="intranet")["observed"]["url"] == "https://intranet/"  # not a search
    home = act("navigate", url="http://intranet/")["value"]
    assert home["title"] == "http://intranet/"  # a hand-written page without a <title>: the URL, as browsers show it
    assert home["elements"][0] == {"kind": "heading", "text": "Northwind Analytics intranet", "level": 1, "id": "heading-1"}
    assert act("navigate", url="http://intranet/status.txt")["value"]["elements"][0]["text"].startswith("billing-export")
