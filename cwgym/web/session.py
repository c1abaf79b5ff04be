"""A browser's state as plain data, and the pure functions a browser is made of.

:class:`BrowserState` is everything a browser profile remembers between actions — its search
engine, its tabs with their back/forward histories, which tab is in front, and one cookie jar
— as frozen values a world can snapshot (:meth:`BrowserState.to_plain`) and load again
(:meth:`BrowserState.from_plain`, which checks every field and names the one that is wrong).

Every operation is a function from a state to a new state; none mutates its argument, so a
world can keep the state it had before an action and compare, replay or roll back.

* Tabs: :func:`new_browser`, :func:`new_tab`, :func:`close_tab` (closing the last tab leaves a
  blank ``about:blank`` tab, as Chrome opens its new tab page), :func:`switch_tab`.
* History: :func:`navigated` pushes a page on the active tab (dropping the forward entries),
  :func:`loaded` rewrites the current entry (a reload, a tab opened on a URL), :func:`back` and
  :func:`forward` move in it, :func:`reload` names what to fetch again.
* Cookies: :func:`store_cookies` reads ``Set-Cookie`` lines into the jar, :func:`cookie_header`
  writes the ``Cookie`` line for a host. Cookies are host-only and keyed by host name (not
  port, as browsers do); ``Domain``, ``Path``, ``Secure``, ``HttpOnly`` and ``SameSite`` are
  ignored, and a cookie lives until removed: ``Max-Age`` of zero or less, or an ``Expires``
  date at or before ``now`` (the world's clock, in Unix seconds), removes it.
* Fetching: :func:`fetch` sends one request per hop through the caller's ``request_fn``, with
  the browser's headers and the host's cookies, stores the cookies every hop sets and follows
  redirects; :func:`form_request` turns a submitted form into a request.

Pure: no I/O and no clock (the caller passes ``now``); the world's network is reached only
through the ``request_fn`` the caller wires in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

import msgspec

from cwgym.kernel.calendar import days_from_civil, days_in_month
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.net.http import Headers
from cwgym.web.omnibox import DEFAULT_ENGINE, check_engine

__all__ = [
    "ACCEPT",
    "BLANK",
    "BLANK_URL",
    "MAX_HISTORY",
    "REDIRECT_STATUSES",
    "USER_AGENT",
    "BrowserError",
    "BrowserState",
    "BrowserStateError",
    "Entry",
    "FetchResult",
    "Jar",
    "Tab",
    "back",
    "can_go_back",
    "can_go_forward",
    "close_tab",
    "cookie_header",
    "fetch",
    "form_request",
    "forward",
    "loaded",
    "navigated",
    "new_browser",
    "new_tab",
    "reload",
    "store_cookies",
    "switch_tab",
]

#: The browser's ``User-Agent``.
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) cwgym/1"
#: The browser's ``Accept``: the page model first, HTML for any other server.
ACCEPT = "application/vnd.cwgym.page+json, text/html;q=0.9"
#: The URL of a blank tab (Chrome's new tab page).
BLANK_URL = "about:blank"
#: Entries a tab's history keeps; past it the oldest are dropped (Chrome keeps 50).
MAX_HISTORY = 50
#: Statuses whose ``Location`` the browser follows.
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_FORM_TYPE = "application/x-www-form-urlencoded"

RequestFn = Callable[[str, str, list[tuple[str, str]], bytes], tuple[int, Any, Any]]


class BrowserError(Exception):
    """An operation the browser cannot do (``nothing to go back to``, ``too many redirects``,
    ``no tab 7``). ``state`` is the state reached before the failure when it differs from the
    one passed in (cookies stored by the hops of a redirect loop), else ``None``."""

    def __init__(self, message: str, state: BrowserState | None = None) -> None:
        super().__init__(message)
        self.state = state


class BrowserStateError(ValueError):
    """Plain data that is not a browser state: ``path`` (``$.tabs[0].index``) names the field."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One page in a tab's history: where it was, its title, and the status it answered
    (``0`` for a page no server answered: a blank tab, or one not loaded yet)."""

    url: str
    title: str = ""
    status: int = 0


#: The one entry of a blank tab.
BLANK = Entry(BLANK_URL, "New Tab", 0)


class Tab(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tab: its id (never reused in a browser), its history and the entry shown."""

    id: int
    history: tuple[Entry, ...]
    index: int = 0

    @property
    def current(self) -> Entry:
        return self.history[self.index]


