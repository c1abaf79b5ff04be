"""``wget``: download URLs over the world's network, as GNU Wget 1.21.4 does on Ubuntu.

Options: ``-q``/``--quiet``, ``-v``/``--verbose``, ``-nv``/``--no-verbose``, ``-O FILE`` /
``--output-document=FILE`` (``-`` is stdout; the file is truncated before anything is
fetched and every URL goes into it), ``-S``/``--server-response`` (the response head,
indented two spaces, on stderr even with ``-q``), ``--spider`` (``HEAD`` only, report
whether the file exists), ``-t N``/``--tries=N`` (20 by default), ``-T S``/``--timeout=S``
and ``--connect-timeout=S``, ``-P DIR``/``--directory-prefix=DIR``, ``-U``/``--user-agent``,
``--header='Name: value'``, ``-nc``/``--no-clobber``, ``--max-redirect=N`` (20 by default),
``-4``, ``-h``/``--help`` and ``-V``/``--version``; ``-nd``, ``-nH`` and ``-np`` only matter
for recursion and are accepted without effect. Wget's other options (recursion, cookies,
POST, ``-c``, ...) exit 2 naming the option, and so does ``-t 0`` (retry forever).

Without ``-O`` the file is named after the last path segment of the URL given (not of a
redirect's target), ``index.html`` for a path ending in ``/``; when that name is taken
wget writes ``name.1``, ``name.2``... Redirects are followed, each a new request. The log
goes to stderr as wget writes it when stderr is not a terminal: ``--time--  URL``,
``Resolving``, ``Connecting``/``Reusing existing connection``, ``HTTP request sent``,
``Length``, ``Saving to``, the dot progress, and the ``saved`` line. Every time and rate in
it is the logical clock's: the timestamps are the world's wall time, the transfer time is
the time the exchange took. A connection attempt whose request a link loses is retried as
TCP retransmits a SYN (1, 3, 7, 15, 31 and 63 s after the first), up to the connect
timeout (``-T``, else Linux's 127 s); then wget says ``Connection timed out``, waits 1, 2,
... up to 10 s and tries again, ``-t`` times in all. A machine outside a world resolves
only ``/etc/hosts`` and reaches only its loopback, where nothing listens.

Exit codes are wget's: 0 success, 1 generic (bad URL, no URL, ``-O`` file cannot be
opened), 2 bad option, 3 file I/O error, 4 network failure (unresolved, refused, no route,
timed out), 8 the server answered with an error (or too many redirects); with several URLs
the lowest non-zero one.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec, UsageError, parse
from cwgym.machine.commands._timefmt import Tm, strftime
from cwgym.machine.commands.ping import OFFLINE_DNS, OfflineNet, is_address, on_own_lan
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import NetFailure

VERSION = "1.21.4"
DEFAULT_TRIES = 20
WAITRETRY_S = 10
MAX_REDIRECT = 20
#: Linux (tcp_syn_retries = 6): a SYN and six retransmissions, then the connect fails.
SYN_SENDS_S = (0, 1, 3, 7, 15, 31, 63)
SYN_TIMEOUT_US = 127_000_000
#: A response body longer than this is not read past on a kept-alive connection.
SKIP_THRESHOLD = 4096
REDIRECTS = (301, 302, 303, 307, 308)
UNKNOWN = 9  # wget's WGET_EXIT_UNKNOWN: ranks last, reported as 1
USAGE = "Usage: wget [OPTION]... [URL]...\n"
HINT = "\nTry `wget --help' for more options.\n"
REASONS = {
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
    205: "Reset Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
    303: "See Other", 304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
    405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
    411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long",
    415: "Unsupported Media Type", 416: "Range Not Satisfiable", 418: "I'm a teapot", 429: "Too Many Requests",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
    504: "Gateway Timeout", 505: "HTTP Version Not Supported",
}

SPEC = OptionSpec(
    short="hVqvn:O:St:T:P:U:4",
    long={
        "help": "h", "version": "V", "quiet": "q", "verbose": "v", "no-verbose": "nv", "output-document=": "O",
        "server-response": "S", "spider": "spider", "tries=": "t", "timeout=": "T", "connect-timeout=": "T",
        "directory-prefix=": "P", "user-agent=": "U", "header=": "header", "no-clobber": "nc",
        "max-redirect=": "max-redirect", "inet4-only": "4", "no-directories": "nd", "no-host-directories": "nH",
        "no-parent": "np",
    },
    unsupported=[f"-{c}" for c in "beoadiFBcNwQ6xrlkKEpmARDHLIX"] + [f"--{name}" for name in (
        "background", "execute", "output-file", "append-output", "debug", "input-file", "force-html", "base", "config",
        "no-config", "rejected-log", "continue", "start-pos", "progress", "show-progress", "timestamping",
        "no-if-modified-since", "no-use-server-timestamps", "dns-timeout", "read-timeout", "limit-rate", "wait",
        "waitretry", "random-wait", "no-proxy", "quota", "bind-address", "bind-dns-address", "dns-servers",
        "no-dns-cache", "restrict-file-names", "inet6-only", "prefer-family", "retry-connrefused",
        "retry-on-host-error", "retry-on-http-error", "user", "password", "ask-password", "use-askpass", "no-iri",
        "local-encoding", "remote-encoding", "unlink", "xattr", "force-directories", "protocol-directories",
        "cut-dirs", "default-page", "adjust-extension", "http-user", "http-password", "no-http-keep-alive",
        "no-cache", "load-cookies", "save-cookies", "keep-session-cookies", "no-cookies", "ignore-length",
        "compression", "proxy-user", "proxy-password", "referer", "save-headers", "post-data", "post-file", "method",
        "body-data", "body-file", "content-disposition", "content-on-error", "auth-no-challenge", "secure-protocol",
        "https-only", "no-check-certificate", "certificate", "certificate-type", "private-key", "private-key-type",
        "ca-certificate", "ca-directory", "crl-file", "pinnedpubkey", "random-file", "egd-file", "ciphers",
        "no-hsts", "hsts-file", "ftp-user", "ftp-password", "no-remove-listing", "no-glob", "no-passive-ftp",
        "preserve-permissions", "retr-symlinks", "warc-file", "warc-header", "warc-max-size", "warc-cdx",
        "warc-dedup", "no-warc-compression", "no-warc-digests", "no-warc-keep-log", "warc-tempdir", "recursive",
        "level", "delete-after", "convert-links", "convert-file-only", "backups", "backup-converted", "mirror",
        "page-requisites", "strict-comments", "accept", "reject", "accept-regex", "reject-regex", "regex-type",
        "domains", "exclude-domains", "follow-ftp", "follow-tags", "ignore-tags", "span-hosts", "relative",
        "include-directories", "trust-server-names", "exclude-directories", "report-speed", "ignore-case",
    )],
)


# -- options -------------------------------------------------------------------------------

class _Opts:
    """What one ``wget`` line asks for."""

    __slots__ = ("headers", "max_redirect", "no_clobber", "output", "prefix", "quiet", "server_response",
                 "spider", "timeout_us", "tries", "verbose")

    def __init__(self) -> None:
        self.quiet = False
        self.verbose: bool | None = None
        self.output: str | None = None
        self.server_response = False
        self.spider = False
        self.tries = DEFAULT_TRIES
        self.timeout_us = SYN_TIMEOUT_US
        self.prefix: str | None = None
        self.headers: list[tuple[str, str]] = [("User-Agent", f"Wget/{VERSION}")]
        self.no_clobber = False
        self.max_redirect = MAX_REDIRECT


def _usage_exit(ctx: CommandContext, message: str, status: int) -> Exit:
    ctx.err(f"wget: {message}\n{USAGE}{HINT}")
    return Exit(status)


def _bad_value(ctx: CommandContext, option: str, what: str, value: str) -> Exit:
    ctx.err(f"wget: --{option}: Invalid {what} ‘{value}’.\n")
    return Exit(2)


def _number(ctx: CommandContext, option: str, value: str) -> int:
    text = value.strip()
    if text.lower() == "inf":
        return 0
    if not re.fullmatch(r"\d+", text):
        raise _bad_value(ctx, option, "number", value)
    return int(text)


def _period_us(ctx: CommandContext, option: str, value: str) -> int:
    match = re.fullmatch(r"\s*(\d+\.?\d*|\.\d+)\s*([smhdw]?)\s*", value.lower())
    if match is None:
        raise _bad_value(ctx, option, "time period", value)
    scale = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[match[2]]
    return round(float(match[1]) * scale * 1_000_000)


def _no_letters(ctx: CommandContext, opts: _Opts, letters: str) -> None:
    for letter in letters:
        if letter == "v":
            opts.verbose = False
        elif letter == "c":
            opts.no_clobber = True
        elif letter not in "dHp":
            ctx.err(f"wget: illegal option -- `-n{letter}'\n{USAGE}{HINT}")
            raise Exit(1)


def _apply(ctx: CommandContext, opts: _Opts, key: str, value: str | None) -> None:
    text = value or ""
    if key == "q":
        opts.quiet = True
    elif key == "v":
        opts.verbose = True
    elif key in ("nv", "n"):
        _no_letters(ctx, opts, "v" if key == "nv" else text)
    elif key == "nc":
        opts.no_clobber = True
    elif key == "O":
        opts.output = text
    elif key == "S":
        opts.server_response = True
    elif key == "spider":
        opts.spider = True
    elif key == "t":
        opts.tries = _number(ctx, "tries", text)
        if opts.tries == 0:
            ctx.err("wget: --tries=0 (retry forever) is not supported: a simulated command cannot run forever\n")
            raise Exit(2)
    elif key == "T":
        opts.timeout_us = _period_us(ctx, "timeout", text) or SYN_TIMEOUT_US
    elif key == "P":
        opts.prefix = text
    elif key == "U":
        _set_header(opts, "User-Agent", text)
    elif key == "header":
        _header_option(ctx, opts, text)
    elif key == "max-redirect":
        opts.max_redirect = _number(ctx, "max-redirect", text)


def _set_header(opts: _Opts, name: str, value: str) -> None:
    opts.headers = [(k, v) for k, v in opts.headers if k.lower() != name.lower()] + [(name, value)]


def _header_option(ctx: CommandContext, opts: _Opts, text: str) -> None:
    if not text:
        opts.headers = opts.headers[:1]
        return
    name, sep, rest = text.partition(":")
    if not sep or not name.strip() or any(c in name for c in " \t\r\n"):
        ctx.err(f"wget: --header: Invalid header ‘{text}’.\n")
        raise Exit(2)
    _set_header(opts, name.strip(), rest.strip())


def _options(ctx: CommandContext) -> tuple[_Opts, list[str]]:
    try:
        pairs, urls = parse(SPEC, ctx.args)
    except UsageError as exc:
        if exc.unsupported:
            ctx.err(f"wget: {exc.message} (not modelled by this simulation)\n")
            raise Exit(2) from None
        raise _usage_exit(ctx, exc.message, 2) from None
    opts = _Opts()
    for key, value in pairs:
        if key == "h":
            ctx.out(HELP)
            raise Exit(0)
        if key == "V":
            ctx.out(VERSION_TEXT)
            raise Exit(0)
        _apply(ctx, opts, key, value)
    if opts.quiet and opts.verbose:
        ctx.err(f"Can't be verbose and quiet at the same time.\n{USAGE}")
        raise Exit(1)
    if opts.verbose is None:
        opts.verbose = not opts.quiet
    if not urls:
        raise _usage_exit(ctx, "missing URL", 1)
    opts.headers += [("Accept", "*/*"), ("Accept-Encoding", "identity"), ("Connection", "Keep-Alive")]
    return opts, urls


# -- URLs ----------------------------------------------------------------------------------

class _Url(NamedTuple):
    scheme: str
    host: str
    port: int
    path: str  # with the query, "/" at least

    def origin(self) -> str:
        """``scheme://host[:port]``, the port only when it is not the scheme's own."""
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{self.host}{'' if self.port == default else f':{self.port}'}"

    def __str__(self) -> str:
        return self.origin() + self.path


