"""The browser's state and the pure functions over it: tabs and their histories, the cookie
jar, fetching through a fake network with redirects, form submission, and the plain round
trip with its refusals. Every operation leaves the state it was given untouched."""

from __future__ import annotations

import copy

import pytest

from cwgym.kernel.calendar import days_from_civil
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.net.http import Headers, NetError
from cwgym.web.omnibox import DEFAULT_ENGINE
from cwgym.web.session import (
    ACCEPT,
    BLANK,
    MAX_HISTORY,
    USER_AGENT,
    BrowserError,
    BrowserState,
    BrowserStateError,
    Entry,
    back,
    can_go_back,
    can_go_forward,
    close_tab,
    cookie_header,
    fetch,
    form_request,
    forward,
    loaded,
    navigated,
    new_browser,
    new_tab,
    reload,
    store_cookies,
    switch_tab,
)


def visited(*urls: str) -> BrowserState:
    state = new_browser()
    for url in urls:
        state = navigated(state, url, url.rsplit("/", 1)[-1], 200)
    return state


def urls(state: BrowserState) -> list[str]:
    return [e.url for e in state.active_tab.history]


# -- tabs ------------------------------------------------------------------------------------------


def test_a_new_browser_has_one_blank_tab():
    state = new_browser()
    assert [t.id for t in state.tabs] == [0]
    assert state.active == 0 and state.next_tab == 1
    assert state.current == BLANK and BLANK.url == "about:blank"
    assert state.engine == DEFAULT_ENGINE
    assert not can_go_back(state) and not can_go_forward(state)


def test_new_tabs_go_to_the_end_and_come_to_the_front():
    state = new_tab(new_tab(new_browser()), "http://wiki.internal/")
    assert [t.id for t in state.tabs] == [0, 1, 2]
    assert state.active == 2
    assert state.current == Entry("http://wiki.internal/", "", 0)
    state = loaded(state, "http://wiki.internal/", "Wiki", 200)
    assert urls(state) == ["http://wiki.internal/"]
    assert state.current.title == "Wiki"


def test_switching_and_closing_tabs():
    state = new_tab(new_tab(new_browser()))  # tabs 0 1 2, 2 active
    state = switch_tab(state, 1)
    assert state.active == 1
    state = close_tab(state, 1)  # the active one: its right neighbour comes forward
    assert [t.id for t in state.tabs] == [0, 2] and state.active == 2
    state = close_tab(state, 2)  # the last in the strip: its left neighbour
    assert [t.id for t in state.tabs] == [0] and state.active == 0
    state = new_tab(state)
    state = close_tab(state, 0)  # not the active one: the active tab stays
    assert [t.id for t in state.tabs] == [3] and state.active == 3


def test_closing_the_last_tab_leaves_a_blank_one_with_a_new_id():
    state = navigated(new_browser(), "http://a.example/", "A", 200)
    state = close_tab(state, 0)
    assert [t.id for t in state.tabs] == [1]
    assert state.active == 1 and state.next_tab == 2
    assert urls(state) == ["about:blank"]


@pytest.mark.parametrize("tab", [7, -1, "0", True, None])
def test_a_tab_that_is_not_there(tab):
    state = new_browser()
    with pytest.raises(BrowserError, match="no tab"):
        switch_tab(state, tab)
    with pytest.raises(BrowserError, match="no tab"):
        close_tab(state, tab)


# -- history ---------------------------------------------------------------------------------------


def test_back_and_forward_move_in_the_history():
    state = visited("http://a/1", "http://a/2", "http://a/3")
    assert urls(state) == ["about:blank", "http://a/1", "http://a/2", "http://a/3"]
    state = back(back(state))
    assert state.current.url == "http://a/1"
    assert can_go_back(state) and can_go_forward(state)
    state = forward(state)
    assert state.current.url == "http://a/2"
    assert reload(state) == "http://a/2"


def test_navigating_drops_the_forward_entries():
    state = back(back(visited("http://a/1", "http://a/2", "http://a/3")))
    state = navigated(state, "http://b/", "B", 404)
    assert urls(state) == ["about:blank", "http://a/1", "http://b/"]
    assert state.current == Entry("http://b/", "B", 404)
    assert not can_go_forward(state)


