"""The search engine's crawl: when the world is built, the ``search`` kind indexes every
service's public pages (what a visitor who is not signed in sees) after the hand-written
entries. Each kind's pages are found by a word of their title and open with an anonymous
GET; private kinds, private repositories and projects add nothing; hand-written entries come
first and win duplicates; the index is a snapshot of the world as built, carried by
snapshots and the same under any hash seed."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from cwgym import World
from cwgym.net.services import SERVICE_KINDS, ServiceKind
from cwgym.resources import load_world
from cwgym.services._search_index import clip, page_entry, public_entries
from cwgym.services.wiki import plain_text

SEARCH = "http://search.office.internal:8090"
ADA = {"name": "ada", "password": "pw", "display": "Ada Lovelace"}
#: kinds that show something to a visitor who is not signed in (the others keep the default hook)
PUBLIC_KINDS = {"forum", "git", "issues", "media", "shop", "social", "static", "wiki"}


def _service(sid: str, kind: str, port: int, state: dict) -> dict:
    return {"id": sid, "kind": kind, "node": "fileserver", "port": port, "domains": [f"{sid}.office.internal"],
            "initial_state": state}


def world_definition() -> dict:
    """The small office with one site of every kind that has public pages, two private
    kinds holding the word "zanzibar", and a search engine."""
    d = copy.deepcopy(load_world("small-office"))
    wiki = d["services"][0]
    wiki["initial_state"] = {"brand": "Office wiki", "anonymous_edits": True, "pages": [
        {"title": "Guest Wifi", "text": "== Network ==\nThe guest network is '''OfficeGuest'''. See [[Printers]]."},
        {"title": "Printers", "text": "* Floor 2: laser printer\n* Floor 3: [[Guest Wifi|see the wifi]]"}]}
    wiki["search_entries"] = [{"title": "Wireless access", "url": "/wiki/Guest_Wifi", "snippet": "Hand-written."}]
    d["services"] += [
        _service("ask", "forum", 8081, {"users": [ADA], "communities": [{"name": "hardware", "threads": [
            {"title": "Stapler jammed again", "body": "The stapler on floor 2 jams.", "author": "ada"},
            {"title": "Projector bulb", "author": "ada", "replies": [{"body": "Replaced on Monday.", "author": "ada"}]}]}]}),
        _service("git", "git", 8082, {"users": [ADA], "repos": [
            {"owner": "ada", "name": "handbook-site", "files": {"README.md": "# handbook-site\n\nSources of the office handbook.\n"}},
            {"owner": "ada", "name": "salaries", "private": True, "description": "Salary sheets"}]}),
        _service("shop", "shop", 8083, {"products": [
            {"sku": "MUG-1", "name": "Ceramic mug", "price_cents": 900, "category": "Kitchen", "description": "Holds coffee."}]}),
        _service("media", "media", 8084, {"items": [
            {"id": "v1", "kind": "video", "title": "Onboarding walkthrough", "creator": "HR", "duration_s": 300,
             "tags": ["welcome"]}]}),
        _service("social", "social", 8085, {"users": [ADA], "profiles": {"ada": {"bio": "Office manager"}},
                                            "posts": [{"author": "ada", "text": "Fire drill on Thursday #safety"}]}),
        _service("tracker", "issues", 8086, {"users": [ADA], "projects": [
            {"key": "OPS", "name": "Operations", "description": "Office operations",
             "issues": [{"title": "Broken chair in Atlas", "labels": ["furniture"]}]},
            {"key": "HR", "name": "People", "private": True, "issues": [{"title": "Confidential review"}]}]}),
        _service("intranet", "static", 8087, {"files": {
            "/": "<h1>Intranet</h1>\n<p>Office news</p>\n",
            "/about.html": "<html><head><title>About the office</title></head><body><p>Founded in 1999.</p></body></html>",
            "/notes.txt": "plain text, not a page\n",
            "/old.html": {"status": 301, "location": "/", "body": ""},
            "/raw.html": {"body": "<p>Quarterly zeppelin</p>", "content_type": "text/plain"},
            "/my page.html": "<h1>Spaced out</h1>"}}),
        _service("mail", "mail", 8088, {"domain": "mail.office.internal", "users": [ADA], "mailboxes": {"ada": [
            {"from": "boss@mail.office.internal", "to": "ada@mail.office.internal", "subject": "Zanzibar bonus plan",
             "body": "Keep it quiet."}]}}),
        _service("docs", "docs", 8089, {"users": [ADA], "documents": [{"title": "Zanzibar memo", "owner": "ada"}]}),
        _service("search", "search", 8090, {"entries": [{"title": "Lunch menu", "url": "http://canteen.example/menu"}]}),
    ]
    for service in d["services"][1:]:
        d["network"]["dns"].append({"name": service["domains"][0], "address": "10.20.1.5", "resolver": "fileserver"})
    return d


@pytest.fixture(scope="module")
def world() -> World:
    return World(world_definition())


def index(world: World) -> list[dict]:
    return world.runtime.network.services["search"]["index"]


def get(world: World, url: str) -> tuple[int, str]:
    """An anonymous GET from the reception machine: no cookie, no credentials."""
    env = world.environment({"actor": "grace", "machines": ["reception"], "actions": ["http.v1"], "observations": []})
    out = env.step([{"family": "http.v1", "op": "request", "machine": "reception",
                     "payload": {"method": "GET", "url": url, "headers": {}, "body": ""}}])
    value = out["outcomes"][0]["value"]
    return value["status"], bytes(value["body"]).decode()


def found(world: World, query: str) -> list[str]:
    status, body = get(world, f"{SEARCH}/api/search?q={quote(query)}")
    assert status == 200, body
    return [r["url"] for r in json.loads(body)["results"]]


# -- what is found ----------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "query", "url"), [
    ("wiki", "printers", "http://wiki.office.internal/wiki/Printers"),
    ("forum", "stapler", "http://ask.office.internal:8081/t/1"),
    ("forum", "projector", "http://ask.office.internal:8081/t/2"),
    ("git", "handbook", "http://git.office.internal:8082/ada/handbook-site"),
    ("shop", "mug", "http://shop.office.internal:8083/p/MUG-1"),
    ("media", "walkthrough", "http://media.office.internal:8084/watch/v1"),
    ("social", "drill", "http://social.office.internal:8085/posts/1"),
    ("social", "lovelace", "http://social.office.internal:8085/@ada"),
    ("issues", "chair", "http://tracker.office.internal:8086/browse/OPS-1"),
    ("issues", "operations", "http://tracker.office.internal:8086/projects/OPS"),
    ("static", "about", "http://intranet.office.internal:8087/about.html"),
    ("static", "intranet", "http://intranet.office.internal:8087/"),
])
def test_each_kinds_public_pages_are_found_by_a_word_of_their_title(world, kind, query, url):
    assert kind in PUBLIC_KINDS
    assert url in found(world, query)


def test_every_indexed_url_opens_for_a_visitor_who_is_not_signed_in(world):
    urls = [e["url"] for e in index(world) if ".office.internal" in e["url"]]
    assert len(urls) == len(set(urls)) == 13  # 2 wiki, 2 forum, 1 git, 1 shop, 1 media, 2 social, 2 issues, 2 static
    for url in urls:
        status, body = get(world, url)
        assert status == 200, (url, body[:200])


def test_the_wiki_is_indexed_with_the_url_it_routes_and_its_text_without_markup(world):
    wifi = next(e for e in index(world) if e["url"].endswith("/wiki/Printers"))
    assert wifi == {"title": "Printers", "url": "http://wiki.office.internal/wiki/Printers",
                    "snippet": "Floor 2: laser printer Floor 3: see the wifi", "keywords": []}
    assert plain_text("== Network ==\nThe guest network is '''OfficeGuest'''. See [[Printers]] and [http://x.example/ x].") == \
        "Network The guest network is OfficeGuest. See Printers and x."


def test_snippets_and_keywords_come_from_what_the_page_shows(world):
    by_url = {e["url"].split(".internal", 1)[1]: e for e in index(world) if ".internal" in e["url"]}
    assert by_url[":8081/t/2"]["snippet"] == "Replaced on Monday." and by_url[":8081/t/2"]["keywords"] == ["hardware"]
    assert by_url[":8082/ada/handbook-site"]["snippet"] == "Sources of the office handbook."
    assert by_url[":8083/p/MUG-1"]["keywords"] == ["Kitchen"] and by_url[":8083/p/MUG-1"]["snippet"] == "Holds coffee."
    assert by_url[":8084/watch/v1"]["snippet"] == "Video by HR" and by_url[":8084/watch/v1"]["keywords"] == ["HR", "welcome"]
    assert by_url[":8085/@ada"]["title"] == "Ada Lovelace (@ada)" and by_url[":8085/@ada"]["snippet"] == "Office manager"
    assert by_url[":8085/posts/1"]["keywords"] == ["safety"]
    assert by_url[":8086/browse/OPS-1"]["title"] == "OPS-1: Broken chair in Atlas"
    assert by_url[":8087/"]["title"] == "Intranet" and by_url[":8087/"]["snippet"] == "Office news"
    assert by_url[":8087/about.html"]["snippet"] == "Founded in 1999."


# -- what is not found ------------------------------------------------------------------------

def test_private_kinds_contribute_nothing(world):
    assert found(world, "zanzibar") == []  # a mail subject and a document title
    for name in SERVICE_KINDS.names():
        overridden = type(SERVICE_KINDS[name]).public_pages is not ServiceKind.public_pages
        assert overridden == (name in PUBLIC_KINDS), name


def test_private_repositories_and_projects_are_not_indexed_and_a_visitor_cannot_open_them(world):
    assert found(world, "salaries") == [] and found(world, "confidential") == []
    assert get(world, "http://git.office.internal:8082/ada/salaries")[0] == 404
    assert get(world, "http://tracker.office.internal:8086/browse/HR-1")[0] == 404


def test_a_static_site_indexes_only_pages_served_as_html_with_200_at_a_url_that_reaches_them(world):
    urls = {e["url"] for e in index(world) if ":8087" in e["url"]}
    assert urls == {"http://intranet.office.internal:8087/", "http://intranet.office.internal:8087/about.html"}
    assert found(world, "zeppelin") == [] and found(world, "spaced") == []


# -- order, duplicates and what is crawled ----------------------------------------------------

def test_hand_written_entries_come_first_and_win_duplicates(world):
    entries = index(world)
    assert [e["title"] for e in entries[:2]] == ["Wireless access", "Lunch menu"]
    assert [e["title"] for e in entries if e["url"] == "http://wiki.office.internal/wiki/Guest_Wifi"] == ["Wireless access"]
    hosts = [e["url"].split("//")[1].split(":")[0].split("/")[0] for e in entries[2:]]
    order = [s["domains"][0] for s in world_definition()["services"]]
    assert hosts == sorted(hosts, key=order.index)  # crawled pages in definition order
    assert hosts[0] == "wiki.office.internal" and hosts[-1] == "intranet.office.internal"


def test_a_world_without_other_sites_indexes_only_its_entries():
    d = copy.deepcopy(load_world("small-office"))  # its wiki has no pages
    d["services"].append(_service("search", "search", 8090, {"entries": [{"title": "Lunch menu", "url": "http://canteen.example/"}]}))
    assert [e["title"] for e in index(World(d))] == ["Lunch menu"]
    d["services"][0]["initial_state"]["pages"] = [{"title": "Hidden", "text": "a wiki with no domain is not reached"}]
    d["services"][0]["domains"] = []
    assert [e["title"] for e in index(World(d))] == ["Lunch menu"]


def test_a_malformed_site_is_reported_at_its_own_path():
    d = world_definition()
    d["services"][1]["initial_state"]["communities"][0]["threads"][0]["author"] = "nobody"
    with pytest.raises(ValueError, match=r"^\$\.services\[1\]\.initial_state\.communities\[0\]\.threads\[0\]\.author: no user"):
        public_entries(d)


# -- a snapshot of the world as built ---------------------------------------------------------

def test_pages_created_later_are_not_in_the_index_and_snapshots_carry_it():
    world = World(world_definition())
    built = copy.deepcopy(index(world))
    snap = world.snapshot()
    env = world.environment({"actor": "grace", "machines": ["reception"], "actions": ["http.v1"], "observations": []})
    out = env.step([{"family": "http.v1", "op": "request", "machine": "reception", "payload": {
        "method": "POST", "url": "http://wiki.office.internal/edit/Quokka_care",
        "headers": {"Content-Type": "application/x-www-form-urlencoded"}, "body": "text=Feed+the+quokka"}}])
    assert out["outcomes"][0]["value"]["status"] == 303
    assert get(world, "http://wiki.office.internal/wiki/Quokka_care")[0] == 200
    assert found(world, "quokka") == [] and index(world) == built
    exported, edited = world.export_snapshot(), world.state_hash()
    world.restore(snap)
    assert index(world) == built
    again = World(world_definition())
    again.import_snapshot(exported)
    assert index(again) == built and again.state_hash() == edited
    search = SERVICE_KINDS["search"]
    state = world.runtime.network.services["search"]
    assert search.initial(copy.deepcopy(state), "x", world.runtime.definition) == state
    with pytest.raises(ValueError, match=r"x\.index: does not match the search entries of this world and the public pages"):
        search.initial({**copy.deepcopy(state), "index": built[:-1]}, "x", world.runtime.definition)


def test_the_index_is_the_same_under_another_hash_seed(world):
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from test_search_crawl import world_definition, index; "
            "from cwgym import World; print(json.dumps(index(World(world_definition()))))")
    env = {**os.environ, "PYTHONHASHSEED": "4242", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env, capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == index(world)


# -- the helpers ------------------------------------------------------------------------------

def test_clip_collapses_whitespace_and_cuts_at_a_word():
    assert clip("  a\n\tb  ") == "a b"
    long = " ".join(["word"] * 60)
    assert clip(long) == " ".join(["word"] * 31) + "…" and len(clip(long)) <= 160
    assert clip("x" * 300, 10) == "x" * 9 + "…"
    assert page_entry("  T  ", "http://h/", "s", ["k", "", "k", "j"]) == {"title": "T", "url": "http://h/", "snippet": "s",
                                                                        "keywords": ["k", "j"]}


def test_an_untitled_static_page_takes_its_first_heading_else_its_url():
    static = SERVICE_KINDS["static"]
    state = static.initial({"files": {"/a.html": "<h2>Second level</h2><p>Body text</p>", "/b.htm": "<p>Only text</p>"}}, "x")
    assert static.public_pages(state, "http://h") == [
        {"title": "Second level", "url": "http://h/a.html", "snippet": "Body text", "keywords": []},
        {"title": "http://h/b.htm", "url": "http://h/b.htm", "snippet": "Only text", "keywords": []}]
