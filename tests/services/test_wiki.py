"""The wiki kind end to end: pages rendered with links and red links, edits from curl and
http.v1 with history, old revisions, recent changes, search, the JSON API, who may edit,
edit conflicts, malformed requests and initial states, snapshots, forks and replay."""

from __future__ import annotations

import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.net.services import SERVICE_KINDS
from cwgym.resources import load_world
from cwgym.services.wiki import links_of, normalize_title, page_url

WIKI = "http://wiki.office.internal"
PAGES = [
    {"title": "Main Page", "text": "Welcome to the [[Handbook]] and the [[guest_wifi|Wi-Fi]].\n\n== Rooms ==\n"
                                   "* [[Kitchen]] rules\n* no pets\n\n'''Ask''' [http://help.example/ the desk]."},
    {"title": "Handbook", "text": "How we work. Back to [[Main Page]].", "author": "ada"},
]


def definition(**state) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["initial_state"] = {"brand": "Office wiki", "users": [{"name": "ada", "password": "pw"},
                                                                          {"name": "bob", "password": "pw2"}],
                                         "pages": PAGES, **state}
    return d


def shell(world: World, machine: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def run(command: str) -> str:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]["stdout"]

    def http(method: str, path: str, body: str = "", headers: dict | None = None) -> tuple[int, dict, str]:
        out = env.step([{"family": "http.v1", "op": "request", "machine": machine,
                         "payload": {"method": method, "url": WIKI + path, "body": body, "headers": headers or {}}}])
        value = out["outcomes"][0]["value"]
        return value["status"], {k.lower(): v for k, v in value["headers"]}, bytes(value["body"]).decode()

    return run, http


def state(world: World) -> dict:
    return world.runtime.network.services["office-wiki"]


FORM = {"Content-Type": "application/x-www-form-urlencoded"}
JSON_BODY = {"Content-Type": "application/json"}


# -- reading ----------------------------------------------------------------------------------

def test_an_empty_wiki_has_a_usable_home_page():
    d = copy.deepcopy(load_world("small-office"))
    d["services"][0]["initial_state"] = {}
    run, _ = shell(World(d))
    home = run(f"curl -s {WIKI}/")
    assert '<p id="no-pages">This wiki has no pages yet.</p>' in home
    assert '<form id="create-form" action="/edit" method="get">' in home
    assert "<title>Wiki</title>" in home
    assert run(f"curl -s {WIKI}/api/pages") == '{"pages": []}'


def test_a_page_renders_links_red_links_headings_lists_and_external_links():
    run, _ = shell(World(definition()))
    page = run(f"curl -s {WIKI}/wiki/Main_Page")
    assert "<title>Main Page — Office wiki</title>" in page
    assert '<h1 id="page-title">Main Page</h1>' in page
    assert '<p id="text-1">Welcome to the</p>\n<a id="link-1" href="/wiki/Handbook">Handbook</a>\n' in page
    assert '<a id="redlink-2" href="/edit/Guest_wifi?redlink=1">Wi-Fi</a>' in page
    assert '<h2 id="section-1">Rooms</h2>' in page
    assert '<li><a id="redlink-3" href="/edit/Kitchen?redlink=1">Kitchen rules</a></li>' in page
    assert '<li><p id="list-4-item-2">no pets</p></li>' in page
    assert '<p id="text-5">Ask</p>\n<a id="extlink-4" href="http://help.example/">the desk</a>' in page
    assert '<p id="last-edited">This page was last edited on 2026-09-17 09:00 by system.</p>' in page
    # the Handbook links back: "What links here"
    assert '<a id="backlink-1" href="/wiki/Handbook">Handbook</a>' in page
    # titles are normalized: main_Page is Main Page (only the first letter is folded)
    assert '<h1 id="page-title">Main Page</h1>' in run(f"curl -s {WIKI}/wiki/main_Page")


def test_a_missing_page_is_404_with_a_create_link_and_the_api_says_404():
    run, http = shell(World(definition()))
    out = run(f"curl -s -i {WIKI}/wiki/Kitchen")
    assert out.startswith("HTTP/1.1 404 Not Found")
    assert '<a id="create-link" href="/edit/Kitchen">Create the page &#x27;Kitchen&#x27;</a>' in out
    assert http("GET", "/api/pages/Kitchen")[0::2] == (404, '{"error": "there is no page \'Kitchen\'"}')
    assert http("GET", "/history/Kitchen")[0] == 404


