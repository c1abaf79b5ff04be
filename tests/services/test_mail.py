"""The mail kind end to end: sign-in, folders, reading (marks read), compose with several
recipients, reply and forward, drafts, delete to Trash and forever, user folders and moves,
search in one's own mail, bounces, per-user privacy, a change on one machine seen from
another only through its own request, malformed input, snapshots, forks and replay."""

from __future__ import annotations

import base64
import copy
import json
import re

import pytest

from cwgym import World
from cwgym.environment.replay import replay
from cwgym.net.http import Headers, Request, parse_url
from cwgym.resources import load_world
from cwgym.services.mail import Mail

HOST = "http://mail.office.internal:8025"
USERS = [{"name": "alice", "password": "wonder", "display": "Alice Smith"},
         {"name": "bob", "password": "builder", "display": "Bob Jones"},
         {"name": "carol", "password": "singer"}]
PASSWORDS = {u["name"]: u["password"] for u in USERS}


def office(initial_state=None) -> dict:
    """The small office with webmail on the file server (port 8025)."""
    d = copy.deepcopy(load_world("small-office"))
    d["services"].append({"id": "webmail", "kind": "mail", "node": "fileserver", "port": 8025,
                          "domains": ["mail.office.internal"],
                          "initial_state": {"users": USERS} if initial_state is None else initial_state})
    d["network"]["dns"].append({"name": "mail.office.internal", "address": "10.20.1.5", "ttl_us": 60_000_000,
                                "resolver": "fileserver"})
    return d