def test_nothing_to_go_back_or_forward_to():
    state = new_browser()
    with pytest.raises(BrowserError, match=r"^nothing to go back to$"):
        back(state)
    with pytest.raises(BrowserError, match=r"^nothing to go forward to$"):
        forward(state)


def test_each_tab_keeps_its_own_history():
    state = visited("http://a/1")
    state = navigated(new_tab(state), "http://b/1", "b", 200)
    assert urls(state) == ["about:blank", "http://b/1"]
    state = back(switch_tab(state, 0))
    assert state.current == BLANK
    assert [e.url for e in state.tab(1).history] == ["about:blank", "http://b/1"]


def test_loaded_rewrites_the_current_entry_in_place():
    state = back(visited("http://a/1", "http://a/2"))
    state = loaded(state, "http://a/1", "One again", 500)
    assert urls(state) == ["about:blank", "http://a/1", "http://a/2"]
    assert state.current == Entry("http://a/1", "One again", 500)
    assert can_go_forward(state)


def test_a_history_keeps_at_most_max_history_entries():
    state = visited(*(f"http://a/{i}" for i in range(MAX_HISTORY + 5)))
    history = urls(state)
    assert len(history) == MAX_HISTORY
    assert history[-1] == f"http://a/{MAX_HISTORY + 4}"
    assert state.active_tab.index == MAX_HISTORY - 1


def test_no_operation_changes_the_state_it_was_given():
    state = store_cookies(visited("http://a/1", "http://a/2"), "a", ["sid=1"])
    state = new_tab(state, "http://b/")
    plain = copy.deepcopy(state.to_plain())
    twin = BrowserState.from_plain(plain)
    results = [
        new_tab(state), close_tab(state, 1), close_tab(state, 0), switch_tab(state, 0),
        navigated(state, "http://c/", "C", 200), loaded(state, "http://b/", "B", 200),
        back(switch_tab(state, 0)), store_cookies(state, "a", ["sid=2", "x=1"]),
        store_cookies(state, "a", ["sid=; Max-Age=0"]),
        fetch(state, lambda *a: (200, [("Set-Cookie", "n=1")], b""), "http://a/")[0],
    ]
    assert all(r != state for r in results)
    assert state.to_plain() == plain
    assert state == twin
    assert hash(state) == hash(twin)


# -- cookies ---------------------------------------------------------------------------------------


def test_cookies_are_kept_per_host_and_sent_only_to_it():
    state = store_cookies(new_browser(), "mail.northwind.example", ["sid=abc; Path=/; HttpOnly", "theme=dark"])
    state = store_cookies(state, "wiki.internal", ["sid=xyz; Domain=northwind.example; Secure; SameSite=Lax"])
    assert cookie_header(state, "mail.northwind.example") == "sid=abc; theme=dark"
    assert cookie_header(state, "MAIL.northwind.example.") == "sid=abc; theme=dark"
    assert cookie_header(state, "wiki.internal") == "sid=xyz"
    assert cookie_header(state, "northwind.example") is None  # host-only: Domain is ignored
    assert cookie_header(state, "other.example") is None


def test_a_cookie_set_again_keeps_its_place_and_takes_the_new_value():
    state = store_cookies(new_browser(), "a", ["x=1", "y=2"])
    state = store_cookies(state, "a", ["x=3"])
    assert cookie_header(state, "a") == "x=3; y=2"


@pytest.mark.parametrize(
    "removal",
    [
        "sid=; Path=/; Max-Age=0",
        "sid=gone; max-age=-5",
        "sid=; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
        "sid=; expires=Sunday, 06-Nov-94 08:49:37 GMT",
        "sid=; Expires=Sun Nov  6 08:49:37 1994",
    ],
)
def test_max_age_zero_or_a_past_expiry_removes_a_cookie(removal):
    state = store_cookies(new_browser(), "a", ["sid=1", "keep=1"])
    state = store_cookies(state, "a", [removal])
    assert state.jar("a") == {"keep": "1"}
    gone = store_cookies(state, "a", ["keep=1; Max-Age=0"])
    assert gone.cookies == ()  # an empty jar is dropped


