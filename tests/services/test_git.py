"""The git kind end to end: repositories browsed and edited from two machines of the small
office, issues, pull requests with a diff, reviews, a fast-forward merge that closes an
issue, a merge commit, a conflict, permissions and privacy, the checks of initial_state,
400s that change nothing, forks, snapshots and replay."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.resources import load_world
from cwgym.services.git import Git

HOST = "git.office.internal"
BASE = f"http://{HOST}:3000"
USERS = [{"name": "grace", "password": "gpw", "display": "Grace Hopper"},
         {"name": "linus", "password": "lpw", "display": "Linus T"},
         {"name": "margaret", "password": "mpw"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}


def office(initial_state: dict | None = None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "git", "kind": "git", "node": "fileserver", "port": 3000, "domains": [HOST],
                          "initial_state": initial_state})
    d["network"]["dns"].append({"name": HOST, "address": "10.20.1.5", "ttl_us": 60_000_000, "resolver": "fileserver"})
    return d


def site() -> dict:
    """grace's public repository `handbook` with an issue and a branch `fix` ahead of main."""
    return {"users": USERS, "repos": [
        {"owner": "grace", "name": "handbook", "description": "The office handbook",
         "files": {"README.md": "# Handbook\n", "hours.md": "Doors open at 08:00.\nClose at 18:00.\n"},
         "issues": [{"title": "Wrong opening hour", "body": "It is 07:30 now.", "author": "linus"}],
         "branches": {"fix": {"files": {"hours.md": "Doors open at 07:30.\nClose at 18:00.\n"}, "message": "Fix the hour"}}},
        {"owner": "grace", "name": "secret", "private": True, "collaborators": ["margaret"],
         "files": {"plan.txt": "merge with Initech\n"}},
    ]}


class Client:
    """http.v1 from one machine of a world, as one user (Basic credentials)."""

    def __init__(self, world: World, machine: str, user: str | None = None) -> None:
        computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
        self.env = world.environment({"actor": computer["user"], "machines": [machine],
                                      "actions": ["terminal.v1", "http.v1"], "observations": []})
        self.machine, self.user = machine, user

    def __call__(self, method: str, path: str, form: dict | None = None, json_body=None, user: str | None = None):
        user = user or self.user
        headers = {}
        if user:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()
        body = ""
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode(form)
        if json_body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(json_body)
        out = self.env.step([{"family": "http.v1", "op": "request", "machine": self.machine,
                              "payload": {"method": method, "url": BASE + path, "headers": headers, "body": body}}])
        value = out["outcomes"][0]["value"]
        return value["status"], dict(value["headers"]), bytes(value["body"]).decode()

    def json(self, method: str, path: str, body=None, user: str | None = None):
        status, _, text = self(method, path, json_body=body, user=user)
        return status, json.loads(text)

    def sh(self, command: str) -> dict:
        out = self.env.step([{"family": "terminal.v1", "op": "execute", "machine": self.machine,
                              "payload": {"command": command}}])
        return out["outcomes"][0]["value"]


def state(world: World) -> dict:
    return world.runtime.network.services["git"]


# -- pages and the empty service ------------------------------------------------------------


def test_an_empty_service_has_a_home_page_and_a_new_account_creates_a_repository_with_curl():
    world = World(office(), seed=1)
    grace = Client(world, "reception")
    status, _, html = grace("GET", "/")
    assert status == 200
    assert '<p id="no-repos">No repositories yet.</p>' in html and 'id="sign-in"' in html
    assert grace.sh(f"curl -s -o /dev/null -w '%{{http_code}}' -d username=grace -d password=pw {BASE}/signup")["stdout"] == "303"
    out = grace.sh(f"curl -s -i -u grace:pw -d name=notes -d 'description=My notes' {BASE}/new")["stdout"]
    assert out.startswith("HTTP/1.1 303") and "Location: /grace/notes\r\n" in out
    assert grace.sh(f"curl -s {BASE}/grace/notes/raw/main/README.md")["stdout"] == "# notes\n\nMy notes\n"
    repo = state(world)["repos"]["grace/notes"]
    first = repo["commits"][repo["branches"]["main"]]
    assert (first["message"], first["author"], first["parent"]) == ("Initial commit", "grace", None)
    assert grace.sh(f"curl -s -o /dev/null -w '%{{http_code}}' -u grace:pw -d name=notes {BASE}/new")["stdout"] == "409"


