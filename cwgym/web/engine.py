"""The headless browser: a profile's tabs with the page each shows and what was typed into
its fields, and the operations an agent performs on them.

A :class:`Browser` is immutable plain state: every operation returns a new one. Pages come
over the network only: ``request_fn(method, url, headers, body) -> (status, headers,
body)`` is the world's request path from the browser's machine (it raises
:class:`~cwgym.net.http.NetError` when no answer comes), and ``resolves(host)`` is that
machine's DNS, which the omnibox asks about single-label names. An answer is read as the
page model when the site sends it (``application/vnd.cwgym.page+json``), as HTML
(:func:`~cwgym.protocol.html_reader.parse_html`), or as plain text; a request that gets no answer
shows Chrome's "This site can't be reached" page.

Fields: ``fill`` keeps a value per element id until the form is submitted (a checkbox or
radio holds ``"checked"`` or ``"unchecked"``); the page an agent sees shows them.

Downloads: an answer with ``Content-Disposition: attachment`` is a file, not a page. The tab
stays on the page it showed (no history entry, as in Chrome), the answer's cookies are kept,
and the returned :class:`Browser` carries the file as :attr:`Browser.download` (its name
from ``filename*`` (RFC 5987), else ``filename``, else the URL's last segment) for the
caller to save: the engine has no filesystem. Any other operation clears it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from urllib.parse import unquote, urljoin, urlsplit

import msgspec

from cwgym.net.http import NetError
from cwgym.protocol.html_reader import parse_html
from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Page,
    Radio,
    Select,
    Table,
    Text,
    TextArea,
    assign_ids,
    page_from_json,
    projection,
)
from cwgym.web import session as bs
from cwgym.web.omnibox import DEFAULT_ENGINE, interpret

__all__ = ["Browser", "Download", "EngineError", "RequestFn", "attachment_name", "open_browser", "walk"]

RequestFn = Callable[[str, str, list[tuple[str, str]], bytes], tuple[int, list[tuple[str, str]], bytes]]
PAGE_TYPE = "application/vnd.cwgym.page+json"
BLANK = Page("New Tab")
CHECKED, UNCHECKED = "checked", "unchecked"


class EngineError(Exception):
    """An operation that cannot be done: ``code`` is ``not_found`` (no such element or tab,
    nothing to go back to) or ``invalid`` (a value the element cannot take)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Download(msgspec.Struct, frozen=True):
    """A file an answer sent as an attachment: where from, its name as sent, its bytes."""

    url: str
    name: str
    body: bytes
    media_type: str = ""


class Browser(msgspec.Struct, frozen=True):
    """One browser profile: its tabs (:class:`~cwgym.web.session.BrowserState`), the page
    each tab shows, and the values typed into each tab's fields; ``download`` is the file
    the last operation received, for the caller to save (it is not part of the profile)."""

    state: bs.BrowserState
    pages: tuple[tuple[int, Page], ...] = ()
    fields: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()
    download: Download | None = None

    def page(self, tab: int | None = None) -> Page:
        tab = self.state.active if tab is None else tab
        return next((p for t, p in self.pages if t == tab), BLANK)

    def values(self, tab: int | None = None) -> dict[str, str]:
        tab = self.state.active if tab is None else tab
        return dict(next((f for t, f in self.fields if t == tab), ()))

    @property
    def url(self) -> str:
        return self.state.current.url

    def shown(self) -> Page:
        """The active tab's page with the typed values in its controls."""
        return _with_values(self.page(), self.values())

    def observation(self) -> dict:
        """``{page, url, fields}``: what the ``browser.v1`` channel shows."""
        return {"page": projection(self.shown()), "url": self.url, "fields": self.values()}

    # -- state changes -------------------------------------------------------------------
    def _set(self, state: bs.BrowserState, page: Page | None = None, values: dict[str, str] | None = None) -> Browser:
        tab = state.active
        pages = tuple((t, p) for t, p in self.pages if any(x.id == t for x in state.tabs))
        fields = tuple((t, f) for t, f in self.fields if any(x.id == t for x in state.tabs))
        if page is not None:
            pages = (*((t, p) for t, p in pages if t != tab), (tab, page))
            fields = tuple((t, f) for t, f in fields if t != tab)
        if values is not None:
            fields = tuple(sorted([*((t, f) for t, f in fields if t != tab), (tab, tuple(sorted(values.items())))]))
        return Browser(state, tuple(sorted(pages, key=lambda x: x[0])), fields)