class _BadUrl(Exception):
    pass


_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/:?#\s]*)(?::([^/?#\s]*))?([^#\s]*)(?:#.*)?", re.S)


def _parse_url(text: str) -> _Url:
    """``text`` as wget reads it (``http://`` assumed); raises :class:`_BadUrl` with wget's words."""
    match = _URL.fullmatch(text if "://" in text else "http://" + text)
    if match is None:
        raise _BadUrl("Invalid host name")
    scheme, host, port, path = match[1].lower(), match[2].lower().rstrip("."), match[3], match[4]
    if scheme not in ("http", "https"):
        raise _BadUrl(f"Unsupported scheme ‘{scheme}’")
    if not host:
        raise _BadUrl("Invalid host name")
    if port and (not port.isdigit() or not 0 < int(port) <= 65535):
        raise _BadUrl("Bad port number")
    number = int(port) if port else (443 if scheme == "https" else 80)
    return _Url(scheme, host, number, ("/" + path if path.startswith("?") else path) or "/")


def _merge(base: _Url, location: str) -> str:
    """A ``Location`` taken relative to the URL it answered (as wget's ``uri_merge``)."""
    if re.match(r"(?i)[a-z][a-z0-9+.-]*://", location):
        return location
    if location.startswith("//"):
        return f"{base.scheme}:{location}"
    root = base.origin()
    current = base.path.split("?", 1)[0]
    if location.startswith("/"):
        return root + _dots_removed(location)
    if location.startswith("?"):
        return root + current + location
    return root + _dots_removed(current[: current.rfind("/") + 1] + location)


