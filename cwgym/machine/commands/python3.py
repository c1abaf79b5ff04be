"""``python3``: only ``python3 -m http.server``, the file server people start to share a folder.

``python3 [-u] -m http.server [PORT] [-b|--bind ADDRESS] [-d|--directory DIR]`` parses its
line as CPython 3.12's ``server.py`` does (argparse's messages, ``usage:`` line and exit 2;
``-h`` prints its help). Started in the background (``... &``) it becomes that job's
process (``$!``; ``ps`` shows it as typed) and listens on the machine's node at PORT
(default 8000) until it is killed, printing CPython's ``Serving HTTP on ...`` line. It
serves DIR (default: the shell's folder), kept as an absolute path on the process and read
at each request as the user who started it (:func:`serve`): a file with its type from the
suffix, a folder's ``index.html`` or ``index.htm``, else the folder's listing; a folder
asked without its trailing ``/`` is a 301 to it; a missing or unreadable file is CPython's
404 ``File not found`` page, an unlistable folder its 404 ``No permission to list
directory``; ``If-Modified-Since`` gets a 304; only ``GET`` and ``HEAD`` are served,
other methods are CPython's 501. Requests are not logged (no terminal shows a background
job's stderr here); the network journals them.

Refused, on stderr with exit status 1 and no process left, with the last line of CPython's
traceback: a port outside 1..65535 (``OverflowError``), a port below 1024 for a user other
than root (``PermissionError``), a port something on the node already listens on
(``OSError: [Errno 98]``), an address other than 0.0.0.0, 127.0.0.1 (``localhost``) or the
machine's own (``OSError: [Errno 99]``), a missing, non-folder or unreadable DIR (CPython
would start and answer every request with a 404; here the line says what is wrong, as
``os`` would). Port 0 (any free port), ``--cgi``, ``--protocol`` and ``--bind`` with another
host name are not modelled (exit 2, saying so).

In the foreground a server would never return on the logical clock: a line that passes
every check above is refused (exit 2) with how to start it in the background. Any other use of
``python3`` (a script, ``-c``, the REPL, another module) is refused (exit 2): this world
has only ``http.server``. ``python3 -V`` / ``--version`` print ``Python 3.12.3``.
"""

from __future__ import annotations

import html
import posixpath
import re
import shlex
import urllib.parse
from datetime import UTC, datetime
from email.utils import formatdate, parsedate_to_datetime
from typing import NamedTuple

from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FILE, SYMLINK, Credentials, FsError, Inode, UserFS, join
from cwgym.machine.processes import KeepsRunning, Process
from cwgym.machine.view import MachineView

VERSION = "3.12.3"
SERVER = f"SimpleHTTP/0.6 Python/{VERSION}"
DEFAULT_PORT = 8000
ANY, LOOPBACK = "0.0.0.0", "127.0.0.1"
ONLY = "python3: only 'python3 -m http.server' is available in this world\n"
USAGE = "usage: server.py [-h] [--cgi] [-b ADDRESS] [-d DIRECTORY] [-p VERSION] [port]\n"
HELP = USAGE + """
positional arguments:
  port                  bind to this port (default: 8000)

options:
  -h, --help            show this help message and exit
  --cgi                 run as CGI server
  -b ADDRESS, --bind ADDRESS
                        bind to this address (default: all interfaces)
  -d DIRECTORY, --directory DIRECTORY
                        serve this directory (default: current directory)
  -p VERSION, --protocol VERSION
                        conform to this HTTP version (default: HTTP/1.0)
"""
#: option string -> (destination, takes a value); argparse's display name per destination
OPTIONS = {"-h": ("help", False), "--help": ("help", False), "--cgi": ("cgi", False),
           "-b": ("bind", True), "--bind": ("bind", True), "-d": ("directory", True),
           "--directory": ("directory", True), "-p": ("protocol", True), "--protocol": ("protocol", True)}
