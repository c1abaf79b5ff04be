"""The mail application's account and its requests (a helper module, not an application).

**The account rule.** A machine's mail account is on the first service of kind ``mail``
in the world's definition (in the order the world lists its services) that has a domain
and whose ``initial_state.users`` has an account named exactly as the machine's user
(``Machine.user``): the address ``<user>@<domain>`` (the service's ``domain``, default
``mail.local``), the server ``http://<first domain>/`` (``https`` for a TLS service, with
the service's port when it is not the scheme's), signed in with that account's password
from ``initial_state`` by HTTP Basic credentials on every request. This is the account an
administrator provisions: the same name and password the world's ``logins.txt`` files
give its people. A machine outside a world, a world without a mail service, or a user
without an account there has no mail account.

**Requests.** Every request goes through the machine's network port
(``Machine.net.request``), so it travels from the machine's node through its
``/etc/hosts`` and the world's DNS, advances the logical clock by the network's latency,
is journalled like ``curl``'s, and fails as the network says (Wi-Fi off, unreachable,
refused). Only the service's JSON API (``/api/...``) is used: :func:`call` for its JSON
answers, :func:`download` for an attachment's bytes.
"""

from __future__ import annotations

import base64
import json
from typing import Any, NamedTuple
from urllib.parse import quote

from cwgym.machine.view import NetFailure
from cwgym.net.http import reason_phrase

__all__ = ["Account", "Reply", "call", "discover", "download", "folder_query"]


class Account(NamedTuple):
    """A machine's mail account (see the module docs)."""

    service: str
    base: str  # "http://mail.northwind.internal"
    host: str
    user: str
    password: str
    address: str
    display: str


class Reply(NamedTuple):
    """A request's outcome: ``status`` (0: no answer came), the decoded JSON ``data`` and
    ``error``, the text to show when it failed ("" on a 2xx answer)."""

    status: int
    data: Any
    error: str


def _users(state: Any) -> list[tuple[str, str, str]]:
    """``(name, password, display)`` of the accounts an ``initial_state`` lists."""
    raw = state.get("users", []) if isinstance(state, dict) else []
    if isinstance(raw, dict):  # the built form: name -> {password, display, email}
        entries: list[Any] = [{**v, "name": k} for k, v in raw.items() if isinstance(v, dict)]
    else:
        entries = list(raw) if isinstance(raw, list) else []
    out = []
    for u in entries:
        if isinstance(u, str):
            out.append((u, "", u))
        elif isinstance(u, dict) and isinstance(u.get("name"), str):
            password = u.get("password", "")
            display = u.get("display", u["name"])
            out.append(
                (
                    u["name"],
                    password if isinstance(password, str) else "",
                    display if isinstance(display, str) else u["name"],
                )
            )
    return out


def discover(machine: Any) -> Account | None:
    """The machine's mail account, or ``None`` (see the module docs for the rule)."""
    net = getattr(machine, "net", None)
    services = net.services("mail") if net is not None else []
    user = machine.user
    for service in services:
        if not service["domains"]:
            continue
        state = service["initial_state"] if isinstance(service["initial_state"], dict) else {}
        for name, password, display in _users(state):
            if name != user:
                continue
            domain = str(state.get("domain", "mail.local")).lower().rstrip(".")
            scheme = "https" if service["tls"] else "http"
            port = 443 if service["tls"] else service["port"]
            host = service["domains"][0].lower().rstrip(".")
            default = 443 if scheme == "https" else 80
            base = f"{scheme}://{host}" + ("" if port == default else f":{port}")
            return Account(service["id"], base, host, name, password, f"{name}@{domain}", display)
    return None


def _exchange(machine: Any, account: Account, method: str, path: str, payload: Any) -> Reply:
    """The raw exchange: ``data`` is the answer's bytes (``None`` when no answer came)."""
    net = getattr(machine, "net", None)
    if net is None:
        return Reply(0, None, f"Cannot reach {account.host}: this machine is not on a network.")
    token = base64.b64encode(f"{account.user}:{account.password}".encode()).decode("ascii")
    headers = [("Authorization", f"Basic {token}"), ("Accept", "application/json")]
    body = b""
    if payload is not None:
        body = json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8")
        headers.append(("Content-Type", "application/json"))
    try:
        status, _headers, raw = net.request(method, account.base + path, headers, body)
    except NetFailure as exc:
        return Reply(0, None, f"Cannot reach {account.host} ({exc.code}: {exc.detail}).")
    return Reply(status, raw, "")


def _failure(method: str, path: str, status: int, data: Any) -> str:
    message = (
        data.get("error") if isinstance(data, dict) and isinstance(data.get("error"), str) else ""
    )
    phrase = f"{status} {reason_phrase(status)}".strip()
    return f"{method} {path.partition('?')[0]}: {phrase}" + (f" — {message}" if message else "")


def download(machine: Any, account: Account, path: str) -> Reply:
    """``GET path`` for bytes (an attachment): a 2xx answer's body is ``data``; anything
    else is ``error``, as :func:`call` words it."""
    reply = _exchange(machine, account, "GET", path, None)
    if reply.error or 200 <= reply.status < 300:
        return reply
    try:
        data = json.loads(reply.data.decode("utf-8")) if reply.data else None
    except (UnicodeDecodeError, ValueError):
        data = None
    return Reply(reply.status, None, _failure("GET", path, reply.status, data))


def call(machine: Any, account: Account, method: str, path: str, payload: Any = None) -> Reply:
    """One request to the account's server: ``path`` under its base (query included),
    ``payload`` sent as JSON. A 2xx answer's JSON is ``data``; anything else is ``error``."""
    reply = _exchange(machine, account, method, path, payload)
    if reply.error:
        return reply
    status, raw = reply.status, reply.data
    try:
        data = json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, ValueError):
        data = None
    if 200 <= status < 300:
        if data is None and raw:
            return Reply(
                status,
                None,
                f"{method} {path.partition('?')[0]}: the server answered something that is not JSON.",
            )
        return Reply(status, data, "")
    return Reply(status, data, _failure(method, path, status, data))


def folder_query(name: str) -> str:
    """The query of ``/api/messages`` for one folder."""
    return f"/api/messages?folder={quote(name, safe='')}"