def _dots_removed(path: str) -> str:
    path, query, rest = path.partition("?")
    out: list[str] = []
    for segment in path.split("/")[1:]:
        if segment == "..":
            if out:
                out.pop()
        elif segment != ".":
            out.append(segment)
    tail = "/" if path.endswith(("/.", "/..")) else ""
    return "/" + "/".join(out) + tail + query + rest


def _file_name(url: _Url) -> str:
    """The local name wget gives ``url``: its last path segment, unescaped (but ``/`` and
    control bytes), with the query; ``index.html`` when the path ends in ``/``."""
    path, sep, query = url.path.partition("?")
    name = _unescape(path.rsplit("/", 1)[-1]) or "index.html"
    return name + sep + query


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        byte = int(match[1], 16)
        return match[0].upper() if byte < 0x20 or byte in (0x2F, 0x7F) else chr(byte)

    raw = re.sub(r"%([0-9A-Fa-f]{2})", one, text)
    try:
        return raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return raw


# -- numbers as wget prints them -------------------------------------------------------------

def _decimal(x: float) -> str:
    """wget's ``print_decimal``."""
    n = abs(x)
    if n >= 9.95:
        return f"{x:.0f}"
    if n >= 0.95:
        return f"{x:.1f}"
    if n >= 0.001:
        return f"{x:.1g}"
    if n >= 0.0005:
        return f"{x:.3f}"
    return "0"