class Jar(msgspec.Struct, frozen=True):
    """The cookies of one host, ``(name, value)`` in the order they were first set."""

    host: str
    cookies: tuple[tuple[str, str], ...]


class FetchResult(msgspec.Struct, frozen=True):
    """The response a fetch ended on: the URL that answered (with the fragment the browser
    keeps), its status, headers and body, and the URLs that redirected on the way, in order."""

    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    redirects: tuple[str, ...] = ()


class BrowserState(msgspec.Struct, frozen=True):
    """A browser profile: tabs in strip order, the active tab's id, the id the next tab gets,
    the cookie jar (one :class:`Jar` per host) and the search engine template."""

    tabs: tuple[Tab, ...]
    active: int
    next_tab: int
    cookies: tuple[Jar, ...] = ()
    engine: str = DEFAULT_ENGINE

    def tab(self, tab_id: int) -> Tab | None:
        """The tab with this id, or ``None``."""
        return next((t for t in self.tabs if t.id == tab_id), None)

    @property
    def active_tab(self) -> Tab:
        tab = self.tab(self.active)
        assert tab is not None, "a browser state always has its active tab"
        return tab

    @property
    def current(self) -> Entry:
        """The entry the active tab shows."""
        return self.active_tab.current

    def jar(self, host: str) -> dict[str, str]:
        """The cookies of ``host``, name to value (a fresh dict)."""
        key = _norm_host(host)
        return next((dict(j.cookies) for j in self.cookies if j.host == key), {})

    def to_plain(self) -> dict[str, Any]:
        """JSON-ready data; ``engine`` is written only when it is not the default, so a
        snapshot of a browser on the default engine reads the same as one from before the
        engine was part of the state."""
        plain: dict[str, Any] = {} if self.engine == DEFAULT_ENGINE else {"engine": self.engine}
        plain["tabs"] = [
            {"id": t.id, "history": [{"url": e.url, "title": e.title, "status": e.status} for e in t.history], "index": t.index}
            for t in self.tabs
        ]
        plain["active"] = self.active
        plain["next_tab"] = self.next_tab
        plain["cookies"] = {j.host: dict(j.cookies) for j in self.cookies}
        return plain

    @classmethod
    def from_plain(cls, data: Any) -> BrowserState:
        """The state :meth:`to_plain` wrote.

        Raises:
            BrowserStateError: a field is missing, unknown, of the wrong type, or breaks an
                invariant (no tabs, a repeated tab id, an index outside the history, an
                active tab that is not there, ``next_tab`` not above every id, a malformed
                cookie); ``path`` names it.
        """
        try:
            plain = msgspec.convert(data, _PlainState)
        except msgspec.ValidationError as exc:
            text = str(exc)
            match = _MSGSPEC_PATH.search(text)
            raise BrowserStateError(match[1] if match else "$", _MSGSPEC_PATH.sub("", text)) from None
        return _check(plain)


class _PlainState(msgspec.Struct, forbid_unknown_fields=True):
    tabs: list[Tab]
    active: int
    next_tab: int
    cookies: dict[str, dict[str, str]] = {}
    engine: str = DEFAULT_ENGINE


_MSGSPEC_PATH = re.compile(r" - at `(\$[^`]*)`$")
_COOKIE_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # an RFC 7230 token
_COOKIE_VALUE = re.compile(r"[^\x00-\x1f\x7f;]*")


