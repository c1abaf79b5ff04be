"""The omnibox: reading a line typed into the address bar the way Chrome does.

:func:`interpret` turns what was typed into the one URL the browser fetches, and says whether
that URL is the page asked for (``kind="url"``) or a search for the text (``kind="search"``).
The rules are the ones spec/001 ("The omnibox") lists, applied in this order:

1. A leading ``?`` forces a search: ``?github.com`` searches for ``github.com``.
2. An explicit scheme is honoured as typed. ``http:`` and ``https:`` URLs are fetched as they
   stand; any other scheme (``file:``, ``javascript:``, ``ftp:``, ``data:``, ``chrome:``,
   ``about:`` …) is refused with :class:`OmniboxError`, never searched for, so a programmatic
   caller that passes a bad URL hears about it. A word before a colon counts as a scheme when
   it is a scheme browsers know (:data:`KNOWN_SCHEMES`) or is followed by ``//``; otherwise
   ``localhost:8080`` would be a scheme too, and ``re:invent`` an error rather than a search.
3. Host-shaped text becomes ``https://`` plus the text (a path, query or fragment after the
   host is kept). Host-shaped (:func:`host_shaped`) means: no whitespace anywhere, no user
   info (``alice@northwind.example`` is not), and the part before the first ``/``, ``?`` or
   ``#`` is a dotted name whose last label is shaped like a TLD (letters only, 2–63 of them:
   ``foo.bar`` is, ``3.14`` and ``v1.2`` are not), an IP literal (v4, or v6 in brackets), a
   name with an explicit port (``localhost:8080``), or a single label the world's DNS
   resolves (``intranet``).
4. Anything else is a search: the engine template with ``%s`` replaced by the text,
   urlencoded with :func:`urllib.parse.quote_plus`. The default template is
   :data:`DEFAULT_ENGINE`; a world's ``metadata.search_engine`` replaces it (the caller
   passes it in).
5. A host-shaped line whose name does not resolve is a search after all, so a mistyped
   query never lands on an error page. IP literals always resolve, and so does ``localhost``
   (and ``*.localhost``): browsers never ask DNS for it (RFC 6761), and spec/001 lists
   ``localhost:8080`` as a URL unconditionally. A name that resolves but refuses the
   connection is still a URL; the error page is the caller's.

The URL is written canonically: scheme and host lower-cased, a trailing dot dropped from the
host, the scheme's default port left out, ``/`` for an empty path, and characters a URL
cannot carry (whitespace, controls, ``"<>`` and backtick, anything outside ASCII)
percent-encoded as UTF-8. Host names are ASCII: a name with other letters (an IDN) is not
host-shaped and typed after ``https://`` it is refused.

Note on ``https``: spec/001 says host-shaped text becomes ``https://`` + text, and that is
followed literally. Most simulated services listen on plain http port 80, so
``intranet.internal`` becomes ``https://intranet.internal/`` (port 443), which only answers
when the service has ``tls: true``; there is deliberately no fallback to ``http://`` here.
Type ``http://intranet.internal`` to reach a plain-http service.

Pure: no I/O, no clock; ``resolves`` is the only view of the world, asked only about names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Literal
from urllib.parse import quote, quote_plus

import msgspec

from cwgym.net.network import is_address

__all__ = [
    "DEFAULT_ENGINE",
    "KNOWN_SCHEMES",
    "Interpretation",
    "OmniboxError",
    "check_engine",
    "host_shaped",
    "interpret",
]

#: The search engine a browser uses when its world names none; ``%s`` is the query.
DEFAULT_ENGINE = "https://google.com/search?q=%s"

#: Schemes other than http(s) that a browser recognises without ``//`` (``mailto:x``,
#: ``about:blank``): typed, they are refused rather than searched for.
KNOWN_SCHEMES = frozenset({
    "about", "blob", "chrome", "chrome-extension", "chrome-search", "chrome-untrusted", "content",
    "data", "devtools", "edge", "feed", "file", "filesystem", "ftp", "ftps", "git", "gopher",
    "intent", "irc", "ircs", "javascript", "magnet", "mailto", "news", "nntp", "sftp", "sms",
    "ssh", "tel", "vbscript", "view-source", "ws", "wss",
})

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(.*)", re.S)
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_TLD = re.compile(r"[a-z]{2,63}")
_PORT = re.compile(r"[0-9]{1,5}")
_IPV4 = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
#: What stays as typed in a path, query or fragment: printable ASCII but space, ``"<>`` and
#: backtick (``%`` too, so an escape already typed is not escaped again).
_SAFE = "!#$%&'()*+,-./:;=?@[\\]^_{|}~"


class OmniboxError(ValueError):
    """Typed text that names something the browser will not open (``file:``, a URL with no
    host, nothing at all); ``reason`` says what, in words an agent can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Interpretation(msgspec.Struct, frozen=True):
    """What a typed line means: the URL to fetch, and whether it is a ``search``."""

    url: str
    kind: Literal["url", "search"]