# -- editing ----------------------------------------------------------------------------------

def test_a_signed_in_edit_creates_a_revision_with_history_old_revisions_and_recent_changes():
    world = World(definition())
    run, _ = shell(world)
    out = run(f"curl -s -i -u ada:pw -d 'text=Kitchen: clean up.' -d 'summary=new page' {WIKI}/edit/Kitchen")
    assert out.startswith("HTTP/1.1 303 See Other") and "Location: /wiki/Kitchen\r\n" in out
    out = run(f"curl -s -u bob:pw2 -d 'text=Kitchen: clean up. See [[Handbook]].' -d summary=link -d base=3 {WIKI}/edit/Kitchen")
    assert out == ""
    # the red link on the main page is blue now
    assert '<a id="link-3" href="/wiki/Kitchen">Kitchen rules</a>' in run(f"curl -s {WIKI}/wiki/Main_Page")
    history = run(f"curl -s {WIKI}/history/Kitchen")
    assert history.index('id="rev-4"') < history.index('id="rev-3"')
    assert '<p id="rev-4-user">bob</p></td><td><p id="rev-4-summary">link</p></td><td><p id="rev-4-size">36 bytes</p>' in history
    assert '<p id="rev-3-user">ada</p></td><td><p id="rev-3-summary">new page</p></td><td><p id="rev-3-size">18 bytes</p>' in history
    old = run(f"curl -s '{WIKI}/wiki/Kitchen?oldid=3'")
    assert "This is an old revision of this page, as edited by ada" in old and "(revision 3)" in old
    assert '<p id="text-1">Kitchen: clean up.</p>' in old
    assert '<p id="last-edited">This page was last edited on' in old and "by bob.</p>" in old
    recent = json.loads(run(f"curl -s {WIKI}/api/recent"))["changes"]
    assert [(c["title"], c["revision"], c["author"], c["summary"]) for c in recent] == [
        ("Kitchen", 4, "bob", "link"), ("Kitchen", 3, "ada", "new page"), ("Handbook", 2, "ada", "Created page"),
        ("Main Page", 1, "system", "Created page")]
    assert '<a id="change-4" href="/wiki/Kitchen?oldid=4">Kitchen</a>' in run(f"curl -s {WIKI}/recent")
    page = json.loads(run(f"curl -s {WIKI}/api/pages/Kitchen"))
    assert (page["text"], page["revision"], page["links"], [h["revision"] for h in page["history"]]) == (
        "Kitchen: clean up. See [[Handbook]].", 4, ["Handbook"], [4, 3])


def test_the_edit_form_is_prefilled_and_a_cookie_session_edits_too():
    world = World(definition())
    _, http = shell(world)
    status, headers, _ = http("POST", "/login", "username=ada&password=pw", FORM)
    sid = headers["set-cookie"].split(";")[0]
    status, _, form = http("GET", "/edit/Handbook", headers={"Cookie": sid})
    assert status == 200 and "<h1 id=\"edit-title\">Editing Handbook</h1>" in form
    assert '<textarea id="edit-text" name="text" rows="20">How we work. Back to [[Main Page]].</textarea>' in form
    assert '<input id="edit-base" type="hidden" name="base" value="2">' in form
    status, headers, _ = http("POST", "/edit/Handbook", "text=How+we+work%21&base=2", {**FORM, "Cookie": sid})
    assert (status, headers["location"]) == (303, "/wiki/Handbook")
    assert state(world)["revisions"]["3"] == {"id": 3, "title": "Handbook", "text": "How we work!", "author": "ada",
                                              "at_us": state(world)["revisions"]["3"]["at_us"], "summary": ""}


def test_anonymous_visitors_sign_in_first_unless_anonymous_edits_are_on():
    world = World(definition())
    run, http = shell(world)
    before = state(world)
    out = run(f"curl -s -i -d 'text=spam' {WIKI}/edit/Kitchen")
    assert out.startswith("HTTP/1.1 303") and "Location: /login?next=/edit/Kitchen\r\n" in out
    assert http("POST", "/api/pages/Kitchen", '{"text": "spam"}', JSON_BODY)[0::2] == (401, '{"error": "sign in first"}')
    assert http("POST", "/api/pages/Kitchen", '{"text": "x"}', {**JSON_BODY, "Authorization": "Basic YWRhOm5v"})[0] == 401
    assert state(world) is before

    open_world = World(definition(anonymous_edits=True))
    run, _ = shell(open_world)
    form = run(f"curl -s {WIKI}/edit/Kitchen")
    assert "Creating Kitchen" in form and "Your edit will be attributed to reception." in form
    run(f"curl -s -d 'text=Wipe the table.' {WIKI}/edit/Kitchen")
    assert json.loads(run(f"curl -s {WIKI}/api/pages/Kitchen"))["author"] == "reception"