def _check(plain: _PlainState) -> BrowserState:
    try:
        check_engine(plain.engine)
    except ValueError as exc:
        raise BrowserStateError("$.engine", str(exc)) from None
    if not plain.tabs:
        raise BrowserStateError("$.tabs", "a browser has at least one tab")
    seen: set[int] = set()
    for i, tab in enumerate(plain.tabs):
        where = f"$.tabs[{i}]"
        if tab.id < 0 or tab.id in seen:
            raise BrowserStateError(f"{where}.id", f"tab id {tab.id} is negative or repeated")
        seen.add(tab.id)
        if not 1 <= len(tab.history) <= MAX_HISTORY:
            raise BrowserStateError(f"{where}.history", f"a tab's history holds 1 to {MAX_HISTORY} entries, not {len(tab.history)}")
        if not 0 <= tab.index < len(tab.history):
            raise BrowserStateError(f"{where}.index", f"{tab.index} is outside the history (0..{len(tab.history) - 1})")
        for j, entry in enumerate(tab.history):
            if not 0 <= entry.status <= 999:
                raise BrowserStateError(f"{where}.history[{j}].status", f"{entry.status} is not an HTTP status (0 for none)")
    if plain.active not in seen:
        raise BrowserStateError("$.active", f"no tab has id {plain.active}")
    if plain.next_tab <= max(seen):
        raise BrowserStateError("$.next_tab", f"{plain.next_tab} is not above every tab id (highest {max(seen)})")
    jars = []
    for host, cookies in plain.cookies.items():
        where = f"$.cookies[{host!r}]"
        if not host or host != _norm_host(host):
            raise BrowserStateError(where, "a jar is keyed by a lower-case host name")
        for name, value in cookies.items():
            if not _COOKIE_NAME.fullmatch(name) or not _COOKIE_VALUE.fullmatch(value):
                raise BrowserStateError(f"{where}[{name!r}]", "not a cookie name and value a Cookie header can carry")
        if cookies:
            jars.append(Jar(host, tuple(cookies.items())))
    return BrowserState(tuple(plain.tabs), plain.active, plain.next_tab, tuple(jars), plain.engine)


# -- tabs ---------------------------------------------------------------------------------------


def new_browser(engine: str = DEFAULT_ENGINE) -> BrowserState:
    """A browser just opened: one blank tab (id 0), an empty jar, ``engine`` for searches.

    Raises:
        ValueError: ``engine`` is not a usable template.
    """
    return BrowserState((Tab(0, (BLANK,)),), 0, 1, (), check_engine(engine))


def new_tab(state: BrowserState, url: str | None = None) -> BrowserState:
    """A new tab at the end of the strip, made active: blank, or on ``url`` not loaded yet
    (status 0; the caller fetches it and records the answer with :func:`loaded`)."""
    entry = BLANK if url is None else Entry(url)
    tab = Tab(state.next_tab, (entry,))
    return msgspec.structs.replace(state, tabs=(*state.tabs, tab), active=tab.id, next_tab=tab.id + 1)


def close_tab(state: BrowserState, tab_id: int) -> BrowserState:
    """The browser without tab ``tab_id``. Closing the active tab activates its right
    neighbour (its left one when it was last); closing the last tab leaves one new blank tab.

    Raises:
        BrowserError: there is no such tab.
    """
    place = _place(state, tab_id)
    tabs = state.tabs[:place] + state.tabs[place + 1 :]
    if not tabs:
        blank = Tab(state.next_tab, (BLANK,))
        return msgspec.structs.replace(state, tabs=(blank,), active=blank.id, next_tab=blank.id + 1)
    active = state.active if state.active != tab_id else tabs[min(place, len(tabs) - 1)].id
    return msgspec.structs.replace(state, tabs=tabs, active=active)


