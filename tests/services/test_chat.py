"""The ``chat`` kind end to end through the small office: channels, membership, messages in
order, threads, @mentions, direct messages, editing and deleting, private channels, search,
the JSON API, initial_state checks, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import html
import json
import re

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.chat import Chat
from cwgym.services.framework import timestamp

HOST = "http://chat.office.internal:8095"
USERS = [{"name": "grace", "password": "g-pw", "display": "Grace Hopper"},
         {"name": "linus", "password": "l-pw", "display": "Linus Pauling"},
         {"name": "margaret", "password": "m-pw"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
SEEDED = {
    "users": USERS,
    "channels": [
        {"name": "general", "topic": "Office-wide news",
         "messages": [{"author": "grace", "text": "Doors open at 8", "at_us": 1_000_000},
                      {"author": "linus", "text": "Thanks @grace.", "at_us": 61_000_000,
                       "thread": [{"author": "margaret", "text": "noted", "at_us": 62_000_000}]}]},
        {"name": "legal", "private": True, "members": ["linus", "grace"],
         "messages": [{"author": "linus", "text": "Okafor retainer is 5000", "at_us": 2_000_000}]},
        {"name": "random", "members": ["margaret"]},
    ],
}


def office(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "chat", "kind": "chat", "node": "fileserver", "port": 8095,
                          "domains": ["chat.office.internal"],
                          "initial_state": copy.deepcopy(SEEDED) if initial_state is None else initial_state})
    d["network"]["dns"].append({"name": "chat.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def client(world: World, machine: str = "reception", user: str | None = "grace"):
    """``call(method, path, body?, json?)`` -> ``(status, headers, text)`` with http.v1 from
    ``machine``, as ``user`` (HTTP Basic) or signed out."""
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["http.v1", "terminal.v1"],
                             "observations": []})

    def call(method: str, path: str, body: str = "", json_body=None, headers=None) -> tuple[int, dict, str]:
        h = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        if json_body is not None:
            h["Content-Type"], body = "application/json", json.dumps(json_body)
        if user is not None:
            h["Authorization"] = "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()
        out = env.step([{"family": "http.v1", "op": "request", "machine": machine,
                         "payload": {"method": method, "url": HOST + path, "headers": h, "body": body}}])
        outcome = out["outcomes"][0]
        assert outcome["success"], outcome
        v = outcome["value"]
        return v["status"], {k.lower(): val for k, val in v["headers"]}, bytes(v["body"]).decode()

    def sh(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    call.sh = sh  # type: ignore[attr-defined]
    return call


def text(page: str, eid: str) -> str | None:
    """The text of the element with id ``eid`` (None when the page has none)."""
    m = re.search(rf'id="{re.escape(eid)}"[^>]*>(?:<strong>)?([^<]*)<', page)
    return None if m is None else html.unescape(m.group(1))


def ids(page: str, pattern: str) -> list[str]:
    return re.findall(rf'id="({pattern})"', page)


def state(world: World) -> dict:
    return world.runtime.network.services["chat"]


# -- home and channels -------------------------------------------------------------------------

def test_an_empty_service_welcomes_then_lets_a_user_create_a_channel():
    world = World(office({"users": USERS}))
    anonymous = client(world, user=None)
    status, _, page = anonymous("GET", "/")
    assert (status, text(page, "team-title"), text(page, "welcome")) == (200, "Chat", "Sign in to read and post messages with your team.")
    assert anonymous("GET", "/channels")[:2][0] == 303  # to the sign-in page
    grace = client(world)
    _, _, page = grace("GET", "/")
    assert text(page, "no-channels") == "You are in no channel yet." and text(page, "no-dms") == "No direct messages yet."
    status, headers, _ = grace("POST", "/channels", "name=Project+X&topic=Launch+plan")
    assert (status, headers["location"]) == (303, "/c/project-x")
    assert state(world)["channels"] == {"project-x": {"private": False, "topic": "Launch plan", "members": ["grace"], "messages": []}}
    _, _, page = grace("GET", "/")
    assert ids(page, "channel-[a-z-]+") == ["channel-project-x"]
    _, _, page = grace("GET", "/c/project-x")
    assert (text(page, "channel-title"), text(page, "channel-info"), text(page, "no-messages")) == \
        ("#project-x", "Public channel · 1 member", "No messages yet.")
    assert grace("POST", "/channels", "name=project-x")[0] == 409


def test_the_channel_list_shows_public_channels_and_private_ones_you_are_in():
    world = World(office())
    _, _, page = client(world, user="margaret")("GET", "/channels")
    assert ids(page, "browse-(?!title)[a-z]+") == ["browse-general", "browse-random"]
    assert text(page, "browse-general-topic") == "Office-wide news" and text(page, "browse-random-joined") == "Joined"
    assert ids(page, "browse-general-join") == []  # margaret is in #general (members default to everyone)
    _, _, page = client(world, user="linus")("GET", "/channels")
    assert ids(page, "browse-(?!title)[a-z]+") == ["browse-general", "browse-legal", "browse-random"]
    assert text(page, "browse-legal-visibility") == "Private" and ids(page, "browse-random-join") == ["browse-random-join"]
    _, _, home = client(world, user="linus")("GET", "/")
    assert ids(home, "channel-[a-z]+") == ["channel-general", "channel-legal"]
    assert text(home, "channel-legal") == "#legal (private)"


def test_messages_are_listed_in_order_with_author_time_and_thread_counts():
    world = World(office())
    _, _, page = client(world)("GET", "/c/general")
    assert ids(page, r"message-\d+-text") == ["message-1-text", "message-2-text"]
    assert [text(page, f"message-{n}-{f}") for n in (1, 2) for f in ("author", "time", "text", "thread")] == [
        "Grace Hopper (@grace)", "2026-09-17 09:00", "Doors open at 8", "Reply",
        "Linus Pauling (@linus)", "2026-09-17 09:01", "Thanks @grace.", "1 reply"]
    assert text(page, "message-1-edit") == "Edit" and text(page, "message-2-edit") == ""  # only your own
    assert text(page, "channel-members") == "Members: @grace, @linus, @margaret"


def test_reactions_toggle_per_user_show_on_the_message_and_are_members_only():
    world = World(office())
    grace, linus = client(world), client(world, user="linus")
    _, _, page = grace("GET", "/c/general")
    assert "message-1-reactions" not in page and "Reactions" not in page  # no column until someone reacts
    assert grace("POST", "/c/general/m/1/react", "name=eyes")[:1] == (303,)
    assert linus("POST", "/c/general/m/1/react", "name=%3Aeyes%3A")[0] == 303  # :eyes: is eyes
    assert linus("POST", "/c/general/m/1/react", "name=%2B1")[0] == 303
    assert state(world)["channels"]["general"]["messages"][0]["reactions"] == {"eyes": ["grace", "linus"], "+1": ["linus"]}
    _, _, page = grace("GET", "/c/general")
    assert text(page, "message-1-reactions") == ":eyes: 2 · :+1: 1" and text(page, "message-2-reactions") == "React"
    _, _, page = grace("GET", "/c/general/m/1/react")
    assert text(page, "reaction-eyes-who") == "@grace, @linus"
    assert linus("POST", "/c/general/m/1/react", "name=%2B1")[0] == 303  # again: taken back
    assert state(world)["channels"]["general"]["messages"][0]["reactions"] == {"eyes": ["grace", "linus"]}
    before = copy.deepcopy(state(world))
    assert grace("POST", "/c/general/m/1/react", "name=no%20such")[0] == 400
    assert grace("POST", "/c/general/m/99/react", "name=eyes")[0] == 404
    assert client(world, user="margaret")("POST", "/c/legal/m/3/react", "name=eyes")[0] == 404  # private: unseen
    assert state(world) == before
    status, _, body = grace("POST", "/c/general/m/2/react", json_body={"name": "tada"},
                            headers={"Accept": "application/json"})
    assert status == 200 and json.loads(body)["message"]["reactions"] == {"tada": ["grace"]}
    # a reply takes reactions too, and a seeded state carries them
    assert grace("POST", "/c/general/m/3/react", "name=eyes")[0] == 303
    seeded = copy.deepcopy(SEEDED)
    seeded["channels"][0]["messages"][0]["reactions"] = {"eyes": ["linus"]}
    assert state(World(office(seeded)))["channels"]["general"]["messages"][0]["reactions"] == {"eyes": ["linus"]}
    seeded["channels"][0]["messages"][0]["reactions"] = {"eyes": ["nobody"]}
    with pytest.raises(ValueError, match=r"messages\[0\]\.reactions\.eyes\[0\]: 'nobody' is not a user"):
        World(office(seeded))


def test_join_post_and_leave_a_public_channel():
    world = World(office())
    grace = client(world)
    status, _, page = grace("POST", "/c/random", "text=hello")
    assert (status, text(page, "error-message")) == (403, "join #random before posting in it")
    _, _, page = grace("GET", "/c/random")
    assert ids(page, "join-channel|compose") == ["join-channel"]
    assert grace("POST", "/c/random/join")[:2][0] == 303
    assert grace("POST", "/c/random/join")[0] == 303  # joining twice changes nothing
    assert state(world)["channels"]["random"]["members"] == ["grace", "margaret"]
    assert grace("POST", "/c/random", "text=hello")[1]["location"] == "/c/random"
    status, headers, _ = grace("POST", "/c/random/leave")
    assert (status, headers["location"]) == (303, "/")
    assert state(world)["channels"]["random"]["members"] == ["margaret"]
    assert [m["text"] for m in state(world)["channels"]["random"]["messages"]] == ["hello"]


# -- a message travels between machines only as requests ----------------------------------------

def test_a_message_posted_from_reception_is_seen_from_the_laptop_only_through_its_own_request():
    world = World(office())
    grace = client(world, "reception", "grace")
    laptop = client(world, "legal-laptop", "linus")
    before = laptop.sh("curl -s -u linus:l-pw http://chat.office.internal:8095/c/general")["stdout"]
    assert ids(before, r"message-\d+-text") == ["message-1-text", "message-2-text"]
    t0 = world.runtime.clock.now_us
    assert grace("POST", "/c/general", "text=Lunch+at+noon%3F")[0] == 303
    posted = state(world)["channels"]["general"]["messages"][-1]
    assert posted["id"] == 5 and posted["author"] == "grace" and posted["at_us"] > t0
    assert text(before, "message-5-text") is None  # what the laptop fetched earlier stays as it was
    after = laptop.sh("curl -s -u linus:l-pw http://chat.office.internal:8095/c/general")["stdout"]
    assert text(after, "message-5-text") == "Lunch at noon?"
    assert text(after, "message-5-time") == timestamp(posted["at_us"])
    assert text(after, "message-5-author") == "Grace Hopper (@grace)"
    # the laptop answers with curl and a cookie from signing in
    sign_in = laptop.sh("curl -s -i -d 'username=linus&password=l-pw' http://chat.office.internal:8095/login")["stdout"]
    sid = re.search(r"sid=([0-9a-f]+)", sign_in).group(1)
    out = laptop.sh(f"curl -s -w '%{{http_code}}' -b 'sid={sid}' -d 'text=Yes, @grace' http://chat.office.internal:8095/c/general/t/5")
    assert out["stdout"] == "303"
    _, _, thread = grace("GET", "/c/general/t/5")
    assert (text(thread, "message-6-text"), text(thread, "message-6-author")) == ("Yes, @grace", "Linus Pauling (@linus)")


# -- private channels ------------------------------------------------------------------------------

def test_a_private_channel_is_invisible_to_non_members_everywhere():
    world = World(office())
    margaret = client(world, "legal-laptop", "margaret")
    before = copy.deepcopy(state(world))
    for method, path, body in (("GET", "/c/legal", ""), ("POST", "/c/legal", "text=hi"), ("POST", "/c/legal/join", ""),
                               ("GET", "/c/legal/t/3", ""), ("POST", "/c/legal/m/3/delete", ""),
                               ("GET", "/api/channels/legal/messages", "")):
        status, _, page = margaret(method, path, body)
        assert status == 404, (method, path)
        assert "no channel #legal" in page
    assert state(world) == before
    _, _, api = margaret("GET", "/api/channels")
    assert [c["name"] for c in json.loads(api)["channels"]] == ["general", "random"]
    _, _, found = margaret("GET", "/search?q=retainer")
    assert text(found, "search-count") == "0 results for 'retainer'"
    _, _, found = client(world, user="linus")("GET", "/search?q=retainer")
    assert text(found, "search-count") == "1 result for 'retainer'" and text(found, "result-4-in") == "#legal"


def test_a_member_invites_someone_into_a_private_channel_and_a_non_member_cannot():
    world = World(office())
    grace, margaret = client(world), client(world, "legal-laptop", "margaret")
    assert margaret("POST", "/c/general/invite", "user=linus")[0] == 409  # already in it
    assert client(world, user="margaret")("POST", "/c/random/invite", "user=grace")[0] == 303
    assert grace("POST", "/channels", "name=hr&private=on")[1]["location"] == "/c/hr"
    assert state(world)["channels"]["hr"]["private"] is True
    assert margaret("GET", "/c/hr")[0] == 404
    assert grace("POST", "/c/hr/invite", "user=nobody")[0] == 404
    assert grace("POST", "/c/hr/invite", "user=%40margaret")[0] == 303
    status, _, page = margaret("GET", "/c/hr")
    assert (status, text(page, "channel-info")) == (200, "Private channel · 2 members")
    assert margaret("POST", "/c/hr/leave")[0] == 303
    assert margaret("GET", "/c/hr")[0] == 404
    # a public channel's non-member may read but not invite
    linus = client(world, user="linus")
    status, _, page = linus("POST", "/c/random/invite", "user=linus")
    assert (status, text(page, "error-message")) == (403, "only members of #random can add people to it")
    assert state(world)["channels"]["random"]["members"] == ["grace", "margaret"]


# -- threads, mentions, direct messages ------------------------------------------------------------

def test_a_thread_collects_replies_and_a_reply_to_a_reply_joins_the_same_thread():
    world = World(office())
    grace = client(world)
    status, headers, _ = grace("POST", "/c/general/t/1", "text=Also+on+Saturdays")
    assert (status, headers["location"]) == (303, "/c/general/t/1")
    assert grace("POST", "/c/general/t/3", "text=(that was margaret)")[1]["location"] == "/c/general/t/2"
    assert grace("GET", "/c/general/t/3")[1]["location"] == "/c/general/t/2"  # a reply's thread is its message's
    _, _, page = grace("GET", "/c/general/t/1")
    assert (text(page, "thread-title"), text(page, "message-1-text"), text(page, "message-5-text")) == \
        ("Thread in #general", "Doors open at 8", "Also on Saturdays")
    _, _, page = grace("GET", "/c/general")
    assert (text(page, "message-1-thread"), text(page, "message-2-thread")) == ("1 reply", "2 replies")
    assert ids(page, r"message-\d+-text") == ["message-1-text", "message-2-text"]  # replies stay in threads
    assert grace("GET", "/c/general/t/99")[0] == 404
    status, _, page = grace("GET", "/c/general/t/abc")
    assert (status, text(page, "error-message")) == (400, "a message id is a number, got 'abc'")


def test_mentions_list_messages_naming_you_including_channel_wide_ones():
    world = World(office())
    linus, grace = client(world, "legal-laptop", "linus"), client(world)
    _, _, page = grace("GET", "/mentions")
    assert ids(page, r"mention-\d+-text") == ["mention-2-text"]  # "Thanks @grace." (the full stop is punctuation)
    _, _, page = linus("GET", "/mentions")
    assert text(page, "no-mentions") == "Nobody has mentioned you yet."
    grace("POST", "/c/general", "text=%40Linus+can+you+check+the+lease%3F")
    grace("POST", "/c/legal/t/4", "text=%40here+please+confirm")
    grace("POST", "/c/general", "text=mail+grace%40linus.org")  # an address is no mention
    _, _, page = linus("GET", "/mentions")
    assert ids(page, r"mention-\d+-text") == ["mention-6-text", "mention-5-text"]  # newest first
    assert (text(page, "mention-6-in"), text(page, "mention-5-in")) == ("#legal (thread)", "#general")
    _, _, margaret_page = client(world, user="margaret")("GET", "/mentions")
    assert text(margaret_page, "no-mentions") is not None  # @here in #legal is not for her
    # an edit changes who is mentioned
    assert grace("POST", "/c/general/m/5/edit", "text=Can+someone+check+the+lease%3F")[0] == 303
    _, _, page = linus("GET", "/mentions")
    assert ids(page, r"mention-\d+-text") == ["mention-6-text"]


def test_direct_messages_are_between_two_users_only():
    world = World(office())
    grace, linus = client(world), client(world, "legal-laptop", "linus")
    margaret = client(world, user="margaret")
    status, headers, _ = grace("POST", "/dm/linus", "text=Coffee%3F")
    assert (status, headers["location"]) == (303, "/dm/linus")
    assert state(world)["dms"]["grace|linus"]["members"] == ["grace", "linus"]
    _, _, page = linus("GET", "/dm/grace")
    assert (text(page, "dm-title"), text(page, "message-5-text")) == ("Direct messages with Grace Hopper (@grace)", "Coffee?")
    _, _, home = linus("GET", "/")
    assert text(home, "dm-grace") == "Grace Hopper (@grace)"
    _, _, page = margaret("GET", "/dm/grace")
    assert text(page, "no-messages") == "No messages yet."  # her conversation with grace, not theirs
    assert margaret("POST", "/dm/grace/m/5/delete")[0] == 404
    assert margaret("GET", "/dm/nobody")[0] == 404
    _, _, found = margaret("GET", "/search?q=coffee")
    assert text(found, "search-count") == "0 results for 'coffee'"
    assert linus("POST", "/dm/grace/t/5", "text=Sure")[1]["location"] == "/dm/grace/t/5"
    assert [r["text"] for r in state(world)["dms"]["grace|linus"]["messages"][0]["thread"]] == ["Sure"]


def test_only_the_author_edits_or_deletes_a_message():
    world = World(office())
    grace, linus = client(world), client(world, "legal-laptop", "linus")
    before = copy.deepcopy(state(world))
    status, _, page = linus("POST", "/c/general/m/1/edit", "text=hacked")
    assert (status, text(page, "error-message")) == (403, "message 1 is Grace Hopper (@grace)'s, not yours")
    assert linus("POST", "/c/general/m/1/delete")[0] == 403
    assert linus("GET", "/c/general/m/1/edit")[0] == 403
    assert state(world) == before
    _, _, form = grace("GET", "/c/general/m/1/edit")
    assert "Doors open at 8</textarea>" in form
    assert grace("POST", "/c/general/m/1/edit", "text=Doors+open+at+7")[1]["location"] == "/c/general"
    _, _, page = linus("GET", "/c/general")
    assert text(page, "message-1-text") == "Doors open at 7 (edited)"
    assert client(world, user="margaret")("POST", "/c/general/m/3/delete")[1]["location"] == "/c/general/t/2"
    assert linus("POST", "/c/general/m/2/delete")[0] == 303  # the message and its thread
    assert [m["id"] for m in state(world)["channels"]["general"]["messages"]] == [1]


def test_search_finds_every_word_and_narrows_by_author_and_channel():
    world = World(office())
    grace = client(world)
    _, _, page = grace("GET", "/search")
    assert text(page, "search-count") is None and ids(page, "search-q") == ["search-q"]
    _, _, page = grace("GET", "/search?q=NOTED")
    assert (text(page, "result-3-in"), text(page, "result-3-from")) == ("#general (thread)", "@margaret")
    _, _, page = grace("GET", "/search?q=A")
    assert ids(page, r"result-\d+-text") == ["result-2-text", "result-4-text", "result-1-text"]  # newest first
    _, _, page = grace("GET", "/search?q=a+from%3A%40linus")
    assert ids(page, r"result-\d+-text") == ["result-2-text", "result-4-text"]
    _, _, page = grace("GET", "/search?q=from%3Alinus+in%3A%23legal")
    assert ids(page, r"result-\d+-text") == ["result-4-text"]


# -- JSON API --------------------------------------------------------------------------------------

def test_the_json_api_lists_channels_reads_and_posts_messages():
    world = World(office())
    linus = client(world, "legal-laptop", "linus")
    status, _, body = linus("GET", "/api/channels")
    assert status == 200 and json.loads(body)["channels"] == [
        {"name": "general", "private": False, "topic": "Office-wide news", "members": ["grace", "linus", "margaret"], "member": True},
        {"name": "legal", "private": True, "topic": "", "members": ["grace", "linus"], "member": True},
        {"name": "random", "private": False, "topic": "", "members": ["margaret"], "member": False}]
    status, _, body = linus("POST", "/api/channels/general/messages", json_body={"text": "Agreed", "thread": 1})
    reply = json.loads(body)["message"]
    assert status == 201 and (reply["id"], reply["author"], reply["text"], "replies" in reply) == (5, "linus", "Agreed", False)
    status, _, body = linus("POST", "/api/channels/general/messages", json_body={"text": "Top level"})
    assert status == 201 and json.loads(body)["message"]["replies"] == []
    _, _, body = client(world)("GET", "/api/channels/general/messages")
    got = json.loads(body)["messages"]
    assert [(m["id"], m["text"], [r["text"] for r in m["replies"]]) for m in got] == [
        (1, "Doors open at 8", ["Agreed"]), (2, "Thanks @grace.", ["noted"]), (6, "Top level", [])]
    assert got[0]["at"] == "2026-09-17 09:00" and got[0]["at_us"] == 1_000_000
    status, _, body = client(world, user=None)("GET", "/api/channels")
    assert (status, json.loads(body)) == (401, {"error": "sign in first"})
    before = copy.deepcopy(state(world))
    for payload, message in (({"text": ""}, "the field 'text' is required"),
                             ({"text": "x", "thread": "first"}, "'thread' is the id of a message, got 'first'"),
                             ({"text": "x", "thread": True}, "'thread' is the id of a message, got True")):
        status, _, body = linus("POST", "/api/channels/general/messages", json_body=payload)
        assert (status, json.loads(body)) == (400, {"error": message})
    assert linus("POST", "/api/channels/random/messages", json_body={"text": "x"})[0] == 403
    assert linus("POST", "/api/channels/general/messages", json_body={"text": "x", "thread": 77})[0] == 404
    assert state(world) == before


# -- malformed requests ------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "body", "message"), [
    ("POST", "/c/general", "", "the field 'text' is required"),
    ("POST", "/c/general", "text=+++", "the field 'text' is required"),
    pytest.param("POST", "/c/general", "text=" + "x" * 40_001, "the field 'text' is longer than 40000 characters", id="too-long"),
    ("POST", "/channels", "name=no%2Fslashes", "'no/slashes' is not a channel name: up to 80 lower-case letters, digits, '-' and '_'"),
    ("POST", "/channels", "name=ok&private=maybe", "the field 'private' is on or off, got 'maybe'"),
    ("POST", "/channels", "topic=x", "the field 'name' is required"),
    ("POST", "/c/general/m/x1/edit", "text=y", "a message id is a number, got 'x1'"),
    ("POST", "/c/general/invite", "", "the field 'user' is required"),
])
def test_malformed_requests_are_400_with_a_message_and_change_nothing(method, path, body, message):
    world = World(office())
    before = copy.deepcopy(state(world))
    status, _, page = client(world)(method, path, body)
    assert (status, text(page, "error-message")) == (400, message)
    assert state(world) == before


# -- initial_state ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("patch", "path"), [
    ({"channels": {"general": 3}}, r"channels\[0\]: an object, got int"),
    ({"channels": [{"name": "General"}]}, r"channels\[0\]\.name: 'General' is not a channel name"),
    ({"channels": [{"name": "a"}, {"name": "a"}]}, r"channels\[1\]\.name: the channel 'a' is listed twice"),
    ({"channels": [{"name": "a", "private": "yes"}]}, r"channels\[0\]\.private: expected bool, got str"),
    ({"channels": [{"name": "a", "members": ["grace", "zoe"]}]}, r"channels\[0\]\.members\[1\]: 'zoe' is not a user"),
    ({"channels": [{"name": "a", "messages": [{"author": "grace", "text": "x"}, {"author": "zoe", "text": "y"}]}]},
     r"channels\[0\]\.messages\[1\]\.author: 'zoe' is not a user"),
    ({"channels": [{"name": "a", "messages": [{"author": "grace"}]}]}, r"channels\[0\]\.messages\[0\]\.text: required"),
    ({"channels": [{"name": "a", "messages": [{"author": "grace", "text": "x", "at_us": -1}]}]},
     r"channels\[0\]\.messages\[0\]\.at_us: negative"),
    ({"channels": [{"name": "a", "messages": [{"author": "grace", "text": "x", "thread": [
        {"author": "linus", "text": "y", "thread": []}]}]}]}, r"channels\[0\]\.messages\[0\]\.thread\[0\]\.thread: a reply has no thread"),
    ({"channels": [{"name": "a", "messages": [{"id": 4, "author": "grace", "text": "x"}, {"id": 4, "author": "grace", "text": "y"}]}]},
     r"channels\[0\]\.messages\[1\]\.id: 4 is also the id of .*channels\[0\]\.messages\[0\]"),
    ({"dms": [{"members": ["grace", "linus", "margaret"]}]}, r"dms\[0\]\.members: one or two users, got 3"),
    ({"dms": [{"members": ["grace", "linus"]}, {"members": ["linus", "grace"]}]}, r"dms\[1\]\.members: the conversation of grace and linus"),
    ({"brand": " "}, r"initial_state\.brand: empty"),
    ({"workspaces": []}, r"initial_state\.workspaces: unknown field"),
])
def test_a_malformed_initial_state_names_its_path(patch, path):
    with pytest.raises((DefinitionError, ValueError), match=r"services\[1\]\.initial_state\." + path.removeprefix(r"initial_state\.")):
        World(office({"users": USERS, **patch}))


def test_ids_fill_in_around_explicit_ones_and_a_built_state_checks_again_unchanged():
    kind = Chat()
    built = kind.initial({"users": USERS, "channels": [{"name": "a", "messages": [
        {"author": "grace", "text": "x"}, {"id": 2, "author": "grace", "text": "y", "thread": [{"author": "linus", "text": "z"}]}]}],
        "dms": [{"members": ["linus", "grace"], "messages": [{"author": "linus", "text": "hi"}]}]}, "x")
    a = built["channels"]["a"]["messages"]
    assert [(m["id"], [r["id"] for r in m["thread"]]) for m in a] == [(3, []), (2, [4])]
    assert built["dms"]["grace|linus"]["messages"][0]["id"] == 5 and built["next_message"] == 6
    rest = {k: v for k, v in built.items() if k not in ("users", "sessions", "next_session")}
    assert kind.validate(copy.deepcopy(rest), "x", built["users"]) == rest


# -- snapshots, forks, replay, no mutation ---------------------------------------------------------

def test_a_snapshot_taken_before_a_post_still_shows_the_old_channel():
    world = World(office())
    grace = client(world)
    grace("POST", "/c/general", "text=before")
    snap = world.snapshot()
    grace("POST", "/c/general", "text=after")
    grace("POST", "/c/general/m/1/edit", "text=changed")
    fork = world.fork(snap)
    _, _, page = client(fork, "legal-laptop", "linus")("GET", "/c/general")
    assert [text(page, f"message-{n}-text") for n in (1, 5, 6)] == ["Doors open at 8", "before", None]
    _, _, page = client(world, "legal-laptop", "linus")("GET", "/c/general")
    assert [text(page, f"message-{n}-text") for n in (1, 5, 6)] == ["changed (edited)", "before", "after"]
    client(fork)("POST", "/c/general", "text=only in the fork")
    assert [m["text"] for m in state(world)["channels"]["general"]["messages"]][-1] == "after"


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(office(), seed=3)
    grace, linus = client(world), client(world, "legal-laptop", "linus")
    grace("POST", "/channels", "name=ops&private=on")
    grace("POST", "/c/ops/invite", "user=linus")
    linus("POST", "/c/ops", "text=%40grace+backups+failed")
    grace("POST", "/c/ops/t/5", "text=on it")
    grace("POST", "/dm/linus", "text=thanks")
    imported = World(office())
    imported.import_snapshot(world.export_snapshot())  # the built state passes its own check again
    assert imported.state_hash() == world.state_hash()
    again = replay(office(), 3, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["chat"] == state(world)


def test_a_request_never_mutates_the_state_it_was_given():
    kind = Chat()
    current = kind.initial(copy.deepcopy(SEEDED), "x")
    auth = ("Authorization", "Basic " + base64.b64encode(b"grace:g-pw").decode())
    steps = [("POST", "/channels", "name=new"), ("POST", "/c/new", "text=hi @linus"), ("POST", "/c/new/t/5", "text=re"),
             ("POST", "/c/new/m/6/edit", "text=re2"), ("POST", "/c/general/m/1/delete", ""), ("POST", "/dm/linus", "text=dm"),
             ("POST", "/c/random/join", ""), ("POST", "/c/random/leave", ""), ("POST", "/c/legal/invite", "user=margaret")]
    for method, path, body in steps:
        frozen = copy.deepcopy(current)
        request = Request(method, parse_url(HOST + path),
                          Headers((("Content-Type", "application/x-www-form-urlencoded"), auth)), body.encode())
        response, after = kind.handle(current, request, "reception", 7_000_000)
        assert response.status == 303, (path, response.body[:300])
        assert current == frozen and after != current
        current = after
    assert current["channels"]["legal"]["members"] == ["grace", "linus", "margaret"]
    assert current["next_message"] == 8