def open_browser(engine: str = DEFAULT_ENGINE) -> Browser:
    """A fresh profile: one blank tab, no cookies, the given search engine."""
    return Browser(bs.new_browser(engine))


# -- loading pages ----------------------------------------------------------------------------


def navigate(b: Browser, text: str, request_fn: RequestFn, resolves: Callable[[str], bool]) -> Browser:
    """Type ``text`` into the address bar and press Enter (the omnibox decides; an
    ``OmniboxError`` for a refused scheme propagates)."""
    target = interpret(text, resolves, b.state.engine)
    return load(b, target.url, request_fn)


def load(b: Browser, url: str, request_fn: RequestFn, *, method: str = "GET",
         form: list[tuple[str, str]] | None = None, push: bool = True) -> Browser:
    """Fetch ``url`` in the active tab: a new history entry (``push``) or the current one."""
    if url == "about:blank":  # the new tab page: nothing is fetched
        state = (bs.navigated if push else bs.loaded)(b.state, url, BLANK.title, 0)
        return b._set(state, page=BLANK)
    try:
        state, result = bs.fetch(b.state, request_fn, url, method, form)
        name = attachment_name(result.headers, result.url)
        if name is not None:  # a file: the tab keeps its page, the caller saves the file
            media = next((v for k, v in result.headers if k.lower() == "content-type"), "").split(";")[0].strip().lower()
            return Browser(state, b.pages, b.fields, Download(result.url, name, result.body, media))
        page, status, final = _page_of(result), result.status, result.url
    except NetError as exc:
        state, status, final = b.state, 0, url
        page = _unreachable(url, exc)
    except bs.BrowserError as exc:
        state, status, final = exc.state or b.state, 0, url
        page = Page("This page isn't working", (Heading("This page isn't working", id="error-title"),
                                                 Text(f"{_host(url)} redirected you too many times.", id="error-detail")))
    state = (bs.navigated if push else bs.loaded)(state, final, page.title, status)
    return b._set(state, page=page)


def back(b: Browser, request_fn: RequestFn) -> Browser:
    if not bs.can_go_back(b.state):
        raise EngineError("not_found", "there is no page to go back to")
    state = bs.back(b.state)
    return load(Browser(state, b.pages, b.fields), state.current.url, request_fn, push=False)


def forward(b: Browser, request_fn: RequestFn) -> Browser:
    if not bs.can_go_forward(b.state):
        raise EngineError("not_found", "there is no page to go forward to")
    state = bs.forward(b.state)
    return load(Browser(state, b.pages, b.fields), state.current.url, request_fn, push=False)


def reload(b: Browser, request_fn: RequestFn) -> Browser:
    if b.url == "about:blank":
        return b
    return load(b, bs.reload(b.state), request_fn, push=False)


def new_tab(b: Browser, url: str | None, request_fn: RequestFn, resolves: Callable[[str], bool]) -> Browser:
    opened = b._set(bs.new_tab(b.state))
    return navigate(opened, url, request_fn, resolves) if url else opened


def switch_tab(b: Browser, tab: int) -> Browser:
    if b.state.tab(tab) is None:
        raise EngineError("not_found", f"there is no tab {tab}")
    return b._set(bs.switch_tab(b.state, tab))


def close_tab(b: Browser, tab: int) -> Browser:
    if b.state.tab(tab) is None:
        raise EngineError("not_found", f"there is no tab {tab}")
    return b._set(bs.close_tab(b.state, tab))


# -- acting on the page -------------------------------------------------------------------------


def fill(b: Browser, element_id: str, value: str) -> Browser:
    """Type ``value`` into a field (a select takes one of its option values; a checkbox or
    radio takes ``checked`` or ``unchecked``)."""
    element = _element(b.page(), element_id)
    values = b.values()
    if isinstance(element, (Input, TextArea)) and not (isinstance(element, Input) and element.type == "hidden"):
        values[element_id] = value
    elif isinstance(element, Select):
        if value not in {o.value for o in element.options}:
            raise EngineError("invalid", f"{element_id} has no option {value!r}")
        values[element_id] = value
    elif isinstance(element, (Checkbox, Radio)):
        if value not in (CHECKED, UNCHECKED):
            raise EngineError("invalid", f"{element_id} is a {type(element).__name__.lower()}: fill it with 'checked' or 'unchecked'")
        values = _check(b.page(), values, element, value == CHECKED)
    else:
        raise EngineError("invalid", f"{element_id} is not a field")
    return b._set(b.state, values=values)


