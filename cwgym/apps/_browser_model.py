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

A file a site sends as an attachment (:attr:`~cwgym.web.engine.Browser.download`) is saved
by :func:`keep_download` into ``~/Downloads`` (:mod:`cwgym.apps._downloads`: its own name,
``(1)``, ``(2)``... when taken) and announced by a desktop notification, "Download
complete" naming the file, or "Download failed" with the reason when the folder cannot be
written; a window and a headless ``browser.v1`` profile both save this way.

Texts, not nested dicts, so a snapshot encodes a page as one string and decoding it back is
memoised on the string: a window that repaints, or a keystroke that changes only a field,
never rebuilds the page. The memo tables are caches keyed by content, never state.

The page's native widgets (:class:`~cwgym.protocol.page.Details`,
:class:`~cwgym.protocol.page.Dialog`, :class:`~cwgym.protocol.page.Range`,
:class:`~cwgym.protocol.page.SortList`) are handled here, around the engine's ``fill``,
``click`` and ``submit`` (:func:`fill`, :func:`click`, :func:`submit`; the window and
``browser.v1`` both go through them): a disclosure's state is kept with the typed values
(``"open"`` / ``"closed"`` under its id), and so is a reorderable list's order (its items
joined by newlines); a slider's and a number, time, date or colour field's value is
checked, the page behind a dialog is inert (``invalid``), and the engine is handed the page
with disclosures and dialogs read as the groups of elements they hold, sliders and colour
fields as the fields they submit as, and a reorderable list as one hidden field per item,
in the order shown.
"""

from __future__ import annotations

import contextlib
import posixpath
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import msgspec

from cwgym.apps._downloads import DOWNLOADS, safe_name, save_download
from cwgym.desktop.framework import AppError
from cwgym.machine.filesystem import FsError
from cwgym.machine.notifications import UserDataError, notify
from cwgym.machine.view import NetFailure
from cwgym.net.http import NetError
from cwgym.protocol.page import (
    Checkbox,
    Details,
    Dialog,
    Element,
    Form,
    Input,
    ListBlock,
    Page,
    Radio,
    Range,
    Select,
    SortList,
    Table,
    TextArea,
    color_value,
    page_from_json,
    page_json,
    projection,
    range_value,
    value_problem,
)
from cwgym.web import engine
from cwgym.web.engine import Browser, Download, EngineError, RequestFn
from cwgym.web.session import BrowserState, Jar

__all__ = ["CLOSED", "COOKIES", "OPEN", "browser_of", "click", "dialog_of", "fill", "laid_out", "load_cookies",
           "new_state", "observation", "page_of", "page_text", "request_fn", "resolves", "save_cookies", "shown",
           "store", "submit", "walk"]

#: Where the profile's cookies live, under the user's home.
COOKIES = ".mozilla/firefox/cookies.json"

#: A disclosure's state among the typed values.
OPEN, CLOSED = "open", "closed"
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


def keep_download(machine: Any, download: Download) -> str | None:
    """Save ``download`` into the machine user's ``~/Downloads`` and raise the notification
    that says so; the path written, or ``None`` when it could not be (also notified)."""
    name = safe_name(download.name, "download")
    try:
        path = save_download(machine, name, download.body, "browser")
    except FsError as exc:
        _say(machine, "Download failed", f"{name}: {exc.strerror_text}")
        return None
    _say(machine, "Download complete", f"{posixpath.basename(path)} — saved in ~/{DOWNLOADS}")
    return path


def _say(machine: Any, summary: str, body: str) -> None:
    """A browser notification; a user whose notification list cannot be written (an
    unwritable ``~/.local``) still gets the download, without the bubble."""
    with contextlib.suppress(UserDataError):
        notify(machine, "browser", summary, body)


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


# -- the page's widgets ---------------------------------------------------------------------


def walk(page: Page) -> Iterator[tuple[Element, Form | None]]:
    """Every element of ``page`` in document order (inside disclosures and dialogs too),
    with the form it is in (None)."""
    stack: list[tuple[Element, Form | None]] = [(e, None) for e in reversed(page.elements)]
    while stack:
        element, form = stack.pop()
        yield element, form
        if isinstance(element, Form):
            stack.extend((c, element) for c in reversed(element.children))
        elif isinstance(element, Details | Dialog):
            stack.extend((c, form) for c in reversed(element.children))
        elif isinstance(element, ListBlock):
            stack.extend((c, form) for c in reversed(element.items))
        elif isinstance(element, Table):
            stack.extend((c, form) for row in reversed(element.rows) for c in reversed(row))


def dialog_of(page: Page) -> Dialog | None:
    """The page's modal dialog (its first), or None."""
    return _memo(_dialog, page)