class _Target(msgspec.Struct, frozen=True):
    host: str  # lower-case; IPv6 in brackets
    port: int | None
    rest: str  # the path, query and fragment as typed ("" or starting with / ? #)
    address: bool  # an IP literal


def check_engine(template: str) -> str:
    """``template`` if it is a usable search engine: an http(s) URL holding ``%s``.

    Raises:
        ValueError: it is not (a world's ``metadata.search_engine`` should be checked early).
    """
    if type(template) is str:  # every page load asks about the same few templates
        return _checked_engine(template)
    return _check_engine(template)


@lru_cache(maxsize=64)
def _checked_engine(template: str) -> str:
    return _check_engine(template)


def _check_engine(template: str) -> str:
    if not isinstance(template, str) or "%s" not in template:
        raise ValueError(f"a search engine template must hold %s for the query, not {template!r}")
    if not re.match(r"https?://[^/?#\s]", template, re.I):
        raise ValueError(f"a search engine template must be an http(s) URL, not {template!r}")
    return template


def interpret(text: str, resolves: Callable[[str], bool], engine: str = DEFAULT_ENGINE) -> Interpretation:
    """The URL a line typed into the omnibox opens (see the module docstring for the rules).

    Args:
        text: the line as typed; surrounding whitespace is ignored.
        resolves: whether the world's DNS answers a name (lower-case, no trailing dot) for
            this browser's machine. Asked only about names, never about IP literals.
        engine: the search template, ``%s`` standing for the urlencoded query.

    Raises:
        OmniboxError: the line is empty, or has a scheme other than http(s), or is an
            http(s) URL with no usable host or port.
        ValueError: ``engine`` is not a usable template (:func:`check_engine`).
    """
    check_engine(engine)
    text = text.strip()
    if text.startswith("?"):
        return _search(text[1:].strip(), engine)
    if not text:
        raise OmniboxError("nothing was typed")
    scheme = _SCHEME.fullmatch(text)
    if scheme is not None:
        name, after = scheme[1].lower(), scheme[2]
        if name in ("http", "https"):
            return Interpretation(_explicit(name, after), "url")
        if after.startswith("//") or name in KNOWN_SCHEMES:
            raise OmniboxError(f"{name}: URLs are not opened here; only http:// and https:// are")
    target = _shape(text)
    if target is None:
        return _search(text, engine)
    if not (target.address or _always_resolves(target.host) or resolves(target.host)):
        return _search(text, engine)
    return Interpretation(_compose("https", target.host, target.port, target.rest), "url")


def host_shaped(text: str) -> str | None:
    """The host of ``text`` if it is host-shaped by rule 3 (before DNS is asked), else ``None``.

    A single label with no port (``intranet``) counts here, since only DNS can say whether
    it is a name; :func:`interpret` then asks ``resolves`` about it as about any name.
    """
    target = _shape(text.strip())
    return None if target is None else target.host


