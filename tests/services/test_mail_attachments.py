"""Attachments in the mail kind: sent through the JSON API and kept by the web compose form
(forward, drafts), listed on the message page and in the API, downloaded with their bytes
and type, checked in ``initial_state`` with the path named, capped, stored once per
content and dropped when no message refers to it, seen by a procedure's ``find``, and
carried through snapshots, forks and replay."""

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
from cwgym.procedures.checks import CHECK_KINDS, CheckResult
from cwgym.resources import load_world
from cwgym.services import mail as mail_kind
from cwgym.services.mail import ATTACHMENT_BYTES_MAX, ATTACHMENTS_MAX, Mail

HOST = "http://mail.office.internal:8025"
USERS = [{"name": "alice", "password": "wonder", "display": "Alice Smith"},
         {"name": "bob", "password": "builder", "display": "Bob Jones"},
         {"name": "carol", "password": "singer"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}
PDF = b"%PDF-1.4\n\x00\xff\xfe binary \x80\x81 end\n"
CSV = "item,qty\npaper,3\n"
KIND = Mail()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def basic(user: str) -> str:
    return "Basic " + _b64(f"{user}:{PASSWORDS[user]}".encode())


def call(state: dict, method: str, path: str, user: str | None = None, form: dict | None = None, body=None):
    """``(status, headers, decoded body or bytes, state after)`` of one request to the kind."""
    headers = [("Authorization", basic(user))] if user else []
    data = b""
    if form is not None:
        data = urlencode(form).encode()
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
    elif body is not None:
        data = json.dumps(body).encode()
        headers.append(("Content-Type", "application/json"))
    request = Request(method, parse_url("http://mail" + path), Headers(tuple(headers)), data)
    response, after = KIND.handle(state, request, "reception", 1_000_000)
    kind = response.headers.get("content-type") or ""
    if kind == "application/json":
        out = json.loads(response.body)
    elif kind.startswith("text/html"):
        out = response.body.decode()
    else:
        out = response.body
    return response.status, response.headers, out, after


def fresh(**extra) -> dict:
    return KIND.initial({"users": USERS, **extra}, "$")


def sent_with_files(state: dict | None = None) -> tuple[dict, int]:
    """Alice sends bob a PDF and a CSV through the API: ``(state, id of bob's copy)``."""
    state = fresh() if state is None else state
    files = [{"name": "report.pdf", "data": _b64(PDF)}, {"name": "stock.csv", "text": CSV}]
    status, _, out, state = call(state, "POST", "/api/send", "alice",
                                 body={"to": "bob@mail.local", "subject": "Figures", "body": "Both attached.",
                                       "attachments": files})
    assert status == 201, out
    return state, state["mailboxes"]["bob"][-1]["id"]


# -- the JSON API ---------------------------------------------------------------------------

def test_api_send_lists_and_downloads_the_bytes_with_their_type():
    state, n = sent_with_files()
    pdf, csv = hashlib.sha256(PDF).hexdigest(), hashlib.sha256(CSV.encode()).hexdigest()
    bob_copy = state["mailboxes"]["bob"][-1]
    assert bob_copy["attachments"] == [
        {"name": "report.pdf", "type": "application/pdf", "size": len(PDF), "sha256": pdf},
        {"name": "stock.csv", "type": "text/csv", "size": len(CSV), "sha256": csv}]
    # the Sent copy refers to the same contents, kept once
    assert state["mailboxes"]["alice"][0]["attachments"] == bob_copy["attachments"]
    assert sorted(state["blobs"]) == sorted([pdf, csv])
    _, _, listing, _ = call(state, "GET", "/api/messages", "bob")
    assert listing["messages"][0]["attachments"] == [
        {"index": 0, "name": "report.pdf", "type": "application/pdf", "size": len(PDF)},
        {"index": 1, "name": "stock.csv", "type": "text/csv", "size": len(CSV)}]
    status, headers, data, after = call(state, "GET", f"/api/messages/{n}/attachments/0", "bob")
    assert (status, data, after) == (200, PDF, state)
    assert headers.get("content-type") == "application/pdf"
    assert headers.get("content-disposition") == 'attachment; filename="report.pdf"'
    assert call(state, "GET", f"/api/messages/{n}/attachments/1", "bob")[2] == CSV.encode()
    # a message without attachments says so, and other users cannot download
    _, _, plain, state2 = call(state, "POST", "/api/send", "bob", body={"to": "alice@mail.local", "subject": "ok", "body": "."})
    assert call(state2, "GET", f"/api/messages/{plain['id']}", "bob")[2]["attachments"] == []
    assert "attachments" not in state2["mailboxes"]["bob"][-1]
    status, _, err, _ = call(state, "GET", f"/api/messages/{n}/attachments/0", "carol")
    assert (status, err) == (404, {"error": f"no message {n} in your mailbox"})
    status, _, err, _ = call(state, "GET", f"/api/messages/{n}/attachments/2", "bob")
    assert (status, err["error"]) == (404, f"message {n} has no attachment '2' (it has 2, numbered from 0)")


def test_the_message_page_links_each_attachment_to_its_download():
    state, n = sent_with_files()
    _, _, page, _ = call(state, "GET", f"/message/{n}", "bob")
    assert '<p id="attachments-title"><strong>2 attachments</strong></p>' in page
    assert f'<a id="attachment-0" href="/message/{n}/attachments/0">report.pdf ({len(PDF)} bytes, application/pdf)</a>' in page
    assert f'href="/message/{n}/attachments/1">stock.csv ({len(CSV)} bytes, text/csv)</a>' in page
    status, headers, data, _ = call(state, "GET", f"/message/{n}/attachments/0", "bob")
    assert (status, data, headers.get("content-type")) == (200, PDF, "application/pdf")
    # a message without files shows no such section
    _, _, plain, _ = call(fresh(), "GET", "/compose", "bob")
    assert "attachments-title" not in plain
    # search finds a message by an attachment's name
    _, _, found, _ = call(state, "GET", "/api/search?q=stock.csv", "bob")
    assert [m["id"] for m in found["messages"]] == [n]


def test_a_reference_passes_on_an_attachment_of_ones_own_message():
    state, n = sent_with_files()
    status, _, out, after = call(state, "POST", "/api/send", "bob", body={
        "to": "carol@mail.local", "subject": "Fwd: Figures", "body": "See the PDF.",
        "attachments": [{"message": n, "index": 0}, {"name": "note.txt", "text": "hello", "type": "Text/Plain"}]})
    assert status == 201, out
    carol = after["mailboxes"]["carol"][-1]
    assert [(f["name"], f["type"]) for f in carol["attachments"]] == [("report.pdf", "application/pdf"), ("note.txt", "text/plain")]
    assert call(after, "GET", f"/api/messages/{carol['id']}/attachments/0", "carol")[2] == PDF
    assert len(after["blobs"]) == 3  # the PDF is not stored twice
    # alice's own Sent copy cannot be referenced by bob
    status, _, err, same = call(state, "POST", "/api/send", "bob", body={
        "to": "carol@mail.local", "subject": "x", "body": "", "attachments": [{"message": 1, "index": 0}]})
    assert (status, err["error"], same is state) == (400, "attachments[0].message: no message 1 in your mailbox", True)


# -- the web forms --------------------------------------------------------------------------

def test_web_forward_keeps_the_checked_attachments():
    state, n = sent_with_files()
    _, _, page, _ = call(state, "GET", f"/compose?forward={n}", "bob")
    assert f'<input id="compose-forward" type="hidden" name="forward" value="{n}">' in page
    assert 'name="keep-0" value="on" checked' in page and 'name="keep-1" value="on" checked' in page
    assert f"report.pdf ({len(PDF)} bytes, application/pdf)" in page
    # the PDF stays checked, the CSV is unchecked
    status, _, _, after = call(state, "POST", "/send", "bob", form={
        "to": "carol@mail.local", "subject": "Fwd: Figures", "body": "fyi", "forward": str(n), "keep-0": "on"})
    assert status == 303
    carol = after["mailboxes"]["carol"][-1]
    assert [f["name"] for f in carol["attachments"]] == ["report.pdf"]
    assert call(after, "GET", f"/message/{carol['id']}/attachments/0", "carol")[2] == PDF
    # a reply carries none
    _, _, reply, _ = call(state, "GET", f"/compose?reply={n}", "bob")
    assert "keep-0" not in reply


def test_a_draft_keeps_its_attachments_until_it_is_sent_and_contents_are_collected():
    state, n = sent_with_files()
    status, _, _, state = call(state, "POST", "/send", "bob", form={
        "action": "save", "to": "carol@mail.local", "subject": "later", "forward": str(n), "keep-0": "on", "keep-1": "on"})
    assert status == 303
    draft = next(m for m in state["mailboxes"]["bob"] if m["folder"] == "Drafts")
    assert [f["name"] for f in draft["attachments"]] == ["report.pdf", "stock.csv"]
    _, _, page, _ = call(state, "GET", f"/compose?draft={draft['id']}", "bob")
    assert 'name="keep-1" value="on" checked' in page and 'id="compose-forward"' not in page
    status, _, _, state = call(state, "POST", "/send", "bob", form={
        "to": "carol@mail.local", "subject": "later", "body": "", "draft": str(draft["id"]), "keep-1": "on"})
    assert status == 303
    assert [f["name"] for f in state["mailboxes"]["carol"][-1]["attachments"]] == ["stock.csv"]
    assert not any(m["folder"] == "Drafts" for m in state["mailboxes"]["bob"])
    # deleting every copy forever drops the contents from the store
    for user in ("alice", "bob", "carol"):
        for m in list(state["mailboxes"][user]):
            for _ in range(2):
                found = [x for x in state["mailboxes"][user] if x["id"] == m["id"]]
                if found:
                    _, _, _, state = call(state, "DELETE", f"/api/messages/{m['id']}", user)
    assert all(not box for box in state["mailboxes"].values())
    assert "blobs" not in state


# -- validation and caps --------------------------------------------------------------------

SEED = {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "s", "body": "b"}
BAD_STATES = [
    ({"attachments": "report.pdf"}, r"\$\.mailboxes\.bob\[0\]\.attachments: expected list, got str"),
    ({"attachments": [{"data": "AA=="}]}, r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]\.name: required"),
    ({"attachments": [{"name": "a", "data": "AA==", "text": "x"}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]: give the content as data \(base64\) or text, one of them"),
    ({"attachments": [{"name": "a.bin", "data": "not base64!"}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]\.data: not base64"),
    ({"attachments": [{"name": "x", "text": "1"}, {"name": "../etc/passwd", "text": "x"}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[1\]\.name: '\.\./etc/passwd' is not a file name"),
    ({"attachments": [{"name": "a", "text": "x", "type": "pdf"}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]\.type: a media type like application/pdf, got 'pdf'"),
    ({"attachments": [{"name": "a", "text": "x", "size": 1}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]\.size: unknown field"),
    ({"attachments": [{"name": f"f{i}", "text": "x"} for i in range(ATTACHMENTS_MAX + 1)]},
     rf"\$\.mailboxes\.bob\[0\]\.attachments: at most {ATTACHMENTS_MAX} attachments a message, got {ATTACHMENTS_MAX + 1}"),
    ({"attachments": [{"name": "big", "text": "x" * (ATTACHMENT_BYTES_MAX + 1)}]},
     rf"\$\.mailboxes\.bob\[0\]\.attachments: {ATTACHMENT_BYTES_MAX + 1} bytes together, more than the {ATTACHMENT_BYTES_MAX}"),
    ({"attachments": [{"name": "a", "type": "text/plain", "size": 1, "sha256": "0" * 64}]},
     r"\$\.mailboxes\.bob\[0\]\.attachments\[0\]\.sha256: no content '0{64}' in blobs"),
]


@pytest.mark.parametrize(("extra", "message"), BAD_STATES)
def test_a_malformed_attachment_in_initial_state_names_the_path(extra, message):
    with pytest.raises(ValueError, match=message):
        KIND.initial({"users": USERS, "mailboxes": {"bob": [{**SEED, **extra}]}}, "$")


def test_malformed_blobs_are_refused_and_a_world_names_the_service():
    with pytest.raises(ValueError, match=r"\$\.blobs\.abc: a key is the sha256 of the content"):
        KIND.initial({"users": USERS, "blobs": {"abc": "AA=="}}, "$")
    with pytest.raises(ValueError, match=r"\$\.blobs\.0{64}: the content's sha256 is 6e340b9c"):
        KIND.initial({"users": USERS, "blobs": {"0" * 64: "AA=="}}, "$")
    d = office({"users": USERS, "mailboxes": {"bob": [{**SEED, "attachments": [{"name": "a/b", "text": "x"}]}]}})
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\.mailboxes\.bob\[0\]\.attachments\[0\]\.name"):
        World(d, seed=1)


BAD_SENDS = [
    ({"attachments": {"name": "a"}}, "attachments: a list of attachments, got dict"),
    ({"attachments": [{"name": "a", "data": "%%%"}]},
     "attachments[0].data: not base64 (A-Z, a-z, 0-9, '+', '/', padded with '=')"),
    ({"attachments": [{"name": "", "text": "x"}]}, "attachments[0].name: a file name is a non-empty text, got ''"),
    ({"attachments": [{"name": "a", "text": "x", "sha256": "0" * 64}]},
     "attachments[0].sha256: unknown field (known: data, index, message, name, text, type)"),
    ({"attachments": [{"message": "1", "index": 0}]}, "attachments[0].message: expected int, got str"),
    ({"attachments": [{"name": f"f{i}", "text": "x"} for i in range(ATTACHMENTS_MAX + 1)]},
     f"attachments: at most {ATTACHMENTS_MAX} attachments a message, got {ATTACHMENTS_MAX + 1}"),
    ({"attachments": [{"name": "a", "data": _b64(b"x" * (ATTACHMENT_BYTES_MAX // 2 + 1))},
                      {"name": "b", "data": _b64(b"y" * (ATTACHMENT_BYTES_MAX // 2))}]},
     f"attachments: {ATTACHMENT_BYTES_MAX + 1} bytes together, more than the {ATTACHMENT_BYTES_MAX} a message may carry"),
]


@pytest.mark.parametrize(("extra", "message"), BAD_SENDS)
def test_a_malformed_send_is_a_400_naming_the_item_and_changes_nothing(extra, message):
    state = fresh()
    status, _, out, after = call(state, "POST", "/api/send", "alice",
                                 body={"to": "bob@mail.local", "subject": "s", "body": "b", **extra})
    assert (status, out, after is state) == (400, {"error": message}, True)


def test_the_store_cap_refuses_new_content_with_507(monkeypatch):
    monkeypatch.setattr(mail_kind, "STORE_BYTES_MAX", len(PDF) + len(CSV))
    state, n = sent_with_files()
    status, _, out, after = call(state, "POST", "/api/send", "bob", body={
        "to": "carol@mail.local", "subject": "s", "body": "", "attachments": [{"name": "x", "text": "new"}]})
    assert (status, after is state) == (507, True)
    assert out["error"].startswith("the mail store is full")
    # content already stored is passed on without growing the store
    status, _, _, _ = call(state, "POST", "/api/send", "bob", body={
        "to": "carol@mail.local", "subject": "s", "body": "", "attachments": [{"message": n, "index": 1}]})
    assert status == 201


# -- state, checks and the world ------------------------------------------------------------

def test_seeded_attachments_are_built_once_and_the_built_state_passes_again():
    state = KIND.initial({"users": USERS, "mailboxes": {
        "bob": [{**SEED, "attachments": [{"name": "Rapport été.pdf", "data": _b64(PDF)}]}],
        "carol": [{**SEED, "to": "carol@mail.local", "attachments": [{"name": "copy.pdf", "data": _b64(PDF),
                                                                       "type": "application/x-pdf"}]}]}}, "$")
    digest = hashlib.sha256(PDF).hexdigest()
    assert state["blobs"] == {digest: _b64(PDF)}
    assert state["mailboxes"]["carol"][0]["attachments"] == [
        {"name": "copy.pdf", "type": "application/x-pdf", "size": len(PDF), "sha256": digest}]
    assert KIND.initial(state, "$") == state
    # a state whose blobs nothing refers to drops them
    assert "blobs" not in KIND.initial({"users": USERS, "blobs": {digest: _b64(PDF)}}, "$")
    # a name beyond ASCII downloads with an RFC 6266 name
    _, headers, _, _ = call(state, "GET", "/api/messages/1/attachments/0", "bob")
    assert headers.get("content-disposition") == (
        "attachment; filename=\"Rapport _t_.pdf\"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9.pdf")


def office(initial_state: dict) -> dict:
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "webmail", "kind": "mail", "node": "fileserver", "port": 8025,
                          "domains": ["mail.office.internal"], "initial_state": initial_state})
    d["network"]["dns"].append({"name": "mail.office.internal", "address": "10.20.1.5", "ttl_us": 60_000_000,
                                "resolver": "fileserver"})
    return d


def shell(world: World, name: str):
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1"], "observations": []})

    def run(command: str) -> str:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        value = out["outcomes"][0]["value"]
        assert value["exit_code"] == 0, value
        return value["stdout"]

    return run


def test_curl_round_trip_on_machines_with_find_snapshot_fork_and_replay():
    world = World(office({"users": USERS}), seed=3)
    alice, bob = shell(world, "reception"), shell(world, "legal-laptop")
    payload = json.dumps({"to": "bob@mail.local", "subject": "Stock", "body": "attached",
                          "attachments": [{"name": "stock.csv", "text": CSV}, {"name": "report.pdf", "data": _b64(PDF)}]})
    alice(f"printf '%s' '{payload}' > send.json")
    out = json.loads(alice(f"curl -s -u alice:wonder -H 'Content-Type: application/json' -d @send.json {HOST}/api/send"))
    assert out["delivered"] == ["bob@mail.local"]
    before = world.snapshot()
    inbox = json.loads(bob(f"curl -s -u bob:builder '{HOST}/api/messages?folder=Inbox'"))["messages"]
    n = inbox[0]["id"]
    bob(f"curl -s -u bob:builder -o stock.csv {HOST}/message/{n}/attachments/0")
    bob_machine = world.machine("legal-laptop")
    assert bob_machine.user_fs().read("stock.csv", bob_machine.home) == CSV.encode()
    bob(f"curl -s -u bob:builder -o report.pdf {HOST}/api/messages/{n}/attachments/1")
    assert bob_machine.user_fs().read("report.pdf", bob_machine.home) == PDF
    # a procedure's find sees the attachment's name in the service's records
    spec = {"service": "webmail", "pointer": "/mailboxes/bob",
            "where": {"/subject": "Stock", "/attachments/0/name": "stock.csv", "/attachments/0/type": "text/csv"}, "count": 1}
    result = CheckResult(index=0, kind="find", passed=False, subject="")
    CHECK_KINDS["find"].judge(world, bob_machine, spec, result)
    assert result.passed, result.reason
    # snapshots, forks and exports carry the attachments
    fork = world.fork(before)
    assert fork.service_state("webmail")["blobs"] == world.service_state("webmail")["blobs"]
    again = World(office({"users": USERS}), seed=3)
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash()
    replayed = replay(office({"users": USERS}), 3, world.trajectory())
    assert replayed.state_hash() == world.state_hash()
    assert replayed.service_state("webmail") == world.service_state("webmail")