def machine(world: World, name: str):
    """``(run, http)`` on a machine: a shell command, and an http.v1 request."""
    computer = next(c for c in world.definition()["computers"] if c["id"] == name)
    env = world.environment({"actor": computer["user"], "machines": [name], "actions": ["terminal.v1", "http.v1"],
                             "observations": []})

    def run(command: str) -> dict:
        out = env.step([{"family": "terminal.v1", "op": "execute", "machine": name, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(method: str, path: str, user: str | None = None, body=None, headers=None) -> tuple[int, object]:
        headers = dict(headers or {})
        if user is not None:
            headers["Authorization"] = basic(user)
        if isinstance(body, dict | list):
            body, headers["Content-Type"] = json.dumps(body), "application/json"
        payload = {"method": method, "url": HOST + path, "headers": headers, **({"body": body} if body is not None else {})}
        out = env.step([{"family": "http.v1", "op": "request", "machine": name, "payload": payload}])
        value = out["outcomes"][0]["value"]
        text = bytes(value["body"]).decode("utf-8")
        kind = dict(value["headers"]).get("Content-Type", "")
        return value["status"], json.loads(text) if kind == "application/json" else text

    return run, http


def basic(user: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{PASSWORDS[user]}".encode()).decode()


def service_state(world: World) -> dict:
    return world.runtime.network.services["webmail"]


def box(world: World, user: str, folder: str | None = None) -> list[tuple]:
    """``(id, folder, from, subject, unread)`` of a user's messages, as the state holds them."""
    return [(m["id"], m["folder"], m["from"], m["subject"], m["unread"])
            for m in service_state(world)["mailboxes"].get(user, []) if folder in (None, m["folder"])]


# -- the unit level: a kind, a state, a request ---------------------------------------------

KIND = Mail()


def call(state: dict, method: str, path: str, user: str | None = None, form: dict | None = None, body=None,
         now_us: int = 1_000_000):
    headers = [("Authorization", basic(user))] if user else []
    data = b""
    if form is not None:
        data = "&".join(f"{k}={v}" for k, v in form.items()).encode()
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
    elif body is not None:
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        headers.append(("Content-Type", "application/json"))
    response, after = KIND.handle(state, Request(method, parse_url("http://mail" + path), Headers(tuple(headers)), data),
                                  "reception", now_us)
    text = response.body.decode()
    if response.headers.get("content-type") == "application/json":
        return response.status, json.loads(text), after
    return response.status, text, after


def fresh(**extra) -> dict:
    return KIND.initial({"users": USERS, **extra}, "$")


# -- an empty service -----------------------------------------------------------------------

def test_an_empty_service_has_a_welcome_page_and_a_usable_empty_state():
    world = World(office({}), seed=1)
    run, http = machine(world, "reception")
    status, page = http("GET", "/")
    assert status == 200
    assert '<h1 id="welcome-title">Mail</h1>' in page
    assert '<p id="welcome-text">Webmail for addresses at mail.local. Sign in to read your mail.</p>' in page
    assert service_state(world) == {"domain": "mail.local", "folders": {}, "mailboxes": {}, "next_message": 1,
                                    "users": {}, "sessions": {}, "next_session": 1}
    assert KIND.initial(None, "$") == service_state(world)
    # a visitor opens an account and has an empty Inbox at once
    out = run(f"curl -s -i -d 'username=dora&password=pw&display=Dora' {HOST}/signup")
    sid = re.search(r"Set-Cookie: sid=([0-9a-f]+);", out["stdout"]).group(1)
    inbox = run(f"curl -s -b 'sid={sid}' {HOST}/")["stdout"]
    assert '<p id="my-address">Your address: dora@mail.local</p>' in inbox
    assert '<p id="empty-folder">No messages in Inbox.</p>' in inbox
    taken = run(f"curl -s -w ' %{{http_code}}' -d 'username=postmaster&password=pw' {HOST}/signup")["stdout"]
    assert taken.endswith(" 409") and "the user name &#x27;postmaster&#x27; is reserved for the mail system" in taken


def test_signed_out_requests_go_to_sign_in_or_get_401():
    world = World(office(), seed=1)
    _, http = machine(world, "reception")
    assert http("GET", "/folder/Inbox")[0] == 303
    assert http("GET", "/api/messages") == (401, {"error": "sign in first"})
    status, page = http("GET", "/api/messages", headers={"Authorization": "Basic " + base64.b64encode(b"alice:nope").decode()})
    assert (status, page) == (401, {"error": "wrong user name or password"})


# -- two machines ---------------------------------------------------------------------------

def test_alice_on_reception_sends_and_bob_on_the_laptop_sees_it_only_by_asking():
    world = World(office(), seed=1)
    alice, _ = machine(world, "reception")
    _, bob = machine(world, "legal-laptop")
    login = alice(f"curl -s -i -c jar.txt -d 'username=alice&password=wonder' {HOST}/login")["stdout"]
    assert login.startswith("HTTP/1.1 303 See Other\r\n")
    assert bob("GET", "/api/messages?folder=Inbox", "bob") == (200, {"folder": "Inbox", "messages": []})
    before = world.runtime.clock.now_us
    sent = alice(f"curl -s -i -b jar.txt "
                 f"-d 'to=bob@mail.local, carol@mail.local&subject=Lunch&body=Noon at the deli?' {HOST}/send")["stdout"]
    assert "Location: /folder/Inbox?notice=sent\r\n" in sent
    after = world.runtime.clock.now_us
    # nothing reached the laptop: the message is in the service, and Bob must ask for it
    assert box(world, "bob") == [(2, "Inbox", "alice@mail.local", "Lunch", True)]
    assert box(world, "alice") == [(1, "Sent", "alice@mail.local", "Lunch", False)]
    status, listing = bob("GET", "/api/messages?folder=Inbox", "bob")
    assert status == 200 and [(m["id"], m["from"], m["to"], m["subject"], m["unread"]) for m in listing["messages"]] == [
        (2, "alice@mail.local", ["bob@mail.local", "carol@mail.local"], "Lunch", True)]
    at = listing["messages"][0]["at_us"]
    assert before < at <= after and at == service_state(world)["mailboxes"]["alice"][0]["at_us"]
    assert box(world, "carol") == [(3, "Inbox", "alice@mail.local", "Lunch", True)]
    # the Inbox page shows it unread (marker and bold), reading it marks it read
    status, page = bob("GET", "/", "bob")
    assert '<a id="folder-inbox" href="/folder/Inbox">» Inbox (1)</a>' in page
    assert ('<td><p id="message-2-marker">●</p></td><td><p id="message-2-who"><strong>Alice Smith</strong></p></td>'
            '<td><a id="message-2" href="/message/2">Lunch</a></td>') in page
    status, page = bob("GET", "/message/2", "bob")
    assert status == 200
    assert '<p id="message-from">From: Alice Smith &lt;alice@mail.local&gt;</p>' in page
    assert ('<p id="message-to">To: Bob Jones &lt;bob@mail.local&gt;, carol &lt;carol@mail.local&gt;</p>') in page
    assert '<p id="message-body">Noon at the deli?</p>' in page
    assert box(world, "bob") == [(2, "Inbox", "alice@mail.local", "Lunch", False)]
    assert '<p id="message-2-marker"></p>' in bob("GET", "/folder/inbox", "bob")[1]
    # Alice sees Bob has read nothing of hers: her copy is her own
    assert box(world, "carol")[0][4] is True


def test_each_user_sees_only_their_own_mailbox():
    world = World(office(), seed=1)
    _, alice = machine(world, "reception")
    _, bob = machine(world, "legal-laptop")
    assert alice("POST", "/api/send", "alice", {"to": "bob@mail.local", "subject": "Salary", "body": "secret"})[0] == 201
    sent_id = box(world, "alice", "Sent")[0][0]
    before = service_state(world)
    assert bob("GET", f"/api/messages/{sent_id}", "bob") == (404, {"error": f"no message {sent_id} in your mailbox"})
    status, page = bob("GET", f"/message/{sent_id}", "bob")
    assert status == 404 and f'<p id="error-message">no message {sent_id} in your mailbox</p>' in page
    for action in ("delete", "unread", "move"):
        assert bob("POST", f"/message/{sent_id}/{action}", "bob", "folder=Trash",
                   {"Content-Type": "application/x-www-form-urlencoded"})[0] == 404
    assert bob("DELETE", f"/api/messages/{sent_id}", "bob")[0] == 404
    assert bob("GET", f"/compose?reply={sent_id}", "bob")[0] == 404
    assert bob("GET", "/api/messages?folder=Sent", "bob") == (200, {"folder": "Sent", "messages": []})
    assert bob("GET", "/api/search?q=salary", "bob")[1]["messages"][0]["folder"] == "Inbox"  # his own copy only
    assert [m["id"] for m in alice("GET", "/api/search?q=salary", "alice")[1]["messages"]] == [sent_id]
    assert service_state(world) is before  # every refusal left the mailboxes as they were
    assert box(world, "alice") == [(sent_id, "Sent", "alice@mail.local", "Salary", False)]


# -- reply, forward, drafts, delete, folders ---------------------------------------------------

def test_reply_prefills_re_subject_quoted_body_and_the_sender_and_lands_with_her():
    state = fresh()
    _, reply, state = call(state, "POST", "/api/send", "alice", body={"to": ["bob@mail.local"], "cc": ["carol@mail.local"],
                                                                       "subject": "Plan", "body": "Meet at 10\n\nA."})
    assert reply == {"id": 1, "delivered": ["bob@mail.local", "carol@mail.local"], "bounced": []}
    status, page, same = call(state, "GET", "/compose?reply=2", "bob")
    assert status == 200 and same is state
    assert 'id="compose-to" type="text" name="to" value="alice@mail.local" placeholder="bob@mail.local, carol@mail.local"' in page
    assert 'name="subject" value="Re: Plan"' in page
    assert ('<textarea id="compose-body" name="body" rows="12">\n\nOn 2026-09-17 09:00, Alice Smith &lt;alice@mail.local&gt; wrote:\n'
            '&gt; Meet at 10\n&gt;\n&gt; A.</textarea>') in page
    _, page, _ = call(state, "GET", "/compose?reply_all=2", "bob")
    assert 'value="alice@mail.local"' in page and 'name="cc" value="carol@mail.local"' in page
    status, _, state = call(state, "POST", "/send", "bob", form={"to": "alice@mail.local", "subject": "Re: Plan", "body": "OK"},
                            now_us=2_000_000)
    assert status == 303
    inbox = call(state, "GET", "/api/messages?folder=Inbox", "alice")[1]["messages"]
    assert [(m["from"], m["subject"], m["at_us"]) for m in inbox] == [("bob@mail.local", "Re: Plan", 2_000_000)]
    _, page, _ = call(state, "GET", f"/compose?reply={inbox[0]['id']}", "alice")
    assert 'name="subject" value="Re: Plan"' in page  # never Re: Re:
    # replying to one's own sent message goes to its recipients
    _, page, _ = call(state, "GET", "/compose?reply=1", "alice")
    assert 'value="bob@mail.local"' in page


def test_replies_join_a_seeded_conversation_that_each_mailbox_shows_with_the_message():
    state = fresh(mailboxes={"bob": [
        {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Plan", "body": "Meet at 10", "thread": "plan"},
        {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Lunch", "body": "Noon?"}]})
    plan, lunch = 1, 2
    _, page, _ = call(state, "GET", f"/compose?reply={plan}", "bob")
    assert 'type="hidden" name="reply" value="1"' in page
    _, _, state = call(state, "POST", "/send", "bob", form={"to": "alice@mail.local", "subject": "Re: Plan", "body": "OK",
                                                            "reply": str(plan)}, now_us=2_000_000)
    assert [m.get("thread") for m in state["mailboxes"]["bob"]] == ["plan", None, "plan"]  # his Sent reply joined
    alice_inbox = call(state, "GET", "/api/messages?folder=Inbox", "alice")[1]["messages"]
    assert alice_inbox[0]["thread"] == "plan"
    # alice answers through the API: her reply joins the same conversation
    status, _, state = call(state, "POST", "/api/send", "alice", body={"to": ["bob@mail.local"], "subject": "Re: Plan",
                                                                        "body": "Great", "reply": alice_inbox[0]["id"]},
                            now_us=3_000_000)
    assert status == 201
    _, page, _ = call(state, "GET", f"/message/{plan}", "bob")
    assert "In this conversation: 3 messages" in page
    assert re.findall(r'id="conversation-(\d+)"', page) == [str(m["id"]) for m in state["mailboxes"]["bob"]
                                                             if m.get("thread") == "plan" and m["id"] != plan]
    # a draft of a reply keeps its conversation until it is sent
    _, _, state = call(state, "POST", "/send", "bob", form={"to": "alice@mail.local", "subject": "Re: Plan", "body": "Later",
                                                            "reply": str(plan), "action": "save"})
    draft = next(m for m in state["mailboxes"]["bob"] if m["folder"] == "Drafts")
    assert draft["thread"] == "plan"
    # a reply to a message in no conversation starts none, and its page shows none
    _, page, _ = call(state, "GET", f"/compose?reply={lunch}", "bob")
    assert 'name="reply"' not in page
    _, _, state = call(state, "POST", "/send", "bob", form={"to": "alice@mail.local", "subject": "Re: Lunch", "body": "Yes",
                                                            "reply": str(lunch)})
    assert "thread" not in state["mailboxes"]["bob"][-1]
    _, page, _ = call(state, "GET", f"/message/{lunch}", "bob")
    assert "In this conversation" not in page
    # a reply to a message not one's own is 404 and changes nothing
    status, _, same = call(state, "POST", "/send", "carol", form={"to": "bob@mail.local", "subject": "x", "body": "y",
                                                                  "reply": str(plan)})
    assert status == 404 and same is state


def test_a_seeded_conversation_is_kept_and_checked():
    seeded = {"users": USERS, "mailboxes": {"bob": [
        {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Q3", "body": "Numbers?", "thread": "q3"},
        {"from": "bob@mail.local", "to": "alice@mail.local", "subject": "Re: Q3", "body": "Friday", "folder": "Sent",
         "thread": "q3"}]}}
    world = World(office(seeded))
    assert [m["thread"] for m in service_state(world)["mailboxes"]["bob"]] == ["q3", "q3"]
    seeded["mailboxes"]["bob"][0]["thread"] = " "
    with pytest.raises(ValueError, match=r"mailboxes\.bob\[0\]\.thread: a conversation's key is 1 to 200 characters"):
        World(office(seeded))


def test_forward_prefills_fwd_and_the_original_and_sends_to_a_third_person():
    state = fresh()
    _, _, state = call(state, "POST", "/api/send", "alice", body={"to": "bob@mail.local", "subject": "Invoice", "body": "Due Friday"})
    _, page, _ = call(state, "GET", "/compose?forward=2", "bob")
    assert 'name="subject" value="Fwd: Invoice"' in page and 'name="to" placeholder="bob@mail.local, carol@mail.local">' in page
    assert ("---------- Forwarded message ----------\nFrom: Alice Smith &lt;alice@mail.local&gt;\nDate: 2026-09-17 09:00\n"
            "Subject: Invoice\nTo: bob@mail.local\n\nDue Friday</textarea>") in page
    body = "FYI\n\n---------- Forwarded message ----------\nDue Friday"
    _, _, state = call(state, "POST", "/send", "bob", form={"to": "carol@mail.local", "subject": "Fwd: Invoice", "body": body})
    got = call(state, "GET", "/api/messages/4", "carol")[1]
    assert (got["from"], got["subject"], got["body"], got["folder"]) == ("bob@mail.local", "Fwd: Invoice", body, "Inbox")


def test_unknown_users_and_other_domains_bounce_with_the_reason():
    state = fresh()
    status, reply, state = call(state, "POST", "/api/send", "alice", body={
        "to": "bob@mail.local, zed@mail.local", "cc": ["ceo@example.com"], "subject": "Hi", "body": "Hello"}, now_us=7_000_000)
    assert status == 201 and reply == {"id": 1, "delivered": ["bob@mail.local"], "bounced": [
        {"address": "zed@mail.local", "reason": "user unknown: there is no mailbox 'zed' at mail.local"},
        {"address": "ceo@example.com", "reason": "relay access denied: this server delivers only to addresses at mail.local, "
                                                 "not to example.com (mail between services is not supported)"}]}
    inbox = call(state, "GET", "/api/messages", "alice")[1]["messages"]
    assert [(m["id"], m["from"], m["subject"], m["unread"]) for m in inbox] == [
        (3, "mailer-daemon@mail.local", "Undelivered Mail Returned to Sender", True)]
    bounce = call(state, "GET", "/api/messages/3", "alice")[1]["body"]
    assert bounce == ("This is the mail system at mail.local.\n\nI'm sorry to have to inform you that your message could not "
                      "be delivered to one or more recipients.\n\n"
                      "<zed@mail.local>: user unknown: there is no mailbox 'zed' at mail.local\n"
                      "<ceo@example.com>: relay access denied: this server delivers only to addresses at mail.local, "
                      "not to example.com (mail between services is not supported)\n\n"
                      "--- The message ---\nDate: 2026-09-17 09:00\nTo: bob@mail.local, zed@mail.local\nCc: ceo@example.com\n"
                      "Subject: Hi\n\nHello")
    _, page, _ = call(state, "GET", "/", "alice")
    assert '<p id="message-3-who"><strong>Mail Delivery System</strong></p>' in page
    assert [m[1] for m in [(m["id"], m["folder"]) for m in state["mailboxes"]["alice"]]] == ["Sent", "Inbox"]


def test_drafts_are_saved_edited_and_sent():
    state = fresh()
    status, _, state = call(state, "POST", "/send", "alice", form={"action": "save", "to": "bo", "subject": "Draft 1", "body": "half"})
    assert status == 303 and [(m["id"], m["folder"], m["to"]) for m in state["mailboxes"]["alice"]] == [(1, "Drafts", ["bo"])]
    _, page, _ = call(state, "GET", "/message/1", "alice")
    assert '<a id="edit-draft" href="/compose?draft=1">Edit draft</a>' in page and 'id="reply"' not in page
    _, page, _ = call(state, "GET", "/compose?draft=1", "alice")
    assert 'name="to" value="bo" placeholder="bob@mail.local, carol@mail.local"' in page
    assert '<input id="compose-draft" type="hidden" name="draft" value="1">' in page
    _, _, state = call(state, "POST", "/send", "alice",
                       form={"action": "save", "draft": "1", "to": "bob@mail.local", "subject": "Draft 2", "body": "whole"})
    assert [(m["id"], m["folder"], m["subject"]) for m in state["mailboxes"]["alice"]] == [(1, "Drafts", "Draft 2")]
    assert state["next_message"] == 2  # edited in place
    status, _, state = call(state, "POST", "/send", "alice",
                            form={"draft": "1", "to": "bob@mail.local", "subject": "Final", "body": "whole"})
    assert status == 303
    assert [(m["id"], m["folder"], m["subject"]) for m in state["mailboxes"]["alice"]] == [(2, "Sent", "Final")]
    assert [(m["folder"], m["subject"]) for m in state["mailboxes"]["bob"]] == [("Inbox", "Final")]
    status, reply, after = call(state, "POST", "/send", "alice", form={"draft": "2", "to": "bob@mail.local"})
    assert (status, after) == (409, state) and "message 2 is not a draft" in reply


def test_delete_moves_to_trash_and_delete_in_trash_removes():
    state = fresh(mailboxes={"bob": [{"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Old", "body": "x"},
                                     {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Older", "body": "y"}]})
    status, _, state = call(state, "POST", "/message/1/delete", "bob")
    assert status == 303 and [(m["id"], m["folder"]) for m in state["mailboxes"]["bob"]] == [(1, "Trash"), (2, "Inbox")]
    _, page, _ = call(state, "GET", "/folder/Trash?notice=trashed", "bob")
    assert '<p id="notice"><strong>Message moved to Trash.</strong></p>' in page and 'href="/message/1"' in page
    _, page, _ = call(state, "GET", "/message/1", "bob")
    assert '<button id="delete" type="submit">Delete forever</button>' in page
    status, _, state = call(state, "POST", "/message/1/delete", "bob")
    assert status == 303 and [m["id"] for m in state["mailboxes"]["bob"]] == [2]
    assert call(state, "GET", "/api/messages/1", "bob")[0] == 404
    _, out, state = call(state, "DELETE", "/api/messages/2", "bob")
    assert out == {"id": 2, "folder": "Trash"}
    _, out, state = call(state, "DELETE", "/api/messages/2", "bob")
    assert out == {"id": 2, "folder": None} and state["mailboxes"]["bob"] == []


def test_user_folders_moves_and_mark_unread():
    state = fresh(mailboxes={"bob": [{"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Contract", "body": "v2"}]})
    status, _, state = call(state, "POST", "/folders", "bob", form={"name": "Clients"})
    assert status == 303 and state["folders"] == {"bob": ["Clients"]}
    status, text, after = call(state, "POST", "/folders", "bob", form={"name": "clients"})
    assert (status, after) == (409, state) and "a folder named &#x27;clients&#x27; already exists" in text
    assert call(state, "POST", "/folders", "bob", form={"name": "a/b"})[0] == 400
    assert call(state, "POST", "/folders", "bob", form={"name": "Trash"})[0] == 409
    _, _, state = call(state, "GET", "/message/1", "bob")
    status, _, state = call(state, "POST", "/message/1/move", "bob", form={"folder": "Clients"})
    assert status == 303 and [(m["folder"], m["unread"]) for m in state["mailboxes"]["bob"]] == [("Clients", False)]
    _, listing, _ = call(state, "GET", "/api/messages?folder=clients", "bob")
    assert listing["folder"] == "Clients" and [m["subject"] for m in listing["messages"]] == ["Contract"]
    _, _, state = call(state, "POST", "/message/1/unread", "bob")
    assert call(state, "GET", "/api/folders", "bob")[1] == [
        {"name": "Inbox", "total": 0, "unread": 0}, {"name": "Sent", "total": 0, "unread": 0},
        {"name": "Drafts", "total": 0, "unread": 0}, {"name": "Trash", "total": 0, "unread": 0},
        {"name": "Clients", "total": 1, "unread": 1}]
    _, page, _ = call(state, "GET", "/folders", "bob")
    assert '<a id="folders-clients" href="/folder/Clients">Clients</a>' in page and 'id="folders-inbox-system"' in page
    assert call(state, "POST", "/message/1/move", "bob", form={"folder": "Drafts"})[0] == 409
    assert call(state, "POST", "/message/1/move", "bob", form={"folder": "Nowhere"})[0] == 404
    _, out, state = call(state, "POST", "/api/messages/1", "bob", body={"folder": "Inbox", "unread": False})
    assert (out["folder"], out["unread"]) == ("Inbox", False)
    _, _, state = call(state, "POST", "/api/messages/1", "bob", body={"folder": "Clients"})
    assert call(state, "POST", "/folders/Inbox/delete", "bob")[0] == 403
    assert call(state, "POST", "/folders/Nope/delete", "bob")[0] == 404
    _, _, state = call(state, "POST", "/folders/Clients/delete", "bob")
    assert state["folders"] == {"bob": []} and [m["folder"] for m in state["mailboxes"]["bob"]] == ["Trash"]
    assert KIND.initial(state, "$") == state


def test_search_finds_words_in_own_mail_across_folders():
    state = fresh(mailboxes={
        "alice": [{"from": "bob@mail.local", "to": "alice@mail.local", "subject": "Budget 2026", "body": "numbers", "at_us": 5},
                  {"from": "alice@mail.local", "to": "bob@mail.local", "subject": "Re: Budget 2026", "body": "thanks",
                   "folder": "Sent", "at_us": 9},
                  {"from": "carol@mail.local", "to": "alice@mail.local", "subject": "Picnic", "body": "budget? none"}],
        "bob": [{"from": "dave@example.com", "to": "bob@mail.local", "subject": "Budget leak", "body": "!"}]})
    _, out, _ = call(state, "GET", "/api/search?q=BUDGET", "alice")
    assert [(m["id"], m["folder"]) for m in out["messages"]] == [(2, "Sent"), (1, "Inbox"), (3, "Inbox")]
    _, out, _ = call(state, "GET", "/api/search?q=budget%20bob%20jones", "alice")
    assert [m["id"] for m in out["messages"]] == [2, 1]  # every word, display names included
    _, page, _ = call(state, "GET", "/search?q=leak", "alice")
    assert '<p id="search-empty">No messages match &#x27;leak&#x27;.</p>' in page
    _, page, _ = call(state, "GET", "/search?q=picnic", "alice")
    assert '1 message match' in page and '<p id="message-3-folder">Inbox</p>' in page
    _, page, _ = call(state, "GET", "/search", "alice")
    assert 'id="search-hint"' in page
    assert call(state, "GET", "/api/search", "alice")[1] == {"error": "the field 'q' is required"}


# -- malformed input ----------------------------------------------------------------------------

BAD_REQUESTS = [
    ("POST", "/send", {"to": "bob", "subject": "x"}, None, 400, "to: &#x27;bob&#x27; is not an email address (like bob@mail.local)"),
    ("POST", "/send", {"to": "", "subject": "x"}, None, 400, "add at least one recipient"),
    ("POST", "/send", {"to": "bob@mail.local", "action": "fly"}, None, 400, "the field &#x27;action&#x27; is send or save"),
    ("POST", "/send", {"to": "bob@mail.local", "subject": "x" * 999}, None, 400, "longer than 998 characters"),
    ("GET", "/message/abc", None, None, 400, "a message id is a number, got &#x27;abc&#x27;"),
    ("GET", "/message/99", None, None, 404, "no message 99 in your mailbox"),
    ("GET", "/folder/Nope", None, None, 404, "no folder named &#x27;Nope&#x27;"),
    ("POST", "/message/1/move", {}, None, 400, "the field &#x27;folder&#x27; is required"),
    ("POST", "/api/send", None, [1, 2], 400, "the body is a JSON object {to, subject, body, cc?, attachments?, reply?}"),
    ("POST", "/api/send", None, {"to": 5}, 400, "to: expected text or a list of addresses"),
    ("POST", "/api/send", None, {"to": "bob@mail.local", "bcc": "x"}, 400, "bcc: unknown field (known: attachments, body, cc, reply, subject, to)"),
    ("POST", "/api/send", None, "{not json", 400, "the body is not JSON"),
    ("POST", "/api/messages/1", None, {"unread": "yes"}, 400, "body.unread: expected bool, got str"),
    ("GET", "/api/messages?folder=Spam", None, None, 404, "no folder named 'Spam'"),
    ("PUT", "/api/send", None, None, 405, "PUT is not allowed here (allowed: POST)"),
]


@pytest.mark.parametrize(("method", "path", "form", "body", "status", "message"), BAD_REQUESTS)
def test_malformed_requests_are_refused_with_a_message_and_change_nothing(method, path, form, body, status, message):
    state = fresh(mailboxes={"bob": [{"from": "alice@mail.local", "to": "bob@mail.local", "subject": "S", "body": "B"}]})
    got, text, after = call(state, method, path, "bob", form=form, body=body)
    assert got == status and after is state
    assert message in (text["error"] if isinstance(text, dict) else text)


BAD_STATES = [
    ({"domain": "not a domain"}, r"\$\.domain: 'not a domain' is not a domain name"),
    ({"domain": 5}, r"\$\.domain: expected str, got int"),
    ({"mailboxes": {"zed": []}}, r"\$\.mailboxes\.zed: no account named 'zed'"),
    ({"mailboxes": {"bob": {}}}, r"\$\.mailboxes\.bob: a list of messages, got dict"),
    ({"mailboxes": {"bob": [{"to": "bob@mail.local", "subject": "s", "body": "b"}]}}, r"\$\.mailboxes\.bob\[0\]\.from: required"),
    ({"mailboxes": {"bob": [{"from": "nobody", "to": "x", "subject": "s", "body": "b"}]}},
     r"\$\.mailboxes\.bob\[0\]\.from: 'nobody' is not an email address"),
    ({"mailboxes": {"bob": [{"from": "a@b.c", "to": ["x@y.z", 3], "subject": "s", "body": "b"}]}},
     r"\$\.mailboxes\.bob\[0\]\.to\[1\]: an address is a non-empty text, got 3"),
    ({"mailboxes": {"bob": [{"from": "a@b.c", "to": "x@y.z", "subject": "s", "body": "b", "unread": "no"}]}},
     r"\$\.mailboxes\.bob\[0\]\.unread: expected bool, got str"),
    ({"mailboxes": {"bob": [{"from": "a@b.c", "to": "x@y.z", "subject": "s", "body": "b", "folder": "a/b"}]}},
     r"\$\.mailboxes\.bob\[0\]\.folder: a folder name is"),
    ({"mailboxes": {"bob": [{"from": "a@b.c", "to": "x@y.z", "subject": "s", "body": "b", "id": 4}],
                    "alice": [{"from": "a@b.c", "to": "x@y.z", "subject": "s", "body": "b", "id": 4}]}},
     r"\$\.mailboxes\.alice\[0\]\.id: 4 is also the id of \$\.mailboxes\.bob\[0\]"),
    ({"mailboxes": {"bob": [{"from": "a@b.c", "to": "x@y.z", "subject": "s", "body": "b", "bcc": "q@r.s"}]}},
     r"\$\.mailboxes\.bob\[0\]\.bcc: unknown field"),
    ({"folders": {"bob": ["Work", "work"]}}, r"\$\.folders\.bob\[1\]: a folder named 'work' already exists"),
    ({"folders": {"bob": ["Inbox"]}}, r"\$\.folders\.bob\[0\]: a folder named 'Inbox' already exists"),
    ({"folders": {"zed": []}}, r"\$\.folders\.zed: no account named 'zed'"),
    ({"next_message": 0}, r"\$\.next_message: a counter is 1 or more"),
    ({"inbox": []}, r"\$\.inbox: unknown field"),
    ({"users": [{"name": "MAILER-DAEMON", "password": "x"}]}, r"\$\.users: the name 'MAILER-DAEMON' is reserved"),
]


@pytest.mark.parametrize(("extra", "message"), BAD_STATES)
def test_a_malformed_initial_state_names_the_path(extra, message):
    with pytest.raises(ValueError, match=message):
        KIND.initial({"users": USERS, **extra}, "$")


def test_a_world_refuses_a_malformed_mailbox_naming_it():
    d = office({"users": USERS, "mailboxes": {"bob": [{"from": "alice@mail.local", "to": "bob@mail.local", "body": "x"}]}})
    with pytest.raises(ValueError, match=r"\$\.services\[1\]\.initial_state\.mailboxes\.bob\[0\]\.subject: required"):
        World(d, seed=1)


def test_seeds_get_defaults_and_a_built_state_passes_again_unchanged():
    state = KIND.initial({"domain": "Office.Example", "users": USERS, "folders": {"alice": ["Projects"]}, "mailboxes": {
        "alice": [{"from": "bob@office.example", "to": "alice@office.example", "subject": "A", "body": "1", "at_us": 60_000_000},
                  {"from": "bob@office.example", "to": "alice@office.example", "subject": "B", "body": "2", "folder": "projects"},
                  {"from": "x@y.z", "to": "alice@office.example, bob@office.example", "cc": "c@d.e", "subject": "C", "body": "3",
                   "folder": "Receipts", "id": 7}]}}, "$")
    assert state["domain"] == "office.example" and state["next_message"] == 10
    assert state["folders"] == {"alice": ["Projects", "Receipts"]}
    assert state["mailboxes"]["alice"] == [
        {"id": 8, "folder": "Inbox", "from": "bob@office.example", "to": ["alice@office.example"], "cc": [], "subject": "A",
         "body": "1", "at_us": 60_000_000, "unread": True},
        {"id": 9, "folder": "Projects", "from": "bob@office.example", "to": ["alice@office.example"], "cc": [], "subject": "B",
         "body": "2", "at_us": 0, "unread": False},
        {"id": 7, "folder": "Receipts", "from": "x@y.z", "to": ["alice@office.example", "bob@office.example"], "cc": ["c@d.e"],
         "subject": "C", "body": "3", "at_us": 0, "unread": False}]
    assert KIND.initial(state, "$") == state
    _, page, _ = call(state, "GET", "/", "alice")
    assert '<p id="message-8-date">2026-09-17 09:01</p>' in page and '<p id="message-8-who"><strong>Bob Jones</strong></p>' in page
    _, out, _ = call(state, "POST", "/api/send", "alice", body={"to": "bob@mail.local", "subject": "s", "body": "b"})
    assert out["bounced"][0]["reason"].startswith("relay access denied: this server delivers only to addresses at office.example")


def test_handlers_never_mutate_the_state_they_are_given():
    state = fresh(mailboxes={"bob": [{"from": "alice@mail.local", "to": "bob@mail.local", "subject": "S", "body": "B"}]},
                  folders={"bob": ["Keep"]})
    frozen = copy.deepcopy(state)
    steps = [("GET", "/message/1", None, None), ("POST", "/message/1/unread", {}, None),
             ("POST", "/message/1/move", {"folder": "Keep"}, None), ("POST", "/api/messages/1", None, {"unread": False}),
             ("POST", "/folders", {"name": "New"}, None), ("POST", "/message/1/delete", {}, None),
             ("POST", "/folders/Keep/delete", {}, None),
             ("POST", "/send", {"to": "alice@mail.local, x@y.org", "subject": "hi"}, None),
             ("POST", "/send", {"action": "save", "subject": "d"}, None)]
    current = state
    for method, path, form, body in steps:
        status, _, after = call(current, method, path, "bob", form=form, body=body)
        assert status in (200, 303), path
        current = after
    assert state == frozen
    assert [(m["folder"], m["subject"]) for m in current["mailboxes"]["bob"]] == [
        ("Trash", "S"), ("Sent", "hi"), ("Inbox", "Undelivered Mail Returned to Sender"), ("Drafts", "d")]


# -- snapshots, forks, replay ---------------------------------------------------------------------

def test_a_snapshot_taken_before_a_send_still_shows_the_old_mailboxes():
    world = World(office(), seed=1)
    _, alice = machine(world, "reception")
    alice("POST", "/api/send", "alice", {"to": "bob@mail.local", "subject": "one", "body": "1"})
    snap = world.snapshot()
    alice("POST", "/api/send", "alice", {"to": "bob@mail.local", "subject": "two", "body": "2"})
    alice("DELETE", "/api/messages/1", "alice")
    fork = world.fork(snap)
    _, fork_bob = machine(fork, "legal-laptop")
    assert [m["subject"] for m in fork_bob("GET", "/api/messages", "bob")[1]["messages"]] == ["one"]
    assert box(fork, "alice") == [(1, "Sent", "alice@mail.local", "one", False)]
    _, bob = machine(world, "legal-laptop")
    assert [m["subject"] for m in bob("GET", "/api/messages", "bob")[1]["messages"]] == ["two", "one"]
    assert box(world, "alice") == [(1, "Trash", "alice@mail.local", "one", False), (3, "Sent", "alice@mail.local", "two", False)]
    # the fork's own change does not reach the world
    fork_bob("POST", "/api/send", "bob", {"to": "alice@mail.local", "subject": "fork only", "body": "f"})
    assert [m[3] for m in box(world, "alice", "Inbox")] == []
    # an exported snapshot loads back into a world with the same mailboxes
    again = World(office(), seed=1)
    again.import_snapshot(world.export_snapshot())
    assert again.state_hash() == world.state_hash() and service_state(again) == service_state(world)


def test_the_same_steps_replay_to_the_same_state_hash():
    world = World(office(), seed=4)
    alice_sh, alice = machine(world, "reception")
    _, bob = machine(world, "legal-laptop")
    alice("POST", "/api/send", "alice", {"to": "bob@mail.local, nobody@mail.local", "subject": "Plan", "body": "10:00"})
    bob("GET", "/message/2", "bob")
    alice_sh(f"curl -s -u alice:wonder -d 'action=save&subject=later' {HOST}/send")
    bob("POST", "/folders", "bob", "name=Work", {"Content-Type": "application/x-www-form-urlencoded"})
    again = replay(office(), 4, world.trajectory())
    assert again.state_hash() == world.state_hash()
    assert service_state(again) == service_state(world)
    assert [m[1] for m in box(again, "alice")] == ["Sent", "Inbox", "Drafts"]
