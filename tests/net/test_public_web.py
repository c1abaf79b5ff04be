"""internet: true — the bundled public web joins the world: eight kinds of site behind an
edge router and three points of presence, on documentation addresses and .example names;
distance costs logical time; collisions with the world's own names are refused."""

from __future__ import annotations

import copy

import pytest
from test_network import office, shell

from cwgym import World
from cwgym.net.public_web import public_web
from cwgym.protocol.definition import DefinitionError

SITES = {  # kind -> a page of the site
    "search": "http://findit.example/search?q=csv",
    "mail": "http://postbox.example/",
    "wiki": "http://encyclopedia.example/wiki/Linux",
    "forum": "http://askanything.example/t/1",
    "shop": "http://shopright.example/p/MUG-BLU",
    "media": "http://tubeview.example/watch/v1",
    "social": "http://chirp.example/public",
}


def online() -> dict:
    d = office()
    d["internet"] = True
    d["network"]["gateway"]["allow_internet"] = True
    return d


def test_the_public_web_has_every_kind_of_site_on_documentation_addresses():
    web = public_web()
    kinds = {s.kind for s in web.services}
    assert kinds >= set(SITES) and len(web.services) >= 8
    for node in web.nodes:
        assert node.zone == "internet"
        assert node.address.startswith(("192.0.2.", "198.51.100.", "203.0.113."))
    assert all(d.endswith(".example") for s in web.services for d in s.domains)


@pytest.mark.parametrize("kind", sorted(SITES))
def test_each_site_answers_from_an_office_machine(kind):
    world = World(online())
    run, _ = shell(world)
    assert run(f"curl -s -o /dev/null -w '%{{http_code}}' '{SITES[kind]}'")["stdout"] == "200"


def test_a_distant_site_costs_more_logical_time_than_a_near_one():
    world = World(online())
    run, _ = shell(world)

    def cost(url: str) -> int:
        run(f"curl -s -o /dev/null {url}")  # the DNS answer is cached from here on
        before = world.runtime.clock.now_us
        run(f"curl -s -o /dev/null {url}")
        return world.runtime.clock.now_us - before

    near, far = cost("http://findit.example/"), cost("http://tubeview.example/")
    assert (near, far) == (2 * (2_000 + 8_000 + 1_000), 2 * (2_000 + 90_000 + 1_000))  # uplink, PoP, site; both ways


def test_the_search_engine_indexes_the_public_sites_and_is_the_worlds_default():
    world = World(online())
    assert world.definition()["metadata"]["search_engine"] == "http://findit.example/search?q=%s"
    run, _ = shell(world)
    page = run("curl -s 'http://findit.example/search?q=csv'")["stdout"]
    assert "http://askanything.example/t/3" in page and "http://encyclopedia.example/wiki/Comma-separated_values" in page


def test_the_gateway_still_decides_and_offline_worlds_do_not_see_it():
    d = office()
    run, _ = shell(World(d))
    assert run("curl -sS http://findit.example/")["stderr"] == "curl: (6) Could not resolve host: findit.example\n"


def test_a_world_name_that_collides_with_the_public_web_is_refused():
    d = online()
    d["network"]["nodes"].append({"id": "isp-edge", "address": "10.20.9.9"})
    with pytest.raises(DefinitionError, match=r"\$\.internet: \$\.network\.nodes: node 'isp-edge' is the public web's"):
        World(d)
    d = online()
    d["services"][0]["domains"].append("findit.example")
    with pytest.raises(DefinitionError, match=r"domain 'findit.example' is the public web's"):
        World(d)


def test_a_world_on_the_internet_snapshots_forks_and_replays():
    from cwgym.environment.replay import replay

    d = online()
    world = World(d)
    run, _ = shell(world)
    run("curl -s -c jar -d username=demo -d password=demo http://shopright.example/login -o /dev/null")
    snap = world.snapshot()
    run("curl -s -b jar -d sku=MUG-BLU -d quantity=2 http://shopright.example/cart/add -o /dev/null")
    fork = world.fork(snap)
    assert fork.state_hash() != world.state_hash()
    assert replay(copy.deepcopy(d), 0, world.trajectory()).state_hash() == world.state_hash()