def test_an_edit_on_one_machine_reaches_another_only_through_its_own_request():
    world = World(definition())
    alice, _ = shell(world, "reception")
    bob, _ = shell(world, "legal-laptop")
    assert bob(f"curl -s -o /dev/null -w '%{{http_code}}' {WIKI}/wiki/Kitchen") == "404"
    alice(f"curl -s -u ada:pw -d 'text=Fridge is cleaned on Fridays.' {WIKI}/edit/Kitchen")
    assert '<p id="text-1">Fridge is cleaned on Fridays.</p>' in bob(f"curl -s {WIKI}/wiki/Kitchen")


def test_the_json_api_creates_and_edits_and_a_null_edit_makes_no_revision():
    world = World(definition())
    _, http = shell(world)
    auth = {**JSON_BODY, "Authorization": "Basic YWRhOnB3"}  # ada:pw
    status, _, body = http("POST", "/api/pages/Kitchen", '{"text": "one", "summary": "s"}', auth)
    assert (status, json.loads(body)) == (201, {"title": "Kitchen", "revision": 3, "created": True, "changed": True})
    status, _, body = http("POST", "/api/pages/Kitchen", '{"text": "one\\n"}', auth)
    assert (status, json.loads(body)) == (200, {"title": "Kitchen", "revision": 3, "created": False, "changed": False})
    assert state(world)["next_rev"] == 4
    pages = json.loads(http("GET", "/api/pages")[2])["pages"]
    assert [(p["title"], p["revision"], p["length"]) for p in pages] == [("Handbook", 2, 35), ("Kitchen", 3, 3), ("Main Page", 1, 144)]


def test_an_edit_from_an_old_base_is_a_conflict_and_changes_nothing():
    world = World(definition())
    run, _ = shell(world)
    run(f"curl -s -u ada:pw -d 'text=v2' -d base=2 {WIKI}/edit/Handbook")
    before = state(world)
    out = run(f"curl -s -i -u bob:pw2 -d 'text=mine' -d base=2 {WIKI}/edit/Handbook")
    assert out.startswith("HTTP/1.1 409")
    assert "edit conflict: &#x27;Handbook&#x27; was changed (now revision 3) since revision 2" in out
    assert state(world) is before


@pytest.mark.parametrize(("method", "path", "body", "status", "message"), [
    ("POST", "/edit/Kitchen", "summary=x", 400, "the field 'text' is required"),
    ("POST", "/edit/Kit%5Bchen", "text=x", 400, "bad title 'Kit[chen': a title may not contain '['"),
    ("POST", "/edit/Kitchen", "text=x&base=two", 400, "the field 'base' is a revision number, got 'two'"),
    ("GET", "/wiki/Handbook?oldid=x", "", 400, "oldid is a revision number, got 'x'"),
    ("GET", "/wiki/Handbook?oldid=1", "", 404, "page 'Handbook' has no revision 1"),
    ("GET", "/edit?title=", "", 400, "the field 'title' is required"),
    ("POST", "/api/pages/Kitchen", '{"text": 5}', 400, "the field 'text' is text"),
    ("POST", "/api/pages/Kitchen", '["text"]', 400, 'the body is a JSON object {"text": ..., "summary"?: ..., "base"?: ...}'),
    ("POST", "/api/pages/Kitchen", "{", 400, "the body is not JSON"),
])
def test_malformed_requests_are_answered_with_a_message_and_change_nothing(method, path, body, status, message):
    service = SERVICE_KINDS["wiki"]
    st = service.initial({"users": [{"name": "ada", "password": "pw"}], "pages": PAGES}, "x")
    headers = Headers((("Content-Type", "application/json" if path.startswith("/api") else "application/x-www-form-urlencoded"),
                       ("Authorization", "Basic YWRhOnB3"), ("Accept", "application/json")))
    response, after = service.handle(st, Request(method, parse_url(WIKI + path), headers, body.encode()), "reception", 0)
    assert response.status == status
    assert message.replace("'", "&#x27;").replace('"', "&quot;") in response.body.decode() if body == "{" else \
        json.loads(response.body)["error"].startswith(message)
    assert after is st