SHOWN = {"help": "-h/--help", "cgi": "--cgi", "bind": "-b/--bind", "directory": "-d/--directory",
         "protocol": "-p/--protocol"}
#: SimpleHTTPRequestHandler.extensions_map, asked before the type table
ENCODED = {".gz": "application/gzip", ".Z": "application/octet-stream", ".bz2": "application/x-bzip2",
           ".xz": "application/x-xz"}
#: Python 3.12's own suffix table (mimetypes' defaults) for the usual web files
TYPES = {".html": "text/html", ".htm": "text/html", ".txt": "text/plain", ".css": "text/css",
         ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json",
         ".xml": "text/xml", ".csv": "text/csv", ".png": "image/png", ".jpg": "image/jpeg",
         ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml", ".ico": "image/vnd.microsoft.icon",
         ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff", ".avif": "image/avif",
         ".pdf": "application/pdf", ".zip": "application/zip", ".tar": "application/x-tar",
         ".sh": "application/x-sh", ".py": "text/x-python", ".c": "text/plain", ".h": "text/plain",
         ".wasm": "application/wasm", ".mp3": "audio/mpeg", ".mp4": "video/mp4", ".webm": "video/webm",
         ".wav": "audio/x-wav", ".doc": "application/msword", ".xls": "application/vnd.ms-excel",
         ".ppt": "application/vnd.ms-powerpoint"}
#: HTTPStatus phrase and description of the errors the server sends
ERRORS = {404: ("Not Found", "Nothing matches the given URI"),
          501: ("Not Implemented", "Server does not support this operation")}
ERROR_PAGE = """\
<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: {code}</p>
        <p>Message: {message}.</p>
        <p>Error code explanation: {code} - {explain}.</p>
    </body>
</html>
"""

Reply = tuple[int, list[tuple[str, str]], bytes]
_NEGATIVE = re.compile(r"-\d+|-\d*\.\d+")


class ServerArgs(NamedTuple):
    """What ``server.py``'s argparse made of the line."""

    port: int
    bind: str | None
    directory: str | None
    unmodelled: str | None  # --cgi or --protocol, refused after parsing


class _Stop(Exception):
    """The line ends here: ``out`` and ``err`` to print, then ``status``."""

    def __init__(self, status: int, err: str = "", out: str = "") -> None:
        self.status, self.err, self.out = status, err, out


# -- the command line --------------------------------------------------------------------

@command("python3", package="python3")
def python3(ctx: CommandContext) -> int:
    try:
        args = server_args(_module_args(ctx.args))
        listen, root = _bind(ctx, args)
    except _Stop as stop:
        ctx.out(stop.out)
        ctx.err(stop.err)
        return stop.status
    procs = ctx.machine.procs
    job = procs.current_job
    if job is None:
        ctx.err("python3 -m http.server runs until it is stopped; start it in the background: "
                + shlex.join(ctx.argv) + " &\n")
        return 2
    procs.settle(job, " ".join(ctx.argv), listen, root)
    ctx.out(f"Serving HTTP on {listen[0]} port {listen[1]} (http://{listen[0]}:{listen[1]}/) ...\n")
    raise KeepsRunning


def _module_args(args: list[str]) -> list[str]:
    """The arguments after ``-m http.server`` (``-u``, unbuffered output, may come first)."""
    i = 0
    while i < len(args) and args[i] == "-u":
        i += 1
    if i < len(args) and args[i] in ("-V", "--version"):
        raise _Stop(0, out=f"Python {VERSION}\n")
    if i < len(args) and args[i] == "-m" and i + 1 < len(args):
        module, rest = args[i + 1], args[i + 2:]
    elif i < len(args) and args[i].startswith("-m") and len(args[i]) > 2:
        module, rest = args[i][2:], args[i + 1:]
    else:
        raise _Stop(2, ONLY)
    if module != "http.server":
        raise _Stop(2, ONLY)
    return rest


def _usage(message: str) -> _Stop:
    return _Stop(2, f"{USAGE}server.py: error: {message}\n")


