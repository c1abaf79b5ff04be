"""Thunderbird Mail (``mail``), driven only through the actor handle (pointer, keyboard,
application) on the company world, whose mail service has an account for maya.

The mailboxes are checked through the owner's privileged view of the service's state.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import app, ok, one, point

from cwgym import EnvironmentConfig, World
from cwgym.apps._mail_client import discover
from cwgym.machine.settings import change_setting
from cwgym.resources import load_world

W, H = 1280, 800
M = "maya-ws"
SUBJECT = "Acme Corp: invoice totals wrong in the CSV export (BILL-42)"


def _definition() -> dict:
    d = load_world("company")
    for c in d["computers"]:
        if c["id"] in ("maya-ws", "omar-ws"):
            c["installed_apps"].append("mail")
    return d


def _env(w: World, user: str = "maya", machine: str = M):
    return w.environment(EnvironmentConfig.desktop(user, [machine]))


def _open():
    w = World(_definition(), 7)
    env = _env(w)
    ok(env, _a("application.v1", "launch", kind="mail"))
    return w, env


def _a(family: str, op: str, machine: str = M, **payload) -> dict:
    return {"family": family, "op": op, "machine": machine, "payload": payload}


def _key(name: str) -> dict:
    return _a("keyboard.v1", "key", key=name)


def _type(text: str) -> dict:
    return _a("keyboard.v1", "type", text=text)


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, _key(name))


def _elements(env, machine: str = M) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][machine]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str, op: str = "click") -> dict:
    at = point(env.scene(W, H), f"window:0:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, _a("pointer.v1", op, x=at[0], y=at[1], width=W, height=H))
    assert out["success"], out
    return out


def _shell(env, target: str) -> dict:
    return one(env, _a("application.v1", "shell", target=f"window:0:content:{target}"))


def _box(w: World, user: str) -> list[dict]:
    return w.service_state("mail")["mailboxes"].get(user, [])


def _focus(env) -> dict:
    return env.scene(W, H)["focus"]


def _semantic(env, *roles: str) -> list[dict]:
    """The semantics of the painted nodes with these roles (not only the interactive ones)."""
    return [
        n["semantic"]
        for n in env.scene(W, H)["nodes"]
        if n["semantic"] and n["semantic"]["role"] in roles
    ]


def _banner(env) -> str:
    alerts = _semantic(env, "alert", "status")
    return alerts[0]["label"] if alerts else ""


def _caret(env) -> tuple[int, int]:
    caret = _focus(env)["caret"]
    return caret["line"], caret["column"]


# -- no account ----------------------------------------------------------------------------


def test_no_account_shows_a_clear_screen_and_only_close():
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("mail")
    w = World(d, 7)
    env = w.environment(EnvironmentConfig.desktop("ada", ["workstation"]))
    ok(env, app("launch", kind="mail"))
    els = {e["id"]: e for e in env.observe()["channels"]["semantic.v1"]["workstation"]["elements"]}
    assert [s["label"] for s in _semantic(env, "heading")] == ["No mail account on this machine"]
    assert [k for k in els if ":content:" in k] == ["window:0:content:close"]
    assert env.scene(W, H)["windows"][0]["title"] == "Thunderbird Mail"
    out = one(env, app("shell", target="window:0:content:write"))
    assert out["error"]["reason"] == "unknown_shell_target"
    assert discover(w.machine("workstation")) is None
    at = point(env.scene(W, H), "window:0:content:close")
    ok(
        env,
        {
            "family": "pointer.v1",
            "op": "click",
            "machine": "workstation",
            "payload": {"x": at[0], "y": at[1]},
        },
    )
    assert env.observe()["channels"]["semantic.v1"]["workstation"]["windows"] == []


def test_the_account_is_the_machine_users_on_the_mail_service():
    w = World(_definition(), 7)
    acct = discover(w.machine(M))
    assert (acct.address, acct.base, acct.user, acct.service) == (
        "maya@northwind.internal",
        "http://mail.northwind.internal",
        "maya",
        "mail",
    )
    assert discover(w.machine("omar-ws")).address == "omar@northwind.internal"
    assert discover(w.machine("srv-01")) is None  # ops has no mail account


# -- reading -------------------------------------------------------------------------------


def test_inbox_lists_headers_and_opening_a_message_marks_it_read():
    w, env = _open()
    assert env.scene(W, H)["windows"][0]["title"] == "Inbox — Thunderbird Mail"
    els = _elements(env)
    assert els["window:0:content:folder:Inbox"]["label"] == "Inbox (1)"
    assert [k for k in els if ":content:folder:" in k] == [
        f"window:0:content:folder:{f}" for f in ("Inbox", "Sent", "Drafts", "Trash")
    ]
    row = els["window:0:content:message:1"]
    assert row["label"] == f"omar@northwind.internal, {SUBJECT}, 2026-09-17 11:00"
    assert row["value"] == "unread"
    assert els["window:0:content:reply"]["enabled"] is False
    assert _box(w, "maya")[0]["unread"] is True  # listing reads nothing
    _click(env, "message:1")
    els = _elements(env)
    (doc,) = _semantic(env, "document")
    assert doc["label"] == SUBJECT and doc["value"].startswith("Hi Maya,")
    assert els["window:0:content:message:1"]["value"] == "read"
    assert els["window:0:content:folder:Inbox"]["label"] == "Inbox"
    assert _box(w, "maya")[0]["unread"] is False
    assert "Can we get a fix out this week?" in _texts(env)


def test_folders_by_pointer_and_messages_by_keys():
    w, env = _open()
    _keys(env, "ArrowDown")  # opens the first message
    assert _box(w, "maya")[0]["unread"] is False
    _click(env, "folder:Sent")
    assert env.scene(W, H)["windows"][0]["title"] == "Sent — Thunderbird Mail"
    assert "No messages in Sent." in _texts(env)
    assert not [e for e in _elements(env) if ":content:message:" in e]
    assert _shell(env, "message:1")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "folder:Nowhere")["error"]["reason"] == "unknown_shell_target"
    _shell(env, "folder:Inbox")
    _keys(env, "End", "Enter")
    assert _elements(env)["window:0:content:message:1"]["selected"] is True


def test_get_messages_refreshes_from_the_service():
    w, env = _open()
    state = copy.deepcopy(w.service_state("mail"))
    state["mailboxes"]["maya"].append(
        {"from": "lena@northwind.internal", "to": ["maya@northwind.internal"], "cc": [], "subject": "Lunch?",
         "body": "Noon at the usual place?", "folder": "Inbox", "unread": True, "at_us": 60_000_000, "id": 50}
    )  # fmt: skip
    w.set_service_state("mail", state)
    assert "window:0:content:message:50" not in _elements(env)  # the view is what was fetched
    _keys(env, "F5")
    assert _elements(env)["window:0:content:message:50"]["label"].startswith(
        "lena@northwind.internal, Lunch?"
    )
    assert _elements(env)["window:0:content:folder:Inbox"]["label"] == "Inbox (2)"
    _click(env, "get-messages")
    assert "window:0:content:message:50" in _elements(env)


# -- composing -----------------------------------------------------------------------------


def test_write_and_send_by_pointer():
    w, env = _open()
    _click(env, "write")
    assert _focus(env)["interaction"] == "window:0:content:compose-to"
    _click(env, "compose-to")
    ok(env, _type("lena@northwind.internal"))
    _click(env, "compose-cc")
    ok(env, _type("omar@northwind.internal"))
    _click(env, "compose-subject")
    ok(env, _type("Credit notes"))
    assert env.scene(W, H)["windows"][0]["title"] == "Write: Credit notes — Thunderbird Mail"
    _click(env, "compose-body")
    ok(env, _type("Hi Lena,\nthe list follows.\nMaya"))
    focus = _focus(env)
    assert focus["interaction"] == "window:0:content:compose-body"
    assert focus["value"] == "Hi Lena,\nthe list follows.\nMaya"
    assert _caret(env) == (2, 4)
    _click(env, "compose-send")
    lena = _box(w, "lena")
    assert lena[-1]["subject"] == "Credit notes" and lena[-1]["from"] == "maya@northwind.internal"
    assert lena[-1]["body"] == "Hi Lena,\nthe list follows.\nMaya" and lena[-1]["cc"] == [
        "omar@northwind.internal"
    ]
    assert _box(w, "omar")[-1]["subject"] == "Credit notes"
    assert _banner(env) == "Message sent."
    assert _elements(env)["window:0:content:folder:Sent"]["value"] == "1"
    _click(env, "folder:Sent")
    assert any(k.startswith("window:0:content:message:") for k in _elements(env))


def test_reply_by_keys_quotes_and_sends_with_primary_enter():
    w, env = _open()
    _shell(env, "message:1")
    _keys(env, "Ctrl+r")
    els = _elements(env)
    assert els["window:0:content:compose-to"]["value"] == "omar@northwind.internal"
    assert els["window:0:content:compose-subject"]["value"] == f"Re: {SUBJECT}"
    body = els["window:0:content:compose-body"]["value"]
    assert body.startswith(
        "\n\nOn 2026-09-17 11:00, omar@northwind.internal wrote:\n> Hi Maya,\n>\n> Acme"
    )
    assert _focus(env)["interaction"] == "window:0:content:compose-body"
    ok(env, _type("On it."))
    _keys(env, "Ctrl+Enter")
    sent = _box(w, "omar")[-1]
    assert sent["subject"] == f"Re: {SUBJECT}" and sent["body"].startswith(
        "On it.\n\nOn 2026-09-17 11:00"
    )
    assert "compose-to" not in str(_elements(env))


def test_forward_prefixes_and_includes_the_message():
    w, env = _open()
    _click(env, "message:1")
    _click(env, "forward")
    els = _elements(env)
    assert els["window:0:content:compose-subject"]["value"] == f"Fwd: {SUBJECT}"
    assert (
        "---------- Forwarded message ----------\nFrom: omar@northwind.internal"
        in els["window:0:content:compose-body"]["value"]
    )
    ok(env, _type("lena@northwind.internal"))
    _keys(env, "Ctrl+Enter")
    assert _box(w, "lena")[-1]["subject"] == f"Fwd: {SUBJECT}"
    _keys(env, "Ctrl+t", "Home", "Ctrl+l")  # by keys: refresh, open the first, forward
    assert _elements(env)["window:0:content:compose-subject"]["value"] == f"Fwd: {SUBJECT}"
    _keys(env, "Escape")
    assert _banner(env) == "Message discarded."


def test_compose_keys_tab_enter_undo_and_cancel():
    w, env = _open()
    _keys(env, "Ctrl+n")
    ok(env, _type("lena@northwind.internal"))
    _keys(env, "Enter")  # to Cc
    _keys(env, "Tab")  # to Subject
    ok(env, _type("Hello"))
    assert _focus(env)["interaction"] == "window:0:content:compose-subject"
    _keys(env, "Shift+Tab", "Shift+Tab")
    assert _focus(env)["interaction"] == "window:0:content:compose-to"
    _keys(env, "Tab", "Tab", "Tab")
    ok(env, _type("line one\nline two"))
    _keys(env, "ArrowUp", "End")
    assert _caret(env) == (0, 8)
    _keys(env, "Home", "Delete", "Ctrl+End", "Backspace")
    assert _focus(env)["value"] == "ine one\nline tw"
    _keys(env, "Ctrl+z")
    assert _focus(env)["value"] == "ine one\nline two"
    _keys(env, "Ctrl+z", "Ctrl+z")  # the deletion, then the typed body
    assert _focus(env)["value"] == ""
    _keys(env, "Ctrl+z")  # the subject
    assert _elements(env)["window:0:content:compose-subject"]["value"] == ""
    _keys(env, "Escape")
    assert _banner(env) == "Message discarded."
    assert "window:0:content:compose-to" not in _elements(env)
    assert len(_box(w, "lena")) == 0


def test_caps_are_refused_as_invalid():
    _w, env = _open()
    _click(env, "write")
    _click(env, "compose-subject")
    ok(env, _type("s" * 998))
    assert one(env, _type("s"))["error"]["code"] == "invalid"
    assert len(_elements(env)["window:0:content:compose-subject"]["value"]) == 998
    _click(env, "compose-to")
    ok(env, _type("a" * 2000))
    assert one(env, _type("b"))["error"]["code"] == "invalid"
    _click(env, "compose-body")
    ok(env, _type("x" * 100_000))
    assert one(env, _type("y"))["error"]["code"] == "invalid"
    assert len(_focus(env)["value"]) == 100_000


# -- errors --------------------------------------------------------------------------------


def test_a_refused_send_shows_the_status_and_keeps_the_draft():
    w, env = _open()
    _click(env, "write")
    _click(env, "compose-send")
    assert _banner(env) == "Add at least one recipient in To."
    ok(env, _type("not an address"))
    _click(env, "compose-send")
    assert (
        _banner(env)
        == "POST /api/send: 400 Bad Request — to: 'not an address' is not an email address (like bob@northwind.internal)"
    )
    assert _elements(env)["window:0:content:compose-to"]["value"] == "not an address"
    _click(env, "dismiss")
    assert _banner(env) == ""
    assert len(_box(w, "maya")) == 1


def test_an_unknown_colleague_bounces_into_the_inbox():
    _w, env = _open()
    _click(env, "write")
    ok(env, _type("nobody@northwind.internal"))
    _click(env, "compose-send")
    assert (
        _banner(env)
        == "Message sent. It could not be delivered to nobody@northwind.internal: see the Inbox."
    )
    assert any(
        e["label"].startswith("mailer-daemon@northwind.internal")
        for e in _elements(env).values()
        if e["role"] == "row"
    )


def test_no_network_and_wrong_password_show_the_request_error():
    w, env = _open()
    change_setting(w.machine(M), "wifi", False)
    _click(env, "get-messages")
    assert _banner(env).startswith("Cannot reach mail.northwind.internal (unreachable:")
    assert "window:0:content:message:1" in _elements(env)  # the list keeps what it showed
    change_setting(w.machine(M), "wifi", True)
    state = copy.deepcopy(w.service_state("mail"))
    state["users"]["maya"]["password"] = "changed"
    w.set_service_state("mail", state)
    _keys(env, "F5")
    assert _banner(env) == "GET /api/folders: 401 Unauthorized — wrong user name or password"
    _keys(env, "Escape")
    assert _banner(env) == ""


def test_delete_moves_to_trash():
    w, env = _open()
    _click(env, "message:1")
    _keys(env, "Delete")
    assert _box(w, "maya")[0]["folder"] == "Trash"
    assert _banner(env) == "Message moved to Trash."
    assert "No messages in Inbox." in _texts(env)
    _click(env, "folder:Trash")
    _click(env, "message:1")
    _click(env, "delete")
    assert _box(w, "maya") == []
    assert _shell(env, "reply")["success"]  # nothing open: the banner says so
    assert _banner(env) == "Open a message to reply to first."