def switch_tab(state: BrowserState, tab_id: int) -> BrowserState:
    """The browser with tab ``tab_id`` in front.

    Raises:
        BrowserError: there is no such tab.
    """
    _place(state, tab_id)
    return msgspec.structs.replace(state, active=tab_id)


def _place(state: BrowserState, tab_id: int) -> int:
    for place, tab in enumerate(state.tabs):
        if type(tab_id) is int and tab.id == tab_id:
            return place
    raise BrowserError(f"no tab {tab_id!r}")


# -- history ------------------------------------------------------------------------------------


def navigated(state: BrowserState, url: str, title: str, status: int) -> BrowserState:
    """The active tab after it went to a new page: the entry is pushed after the current one,
    the forward entries are dropped, and past :data:`MAX_HISTORY` the oldest go."""
    tab = state.active_tab
    history = (*tab.history[: tab.index + 1], Entry(url, title, status))[-MAX_HISTORY:]
    return _with_tab(state, Tab(tab.id, history, len(history) - 1))


def loaded(state: BrowserState, url: str, title: str, status: int) -> BrowserState:
    """The active tab with its current entry rewritten in place (no new history entry): the
    answer to a reload, to going back or forward, or to a tab opened on a URL."""
    tab = state.active_tab
    history = (*tab.history[: tab.index], Entry(url, title, status), *tab.history[tab.index + 1 :])
    return _with_tab(state, Tab(tab.id, history, tab.index))


def can_go_back(state: BrowserState) -> bool:
    return state.active_tab.index > 0


def can_go_forward(state: BrowserState) -> bool:
    tab = state.active_tab
    return tab.index < len(tab.history) - 1


def back(state: BrowserState) -> BrowserState:
    """The active tab one entry back (the caller fetches ``state.current.url`` again).

    Raises:
        BrowserError: ``nothing to go back to``.
    """
    if not can_go_back(state):
        raise BrowserError("nothing to go back to")
    tab = state.active_tab
    return _with_tab(state, Tab(tab.id, tab.history, tab.index - 1))


def forward(state: BrowserState) -> BrowserState:
    """The active tab one entry forward.

    Raises:
        BrowserError: ``nothing to go forward to``.
    """
    if not can_go_forward(state):
        raise BrowserError("nothing to go forward to")
    tab = state.active_tab
    return _with_tab(state, Tab(tab.id, tab.history, tab.index + 1))


def reload(state: BrowserState) -> str:
    """The URL a reload fetches again: the active tab's current entry (record the answer
    with :func:`loaded`)."""
    return state.current.url


def _with_tab(state: BrowserState, tab: Tab) -> BrowserState:
    return msgspec.structs.replace(state, tabs=tuple(tab if t.id == tab.id else t for t in state.tabs))


# -- cookies ------------------------------------------------------------------------------------