def click(b: Browser, element_id: str, request_fn: RequestFn) -> Browser:
    """Click an element: a link is followed, a button submits its form, a checkbox toggles,
    a radio is chosen; anything else does nothing."""
    page = b.page()
    element = _element(page, element_id)
    if isinstance(element, Link):
        return load(b, urljoin(b.url, element.url), request_fn)
    if isinstance(element, Button):
        return submit(b, element_id, request_fn)
    if isinstance(element, Checkbox):
        shown = b.values().get(element_id, CHECKED if element.checked else UNCHECKED)
        return fill(b, element_id, UNCHECKED if shown == CHECKED else CHECKED)
    if isinstance(element, Radio):
        return fill(b, element_id, CHECKED)
    return b


def submit(b: Browser, element_id: str, request_fn: RequestFn) -> Browser:
    """Submit the form ``element_id`` names or contains (with that button, when it is one)."""
    page = b.page()
    form = _form_of(page, element_id)
    if form is None:
        raise EngineError("invalid" if _find(page.elements, element_id) else "not_found",
                          f"{element_id} is not a form or inside one")
    submitter = _element(page, element_id)
    pairs = _submission(form, b.values(), submitter if isinstance(submitter, Button) else None)
    method, url, _, _ = bs.form_request(form.action, form.method, pairs, base=b.url)
    if method == "GET":
        return load(b, url, request_fn)
    return load(b, url, request_fn, method="POST", form=pairs)


# -- helpers ---------------------------------------------------------------------------------


def _page_of(result: bs.FetchResult) -> Page:
    kind = next((v for k, v in result.headers if k.lower() == "content-type"), "").split(";")[0].strip().lower()
    if kind == PAGE_TYPE:
        try:
            return assign_ids(page_from_json(result.body))
        except ValueError:
            return Page(result.url, (Text("The site sent a page this browser could not read.", id="error-detail"),))
    text = result.body.decode("utf-8", "replace")
    if kind in ("text/html", "application/xhtml+xml") or (not kind and text.lstrip().startswith("<")):
        return assign_ids(parse_html(text, result.url))
    if kind.startswith("text/") or kind in ("application/json", ""):
        return Page(result.url, (Text(text, id="document"),))
    return Page(result.url, (Text(f"A {kind} file of {len(result.body)} bytes.", id="document"),))


def attachment_name(headers: tuple[tuple[str, str], ...] | list[tuple[str, str]], url: str) -> str | None:
    """The file name of an answer sent as an attachment (``Content-Disposition:
    attachment``), ``None`` for any other answer: ``filename*`` (RFC 5987, percent-encoded
    in its charset) first, else ``filename`` (quoted or a token), else the URL's last path
    segment, else ``download``."""
    value = next((v for k, v in headers if k.lower() == "content-disposition"), None)
    if value is None:
        return None
    kind, _, rest = value.partition(";")
    if kind.strip().lower() != "attachment":
        return None
    params: dict[str, str] = {}
    for part in _parameters(rest):
        key, eq, raw = part.partition("=")
        if eq:
            params.setdefault(key.strip().lower(), raw.strip())
    extended = params.get("filename*")
    if extended is not None:
        charset, _, encoded = extended.partition("'")
        _, _, encoded = encoded.partition("'")
        try:
            return unquote(encoded, encoding=charset or "utf-8", errors="strict")
        except (LookupError, UnicodeDecodeError):
            pass
    plain = params.get("filename")
    if plain is not None:
        if len(plain) >= 2 and plain[0] == plain[-1] == '"':
            plain = re.sub(r"\\(.)", r"\1", plain[1:-1])  # a quoted-string's escapes
        return plain
    segment = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    return segment or "download"


