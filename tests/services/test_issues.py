"""The issues kind end to end: projects and issues created, edited, transitioned, assigned
and commented from two machines of the small office, filters, the board and search, the
history of changes, members-only editing and private projects, the checks of
initial_state, 400s that change nothing, forks, snapshots and replay."""

from __future__ import annotations

import base64
import copy
import json
from urllib.parse import urlencode

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.resources import load_world
from cwgym.services.issues import Issues

HOST = "issues.office.internal"
BASE = f"http://{HOST}:8070"
USERS = [{"name": "grace", "password": "gpw"}, {"name": "linus", "password": "lpw"}, {"name": "sam", "password": "spw"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}


def office(initial_state: dict | None = None) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "issues", "kind": "issues", "node": "fileserver", "port": 8070, "domains": [HOST],
                          "initial_state": initial_state})
    d["network"]["dns"].append({"name": HOST, "address": "10.20.1.5", "ttl_us": 60_000_000, "resolver": "fileserver"})
    return d


def tracker() -> dict:
    return {"users": USERS, "projects": [
        {"key": "OPS", "name": "Operations", "members": ["grace", "linus"], "public_comments": True, "issues": [
            {"title": "Backup failed: disk full", "description": "See backup.log", "priority": "high",
             "labels": ["infra", "backup"], "assignee": "linus", "reporter": "grace"},
            {"title": "Printer jams", "labels": ["office"], "comments": [{"author": "linus", "body": "Again?"}]},
            {"title": "Renew the domain", "state": "done", "priority": "low"}]},
        {"key": "LEGAL", "name": "Legal", "members": ["linus"], "private": True,
         "workflow": ["intake", "review", "closed"], "issues": [{"title": "Okafor retainer"}]},
    ]}


class Client:
    """http.v1 from one machine, as one user (Basic credentials)."""

    def __init__(self, world: World, machine: str, user: str | None = None) -> None:
        computer = next(c for c in world.definition()["computers"] if c["id"] == machine)
        self.env = world.environment({"actor": computer["user"], "machines": [machine],
                                      "actions": ["terminal.v1", "http.v1"], "observations": []})
        self.machine, self.user = machine, user

    def __call__(self, method: str, path: str, form: dict | None = None, json_body=None):
        headers = {}
        if self.user:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{self.user}:{PASSWORDS[self.user]}".encode()).decode()
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

    def json(self, method: str, path: str, body=None):
        status, _, text = self(method, path, json_body=body)
        return status, json.loads(text)

    def sh(self, command: str) -> dict:
        out = self.env.step([{"family": "terminal.v1", "op": "execute", "machine": self.machine,
                              "payload": {"command": command}}])
        return out["outcomes"][0]["value"]


def state(world: World) -> dict:
    return world.runtime.network.services["issues"]


def test_an_empty_tracker_has_a_home_page_and_a_project_is_created_with_curl():
    world = World(office(), seed=1)
    grace = Client(world, "reception")
    status, _, html = grace("GET", "/")
    assert status == 200 and '<p id="no-projects">No projects yet.</p>' in html
    grace.sh(f"curl -s -d username=grace -d password=pw {BASE}/signup")
    out = grace.sh(f"curl -s -i -u grace:pw -d name=Facilities -d key=fac {BASE}/projects")["stdout"]
    assert out.startswith("HTTP/1.1 303") and "Location: /projects/FAC\r\n" in out
    out = grace.sh(f"curl -s -u grace:pw -H 'Content-Type: application/json' "
                   f"-d '{{\"title\": \"Fix the door\", \"labels\": [\"door\"]}}' {BASE}/api/projects/FAC/issues")["stdout"]
    issue = json.loads(out)
    assert (issue["key"], issue["state"], issue["priority"], issue["reporter"], issue["labels"]) == \
        ("FAC-1", "open", "medium", "grace", ["door"])
    assert state(world)["projects"]["FAC"]["members"] == ["grace"]
    assert grace.sh(f"curl -s -o /dev/null -w '%{{http_code}}' -u grace:pw -d name=X -d key=FAC {BASE}/projects")["stdout"] == "409"