def _norm_host(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host[:-1] if host.endswith(".") else host


def cookie_header(state: BrowserState, host: str) -> str | None:
    """The ``Cookie`` line the browser sends to ``host`` (``a=1; b=2``), or ``None`` when
    the jar holds nothing for it."""
    jar = state.jar(host)
    return "; ".join(f"{name}={value}" for name, value in jar.items()) or None


def store_cookies(state: BrowserState, host: str, set_cookie_headers: Iterable[str], *, now: int | None = None) -> BrowserState:
    """The browser after ``host`` answered these ``Set-Cookie`` values, in order.

    A value sets its cookie for ``host`` only; a line with no ``=``, an empty or malformed
    name, or a value a ``Cookie`` line cannot carry is ignored, as browsers do. ``Max-Age``
    of zero or less removes the cookie; failing a ``Max-Age``, so does an ``Expires`` date
    (read as RFC 6265 §5.1.1 reads dates) at or before ``now``. Any other attribute is
    ignored, and a cookie that is not removed lives as long as the profile.

    Args:
        now: the world's wall time in Unix seconds (``Clock.unix_seconds()``). Without it,
            only dates before the world's epoch count as past — true in every world.
    """
    key = _norm_host(host)
    clock = WORLD_EPOCH_S if now is None else now
    jar = state.jar(key)
    for line in set_cookie_headers:
        parsed = _parse_set_cookie(line, clock)
        if parsed is None:
            continue
        name, value, removed = parsed
        if removed:
            jar.pop(name, None)
        else:
            jar[name] = value
    if jar == state.jar(key):
        return state
    jars = [j for j in state.cookies if j.host != key]
    if jar:
        place = next((i for i, j in enumerate(state.cookies) if j.host == key), len(state.cookies))
        jars.insert(place, Jar(key, tuple(jar.items())))
    return msgspec.structs.replace(state, cookies=tuple(jars))


def _parse_set_cookie(line: str, now: int) -> tuple[str, str, bool] | None:
    """``(name, value, removed)`` of a ``Set-Cookie`` value, or ``None`` to ignore it."""
    pair, *attributes = line.split(";")
    name, eq, value = pair.partition("=")
    name, value = name.strip(), value.strip(" \t")
    if not eq or not _COOKIE_NAME.fullmatch(name) or not _COOKIE_VALUE.fullmatch(value):
        return None
    max_age: int | None = None
    expires: int | None = None
    for attribute in attributes:
        key, _, argument = attribute.partition("=")
        key, argument = key.strip().lower(), argument.strip()
        if key == "max-age" and re.fullmatch(r"-?[0-9]+", argument):
            max_age = int(argument)
        elif key == "expires":
            when = _cookie_date(argument)
            expires = when if when is not None else expires
    if max_age is not None:
        return name, value, max_age <= 0
    return name, value, expires is not None and expires <= now


_DATE_DELIMITERS = re.compile(r"[\x09\x20-\x2f\x3b-\x40\x5b-\x60\x7b-\x7e]+")
_TIME = re.compile(r"([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[^0-9].*)?", re.S)
_DAY = re.compile(r"([0-9]{1,2})(?:[^0-9].*)?", re.S)
_YEAR = re.compile(r"([0-9]{2,4})(?:[^0-9].*)?", re.S)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _cookie_date(text: str) -> int | None:
    """Unix seconds of a cookie date (RFC 6265 §5.1.1: any of the HTTP date formats, read
    leniently), or ``None`` when it is not one."""
    hms = day = month = year = None
    for token in _DATE_DELIMITERS.split(text):
        if not token:
            continue
        if hms is None and (m := _TIME.fullmatch(token)):
            hms = (int(m[1]), int(m[2]), int(m[3]))
        elif day is None and (m := _DAY.fullmatch(token)):
            day = int(m[1])
        elif month is None and token[:3].lower() in _MONTHS:
            month = _MONTHS.index(token[:3].lower()) + 1
        elif year is None and (m := _YEAR.fullmatch(token)):
            year = int(m[1])
    if hms is None or day is None or month is None or year is None:
        return None
    year += 1900 if 70 <= year <= 99 else 2000 if year <= 69 else 0
    hour, minute, second = hms
    if year < 1601 or hour > 23 or minute > 59 or second > 59 or not 1 <= day <= days_in_month(year, month):
        return None
    return days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second


# -- fetching -----------------------------------------------------------------------------------


def form_request(action_url: str, method: str, fields: Iterable[tuple[str, str]], *, base: str | None = None) -> tuple[str, str, list[tuple[str, str]], bytes]:
    """``(method, url, headers, body)`` of a submitted form, as HTML submits one.

    ``action_url`` is resolved against ``base`` (the page's URL; an empty action is the page
    itself). ``POST`` sends the fields as an ``application/x-www-form-urlencoded`` body; any
    other method is ``GET`` (HTML's default for a method it does not know), which replaces
    the action's query with the fields. Names and values are encoded as UTF-8, spaces as
    ``+``.

    Raises:
        BrowserError: the action is not a URL (a malformed IPv6 host).
    """
    encoded = urlencode(list(fields), errors="surrogatepass")
    try:
        url = urljoin(base, action_url) if base else action_url
        if method.upper() == "POST":
            return "POST", url, [("Content-Type", _FORM_TYPE)], encoded.encode("ascii")
        scheme, netloc, path, _, fragment = urlsplit(url)
        return "GET", urlunsplit((scheme, netloc, path, encoded, fragment)), [], b""
    except ValueError as exc:
        raise BrowserError(f"the form's action {action_url!r} is not a URL ({exc})") from None


def fetch(
    state: BrowserState,
    request_fn: RequestFn,
    url: str,
    method: str = "GET",
    form: Iterable[tuple[str, str]] | None = None,
    max_redirects: int = 20,
    *,
    now: int | None = None,
) -> tuple[BrowserState, FetchResult]:
    """Fetch ``url`` as the browser does, returning the state with the cookies it was given.

    Each hop is one call ``request_fn(method, url, headers, body) -> (status, headers, body)``
    (response headers as pairs or a mapping); whatever it raises (a network failure)
    propagates unchanged. The request carries :data:`USER_AGENT`, :data:`ACCEPT` and the
    ``Cookie`` line of the hop's host; the ``Set-Cookie`` lines of every hop are stored.
    ``form`` (name, value pairs) is sent as :func:`form_request` sends it. A fragment is
    never sent; the result's URL keeps it, or takes the redirect's own.

    A :data:`REDIRECT_STATUSES` answer with a ``Location`` is followed (relative to the hop's
    URL): ``303`` turns any method but ``HEAD`` into ``GET`` without a body, ``301`` and
    ``302`` do so for ``POST``, ``307`` and ``308`` keep the method and body.

    Raises:
        BrowserError: ``too many redirects`` when more than ``max_redirects`` would be
            followed; its ``state`` holds the cookies the hops set.
    """
    if type(max_redirects) is not int or max_redirects < 0:
        raise ValueError(f"max_redirects must be a non-negative int, not {max_redirects!r}")
    extra: list[tuple[str, str]] = []
    body = b""
    method = method.upper()
    if form is not None:
        method, url, extra, body = form_request(url, method, form)
    url, hash_, fragment = url.partition("#")
    redirects: list[str] = []
    while True:
        host = _host_of(url)
        headers = [("User-Agent", USER_AGENT), ("Accept", ACCEPT)]
        cookies = cookie_header(state, host) if host else None
        if cookies:
            headers.append(("Cookie", cookies))
        status, reply_headers, reply_body = request_fn(method, url, [*headers, *extra], body)
        pairs = _pairs(reply_headers)
        if host:
            state = store_cookies(state, host, [v for k, v in pairs if k.lower() == "set-cookie"], now=now)
        location = next((v for k, v in pairs if k.lower() == "location"), None)
        if status not in REDIRECT_STATUSES or location is None:
            final = f"{url}#{fragment}" if hash_ else url
            return state, FetchResult(final, status, pairs, _bytes(reply_body), tuple(redirects))
        if len(redirects) >= max_redirects:
            raise BrowserError("too many redirects", state)
        redirects.append(url)
        try:
            target = urljoin(url, location.strip())
        except ValueError:
            target = location.strip()  # request_fn refuses it in its own words
        url, target_hash, target_fragment = target.partition("#")
        if target_hash:
            hash_, fragment = target_hash, target_fragment
        if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
            method, body, extra = "GET", b"", []


def _host_of(url: str) -> str | None:
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return _norm_host(host) if host else None


def _pairs(headers: Any) -> tuple[tuple[str, str], ...]:
    if headers is None:
        return ()
    if isinstance(headers, Headers):
        return headers.items
    items = headers.items() if isinstance(headers, Mapping) else headers
    return tuple((str(k), str(v)) for k, v in items)


def _bytes(body: Any) -> bytes:
    if isinstance(body, str):
        return body.encode("utf-8")
    return bytes(body or b"")