def test_expires_is_read_against_the_clock_the_caller_passes():
    later = days_from_civil(2027, 1, 1) * 86400  # after the world's epoch (17 Sep 2026)
    line = "sid=1; Expires=Fri, 01 Jan 2027 00:00:00 GMT"
    assert later > WORLD_EPOCH_S
    assert store_cookies(new_browser(), "a", [line]).jar("a") == {"sid": "1"}
    assert store_cookies(new_browser(), "a", [line], now=later - 1).jar("a") == {"sid": "1"}
    assert store_cookies(new_browser(), "a", [line], now=later).jar("a") == {}
    # Max-Age wins over Expires; a positive one is otherwise ignored
    assert store_cookies(new_browser(), "a", [line + "; Max-Age=60"], now=later).jar("a") == {"sid": "1"}


@pytest.mark.parametrize("line", ["novalue", "=orphan", " ; Path=/", "a b=1", "x=1\x01", "", "n\u00e9=1"])
def test_malformed_set_cookie_lines_are_ignored(line):
    assert store_cookies(new_browser(), "a", [line, "ok=1"]).jar("a") == {"ok": "1"}


def test_cookie_dates_that_are_not_dates_do_not_expire_anything():
    for date in ["Feb 30 1999 00:00:00", "Jan 01 1500 00:00:00", "Jan 01 1999 25:00:00", "yesterday", "Jan 1999"]:
        assert store_cookies(new_browser(), "a", [f"sid=1; Expires={date}"]).jar("a") == {"sid": "1"}


# -- fetching --------------------------------------------------------------------------------------


class FakeNet:
    """A network of canned answers: url -> (status, headers, body); records each request."""

    def __init__(self, answers: dict):
        self.answers = answers
        self.sent: list[tuple[str, str, dict, bytes]] = []

    def __call__(self, method, url, headers, body):
        self.sent.append((method, url, dict(headers), body))
        if url not in self.answers:
            raise NetError("unresolved", url)
        return self.answers[url]


def test_a_fetch_sends_the_browsers_headers_and_returns_the_answer():
    net = FakeNet({"http://wiki.internal/": (200, [("Content-Type", "text/html")], b"<p>hi</p>")})
    state, result = fetch(new_browser(), net, "http://wiki.internal/")
    assert result.status == 200 and result.body == b"<p>hi</p>" and result.redirects == ()
    assert result.url == "http://wiki.internal/"
    assert result.headers == (("Content-Type", "text/html"),)
    [(method, url, headers, body)] = net.sent
    assert (method, url, body) == ("GET", "http://wiki.internal/", b"")
    assert headers == {"User-Agent": USER_AGENT, "Accept": ACCEPT}
    assert state == new_browser()


def test_cookies_go_out_and_come_back_on_every_hop():
    net = FakeNet({
        "http://shop.example/login": (302, [("Set-Cookie", "sid=s1; Path=/"), ("Location", "/cart")], b""),
        "http://shop.example/cart": (302, Headers.of([("Location", "http://pay.example/checkout"), ("Set-Cookie", "seen=1")]), b""),
        "http://pay.example/checkout": (200, {"Set-Cookie": "pay=p1"}, "paid"),
    })
    state = store_cookies(new_browser(), "shop.example", ["old=0"])
    state, result = fetch(state, net, "http://shop.example/login")
    assert result.url == "http://pay.example/checkout" and result.body == b"paid"
    assert result.redirects == ("http://shop.example/login", "http://shop.example/cart")
    assert [s[2].get("Cookie") for s in net.sent] == ["old=0", "old=0; sid=s1", None]
    assert state.jar("shop.example") == {"old": "0", "sid": "s1", "seen": "1"}
    assert state.jar("pay.example") == {"pay": "p1"}