def test_commit_ids_are_the_sha256_of_their_canonical_json():
    built = Git().initial(site(), "$")
    repo = built["repos"]["grace/handbook"]
    first = repo["commits"][repo["branches"]["main"]]
    body = {"parent": None, "merge_parent": None, "message": "Initial commit", "author": "grace", "at_us": 0,
            "files": {"README.md": "# Handbook\n", "hours.md": "Doors open at 08:00.\nClose at 18:00.\n"}}
    expected = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert first["id"] == expected
    fix = repo["commits"][repo["branches"]["fix"]]
    assert fix["parent"] == expected and fix["files"]["README.md"] is first["files"]["README.md"]  # shared, not copied
    assert Git().initial(built, "$") == built  # a state it built passes again unchanged
    assert Git().initial(json.loads(json.dumps(built)), "$") == built


def test_browsing_files_folders_commits_and_branches():
    world = World(office(site()), seed=1)
    linus = Client(world, "legal-laptop", "linus")
    status, _, html = linus("GET", "/grace/handbook")
    assert status == 200
    assert '<a id="file-hours.md" href="/grace/handbook/blob/main/hours.md">hours.md</a>' in html
    assert '<p id="readme"># Handbook</p>' in html and '<a id="nav-issues" href="/grace/handbook/issues">Issues (1)</a>' in html
    assert 'id="nav-settings"' not in html and 'id="add-file"' not in html  # not his repository
    status, _, html = linus("GET", "/grace/handbook/blob/fix/hours.md")
    assert '<p id="file-content">Doors open at 07:30.<br>Close at 18:00.</p>' in html and 'id="file-edit"' not in html
    assert linus("GET", "/grace/handbook/blob/main/nope.md")[0] == 404
    assert linus("GET", "/grace/handbook/tree/nobranch")[0] == 404
    status, branches = linus.json("GET", "/api/repos/grace/handbook/branches")
    assert [b["name"] for b in branches] == ["fix", "main"]
    status, commits = linus.json("GET", "/api/repos/grace/handbook/commits?ref=fix")
    assert [c["message"] for c in commits] == ["Fix the hour", "Initial commit"]
    status, _, html = linus("GET", f"/grace/handbook/commit/{commits[0]['id'][:7]}")
    assert status == 200
    assert ('<p id="diff-hours.md">--- a/hours.md<br>+++ b/hours.md<br>@@ -1,2 +1,2 @@<br>'
            '-Doors open at 08:00.<br>+Doors open at 07:30.<br> Close at 18:00.</p>') in html
    status, listing = linus.json("GET", "/api/repos/grace/handbook/contents")
    assert listing == [{"name": "README.md", "path": "README.md", "type": "file"}, {"name": "hours.md", "path": "hours.md", "type": "file"}]


# -- editing ---------------------------------------------------------------------------------


def test_an_edit_in_the_browser_is_a_commit_another_machine_sees_only_by_asking():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    linus = Client(world, "legal-laptop", "linus")
    _, _, form = grace("GET", "/grace/handbook/edit/main/hours.md")
    assert '<textarea id="edit-content" name="content" rows="20">Doors open at 08:00.\nClose at 18:00.\n</textarea>' in form
    head = state(world)["repos"]["grace/handbook"]["branches"]["main"]
    before = linus("GET", "/grace/handbook/raw/main/hours.md")[2]
    status, headers, _ = grace("POST", "/grace/handbook/edit/main/hours.md",
                               {"content": "Doors open at 09:00.\n", "message": "Later start", "base": head})
    assert (status, headers["Location"]) == (303, "/grace/handbook/blob/main/hours.md")
    assert before == "Doors open at 08:00.\nClose at 18:00.\n"
    assert linus("GET", "/grace/handbook/raw/main/hours.md")[2] == "Doors open at 09:00.\n"
    _, _, html = linus("GET", "/grace/handbook/commits")
    assert ">Later start</a>" in html and html.index("Later start") < html.index("Initial commit")
    # an editor opened on the old head may not overwrite the newer change
    status, _, html = grace("POST", "/grace/handbook/edit/main/hours.md", {"content": "x\n", "base": head})
    assert status == 409 and "hours.md changed on main since you opened it" in html
    # a new file on a new branch, then a delete
    status, headers, _ = grace("POST", "/grace/handbook/new/main",
                               {"path": "docs/rooms.md", "content": "Atlas\n", "commit_to": "new", "new_branch": "rooms"})
    assert (status, headers["Location"]) == (303, "/grace/handbook/blob/rooms/docs/rooms.md")
    assert "docs/rooms.md" not in state(world)["repos"]["grace/handbook"]["commits"][
        state(world)["repos"]["grace/handbook"]["branches"]["main"]]["files"]
    _, _, html = linus("GET", "/grace/handbook/tree/rooms")
    assert '<a id="file-docs" href="/grace/handbook/tree/rooms/docs">docs/</a>' in html
    assert grace("POST", "/grace/handbook/delete/rooms/docs/rooms.md", {})[0] == 303
    assert linus("GET", "/grace/handbook/blob/rooms/docs/rooms.md")[0] == 404