def _optional(arg: str) -> bool:
    """Whether argparse reads ``arg`` as an option string: not a value, not a negative
    number (the parser has no options that look like one), not a phrase with a space."""
    if not arg.startswith("-") or arg == "-":
        return False
    if arg.split("=", 1)[0] in OPTIONS:
        return True
    return _NEGATIVE.fullmatch(arg) is None and " " not in arg


def _option(arg: str) -> tuple[str, str | None] | None:
    """``(destination, attached value)`` of an option string, or ``None`` (unrecognized)."""
    name, eq, value = arg.partition("=")
    if name in OPTIONS:
        return OPTIONS[name][0], value if eq else None
    if arg.startswith("--"):  # a unique prefix of a long option (no two share a first letter)
        dest = next((d for option, (d, _) in OPTIONS.items() if option.startswith("--") and option.startswith(name)), None)
        return None if dest is None else (dest, value if eq else None)
    if arg[:2] in OPTIONS:
        return OPTIONS[arg[:2]][0], arg[2:]
    return None


def server_args(args: list[str]) -> ServerArgs:
    """``server.py``'s arguments as its argparse parser reads them.

    Raises:
        _Stop: a usage error (exit 2) or ``-h`` (its help, exit 0).
    """
    values: dict[str, str | None] = {}
    flags: set[str] = set()
    port: int | None = None
    extras: list[str] = []
    only_values = False
    helping = 0  # where a chained -h prints its help (after the option chained to it)
    i = 0
    while i < len(args):
        if helping and i >= helping:
            raise _Stop(0, out=HELP)
        arg = args[i]
        i += 1
        if arg == "--" and not only_values:
            only_values = True
            continue
        if only_values or not _optional(arg):
            if port is None:
                try:
                    port = int(arg)
                except ValueError:
                    raise _usage(f"argument port: invalid int value: {arg!r}") from None
            else:
                extras.append(arg)
            continue
        found = _option(arg)
        if found is None:
            extras.append(arg)
            continue
        dest, attached = found
        takes = dest in ("bind", "directory", "protocol")
        if not takes:
            chained = bool(attached) and arg[1] != "-" and "-" + attached[0] in OPTIONS
            if attached is not None and not chained:
                raise _usage(f"argument {SHOWN[dest]}: ignored explicit argument {attached!r}")
            if dest == "help" and not chained:
                raise _Stop(0, out=HELP)
            if chained:  # -hb X: -b takes X, then -h, the one flag a dash chains after, ends the line
                args = [*args[:i], "-" + (attached or ""), *args[i:]]
                helping = i + 1
            flags.add(dest)
        elif attached is not None:
            values[dest] = attached
        elif i < len(args) and not _optional(args[i]) and args[i] != "--":
            values[dest] = args[i]
            i += 1
        else:
            raise _usage(f"argument {SHOWN[dest]}: expected one argument")
    if helping:
        raise _Stop(0, out=HELP)
    if extras:
        raise _usage("unrecognized arguments: " + " ".join(extras))
    unmodelled = "--cgi" if "cgi" in flags else "--protocol" if "protocol" in values else None
    return ServerArgs(DEFAULT_PORT if port is None else port, values.get("bind"), values.get("directory"), unmodelled)


# -- binding -----------------------------------------------------------------------------

