"""The desktop's calendar sync: new invitations raise notifications, once each, on the logical clock."""

from __future__ import annotations

import json

from cwgym import EnvironmentConfig, World
from cwgym.machine import invitations, notifications
from cwgym.resources import load_world

MAYA = "maya-ws"
ACCOUNT = {"server": "calendar.northwind.internal", "user": "maya", "password": "maya-nw-2026"}


def _world(account: dict | None = ACCOUNT) -> World:
    d = load_world("company")
    computer = next(c for c in d["computers"] if c["id"] == MAYA)
    if account is not None:
        computer["initial_files"][invitations.ACCOUNT_FILE] = json.dumps(account)
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("maya", [MAYA]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _do(env, family: str, op: str, **payload) -> dict:
    out = env.step([{"family": family, "op": op, "machine": MAYA, "payload": payload}])
    outcome = out["outcomes"][0]
    assert outcome["success"], outcome
    return outcome


def _move(env) -> dict:
    return _do(env, "pointer.v1", "move", x=400, y=300)


def _calendar_notes(w: World) -> list[dict]:
    return [n for n in notifications.notifications(w.machine(MAYA)) if n["source"] == "calendar"]


def _invite_maya(w: World, title: str) -> None:
    state = w.service_state("calendar")
    n = state["next_event"]
    state["events"][str(n)] = {
        "id": n, "title": title, "start": "2026-09-21T10:00", "end": "2026-09-21T11:00",
        "location": "", "description": "", "organizer": "lena",
        "attendees": {"maya": "needs-action"}, "created": "2026-09-17 09:00", "updated": "2026-09-17 09:00",
    }
    state["next_event"] = n + 1
    w.set_service_state("calendar", state)


def test_the_first_action_notifies_the_unanswered_invitations_once():
    w = _world()
    env = _env(w)
    outcome = _move(env)
    notes = _calendar_notes(w)
    assert [(n["summary"], n["body"]) for n in notes] == [("Invitation: Friday release", "lena invited you · 2026-09-18 15:00")]
    assert "notifications" in outcome["effect"]["changed"]
    _move(env)
    _move(env)
    assert len(_calendar_notes(w)) == 1


def test_a_new_invitation_is_notified_at_the_next_poll_not_before():
    w = _world()
    env = _env(w)
    _move(env)
    _invite_maya(w, "Budget review")
    _move(env)  # within five logical minutes of the last poll: nothing asked
    assert [n["summary"] for n in _calendar_notes(w)] == ["Invitation: Friday release"]
    _do(env, "terminal.v1", "execute", command="sleep 301")
    assert [n["summary"] for n in _calendar_notes(w)] == ["Invitation: Friday release", "Invitation: Budget review"]
    # answered invitations and already notified ones raise nothing more
    _do(env, "terminal.v1", "execute", command="sleep 301")
    assert len(_calendar_notes(w)) == 2


def test_no_account_no_request_and_no_file():
    w = _world(account=None)
    env = _env(w)
    _move(env)
    assert _calendar_notes(w) == []
    assert not w.machine(MAYA).fs.exists(f"/home/maya/{invitations.SYNC_FILE}")


def test_offline_learns_nothing_until_the_network_is_back():
    w = _world()
    env = _env(w)
    _move(env)
    _do(env, "application.v1", "shell", target="shell:toggle:wifi")
    _invite_maya(w, "Budget review")
    _do(env, "terminal.v1", "execute", command="sleep 301")
    assert [n["summary"] for n in _calendar_notes(w)] == ["Invitation: Friday release"]
    _do(env, "application.v1", "shell", target="shell:toggle:wifi")
    _do(env, "terminal.v1", "execute", command="sleep 301")
    assert [n["summary"] for n in _calendar_notes(w)][-1] == "Invitation: Budget review"


def test_a_damaged_account_file_is_ignored():
    d = load_world("company")
    computer = next(c for c in d["computers"] if c["id"] == MAYA)
    computer["initial_files"][invitations.ACCOUNT_FILE] = "not json"
    w = World(d, 7)
    _move(_env(w))
    assert _calendar_notes(w) == []


def test_the_sync_replays_to_the_same_state():
    hashes = []
    for _ in range(2):
        w = _world()
        env = _env(w)
        _move(env)
        _invite_maya(w, "Budget review")
        _do(env, "terminal.v1", "execute", command="sleep 301")
        hashes.append(w.state_hash())
    assert hashes[0] == hashes[1]
    w = _world()
    env = _env(w)
    before = w.snapshot()
    _move(env)
    assert _calendar_notes(w)
    w.restore(before)
    assert _calendar_notes(w) == []