def test_the_contents_api_commits_and_only_writers_may():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    linus = Client(world, "legal-laptop", "linus")
    status, out = grace.json("PUT", "/api/repos/grace/handbook/contents/notes/todo.txt", {"content": "buy milk\n"})
    assert (status, out["branch"], out["commit"]["message"]) == (201, "main", "Create notes/todo.txt")
    status, out = linus.json("GET", "/api/repos/grace/handbook/contents/notes/todo.txt")
    assert (status, out["content"]) == (200, "buy milk\n")
    frozen = state(world)
    status, out = linus.json("PUT", "/api/repos/grace/handbook/contents/x.txt", {"content": "hi"})
    assert (status, out) == (403, {"error": "you need write access to grace/handbook"})
    status, out = Client(world, "legal-laptop").json("PUT", "/api/repos/grace/handbook/contents/x.txt", {"content": "hi"})
    assert (status, out) == (401, {"error": "sign in first"})
    status, _, _ = linus("POST", "/grace/handbook/edit/main/hours.md", {"content": "x"})
    assert status == 403
    assert state(world) is frozen


# -- issues, pull requests, merges -----------------------------------------------------------


def test_a_reviewed_pull_request_fast_forwards_and_closes_the_issue_it_names():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    linus = Client(world, "legal-laptop", "linus")
    status, headers, _ = grace("POST", "/grace/handbook/pulls",
                               {"base": "main", "head": "fix", "title": "Open earlier", "body": "Closes #1."})
    assert (status, headers["Location"]) == (303, "/grace/handbook/pull/2")
    _, _, files = linus("GET", "/grace/handbook/pull/2/files")
    assert '<p id="diff-summary">1 changed file with 1 addition and 1 deletion</p>' in files
    assert "-Doors open at 08:00.<br>+Doors open at 07:30." in files
    assert linus("POST", "/grace/handbook/pull/2/comments", {"body": "Thanks!"})[0] == 303
    assert grace("POST", "/grace/handbook/pull/2/reviews", {"event": "approve"})[0] == 403  # her own
    assert linus("POST", "/grace/handbook/pull/2/reviews", {"event": "approve", "body": "LGTM"})[0] == 303
    _, _, html = grace("GET", "/grace/handbook/pull/2")
    assert '<p id="pull-reviews">Reviews: linus approved</p>' in html
    assert '<p id="merge-status">This branch has no conflicts with the base branch (fast-forward).</p>' in html
    assert '<p id="comment-1">linus commented 2026-09-17 09:00:<br>Thanks!</p>' in html
    status, _, html = linus("POST", "/grace/handbook/pull/2/merge", {})
    assert status == 403 and "you need write access to grace/handbook" in html
    assert grace("POST", "/grace/handbook/pull/2/merge", {})[0] == 303
    repo = state(world)["repos"]["grace/handbook"]
    assert repo["branches"]["main"] == repo["branches"]["fix"]  # fast-forward: no merge commit
    assert repo["pulls"]["2"]["state"] == "merged" and repo["pulls"]["2"]["merged_by"] == "grace"
    status, issue = linus.json("GET", "/api/repos/grace/handbook/issues/1")
    assert issue["state"] == "closed" and issue["closed_by"]["pull"] == 2 and issue["closed_by"]["user"] == "grace"
    _, _, html = linus("GET", "/grace/handbook/issues/1")
    assert '<p id="issue-state"><strong>Closed</strong></p>' in html and "grace closed this in #2" in html
    assert linus("GET", "/grace/handbook/raw/main/hours.md")[2].startswith("Doors open at 07:30.")
    status, out = grace.json("PUT", "/api/repos/grace/handbook/pulls/2/merge")
    assert (status, out) == (409, {"error": "#2 is merged: only an open pull request merges"})