def _human(n: int, acc: int, decimals: int) -> str:
    """wget's ``human_readable``: ``1256`` is ``1.2K`` with ``acc`` 10, ``decimals`` 1."""
    if n < 1024:
        return str(n)
    for i, power in enumerate("KMGTPEZY"):
        if n // 1024 < 1024 or i == 7:
            value = n / 1024.0
            return f"{value:.{decimals if value < acc else 0}f}{power}"
        n //= 1024
    return str(n)


def _rate(size: int, secs: float) -> tuple[float, int]:
    """Bytes per second and its 1024-power; a zero time is half the clock's resolution."""
    rate = size / (secs or 0.5e-6)
    unit = 0
    while rate >= 1024.0 and unit < 3:
        rate, unit = rate / 1024.0, unit + 1
    return rate, unit


def _precision(rate: float) -> int:
    return 0 if rate >= 99.95 else 1 if rate >= 9.995 else 2


def _retr_rate(size: int, secs: float) -> str:
    rate, unit = _rate(size, secs)
    return f"{rate:.{_precision(rate)}f} {('B/s', 'KB/s', 'MB/s', 'GB/s')[unit]}"


def _eta(secs: int) -> str:
    """wget's condensed ``eta_to_human_short``."""
    if secs < 100:
        return f"{secs}s"
    if secs < 100 * 60:
        return f"{secs // 60}m{secs % 60}s"
    if secs < 48 * 3600:
        return f"{secs // 3600}h{(secs // 60) % 60}m"
    if secs < 100 * 86400:
        return f"{secs // 86400}d{(secs // 3600) % 24}h"
    return f"{secs // 86400}d"


