"""``curl``: transfer a URL over the world's network, with curl's options, output and exit codes.

Options: ``-s`` (silent), ``-S`` (show errors even when silent), ``-f`` (fail on an HTTP
error: exit 22, no body), ``-i`` (include the response headers), ``-I`` (``HEAD``, headers
only), ``-o FILE`` / ``-O`` (write the body to FILE / to the URL's last path segment),
``-L`` (follow redirects, at most ``--max-redirs`` of them, 50 by default), ``-X METHOD``,
``-d DATA`` / ``--data-raw DATA`` / ``--data-binary DATA`` (a ``POST`` body; ``-d @file``
reads a file without its newlines, ``--data-binary @file`` as it is), ``-T FILE`` (``PUT``
the file; a URL ending in ``/`` gets the file's name), ``-u USER:PASSWORD`` (Basic
credentials), ``-b 'name=value; ...'`` or ``-b FILE`` (cookies to send; a file is a
Netscape cookie jar) and ``-c FILE`` (the cookie engine: cookies a response sets are sent
on later redirects and written to FILE),
``-H 'Name: value'``, ``-A AGENT``, ``-w FORMAT`` (``%{http_code}``, ``%{url_effective}``,
``%{size_download}``, ``\\n``) and ``-m SECONDS`` (a limit on the logical clock).

Exit codes are curl's: 1 unsupported protocol, 3 malformed URL, 6 unresolved host,
7 could not connect (refused, no route, denied by the gateway), 22 HTTP error with ``-f``,
23 cannot write the output file, 28 timed out (the request was lost, or ``-m`` passed),
47 too many redirects. The request travels from this machine's node through the world's
DNS, gateway and links (:mod:`cwgym.net`); a machine outside a world has no network
(exit 7).
"""

from __future__ import annotations

import base64
import contextlib
import re

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import NetFailure

USER_AGENT = "curl/7.88.1"
DEFAULT_MAX_REDIRS = 50
#: The reason phrases of the status line ``-i`` prints (the services send the standard ones).
_REASONS = {200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
            304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
            401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
            422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
            501: "Not Implemented", 503: "Service Unavailable", 507: "Insufficient Storage"}

SPEC = OptionSpec(
    short="sSfiIo:OLX:d:H:A:w:m:u:b:c:T:",
    long={
        "silent": "s", "show-error": "S", "fail": "f", "include": "i", "head": "I", "output=": "o",
        "remote-name": "O", "location": "L", "request=": "X", "data=": "d", "data-raw=": "data-raw",
        "data-binary=": "data-binary", "header=": "H", "user-agent=": "A", "write-out=": "w", "max-time=": "m",
        "max-redirs=": "max-redirs", "user=": "u", "cookie=": "b", "cookie-jar=": "c", "upload-file=": "T",
    },
)


class _Failed(Exception):
    def __init__(self, code: int, message: str) -> None:
        self.code = code
        self.message = message


def _failure(exc: NetFailure, host: str, port: int, elapsed_ms: int) -> _Failed:
    if exc.code == "unresolved":
        return _Failed(6, f"Could not resolve host: {host}")
    if exc.code == "malformed_url":
        return _Failed(3, "URL rejected: Malformed input to a URL function")
    if exc.code == "unsupported_scheme":
        return _Failed(1, f"Protocol \"{exc.detail.split(':')[0]}\" not supported")
    if exc.code == "lost":
        return _Failed(28, f"Failed to connect to {host} port {port} after {elapsed_ms} ms: Connection timed out")
    if exc.code == "refused":
        return _Failed(7, f"Failed to connect to {host} port {port} after {elapsed_ms} ms: Connection refused")
    return _Failed(7, f"Failed to connect to {host} port {port} after {elapsed_ms} ms: Network is unreachable")


def _host_port(url: str) -> tuple[str, int]:
    match = re.match(r"(?i)(https?)://([^/:?#]+)(?::(\d+))?", url)
    if match is None:
        return url, 80
    return match[2].lower(), int(match[3]) if match[3] else (443 if match[1].lower() == "https" else 80)