def test_a_moved_base_gets_a_merge_commit_and_the_same_file_changed_twice_conflicts():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    status, pull = grace.json("POST", "/api/repos/grace/handbook/pulls", {"head": "fix", "title": "Earlier", "body": "fixes #1"})
    assert (status, pull["number"], pull["mergeable"]) == (201, 2, "fast_forward")
    grace.json("PUT", "/api/repos/grace/handbook/contents/README.md", {"content": "# Office handbook\n"})
    status, pull = grace.json("GET", "/api/repos/grace/handbook/pulls/2")
    assert pull["mergeable"] == "merge"
    status, out = grace.json("PUT", "/api/repos/grace/handbook/pulls/2/merge")
    assert status == 200
    repo = state(world)["repos"]["grace/handbook"]
    merge = repo["commits"][out["sha"]]
    assert merge["merge_parent"] == repo["branches"]["fix"] and repo["branches"]["main"] == merge["id"]
    assert merge["message"] == "Merge pull request #2 from grace/handbook/fix\n\nEarlier"
    assert merge["files"] == {"README.md": "# Office handbook\n", "hours.md": "Doors open at 07:30.\nClose at 18:00.\n"}
    assert repo["issues"]["1"]["state"] == "closed"

    # a conflict: both sides change hours.md differently
    grace.json("POST", "/api/repos/grace/handbook/branches", {"name": "late", "from": "main"})
    grace.json("PUT", "/api/repos/grace/handbook/contents/hours.md", {"content": "Doors open at 10:00.\n", "branch": "late"})
    grace.json("PUT", "/api/repos/grace/handbook/contents/hours.md", {"content": "Doors open at 06:00.\n"})
    status, pull = grace.json("POST", "/api/repos/grace/handbook/pulls", {"head": "late", "title": "Late"})
    assert (pull["mergeable"], pull["conflicts"]) == ("conflict", ["hours.md"])
    _, _, html = grace("GET", "/grace/handbook/pull/3")
    assert '<p id="merge-status">This branch has conflicts that must be resolved: hours.md</p>' in html
    assert 'id="merge-form"' not in html
    frozen = state(world)
    status, _, html = grace("POST", "/grace/handbook/pull/3/merge", {})
    assert status == 409
    assert ("merge conflict: hours.md changed differently on main and late; resolve them on late first") in html
    assert state(world) is frozen
    # resolving on the head branch makes it mergeable
    grace.json("PUT", "/api/repos/grace/handbook/contents/hours.md", {"content": "Doors open at 06:00.\n", "branch": "late"})
    assert grace.json("GET", "/api/repos/grace/handbook/pulls/3")[1]["mergeable"] == "merge"


def test_issues_open_comment_close_and_reopen_by_the_right_people():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    linus = Client(world, "legal-laptop", "linus")
    margaret = Client(world, "legal-laptop", "margaret")
    status, headers, _ = margaret("POST", "/grace/handbook/issues", {"title": "Add a map", "body": "Where is Atlas?"})
    assert (status, headers["Location"]) == (303, "/grace/handbook/issues/2")
    assert linus("POST", "/grace/handbook/issues/2/comments", {"body": "+1"})[0] == 303
    status, _, html = linus("POST", "/grace/handbook/issues/2/close", {})
    assert status == 403 and "only the author or a collaborator may close #2" in html
    assert margaret("POST", "/grace/handbook/issues/2/close", {})[0] == 303
    _, _, html = grace("GET", "/grace/handbook/issues?state=closed")
    assert '<a id="issue-2" href="/grace/handbook/issues/2">#2 Add a map</a>' in html
    assert grace("POST", "/grace/handbook/issues/2/reopen", {})[0] == 303
    status, issues = grace.json("GET", "/api/repos/grace/handbook/issues")
    assert [(i["number"], i["state"], len(i["comments"])) for i in issues] == [(1, "open", 0), (2, "open", 1)]
    status, headers, _ = Client(world, "reception")("POST", "/grace/handbook/issues", {"title": "anon"})
    assert (status, headers["Location"]) == (303, "/login?next=/grace/handbook/issues")