def _human_time(secs: float) -> str:
    """wget's ``secs_to_human_time``."""
    whole = int(secs + 0.5)
    days, whole = divmod(whole, 86400)
    hours, whole = divmod(whole, 3600)
    minutes, whole = divmod(whole, 60)
    if days:
        return f"{days}d {hours}h {minutes}m {whole}s"
    if hours:
        return f"{hours}h {minutes}m {whole}s"
    if minutes:
        return f"{minutes}m {whole}s"
    return f"{_decimal(secs)}s"


def _row_stats(shown: int, row_bytes: int, row_secs: float, total: int, at: float, last: bool) -> str:
    text = f"{int(100.0 * shown / total):3d}%" if total else ""
    rate, unit = _rate(row_bytes, row_secs)
    text += f" {rate:4.{_precision(rate)}f}{' KMGT'[unit]}"
    if last:
        return text + (f"={_eta(int(at + 0.5))}" if at >= 10 else f"={_decimal(at)}s")
    if total:
        text += " " + _eta(int(at * (total - shown) / shown + 0.5))
    return text


def dot_progress(size: int, total: int, secs: float) -> str:
    """wget's default dot progress as it logs it when stderr is not a terminal (1K a dot,
    10 a group, 50 a row), the ``size`` bytes taken as arriving evenly over ``secs``."""
    row = 50 * 1024
    full_rows, rest = divmod(size, row)
    dots, remainder = divmod(rest, 1024)
    parts, before = [], 0.0
    for r in range(1, full_rows + 1):
        at = secs * r * row / size
        parts.append(f"\n{(r - 1) * 50:>6}K" + " .........." * 5 + _row_stats(r * row, row, at - before, total, at, False))
        before = at
    parts.append(f"\n{full_rows * 50:>6}K")
    parts.extend((" " if i % 10 == 0 else "") + ("." if i < dots else " ") for i in range(50))
    parts.append(_row_stats(size, dots * 1024 + remainder, secs - before, total, secs, True) + "\n\n")
    return "".join(parts)


# -- the run -------------------------------------------------------------------------------

class _Response(NamedTuple):
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    elapsed_us: int


class _Failed(Exception):
    """A retrieval that ended: ``result`` is wget's status for it (``None``: retry)."""

    def __init__(self, result: int | None) -> None:
        self.result = result