def _absolute(location: str, url: str) -> str:
    if re.match(r"(?i)[a-z][a-z0-9+.-]*://", location):
        return location
    base = re.match(r"(?i)([a-z][a-z0-9+.-]*://[^/?#]+)", url)
    root = base[1] if base else url
    if location.startswith("/"):
        return root + location
    folder = url[: url.rfind("/") + 1] if url.count("/") > 2 else root + "/"
    return folder + location


def _write_out(fmt: str, status: int, url: str, size: int) -> str:
    text = fmt.replace("\\n", "\n").replace("\\t", "\t")
    values = {"http_code": f"{status:03d}", "response_code": f"{status:03d}", "url_effective": url, "size_download": str(size)}
    return re.sub(r"%\{(\w+)\}", lambda m: values.get(m[1], ""), text)


@command("curl", package="curl")
def curl(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, usage_status=2)
    flags = {k for k, _ in opts if k in "sSfiIOL"}
    values: dict[str, str] = {}
    headers: list[tuple[str, str]] = []
    data: list[str] = []
    for key, value in opts:
        if key == "H":
            name, sep, rest = (value or "").partition(":")
            if not sep or not name.strip():
                ctx.error("(43) A header is 'Name: value'")
                return 43
            headers.append((name.strip(), rest.strip()))
        elif key in ("d", "data-raw", "data-binary"):
            text = value or ""
            if key != "data-raw" and text.startswith("@"):
                try:
                    text = ctx.fs.read(text[1:], ctx.cwd).decode("utf-8", "surrogateescape")
                except FsError:
                    ctx.error(f"Warning: Couldn't read data from file \"{text[1:]}\", this makes an empty POST.")
                    text = ""
                if key == "d":  # -d @file drops newlines; --data-binary keeps the file as it is
                    text = text.replace("\n", "").replace("\r", "")
            data.append(text)
        elif value is not None:
            values[key] = value
    show = "S" in flags or "s" not in flags  # -s silences errors unless -S
    if not operands:
        ctx.error("(2) no URL specified")
        ctx.err("curl: try 'curl --help' or 'curl --manual' for more information\n")
        return 2
    try:
        max_redirs = int(values.get("max-redirs", DEFAULT_MAX_REDIRS))
        limit_us = round(float(values["m"]) * 1_000_000) if "m" in values else None
    except ValueError:
        ctx.error("(2) option: expected a proper numerical parameter")
        return 2
    upload = None
    if "T" in values:
        try:
            upload = ctx.fs.read(values["T"], ctx.cwd)
        except FsError as exc:
            ctx.error(f"(26) Failed to open/read local data from file/application ({exc.strerror_text})")
            return 26
        operands = [u + values["T"].rsplit("/", 1)[-1] if u.endswith("/") else u for u in operands]
    method = values.get("X") or ("HEAD" if "I" in flags else "PUT" if upload is not None else "POST" if data else "GET")
    body = upload if upload is not None else "&".join(data).encode("utf-8", "surrogateescape")
    if data and upload is None and not any(k.lower() == "content-type" for k, _ in headers):
        headers.append(("Content-Type", "application/x-www-form-urlencoded"))
    if "u" in values:
        if ":" not in values["u"]:
            ctx.error("(2) -u needs USER:PASSWORD (there is no terminal to ask for a password)")
            return 2
        token = base64.b64encode(values["u"].encode("utf-8")).decode("ascii")
        headers.append(("Authorization", f"Basic {token}"))
    jar: dict[str, tuple[str, str]] | None = None  # the cookie engine: name -> (value, domain)
    if "b" in values or "c" in values:
        given = values.get("b", "")
        jar = {name: (value, "") for name, value in _cookie_pairs(given).items()} if "=" in given else {}
        if given and "=" not in given:
            with contextlib.suppress(FsError):  # curl reads a missing cookie file as an empty one
                jar = _read_jar(ctx.fs.read(given, ctx.cwd).decode("utf-8", "replace"))
    if not any(k.lower() == "user-agent" for k, _ in headers):
        headers.append(("User-Agent", values.get("A", USER_AGENT)))
    headers.append(("Accept", "*/*"))
    status_code = 0
    for url in operands:
        try:
            status_code = _transfer(ctx, url, method, headers, body, flags, values, max_redirs, limit_us, jar) or status_code
        except _Failed as failed:
            if show:
                ctx.error(f"({failed.code}) {failed.message}")
            status_code = failed.code
    if "c" in values and jar is not None:
        text = "# Netscape HTTP Cookie File\n# This file was generated by curl on a cwgym machine.\n\n"
        text += "".join(f"{domain}\tFALSE\t/\tFALSE\t0\t{name}\t{value}\n" for name, (value, domain) in sorted(jar.items()))
        try:
            ctx.fs.write(values["c"], ctx.cwd, text.encode("utf-8"))
        except FsError as exc:
            ctx.error(f"(23) Failed to save cookies in {values['c']} ({exc.strerror_text})")
            return 23
    return status_code


