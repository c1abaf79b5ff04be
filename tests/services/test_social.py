"""The social kind end to end: the home feed and the public timeline, posts up to 500
characters, replies and threads, one like per user, follows, profiles with counts, private
likes, deleting own posts (403 otherwise), hashtags, search, JSON, 400s that change
nothing, malformed initial_state paths, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.resources import load_world
from cwgym.services.social import Social, tags_of

URL = "http://social.office.internal:8080"
USERS = [{"name": "grace", "password": "gpw", "display": "Grace Hopper"},
         {"name": "linus", "password": "lpw"}, {"name": "ada", "password": "apw", "display": "Ada"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
SEEDED = {
    "users": USERS,
    "profiles": {"grace": {"bio": "Compilers and #cobol"}},
    "posts": [
        {"author": "grace", "text": "Found a moth in the relay #debugging", "at_us": 100, "likes": ["linus"]},
        {"author": "linus", "text": "@grace frame it!", "at_us": 200, "reply_to": 1},
        {"author": "ada", "text": "Notes on the engine", "at_us": 300},
        {"author": "linus", "text": "Kernel release tonight #linux", "at_us": 400},
    ],
    "follows": [["grace", "linus"]],
}


def definition(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "social", "kind": "social", "node": "fileserver", "port": 8080,
                          "domains": ["social.office.internal"], "initial_state": copy.deepcopy(initial_state)})
    d["network"]["dns"].append({"name": "social.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def machine(world: World, name: str = "reception"):
    """``(run, http)`` for one machine: a shell command, and an http.v1 request as ``user``."""
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def run(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(method: str, path: str, user: str | None = None, form: dict | None = None, json_body=None) -> tuple[int, str]:
        headers = {}
        if user:
            token = base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()
            headers["Authorization"] = f"Basic {token}"
        body = "&".join(f"{k}={v}" for k, v in (form or {}).items())
        if json_body is not None:
            body, headers["Content-Type"] = json.dumps(json_body), "application/json"
        out = env.step([{"family": "http.v1", "op": "request", "machine": name,
                         "payload": {"method": method, "url": URL + path, "headers": headers, "body": body}}])
        value = out["outcomes"][0]["value"]
        return value["status"], bytes(value["body"]).decode()

    return run, http


def api(http, path: str, user: str | None = None):
    status, text = http("GET", path, user)
    assert status == 200, text
    return json.loads(text)


def ids(data: dict, key: str = "posts") -> list[int]:
    return [p["id"] for p in data[key]]


def service_state(world: World):
    return world.runtime.network.services["social"]


# -- empty ---------------------------------------------------------------------------------------


def test_an_empty_network_shows_the_public_timeline_and_a_new_user_posts_first():
    world = World(definition(), seed=1)
    run, http = machine(world)
    page = run(f"curl -s {URL}/")["stdout"]
    assert "<title>Social</title>" in page and '<p id="public-empty">No posts yet.</p>' in page
    assert 'id="compose-form"' not in page
    out = run(f"curl -s -i -d 'username=nia&password=pw' {URL}/signup")["stdout"]
    sid = next(line for line in out.split("\r\n") if line.startswith("Set-Cookie: sid=")).split("=")[1].split(";")[0]
    home = run(f"curl -s -b 'sid={sid}' {URL}/")["stdout"]
    assert '<h1 id="home-title">Home</h1>' in home and 'id="feed-empty"' in home and 'id="compose-form"' in home
    result = run(f"curl -s -b 'sid={sid}' -w '%{{http_code}} %{{redirect_url}}' -d 'text=hello+world' {URL}/posts")
    assert result["stdout"].startswith("303")
    assert [(p["id"], p["author"], p["text"]) for p in api(http, "/api/public")["posts"]] == [(1, "nia", "hello world")]


# -- feed, timeline, two machines ----------------------------------------------------------------


def test_the_home_feed_holds_own_and_followed_posts_newest_first_and_the_public_timeline_all():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    assert ids(api(http, "/api/timeline", "grace")) == [4, 2, 1]  # linus's and her own, not ada's
    assert ids(api(http, "/api/timeline", "ada")) == [3]
    assert ids(api(http, "/api/public")) == [4, 3, 2, 1]
    assert http("GET", "/api/timeline") == (401, '{"error": "sign in first"}')
    page = http("GET", "/", "grace")[1]
    assert page.index('id="post-4"') < page.index('id="post-2"') < page.index('id="post-1"') and 'id="post-3"' not in page
    assert '<h1 id="public-title">Public timeline</h1>' in http("GET", "/")[1]


def test_a_post_from_one_machine_reaches_another_only_through_its_own_request():
    world = World(definition(SEEDED), seed=1)
    linus_run, _ = machine(world, "legal-laptop")
    _, grace = machine(world, "reception")
    assert ids(api(grace, "/api/timeline", "grace")) == [4, 2, 1]
    result = linus_run(f"curl -s -u linus:lpw -H 'Content-Type: application/json' -d '{{\"text\": \"Merged #linux\"}}' {URL}/api/posts")
    post = json.loads(result["stdout"])
    assert {k: post[k] for k in ("id", "author", "text", "likes", "replies", "reply_to", "tags", "url")} == \
        {"id": 5, "author": "linus", "text": "Merged #linux", "likes": 0, "replies": 0, "reply_to": None,
         "tags": ["linux"], "url": "/posts/5"}
    assert ids(api(grace, "/api/timeline", "grace")) == [5, 4, 2, 1]
    assert '<p id="post-5">Merged #linux</p>' in grace("GET", "/", "grace")[1]


def test_a_post_over_500_characters_is_400_and_exactly_500_is_fine():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    status, text = http("POST", "/posts", "ada", {"text": "x" * 501})
    assert status == 400 and "the field &#x27;text&#x27; is longer than 500 characters" in text
    assert http("POST", "/api/posts", "ada", json_body={"text": "   "}) == (400, '{"error": "the field \'text\' is required"}')
    assert service_state(world) is before
    assert http("POST", "/posts", "ada", {"text": "é" * 500})[0] == 303  # characters, not bytes
    assert len(api(http, "/api/posts/5")["text"]) == 500


# -- replies, likes, follows ---------------------------------------------------------------------


def test_replies_form_a_thread_view_with_what_they_answer():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    assert http("POST", "/posts/2/reply", "grace", {"text": "Will do"})[0] == 303
    assert http("POST", "/posts", "ada", {"text": "Me too", "reply_to": "1"})[0] == 303
    detail = api(http, "/api/posts/1")
    assert (detail["replies"], [(p["id"], p["author"]) for p in detail["thread"]]) == (2, [(2, "linus"), (6, "ada")])
    page = http("GET", "/posts/5", "ada")[1]
    # the chain above it, then the post, then the reply form
    assert page.index('id="context-1"') < page.index('id="context-2"') < page.index('<p id="post-5">Will do</p>')
    assert '<a id="post-5-replying" href="/posts/2">Replying to @linus</a>' in page
    assert '<form id="reply-form" action="/posts/5/reply" method="post">' in page
    assert http("POST", "/posts/99/reply", "ada", {"text": "x"})[0] == 404
    assert http("POST", "/posts", "ada", {"text": "x", "reply_to": "99"})[0] == 404


def test_one_like_per_user_and_unlike():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)

    def like(user, verb):
        status, text = http("POST", f"/api/posts/1/{verb}", user)
        assert status == 200, text
        return json.loads(text)

    assert like("ada", "like") == {"id": 1, "likes": 2, "liked": True}
    assert like("ada", "like") == {"id": 1, "likes": 2, "liked": True}
    assert like("linus", "unlike") == {"id": 1, "likes": 1, "liked": False}
    assert like("linus", "unlike") == {"id": 1, "likes": 1, "liked": False}
    assert service_state(world)["posts"]["1"]["likes"] == ["ada"]
    assert api(http, "/api/posts/1", "ada")["liked"] is True and api(http, "/api/posts/1", "grace")["liked"] is False
    # the form goes back to where it was sent from
    status, _ = http("POST", "/posts/3/like", "grace", {"next": "/public"})
    assert status == 303
    page = http("GET", "/public", "grace")[1]
    assert '<a id="post-3-link" href="/posts/3">2026-09-17 09:00 · 1 like · 0 replies</a>' in page
    assert '<button id="post-3-unlike-button" type="submit">Unlike</button>' in page


def test_follow_and_unfollow_change_the_feed_and_the_profile_counts():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    page = http("GET", "/@linus", "ada")[1]
    assert '<a id="profile-following" href="/@linus/following">0 Following</a>' in page
    assert '<a id="profile-followers" href="/@linus/followers">1 Follower</a>' in page
    assert '<p id="profile-posts">2 posts</p>' in page and 'id="profile-follow"' in page
    assert http("POST", "/@linus/follow", "ada")[0] == 303
    assert http("POST", "/@linus/follow", "ada")[0] == 303  # following twice is following
    assert ids(api(http, "/api/timeline", "ada")) == [4, 3, 2]
    assert api(http, "/api/users/linus/followers") == {"user": "linus", "followers": ["ada", "grace"]}
    assert api(http, "/api/users/ada", "linus")["follows_you"] is True
    assert '2 Followers' in http("GET", "/@linus", "ada")[1] and 'id="profile-unfollow"' in http("GET", "/@linus", "ada")[1]
    assert http("POST", "/api/users/linus/unfollow", "ada", json_body={})[1] == \
        '{"followers": 1, "user": "linus", "you_follow": false}'
    assert ids(api(http, "/api/timeline", "ada")) == [3]
    assert service_state(world)["follows"] == [["grace", "linus"]]
    status, text = http("POST", "/@ada/follow", "ada")
    assert status == 400 and "you cannot follow yourself" in text
    assert http("POST", "/@nobody/follow", "ada")[0] == 404


def test_a_profile_shows_the_bio_and_its_owner_edits_it():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    page = http("GET", "/@grace")[1]
    assert '<h1 id="profile-title">Grace Hopper</h1>' in page and '<p id="profile-bio">Compilers and #cobol</p>' in page
    assert http("GET", "/@nobody")[0] == 404
    assert http("POST", "/settings/profile", "grace", {"bio": "Rear admiral", "display": "Adm. Hopper"})[0] == 303
    info = api(http, "/api/users/grace")
    assert (info["display"], info["bio"], info["posts"], info["following"], info["followers"]) == \
        ("Adm. Hopper", "Rear admiral", 1, 1, 0)
    status, text = http("POST", "/settings/profile", "grace", {"bio": "x" * 161})
    assert status == 400 and "longer than 160 characters" in text
    assert http("GET", "/settings/profile")[0] == 303  # to sign in


# -- ownership and privacy --------------------------------------------------------------------


def test_only_the_author_deletes_a_post_and_replies_to_it_stay():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    status, text = http("POST", "/posts/1/delete", "linus")
    assert status == 403 and "only @grace may delete this post" in text
    assert http("DELETE", "/api/posts/1", "ada") == (403, '{"error": "only @grace may delete this post"}')
    assert service_state(world) is before
    assert http("DELETE", "/api/posts/1", "grace") == (200, '{"deleted": 1}')
    assert http("GET", "/posts/1")[0] == 404
    assert '<p id="post-2-replying">Replying to a deleted post</p>' in http("GET", "/posts/2")[1]
    assert ids(api(http, "/api/public")) == [4, 3, 2]


def test_which_posts_a_user_liked_is_visible_to_that_user_only():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    assert ids(api(http, "/api/users/linus/likes", "linus")) == [1]
    status, text = http("GET", "/@linus/likes", "grace")
    assert status == 403 and "only @linus sees which posts @linus liked" in text
    assert http("GET", "/api/users/linus/likes") == (401, '{"error": "sign in first"}')
    assert 'id="profile-likes"' in http("GET", "/@linus", "linus")[1]
    assert 'id="profile-likes"' not in http("GET", "/@linus", "grace")[1]


# -- hashtags and search --------------------------------------------------------------------------


def test_hashtags_link_to_their_tag_page():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    assert tags_of("#Linux and #linux, a#b, ##x #_y") == ["linux", "_y"]
    page = http("GET", "/posts/4")[1]
    assert '<a id="post-4-tag-linux" href="/tags/linux">#linux</a>' in page
    http("POST", "/posts", "ada", {"text": "Try %23Linux today"})
    assert ids(api(http, "/api/tags/LINUX")) == [5, 4]
    assert '<p id="tag-count">2 posts</p>' in http("GET", "/tags/linux")[1]
    assert http("GET", "/tags/no-dash")[0] == 400
    assert '<a id="post-2-mention-grace" href="/@grace">@grace</a>' in http("GET", "/posts/2")[1]


def test_search_finds_people_and_posts_and_a_hash_searches_a_tag():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    found = api(http, "/api/search?q=grace")
    assert ([u["user"] for u in found["users"]], ids(found)) == (["grace"], [2])
    found = api(http, "/api/search?q=cobol")  # a bio
    assert ([u["user"] for u in found["users"]], ids(found)) == (["grace"], [])
    found = api(http, "/api/search?q=%23debugging")
    assert ([u["user"] for u in found["users"]], ids(found)) == ([], [1])
    page = http("GET", "/search?q=the")[1]
    assert '<p id="search-summary">0 people and 2 posts match &#x27;the&#x27;</p>' in page
    assert '<input id="search-q" type="search" name="q">' in http("GET", "/search")[1]


# -- malformed requests ------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "form", "status", "message"), [
    ("POST", "/posts", {}, 400, "the field &#x27;text&#x27; is required"),
    ("POST", "/posts", {"text": "x", "reply_to": "first"}, 400, "the field &#x27;reply_to&#x27; is a post number, not &#x27;first&#x27;"),
    ("POST", "/posts/abc/like", {}, 400, "a post number, not &#x27;abc&#x27;"),
    ("POST", "/posts/77/like", {}, 404, "no post 77"),
    ("POST", "/posts/1/reply", {"text": "y" * 501}, 400, "the field &#x27;text&#x27; is longer than 500 characters"),
    ("GET", "/tags/a-b", None, 400, "a hashtag is letters, digits and &#x27;_&#x27;, not &#x27;a-b&#x27;"),
    ("POST", "/settings/profile", {"display": "+"}, 400, "the field &#x27;display&#x27; may not be empty"),
    ("PUT", "/posts", None, 405, "PUT is not allowed here (allowed: POST)"),
])
def test_a_malformed_request_is_refused_with_a_message_and_changes_nothing(method, path, form, status, message):
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    got, text = http(method, path, "ada", form)
    assert got == status and f'<p id="error-message">{message}</p>' in text
    assert service_state(world) is before


# -- initial_state ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("state", "path"), [
    ({"posts": [{"author": "zed", "text": "hi"}]}, r"posts\[0\]\.author: no user named 'zed'"),
    ({"posts": [{"author": "grace"}]}, r"posts\[0\]\.text: required"),
    ({"posts": [{"author": "grace", "text": "x" * 501}]}, r"posts\[0\]\.text: longer than 500 characters"),
    ({"posts": [{"author": "grace", "text": "x", "likes": ["grace", "grace"]}]}, r"posts\[0\]\.likes\[1\]: 'grace' likes a post once"),
    ({"posts": [{"author": "grace", "text": "x", "likes": ["zed"]}]}, r"posts\[0\]\.likes\[0\]: no user named 'zed'"),
    ({"posts": [{"author": "grace", "text": "x", "at_us": "noon"}]}, r"posts\[0\]\.at_us: expected int, got str"),
    ({"posts": [{"author": "grace", "text": "x", "reply_to": 1}]}, r"posts\[0\]\.reply_to: the first post replies to none"),
    ({"posts": [{"author": "grace", "text": "x"}, {"author": "grace", "text": "y", "reply_to": 2}]},
     r"posts\[1\]\.reply_to: the number of an earlier post \(1 to 1\)"),
    ({"posts": {}}, r"posts: a list of"),
    ({"follows": [["grace", "zed"]]}, r"follows\[0\]\[1\]: no user named 'zed'"),
    ({"follows": [["grace", "grace"]]}, r"follows\[0\]: 'grace' cannot follow themselves"),
    ({"follows": [["grace", "linus"], ["grace", "linus"]]}, r"follows\[1\]: 'grace' already follows 'linus'"),
    ({"follows": [["grace"]]}, r"follows\[0\]: a pair"),
    ({"follows": 5}, r"follows: expected list, got int"),
    ({"profiles": {"zed": {"bio": "x"}}}, r"profiles\.zed: no user named 'zed'"),
    ({"profiles": {"grace": {"bio": 5}}}, r"profiles\.grace\.bio: expected str, got int"),
    ({"profiles": {"grace": {"mood": "ok"}}}, r"profiles\.grace\.mood: unknown field"),
    ({"next_post": 4}, r"next_post: only a saved state has it"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(state, path):
    users = [{"name": "grace", "password": "x"}, {"name": "linus", "password": "y"}]
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\." + path):
        World(definition({"users": users, **state}), seed=1)


def test_an_empty_or_missing_initial_state_is_a_usable_empty_network():
    for state in (None, {}):
        world = World(definition(state), seed=1)
        assert service_state(world) == {"profiles": {}, "posts": {}, "follows": [], "next_post": 1, "users": {},
                                        "sessions": {}, "next_session": 1}


def test_the_kept_state_is_accepted_as_it_is_and_a_broken_one_is_named():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    http("POST", "/posts/1/like", "ada")
    http("POST", "/posts/4/delete", "linus")
    kept = json.loads(json.dumps(service_state(world)))
    users, rest = kept["users"], {k: v for k, v in kept.items() if k not in ("users", "sessions", "next_session")}
    assert Social().validate(copy.deepcopy(rest), "$", users) == rest
    broken = copy.deepcopy(rest)
    broken["posts"]["1"]["likes"] = ["linus", "ada"]
    with pytest.raises(ValueError, match=r"^\$\.posts\['1'\]\.likes: sorted by name"):
        Social().validate(broken, "$", users)
    broken = copy.deepcopy(rest)
    broken["next_post"] = 3
    with pytest.raises(ValueError, match=r"^\$\.posts\['3'\]\.id: 3 under the key '3' \(ids below next_post 3\)"):
        Social().validate(broken, "$", users)


def test_a_snapshot_exported_with_posts_imports_into_a_fresh_world():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    http("POST", "/posts/1/like", "ada")
    other = World(definition(SEEDED), seed=1)
    text = world.export_snapshot()
    other.import_snapshot(text)
    assert other.state_hash() == world.state_hash()
    assert service_state(other) == service_state(world)
    tampered = text.replace('"follows":[["grace","linus"]]', '"follows":[["grace","grace"]]')
    assert tampered != text
    with pytest.raises(ValueError, match=r"network\.services\.social\.follows\[0\]"):
        World(definition(SEEDED), seed=1).import_snapshot(tampered)


# -- snapshots, forks, replay --------------------------------------------------------------------


def test_a_snapshot_keeps_the_network_as_it_was_and_a_fork_is_its_own():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    snap = world.snapshot()
    http("POST", "/posts", "ada", {"text": "after the snapshot"})
    http("POST", "/posts/1/like", "ada")
    http("POST", "/@linus/follow", "ada")
    http("POST", "/settings/profile", "grace", {"bio": "changed"})
    fork = world.fork(snap)
    _, fork_http = machine(fork)
    assert ids(api(fork_http, "/api/public")) == [4, 3, 2, 1]
    assert api(fork_http, "/api/posts/1")["likes"] == 1
    assert ids(api(fork_http, "/api/timeline", "ada")) == [3]
    assert api(fork_http, "/api/users/grace")["bio"] == "Compilers and #cobol"
    fork_http("POST", "/posts", "linus", {"text": "only in the fork"})
    assert api(fork_http, "/api/posts/5")["text"] == "only in the fork"
    assert api(http, "/api/posts/5")["text"] == "after the snapshot"
    assert api(http, "/api/posts/1")["likes"] == 2 and ids(api(http, "/api/timeline", "ada")) == [5, 4, 3, 2]


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(definition(SEEDED), seed=7)
    run, http = machine(world)
    run(f"curl -s -u ada:apw -d 'text=Hello+%23world' {URL}/posts")
    http("POST", "/posts/5/like", "grace")
    http("POST", "/@ada/follow", "linus")
    http("POST", "/posts/5/reply", "linus", {"text": "Welcome"})
    again = replay(definition(SEEDED), 7, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["social"] == service_state(world)
    assert ids(api(http, "/api/timeline", "linus")) == [6, 5, 4, 3, 2]