def test_a_transition_on_one_machine_is_seen_on_the_other_only_by_asking_and_is_in_the_history():
    world = World(office(tracker()), seed=1)
    grace = Client(world, "reception", "grace")
    linus = Client(world, "legal-laptop", "linus")
    _, _, before = grace("GET", "/browse/OPS-1")
    assert '<p id="issue-state">open</p>' in before
    status, headers, _ = linus("POST", "/browse/OPS-1/transition", {"state": "in progress"})
    assert (status, headers["Location"]) == (303, "/browse/OPS-1")
    assert linus("POST", "/browse/OPS-1/assign", {"assignee": "grace"})[0] == 303
    assert linus("POST", "/browse/OPS-1/edit", {"labels": "infra, urgent", "priority": "highest"})[0] == 303
    _, _, after = grace("GET", "/browse/OPS-1")
    assert '<p id="issue-state">in progress</p>' in after and '<p id="issue-assignee">grace</p>' in after
    assert '<p id="issue-labels">infra, urgent</p>' in after
    assert '<p id="history-1">linus changed state from open to in progress · 2026-09-17 09:00</p>' in after
    assert '<p id="history-2">linus changed assignee from linus to grace · 2026-09-17 09:00</p>' in after
    status, issue = grace.json("GET", "/api/issues/OPS-1")
    assert [(h["field"], h["from"], h["to"], h["author"]) for h in issue["history"]] == [
        ("state", "open", "in progress", "linus"), ("assignee", "linus", "grace", "linus"),
        ("priority", "high", "highest", "linus"), ("labels", ["infra", "backup"], ["infra", "urgent"], "linus")]
    # the same values again change nothing and add no history
    assert linus("POST", "/browse/OPS-1/transition", {"state": "in progress"})[0] == 303
    assert len(state(world)["projects"]["OPS"]["issues"]["1"]["history"]) == 4


def test_filters_board_search_and_my_issues():
    world = World(office(tracker()), seed=1)
    linus = Client(world, "legal-laptop", "linus")
    grace = Client(world, "reception", "grace")

    def keys(path: str) -> list[str]:
        status, found = linus.json("GET", path)
        assert status == 200, found
        return [i["key"] for i in found]

    assert keys("/api/projects/OPS/issues") == ["OPS-1", "OPS-2", "OPS-3"]
    assert keys("/api/projects/OPS/issues?state=done") == ["OPS-3"]
    assert keys("/api/projects/OPS/issues?label=office") == ["OPS-2"]
    assert keys("/api/projects/OPS/issues?assignee=linus") == ["OPS-1"]
    assert keys("/api/projects/OPS/issues?assignee=me") == ["OPS-1"]
    assert keys("/api/projects/OPS/issues?assignee=none&state=open") == ["OPS-2"]
    assert keys("/api/projects/OPS/issues?q=again") == ["OPS-2"]  # comments are searched
    assert keys("/api/search?q=r") == ["LEGAL-1", "OPS-2", "OPS-3"]  # linus sees the private project
    _, found = grace.json("GET", "/api/search?q=r")
    assert [i["key"] for i in found] == ["OPS-2", "OPS-3"]  # grace does not
    _, _, html = linus("GET", "/projects/OPS?label=infra")
    assert '<p id="issue-count">1 issue</p>' in html and '<a id="issue-OPS-1" href="/browse/OPS-1">OPS-1</a>' in html
    _, _, board = linus("GET", "/projects/OPS/board")
    assert '<h3 id="column-1">open (2)</h3>' in board and '<h3 id="column-3">done (1)</h3>' in board
    assert '<a id="card-OPS-1" href="/browse/OPS-1">OPS-1 Backup failed: disk full · linus</a>' in board
    _, _, home = linus("GET", "/")
    assert '<table id="mine">' in home and 'id="issue-OPS-1"' in home
    _, _, html = linus("GET", "/search?q=domain")
    assert '<p id="issue-count">1 issue</p>' in html and 'id="issue-OPS-3"' in html