def _memo(fn: Callable[..., Any], page: Page, *args: Any) -> Any:
    """``fn(page, *args)`` through its cache; a page built with a list somewhere is not
    hashable, so it is worked out afresh."""
    try:
        hash(page)
    except TypeError:
        return fn.__wrapped__(page, *args)
    return fn(page, *args)


@lru_cache(maxsize=64)
def _dialog(page: Page) -> Dialog | None:
    return next((e for e, _ in walk(page) if isinstance(e, Dialog)), None)


def _inert(page: Page, element_id: str) -> None:
    """Refuse acting on an element behind the page's dialog."""
    dialog = dialog_of(page)
    if dialog is None or element_id == dialog.id:
        return
    inside = {e.id for e, _ in walk(Page("", dialog.children))}
    if element_id not in inside and any(e.id == element_id for e, _ in walk(page)):
        raise EngineError("invalid", f"{element_id} is behind the dialog {dialog.id}: the page behind a modal dialog is inert")


def _find(page: Page, element_id: str) -> Element:
    found = next((e for e, _ in walk(page) if e.id == element_id), None)
    if found is None:
        raise EngineError("not_found", f"the page has no element {element_id!r}")
    return found


def fill(b: Browser, element_id: str, value: str, *, check: bool = True) -> Browser:
    """``engine.fill`` knowing the widgets: a disclosure takes ``open`` or ``closed``; a
    slider a value on one of its steps; a number, time, date or colour field a value it can
    hold (``check=False``: a value being typed, checked by the caller as it goes); a
    reorderable list its items in a new order, joined by newlines."""
    page = b.page()
    element = _find(page, element_id)
    _inert(page, element_id)
    if isinstance(element, Details):
        if value not in (OPEN, CLOSED):
            raise EngineError("invalid", f"{element_id} is a disclosure: fill it with 'open' or 'closed'")
        return _with_value(b, element_id, value)
    problem = value_problem(element, value) if check or isinstance(element, SortList) else None
    if problem is not None:
        raise EngineError("invalid", problem)
    if isinstance(element, SortList):
        return _with_value(b, element_id, value)
    if isinstance(element, Input) and element.type == "color":
        value = value.lower()
    return _in_engine(b, lambda e: engine.fill(e, element_id, value))


def click(b: Browser, element_id: str, request_fn: RequestFn) -> Browser:
    """``engine.click`` knowing the widgets: a disclosure's summary toggles it (no
    request); the page behind a dialog is inert."""
    page = b.page()
    element = _find(page, element_id)
    _inert(page, element_id)
    if isinstance(element, Details):
        return _with_value(b, element_id, CLOSED if _is_open(element, b.values()) else OPEN)
    return _in_engine(b, lambda e: engine.click(e, element_id, request_fn))


def submit(b: Browser, element_id: str, request_fn: RequestFn) -> Browser:
    """``engine.submit``, sliders submitted with their forms; not from behind a dialog."""
    _inert(b.page(), element_id)
    return _in_engine(b, lambda e: engine.submit(e, element_id, request_fn))


def shown(b: Browser) -> Page:
    """The active tab's page with the typed values in its controls (``Browser.shown``
    knowing the widgets: a disclosure's state, a slider's value)."""
    page, values = b.page(), b.values()
    if not values:
        return page
    return msgspec.structs.replace(page, elements=tuple(_valued(e, values) for e in page.elements))


def observation(b: Browser) -> dict:
    """``{page, url, fields}``: what the ``browser.v1`` channel shows."""
    return {"page": projection(shown(b)), "url": b.url, "fields": b.values()}


def laid_out(b: Browser) -> Page:
    """The page as it is laid out now: each disclosure open or closed as the user left it,
    each reorderable list in its order (the page itself when none was changed, so its
    layout stays cached)."""
    page, values = b.page(), b.values()
    sortable = _memo(_sortables, page)
    opens = tuple(sorted((k, v) for k, v in values.items() if v in (OPEN, CLOSED) or k in sortable))
    return _memo(_opened, page, opens) if opens else page


