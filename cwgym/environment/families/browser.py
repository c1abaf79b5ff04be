"""browser.v1: a web browser on the acting machine, driven by element ids.

Ops: ``navigate {url}`` (the address bar: Chrome's omnibox rules, so a name becomes
``https://`` + name and other text a search on the world's engine), ``back``, ``forward``,
``reload``, ``new_tab {url?}``, ``switch_tab {tab}``, ``close_tab {tab}``, ``fill {id,
value}``, ``click {id}``, ``submit {id}``, ``key {key}`` and ``scroll {y}`` / ``{row, x}``.
Each answers the active tab's page projection ``{version, title, lang, elements}`` with the
typed values shown. Requests travel the world's network from the machine (DNS, gateway,
links, the service), carrying the profile's cookies; a site that cannot be reached shows an
error page, not a failure. A link or form whose answer is an attachment
(``Content-Disposition: attachment``) downloads the file into the user's ``~/Downloads``
(its own name; ``(1)``, ``(2)``... when taken) with a "Download complete" notification, and
the tab keeps the page it showed.

Where the session drives a desktop on the machine (a theme, ``application.v1``, the browser
installed), every op first focuses the highest browser window, or opens one, and acts in it
(:mod:`cwgym.apps.browser`). Elsewhere the machine's headless profile (the ``browsers``
subsystem) does, and ``key`` and ``scroll``, which need a window, are ``invalid`` /
``unsupported_operation``.

Widgets: ``fill`` takes ``open`` or ``closed`` for a disclosure, a value on one of its steps
for a slider, a number for a ``number`` field, ``HH:MM`` for a ``time`` one, ``YYYY-MM-DD``
(a date that exists) for a ``date`` one, ``#rrggbb`` for a ``color`` one (see
:data:`~cwgym.protocol.page.PALETTE` for the named colours its picker offers), any text for
a field with suggestions, and a reorderable list's items in their new order joined by
``"\n"`` (a permutation of them); ``click`` on a disclosure toggles it. While the page
shows a dialog, the page behind it is inert: acting on an element there is ``invalid``.

Refusals: a missing or malformed field is ``invalid``; a scheme the browser will not open
(``file:``) is ``invalid``; no such element, tab or wide row, or nothing to go back to, is
``not_found``; an unknown op is ``invalid`` with no reason, and the window it opened on a
desktop stays open, as the reference engine's does.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.apps._browser_model import browser_of, keep_download, shown
from cwgym.apps._browser_model import click as click_element
from cwgym.apps._browser_model import fill as fill_element
from cwgym.apps._browser_model import submit as submit_form
from cwgym.desktop import wm
from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.environment.netport import hosts_lookup
from cwgym.net.http import NetError
from cwgym.protocol import errors
from cwgym.protocol.catalogue import canonical_id
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


#: Ops that act on the page a browser shows; any other op is ``invalid``.
OPS = frozenset({"navigate", "back", "forward", "reload", "new_tab", "switch_tab", "close_tab",
                 "fill", "click", "submit", "key", "scroll"})


def apply(b: engine.Browser, op: str, payload: dict[str, Any], request_fn: engine.RequestFn, resolves: Any) -> engine.Browser:
    """``op`` on browser ``b`` (the ops every browser takes, headless or in a window)."""
    if op == "navigate":
        return engine.navigate(b, _text(payload, "url"), request_fn, resolves)
    if op == "back":
        return engine.back(b, request_fn)
    if op == "forward":
        return engine.forward(b, request_fn)
    if op == "reload":
        return engine.reload(b, request_fn)
    if op == "new_tab":
        url = payload.get("url")
        return engine.new_tab(b, None if url is None else _text(payload, "url"), request_fn, resolves)
    if op == "switch_tab":
        return engine.switch_tab(b, _tab(payload))
    if op == "close_tab":
        return engine.close_tab(b, _tab(payload))
    if op == "fill":
        return fill_element(b, _text(payload, "id"), _text(payload, "value"))
    if op == "click":
        return click_element(b, _text(payload, "id"), request_fn)
    if op == "submit":
        return submit_form(b, _text(payload, "id"), request_fn)
    raise invalid()


class BrowserFamily:
    version = "1"

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        if _on_desktop(ctx):
            return _in_window(ctx, op, payload)
        if op not in OPS:
            raise invalid()
        if op in ("key", "scroll"):
            raise unsupported()  # a headless browser has no screen to scroll or keys to press
        runtime, machine = ctx.runtime, ctx.machine.id
        browsers = runtime.subsystems["browsers"]
        b = browsers.get(machine)
        try:
            b = apply(b, op, payload, _request_fn(ctx), _resolves(ctx))
        except OmniboxError:
            raise invalid() from None
        except engine.EngineError as exc:
            raise errors.ActionError(errors.NOT_FOUND if exc.code == "not_found" else errors.INVALID) from None
        if b.download is not None:  # a file, not a page: into ~/Downloads, the page stays
            path = keep_download(ctx.machine, b.download)
            ctx.journal("browser.download", {"url": b.download.url, "name": b.download.name, "path": path,
                                             "bytes": len(b.download.body)})
            b = msgspec.structs.replace(b, download=None)
        browsers.put(machine, b)
        ctx.journal("browser.page", {"op": op, "url": b.url, "title": b.page().title})
        return projection(shown(b))


# -- on a desktop: the browser window -------------------------------------------------------


def _on_desktop(ctx: ActionContext) -> bool:
    """Whether the session drives a desktop on this machine with a browser to open."""
    if ctx.runtime.machine_theme(ctx.machine.id) is None or "application.v1" not in ctx.session.config.actions:
        return False
    return "browser" in {canonical_id(a) for a in ctx.machine.installed_apps}


def _in_window(ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
    """Open or focus a browser window, then do ``op`` in it."""
    seat = ctx.seat()
    desk = seat.desk
    win = next((desk.windows[w] for w in reversed(desk.stack) if desk.windows[w].app == "browser" and not desk.windows[w].minimized), None)
    win = win or next((desk.windows[w] for w in reversed(desk.stack) if desk.windows[w].app == "browser"), None)
    if win is None:
        win = desk.windows[seat.launch("browser")]
    else:
        wm.focus(desk, win)
        desk.panel = None
    if op not in OPS:
        raise errors.ActionError(errors.INVALID, keep=True)  # the window stays open, as the reference's does
    try:
        if op == "key":
            key = payload.get("key")
            if not isinstance(key, str):
                raise invalid()
            seat.key(key)
        elif op == "scroll":
            seat.app_call(win, "scroll_to", _scroll_payload(payload))
        else:
            seat.app_call(win, "run", lambda b, rf, rs: apply(b, op, payload, rf, rs))
    except OmniboxError:
        raise invalid() from None
    except engine.EngineError as exc:
        raise errors.ActionError(errors.NOT_FOUND if exc.code == "not_found" else errors.INVALID) from None
    if desk.windows.get(win.id) is not win:  # the op closed it (close_tab on its last tab)
        return projection(engine.BLANK)
    b = browser_of(win.state)
    ctx.journal("browser.page", {"op": op, "url": b.url, "title": b.page().title, "window": win.id})
    return projection(shown(b))


def _scroll_payload(payload: dict[str, Any]) -> tuple[str | None, int]:
    """``{y}`` scrolls the page; ``{row, x}`` scrolls a wide table (its element id)."""
    if "row" in payload or "x" in payload:
        row, x = payload.get("row"), payload.get("x")
        if not isinstance(row, str) or isinstance(x, bool) or not isinstance(x, int) or x < 0 or set(payload) - {"row", "x"}:
            raise invalid()
        return row, x
    y = payload.get("y")
    if isinstance(y, bool) or not isinstance(y, int) or y < 0 or set(payload) - {"y"}:
        raise invalid()
    return None, y


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
