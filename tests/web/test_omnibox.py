"""The omnibox reads a typed line as spec/001 says Chrome does: every example the spec gives,
the order of the rules, the engine template, and a property that no line makes it raise
anything but :class:`OmniboxError` or yield anything but an http(s) URL."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym.net.http import parse_url
from cwgym.web.omnibox import (
    DEFAULT_ENGINE,
    Interpretation,
    OmniboxError,
    check_engine,
    host_shaped,
    interpret,
)

#: The names this test world's DNS answers.
NAMES = {"github.com", "intranet.internal", "mail.google.com", "foo.bar", "northwind.example"}


def world_dns(name: str) -> bool:
    return name in NAMES


def url(text: str, resolves=world_dns, engine: str = DEFAULT_ENGINE) -> str:
    found = interpret(text, resolves, engine)
    assert found.kind == "url", found
    return found.url


def search(text: str, resolves=world_dns, engine: str = DEFAULT_ENGINE) -> str:
    found = interpret(text, resolves, engine)
    assert found.kind == "search", found
    return found.url


# -- spec/001, verbatim ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("github.com", "https://github.com/"),
        ("github.com/northstar/atlas", "https://github.com/northstar/atlas"),
        ("intranet.internal", "https://intranet.internal/"),
        ("10.0.1.10", "https://10.0.1.10/"),
        ("localhost:8080", "https://localhost:8080/"),
        ("mail.google.com/threads/3", "https://mail.google.com/threads/3"),
    ],
)
def test_host_shaped_text_becomes_https_plus_the_text(typed, expected):
    assert interpret(typed, world_dns, DEFAULT_ENGINE) == Interpretation(expected, "url")


def test_a_leading_question_mark_forces_a_search():
    assert interpret("?github.com", world_dns, DEFAULT_ENGINE) == Interpretation("https://google.com/search?q=github.com", "search")
    assert search("? intranet.internal") == "https://google.com/search?q=intranet.internal"


def test_an_explicit_https_url_is_fetched_as_it_stands():
    assert url("https://github.com/northstar/atlas") == "https://github.com/northstar/atlas"
    assert url("http://intranet.internal/wiki?page=Home") == "http://intranet.internal/wiki?page=Home"


def test_file_url_is_refused_not_searched():
    with pytest.raises(OmniboxError) as caught:
        interpret("file:///etc/passwd", world_dns, DEFAULT_ENGINE)
    assert "file:" in caught.value.reason


@pytest.mark.parametrize("typed", ["javascript:alert(1)", "ftp://ftp.example.com/x", "data:text/html,<b>hi</b>",
                                   "chrome://settings", "about:blank", "mailto:alice@northwind.example",
                                   "gopher://x/", "FILE:///etc/shadow"])
def test_other_schemes_are_refused(typed):
    with pytest.raises(OmniboxError):
        interpret(typed, world_dns, DEFAULT_ENGINE)


def test_foo_bar_is_host_shaped():
    assert host_shaped("foo.bar") == "foo.bar"
    assert url("foo.bar") == "https://foo.bar/"


@pytest.mark.parametrize(
    ("typed", "query"),
    [("foo bar", "foo+bar"), ("3.14", "3.14"), ("v1.2", "v1.2"), ("alice@northwind.example", "alice%40northwind.example")],
)
def test_text_that_is_not_host_shaped_is_a_search(typed, query):
    assert host_shaped(typed) is None
    assert search(typed) == f"https://google.com/search?q={query}"


def test_a_single_label_is_a_host_when_the_worlds_dns_resolves_it():
    asked = []

    def dns(name):
        asked.append(name)
        return name == "intranet"

    assert url("intranet", dns) == "https://intranet/"
    assert url("intranet/wiki", dns) == "https://intranet/wiki"
    assert asked == ["intranet", "intranet"]
    assert search("intranet", lambda name: False) == "https://google.com/search?q=intranet"


def test_a_host_shaped_line_that_does_not_resolve_is_a_search_after_all():
    assert host_shaped("githb.com/northstar") == "githb.com"
    assert search("githb.com/northstar") == "https://google.com/search?q=githb.com%2Fnorthstar"
    assert search("intranet.internal", lambda name: False) == "https://google.com/search?q=intranet.internal"


def test_ip_literals_and_localhost_always_resolve():
    nobody = lambda name: False  # noqa: E731
    assert url("10.0.1.10", nobody) == "https://10.0.1.10/"
    assert url("[::1]:8080/x", nobody) == "https://[::1]:8080/x"
    assert url("localhost:8080", nobody) == "https://localhost:8080/"
    assert url("localhost", nobody) == "https://localhost/"


def test_dns_is_asked_only_about_names():
    def dns(name):
        raise AssertionError(f"asked about {name}")

    url("10.0.1.10", dns)
    search("3.14", dns)
    search("foo bar", dns)
    search("?github.com", dns)


def test_a_custom_engine_template():
    engine = "http://search.internal/find?q=%s&lang=en"
    assert search("foo bar & baz", engine=engine) == "http://search.internal/find?q=foo+bar+%26+baz&lang=en"
    assert search("?github.com", engine=engine) == "http://search.internal/find?q=github.com&lang=en"
    assert url("github.com", engine=engine) == "https://github.com/"


@pytest.mark.parametrize("engine", ["https://google.com/search", "ftp://x/?q=%s", "%s", ""])
def test_an_unusable_engine_is_refused(engine):
    with pytest.raises(ValueError):
        check_engine(engine)
    with pytest.raises(ValueError):
        interpret("foo", world_dns, engine)


# -- the finer points ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("  github.com  ", "https://github.com/"),
        ("GitHub.COM/NorthStar", "https://github.com/NorthStar"),
        ("github.com.", "https://github.com/"),
        ("github.com:443/x", "https://github.com/x"),
        ("github.com:8443", "https://github.com:8443/"),
        ("github.com?tab=repos", "https://github.com/?tab=repos"),
        ("github.com#readme", "https://github.com/#readme"),
        ("github.com/@alice", "https://github.com/@alice"),
        ("HTTPS://GitHub.com", "https://github.com/"),
        ("https://github.com:443/a b", "https://github.com/a%20b"),
        ("http://github.com:80/", "http://github.com/"),
        ("https:github.com", "https://github.com/"),
        ("https://3.14/", "https://3.14/"),
        ("https://nowhere.example/", "https://nowhere.example/"),
        ("https://de.wikipedia.org/wiki/Köln", "https://de.wikipedia.org/wiki/K%C3%B6ln"),
    ],
)
def test_urls_are_written_canonically(typed, expected):
    assert url(typed) == expected


@pytest.mark.parametrize("typed", ["https://", "http:///", "https://alice@github.com/", "https://github.com:0/",
                                   "https://github.com:99999/", "https://git hub.com/", "http://bücher.de/",
                                   "https://[::1/", "https://999.1.1.1/", "", "   ", "?", "?  "])
def test_malformed_urls_and_empty_lines_are_refused(typed):
    with pytest.raises(OmniboxError):
        interpret(typed, world_dns, DEFAULT_ENGINE)


@pytest.mark.parametrize("typed", ["re:invent", "note:milk", "github.com:http", "localhost:", "foo.bar:0",
                                   "what is c++: a language", "1.2.3", "999.1.1.1", "::1", "bücher.de",
                                   "-foo.com", "foo..com", "foo.c", "foo.c0m"])
def test_lines_that_look_almost_like_hosts_are_searches(typed):
    assert interpret(typed, lambda name: True, DEFAULT_ENGINE).kind == "search"


# -- property ---------------------------------------------------------------------------------------

#: text made of the pieces the rules look at, and of any character (a lone surrogate included)
pieces = st.lists(
    st.sampled_from([*"abcxyz019.:/?#@[]% \t-_", "http", "https", "://", "file", "com", "localhost", "::1", "\ud800", "é"])
    | st.characters(exclude_categories=()),
    max_size=20,
).map("".join)
#: lines shaped like addresses: an optional scheme, a host, an optional port, an optional rest
addresses = st.builds(
    lambda scheme, host, port, rest: f"{scheme}{host}{port}{rest}",
    st.sampled_from(["", "", "http://", "https://", "HTTPS:", "file://", "?", "ftp:"]),
    st.sampled_from(["github.com", "intranet", "10.0.1.10", "[::1]", "3.14", "foo.bar.", "a_b.example", "-x.com",
                     "localhost", "alice@northwind.example", "999.1.1.1", "[::1", "", "ex ample.com"]),
    st.sampled_from(["", ":8080", ":0", ":443", ":x", ":"]),
    st.sampled_from(["", "/", "/a/b", "/a b", "?q=1", "#top", "/é\ud800"]) | pieces.map("/".__add__),
)
typed_text = st.one_of(addresses, pieces, addresses)  # addresses twice as often


@settings(derandomize=True, max_examples=300, deadline=None)
@given(text=typed_text, answer=st.booleans())
def test_interpret_never_raises_but_omnibox_error_and_always_yields_http(text, answer):
    try:
        found = interpret(text, lambda name: answer, DEFAULT_ENGINE)
    except OmniboxError as exc:
        assert exc.reason
        return
    assert found.url.startswith(("http://", "https://"))
    assert not any(c.isspace() for c in found.url)
    assert found.url.isascii()
    if found.kind == "search":
        assert found.url.startswith("https://google.com/search?q=")
    elif "[" not in found.url:  # the network's URL parser reads every non-IPv6 URL we write
        parse_url(found.url.partition("#")[0])