def test_only_members_edit_others_comment_when_allowed_and_private_projects_are_404():
    world = World(office(tracker()), seed=1)
    sam = Client(world, "reception", "sam")
    grace = Client(world, "reception", "grace")
    frozen = state(world)
    status, _, html = sam("POST", "/browse/OPS-1/transition", {"state": "done"})
    assert status == 403 and "only members of OPS may change it or its issues" in html
    assert sam.json("PATCH", "/api/issues/OPS-1", {"title": "mine"}) == (403, {"error": "only members of OPS may change it or its issues"})
    assert sam("POST", "/projects/OPS/issues", {"title": "x"})[0] == 403
    assert state(world) is frozen
    assert sam("POST", "/browse/OPS-2/comment", {"body": "Still jams"})[0] == 303  # public_comments
    assert state(world)["projects"]["OPS"]["issues"]["2"]["comments"][-1]["author"] == "sam"
    assert grace("POST", "/browse/LEGAL-1/comment", {"body": "hi"})[0] == 404
    status, _, html = grace("GET", "/projects/LEGAL")
    assert status == 404 and '<p id="error-message">no project LEGAL</p>' in html
    assert [p["key"] for p in grace.json("GET", "/api/projects")[1]] == ["OPS"]
    linus = Client(world, "legal-laptop", "linus")
    assert linus("POST", "/projects/LEGAL/members", {"username": "grace"})[0] == 303
    assert grace("GET", "/browse/LEGAL-1")[0] == 200
    status, headers, _ = Client(world, "reception")("POST", "/browse/OPS-2/comment", {"body": "anon"})
    assert (status, headers["Location"]) == (303, "/login?next=/browse/OPS-2/comment")


def test_a_custom_workflow_is_what_transitions_follow():
    world = World(office(tracker()), seed=1)
    linus = Client(world, "legal-laptop", "linus")
    _, _, html = linus("GET", "/browse/LEGAL-1")
    assert '<option value="intake" selected>intake</option><option value="review">review</option>' in html
    status, out = linus.json("PATCH", "/api/issues/LEGAL-1", {"state": "done"})
    assert (status, out) == (400, {"error": "state is one of intake, review, closed, not 'done'"})
    status, out = linus.json("PATCH", "/api/issues/LEGAL-1", {"state": "review", "assignee": "linus"})
    assert (status, out["state"], out["assignee"]) == (200, "review", "linus")


@pytest.mark.parametrize(("method", "path", "form", "status", "message"), [
    ("POST", "/projects", {"name": "X", "key": "1X"}, 400, "a project key is 2-10 capital letters"),
    ("POST", "/projects", {"key": "NEW"}, 400, "the field &#x27;name&#x27; is required"),
    ("POST", "/projects/OPS/issues", {"description": "no title"}, 400, "the field &#x27;title&#x27; is required"),
    ("POST", "/projects/OPS/issues", {"title": "x", "priority": "urgent"}, 400, "priority is one of lowest"),
    ("POST", "/browse/OPS-1/transition", {}, 400, "the field &#x27;state&#x27; is required"),
    ("POST", "/browse/OPS-1/transition", {"state": "closed"}, 400, "state is one of open, in progress, done"),
    ("POST", "/browse/OPS-1/assign", {"assignee": "sam"}, 400, "&#x27;sam&#x27; is not a member of OPS"),
    ("POST", "/browse/OPS-1/edit", {"labels": "good label"}, 400, "is not a label"),
    ("POST", "/browse/OPS-1/edit", {"title": "   "}, 400, "the title is 1-300 characters"),
    ("POST", "/browse/OPS-1/comment", {"body": ""}, 400, "the field &#x27;body&#x27; is required"),
    ("POST", "/browse/OPS-99/comment", {"body": "x"}, 404, "no issue OPS-99"),
    ("GET", "/browse/nonsense", None, 404, "an issue key looks like OPS-12"),
    ("GET", "/projects/OPS?priority=urgent", None, 400, "priority is one of lowest"),
    ("POST", "/projects/OPS/members", {"username": "ghost"}, 400, "no user &#x27;ghost&#x27;"),
])
def test_malformed_requests_are_refused_with_a_message_and_change_nothing(method, path, form, status, message):
    world = World(office(tracker()), seed=1)
    grace = Client(world, "reception", "grace")
    frozen = state(world)
    got, _, html = grace(method, path, form)
    assert got == status and message in html
    assert state(world) is frozen


def test_unit_json_edge_cases():
    kind = Issues()
    built = kind.initial(tracker(), "$")
    auth = ("Authorization", "Basic " + base64.b64encode(b"grace:gpw").decode())

    def patch(body: bytes):
        request = Request("PATCH", parse_url("http://i/api/issues/OPS-2"), Headers((auth, ("Content-Type", "application/json"))), body)
        return kind.handle(built, request, "reception", 0)

    for body, message in ((b"[1]", "send a JSON object"), (b"{}", "send at least one of"),
                          (b'{"colour": "red"}', "'colour' is not a field of an issue you can change"),
                          (b'{"labels": 5}', "labels are a list or comma-separated text"),
                          (b'{"title": 5}', "the title is 1-300 characters")):
        response, after = patch(body)
        assert response.status == 400 and after is built
        assert json.loads(response.body)["error"].startswith(message)
    response, after = patch(b'{"labels": ["a", "a", "b"], "assignee": null}')
    assert response.status == 200 and json.loads(response.body)["labels"] == ["a", "b"]
    assert built["projects"]["OPS"]["issues"]["2"]["labels"] == ["office"]  # the old state is as it was
    assert kind.initial(copy.deepcopy(after), "$") == after


