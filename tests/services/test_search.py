"""The search kind end to end: an index of every service's search_entries and its own
entries built with the world, ranking, results and "no results" pages, pagination, the JSON
API, per-user search history, malformed entries and requests, snapshots, forks and replay."""

from __future__ import annotations

import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.net.services import SERVICE_KINDS
from cwgym.resources import load_world
from cwgym.services._search_index import rank, terms, world_entries

SEARCH = "http://search.office.internal:8090"
WIKI_ENTRIES = [
    {"title": "Guest Wi-Fi", "url": "/wiki/Wifi", "snippet": "The guest network is OfficeGuest.", "keywords": ["wifi", "password"]},
    {"title": "Printers", "url": "/wiki/Printers", "snippet": "Printer setup on floor 2."},
]


def definition(own=None, wiki_entries=None, **state) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["search_entries"] = WIKI_ENTRIES if wiki_entries is None else wiki_entries
    d["services"].append({"id": "intranet", "kind": "static", "node": "fileserver", "port": 8080,
                          "domains": ["intranet.office.internal"], "initial_state": {"files": {"/": "hi"}},
                          "search_entries": [{"title": "Intranet home", "url": "/", "snippet": "Office news and the wifi password"}]})
    d["services"].append({"id": "search", "kind": "search", "node": "fileserver", "port": 8090,
                          "domains": ["search.office.internal"],
                          "initial_state": {"users": [{"name": "ada", "password": "pw"}, {"name": "bob", "password": "pw2"}],
                                            "entries": [{"title": "Lunch menu", "url": "http://canteen.example/menu",
                                                         "keywords": ["food"]}] if own is None else own, **state}})
    d["network"]["dns"].append({"name": "search.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def shell(world: World, machine: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["terminal.v1"], "observations": []})

    def run(command: str) -> str:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]["stdout"]

    return run


def api(run, query: str, auth: str = "") -> dict:
    return json.loads(run(f"curl -s {auth} '{SEARCH}/api/search?{query}'"))


def state(world: World) -> dict:
    return world.runtime.network.services["search"]


# -- the index --------------------------------------------------------------------------------

def test_the_index_holds_every_services_entries_then_its_own():
    world = World(definition())
    assert [(e["title"], e["url"]) for e in state(world)["index"]] == [
        ("Guest Wi-Fi", "http://wiki.office.internal/wiki/Wifi"),
        ("Printers", "http://wiki.office.internal/wiki/Printers"),
        ("Intranet home", "http://intranet.office.internal:8080/"),
        ("Lunch menu", "http://canteen.example/menu"),
    ]
    assert state(world)["index"][3] == {"title": "Lunch menu", "url": "http://canteen.example/menu", "snippet": "",
                                        "keywords": ["food"]}


def test_an_empty_search_engine_has_a_home_page_and_finds_nothing():
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "search", "kind": "search", "node": "fileserver", "port": 8090,
                          "domains": ["search.office.internal"]})
    run = shell(World(d))
    home = run(f"curl -s {SEARCH}/")
    assert '<form id="search-form" action="/search" method="get">' in home and '<p id="index-size">0 pages indexed</p>' in home
    none = run(f"curl -s '{SEARCH}/search?q=anything'")
    assert '<p id="no-results">Your search - anything - did not match any documents.</p>' in none


def test_results_are_ranked_by_weighted_term_frequency_with_ties_by_url():
    run = shell(World(definition()))
    page = run(f"curl -s '{SEARCH}/search?q=wifi+password'")
    # Guest Wi-Fi: title "wi", "fi" no; keywords wifi + password (2 + 2) = 4; Intranet home: snippet 1 + 1 = 2
    assert page.index('<a id="result-1" href="http://wiki.office.internal/wiki/Wifi">Guest Wi-Fi</a>') < \
        page.index('<a id="result-2" href="http://intranet.office.internal:8080/">Intranet home</a>')
    assert '<p id="result-count">About 2 results (page 1 of 1)</p>' in page
    assert '<p id="result-1-snippet">The guest network is OfficeGuest.</p>' in page
    assert '<p id="result-2-url">http://intranet.office.internal:8080/</p>' in page
    assert '<input id="search-q" type="search" name="q" value="wifi password">' in page
    assert [r["url"] for r in api(run, "q=printers")["results"]] == ["http://wiki.office.internal/wiki/Printers"]
    index = [{"title": "b", "url": "http://b/", "snippet": "x", "keywords": []},
             {"title": "a", "url": "http://a/", "snippet": "x", "keywords": []},
             {"title": "x", "url": "http://c/", "snippet": "", "keywords": []}]
    assert [(s, e["url"]) for s, e in rank(index, terms("X"))] == [(3, "http://c/"), (1, "http://a/"), (1, "http://b/")]


