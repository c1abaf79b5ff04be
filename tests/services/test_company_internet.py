"""The company world is on the internet: its fourteen services and the public web's eight
sites in one world, each person reaching both from their own machine; the company's search
engine covers both, the public one only the public web."""

from __future__ import annotations

import pytest
from test_company_world import shell

from cwgym import World
from cwgym.net.public_web import public_web
from cwgym.resources import load_world


@pytest.fixture(scope="module")
def world() -> World:
    return World(load_world("company"))


def test_the_company_joins_the_public_web_and_keeps_its_own_search_engine(world):
    services = [(s["id"], s["kind"]) for s in world.inspect()["state"]["services"]]
    public = [(s.id, s.kind) for s in public_web().services]
    assert services[-len(public):] == public
    assert len(services) == len(set(services)) == 14 + len(public)
    assert world.definition()["metadata"]["search_engine"].startswith("http://search.northwind.internal/")


@pytest.mark.parametrize("machine,user", [("maya-ws", "maya"), ("omar-ws", "omar")])
def test_each_workstation_reaches_the_intranet_and_the_public_web(world, machine, user):
    run = shell(world.fork(), machine, user)
    for url in ("http://shop.northwind.internal/", "http://shopright.example/p/MUG-BLU",
                "http://encyclopedia.example/wiki/Linux", "http://tracker.northwind.internal/browse/BILL-42"):
        assert run(f"curl -s -o /dev/null -w '%{{http_code}}' {url}") == "200", url


def test_the_office_shop_and_the_public_shop_are_two_shops(world):
    run = shell(world.fork(), "omar-ws", "omar")
    office = run("curl -s http://shop.northwind.internal/")
    public = run("curl -s http://shopright.example/")
    assert "Northwind Supply" in office and "Northwind Supply" not in public


def test_the_public_search_engine_does_not_see_into_the_office(world):
    run = shell(world.fork(), "maya-ws", "maya")
    assert "tracker.northwind.internal" not in run("curl -s 'http://findit.example/search?q=BILL-42'")
    assert "encyclopedia.example/wiki/Linux" in run("curl -s 'http://findit.example/search?q=linux'")
    office = run("curl -s 'http://search.northwind.internal/search?q=BILL-42'")
    assert "http://tracker.northwind.internal/browse/BILL-42" in office
    assert "encyclopedia.example/wiki/Linux" in run("curl -s 'http://search.northwind.internal/search?q=linux'")


def test_a_public_site_costs_milliseconds_where_the_intranet_costs_microseconds(world):
    w = world.fork()
    run = shell(w, "maya-ws", "maya")

    def cost(url: str) -> int:
        run(f"curl -s -o /dev/null {url}")  # the DNS answer is cached from here on
        before = w.runtime.clock.now_us
        run(f"curl -s -o /dev/null {url}")
        return w.runtime.clock.now_us - before

    assert cost("http://tubeview.example/") > 100 * cost("http://wiki.northwind.internal/")


def test_a_snapshot_restores_the_public_and_the_office_state(world):
    w = world.fork()
    run = shell(w, "omar-ws", "omar")
    before, snap = w.state_hash(), w.snapshot()
    run("curl -s -o /dev/null -X POST -d username=omar2 -d password=pw12345678 http://shopright.example/signup")
    assert w.state_hash() != before
    w.restore(snap)
    assert w.state_hash() == before
