"""browser.v1: a web browser on the acting machine, driven by element ids.

Ops: ``navigate {url}`` (the address bar: Chrome's omnibox rules, so a name becomes
``https://`` + name and other text a search on the world's engine), ``back``, ``forward``,
``reload``, ``new_tab {url?}``, ``switch_tab {tab}``, ``close_tab {tab}``, ``fill {id,
value}``, ``click {id}`` and ``submit {id}``. Each answers the active tab's page projection
``{version, title, lang, elements}`` with the typed values shown. Requests travel the
world's network from the machine (DNS, gateway, links, the service), carrying the
profile's cookies; a site that cannot be reached shows an error page, not a failure.

Refusals: a missing or malformed field is ``invalid``; a scheme the browser will not open
(``file:``) is ``invalid``; no such element or tab, or nothing to go back to, is
``not_found``; ``key`` and ``scroll`` (which need the page laid out on a screen) and any
other op are ``invalid`` / ``unsupported_operation``.
"""

from __future__ import annotations

from typing import Any

from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.environment.netport import hosts_lookup
from cwgym.net.http import NetError
from cwgym.protocol import errors
from cwgym.protocol.page import projection
from cwgym.web import engine
from cwgym.web.omnibox import OmniboxError

#: The longest text an op takes (a URL, a field's value).
MAX_TEXT = 100_000


def _text(payload: dict[str, Any], name: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise invalid()
    return value


def _tab(payload: dict[str, Any]) -> int:
    value = payload.get("tab")
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid()
    return value


class BrowserFamily:
    version = "1"

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        runtime, machine = ctx.runtime, ctx.machine.id
        browsers = runtime.subsystems["browsers"]
        request_fn = _request_fn(ctx)
        resolves = _resolves(ctx)
        b = browsers.get(machine)
        try:
            if op == "navigate":
                b = engine.navigate(b, _text(payload, "url"), request_fn, resolves)
            elif op == "back":
                b = engine.back(b, request_fn)
            elif op == "forward":
                b = engine.forward(b, request_fn)
            elif op == "reload":
                b = engine.reload(b, request_fn)
            elif op == "new_tab":
                url = payload.get("url")
                b = engine.new_tab(b, None if url is None else _text(payload, "url"), request_fn, resolves)
            elif op == "switch_tab":
                b = engine.switch_tab(b, _tab(payload))
            elif op == "close_tab":
                b = engine.close_tab(b, _tab(payload))
            elif op == "fill":
                b = engine.fill(b, _text(payload, "id"), _text(payload, "value"))
            elif op == "click":
                b = engine.click(b, _text(payload, "id"), request_fn)
            elif op == "submit":
                b = engine.submit(b, _text(payload, "id"), request_fn)
            else:
                raise unsupported()
        except OmniboxError:
            raise invalid() from None
        except engine.EngineError as exc:
            raise errors.ActionError(errors.NOT_FOUND if exc.code == "not_found" else errors.INVALID) from None
        browsers.put(machine, b)
        ctx.journal("browser.page", {"op": op, "url": b.url, "title": b.page().title})
        return projection(b.shown())


def _request_fn(ctx: ActionContext) -> engine.RequestFn:
    from cwgym.net.http import Headers, Request, parse_url

    def request(method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        response = ctx.runtime.http(ctx.machine.id, Request(method, parse_url(url), Headers(tuple(headers)), body), ctx.machine.user)
        return response.status, list(response.headers.items), response.body

    return request


def _resolves(ctx: ActionContext):
    network = ctx.runtime.network
    source = ctx.runtime.topology.computer(ctx.machine.id).node_id

    def resolves(host: str) -> bool:
        if hosts_lookup(ctx.runtime.machines[ctx.machine.id], host) is not None:
            return True  # the machine's /etc/hosts answers before DNS, for the address bar too
        try:
            network.resolve(source, host)
        except NetError:
            return False
        return True

    return resolves


FAMILIES.register("browser.v1", BrowserFamily())