def test_pagination_shows_ten_a_page():
    own = [{"title": f"Report {n:02d}", "url": f"http://reports.example/{n:02d}", "snippet": "quarterly report"} for n in range(1, 24)]
    run = shell(World(definition(own=own)))
    first = api(run, "q=report")
    assert (first["total"], first["pages"], len(first["results"])) == (23, 3, 10)
    assert first["results"][0] == {"rank": 1, "title": "Report 01", "url": "http://reports.example/01", "snippet": "quarterly report"}
    third = api(run, "q=report&page=3")
    assert [r["rank"] for r in third["results"]] == [21, 22, 23]
    page2 = run(f"curl -s '{SEARCH}/search?q=report&page=2'")
    assert '<a id="result-11" href="http://reports.example/11">Report 11</a>' in page2
    assert '<a id="page-prev" href="/search?q=report">Previous</a>' in page2
    assert '<a id="page-next" href="/search?q=report&amp;page=3">Next</a>' in page2
    beyond = run(f"curl -s '{SEARCH}/search?q=report&page=9'")
    assert '<p id="no-results">Page 9 has no results: there are 3 pages for this search.</p>' in beyond


@pytest.mark.parametrize(("query", "message"), [
    ("q=x&page=0", "page must be a number from 1, got '0'"),
    ("q=x&page=two", "page must be a number from 1, got 'two'"),
    ("q=", "the field 'q' is required"),
    ("q=" + "a" * 501, "the query is longer than 500 characters"),
])
def test_malformed_queries_are_400_with_a_message(query, message):
    run = shell(World(definition()))
    assert run(f"curl -s -w ' %{{http_code}}' '{SEARCH}/api/search?{query}'") == json.dumps({"error": message}) + " 400"


def test_an_empty_query_goes_back_home():
    run = shell(World(definition()))
    assert run(f"curl -s -o /dev/null -w '%{{http_code}} %{{url_effective}}' -L '{SEARCH}/search?q=+'") == f"200 {SEARCH}/"


# -- history ----------------------------------------------------------------------------------

def test_a_users_searches_are_kept_for_that_user_only():
    world = World(definition())
    run = shell(world)
    run(f"curl -s -u ada:pw '{SEARCH}/search?q=printers'")
    api(run, "q=lunch", "-u ada:pw")
    api(run, "q=lunch&page=2", "-u ada:pw")  # a further page of the same search is not a new one
    run(f"curl -s '{SEARCH}/search?q=anonymous'")  # not kept
    assert [s["q"] for s in json.loads(run(f"curl -s -u ada:pw {SEARCH}/api/history"))["searches"]] == ["lunch", "printers"]
    assert '<a id="history-1" href="/search?q=lunch">lunch</a>' in run(f"curl -s -u ada:pw {SEARCH}/history")
    assert json.loads(run(f"curl -s -u bob:pw2 {SEARCH}/api/history")) == {"user": "bob", "searches": []}
    assert run(f"curl -s -w '%{{http_code}}' {SEARCH}/api/history") == '{"error": "sign in first"}401'
    assert "Location: /login?next=/history" in run(f"curl -s -i {SEARCH}/history")
    run(f"curl -s -u ada:pw -X POST {SEARCH}/history/clear")
    assert state(world)["history"] == {}


def test_a_search_from_one_machine_shows_in_history_on_another_only_through_a_request():
    world = World(definition())
    reception, laptop = shell(world), shell(world, "legal-laptop")
    reception(f"curl -s -u ada:pw '{SEARCH}/search?q=printers'")
    assert "printers" in laptop(f"curl -s -u ada:pw {SEARCH}/history")