def test_a_private_repository_is_404_to_others_and_visible_to_collaborators():
    world = World(office(site()), seed=1)
    linus = Client(world, "legal-laptop", "linus")
    margaret = Client(world, "legal-laptop", "margaret")
    status, _, html = linus("GET", "/grace/secret")
    assert status == 404 and '<p id="error-message">no repository grace/secret</p>' in html
    assert linus.json("GET", "/api/repos/grace/secret/contents/plan.txt") == (404, {"error": "no repository grace/secret"})
    assert linus("GET", "/grace/secret/raw/main/plan.txt")[0] == 404
    assert [r["full_name"] for r in linus.json("GET", "/api/repos")[1]] == ["grace/handbook"]
    assert [r["full_name"] for r in margaret.json("GET", "/api/repos")[1]] == ["grace/handbook", "grace/secret"]
    assert margaret("GET", "/grace/secret/raw/main/plan.txt")[2] == "merge with Initech\n"
    assert margaret.json("PUT", "/api/repos/grace/secret/contents/plan.txt", {"content": "no\n"})[0] == 200
    assert margaret("GET", "/grace/secret/settings")[0] == 403  # a collaborator, not the owner
    grace = Client(world, "reception", "grace")
    assert grace("POST", "/grace/secret/settings/collaborators", {"username": "linus"})[0] == 303
    assert linus("GET", "/grace/secret/raw/main/plan.txt")[2] == "no\n"


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "form", "status", "message"), [
    ("POST", "/new", {"name": "bad name"}, 400, "a repository name is letters, digits"),
    ("POST", "/new", {}, 400, "the field &#x27;name&#x27; is required"),
    ("POST", "/grace/handbook/pulls", {"head": "fix", "base": "fix", "title": "x"}, 400, "the head and the base are the same branch"),
    ("POST", "/grace/handbook/pulls", {"head": "nope", "title": "x"}, 400, "no branch &#x27;nope&#x27; in grace/handbook"),
    ("POST", "/grace/handbook/pulls", {"head": "main", "base": "fix", "title": "x"}, 409, "nothing to compare"),
    ("POST", "/grace/handbook/pulls", {"head": "fix"}, 400, "the field &#x27;title&#x27; is required"),
    ("POST", "/grace/handbook/issues", {"title": "  "}, 400, "the field &#x27;title&#x27; is required"),
    ("POST", "/grace/handbook/issues/1/comments", {"body": ""}, 400, "the field &#x27;body&#x27; is required"),
    ("POST", "/grace/handbook/issues/9/comments", {"body": "x"}, 404, "no issue or pull request #9"),
    ("POST", "/grace/handbook/new/main", {"path": "../etc/passwd", "content": "x"}, 400, "is not a file path"),
    ("POST", "/grace/handbook/new/main", {"path": "hours.md", "content": "x"}, 409, "already exists on main"),
    ("POST", "/grace/handbook/edit/main/hours.md", {"content": "Doors open at 08:00.\nClose at 18:00.\n"}, 400, "nothing changed"),
    ("POST", "/grace/handbook/edit/main/hours.md", {"content": "x", "commit_to": "new", "new_branch": "a/b"}, 400, "a branch name is"),
    ("POST", "/grace/handbook/edit/main/hours.md", {"content": "x", "commit_to": "new", "new_branch": "fix"}, 409, "already exists"),
    ("POST", "/grace/handbook/branches", {"name": "x", "from": "zzz"}, 404, "no branch or commit &#x27;zzz&#x27;"),
    ("GET", "/grace/handbook/issues?state=maybe", None, 400, "state is open, closed or all"),
])
def test_malformed_requests_are_refused_with_a_message_and_change_nothing(method, path, form, status, message):
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    frozen = state(world)
    got, _, html = grace(method, path, form)
    assert got == status and message in html
    assert state(world) is frozen