class _Wget:
    """One ``wget`` command line: the log, the DNS cache, the kept-alive connection."""

    def __init__(self, ctx: CommandContext, opts: _Opts) -> None:
        self.ctx = ctx
        self.opts = opts
        self.net: Any = ctx.machine.net or OfflineNet(ctx.machine)
        self.dns: dict[str, str] = {}
        self.kept: tuple[str, str, int] | None = None
        self.files = 0
        self.bytes = 0
        self.secs = 0.0

    # -- the log (wget's levels) --
    def verbose(self, text: str) -> None:
        if self.opts.verbose:
            self.ctx.err(text)

    def notquiet(self, text: str) -> None:
        if not self.opts.quiet:
            self.ctx.err(text)

    def nonverbose(self, text: str) -> None:
        if not self.opts.verbose and not self.opts.quiet:
            self.ctx.err(text)

    def stamp(self) -> str:
        return strftime("%Y-%m-%d %H:%M:%S", Tm(WORLD_EPOCH_S + self.ctx.machine.clock.now_us // 1_000_000))

    def sleep_until(self, when_us: int) -> None:
        self.ctx.machine.sleep(max(0, when_us - self.ctx.machine.clock.now_us))

    # -- the command --
    def run(self, urls: list[str]) -> int:
        started = self.ctx.machine.clock.now_us
        self._open_output()
        worst = 0
        for text in urls:
            result = self.retrieve(text)
            if result and (not worst or result < worst):
                worst = result
        if len(urls) > 1 and self.bytes:
            elapsed = (self.ctx.machine.clock.now_us - started) / 1e6
            self.notquiet(f"FINISHED --{self.stamp()}--\nTotal wall clock time: {_human_time(elapsed)}\n"
                          f"Downloaded: {self.files} files, {_human(self.bytes, 10, 1)} in {_human_time(self.secs)} "
                          f"({_retr_rate(self.bytes, self.secs)})\n")
        return 1 if worst == UNKNOWN else worst

    def _open_output(self) -> None:
        """Truncate the ``-O`` file before anything is fetched, as wget does."""
        output = self.opts.output
        if output is None or output == "-":
            return
        if self.opts.no_clobber and self.ctx.fs.exists(output, self.ctx.cwd):
            self.verbose(f"File `{output}' already there; not retrieving.\n")
            raise Exit(1)
        try:
            self.ctx.fs.write(output, self.ctx.cwd, b"")
        except FsError as exc:
            self.ctx.err(f"{output}: {exc.strerror_text}\n")
            raise Exit(1) from None

    def retrieve(self, text: str) -> int:
        """One URL from the command line, through its redirects."""
        try:
            url = _parse_url(text)
        except _BadUrl as exc:
            self.notquiet(f"{text}: {exc}.\n")
            return UNKNOWN
        original, redirects = url, 0
        while True:
            result = self.http_loop(url, original)
            if isinstance(result, int):
                return result
            try:
                url = _parse_url(_merge(url, result))
            except _BadUrl as exc:
                self.notquiet(f"{result}: {exc}.\n")
                return UNKNOWN
            redirects += 1
            if redirects > self.opts.max_redirect:
                self.notquiet(f"{self.opts.max_redirect} redirections exceeded.\n")
                return 8

    def _local_name(self, original: _Url) -> str:
        name = _file_name(original)
        if self.opts.prefix:
            name = self.opts.prefix.rstrip("/") + "/" + name
        if self.opts.no_clobber:
            return name
        unique, n = name, 0
        while self.ctx.fs.exists(unique, self.ctx.cwd, follow=False):
            n += 1
            unique = f"{name}.{n}"
        return unique

    def http_loop(self, url: _Url, original: _Url) -> int | str:
        """wget's ``http_loop``: tries until done; a redirect's ``Location`` is returned."""
        local = self.opts.output or self._local_name(original)
        if self.opts.no_clobber and not self.opts.output and self.ctx.fs.exists(local, self.ctx.cwd):
            self.verbose(f"File ‘{local}’ already there; not retrieving.\n\n")
            return 0
        got_head, count = not self.opts.spider, 0
        while count < self.opts.tries:
            count += 1
            if count > 1:
                self.ctx.machine.sleep(min(count - 1, WAITRETRY_S) * 1_000_000)
            if not got_head:
                self.verbose("Spider mode enabled. Check if remote file exists.\n")
            self.notquiet_verbose(f"--{self.stamp()}--  {f'(try:{count:2d})  ' if count > 1 else ''}{url}\n")
            try:
                response = self.gethttp(url, "GET" if got_head else "HEAD")
            except _Failed as failed:
                if failed.result is not None:
                    return failed.result
                self.verbose("Giving up.\n\n" if count == self.opts.tries else "Retrying.\n\n")
                continue
            if response.status in (*REDIRECTS, 300) and (response.status != 300 or _header(response, "location")):
                return self._redirect(response)
            if not 200 <= response.status < 300:
                if not got_head and response.status in (500, 501):
                    got_head = True
                    continue
                return self._error(url, response)
            try:
                return self._success(url, response, local, count)
            except _Failed as failed:
                return failed.result or 3
        return 4

    def notquiet_verbose(self, text: str) -> None:
        """The ``--time--  URL`` line: wget logs it as not-quiet, but only when verbose."""
        if self.opts.verbose:
            self.notquiet(text)

    # -- one exchange --
    def gethttp(self, url: _Url, method: str) -> _Response:
        key = (url.scheme, url.host, url.port)
        reused = self.kept == key
        if reused:
            self.verbose(f"Reusing existing connection to {url.host}:{url.port}.\n")
        else:
            address = self._resolve(url.host)
            shown = f"{url.host}:{url.port}" if is_address(url.host) else f"{url.host} ({url.host})|{address}|:{url.port}"
            self.verbose(f"Connecting to {shown}... ")
        try:
            response = self._exchange(method, url)
        except NetFailure as exc:
            self.kept = None
            self.notquiet(f"failed: {self._reason(exc, url)}.\n")
            raise _Failed(None if exc.code == "lost" else 4) from None
        if not reused:
            self.verbose("connected.\n")
        self._head(response)
        self.kept = key if self._keeps(response, method) else None
        return response

    def _resolve(self, host: str) -> str:
        if is_address(host):
            return host
        if host in self.dns:
            return self.dns[host]
        self.verbose(f"Resolving {host} ({host})... ")
        try:
            found = self.net.lookup(host)
        except NetFailure as exc:
            self.verbose(f"failed: {OFFLINE_DNS if exc.detail == OFFLINE_DNS else 'Name or service not known'}.\n")
            self.notquiet(f"wget: unable to resolve host address ‘{host}’\n")
            raise _Failed(4) from None
        self.verbose(f"{found.address}\n")
        self.dns[host] = found.address
        return found.address

    def _reason(self, exc: NetFailure, url: _Url) -> str:
        if exc.code == "lost":
            return "Connection timed out"
        if exc.code == "refused":
            return "Connection refused"
        address = self.dns.get(url.host, url.host)
        if exc.code == "unreachable" and on_own_lan(address, getattr(self.ctx.machine.computer, "address", None)):
            return "No route to host"
        return "Network is unreachable"

    def _exchange(self, method: str, url: _Url) -> _Response:
        """One request, its SYN retransmitted while a link loses it, until the connect timeout."""
        clock = self.ctx.machine.clock
        start = clock.now_us
        for offset in SYN_SENDS_S:
            if offset * 1_000_000 >= self.opts.timeout_us:
                break
            self.sleep_until(start + offset * 1_000_000)
            began = clock.now_us
            try:
                status, headers, body = self.net.request(method, str(url), list(self.opts.headers), b"")
            except NetFailure as exc:
                if exc.code != "lost":
                    raise
                continue
            return _Response(status, headers, body, clock.now_us - began)
        self.sleep_until(start + self.opts.timeout_us)
        raise NetFailure("lost", "connection timed out")

    def _head(self, response: _Response) -> None:
        self.verbose("HTTP request sent, awaiting response... ")
        reason = REASONS.get(response.status, "")
        if not self.opts.server_response:
            self.verbose(f"{response.status:2d} {reason}\n")
            return
        self.verbose("\n")
        lines = [f"HTTP/1.1 {response.status} {reason}".rstrip()] + [f"{k}: {v}" for k, v in response.headers]
        self.ctx.err("".join(f"  {line}\n" for line in lines))

    def _keeps(self, response: _Response, method: str) -> bool:
        """Whether wget keeps the connection for the next request to the same host."""
        if (_header(response, "connection") or "").lower() == "close":
            return False
        if method == "HEAD":
            return True
        if 200 <= response.status < 300:
            return not self.opts.spider
        return 0 <= _length(response) <= SKIP_THRESHOLD

    # -- what the answer means --
    def _redirect(self, response: _Response) -> int | str:
        location = _header(response, "location")
        self.verbose(f"Location: {location or 'unspecified'}{' [following]' if location else ''}\n")
        if not location:
            self.notquiet(f"ERROR: Redirection ({response.status}) without location.\n")
            return 8
        return location

    def _error(self, url: _Url, response: _Response) -> int:
        stamp = self.stamp()
        if self.opts.spider:
            self.notquiet("Remote file does not exist -- broken link!!!\n")
        else:
            self.nonverbose(f"{url}:\n")
            self.notquiet(f"{stamp} ERROR {response.status}: {REASONS.get(response.status) or '(no description)'}.\n")
        self.verbose("\n")
        return 8

    def _success(self, url: _Url, response: _Response, local: str, count: int) -> int:
        length = _length(response)
        if response.status == 204:
            return self._saved(url, local, 0, -1, 0, count)
        kind = (_header(response, "content-type") or "").split(";", 1)[0].rstrip()
        size = "unspecified" if length < 0 else f"{length}" + (f" ({_human(length, 10, 1)})" if length >= 1024 else "")
        self.verbose(f"Length: {size}{f' [{kind}]' if kind else ''}\n")
        if self.opts.spider:
            return self._exists(url, response, kind)
        self._write(local, response.body)
        self.verbose(f"Saving to: ‘{'STDOUT' if local == '-' else local}’\n")
        secs = response.elapsed_us / 1e6
        if self.opts.verbose:
            self.ctx.err(dot_progress(len(response.body), max(length, 0), secs))
        return self._saved(url, local, len(response.body), length, secs, count)

    def _exists(self, url: _Url, response: _Response, kind: str) -> int:
        if not kind or kind.lower() in ("text/html", "application/xhtml+xml"):
            self.verbose("Remote file exists and could contain further links,\nbut recursion is disabled -- not retrieving.\n\n")
        else:
            self.verbose("Remote file exists.\n\n")
        self.nonverbose(f"{self.stamp()} URL: {url} {response.status:2d} {REASONS.get(response.status, '')}\n")
        return 0

    def _write(self, local: str, body: bytes) -> None:
        if local == "-":
            self.ctx.out(body)
            return
        try:
            if not self.opts.output:
                self._make_folders(local)
            self.ctx.fs.write(local, self.ctx.cwd, body, append=bool(self.opts.output))
        except FsError as exc:
            self.notquiet(f"{local}: {exc.strerror_text}\n")
            self.verbose("\n")
            self.notquiet(f"Cannot write to ‘{local}’ ({exc.strerror_text}).\n")
            raise _Failed(3) from None

    def _make_folders(self, local: str) -> None:
        parts = local.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder and not self.ctx.fs.exists(folder, self.ctx.cwd):
                self.ctx.fs.mkdir(folder, self.ctx.cwd)

    def _saved(self, url: _Url, local: str, size: int, length: int, secs: float, count: int) -> int:
        stamp, rate = self.stamp(), _retr_rate(size, secs)
        total = f"{size}" if length < 0 else f"{size}/{length}"
        if local == "-":
            self.verbose(f"{stamp} ({rate}) - written to stdout [{total}]\n\n")
        else:
            self.verbose(f"{stamp} ({rate}) - ‘{local}’ saved [{total}]\n\n")
        self.nonverbose(f'{stamp} URL:{url} [{total}] -> "{local}" [{count}]\n')
        self.files += 1
        self.bytes += size
        self.secs += secs
        return 0


def _header(response: _Response, name: str) -> str | None:
    return next((v for k, v in response.headers if k.lower() == name), None)


def _length(response: _Response) -> int:
    value = (_header(response, "content-length") or "").strip()
    return int(value) if value.isdigit() else -1


@command("wget", package="wget")
def wget(ctx: CommandContext) -> int:
    opts, urls = _options(ctx)
    return _Wget(ctx, opts).run(urls)


HELP = f"""GNU Wget {VERSION}, a non-interactive network retriever.
{USAGE}
Mandatory arguments to long options are mandatory for short options too.
(Only the options this simulation models are listed; the others exit 2.)

Startup:
  -V,  --version                   display the version of Wget and exit
  -h,  --help                      print this help

Logging and input file:
  -q,  --quiet                     quiet (no output)
  -v,  --verbose                   be verbose (this is the default)
  -nv, --no-verbose                turn off verboseness, without being quiet

Download:
  -t,  --tries=NUMBER              set number of retries to NUMBER (0 unlimits)
  -O,  --output-document=FILE      write documents to FILE
  -nc, --no-clobber                skip downloads that would download to
                                     existing files (overwriting them)
  -S,  --server-response           print server response
       --spider                    don't download anything
  -T,  --timeout=SECONDS           set all timeout values to SECONDS
       --connect-timeout=SECS      set the connect timeout to SECS
  -4,  --inet4-only                connect only to IPv4 addresses

Directories:
  -nd, --no-directories            don't create directories
  -nH, --no-host-directories       don't create host directories
  -P,  --directory-prefix=PREFIX   save files to PREFIX/..

HTTP options:
       --header=STRING             insert STRING among the headers
       --max-redirect              maximum redirections allowed per page
  -U,  --user-agent=AGENT          identify as AGENT instead of Wget/VERSION

Recursive accept/reject:
  -np, --no-parent                 don't ascend to the parent directory

Email bug reports, questions, discussions to <bug-wget@gnu.org>
and/or open issues at https://savannah.gnu.org/bugs/?func=additem&group=wget.
"""

VERSION_TEXT = f"""GNU Wget {VERSION} built on linux-gnu.

-cares +digest -gpgme +https +ipv6 +iri +large-file -metalink +nls
+ntlm +opie +psl +ssl/openssl

Copyright (C) 2015 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later
<http://www.gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Originally written by Hrvoje Niksic <hniksic@xemacs.org>.
Please send bug reports and questions to <bug-wget@gnu.org>.
"""