# -- state ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "where"), [
    ({"wiki_entries": [WIKI_ENTRIES[0], {"title": "No url"}]}, r"\$\.services\[0\]\.search_entries\[1\]\.url: required"),
    ({"wiki_entries": [{"title": "", "url": "/x"}]}, r"\$\.services\[0\]\.search_entries\[0\]\.title: empty"),
    ({"wiki_entries": [{"title": "T", "url": "ftp://x/"}]}, r"\$\.services\[0\]\.search_entries\[0\]\.url: .*'ftp://x/'"),
    ({"wiki_entries": [{"title": "T", "url": "/x", "keywords": "k"}]}, r"\$\.services\[0\]\.search_entries\[0\]\.keywords: expected list"),
    ({"wiki_entries": [{"title": "T", "url": "/x", "keywords": [1]}]}, r"\$\.services\[0\]\.search_entries\[0\]\.keywords"),
    ({"wiki_entries": ["T"]}, r"\$\.services\[0\]\.search_entries\[0\]: .*an object"),
    ({"own": [{"title": "T", "url": "/relative"}]}, r"\$\.services\[2\]\.initial_state\.entries\[0\]\.url: '/relative' is not"),
    ({"own": {"title": "T"}}, r"\$\.services\[2\]\.initial_state\.entries: expected list"),
    ({"brand": 3}, r"\$\.services\[2\]\.initial_state\.brand: expected str"),
    ({"reach": "lan"}, r"\$\.services\[2\]\.initial_state\.reach: one of world, internet, got 'lan'"),
])
def test_malformed_entries_are_refused_naming_their_path(change, where):
    with pytest.raises(ValueError, match=where):
        World(definition(**change))


def test_a_path_entry_of_a_service_without_a_domain_is_refused():
    d = definition()
    d["services"][1]["domains"] = []
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.search_entries\[0\]\.url: a path"):
        World(d)
    # the kind checks the entries itself too (a definition given as plain data)
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.search_entries\[0\]\.url: a path url needs the service to have a domain"):
        world_entries(d)
    d["services"][1]["search_entries"] = [{"title": "T", "url": "http://t/", "keywords": ["a", 2]}]
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.search_entries\[0\]\.keywords\[1\]: expected str, got int"):
        world_entries(d)


def test_a_built_state_revalidates_unchanged_and_a_tampered_index_is_refused():
    world = World(definition())
    shell(world)(f"curl -s -u ada:pw '{SEARCH}/search?q=printers'")
    built = state(world)
    assert SERVICE_KINDS["search"].initial(copy.deepcopy(built), "x", world.runtime.definition) == built
    tampered = {**copy.deepcopy(built), "index": built["index"][:1]}
    with pytest.raises(ValueError, match=r"x\.index: does not match the search entries of this world"):
        SERVICE_KINDS["search"].initial(tampered, "x", world.runtime.definition)
    again = World(definition())
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash() and state(again)["history"]["ada"][0]["q"] == "printers"


def test_an_internet_reach_leaves_out_the_services_of_the_lan():
    world = World(definition(reach="internet"))
    assert [e["url"] for e in state(world)["index"]] == ["http://canteen.example/menu"]  # its own entries only
    assert state(World(definition()))["reach"] == "world"
    again = World(definition(reach="internet"))
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


def test_a_refused_request_leaves_the_state_as_it_was():
    service = SERVICE_KINDS["search"]
    st = service.initial({"entries": [{"title": "T", "url": "http://t/"}]}, "x")
    request = Request("GET", parse_url("http://s/api/search?q=t&page=-1"), Headers(), b"")
    response, after = service.handle(st, request, "reception", 0)
    assert response.status == 400 and after is st


def test_snapshots_and_forks_keep_their_own_history():
    world = World(definition())
    run = shell(world)
    run(f"curl -s -u ada:pw '{SEARCH}/search?q=one'")
    snap = world.snapshot()
    run(f"curl -s -u ada:pw '{SEARCH}/search?q=two'")
    fork = world.fork(snap)
    assert [s["q"] for s in json.loads(shell(fork)(f"curl -s -u ada:pw {SEARCH}/api/history"))["searches"]] == ["one"]
    assert [s["q"] for s in state(world)["history"]["ada"]] == ["one", "two"]


def test_replaying_the_same_steps_gives_the_same_state_hash():
    world = World(definition(), seed=2)
    run = shell(world)
    run(f"curl -s -u ada:pw '{SEARCH}/search?q=printers'")
    run(f"curl -s '{SEARCH}/search?q=wifi'")
    assert replay(definition(), 2, world.trajectory()).state_hash() == world.state_hash()