@pytest.mark.parametrize(("change", "where"), [
    (lambda s: s["projects"][0].update(key="ops"), r"projects\[0\]\.key: a project key is"),
    (lambda s: s["projects"][0]["issues"][0].update(state="blocked"), r"projects\[0\]\.issues\[0\]\.state: 'blocked' is not in the workflow"),
    (lambda s: s["projects"][0]["issues"][1].update(assignee="sam"), r"projects\[0\]\.issues\[1\]\.assignee: 'sam' is not a member of OPS"),
    (lambda s: s["projects"][0]["issues"][0].update(priority="p1"), r"projects\[0\]\.issues\[0\]\.priority: 'p1' is not one of"),
    (lambda s: s["projects"][0]["issues"][0].update(labels=["two words"]), r"projects\[0\]\.issues\[0\]\.labels: 'two words' is not a label"),
    (lambda s: s["projects"][1].update(members=["nobody"]), r"projects\[1\]\.members\[0\]: 'nobody' is not one of the users"),
    (lambda s: s["projects"][1].update(workflow=[]), r"projects\[1\]\.workflow: a list of distinct state names"),
    (lambda s: s["projects"].append({"key": "OPS", "name": "again"}), r"projects\[2\]\.key: the key 'OPS' is listed twice"),
    (lambda s: s["projects"][0]["issues"][1]["comments"][0].update(author="x"), r"projects\[0\]\.issues\[1\]\.comments\[0\]\.author: 'x'"),
])
def test_a_malformed_initial_state_is_refused_naming_the_path(change, where):
    initial = tracker()
    change(initial)
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\." + where):
        World(office(initial), seed=1)


def test_members_default_to_every_user_and_the_reporter_to_the_first_member():
    built = Issues().initial({"users": USERS, "projects": [{"key": "HR", "name": "People", "issues": [{"title": "Hire"}]}]}, "$")
    project = built["projects"]["HR"]
    assert project["members"] == ["grace", "linus", "sam"] and project["issues"]["1"]["reporter"] == "grace"
    assert project["workflow"] == ["open", "in progress", "done"] and project["next_number"] == 2


def test_a_snapshot_keeps_the_old_issue_and_a_fork_sees_it_through_its_own_requests():
    world = World(office(tracker()), seed=1)
    linus = Client(world, "legal-laptop", "linus")
    snap = world.snapshot()
    old = state(world)
    linus.json("PATCH", "/api/issues/OPS-1", {"state": "done"})
    linus.json("POST", "/api/issues/OPS-1/comments", {"body": "Freed 20 GB"})
    assert old["projects"]["OPS"]["issues"]["1"]["state"] == "open" and old["projects"]["OPS"]["issues"]["1"]["comments"] == []
    fork = world.fork(snap)
    assert Client(fork, "reception", "grace").json("GET", "/api/issues/OPS-1")[1]["state"] == "open"
    assert Client(world, "reception", "grace").json("GET", "/api/issues/OPS-1")[1]["state"] == "done"
    again = World(office(tracker()), seed=1)
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()


def test_the_same_steps_replay_to_the_same_state_hash():
    world = World(office(tracker()), seed=3)
    linus = Client(world, "legal-laptop", "linus")
    linus("POST", "/projects/OPS/issues", {"title": "New laptop", "assignee": "grace", "labels": "hardware"})
    linus("POST", "/browse/OPS-4/transition", {"state": "in progress"})
    linus("POST", "/browse/OPS-4/comment", {"body": "Ordered"})
    again = replay(office(tracker()), 3, world.trajectory())
    assert again.state_hash() == world.state_hash()
    issue = again.runtime.network.services["issues"]["projects"]["OPS"]["issues"]["4"]
    assert (issue["key"], issue["state"], issue["assignee"], issue["labels"], len(issue["comments"])) == \
        ("OPS-4", "in progress", "grace", ["hardware"], 1)