@pytest.mark.parametrize(
    ("status", "method", "expected"),
    [
        (303, "POST", "GET"), (303, "PUT", "GET"), (303, "HEAD", "HEAD"),
        (301, "POST", "GET"), (302, "POST", "GET"), (301, "PUT", "PUT"), (302, "DELETE", "DELETE"),
        (307, "POST", "POST"), (308, "POST", "POST"),
    ],
)
def test_redirects_change_the_method_as_browsers_do(status, method, expected):
    net = FakeNet({
        "http://a.example/form": (status, [("Location", "/done")], b""),
        "http://a.example/done": (200, [], b"ok"),
    })
    if method == "POST":
        _, result = fetch(new_browser(), net, "http://a.example/form", "POST", form=[("q", "x y")])
    else:
        _, result = fetch(new_browser(), net, "http://a.example/form", method)
    assert result.status == 200
    first, second = net.sent
    assert second[0] == expected
    if method == "POST":
        assert first[2]["Content-Type"] == "application/x-www-form-urlencoded" and first[3] == b"q=x+y"
        if expected == "GET":
            assert second[3] == b"" and "Content-Type" not in second[2]
        else:
            assert second[3] == b"q=x+y" and second[2]["Content-Type"] == "application/x-www-form-urlencoded"


def test_a_get_form_goes_in_the_query_string():
    net = FakeNet({"http://s.example/find?q=a+b&lang=en": (200, [], b"found")})
    _, result = fetch(new_browser(), net, "http://s.example/find?old=1", "get", form=[("q", "a b"), ("lang", "en")])
    assert result.body == b"found"
    assert net.sent[0][:2] == ("GET", "http://s.example/find?q=a+b&lang=en")


def test_too_many_redirects():
    loop = FakeNet({
        "http://a.example/x": (302, [("Location", "/y"), ("Set-Cookie", "n=1")], b""),
        "http://a.example/y": (307, [("Location", "http://a.example/x")], b""),
    })
    with pytest.raises(BrowserError, match=r"^too many redirects$") as caught:
        fetch(new_browser(), loop, "http://a.example/x", max_redirects=5)
    assert len(loop.sent) == 6  # five redirects followed, the sixth refused
    assert caught.value.state.jar("a.example") == {"n": "1"}
    chain = FakeNet({f"http://a.example/{i}": (301, [("Location", f"/{i + 1}")], b"") for i in range(20)})
    chain.answers["http://a.example/20"] = (200, [], b"end")
    _, result = fetch(new_browser(), chain, "http://a.example/0")  # exactly 20: allowed
    assert len(result.redirects) == 20 and result.body == b"end"
    with pytest.raises(BrowserError, match="too many redirects"):
        fetch(new_browser(), chain, "http://a.example/0", max_redirects=19)


def test_a_redirect_without_a_location_is_the_answer():
    net = FakeNet({"http://a.example/": (302, [], b"no location")})
    _, result = fetch(new_browser(), net, "http://a.example/")
    assert result.status == 302 and result.body == b"no location"


def test_the_fragment_is_never_sent_but_kept_or_replaced():
    net = FakeNet({
        "http://a.example/doc": (301, [("Location", "/new")], b""),
        "http://a.example/new": (200, [], b""),
        "http://a.example/moved": (301, [("Location", "/new#intro")], b""),
    })
    _, result = fetch(new_browser(), net, "http://a.example/doc#part-2")
    assert result.url == "http://a.example/new#part-2"
    _, result = fetch(new_browser(), net, "http://a.example/moved#x")
    assert result.url == "http://a.example/new#intro"
    assert all("#" not in s[1] for s in net.sent)


def test_network_failures_propagate_unchanged():
    error = NetError("refused", "nothing listens on port 80")

    def refuse(*_):
        raise error

    with pytest.raises(NetError) as caught:
        fetch(new_browser(), refuse, "http://a.example/")
    assert caught.value is error
    net = FakeNet({"http://a.example/": (302, [("Location", "http://gone.example/")], b"")})
    with pytest.raises(NetError, match="unresolved"):
        fetch(new_browser(), net, "http://a.example/")


def test_max_redirects_must_be_a_count():
    with pytest.raises(ValueError):
        fetch(new_browser(), FakeNet({}), "http://a.example/", max_redirects=-1)