def test_search_finds_titles_and_text_and_offers_to_create_a_page():
    run, _ = shell(World(definition()))
    out = run(f"curl -s '{WIKI}/search?q=handbook'")
    assert '<a id="exact-match" href="/wiki/Handbook">There is a page named &#x27;Handbook&#x27; on this wiki.</a>' in out
    assert out.index('id="result-1" href="/wiki/Handbook"') < out.index('id="result-2" href="/wiki/Main_Page"')
    assert '<p id="result-2-snippet">Welcome to the Handbook and the Wi-Fi.</p>' in out
    none = run(f"curl -s '{WIKI}/search?q=zebra+crossing'")
    assert '<p id="no-results">There were no results matching the query.</p>' in none
    assert '<a id="create-link" href="/edit/Zebra_crossing">' in none
    assert run(f"curl -s -o /dev/null -w '%{{http_code}} %{{url_effective}}' -L '{WIKI}/search?q='") == f"200 {WIKI}/"


# -- state ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("change", "where"), [
    ({"pages": [{"title": "A", "text": "x"}, {"title": "a", "text": "y"}]}, r"initial_state\.pages\[1\]\.title: 'A' is listed twice"),
    ({"pages": [{"title": "A"}]}, r"initial_state\.pages\[0\]\.text: required"),
    ({"pages": [{"title": "A|B", "text": ""}]}, r"initial_state\.pages\[0\]\.title: a title may not contain '\|'"),
    ({"pages": [{"title": "A", "text": "", "body": ""}]}, r"initial_state\.pages\[0\]\.body: unknown field"),
    ({"anonymous_edits": "yes"}, r"initial_state\.anonymous_edits: expected bool"),
    ({"pages": "Main Page"}, r"initial_state\.pages: expected list or dict"),
    ({"next_rev": 3}, r"initial_state\.next_rev: only in a built state"),
])
def test_a_malformed_initial_state_is_refused_naming_its_path(change, where):
    with pytest.raises(ValueError, match=r"\$\.services\[0\]\." + where):
        World(definition(**change))


def test_a_built_state_is_accepted_again_unchanged_and_a_tampered_one_is_not():
    world = World(definition())
    run, _ = shell(world)
    run(f"curl -s -u ada:pw -d 'text=new' {WIKI}/edit/Kitchen")
    built = state(world)
    assert SERVICE_KINDS["wiki"].initial(copy.deepcopy(built), "x", world.runtime.definition) == built
    bad = {**copy.deepcopy(built), "pages": {**built["pages"], "Kitchen": [1]}}
    with pytest.raises(ValueError, match=r"x\.pages\.Kitchen: a non-empty list of ids of this page's revisions"):
        SERVICE_KINDS["wiki"].initial(bad, "x")
    again = World(definition())
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


def test_a_snapshot_and_a_fork_keep_the_page_as_it_was():
    world = World(definition())
    run, _ = shell(world)
    run(f"curl -s -u ada:pw -d 'text=one' {WIKI}/edit/Kitchen")
    snap = world.snapshot()
    run(f"curl -s -u ada:pw -d 'text=two' {WIKI}/edit/Kitchen")
    fork = world.fork(snap)
    fork_run, _ = shell(fork)
    assert json.loads(fork_run(f"curl -s {WIKI}/api/pages/Kitchen"))["text"] == "one"
    assert json.loads(run(f"curl -s {WIKI}/api/pages/Kitchen"))["text"] == "two"
    world.restore(snap)
    assert state(world)["pages"]["Kitchen"] == [3]


def test_replaying_the_same_steps_gives_the_same_state_hash():
    world = World(definition(), seed=4)
    run, _ = shell(world)
    run(f"curl -s -u ada:pw -d 'text=one' {WIKI}/edit/Kitchen")
    run(f"curl -s -u bob:pw2 -d 'text=two' -d summary=again {WIKI}/edit/Kitchen")
    again = replay(definition(), 4, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["office-wiki"]["pages"]["Kitchen"] == [3, 4]


def test_titles_and_links_helpers():
    assert normalize_title("  guest__wifi ") == "Guest wifi"
    assert page_url("Guest wifi/2024", "history") == "/history/Guest_wifi/2024"
    assert links_of("[[a]] [[A|x]] [[b#Top]] [[<bad>]] [http://x y]") == ["A", "B"]