def _orders(page: Page, values: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The orders the user gave the page's reorderable lists, by id."""
    sortable = _memo(_sortables, page)
    return tuple(sorted((k, v) for k, v in values.items() if k in sortable)) if sortable else ()


@lru_cache(maxsize=64)
def _sortables(page: Page) -> frozenset[str]:
    return frozenset(e.id for e, _ in walk(page) if isinstance(e, SortList))


def _is_open(element: Details, values: dict[str, str]) -> bool:
    return values[element.id] == OPEN if values.get(element.id) in (OPEN, CLOSED) else element.open


def _with_value(b: Browser, element_id: str, value: str) -> Browser:
    values = b.values()
    values[element_id] = value
    tab = b.state.active
    fields = tuple(sorted([*((t, f) for t, f in b.fields if t != tab), (tab, tuple(sorted(values.items())))]))
    return msgspec.structs.replace(b, fields=fields)


def _valued(element: Element, values: dict[str, str]) -> Element:
    replace = msgspec.structs.replace
    if isinstance(element, Form | Dialog):
        return replace(element, children=tuple(_valued(c, values) for c in element.children))
    if isinstance(element, Details):
        return replace(element, children=tuple(_valued(c, values) for c in element.children),
                       open=_is_open(element, values))
    if isinstance(element, ListBlock):
        return replace(element, items=tuple(_valued(c, values) for c in element.items))
    if isinstance(element, Table):
        return replace(element, rows=tuple(tuple(_valued(c, values) for c in row) for row in element.rows))
    if element.id not in values:
        return element
    if isinstance(element, Input | TextArea | Select | Range):
        return replace(element, value=values[element.id])
    if isinstance(element, SortList):
        return replace(element, items=tuple(values[element.id].split("\n")))
    if isinstance(element, Checkbox | Radio):
        return replace(element, checked=values[element.id] == engine.CHECKED)
    return element


@lru_cache(maxsize=64)
def _opened(page: Page, opens: tuple[tuple[str, str], ...]) -> Page:
    values = dict(opens)

    def one(element: Element) -> Element:
        replace = msgspec.structs.replace
        if isinstance(element, Details):
            return replace(element, children=tuple(one(c) for c in element.children), open=_is_open(element, values))
        if isinstance(element, Form | Dialog):
            return replace(element, children=tuple(one(c) for c in element.children))
        if isinstance(element, ListBlock):
            return replace(element, items=tuple(one(c) for c in element.items))
        if isinstance(element, Table):
            return replace(element, rows=tuple(tuple(one(c) for c in row) for row in element.rows))
        if isinstance(element, SortList) and element.id in values:
            return replace(element, items=tuple(values[element.id].split("\n")))
        return element

    return msgspec.structs.replace(page, elements=tuple(one(e) for e in page.elements))


def _in_engine(b: Browser, op: Callable[[Browser], Browser]) -> Browser:
    """``op`` on ``b`` with the active page as the engine reads it (see the module); the
    page is put back when ``op`` left it in place (a fill, a toggle)."""
    page = b.page()
    flat = _memo(_engine_page, page, _orders(page, b.values()))
    if flat is page:
        return op(b)
    tab = b.state.active
    out = op(msgspec.structs.replace(b, pages=tuple((t, flat if t == tab else p) for t, p in b.pages)))
    return msgspec.structs.replace(out, pages=tuple((t, page if p is flat else p) for t, p in out.pages))


@lru_cache(maxsize=64)
def _engine_page(page: Page, orders: tuple[tuple[str, str], ...] = ()) -> Page:
    """``page`` in the engine's vocabulary: disclosures and dialogs as lists of what they
    hold (walked, filled and submitted as HTML does, closed or not), sliders and colour
    fields as the text fields they submit as, a reorderable list as a hidden field per
    item (``<id>.<row>``) in its order (``orders``: the user's, by id); the page itself
    when it has none."""
    changed = False
    ordered = dict(orders)

    def one(element: Element) -> Element:
        nonlocal changed
        replace = msgspec.structs.replace
        if isinstance(element, Details | Dialog):
            changed = True
            return ListBlock(id=element.id, items=tuple(one(c) for c in element.children))
        if isinstance(element, Range):
            changed = True
            return Input(id=element.id, name=element.name, label=element.label, value=range_value(element))
        if isinstance(element, SortList):
            changed = True
            items = ordered[element.id].split("\n") if element.id in ordered else element.items
            return ListBlock(id=element.id, items=tuple(Input(id=f"{element.id}.{k}", name=element.name, type="hidden", value=item)
                                                        for k, item in enumerate(items)))
        if isinstance(element, Input) and element.type == "color" and element.value != color_value(element):
            changed = True
            return replace(element, value=color_value(element))
        if isinstance(element, Form):
            return replace(element, children=tuple(one(c) for c in element.children))
        if isinstance(element, ListBlock):
            return replace(element, items=tuple(one(c) for c in element.items))
        if isinstance(element, Table):
            return replace(element, rows=tuple(tuple(one(c) for c in row) for row in element.rows))
        return element

    flat = msgspec.structs.replace(page, elements=tuple(one(e) for e in page.elements))
    return flat if changed else page
