"""The docs kind end to end: the document list, creating and editing with revision history,
old revisions and restore, sharing as viewer or editor (403 to edit as a viewer, 404 for
anyone else), comments, owner-only delete, the plain-text export, the JSON API with edit
conflicts, malformed requests and initial states, two machines, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.protocol.definition import DefinitionError
from cwgym.resources import load_world
from cwgym.services.docs import Docs

URL = "http://docs.office.internal:8090"
USERS = [{"name": "alice", "password": "pw-a", "display": "Alice Ng"}, {"name": "bob", "password": "pw-b"},
         {"name": "carol", "password": "pw-c"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
PLAN = {"title": "Launch plan", "body": "Step 1: draft\n", "owner": "alice", "shared": {"bob": "viewer"}}


def definition(initial_state=None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "docs", "kind": "docs", "node": "fileserver", "port": 8090,
                          "domains": ["docs.office.internal"], "initial_state": initial_state})
    d["network"]["dns"].append({"name": "docs.office.internal", "address": "10.20.1.5", "resolver": "fileserver"})
    return d


def full() -> dict:
    return definition({"users": USERS, "documents": [PLAN, {"title": "Bob's notes", "body": "mine", "owner": "bob"}]})


def auth(user: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()}


def machine(world: World, name: str = "reception"):
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def sh(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(method: str, path: str, user: str | None = None, body: str = "", headers: dict | None = None,
             json_body=None) -> tuple[int, dict, str]:
        h = {**(auth(user) if user else {}), **(headers or {})}
        if json_body is not None:
            body, h = json.dumps(json_body), {**h, "Content-Type": "application/json"}
        elif body:
            h = {"Content-Type": "application/x-www-form-urlencoded", **h}
        out = env.step([{"family": "http.v1", "op": "request", "machine": name,
                         "payload": {"method": method, "url": URL + path, "body": body, "headers": h}}])
        value = out["outcomes"][0]["value"]
        return value["status"], {k.lower(): v for k, v in value["headers"]}, bytes(value["body"]).decode()

    return sh, http


def state(world: World) -> dict:
    return world.runtime.network.services["docs"]


def login(http, user: str) -> str:
    status, headers, _ = http("POST", "/login", body=f"username={user}&password={PASSWORDS[user]}")
    assert status == 303
    return headers["set-cookie"].split(";")[0]


# -- reading -------------------------------------------------------------------------------------

@pytest.mark.parametrize("empty", [None, {}])
def test_an_empty_service_has_a_home_page_and_a_usable_empty_list(empty):
    world = World(definition(empty))
    sh, http = machine(world)
    home = sh(f"curl -s {URL}/")["stdout"]
    assert "<title>Docs</title>" in home
    assert '<p id="home-intro">Write documents together: create, edit, share and comment.</p>' in home
    assert '<a id="home-sign-in" href="/login">Sign in to see your documents</a>' in home
    status, headers, _ = http("POST", "/signup", body="username=zed&password=pw")
    assert status == 303
    cookie = headers["set-cookie"].split(";")[0]
    listing = sh(f"curl -s -b '{cookie}' {URL}/")["stdout"]
    assert '<p id="mine-empty">You have no documents yet.</p>' in listing
    assert '<p id="shared-empty">Nothing is shared with you.</p>' in listing
    assert '<form id="new-doc" action="/new" method="post">' in listing
    assert http("GET", "/api/documents", "alice")[0] == 401  # no such account in an empty service


def test_the_list_shows_owned_and_shared_documents_with_roles():
    world = World(full())
    sh, _ = machine(world)
    page = sh(f"curl -s -u bob:pw-b {URL}/")["stdout"]
    assert '<a id="mine-doc-2" href="/d/2">Bob&#x27;s notes</a>' in page
    assert '<a id="shared-doc-1" href="/d/1">Launch plan</a>' in page
    assert '<p id="shared-doc-1-owner">Alice Ng</p>' in page
    assert '<p id="shared-doc-1-role">viewer</p>' in page
    carol = sh(f"curl -s -u carol:pw-c {URL}/")["stdout"]
    assert "Launch plan" not in carol and "Bob&#x27;s notes" not in carol


def test_signed_out_visitors_are_sent_to_sign_in_and_api_clients_get_401():
    world = World(full())
    sh, http = machine(world)
    assert sh(f"curl -s -o /dev/null -w '%{{http_code}} %{{redirect_url}}' {URL}/d/1")["stdout"].startswith("303")
    status, headers, _ = http("GET", "/d/1")
    assert (status, headers["location"]) == (303, "/login?next=/d/1")
    assert http("GET", "/api/documents/1")[:3:2] == (401, '{"error": "sign in first"}')


# -- writing -------------------------------------------------------------------------------------

def test_create_edit_history_old_revision_and_restore_through_curl_with_a_cookie():
    world = World(full())
    sh, http = machine(world)
    sh("sleep 60")
    cookie = login(http, "alice")
    created = sh(f"curl -s -i -b '{cookie}' -d 'title=Minutes&body=Attendees: A' {URL}/new")["stdout"]
    assert "HTTP/1.1 303 See Other\r\n" in created and "Location: /d/3\r\n" in created
    sh("sleep 60")
    edit_form = sh(f"curl -s -b '{cookie}' {URL}/d/3/edit")["stdout"]
    assert '<input id="edit-revision" type="hidden" name="revision" value="1">' in edit_form
    assert '<textarea id="edit-body" name="body" rows="20">Attendees: A</textarea>' in edit_form
    sh(f"curl -s -b '{cookie}' -d 'title=Minutes&body=Attendees: A, B&revision=1' {URL}/d/3/edit")
    page = sh(f"curl -s -b '{cookie}' {URL}/d/3")["stdout"]
    assert '<p id="doc-body">Attendees: A, B</p>' in page
    assert "last edited 2026-09-17 09:02 (revision 2)" in page
    history = sh(f"curl -s -b '{cookie}' {URL}/d/3/history")["stdout"]
    assert history.index('id="revision-2"') < history.index('id="revision-1"')  # newest first
    assert '<p id="revision-1-author">Alice Ng</p>' in history
    assert '<p id="revision-1-at">2026-09-17 09:01</p>' in history and '<p id="revision-2-at">2026-09-17 09:02</p>' in history
    old = sh(f"curl -s -b '{cookie}' {URL}/d/3/history/1")["stdout"]
    assert '<p id="revision-body">Attendees: A</p>' in old
    assert '<form id="restore-form" action="/d/3/history/1/restore" method="post">' in old
    assert http("GET", "/d/3/history/9", "alice")[0] == 404
    assert http("POST", "/d/3/history/1/restore", "alice")[0] == 303
    doc = state(world)["documents"]["3"]
    assert (doc["body"], [r["n"] for r in doc["revisions"]], doc["revisions"][2]["body"]) == ("Attendees: A", [1, 2, 3], "Attendees: A")
    # saving without a change makes no revision
    sh(f"curl -s -b '{cookie}' -d 'title=Minutes&body=Attendees: A' {URL}/d/3/edit")
    assert len(state(world)["documents"]["3"]["revisions"]) == 3


def test_a_viewer_reads_and_comments_but_gets_403_to_edit_and_an_outsider_gets_404():
    world = World(full())
    _, http = machine(world, "legal-laptop")
    before = state(world)
    assert http("GET", "/d/1", "bob")[0] == 200
    status, _, body = http("POST", "/d/1/edit", "bob", "title=Hijack&body=x")
    assert status == 403 and "you can view this document but not edit it" in body
    assert http("GET", "/d/1/edit", "bob")[0] == 403
    assert http("POST", "/d/1/delete", "bob")[0] == 403
    assert http("POST", "/d/1/share", "bob", "user=carol&role=editor")[0] == 403
    assert state(world) == before
    for path in ("/d/1", "/d/1/export.txt", "/d/1/history", "/d/1/edit"):
        assert http("GET", path, "carol")[0] == 404, path
    assert http("POST", "/d/1/edit", "carol", "title=x")[0] == 404
    assert http("GET", "/api/documents/1", "carol")[:3:2] == (404, '{"error": "no document 1"}')
    assert state(world) == before


def test_sharing_as_editor_lets_another_user_edit_and_stopping_hides_the_document():
    world = World(full())
    _, alice = machine(world, "reception")
    _, bob = machine(world, "legal-laptop")
    page = alice("GET", "/d/1", "alice")[2]
    assert '<p id="share-bob">bob (bob): viewer</p>' in page
    assert '<select id="share-role" name="role">' in page
    assert alice("POST", "/d/1/share", "alice", "user=bob&role=editor")[0] == 303
    assert bob("POST", "/d/1/edit", "bob", "title=Launch plan&body=Step 1: draft%0AStep 2: review")[0] == 303
    doc = state(world)["documents"]["1"]
    assert doc["body"] == "Step 1: draft\nStep 2: review" and doc["revisions"][-1]["author"] == "bob"
    assert bob("GET", "/d/1", "bob")[2].count('id="doc-edit"') == 1
    assert alice("POST", "/d/1/share", "alice", "user=bob&role=none")[0] == 303
    assert bob("GET", "/d/1", "bob")[0] == 404
    assert alice("POST", "/d/1/share", "alice", "user=nobody&role=viewer")[0] == 404


def test_comments_and_who_may_delete_them():
    world = World(full())
    _, http = machine(world)
    assert http("POST", "/d/1/comments", "bob", "text=Looks good")[0] == 303
    page = http("GET", "/d/1", "alice")[2]
    assert '<p id="comment-1">bob (2026-09-17 09:00): Looks good</p>' in page
    assert http("POST", "/api/documents/1/comments", "alice", json_body={"text": "Thanks"})[:3:2] == (
        201, '{"at": "2026-09-17 09:00", "author": "alice", "id": 2, "text": "Thanks"}')
    assert http("POST", "/d/1/comments/2/delete", "bob")[0] == 403  # alice's comment
    assert http("POST", "/d/1/comments/1/delete", "alice")[0] == 303  # the owner may
    assert [c["id"] for c in state(world)["documents"]["1"]["comments"]] == [2]
    assert http("POST", "/d/1/comments/7/delete", "alice")[0] == 404


def test_only_the_owner_deletes_and_then_the_document_is_gone():
    world = World(full())
    _, http = machine(world)
    assert http("DELETE", "/api/documents/1", "bob")[0] == 403
    assert http("POST", "/d/1/delete", "alice")[:2] == (303, {"location": "/", "content-length": "0"})
    assert http("GET", "/d/1", "alice")[0] == 404
    assert sorted(state(world)["documents"]) == ["2"]


def test_export_is_the_body_as_plain_text():
    world = World(full())
    sh, _ = machine(world)
    out = sh(f"curl -s -i -u bob:pw-b {URL}/d/1/export.txt")["stdout"]
    assert "Content-Type: text/plain; charset=utf-8\r\n" in out
    assert 'Content-Disposition: attachment; filename="Launch plan.txt"\r\n' in out
    assert out.endswith("\r\n\r\nStep 1: draft\n")


# -- JSON API ------------------------------------------------------------------------------------

def test_the_json_api_creates_lists_edits_with_conflicts_and_shares():
    world = World(full())
    _, http = machine(world)
    status, _, body = http("POST", "/api/documents", "carol", json_body={"title": "Budget", "body": "100"})
    assert status == 201 and json.loads(body)["id"] == 3 and json.loads(body)["revision"] == 1
    assert http("PATCH", "/api/documents/3", "carol", json_body={"body": "120", "revision": "1"})[0] == 200
    status, _, body = http("PATCH", "/api/documents/3", "carol", json_body={"body": "999", "revision": "1"})
    assert status == 409 and "changed since revision 1 (now at revision 2)" in body
    assert state(world)["documents"]["3"]["body"] == "120"
    assert json.loads(http("POST", "/api/documents/3/share", "carol", json_body={"user": "alice", "role": "editor"})[2]) == {
        "id": 3, "shared": {"alice": "editor"}}
    listing = json.loads(http("GET", "/api/documents", "alice")[2])["documents"]
    assert [(d["id"], d["role"]) for d in listing] == [(1, "owner"), (3, "editor")]
    revisions = json.loads(http("GET", "/api/documents/3/revisions", "alice")[2])["revisions"]
    assert [(r["n"], r["author"]) for r in revisions] == [(1, "carol"), (2, "carol")]
    assert json.loads(http("GET", "/api/documents/3/revisions/1", "alice")[2])["body"] == "100"
    assert "shared" not in json.loads(http("GET", "/api/documents/3", "alice")[2])  # only the owner sees the share list


# -- malformed -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "body", "message"), [
    ("POST", "/new", "title=", "the field 'title' is required"),
    ("POST", "/new", "title=" + "x" * 201, "the field 'title' is longer than 200 characters"),
    ("POST", "/new", "title=a%0Ab", "a title is one line"),
    ("POST", "/d/1/edit", "title=x&revision=abc", "the field 'revision' is a revision number"),
    ("POST", "/d/1/share", "user=bob&role=admin", "the role is 'viewer', 'editor' or 'none' (stop sharing)"),
    ("POST", "/d/1/share", "user=alice&role=viewer", "you own this document already"),
    ("POST", "/d/1/comments", "text=%20", "the field 'text' is required"),
])
def test_malformed_requests_are_400_with_a_message_and_change_nothing(method, path, body, message):
    world = World(full())
    _, http = machine(world)
    before = state(world)
    status, _, page = http(method, path, "alice", body)
    assert status == 400 and f'<p id="error-message">{message}</p>'.replace("'", "&#x27;") in page
    assert state(world) is before


def test_malformed_json_and_ids_get_400_in_json():
    world = World(full())
    _, http = machine(world)
    assert http("POST", "/api/documents", "alice", "{oops", {"Content-Type": "application/json"})[0] == 400
    assert http("GET", "/api/documents/abc", "alice")[:3:2] == (400, '{"error": "no document \'abc\': ids are numbers"}')
    assert http("GET", "/d/abc", "alice")[0] == 404


@pytest.mark.parametrize(("initial", "where"), [
    ({"documents": {"x": 1}}, r"initial_state\.documents\['x'\]: an object"),
    ({"users": USERS, "documents": [{"title": "A", "owner": "zoe"}]}, r"initial_state\.documents\[0\]\.owner: 'zoe' is not an account"),
    ({"users": USERS, "documents": [{"owner": "alice"}]}, r"initial_state\.documents\[0\]\.title: required"),
    ({"users": USERS, "documents": [{"title": "A", "owner": "alice", "shared": {"bob": "admin"}}]},
     r"initial_state\.documents\[0\]\.shared\.bob: the role is 'viewer' or 'editor'"),
    ({"users": USERS, "documents": [{"title": "A", "owner": "alice", "shared": {"zoe": "viewer"}}]},
     r"initial_state\.documents\[0\]\.shared\.zoe: not an account"),
    ({"users": USERS, "documents": [{"title": " ", "owner": "alice"}]}, r"initial_state\.documents\[0\]\.title: a title is 1 to 200"),
    ({"users": USERS, "documents": [{"title": "A", "owner": "alice", "body": 3}]}, r"initial_state\.documents\[0\]\.body: expected str"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(initial, where):
    with pytest.raises((DefinitionError, ValueError), match=r"\$\.services\[1\]\." + where):
        World(definition(initial))


def test_a_built_state_passes_validate_again_unchanged():
    world = World(full())
    _, http = machine(world)
    http("POST", "/d/1/comments", "bob", "text=hi")
    http("POST", "/d/1/edit", "alice", "title=New&body=b")
    built = state(world)
    rest = {k: v for k, v in built.items() if k not in ("users", "sessions", "next_session")}
    assert Docs().validate(copy.deepcopy(rest), "x", built["users"]) == rest
    broken = copy.deepcopy(rest)
    broken["documents"]["1"]["id"] = 5
    with pytest.raises(ValueError, match=r"x\.documents\['1'\]\.id: 5 does not match its key"):
        Docs().validate(broken, "x", built["users"])


def test_a_request_never_mutates_the_state_it_was_given():
    service = Docs()
    start = service.initial({"users": USERS, "documents": [PLAN]}, "x")
    frozen = copy.deepcopy(start)
    headers = Headers((("Content-Type", "application/x-www-form-urlencoded"),
                       ("Authorization", auth("alice")["Authorization"])))
    s = start
    for path, body in (("/d/1/edit", b"title=T&body=B"), ("/d/1/comments", b"text=c"), ("/d/1/share", b"user=carol&role=editor"),
                       ("/d/1/history/1/restore", b""), ("/d/1/delete", b"")):
        response, after = service.handle(s, Request("POST", parse_url(URL + path), headers, body), "reception", 0)
        assert response.status == 303, (path, response.body)
        assert after is not s
        s = after
    assert start == frozen


# -- machines, snapshots, replay -----------------------------------------------------------------

def test_an_edit_on_one_machine_reaches_another_only_through_its_own_request():
    world = World(full())
    alice, _ = machine(world, "reception")
    bob, _ = machine(world, "legal-laptop")
    assert bob(f"curl -s -u bob:pw-b -o plan.txt {URL}/d/1/export.txt")["exit_code"] == 0
    alice(f"curl -s -u alice:pw-a -d 'title=Launch plan&body=Step 1: ship' {URL}/d/1/edit")
    assert bob("cat plan.txt")["stdout"] == "Step 1: draft\n"  # what bob fetched before stays as it was
    assert bob(f"curl -s -u bob:pw-b {URL}/d/1/export.txt")["stdout"] == "Step 1: ship"


def test_a_snapshot_and_a_fork_keep_the_document_as_it_was():
    world = World(full())
    _, http = machine(world)
    snap = world.snapshot()
    http("POST", "/d/1/edit", "alice", "title=Changed&body=new")
    fork = world.fork(snap)
    _, fork_http = machine(fork)
    assert fork_http("GET", "/d/1/export.txt", "alice")[2] == "Step 1: draft\n"
    assert http("GET", "/d/1/export.txt", "alice")[2] == "new"
    fork_http("POST", "/d/1/edit", "alice", "title=Fork&body=fork")
    assert http("GET", "/d/1/export.txt", "alice")[2] == "new"
    exported = World(full())
    exported.import_snapshot(world.export_snapshot())  # the built state passes the kind's check again
    assert exported.state_hash() == world.state_hash() and state(exported) == state(world)
    world.restore(snap)
    assert state(world)["documents"]["1"]["body"] == "Step 1: draft\n"


def test_replaying_the_same_steps_reaches_the_same_state_hash():
    world = World(full(), seed=3)
    sh, http = machine(world)
    cookie = login(http, "alice")
    sh(f"curl -s -b '{cookie}' -d 'title=Minutes&body=x' {URL}/new")
    http("POST", "/d/3/share", "alice", "user=bob&role=editor")
    _, bob = machine(world, "legal-laptop")
    bob("POST", "/d/3/edit", "bob", "title=Minutes&body=y")
    again = replay(full(), 3, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert state(again)["documents"]["3"]["body"] == "y"