def _cookie_pairs(text: str) -> dict[str, str]:
    pairs = {}
    for part in text.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep and name:
            pairs[name] = value
    return pairs


def _read_jar(text: str) -> dict[str, tuple[str, str]]:
    """Cookies of a Netscape cookie file (``-b FILE``): name -> (value, domain). Every
    cookie is sent to every host (the jar does not tell domains apart)."""
    cookies = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) == 7 and not line.startswith("#"):
            cookies[fields[5]] = (fields[6], fields[0])
    return cookies


def _transfer(ctx: CommandContext, url: str, method: str, headers: list[tuple[str, str]], body: bytes,
              flags: set[str], values: dict[str, str], max_redirs: int, limit_us: int | None,
              jar: dict[str, tuple[str, str]] | None) -> int:
    net = ctx.machine.net
    start = ctx.machine.clock.now_us
    redirects = 0
    if "://" not in url:
        url = "http://" + url
    while True:
        host, port = _host_port(url)
        if net is None:
            raise _Failed(7, f"Failed to connect to {host} port {port} after 0 ms: Network is unreachable")
        try:
            sent = list(headers)
            if jar:
                sent.append(("Cookie", "; ".join(f"{name}={value}" for name, (value, _) in jar.items())))
            status, reply_headers, payload = net.request(method, url, sent, body)
        except NetFailure as exc:
            raise _failure(exc, host, port, (ctx.machine.clock.now_us - start) // 1000) from None
        if jar is not None:
            for name, value in reply_headers:
                if name.lower() == "set-cookie":
                    cname, _, rest = value.partition("=")
                    cvalue = rest.split(";", 1)[0]
                    if "max-age=0" in value.lower().replace(" ", ""):
                        jar.pop(cname.strip(), None)
                    else:
                        jar[cname.strip()] = (cvalue, host)
        if limit_us is not None and ctx.machine.clock.now_us - start > limit_us:
            raise _Failed(28, f"Operation timed out after {(ctx.machine.clock.now_us - start) // 1000} milliseconds")
        location = next((v for k, v in reply_headers if k.lower() == "location"), None)
        if "L" in flags and location and 300 <= status < 400:
            if "i" in flags:
                ctx.out(_head(status, reply_headers))
            redirects += 1
            if redirects > max_redirs:
                raise _Failed(47, f"Maximum ({max_redirs}) redirects followed")
            url = _absolute(location, url)
            if status in (301, 302, 303) and method == "POST":
                method, body = "GET", b""
            continue
        break
    if "f" in flags and status >= 400:
        raise _Failed(22, f"The requested URL returned error: {status}")
    out = bytearray()
    if "i" in flags or "I" in flags:
        out += _head(status, reply_headers).encode("utf-8")
    if "I" not in flags:
        out += payload
    target = values.get("o") or (url.rstrip("/").rsplit("/", 1)[-1] if "O" in flags else None)
    if target:
        try:
            ctx.fs.write(target, ctx.cwd, bytes(out))
        except FsError as exc:
            raise _Failed(23, f"Failure writing output to destination ({exc.strerror_text})") from None
    else:
        ctx.out(bytes(out))
    if "w" in values:
        ctx.out(_write_out(values["w"], status, url, len(payload)))
    return 0


def _head(status: int, headers: list[tuple[str, str]]) -> str:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, '')}".rstrip()] + [f"{k}: {v}" for k, v in headers]
    return "\r\n".join(lines) + "\r\n\r\n"

