"""The forum kind end to end: communities, threads by score, replies nested one level, one
vote per user per item, accepted answers, ownership (403), private votes, search, JSON,
400s that change nothing, malformed initial_state paths, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.resources import load_world
from cwgym.services.forum import Forum

URL = "http://forum.office.internal:8080"
USERS = [{"name": "grace", "password": "gpw", "display": "Grace Hopper"},
         {"name": "linus", "password": "lpw"}, {"name": "ada", "password": "apw"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
SEEDED = {
    "users": USERS,
    "communities": [
        {"name": "python", "title": "Python", "description": "All things Python", "threads": [
            {"title": "How do I sort a dict by value?", "body": "I have a dict of counts.", "author": "grace", "score": 1,
             "replies": [{"body": "Use sorted(d.items(), key=lambda kv: kv[1]).", "author": "linus", "score": 2,
                          "replies": [{"body": "Thanks, that works!", "author": "grace"}]},
                         {"body": "Or a Counter's most_common().", "author": "ada"}]},
            {"title": "Python 3.13 released", "author": "ada", "score": 1, "at_us": 5},
            {"title": "Best IDE?", "body": "Opinions welcome", "author": "linus", "score": 7},
        ]},
        {"name": "office", "title": "Office talk"},
    ],
}


def definition(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "forum", "kind": "forum", "node": "fileserver", "port": 8080,
                          "domains": ["forum.office.internal"], "initial_state": copy.deepcopy(initial_state)})
    d["network"]["dns"].append({"name": "forum.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
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
        body = ""
        if form is not None:
            body = "&".join(f"{k}={v}" for k, v in form.items())
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


def service_state(world: World):
    return world.runtime.network.services["forum"]


# -- an empty forum ------------------------------------------------------------------------


def test_an_empty_forum_shows_its_home_and_a_user_can_start_a_community():
    world = World(definition(), seed=1)
    run, http = machine(world)
    page = run(f"curl -s {URL}/")["stdout"]
    assert "<title>Forum</title>" in page
    assert '<p id="communities-empty">No communities yet.</p>' in page
    assert 'id="new-community"' not in page  # only a signed-in user may create one
    # sign up, keep the cookie, create a community with it
    out = run(f"curl -s -i -d 'username=nia&password=pw&display=Nia' {URL}/signup")["stdout"]
    sid = next(line for line in out.split("\r\n") if line.startswith("Set-Cookie: sid=")).split("=")[1].split(";")[0]
    assert run(f"curl -s -o /dev/null -w '%{{http_code}} %{{redirect_url}}' -b 'sid={sid}' "
               f"-d 'name=help&title=Help+desk' {URL}/communities")["stdout"].startswith("303")
    assert api(http, "/api/communities") == {"communities": [{"name": "help", "title": "Help desk", "description": "",
                                                              "threads": 0}]}
    assert '<p id="threads-empty">No threads yet. Start one!</p>' in run(f"curl -s {URL}/c/help")["stdout"]


# -- threads, replies and two machines -----------------------------------------------------


def test_a_thread_posted_on_one_machine_is_seen_on_another_only_through_its_own_request():
    world = World(definition(SEEDED), seed=1)
    grace_run, grace = machine(world, "reception")
    _, linus = machine(world, "legal-laptop")
    assert [t["id"] for t in api(linus, "/api/c/office")["threads"]] == []
    result = grace_run(f"curl -s -u grace:gpw -w '%{{http_code}}' -d 'title=Printer+jammed&body=Third+floor' {URL}/c/office/submit")
    assert result["stdout"] == "303"
    seen = api(linus, "/api/c/office", "linus")["threads"]
    assert seen == [{"id": 4, "community": "office", "title": "Printer jammed", "author": "grace", "score": 0,
                     "replies": 0, "posted": seen[0]["posted"], "accepted": None, "url": "/t/4", "your_vote": "none"}]
    status, _ = linus("POST", "/t/4/reply", "linus", {"body": "On+it"})
    assert status == 303
    detail = api(grace, "/api/threads/4")
    assert detail["body"] == "Third floor"
    assert [(r["author"], r["body"], r["parent"]) for r in detail["replies"]] == [("linus", "On it", None)]
    page = grace_run(f"curl -s {URL}/t/4")["stdout"]
    assert '<h1 id="thread-title">Printer jammed</h1>' in page
    assert '<p id="reply-4">On it</p>' in page and '<h2 id="replies-title">1 reply</h2>' in page


def test_threads_sort_by_score_then_newest_and_replies_nest_one_level():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    # scores 1, 1, 7: Best IDE first; the two at 1 newest first (at_us 5 before at_us 0)
    assert [t["id"] for t in api(http, "/api/c/python")["threads"]] == [3, 2, 1]
    assert http("POST", "/c/python/submit", "ada", {"title": "Newest"})[0] == 303
    assert [t["id"] for t in api(http, "/api/c/python")["threads"]] == [3, 2, 1, 4]  # score 0 last
    assert http("POST", "/t/4/vote", "grace", {"dir": "up"})[0] == 303
    assert http("POST", "/t/4/vote", "linus", {"dir": "up"})[0] == 303
    assert [t["id"] for t in api(http, "/api/c/python")["threads"]] == [3, 4, 2, 1]  # 2 ties 1 and 2, newer first
    # a reply to a nested reply joins the same top-level reply
    assert http("POST", "/t/1/reply", "ada", {"body": "Nice", "parent": "2"})[0] == 303
    replies = api(http, "/api/threads/1")["replies"]
    assert [(r["id"], [c["id"] for c in r["replies"]]) for r in replies] == [(1, [2, 4]), (3, [])]
    page = http("GET", "/t/1")[1]
    assert '<p id="reply-4-meta">in reply to linus · ada · score 0 · ' in page


# -- votes -------------------------------------------------------------------------------------


def test_one_vote_per_user_per_item_changeable_and_withdrawable():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)

    def vote(user, path, direction):
        status, text = http("POST", f"/api{path}/vote", user, json_body={"dir": direction})
        assert status == 200, text
        return json.loads(text)

    assert vote("linus", "/threads/1", "up") == {"id": 1, "score": 2, "your_vote": "up"}
    assert vote("linus", "/threads/1", "up") == {"id": 1, "score": 2, "your_vote": "up"}  # twice is still one
    assert vote("linus", "/threads/1", "down") == {"id": 1, "score": 0, "your_vote": "down"}
    assert vote("ada", "/threads/1", "down") == {"id": 1, "score": -1, "your_vote": "down"}
    assert vote("linus", "/threads/1", "clear") == {"id": 1, "score": 0, "your_vote": "none"}
    assert vote("grace", "/replies/1", "up") == {"id": 1, "score": 3, "your_vote": "up"}
    assert api(http, "/api/threads/1", "ada")["your_vote"] == "down"
    assert api(http, "/api/threads/1", "linus")["your_vote"] == "none"
    page = http("GET", "/t/1", "ada")[1]
    assert '<p id="thread-score">Score: 0</p>' in page
    assert '<button id="thread-downvote" type="submit" name="dir" value="down">Downvoted</button>' in page
    assert 'id="thread-vote"' not in http("GET", "/t/1")[1]  # anonymous visitors see no vote buttons


def test_what_a_user_voted_is_visible_to_that_user_only():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    http("POST", "/t/3/vote", "ada", {"dir": "down"})
    http("POST", "/replies/2/vote", "ada", {"dir": "up"})
    assert api(http, "/api/users/ada/votes", "ada") == {"threads": {"3": "down"}, "replies": {"2": "up"}}
    status, text = http("GET", "/u/ada/votes", "grace")
    assert status == 403 and "only ada sees what ada voted" in text
    assert http("GET", "/api/users/ada/votes")[0] == 401
    assert http("GET", "/u/ada/votes")[0] == 303  # to the sign-in page
    assert '<a id="vote-thread-3" href="/t/3">down: Best IDE?</a>' in http("GET", "/u/ada/votes", "ada")[1]


# -- accepted answers and ownership -------------------------------------------------------------


def test_only_the_thread_author_accepts_an_answer_and_it_comes_first():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    status, text = http("POST", "/t/1/accept", "linus", {"reply": "3"})
    assert status == 403 and "only grace, who asked, may accept an answer" in text
    assert http("POST", "/t/1/accept", "grace", {"reply": "2"})[0] == 400  # a nested reply is a comment
    assert http("POST", "/t/1/accept", "grace", {"reply": "9"})[0] == 400
    assert service_state(world) is before
    assert http("POST", "/t/1/accept", "grace", {"reply": "3"})[0] == 303
    detail = api(http, "/api/threads/1")
    assert detail["accepted"] == 3 and [r["id"] for r in detail["replies"]] == [3, 1]  # before the higher score
    assert '<p id="reply-3-accepted"><strong>✓ Accepted answer</strong></p>' in http("GET", "/t/1")[1]
    assert "2026-09-17 09:00 · answered" in http("GET", "/c/python")[1]
    assert http("POST", "/api/threads/1/accept", "grace", json_body={"reply": "none"})[1] == '{"accepted": null, "id": 1}'


def test_authors_edit_and_delete_their_own_posts_and_nobody_elses():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    for method, path in [("GET", "/t/1/edit"), ("POST", "/t/1/edit"), ("POST", "/t/1/delete"),
                         ("GET", "/replies/1/edit"), ("POST", "/replies/1/edit"), ("POST", "/replies/1/delete")]:
        status, text = http(method, path, "ada", {"body": "mine now"})
        assert status == 403 and "only " in text, (method, path)
    assert service_state(world) is before
    assert http("POST", "/t/1/edit", "grace", {"title": "Sort a dict by value", "body": "Solved"})[0] == 303
    assert http("POST", "/replies/3/edit", "ada", {"body": "Counter.most_common()"})[0] == 303
    detail = api(http, "/api/threads/1")
    assert (detail["title"], detail["body"], detail["edited"]) == ("Sort a dict by value", "Solved", True)
    assert http("POST", "/t/1/accept", "grace", {"reply": "1"})[0] == 303
    # deleting the accepted reply leaves [deleted], keeps its child, and clears the acceptance
    assert http("POST", "/replies/1/delete", "linus")[0] == 303
    detail = api(http, "/api/threads/1")
    assert detail["accepted"] is None and detail["replies"][0]["body"] == "Counter.most_common()"
    gone = detail["replies"][1]
    assert (gone["id"], gone["body"], gone["author"], [c["body"] for c in gone["replies"]]) == \
        (1, "[deleted]", None, ["Thanks, that works!"])
    assert http("POST", "/replies/1/vote", "ada", {"dir": "up"})[0] == 404
    # a deleted thread takes its replies with it
    assert http("POST", "/t/1/delete", "grace")[0] == 303
    assert http("GET", "/t/1")[0] == 404
    assert sorted(service_state(world)["replies"]) == []
    assert [t["id"] for t in api(http, "/api/c/python")["threads"]] == [3, 2]


def test_anonymous_visitors_are_sent_to_sign_in_and_api_clients_get_401():
    world = World(definition(SEEDED), seed=1)
    run, http = machine(world)
    out = run(f"curl -s -i -d 'title=x' {URL}/c/python/submit")["stdout"]
    assert out.startswith("HTTP/1.1 303 See Other\r\n") and "Location: /login?next=/c/python/submit\r\n" in out
    assert http("POST", "/api/c/python/threads", json_body={"title": "x"}) == (401, '{"error": "sign in first"}')
    assert http("GET", "/api/c/python/threads", "grace")[0] == 200
    assert run(f"curl -s -o /dev/null -w '%{{http_code}}' -u grace:wrong {URL}/")["stdout"] == "401"


# -- search and people -------------------------------------------------------------------------


def test_search_finds_threads_and_replies_holding_every_word_and_profiles_list_posts():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    found = api(http, "/api/search?q=SORTED+key")
    assert ([t["id"] for t in found["threads"]], [r["id"] for r in found["replies"]]) == ([], [1])
    found = api(http, "/api/search?q=dict")
    assert ([t["id"] for t in found["threads"]], [r["id"] for r in found["replies"]]) == ([1], [])
    page = http("GET", "/search?q=python&c=python")[1]
    assert '<p id="search-summary">1 thread and 0 replies match &#x27;python&#x27;</p>' in page
    assert http("GET", "/search?q=x&c=nowhere")[0] == 404
    assert '<input id="search-q" type="search" name="q">' in http("GET", "/search")[1]
    profile = http("GET", "/u/grace")[1]
    assert '<h1 id="user-title">Grace Hopper</h1>' in profile
    assert '<p id="user-stats">1 point · 1 thread · 1 reply</p>' in profile
    assert http("GET", "/u/nobody")[0] == 404
    assert [t["title"] for t in api(http, "/api/users/linus")["threads"]] == ["Best IDE?"]


# -- malformed requests ----------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "form", "message"), [
    ("POST", "/c/python/submit", {}, "the field &#x27;title&#x27; is required"),
    ("POST", "/c/python/submit", {"title": "x" * 301}, "the field &#x27;title&#x27; is longer than 300 characters"),
    ("POST", "/c/nowhere/submit", {"title": "x"}, "no community named &#x27;nowhere&#x27;"),
    ("POST", "/t/1/reply", {"body": "+"}, "the field &#x27;body&#x27; is required"),
    ("POST", "/t/1/reply", {"body": "x", "parent": "abc"}, "the field &#x27;parent&#x27; is a reply number, not &#x27;abc&#x27;"),
    ("POST", "/t/2/reply", {"body": "x", "parent": "1"}, "the thread has no reply 1"),
    ("POST", "/t/1/vote", {"dir": "sideways"}, "the field &#x27;dir&#x27; is up, down or clear, not &#x27;sideways&#x27;"),
    ("POST", "/t/1/vote", {}, "the field &#x27;dir&#x27; is required"),
    ("GET", "/t/abc", None, "&#x27;abc&#x27; is not a number"),
    ("POST", "/communities", {"name": "no spaces"}, "a community name is 2 to 32 letters, digits, &#x27;-&#x27; or &#x27;_&#x27;"),
    ("POST", "/communities", {"name": "python"}, "the community &#x27;python&#x27; exists"),
])
def test_a_malformed_request_is_refused_with_a_message_and_changes_nothing(method, path, form, message):
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    before = service_state(world)
    status, text = http(method, path, "grace", form)
    assert status in (400, 404, 409) and f'<p id="error-message">{message}</p>' in text
    assert service_state(world) is before


def test_a_bad_json_body_is_400_in_json():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    status, text = http("POST", "/api/threads/1/vote", "grace", json_body={"dir": 5})
    assert (status, json.loads(text)) == (400, {"error": "the field 'dir' is up, down or clear, not '5'"})


# -- initial_state ------------------------------------------------------------------------------


@pytest.mark.parametrize(("state", "path"), [
    ({"communities": {}}, r"initial_state\.communities: a list"),
    ({"communities": [{"title": "x"}]}, r"initial_state\.communities\[0\]\.name: required"),
    ({"communities": [{"name": "a b"}]}, r"initial_state\.communities\[0\]\.name: 2 to 32"),
    ({"communities": [{"name": "ab"}, {"name": "ab"}]}, r"initial_state\.communities\[1\]\.name: 'ab' is listed twice"),
    ({"communities": [{"name": "ab", "threads": [{"title": "t", "author": "zed"}]}]},
     r"initial_state\.communities\[0\]\.threads\[0\]\.author: no user named 'zed'"),
    ({"communities": [{"name": "ab", "threads": [{"title": "t", "author": "grace", "score": "3"}]}]},
     r"initial_state\.communities\[0\]\.threads\[0\]\.score: expected int, got str"),
    ({"communities": [{"name": "ab", "threads": [{"title": "t", "author": "grace", "replies": [{"body": "b", "author": "grace",
                                                  "replies": [{"body": "c", "author": "grace", "replies": []}]}]}]}]},
     r"initial_state\.communities\[0\]\.threads\[0\]\.replies\[0\]\.replies\[0\]\.replies: replies nest one level only"),
    ({"communities": [{"name": "ab", "threads": [{"title": "t", "author": "grace", "accepted": 0}]}]},
     r"initial_state\.communities\[0\]\.threads\[0\]\.accepted: the index of one of its 0 top-level replies"),
    ({"communities": [{"name": "ab", "threads": [{"title": "t", "author": "grace", "replies": [{"author": "grace"}]}]}]},
     r"initial_state\.communities\[0\]\.threads\[0\]\.replies\[0\]\.body: required"),
    ({"threads": {}}, r"initial_state\.threads: only a saved state has it"),
    ({"colour": "red"}, r"initial_state\.colour: unknown field"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(state, path):
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\." + path):
        World(definition({"users": [{"name": "grace", "password": "x"}], **state}), seed=1)


def test_the_kept_state_is_accepted_as_it_is_and_a_broken_one_is_named():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    http("POST", "/t/1/vote", "ada", {"dir": "up"})
    http("POST", "/t/1/accept", "grace", {"reply": "3"})
    kept = json.loads(json.dumps(service_state(world)))
    users, rest = kept["users"], {k: v for k, v in kept.items() if k not in ("users", "sessions", "next_session")}
    assert Forum().validate(copy.deepcopy(rest), "$", users) == rest
    broken = copy.deepcopy(rest)
    broken["threads"]["1"]["accepted"] = 2
    with pytest.raises(ValueError, match=r"^\$\.threads\['1'\]\.accepted: not a top-level reply of this thread"):
        Forum().validate(broken, "$", users)
    broken = copy.deepcopy(rest)
    broken["replies"]["1"]["votes"] = {"ada": 2}
    with pytest.raises(ValueError, match=r"^\$\.replies\['1'\]\.votes\['ada'\]: a user's vote is 1 or -1"):
        Forum().validate(broken, "$", users)


def test_a_snapshot_exported_with_posts_imports_into_a_fresh_world():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    http("POST", "/t/1/vote", "ada", {"dir": "up"})
    other = World(definition(SEEDED), seed=1)
    text = world.export_snapshot()
    other.import_snapshot(text)
    assert other.state_hash() == world.state_hash()
    assert service_state(other) == service_state(world)
    tampered = text.replace('"votes":{"ada":1}', '"votes":{"ada":5}')
    assert tampered != text
    with pytest.raises(ValueError, match=r"network\.services\.forum\.threads\['1'\]\.votes\['ada'\]"):
        World(definition(SEEDED), seed=1).import_snapshot(tampered)


# -- snapshots, forks, replay --------------------------------------------------------------


def test_a_snapshot_keeps_the_forum_as_it_was_and_a_fork_is_its_own():
    world = World(definition(SEEDED), seed=1)
    _, http = machine(world)
    snap = world.snapshot()
    http("POST", "/t/1/vote", "linus", {"dir": "up"})
    http("POST", "/t/1/reply", "ada", {"body": "late answer"})
    http("POST", "/t/3/edit", "linus", {"title": "Best editor?"})
    fork = World.fork(world, snap)
    _, fork_http = machine(fork)
    old = api(fork_http, "/api/threads/1")
    assert (old["score"], len(old["replies"])) == (1, 2)
    assert api(fork_http, "/api/threads/3")["title"] == "Best IDE?"
    fork_http("POST", "/t/1/vote", "grace", {"dir": "down"})
    assert api(fork_http, "/api/threads/1")["score"] == 0
    new = api(http, "/api/threads/1")
    assert (new["score"], len(new["replies"])) == (2, 3)
    assert api(http, "/api/threads/3")["title"] == "Best editor?"


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(definition(SEEDED), seed=3)
    run, http = machine(world)
    run(f"curl -s -u grace:gpw -d 'title=Lunch?' {URL}/c/office/submit")
    http("POST", "/t/4/reply", "linus", {"body": "Noon"})
    http("POST", "/replies/4/vote", "ada", {"dir": "up"})
    http("POST", "/t/4/accept", "grace", {"reply": "4"})
    again = replay(definition(SEEDED), 3, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["forum"] == service_state(world)
    assert service_state(world)["threads"]["4"]["accepted"] == 4