def _parameters(text: str) -> list[str]:
    """``a=1; b="x;y"`` split at the semicolons outside quotes."""
    parts, current, quoted, escaped = [], [], False, False
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def _unreachable(url: str, exc: NetError) -> Page:
    reasons = {"unresolved": "DNS_PROBE_FINISHED_NXDOMAIN", "refused": "ERR_CONNECTION_REFUSED",
               "lost": "ERR_CONNECTION_TIMED_OUT", "egress_denied": "ERR_NETWORK_ACCESS_DENIED",
               "unreachable": "ERR_ADDRESS_UNREACHABLE"}
    return Page("This site can't be reached", (
        Heading("This site can't be reached", id="error-title"),
        Text(f"{_host(url)}: {exc.detail}", id="error-detail"),
        Text(reasons.get(exc.code, "ERR_FAILED"), id="error-code"),
    ))


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or url
    except ValueError:
        return url


def walk(page: Page) -> Iterator[tuple[Element, Form | None]]:
    """Every element of ``page`` in document order, with the form it is in (``None``)."""
    return _walk(page.elements)


def _walk(elements: tuple[Element, ...]) -> Iterator[tuple[Element, Form | None]]:
    """Every element with the form it is in."""
    for element in elements:
        yield from _walk_one(element, None)


def _walk_one(element: Element, form: Form | None) -> Iterator[tuple[Element, Form | None]]:
    yield element, form
    if isinstance(element, Form):
        for child in element.children:
            yield from _walk_one(child, element)
    elif isinstance(element, ListBlock):
        for item in element.items:
            yield from _walk_one(item, form)
    elif isinstance(element, Table):
        for row in element.rows:
            for cell in row:
                yield from _walk_one(cell, form)


def _find(elements: tuple[Element, ...], element_id: str) -> tuple[Element, Form | None] | None:
    return next(((e, f) for e, f in _walk(elements) if e.id == element_id), None)


def _element(page: Page, element_id: str) -> Element:
    found = _find(page.elements, element_id)
    if found is None:
        raise EngineError("not_found", f"the page has no element {element_id!r}")
    return found[0]


def _form_of(page: Page, element_id: str) -> Form | None:
    found = _find(page.elements, element_id)
    if found is None:
        return None
    element, form = found
    return element if isinstance(element, Form) else form


def _check(page: Page, values: dict[str, str], element: Checkbox | Radio, on: bool) -> dict[str, str]:
    values = dict(values)
    if isinstance(element, Radio) and on:  # choosing one radio unchooses the others of its name
        form = _form_of(page, element.id)
        scope = form.children if form is not None else page.elements
        for other, _ in _walk(scope):
            if isinstance(other, Radio) and other.name == element.name and other.id != element.id:
                values[other.id] = UNCHECKED
    values[element.id] = CHECKED if on else UNCHECKED
    return values


def _is_checked(element: Checkbox | Radio, values: dict[str, str]) -> bool:
    return values[element.id] == CHECKED if element.id in values else element.checked


def _submission(form: Form, values: dict[str, str], submitter: Button | None) -> list[tuple[str, str]]:
    """The name/value pairs ``form`` sends, in document order, as HTML builds them."""
    pairs: list[tuple[str, str]] = []
    for element, _ in _walk(form.children):
        if isinstance(element, (Input, TextArea)) and element.name:
            pairs.append((element.name, values.get(element.id, element.value)))
        elif isinstance(element, Select) and element.name:
            chosen = values.get(element.id, element.value) or (element.options[0].value if element.options else "")
            pairs.append((element.name, chosen))
        elif (isinstance(element, (Checkbox, Radio)) and element.name and _is_checked(element, values)) or (isinstance(element, Button) and element is submitter and element.name):
            pairs.append((element.name, element.value))
    return pairs


def _with_values(page: Page, values: dict[str, str]) -> Page:
    if not values:
        return page
    return msgspec.structs.replace(page, elements=tuple(_valued(e, values) for e in page.elements))


def _valued(element: Element, values: dict[str, str]) -> Element:
    if isinstance(element, Form):
        return msgspec.structs.replace(element, children=tuple(_valued(c, values) for c in element.children))
    if isinstance(element, ListBlock):
        return msgspec.structs.replace(element, items=tuple(_valued(c, values) for c in element.items))
    if isinstance(element, Table):
        return msgspec.structs.replace(element, rows=tuple(tuple(_valued(c, values) for c in row) for row in element.rows))
    if element.id not in values:
        return element
    if isinstance(element, (Input, TextArea, Select)):
        return msgspec.structs.replace(element, value=values[element.id])
    if isinstance(element, (Checkbox, Radio)):
        return msgspec.structs.replace(element, checked=values[element.id] == CHECKED)
    return element
