"""The media kind end to end: browsing by tag and creator, search, plays counted and kept in
history with logical time, likes, playlists (add, remove, reorder; private ones hidden from
others), subscriptions, and state that snapshots, forks and replays."""

from __future__ import annotations

import copy

import pytest
from service_client import SiteClient

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.media import Media, duration

HOST = "http://media.office.internal:8080"
STATE = {
    "users": [{"name": "ann", "password": "pw"}, {"name": "bob", "password": "pw"}],
    "items": [
        {"id": "v1", "kind": "video", "title": "Bread at home", "creator": "Kitchen Lab", "duration_s": 725,
         "tags": ["cooking", "bread"], "description": "A sourdough loaf, step by step."},
        {"id": "t1", "kind": "track", "title": "Night Drive", "creator": "Lo Fi Co", "duration_s": 187, "tags": ["lofi"]},
        {"id": "t2", "kind": "track", "title": "Rain", "creator": "Lo Fi Co", "duration_s": 201, "tags": ["lofi", "rain"],
         "plays": 40},
    ],
    "playlists": [{"owner": "bob", "name": "Secret mix", "items": ["t1"]},
                  {"owner": "bob", "name": "Shared", "public": True, "items": ["t2", "v1"]}],
}


def definition(state=STATE) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "media", "kind": "media", "node": "fileserver", "port": 8080,
                          "domains": ["media.office.internal"], "initial_state": copy.deepcopy(state)})
    d["network"]["dns"].append({"name": "media.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


class Machine(SiteClient):
    host = HOST


def state_of(world: World) -> dict:
    return world.runtime.network.services["media"]


def test_an_empty_catalogue_has_a_home_page():
    world = World(definition({}))
    pc = Machine(world)
    status, html = pc.http("GET", "/")
    assert status == 200 and '<p id="empty">Nothing here yet.</p>' in html
    assert pc.api("GET", "/api/items") == (200, {"items": []})
    assert state_of(world)["playlists"] == {} and state_of(world)["next_playlist"] == 1


def test_durations_read_as_minutes_and_hours():
    assert (duration(187), duration(725), duration(3723)) == ("3:07", "12:05", "1:02:03")


def test_home_browse_by_tag_and_creator_and_search():
    pc = Machine(World(definition()))
    _, html = pc.http("GET", "/")
    assert '<ul id="popular">\n<li><a id="item-t2" href="/watch/t2">Rain — Lo Fi Co (3:21, track)</a></li>' in html
    assert '<a id="creator-lo-fi-co" href="/creators/Lo%20Fi%20Co">Lo Fi Co</a>' in html
    _, html = pc.http("GET", "/tags/lofi")
    assert html.count('<li><a id="item-') == 2 and "item-t1" in html and "item-v1" not in html
    status, html = pc.http("GET", "/creators/Lo%20Fi%20Co")
    assert status == 200 and '<h1 id="creator-title">Lo Fi Co</h1>' in html and "0 subscribers" in html
    assert pc.http("GET", "/tags/jazz")[0] == 404 and pc.http("GET", "/creators/Nobody")[0] == 404
    ids = lambda q: [i["id"] for i in pc.api("GET", f"/api/items?{q}")[1]["items"]]  # noqa: E731
    assert ids("q=rain") == ["t2"]
    assert ids("q=sourdough") == ["v1"]  # the description
    assert ids("kind=track") == ["t1", "t2"]
    assert ids("creator=Lo+Fi+Co&q=night") == ["t1"]
    assert pc.api("GET", "/api/items?kind=podcast") == (400, {"error": "kind is video or track, got 'podcast'"})
    _, html = pc.http("GET", "/search?q=bread")
    assert '<h1 id="results-title">1 result for &quot;bread&quot;</h1>' in html


def test_an_item_page_and_play_counts_with_history_in_logical_time():
    world = World(definition())
    pc = Machine(world)
    _, html = pc.http("GET", "/watch/v1")
    assert '<p id="item-duration">Video · 12:05</p>' in html and '<p id="item-stats">0 plays · 0 likes</p>' in html
    assert pc.http("POST", "/watch/v1/play")[0] == 303  # signed out: counted, no history
    pc.run("sleep 3600")
    status, item = pc.api("POST", "/api/items/v1/play", "ann")
    assert status == 200 and item["plays"] == 2
    pc.http("POST", "/watch/t1/play", "ann")
    history = pc.api("GET", "/api/history", "ann")[1]["history"]
    assert [(h["item"], h["at"]) for h in history] == [("v1", "2026-09-17 10:00"), ("t1", "2026-09-17 10:00")]
    assert history[0]["at_us"] >= 3_600_000_000
    _, html = pc.http("GET", "/history", "ann")
    assert html.index('id="history-2"') < html.index('id="history-1"')  # newest first
    assert pc.api("GET", "/api/history", "bob") == (200, {"history": []})
    assert pc.http("GET", "/history")[0] == 303
    assert pc.http("GET", "/watch/nope")[0] == 404 and pc.http("POST", "/watch/nope/play")[0] == 404


def test_likes_and_subscriptions():
    world = World(definition())
    pc = Machine(world)
    assert pc.http("POST", "/watch/t1/like", "ann")[0] == 303
    assert pc.api("POST", "/api/items/t1/like", "bob")[1]["likes"] == 2
    assert pc.api("POST", "/api/items/t1/unlike", "bob")[1]["likes"] == 1
    assert '<button id="like" type="submit">Liked ✓</button>' in pc.http("GET", "/watch/t1", "ann")[1]
    assert '<a id="liked-t1" href="/watch/t1">' in pc.http("GET", "/liked", "ann")[1]
    assert pc.http("POST", "/watch/t1/like")[0] == 303 and state_of(world)["likes"] == {"ann": ["t1"], "bob": []}
    assert pc.http("POST", "/creators/Lo%20Fi%20Co/subscribe", "ann")[0] == 303
    assert pc.http("POST", "/creators/Nobody/subscribe", "ann")[0] == 404
    assert pc.api("GET", "/api/subscriptions", "ann") == (200, {"subscriptions": ["Lo Fi Co"]})
    _, html = pc.http("GET", "/", "ann")
    assert '<a id="feed-t1" href="/watch/t1">' in html and '<a id="feed-t2" href="/watch/t2">' in html
    assert "1 subscriber" in pc.http("GET", "/creators/Lo%20Fi%20Co", "bob")[1]
    pc.http("POST", "/creators/Lo%20Fi%20Co/unsubscribe", "ann")
    assert pc.api("GET", "/api/subscriptions", "ann") == (200, {"subscriptions": []})


def test_a_playlist_is_created_filled_reordered_and_trimmed():
    world = World(definition())
    pc = Machine(world)
    assert pc.api("POST", "/api/playlists", "ann", js={"name": "Focus", "visibility": "public"}) == \
        (201, {"id": "3", "owner": "ann", "name": "Focus", "public": True, "items": []})
    for item in ("t1", "t2", "v1"):
        assert pc.http("POST", "/playlists/3/add", "ann", form={"item": item})[0] == 303
    assert pc.http("POST", "/playlists/add", "ann", form={"playlist": "3", "item": "v1"})[0] == 409  # already there
    assert pc.http("POST", "/playlists/3/move", "ann", form={"item": "v1", "direction": "up"})[0] == 303
    assert pc.http("POST", "/playlists/3/move", "ann", form={"item": "t1", "direction": "up"})[0] == 400  # already at the top
    assert pc.api("GET", "/api/playlists/3", "ann")[1]["items"] == ["t1", "v1", "t2"]
    _, html = pc.http("GET", "/playlists/3", "ann")
    assert '<p id="playlist-info">By ann · Public · 3 items · 18:33</p>' in html
    assert 'id="entry-t1-down"' in html and 'id="entry-t1-up"' not in html and 'id="entry-t2-down"' not in html
    pc.api("POST", "/api/playlists/3/remove", "ann", js={"item": "t1"})
    pc.api("POST", "/api/playlists/3/move", "ann", js={"item": "v1", "direction": "down"})
    assert pc.api("GET", "/api/playlists/3", "bob")[1]["items"] == ["t2", "v1"]  # public: others may look
    assert pc.http("POST", "/playlists/3/edit", "ann", form={"name": "Deep focus", "visibility": "private"})[0] == 303
    assert pc.api("GET", "/api/playlists", "ann")[1]["playlists"] == [
        {"id": "3", "owner": "ann", "name": "Deep focus", "public": False, "items": ["t2", "v1"]}]
    assert pc.http("POST", "/playlists/3/delete", "ann")[0] == 303
    assert pc.http("GET", "/playlists/3", "ann")[0] == 404


def test_a_private_playlist_is_404_to_others_and_a_public_one_is_403_to_change():
    world = World(definition())
    ann, bob = Machine(world, "reception"), Machine(world, "legal-laptop")
    assert ann.http("GET", "/playlists/1", "ann")[0] == 404
    assert ann.http("GET", "/playlists/1")[0] == 404
    assert bob.api("GET", "/api/playlists/1", "bob")[1]["name"] == "Secret mix"
    before = state_of(world)
    assert ann.http("POST", "/playlists/1/add", "ann", form={"item": "v1"})[0] == 404
    assert ann.api("POST", "/api/playlists/2/add", "ann", js={"item": "t1"}) == (403, {"error": "the playlist 'Shared' belongs to bob"})
    assert ann.http("POST", "/playlists/2/delete", "ann")[0] == 403
    assert state_of(world) is before
    assert ann.http("GET", "/playlists/2")[0] == 200


def test_a_playlist_made_on_one_machine_is_seen_on_another_only_through_its_own_request():
    world = World(definition())
    reception, laptop = Machine(world, "reception"), Machine(world, "legal-laptop")
    assert laptop.api("GET", "/api/playlists", "ann") == (200, {"playlists": []})
    result = reception.run(f"curl -s -i -u ann:pw -d 'name=Road trip&visibility=private' {HOST}/playlists")
    assert result["stdout"].startswith("HTTP/1.1 303 See Other\r\nLocation: /playlists/3\r\n")
    reception.run(f"curl -s -u ann:pw -d item=t1 {HOST}/playlists/3/add")
    status, html = laptop.http("GET", "/playlists/3", "ann")
    assert status == 200 and '<a id="entry-t1" href="/watch/t1">Night Drive — Lo Fi Co (3:07, track)</a>' in html
    assert laptop.http("GET", "/playlists/3", "bob")[0] == 404


@pytest.mark.parametrize(("path", "form", "status", "message"), [
    ("/api/playlists", {"visibility": "public"}, 400, "the field 'name' is required"),
    ("/api/playlists", {"name": "x", "visibility": "friends"}, 400, "visibility is private or public, got 'friends'"),
    ("/api/playlists/2/add", {}, 400, "the field 'item' is required"),
    ("/api/playlists/2/add", {"item": "zzz"}, 400, "no item 'zzz'"),
    ("/api/playlists/2/move", {"item": "t2", "direction": "sideways"}, 400, "direction is up or down, got 'sideways'"),
    ("/api/playlists/2/move", {"item": "t1", "direction": "up"}, 404, "'t1' is not in 'Shared'"),
    ("/api/playlists/2/remove", {"item": "t1"}, 404, "'t1' is not in 'Shared'"),
    ("/api/playlists/99/add", {"item": "t1"}, 404, "no playlist 99"),
])
def test_malformed_playlist_requests_are_refused_with_a_message_and_change_nothing(path, form, status, message):
    world = World(definition())
    pc = Machine(world)
    before = state_of(world)
    assert pc.api("POST", path, "bob", form=form) == (status, {"error": message})
    assert state_of(world) is before


@pytest.mark.parametrize(("bad", "where"), [
    ({"items": [{"id": "a", "kind": "video", "title": "A", "creator": "C"}]}, r"items\[0\]\.duration_s: required"),
    ({"items": [{"id": "a", "kind": "podcast", "title": "A", "creator": "C", "duration_s": 1}]}, r"items\[0\]\.kind: video or track"),
    ({"items": [{"id": "a b", "kind": "video", "title": "A", "creator": "C", "duration_s": 1}]}, r"items\[0\]\.id"),
    ({"items": [{"id": "a", "kind": "video", "title": "A", "creator": "C", "duration_s": 0}]}, r"items\[0\]\.duration_s: more than 0"),
    ({"items": [{"id": "a", "kind": "video", "title": "A", "creator": "C", "duration_s": 1, "tags": "x"}]}, r"items\[0\]\.tags"),
    ({"playlists": [{"owner": "zed", "name": "x"}]}, r"playlists\[0\]\.owner: no such user 'zed'"),
    ({"playlists": [{"owner": "ann", "name": "x", "items": ["nope"]}]}, r"playlists\[0\]\.items\[0\]: no item 'nope'"),
    ({"playlists": [{"owner": "ann", "name": "x", "public": "yes"}]}, r"playlists\[0\]\.public: expected bool"),
    ({"subscriptions": {"zed": ["C"]}}, r"subscriptions\.zed: no such user"),
])
def test_a_malformed_initial_state_names_the_path(bad, where):
    with pytest.raises((DefinitionError, ValueError), match=rf"\$\.services\[\d+\]\.initial_state\.{where}"):
        World(definition({"users": [{"name": "ann", "password": "pw"}], **bad}))


def test_a_built_state_passes_its_own_check_unchanged():
    world = World(definition())
    pc = Machine(world)
    pc.api("POST", "/api/playlists", "ann", js={"name": "Mine"})
    pc.api("POST", "/api/items/t1/play", "ann")
    pc.api("POST", "/api/items/t1/like", "ann")
    pc.http("POST", "/creators/Kitchen%20Lab/subscribe", "bob")
    state = copy.deepcopy(state_of(world))
    rest = {k: v for k, v in state.items() if k not in ("users", "sessions", "next_session")}
    assert Media().validate(rest, "x", state["users"]) == rest
    assert sorted(state["playlists"]) == ["1", "2", "3"] and state["next_playlist"] == 4


def test_a_snapshot_keeps_the_plays_and_playlists_and_a_fork_goes_its_own_way():
    world = World(definition())
    pc = Machine(world)
    snap = world.snapshot()
    pc.api("POST", "/api/items/t1/play", "ann")
    pc.api("POST", "/api/playlists/2/add", "bob", js={"item": "t1"})
    fork = world.fork(snap)
    other = Machine(fork)
    assert other.api("GET", "/api/items/t1")[1]["plays"] == 0
    assert other.api("GET", "/api/history", "ann") == (200, {"history": []})
    assert other.api("GET", "/api/playlists/2", "bob")[1]["items"] == ["t2", "v1"]
    other.api("POST", "/api/playlists/2/remove", "bob", js={"item": "v1"})
    assert pc.api("GET", "/api/playlists/2", "bob")[1]["items"] == ["t2", "v1", "t1"]
    assert fork.runtime.network.services["media"]["playlists"]["2"]["items"] == ["t2"]
    loaded = World(definition())
    loaded.import_snapshot(world.export_snapshot())
    assert loaded.state_hash() == world.state_hash() and loaded.runtime.network.services["media"] == state_of(world)


def test_replaying_the_same_steps_gives_the_same_state_hash():
    d = definition()
    world = World(d, seed=9)
    pc = Machine(world)
    pc.run(f"curl -s -u ann:pw -X POST {HOST}/watch/t2/play")
    pc.api("POST", "/api/playlists", "ann", js={"name": "Later", "visibility": "public"})
    pc.api("POST", "/api/playlists/3/add", "ann", js={"item": "v1"})
    pc.http("POST", "/creators/Lo%20Fi%20Co/subscribe", "ann")
    again = replay(d, 9, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["media"]["items"]["t2"]["plays"] == 41