def test_form_requests():
    assert form_request("/login", "post", [("user", "alice"), ("pw", "p&ss wörd")], base="http://mail.example/inbox") == (
        "POST", "http://mail.example/login", [("Content-Type", "application/x-www-form-urlencoded")],
        b"user=alice&pw=p%26ss+w%C3%B6rd",
    )
    assert form_request("search?x=1#top", "GET", [("q", "a/b")], base="http://s.example/dir/page") == (
        "GET", "http://s.example/dir/search?q=a%2Fb#top", [], b"",
    )
    assert form_request("", "dialog", [("a", "1")], base="http://s.example/p?old=1")[:2] == ("GET", "http://s.example/p?a=1")
    assert form_request("http://t.example/go", "POST", [])[1:] == (
        "http://t.example/go", [("Content-Type", "application/x-www-form-urlencoded")], b"",
    )
    with pytest.raises(BrowserError):
        form_request("http://[::1/x", "GET", [])


# -- plain data ------------------------------------------------------------------------------------


def rich_state() -> BrowserState:
    state = visited("http://a/1", "http://a/2")
    state = new_tab(back(state), "http://b/")
    state = store_cookies(state, "a", ["sid=1", "theme=dark"])
    return store_cookies(state, "b.example", ['q="quoted value"'])


def test_the_plain_round_trip():
    state = rich_state()
    plain = state.to_plain()
    assert "engine" not in plain  # the default engine is not written
    assert plain["cookies"] == {"a": {"sid": "1", "theme": "dark"}, "b.example": {"q": '"quoted value"'}}
    assert plain["tabs"][0] == {"id": 0, "index": 1, "history": [
        {"url": "about:blank", "title": "New Tab", "status": 0},
        {"url": "http://a/1", "title": "1", "status": 200},
        {"url": "http://a/2", "title": "2", "status": 200},
    ]}
    assert BrowserState.from_plain(plain) == state
    custom = new_browser("http://search.internal/?q=%s")
    assert custom.to_plain()["engine"] == "http://search.internal/?q=%s"
    assert BrowserState.from_plain(custom.to_plain()) == custom


def test_an_older_snapshot_without_engine_or_cookies_loads():
    state = BrowserState.from_plain({"tabs": [{"id": 4, "history": [{"url": "about:blank"}]}], "active": 4, "next_tab": 5})
    assert state.engine == DEFAULT_ENGINE and state.cookies == ()
    assert state.current == Entry("about:blank", "", 0)


def _broken(path: list, value) -> dict:
    plain = rich_state().to_plain()
    target = plain
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return plain


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        (["tabs"], KeyError, "$"),
        (["tabs"], [], "$.tabs"),
        (["tabs", 0, "id"], "0", "$.tabs[0].id"),
        (["tabs", 0, "id"], True, "$.tabs[0].id"),
        (["tabs", 1, "id"], 0, "$.tabs[1].id"),
        (["tabs", 0, "id"], -1, "$.tabs[0].id"),
        (["tabs", 0, "index"], 3, "$.tabs[0].index"),
        (["tabs", 0, "index"], -1, "$.tabs[0].index"),
        (["tabs", 0, "history"], [], "$.tabs[0].history"),
        (["tabs", 0, "history", 1, "status"], 1000, "$.tabs[0].history[1].status"),
        (["tabs", 0, "history", 1, "url"], None, "$.tabs[0].history[1].url"),
        (["tabs", 0, "history", 1, "colour"], "red", "$.tabs[0].history[1]"),
        (["tabs", 0, "pinned"], True, "$.tabs[0]"),
        (["active"], 9, "$.active"),
        (["next_tab"], 1, "$.next_tab"),
        (["engine"], "https://google.com/search", "$.engine"),
        (["cookies", "A"], {"x": "1"}, "$.cookies['A']"),
        (["cookies", "a", "bad name"], "1", "$.cookies['a']['bad name']"),
        (["cookies", "a", "sid"], "1;2", "$.cookies['a']['sid']"),
        (["cookies", "a"], ["sid"], "$.cookies[...]"),
        (["extra"], 1, "$"),
    ],
)
def test_malformed_plain_data_is_refused_with_the_field_named(path, value, named):
    with pytest.raises(BrowserStateError) as caught:
        BrowserState.from_plain(_broken(path, value))
    assert caught.value.path == named
    assert str(caught.value).startswith(f"{named}: ")


@pytest.mark.parametrize("data", [None, [], "state", 3])
def test_plain_data_that_is_not_an_object(data):
    with pytest.raises(BrowserStateError) as caught:
        BrowserState.from_plain(data)
    assert caught.value.path == "$"
