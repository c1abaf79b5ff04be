"""Invitation notifications: the desktop's calendar sync, polling the user's calendar account.

GNOME's calendar data server keeps the user's online calendar in sync in the background and
raises a notification when someone invites them to an event. Here the desktop does the same
on the logical clock: after an action, a machine whose user has a calendar account
(:data:`ACCOUNT_FILE`, which Calendar's *Add Account* writes) asks the calendar service for the
invitations that account has not answered, at most once every :data:`POLL_INTERVAL_US`, and
raises one ``calendar`` notification for each it has not notified before. What it has
notified, and when it last asked, live in :data:`SYNC_FILE`, so the sync snapshots, forks and
hashes with the machine. Asking goes through the machine's network like any program's request
(a machine with Wi-Fi off, or no route, simply learns nothing until it can).
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from cwgym.kernel.calendar import civil_from_days
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine._userdata import UserDataError, peek, read_json, write_json
from cwgym.machine.notifications import notify
from cwgym.machine.view import NetFailure

if TYPE_CHECKING:
    from cwgym.machine.machine import Machine

__all__ = ["ACCOUNT_FILE", "NOTIFIED_MAX", "POLL_INTERVAL_US", "SYNC_FILE", "poll_invitations", "read_account"]

#: The user's calendar account: ``{"server": "http://host[:port]", "user", "password"}``.
ACCOUNT_FILE = ".config/calendar/account.json"
#: When the sync last asked, and which invitations it has notified.
SYNC_FILE = ".local/share/cwgym/calendar-sync.json"
#: How often the sync asks the service (five logical minutes, as a background sync would).
POLL_INTERVAL_US = 300_000_000
#: How many notified invitation ids the sync remembers (the newest kept).
NOTIFIED_MAX = 500
#: How far ahead the sync looks for invitations (days from today).
HORIZON_DAYS = 366


def read_account(data: bytes | None) -> dict[str, str] | None:
    """The account in an account file's bytes, or ``None`` when there is none or it is damaged."""
    if data is None:
        return None
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(value, dict) or not all(isinstance(value.get(k), str) for k in ("server", "user", "password")):
        return None
    server = value["server"].strip().rstrip("/")
    if "://" not in server:
        server = "http://" + server
    if not server.startswith(("http://", "https://")) or not server.split("://", 1)[1]:
        return None
    return {"server": server, "user": value["user"], "password": value["password"]}


def _day(now_us: int) -> str:
    y, m, d = civil_from_days((WORLD_EPOCH_S + now_us // 1_000_000) // 86400)
    return f"{y:04d}-{m:02d}-{d:02d}"


def _unanswered(machine: Machine, account: dict[str, str]) -> list[dict[str, Any]] | None:
    """The account's invitations still ``needs-action``, or ``None`` when the service cannot say."""
    net = machine.net
    if net is None:
        return None
    now = machine.clock.now_us
    first, last = _day(now), _day(now + HORIZON_DAYS * 86_400_000_000)
    token = base64.b64encode(f"{account['user']}:{account['password']}".encode()).decode("ascii")
    headers = [("Authorization", f"Basic {token}"), ("Accept", "application/json")]
    try:
        status, _headers, body = net.request("GET", f"{account['server']}/api/events?start={first}&end={last}", headers, b"")
    except (NetFailure, ValueError):
        return None
    if status != 200:
        return None
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    events = value.get("events") if isinstance(value, dict) else None
    if not isinstance(events, list):
        return None
    return [
        e
        for e in events
        if isinstance(e, dict)
        and isinstance(e.get("id"), int)
        and isinstance(e.get("attendees"), dict)
        and e["attendees"].get(account["user"]) == "needs-action"
    ]


def poll_invitations(machine: Machine) -> list[dict[str, Any]]:
    """Ask for new invitations if the user has a calendar account and the interval has passed;
    returns the notifications raised.

    Cheap when there is nothing to do: one lookup of the account file (most homes have none),
    then one of the sync file.
    """
    account = read_account(peek(machine, ACCOUNT_FILE))
    if account is None:
        return []
    sync = read_json(machine, SYNC_FILE, {})
    now = machine.clock.now_us
    polled = sync.get("polled_us")
    key = f"{account['user']}@{account['server']}"
    same_account = sync.get("account") == key
    if same_account and isinstance(polled, int) and now - polled < POLL_INTERVAL_US:
        return []
    invitations = _unanswered(machine, account)
    notified = [n for n in sync.get("notified", []) if isinstance(n, int)] if same_account else []
    raised: list[dict[str, Any]] = []
    try:
        if invitations is not None:
            known = set(notified)
            for e in sorted(invitations, key=lambda e: (str(e.get("start", "")), e["id"])):
                if e["id"] in known:
                    continue
                title = str(e.get("title", "")) or "an event"
                organizer = str(e.get("organizer", "")) or "Someone"
                when = str(e.get("start", "")).replace("T", " ")
                raised.append(notify(machine, "calendar", f"Invitation: {title}", f"{organizer} invited you · {when}"))
                notified.append(e["id"])
        write_json(machine, SYNC_FILE, {"account": key, "polled_us": now, "notified": notified[-NOTIFIED_MAX:]})
    except UserDataError:  # a home that refuses the files: the sync stays quiet
        pass
    return raised
