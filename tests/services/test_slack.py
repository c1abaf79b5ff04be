"""The ``slack`` kind end to end through the small office: workspaces, each its own set of
channels and direct messages under ``/w/{workspace}``; membership, threads, @mentions, private
channels, search and the JSON API per workspace; initial_state checks naming the workspace;
snapshots, forks and replay."""

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
from cwgym.services.slack import Slack

HOST = "http://slack.office.internal:8096"
USERS = [{"name": "grace", "password": "g-pw", "display": "Grace Hopper"},
         {"name": "linus", "password": "l-pw"},
         {"name": "margaret", "password": "m-pw"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
SEEDED = {
    "users": USERS,
    "workspaces": [
        {"name": "office",
         "channels": [{"name": "general", "messages": [{"author": "grace", "text": "Welcome to the office workspace",
                                                        "at_us": 1_000_000}]},
                      {"name": "partners", "private": True, "members": ["linus"],
                       "messages": [{"author": "linus", "text": "Partner meeting moved", "at_us": 2_000_000}]}],
         "dms": [{"members": ["margaret", "grace"], "messages": [{"author": "margaret", "text": "Keys are at the desk"}]}]},
        {"name": "okafor-logistics",
         "channels": [{"name": "general", "members": ["linus", "grace"],
                       "messages": [{"author": "linus", "text": "Shared channel with the client", "at_us": 3_000_000}]}]},
    ],
}


def office(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "slack", "kind": "slack", "node": "fileserver", "port": 8096,
                          "domains": ["slack.office.internal"],
                          "initial_state": copy.deepcopy(SEEDED) if initial_state is None else initial_state})
    d["network"]["dns"].append({"name": "slack.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def client(world: World, machine: str = "reception", user: str | None = "grace"):
    """``call(method, path, body?, json?)`` -> ``(status, headers, text)`` with http.v1 from
    ``machine`` as ``user`` (HTTP Basic) or signed out; ``call.sh`` runs a shell command there."""
    computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
    env = world.environment({"actor": computer["user"], "machines": [machine], "actions": ["http.v1", "terminal.v1"],
                             "observations": []})

    def call(method: str, path: str, body: str = "", json_body=None) -> tuple[int, dict, str]:
        h = {"Content-Type": "application/x-www-form-urlencoded"}
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
    m = re.search(rf'id="{re.escape(eid)}"[^>]*>(?:<strong>)?([^<]*)<', page)
    return None if m is None else html.unescape(m.group(1))


def ids(page: str, pattern: str) -> list[str]:
    return re.findall(rf'id="({pattern})"', page)


def state(world: World) -> dict:
    return world.runtime.network.services["slack"]


# -- workspaces ------------------------------------------------------------------------------------

def test_an_empty_service_lets_a_user_create_a_workspace_and_a_channel_in_it():
    world = World(office({"users": USERS}))
    status, _, page = client(world, user=None)("GET", "/")
    assert (status, text(page, "workspaces-title"), text(page, "welcome")) == (200, "Slack", "Sign in to open your workspaces.")
    grace = client(world)
    _, _, page = grace("GET", "/")
    assert text(page, "no-workspaces") == "No workspaces yet."
    status, headers, _ = grace("POST", "/workspaces", "name=Acme+Corp")
    assert (status, headers["location"]) == (303, "/w/acme-corp")
    assert grace("POST", "/workspaces", "name=acme-corp")[0] == 409
    assert state(world)["workspaces"] == {"acme-corp": {"channels": {}, "dms": {}}}
    _, _, page = grace("GET", "/")
    assert ids(page, "workspace-[a-z-]+") == ["workspace-acme-corp"]
    _, _, page = grace("GET", "/w/acme-corp")
    assert (text(page, "team-title"), text(page, "no-channels"), text(page, "nav-channels")) == \
        ("acme-corp", "You are in no channel yet.", "Channels")
    assert grace("POST", "/w/acme-corp/channels", "name=%23launch")[1]["location"] == "/w/acme-corp/c/launch"
    assert grace("POST", "/w/acme-corp/c/launch", "text=T-minus+10")[0] == 303
    _, _, body = grace("GET", "/api/workspaces")
    assert json.loads(body) == {"workspaces": ["acme-corp"]}


def test_each_workspace_has_its_own_channels_and_an_unknown_one_is_404():
    world = World(office())
    grace = client(world)
    _, _, office_general = grace("GET", "/w/office/c/general")
    _, _, client_general = grace("GET", "/w/okafor-logistics/c/general")
    assert text(office_general, "message-1-text") == "Welcome to the office workspace"
    assert text(office_general, "message-4-text") is None
    assert text(client_general, "message-4-text") == "Shared channel with the client"
    assert text(client_general, "message-4-author") == "@linus"
    assert grace("POST", "/w/office/c/general", "text=office+only")[1]["location"] == "/w/office/c/general"
    _, _, body = grace("GET", "/api/w/okafor-logistics/channels/general/messages")
    assert [m["text"] for m in json.loads(body)["messages"]] == ["Shared channel with the client"]
    for path in ("/w/nowhere", "/w/nowhere/c/general"):
        status, _, page = grace("GET", path)
        assert (status, text(page, "error-message")) == (404, "no workspace named 'nowhere'")
    status, _, body = grace("GET", "/api/w/nowhere/channels")
    assert (status, json.loads(body)) == (404, {"error": "no workspace named 'nowhere'"})
    assert client(world, user=None)("GET", "/w/nowhere")[0] == 404
    assert grace("GET", "/w/office/c/partners")[0] == 404  # private, grace is not in it


def test_a_message_posted_from_reception_reaches_the_laptop_only_through_its_own_request():
    world = World(office())
    grace = client(world, "reception", "grace")
    laptop = client(world, "legal-laptop", "linus")
    url = "http://slack.office.internal:8096/w/okafor-logistics/c/general"
    before = laptop.sh(f"curl -s -u linus:l-pw {url}")["stdout"]
    assert grace("POST", "/w/okafor-logistics/c/general", "text=Invoice+sent+%40linus")[0] == 303
    assert text(before, "message-5-text") is None
    after = laptop.sh(f"curl -s -u linus:l-pw {url}")["stdout"]
    assert (text(after, "message-5-text"), text(after, "message-5-author")) == ("Invoice sent @linus", "Grace Hopper (@grace)")
    mentions = laptop.sh("curl -s -u linus:l-pw http://slack.office.internal:8096/w/okafor-logistics/mentions")["stdout"]
    assert ids(mentions, r"mention-\d+-text") == ["mention-5-text"]
    other = laptop.sh("curl -s -u linus:l-pw http://slack.office.internal:8096/w/office/mentions")["stdout"]
    assert text(other, "no-mentions") == "Nobody has mentioned you yet."  # mentions are per workspace
    out = laptop.sh(f"curl -s -w '%{{http_code}}' -u linus:l-pw -d 'text=Thanks' {url}/t/5")
    assert out["stdout"] == "303"
    _, _, thread = grace("GET", "/w/okafor-logistics/c/general/t/5")
    assert (text(thread, "message-6-text"), text(grace("GET", "/w/okafor-logistics/c/general")[2], "message-5-thread")) == \
        ("Thanks", "1 reply")


# -- privacy, DMs, editing -----------------------------------------------------------------------

def test_private_channels_and_direct_messages_stay_with_their_members():
    world = World(office())
    margaret, linus = client(world, "legal-laptop", "margaret"), client(world, "legal-laptop", "linus")
    before = copy.deepcopy(state(world))
    for method, path in (("GET", "/w/office/c/partners"), ("POST", "/w/office/c/partners/join"),
                         ("GET", "/api/w/office/channels/partners/messages")):
        assert margaret(method, path)[0] == 404
    assert state(world) == before
    _, _, body = margaret("GET", "/api/w/office/channels")
    assert [c["name"] for c in json.loads(body)["channels"]] == ["general"]
    _, _, page = margaret("GET", "/w/office/search?q=meeting")
    assert text(page, "search-count") == "0 results for 'meeting'"
    _, _, page = linus("GET", "/w/office/search?q=meeting")
    assert text(page, "result-2-in") == "#partners"
    # the seeded conversation of margaret and grace
    _, _, page = client(world)("GET", "/w/office/dm/margaret")
    assert text(page, "message-3-text") == "Keys are at the desk"
    _, _, page = linus("GET", "/w/office/dm/margaret")
    assert text(page, "no-messages") == "No messages yet."
    assert linus("POST", "/w/office/dm/margaret/m/3/delete")[0] == 404
    _, _, home = client(world)("GET", "/w/office")
    assert text(home, "dm-margaret") == "@margaret"
    _, _, home = client(world)("GET", "/w/okafor-logistics")
    assert text(home, "no-dms") == "No direct messages yet."  # DMs belong to their workspace


def test_only_the_author_edits_or_deletes_and_a_non_member_cannot_post():
    world = World(office())
    grace, linus = client(world), client(world, "legal-laptop", "linus")
    status, _, page = linus("POST", "/w/office/c/general/m/1/edit", "text=mine+now")
    assert (status, text(page, "error-message")) == (403, "message 1 is Grace Hopper (@grace)'s, not yours")
    assert linus("POST", "/w/office/c/general/m/1/delete")[0] == 403
    assert grace("POST", "/w/office/c/general/m/1/edit", "text=Welcome%21")[0] == 303
    _, _, body = linus("GET", "/api/w/office/channels/general/messages")
    assert [(m["text"], m["edited"]) for m in json.loads(body)["messages"]] == [("Welcome!", True)]
    assert client(world, user="margaret")("POST", "/w/okafor-logistics/c/general", "text=hi")[0] == 403
    assert client(world, user="margaret")("POST", "/w/okafor-logistics/c/general/join")[0] == 303
    status, _, body = client(world, user="margaret")("POST", "/api/w/okafor-logistics/channels/general/messages",
                                                    json_body={"text": "Hello @channel", "thread": 4})
    assert status == 201 and json.loads(body)["message"]["id"] == 5
    for user in ("grace", "linus"):
        _, _, page = client(world, user=user)("GET", "/w/okafor-logistics/mentions")
        assert text(page, "mention-5-in") == "#general (thread)"
    assert grace("POST", "/w/office/c/general/m/1/delete")[0] == 303
    assert state(world)["workspaces"]["office"]["channels"]["general"]["messages"] == []


@pytest.mark.parametrize(("method", "path", "body", "message"), [
    ("POST", "/workspaces", "name=", "the field 'name' is required"),
    ("POST", "/workspaces", "name=a%2Fb", "'a/b' is not a workspace name: up to 80 lower-case letters, digits, '-' and '_'"),
    ("POST", "/w/office/channels", "name=%21%21", "'!!' is not a channel name: up to 80 lower-case letters, digits, '-' and '_'"),
    ("POST", "/w/office/c/general", "text=", "the field 'text' is required"),
    ("GET", "/w/office/c/general/t/-1", "", "a message id is a number, got '-1'"),
])
def test_malformed_requests_are_400_with_a_message_and_change_nothing(method, path, body, message):
    world = World(office())
    before = copy.deepcopy(state(world))
    status, _, page = client(world)(method, path, body)
    assert (status, text(page, "error-message")) == (400, message)
    assert state(world) == before


# -- initial_state -------------------------------------------------------------------------------

@pytest.mark.parametrize(("patch", "path"), [
    ({"workspaces": [{"channels": []}]}, r"workspaces\[0\]\.name: required"),
    ({"workspaces": [{"name": "Big Co"}]}, r"workspaces\[0\]\.name: 'Big Co' is not a workspace name"),
    ({"workspaces": [{"name": "a"}, {"name": "a"}]}, r"workspaces\[1\]\.name: the workspace 'a' is listed twice"),
    ({"workspaces": [{"name": "a", "topic": "x"}]}, r"workspaces\[0\]\.topic: unknown field"),
    ({"workspaces": [{"name": "a"}, {"name": "b", "channels": [{"name": "x"}, {"name": "y", "messages": [
        {"author": "grace", "text": "hi"}, {"author": "zed", "text": "yo"}]}]}]},
     r"workspaces\[1\]\.channels\[1\]\.messages\[1\]\.author: 'zed' is not a user"),
    ({"workspaces": [{"name": "a", "dms": [{"members": ["grace", "nobody"]}]}]}, r"workspaces\[0\]\.dms\[0\]\.members\[1\]: 'nobody' is not a user"),
    ({"workspaces": [{"name": "a", "channels": [{"name": "x", "messages": [{"author": "grace", "text": "hi", "id": 0}]}]}]},
     r"workspaces\[0\]\.channels\[0\]\.messages\[0\]\.id: ids start at 1"),
    # a top-level "channels" is the reference engine's form, which keys channels by name
    ({"channels": []}, r"channels: an object, got list \(read as the reference engine's form of 'slack': it has 'channels'\)"),
    ({"workspaces": "office"}, r"workspaces: expected list or dict, got str"),
])
def test_a_malformed_initial_state_names_its_path(patch, path):
    with pytest.raises((DefinitionError, ValueError), match=r"services\[1\]\.initial_state\." + path):
        World(office({"users": USERS, **patch}))


def test_message_ids_are_unique_across_workspaces_and_a_built_state_checks_again_unchanged():
    kind = Slack()
    built = kind.initial(copy.deepcopy(SEEDED), "x")
    office_ids = [m["id"] for c in built["workspaces"]["office"]["channels"].values() for m in c["messages"]]
    assert office_ids == [1, 2] and built["workspaces"]["office"]["dms"]["grace|margaret"]["messages"][0]["id"] == 3
    assert built["workspaces"]["okafor-logistics"]["channels"]["general"]["messages"][0]["id"] == 4
    assert built["next_message"] == 5 and built["brand"] == "Slack"
    rest = {k: v for k, v in built.items() if k not in ("users", "sessions", "next_session")}
    assert kind.validate(copy.deepcopy(rest), "x", built["users"]) == rest


# -- snapshots, forks, replay, no mutation ---------------------------------------------------------

def test_a_fork_from_before_a_change_still_shows_the_old_workspace():
    world = World(office())
    grace = client(world)
    snap = world.snapshot()
    grace("POST", "/workspaces", "name=new-team")
    grace("POST", "/w/office/c/general", "text=after the snapshot")
    fork = world.fork(snap)
    fork_grace = client(fork, "legal-laptop", "grace")
    _, _, page = fork_grace("GET", "/")
    assert ids(page, "workspace-[a-z-]+") == ["workspace-office", "workspace-okafor-logistics"]
    _, _, page = fork_grace("GET", "/w/office/c/general")
    assert ids(page, r"message-\d+-text") == ["message-1-text"]
    _, _, page = grace("GET", "/w/office/c/general")
    assert ids(page, r"message-\d+-text") == ["message-1-text", "message-5-text"]
    fork_grace("POST", "/w/office/c/general", "text=fork only")
    assert [m["text"] for m in state(world)["workspaces"]["office"]["channels"]["general"]["messages"]] == \
        ["Welcome to the office workspace", "after the snapshot"]


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(office(), seed=9)
    grace, linus = client(world), client(world, "legal-laptop", "linus")
    grace("POST", "/workspaces", "name=side-project")
    grace("POST", "/w/side-project/channels", "name=ideas&private=on")
    grace("POST", "/w/side-project/c/ideas/invite", "user=linus")
    linus("POST", "/w/side-project/c/ideas", "text=%40grace+what+about+a+wiki%3F")
    grace("POST", "/w/side-project/c/ideas/t/5", "text=yes")
    imported = World(office())
    imported.import_snapshot(world.export_snapshot())  # the built state passes its own check again
    assert imported.state_hash() == world.state_hash()
    again = replay(office(), 9, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["slack"]["workspaces"]["side-project"] == \
        state(world)["workspaces"]["side-project"]


def test_a_request_never_mutates_the_state_it_was_given():
    kind = Slack()
    current = kind.initial(copy.deepcopy(SEEDED), "x")
    auth = ("Authorization", "Basic " + base64.b64encode(b"linus:l-pw").decode())
    steps = [("POST", "/workspaces", "name=w2"), ("POST", "/w/w2/channels", "name=c"), ("POST", "/w/w2/c/c", "text=a"),
             ("POST", "/w/w2/c/c/t/5", "text=b"), ("POST", "/w/w2/c/c/m/6/delete", ""), ("POST", "/w/office/dm/grace", "text=d"),
             ("POST", "/w/office/c/partners/leave", "")]
    for method, path, body in steps:
        frozen = copy.deepcopy(current)
        request = Request(method, parse_url(HOST + path),
                          Headers((("Content-Type", "application/x-www-form-urlencoded"), auth)), body.encode())
        response, after = kind.handle(current, request, "reception", 1)
        assert response.status == 303, (path, response.body[:300])
        assert current == frozen and after != current
        current = after
    assert current["workspaces"]["office"]["channels"]["partners"]["members"] == []
    assert [m["text"] for m in current["workspaces"]["office"]["dms"]["grace|linus"]["messages"]] == ["d"]
