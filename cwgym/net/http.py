"""HTTP messages as plain values: URLs, headers, requests, responses, and network failures.

Bodies are bytes; header names compare without regard to case; a response to a request
that did not reach a server is a :class:`NetError` with one of :data:`FAILURES`, which the
``http.v1`` family reports as ``action_failed`` and ``curl`` as its exit code.
"""

from __future__ import annotations

import re
from functools import lru_cache

import msgspec

__all__ = ["FAILURES", "METHODS", "Headers", "NetError", "Request", "Response", "Url", "parse_url", "reason_phrase"]

#: Why a request got no response: the closed set of failure codes.
FAILURES = {
    "malformed_url": "the URL is not http://host[:port]/path",
    "unsupported_scheme": "only http and https are spoken",
    "unresolved": "no DNS record answers this name for this machine",
    "egress_denied": "the gateway's policy does not allow this destination",
    "unreachable": "no route leads from this machine to the destination",
    "refused": "nothing listens on that port",
    "lost": "the request was lost on a link",
    "too_many_redirects": "more redirects than allowed",
}

#: The methods a request may carry.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

_URL = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<host>[^/:?#\s]+)(?::(?P<port>\d{1,5}))?(?P<path>[^#\s]*)")


class NetError(Exception):
    """A request that got no response: ``code`` is one of :data:`FAILURES`."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class Url(msgspec.Struct, frozen=True):
    scheme: str
    host: str
    port: int
    path: str  # with the query, never empty ("/" at least)

    def __str__(self) -> str:
        default = 443 if self.scheme == "https" else 80
        port = "" if self.port == default else f":{self.port}"
        return f"{self.scheme}://{self.host}{port}{self.path}"


def parse_url(text: str, base: Url | None = None) -> Url:
    """``text`` as a :class:`Url`; a path alone (``/next``) is taken relative to ``base``.

    Raises:
        NetError: ``malformed_url`` or ``unsupported_scheme``.
    """
    if base is not None and text.startswith("/"):
        return Url(base.scheme, base.host, base.port, text)
    if not isinstance(text, str):
        raise NetError("malformed_url", f"{text!r} is not a URL of the form http://host/path")
    text = str(text)
    return _parse_absolute(text) if len(text) <= 2048 else _parse_absolute.__wrapped__(text)


@lru_cache(maxsize=1024)
def _parse_absolute(text: str) -> Url:
    """:func:`parse_url` of an absolute URL, remembered (a Url is frozen, and an agent asks
    for the same few pages over and over); a failure raises and is not remembered."""
    match = _URL.fullmatch(text.strip())
    if match is None:
        raise NetError("malformed_url", f"{text!r} is not a URL of the form http://host/path")
    scheme = match["scheme"].lower()
    if scheme not in ("http", "https"):
        raise NetError("unsupported_scheme", f"{scheme}:// is not spoken here")
    port = int(match["port"]) if match["port"] else (443 if scheme == "https" else 80)
    if not 1 <= port <= 65535:
        raise NetError("malformed_url", f"port {port} is out of range")
    path = match["path"] or "/"
    if path.startswith("?"):  # http://host?q=1 asks for /?q=1
        path = "/" + path
    return Url(scheme, match["host"].lower().rstrip("."), port, path)


class Headers(msgspec.Struct, frozen=True):
    """Header lines in order; :meth:`get` compares names without regard to case."""

    items: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, value: dict[str, str] | list | tuple | None) -> Headers:
        if value is None:
            return cls()
        pairs = value.items() if isinstance(value, dict) else value
        return cls(tuple((str(k), str(v)) for k, v in pairs))

    def get(self, name: str, default: str | None = None) -> str | None:
        lower = name.lower()
        for k, v in self.items:
            if k.lower() == lower:
                return v
        return default

    def to_dict(self) -> dict[str, str]:
        """Lower-case names to values (a repeated name keeps its last value)."""
        return {k.lower(): v for k, v in self.items}


class Request(msgspec.Struct, frozen=True):
    method: str
    url: Url
    headers: Headers = Headers()
    body: bytes = b""


class Response(msgspec.Struct, frozen=True):
    status: int
    headers: Headers = Headers()
    body: bytes = b""

    @property
    def location(self) -> str | None:
        """Where a redirect points (3xx with a ``Location``), else ``None``."""
        return self.headers.get("location") if 300 <= self.status < 400 else None


_REASONS = {
    200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
    304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
    401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
    409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
    429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
    507: "Insufficient Storage",
}


def reason_phrase(status: int) -> str:
    """The standard phrase of ``status`` (``""`` for an unusual one)."""
    return _REASONS.get(status, "")