def _bind(ctx: CommandContext, args: ServerArgs) -> tuple[tuple[str, int], str]:
    """``((address, port), root)`` the server would listen at and serve, after every check
    the kernel and CPython make (each failure raises :class:`_Stop`)."""
    machine = ctx.machine
    if args.unmodelled is not None:
        raise _Stop(2, f"python3: http.server {args.unmodelled} is not modelled in this world\n")
    root = _root(ctx, args.directory)
    if args.port == 0:
        raise _Stop(2, "python3: http.server on port 0 (any free port) is not modelled in this world; name a port from 1 to 65535\n")
    if not 0 <= args.port <= 65535:
        raise _Stop(1, "OverflowError: bind(): port must be 0-65535.\n")
    own = machine.computer.address
    bind = {None: ANY, "": ANY, ANY: ANY, LOOPBACK: LOOPBACK, "localhost": LOOPBACK}.get(args.bind, args.bind)
    if bind not in (ANY, LOOPBACK, own):
        if bind and not _is_address(bind):
            raise _Stop(2, f"python3: http.server --bind takes an address in this world ({ANY}, {LOOPBACK}, localhost or {own}), not the name {bind!r}\n")
        raise _Stop(1, "OSError: [Errno 99] Cannot assign requested address\n")
    if args.port < 1024 and machine.cred.uid != 0:
        raise _Stop(1, "PermissionError: [Errno 13] Permission denied\n")
    mine = any(p.listen is not None and p.listen[1] == args.port for p in machine.procs.listeners(machine.clock.now_us))
    if mine or (machine.net is not None and machine.net.listening(args.port)):
        raise _Stop(1, "OSError: [Errno 98] Address already in use\n")
    return (bind, args.port), root


def _is_address(text: str) -> bool:
    parts = text.split(".")
    return (len(parts) == 4 and all(p.isdigit() and int(p) < 256 for p in parts)) or ":" in text


def _root(ctx: CommandContext, directory: str | None) -> str:
    """The absolute folder to serve: ``directory`` (or the shell's folder), which must be
    a folder the user may list and enter."""
    fs = ctx.fs
    shown = directory if directory is not None else ctx.cwd
    errors = {"ENOENT": "FileNotFoundError: [Errno 2] No such file or directory",
              "EACCES": "PermissionError: [Errno 13] Permission denied",
              "ENOTDIR": "NotADirectoryError: [Errno 20] Not a directory"}
    try:
        inode = fs.lookup(shown, ctx.cwd)
        if inode.kind != DIR:
            raise FsError("ENOTDIR", shown)
        if not fs.cred.may(inode, 5):
            raise FsError("EACCES", shown)
        return fs.realpath(shown, ctx.cwd)
    except FsError as exc:
        text = errors.get(exc.code, f"OSError: {exc.strerror_text}")
        raise _Stop(1, f"{text}: {shown!r}\n" if directory is not None else f"{text}\n") from None


# -- serving -----------------------------------------------------------------------------

def serve(machine: MachineView, proc: Process, method: str, target: str, headers: tuple[tuple[str, str], ...]) -> Reply:
    """What the server ``proc`` answers ``method target`` with, reading its folder now, as
    its user: ``(status, headers, body)``, as CPython's SimpleHTTPRequestHandler would."""
    fs = UserFS(machine.fs, Credentials(proc.uid, next((u.gid for u in machine.users if u.uid == proc.uid), proc.uid)))
    date = formatdate(machine.clock.unix_seconds(), usegmt=True)
    if method not in ("GET", "HEAD"):
        return _error(501, f"Unsupported method ({method!r})", date, method)
    path = _translate(target, proc.root or "/")
    inode = _stat(fs, path)
    if inode is not None and inode.kind == DIR:
        split = urllib.parse.urlsplit(target)
        if not split.path.endswith("/"):
            location = urllib.parse.urlunsplit((split[0], split[1], split[2] + "/", split[3], split[4]))
            return 301, [("Server", SERVER), ("Date", date), ("Location", location), ("Content-Length", "0")], b""
        for index in ("index.html", "index.htm"):
            found = _stat(fs, join(path, index))
            if found is not None and found.kind == FILE:
                path = join(path, index)
                break
        else:
            return _listing(fs, path, target, date, method)
    if path.endswith("/"):
        return _error(404, "File not found", date, method)
    try:
        data = fs.read(path, "/")
        inode = fs.lookup(path, "/")
    except FsError:
        return _error(404, "File not found", date, method)
    modified = WORLD_EPOCH_S + inode.mtime // 1_000_000
    if _not_modified(dict((k.lower(), v) for k, v in headers), modified):
        return 304, [("Server", SERVER), ("Date", date)], b""
    reply = [("Server", SERVER), ("Date", date), ("Content-type", content_type(path)),
             ("Content-Length", str(len(data))), ("Last-Modified", formatdate(modified, usegmt=True))]
    return 200, reply, b"" if method == "HEAD" else data