def test_unit_edge_cases_bad_json_and_a_review_event():
    kind = Git()
    built = kind.initial(site(), "$")
    auth = ("Authorization", "Basic " + base64.b64encode(b"linus:lpw").decode())

    def call(method, path, body=b"", ctype="application/json"):
        request = Request(method, parse_url("http://g" + path), Headers((auth, ("Content-Type", ctype))), body)
        return kind.handle(built, request, "reception", 0)

    response, after = call("POST", "/api/repos/grace/handbook/issues", b"{nope")
    assert response.status == 400 and after is built and b"the body is not JSON" in response.body
    pull = {"head": "fix", "title": "t"}
    response, after = call("POST", "/api/repos/grace/handbook/pulls", json.dumps(pull).encode())
    response, after2 = kind.handle(after, Request("POST", parse_url("http://g/api/repos/grace/handbook/pulls/2/reviews"),
                                                  Headers((auth, ("Content-Type", "application/json"))), b'{"event": "shrug"}'), "r", 0)
    assert response.status == 400 and after2 is after
    assert json.loads(response.body) == {"error": "a review's event is approve, request_changes or comment, not 'shrug'"}
    response, _ = call("GET", "/grace/handbook/pull/abc")
    assert response.status == 404


@pytest.mark.parametrize(("change", "where"), [
    (lambda s: s["repos"][0].update(owner="nobody"), r"\$\.services\[1\]\.initial_state\.repos\[0\]\.owner: 'nobody' is not one of the users"),
    (lambda s: s["repos"][0]["files"].update({"/abs": "x"}), r"\$\.services\[1\]\.initial_state\.repos\[0\]\.files\['/abs'\]"),
    (lambda s: s["repos"][0].update(pulls=[{"title": "x", "head": "ghost"}]), r"repos\[0\]\.pulls\[0\]\.head: no branch 'ghost'"),
    (lambda s: s["repos"][0]["issues"][0].update(state="later"), r"repos\[0\]\.issues\[0\]\.state: 'open' or 'closed'"),
    (lambda s: s["repos"][1].update(collaborators=[3]), r"repos\[1\]\.collaborators\[0\]: 3 is not one of the users"),
    (lambda s: s["repos"].append({"owner": "grace", "name": "handbook"}), r"repos\[2\]\.name: the repository 'grace/handbook' is listed twice"),
    (lambda s: s["repos"][0].update(colour="red"), r"repos\[0\]\.colour: unknown field"),
    (lambda s: s.update(repos="many"), r"initial_state\.repos: expected list or dict, got str"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(change, where):
    initial = site()
    change(initial)
    with pytest.raises(ValueError, match=where):
        World(office(initial), seed=1)


# -- snapshots, forks, replay ----------------------------------------------------------------


def test_a_snapshot_keeps_the_old_repository_and_a_fork_sees_it_through_its_own_requests():
    world = World(office(site()), seed=1)
    grace = Client(world, "reception", "grace")
    snap = world.snapshot()
    old = state(world)
    grace.json("PUT", "/api/repos/grace/handbook/contents/hours.md", {"content": "Closed.\n"})
    grace.json("POST", "/api/repos/grace/handbook/pulls", {"head": "fix", "title": "t", "body": "closes #1"})
    grace.json("PUT", "/api/repos/grace/handbook/pulls/2/merge")
    assert old["repos"]["grace/handbook"]["pulls"] == {} and old["repos"]["grace/handbook"]["issues"]["1"]["state"] == "open"
    fork = world.fork(snap)
    other = Client(fork, "legal-laptop", "linus")
    assert other("GET", "/grace/handbook/raw/main/hours.md")[2] == "Doors open at 08:00.\nClose at 18:00.\n"
    assert other.json("GET", "/api/repos/grace/handbook/issues/1")[1]["state"] == "open"
    assert Client(world, "legal-laptop", "linus")("GET", "/grace/handbook/pull/2")[0] == 200
    assert other("GET", "/grace/handbook/pull/2")[0] == 404
    copy_ = World(office(site()), seed=1)
    copy_.import_snapshot(world.export_snapshot())
    assert copy_.state_hash() == world.state_hash()


def test_the_same_steps_replay_to_the_same_state_hash():
    world = World(office(site()), seed=7)
    grace = Client(world, "reception", "grace")
    grace("POST", "/grace/handbook/edit/fix/hours.md", {"content": "Doors open at 07:00.\n", "message": "Even earlier"})
    grace("POST", "/grace/handbook/pulls", {"head": "fix", "title": "Hours", "body": "Closes #1"})
    grace("POST", "/grace/handbook/pull/2/merge", {})
    again = replay(office(site()), 7, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert again.runtime.network.services["git"] == state(world)
    assert state(world)["repos"]["grace/handbook"]["issues"]["1"]["state"] == "closed"