def _always_resolves(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")


def _search(query: str, engine: str) -> Interpretation:
    if not query:
        raise OmniboxError("nothing was typed to search for")
    return Interpretation(engine.replace("%s", quote_plus(query, errors="surrogatepass")), "search")


def _split(text: str) -> tuple[str, str]:
    """``(authority, rest)``: the text before the first ``/``, ``?`` or ``#``, and the rest."""
    cut = min((i for i in (text.find(c) for c in "/?#") if i >= 0), default=len(text))
    return text[:cut], text[cut:]


def _host_port(authority: str) -> tuple[str, str | None]:
    """``(host, port)`` of ``host[:port]`` or ``[v6][:port]`` (``port`` ``None`` when absent)."""
    if authority.startswith("["):
        close = authority.find("]")
        if close < 0:
            return authority, None
        host, tail = authority[: close + 1], authority[close + 1 :]
        if not tail:
            return host, None
        return (host, tail[1:]) if tail.startswith(":") else (authority, None)
    host, colon, port = authority.partition(":")
    return host, (port if colon else None)


def _port(text: str | None) -> int | bool | None:
    """The port number, ``None`` when absent, ``False`` when not a port (``0``, ``x``, ``99999``)."""
    if text is None:
        return None
    if not _PORT.fullmatch(text) or not 1 <= int(text) <= 65535:
        return False
    return int(text)


def _host(text: str) -> tuple[str, bool] | None:
    """``(host, is_address)`` for a syntactically valid host (any labels), else ``None``."""
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1]
        if ":" in inner and "%" not in inner and is_address(inner):
            return text.lower(), True
        return None
    host = text.lower()
    if host.endswith("."):
        host = host[:-1]
    if not host or len(host) > 253:
        return None
    if _IPV4.fullmatch(host):
        return (host, True) if is_address(host) else None
    if not all(_LABEL.fullmatch(label) for label in host.split(".")):
        return None
    return host, False


def _shape(text: str) -> _Target | None:
    """Rule 3: the target of host-shaped ``text``, else ``None``."""
    if not text or any(c.isspace() for c in text):
        return None
    authority, rest = _split(text)
    if "@" in authority:
        return None
    host_text, port_text = _host_port(authority)
    port = _port(port_text)
    found = _host(host_text)
    if port is False or found is None:
        return None
    host, address = found
    labels = host.split(".")
    if not address and port is None and len(labels) > 1 and not _TLD.fullmatch(labels[-1]):
        return None  # 3.14, v1.2: a dotted name needs a TLD-shaped last label (or a port)
    return _Target(host, port, rest, address)


@lru_cache(maxsize=1024)
def _explicit(scheme: str, after: str) -> str:
    """Rule 2: the canonical form of an http(s) URL typed with its scheme.

    Slashes after the colon are taken in any number (``https:github.com``, ``http:///x``),
    as Chrome's fix-up does; the host then must be present and well formed. A pure function
    of the text, memoised (bounded): an env's every reset opens the same page.
    """
    authority, rest = _split(after.lstrip("/"))
    if not authority:
        raise OmniboxError(f"the {scheme} URL names no host")
    if "@" in authority:
        raise OmniboxError("URLs with a user name or password in them are not opened here")
    host_text, port_text = _host_port(authority)
    port = _port(port_text)
    if port is False:
        raise OmniboxError(f"{port_text!r} is not a port number (1-65535)")
    found = _host(host_text)
    if found is None:
        raise OmniboxError(f"{host_text!r} is not a host name or IP address")
    return _compose(scheme, found[0], port, rest)


def _compose(scheme: str, host: str, port: int | None, rest: str) -> str:
    default = 443 if scheme == "https" else 80
    authority = host if port is None or port == default else f"{host}:{port}"
    before, hash_, fragment = rest.partition("#")
    if not before.startswith("/"):
        before = "/" + before
    url = f"{scheme}://{authority}{_escape(before)}"
    return f"{url}#{_escape(fragment)}" if hash_ else url


def _escape(text: str) -> str:
    return quote(text, safe=_SAFE, errors="surrogatepass")