def _translate(target: str, root: str) -> str:
    """SimpleHTTPRequestHandler.translate_path: the URL path under ``root``, with ``.``,
    ``..`` and names holding a separator dropped, keeping a trailing ``/``."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    trailing = path.rstrip().endswith("/")
    path = posixpath.normpath(urllib.parse.unquote(path, errors="surrogatepass"))
    result = root
    for word in filter(None, path.split("/")):
        if posixpath.dirname(word) or word in (".", ".."):
            continue
        result = join(result, word)
    return result + "/" if trailing else result


def _stat(fs: UserFS, path: str, *, follow: bool = True) -> Inode | None:
    try:
        return fs.lookup(path, "/", follow=follow)
    except FsError:
        return None


def _not_modified(headers: dict[str, str], modified: int) -> bool:
    """Whether ``If-Modified-Since`` (without ``If-None-Match``) is not before ``modified``."""
    since = headers.get("if-modified-since")
    if since is None or "if-none-match" in headers:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, IndexError, OverflowError, ValueError):
        return False  # an ill-formed date is ignored
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when.tzinfo != UTC:
        return False  # CPython compares only a date given in UTC
    return datetime.fromtimestamp(modified, UTC) <= when


def content_type(path: str) -> str:
    """SimpleHTTPRequestHandler.guess_type, over Python's own suffix table."""
    _, ext = posixpath.splitext(path)
    for suffix in (ext, ext.lower()):
        if suffix in ENCODED:
            return ENCODED[suffix]
    for suffix in (ext, ext.lower()):
        if suffix in TYPES:
            return TYPES[suffix]
    return "application/octet-stream"


def _listing(fs: UserFS, path: str, target: str, date: str, method: str) -> Reply:
    """SimpleHTTPRequestHandler.list_directory: CPython's ``Directory listing for`` page."""
    try:
        names = sorted(fs.listdir(path, "/"), key=str.lower)
    except FsError:
        return _error(404, "No permission to list directory", date, method)
    shown = html.escape(urllib.parse.unquote(target, errors="surrogatepass"), quote=False)
    title = f"Directory listing for {shown}"
    lines = ["<!DOCTYPE HTML>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{title}</title>\n</head>", f"<body>\n<h1>{title}</h1>", "<hr>\n<ul>"]
    for name in names:
        full = join(path, name)
        display = link = name
        inode = _stat(fs, full)
        if inode is not None and inode.kind == DIR:
            display = link = name + "/"
        plain = _stat(fs, full, follow=False)
        if plain is not None and plain.kind == SYMLINK:
            display = name + "@"
        lines.append(f'<li><a href="{urllib.parse.quote(link, errors="surrogatepass")}">{html.escape(display, quote=False)}</a></li>')
    lines.append("</ul>\n<hr>\n</body>\n</html>\n")
    body = "\n".join(lines).encode("utf-8", "surrogateescape")
    reply = [("Server", SERVER), ("Date", date), ("Content-type", "text/html; charset=utf-8"),
             ("Content-Length", str(len(body)))]
    return 200, reply, b"" if method == "HEAD" else body


def _error(code: int, message: str, date: str, method: str) -> Reply:
    """BaseHTTPRequestHandler.send_error: CPython's ``Error response`` page (no body for ``HEAD``)."""
    _, explain = ERRORS[code]
    body = ERROR_PAGE.format(code=code, message=html.escape(message, quote=False),
                             explain=html.escape(explain, quote=False)).encode("utf-8", "replace")
    reply = [("Server", SERVER), ("Date", date), ("Connection", "close"),
             ("Content-Type", "text/html;charset=utf-8"), ("Content-Length", str(len(body)))]
    return code, reply, b"" if method == "HEAD" else body
