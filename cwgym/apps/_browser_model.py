"""A browser window's state: the :class:`~cwgym.web.engine.Browser` it holds, kept as
plain values on the window, and the way from one to the other.

A window's application state must be JSON-like (it freezes, hashes and exports as it is),
while the browser engine works on frozen :class:`~cwgym.web.engine.Browser` values. The
window keeps:

* ``session``: the tabs, histories, cookies and search engine (a
  :class:`~cwgym.web.session.BrowserState`) as its JSON text;
* ``pages``: each tab's page as the page model's JSON text, by tab id;
* ``fields``: what was typed into each tab's fields, by tab id and element id.

The cookie jar is the user's browser profile, shared by every browser window on the
machine: ``~/.mozilla/firefox/cookies.json`` (``{host: {name: value}}``), read before each
operation and written when one changes it, as Firefox keeps its cookies in the profile
folder. A file that is not such a jar is read as an empty one (Firefox starts a fresh
store over a damaged one).

Texts, not nested dicts, so a snapshot encodes a page as one string and decoding it back is
memoised on the string: a window that repaints, or a keystroke that changes only a field,
never rebuilds the page. The memo tables are caches keyed by content, never state.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec

from cwgym.desktop.framework import AppError
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import NetFailure
from cwgym.net.http import NetError
from cwgym.protocol.page import Page, page_from_json, page_json
from cwgym.web.engine import Browser, RequestFn
from cwgym.web.session import BrowserState, Jar

__all__ = ["COOKIES", "browser_of", "load_cookies", "new_state", "page_of", "page_text", "request_fn", "resolves",
           "save_cookies", "store"]

#: Where the profile's cookies live, under the user's home.
COOKIES = ".mozilla/firefox/cookies.json"

#: Decoded values kept per memo table (least recently used out first).
KEPT = 256

_sessions: OrderedDict[str, BrowserState] = OrderedDict()
_pages: OrderedDict[str, Page] = OrderedDict()
_texts: OrderedDict[int, tuple[Page, str]] = OrderedDict()  # id(page) -> (page, its JSON text)
_session_decoder = msgspec.json.Decoder(BrowserState)


def _remember(table: OrderedDict, key: Any, value: Any) -> None:
    table[key] = value
    if len(table) > KEPT:
        table.popitem(last=False)


def new_state(browser: Browser) -> dict[str, Any]:
    """The plain state of a window showing ``browser``, no control focused."""
    state: dict[str, Any] = {"session": "", "pages": {}, "fields": {}}
    store(state, browser)
    return state


def session_of(state: dict[str, Any]) -> BrowserState:
    text = state["session"]
    hit = _sessions.get(text)
    if hit is None:
        try:
            hit = _session_decoder.decode(text)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise AppError(f"the browser window's session is damaged: {exc}") from None
        _remember(_sessions, text, hit)
    return hit


def page_of(text: str) -> Page:
    """The page a tab's JSON text holds (memoised on the text)."""
    hit = _pages.get(text)
    if hit is None:
        try:
            hit = page_from_json(text.encode())
        except ValueError as exc:
            raise AppError(f"the browser window's page is damaged: {exc}") from None
        _remember(_pages, text, hit)
        _remember(_texts, id(hit), (hit, text))
    else:
        _pages.move_to_end(text)
    return hit


def page_text(page: Page) -> str:
    """The JSON text of ``page`` (memoised on the object, so an unchanged page costs nothing)."""
    hit = _texts.get(id(page))
    if hit is not None and hit[0] is page:
        return hit[1]
    text = page_json(page).decode()
    _remember(_texts, id(page), (page, text))
    _remember(_pages, text, page)
    return text


def browser_of(state: dict[str, Any]) -> Browser:
    """The :class:`Browser` a window's state holds."""
    session = session_of(state)
    pages = tuple(sorted((int(t), page_of(s)) for t, s in state["pages"].items()))
    fields = tuple(sorted((int(t), tuple(sorted(v.items()))) for t, v in state["fields"].items() if v))
    return Browser(session, pages, fields)


def store(state: dict[str, Any], browser: Browser) -> None:
    """Write ``browser`` into a window's state."""
    text = msgspec.json.encode(browser.state).decode()
    _remember(_sessions, text, browser.state)
    state["session"] = text
    state["pages"] = {str(t): page_text(p) for t, p in browser.pages}
    state["fields"] = {str(t): dict(f) for t, f in browser.fields if f}


def load_cookies(fs: Any, home: str) -> tuple[Jar, ...]:
    """The profile's cookie jar (empty when there is none, or it cannot be read as one)."""
    try:
        data = msgspec.json.decode(fs.read(f"{home}/{COOKIES}", home), type=dict[str, dict[str, str]])
    except (FsError, msgspec.ValidationError, msgspec.DecodeError):
        return ()
    return tuple(Jar(host, tuple(cookies.items())) for host, cookies in sorted(data.items()) if cookies)


def save_cookies(fs: Any, home: str, jar: tuple[Jar, ...]) -> None:
    """Write the profile's cookie jar (the folders made as needed; a profile the user
    cannot write keeps the jar in the window only)."""
    data = msgspec.json.encode({j.host: dict(j.cookies) for j in sorted(jar, key=lambda j: j.host)})
    path = home
    try:
        for part in COOKIES.split("/")[:-1]:
            path = f"{path}/{part}"
            if not fs.exists(path, home):
                fs.create(path, home, "dir", mode=0o700)
        fs.write(f"{home}/{COOKIES}", home, data, mode=0o600)
    except FsError:
        return


def request_fn(machine: Any) -> RequestFn:
    """The engine's request path through ``machine``'s network port (``NetError`` when no
    answer comes, as the engine expects)."""
    port = machine.net

    def request(method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        if port is None:
            raise NetError("unreachable", "this machine is not on a network")
        try:
            return port.request(method, url, headers, body)
        except NetFailure as exc:
            raise NetError(exc.code, exc.detail) from None

    return request


def resolves(machine: Any) -> Callable[[str], bool]:
    """Whether ``machine`` can resolve a name (``/etc/hosts``, then DNS): the omnibox asks
    it about single-label names."""
    port = machine.net

    def answer(host: str) -> bool:
        if port is None:
            return False
        try:
            port.lookup(host)
        except NetFailure:
            return False
        return True

    return answer
