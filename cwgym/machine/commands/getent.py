"""``getent``: entries of the machine's name-service databases, as glibc's ``getent``.

Databases:

* ``hosts [KEY...]``: ``/etc/hosts`` first, then the world's DNS, as glibc's ``files dns``
  order. Each key is looked up as glibc's ``getent`` does: an address by address, a name
  first among IPv6 entries, then IPv4 ones. An entry prints as ``ADDRESS NAME ALIASES``
  with the address left-justified in 15 columns (``127.0.0.1       localhost``); a name
  found in ``/etc/hosts`` prints that line's names, one found through a DNS CNAME chain
  prints the canonical name and then the aliases followed. Without keys, ``/etc/hosts`` is
  listed as glibc lists it for IPv4 (``::1`` reads as ``127.0.0.1``, other IPv6 lines are
  skipped).
* ``ahosts``/``ahostsv4 [KEY...]``: the ``getaddrinfo`` view, one line per socket type
  (``STREAM`` with the canonical name, ``DGRAM``, ``RAW``).
* ``passwd [KEY...]`` and ``group [KEY...]``: ``/etc/passwd`` and ``/etc/group`` of the
  machine; a numeric key is a uid/gid, any other a name; without keys every entry.

Options: ``-i``/``--no-idn`` (no effect: names here are ASCII), ``--help``, ``-V``/``--version``.
``-s``/``--service``, ``--usage``, ``ahostsv6`` and the other glibc databases (``services``,
``shadow``, ...) are refused with a message.

Exit codes: 0 all keys found, 1 no database or an unknown/refused one (glibc prints
``Unknown database: NAME`` and its ``Try ...`` line), 2 some key not found, 64 a bad option.

Differs from the real tool: the world has no IPv6 routes nor AAAA records, so a name only in
DNS resolves to IPv4 (real Ubuntu asks for AAAA first and its stub resolver answers
``localhost`` as ``::1``), and there are no PTR records, so an address missing from
``/etc/hosts`` is not found. ``multi on`` is not applied: the first ``/etc/hosts`` line
naming a host wins, as it does for every program here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.etc import HOSTS
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import NetFailure

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Entry = tuple[str, tuple[str, ...]]  # (printed address, (canonical name, *aliases))

TRY = "Try `getent --help' or `getent --usage' for more information.\n"
DATABASES = ("ahosts", "ahostsv4", "ahostsv6", "aliases", "ethers", "group", "gshadow", "hosts", "initgroups",
             "netgroup", "networks", "passwd", "protocols", "rpc", "services", "shadow")
SUPPORTED = ("ahosts", "ahostsv4", "group", "hosts", "passwd")
VERSION = (
    "getent (Ubuntu GLIBC 2.39-0ubuntu8.4) 2.39\n"
    "Copyright (C) 2024 Free Software Foundation, Inc.\n"
    "This is free software; see the source for copying conditions.  There is NO\n"
    "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n"
    "Written by Thorsten Kukuk.\n"
)
_LONG = ("help", "no-idn", "service", "usage", "version")


class _Stop(Exception):
    """End the command with ``status`` (its messages are already written)."""

    def __init__(self, status: int) -> None:
        self.status = status


def _help() -> str:
    lines, line = [], ""
    for name in DATABASES:  # glibc wraps the list where a name would pass column 72
        if line and len(line) + len(name) > 72:
            lines.append(line.rstrip())
            line = ""
        line += name + " "
    lines.append(line.rstrip())
    return (
        "Usage: getent [OPTION...] database [key ...]\n"
        "Get entries from administrative database.\n\n"
        "  -i, --no-idn               disable IDN encoding\n"
        "  -s, --service=CONFIG       Service configuration to be used\n"
        "  -?, --help                 Give this help list\n"
        "      --usage                Give a short usage message\n"
        "  -V, --version              Print program version\n\n"
        "Mandatory or optional arguments to long options are also mandatory or optional\n"
        "for any corresponding short options.\n\n"
        "Supported databases:\n" + "\n".join(lines) + "\n\n"
        "For bug reporting instructions, please see:\n"
        "<https://bugs.launchpad.net/ubuntu/+source/glibc/+bugs>.\n"
    )


def _bad_option(ctx: CommandContext, message: str) -> _Stop:
    ctx.error(message)
    ctx.err(TRY)
    return _Stop(64)


def _option(ctx: CommandContext, arg: str) -> None:
    """Act on one option argument (argp: long names may be abbreviated)."""
    if arg.startswith("--"):
        name = arg[2:].partition("=")[0]
        matches = [o for o in _LONG if o.startswith(name)] if name else []
        if name not in _LONG and len(matches) != 1:
            raise _bad_option(ctx, f"unrecognized option '{arg}'")
        letters = {"help": "?", "no-idn": "i", "service": "s", "usage": "usage", "version": "V"}
        keys = [letters[name if name in _LONG else matches[0]]]
    else:
        keys = list(arg[1:])
    for key in keys:
        if key == "?":
            ctx.out(_help())
            raise _Stop(0)
        if key == "V":
            ctx.out(VERSION)
            raise _Stop(0)
        if key in ("s", "usage"):
            ctx.error(f"option {'--usage' if key == 'usage' else '-s/--service'} is not supported here")
            raise _Stop(1)
        if key != "i":
            raise _bad_option(ctx, f"invalid option -- '{key}'")


def _operands(ctx: CommandContext) -> list[str]:
    """The database and keys; options may come anywhere before ``--`` (argp permutes)."""
    operands: list[str] = []
    args = ctx.args
    for i, arg in enumerate(args):
        if arg == "--":
            return operands + args[i + 1:]
        if arg.startswith("-") and arg != "-":
            _option(ctx, arg)
        else:
            operands.append(arg)
    return operands


# -- hosts ---------------------------------------------------------------------------

def _hosts_lines(ctx: CommandContext) -> list[tuple[IPAddress, tuple[str, ...]]]:
    """``/etc/hosts`` as glibc's files module reads it: address, then names."""
    try:
        text = ctx.machine.fs.read_path(HOSTS).decode("utf-8", "replace")
    except FsError:
        return []
    entries = []
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) < 2:
            continue
        try:
            entries.append((ipaddress.ip_address(fields[0]), tuple(fields[1:])))
        except ValueError:
            continue
    return entries


def _as_v4(address: IPAddress) -> str | None:
    """An entry's address as an IPv4 lookup reads it (``::1`` is ``127.0.0.1``)."""
    if address.version == 4:
        return str(address)
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return "127.0.0.1" if address.is_loopback else None


def _as_v6(address: IPAddress) -> str | None:
    return str(address) if address.version == 6 else None


def _files_by_name(ctx: CommandContext, name: str, view: Callable[[IPAddress], str | None]) -> Entry | None:
    wanted = name.lower()
    for address, names in _hosts_lines(ctx):
        shown = view(address)
        if shown is not None and wanted in (n.lower() for n in names):
            return shown, names
    return None


def _files_by_address(ctx: CommandContext, key: IPAddress) -> Entry | None:
    view = _as_v4 if key.version == 4 else _as_v6
    for address, names in _hosts_lines(ctx):
        if view(address) == str(key):
            return str(key), names
    return None


def _dns(ctx: CommandContext, name: str) -> Entry | None:
    if ctx.machine.net is None:
        return None
    try:
        found = ctx.machine.net.lookup(name)
    except NetFailure:
        return None
    chain = (name.rstrip("."), *found.aliases[1:])
    return found.address, (chain[-1], *chain[:-1])


def _host(ctx: CommandContext, key: str) -> Entry | None:
    """glibc ``getent hosts``: by address, else IPv6 then IPv4 (files before DNS)."""
    try:
        return _files_by_address(ctx, ipaddress.ip_address(key))
    except ValueError:
        pass
    return _files_by_name(ctx, key, _as_v6) or _files_by_name(ctx, key, _as_v4) or _dns(ctx, key)


def _addrinfo(ctx: CommandContext, key: str) -> Entry | None:
    """glibc ``getaddrinfo`` for IPv4: an address names itself."""
    try:
        address = ipaddress.ip_address(key)
    except ValueError:
        return _files_by_name(ctx, key, _as_v4) or _dns(ctx, key)
    return (str(address), (key,)) if address.version == 4 else None


def _print_host(ctx: CommandContext, entry: Entry) -> None:
    ctx.out(f"{entry[0]:<15} {' '.join(entry[1])}\n")


def _print_addrinfo(ctx: CommandContext, entry: Entry) -> None:
    ctx.out(f"{entry[0]:<15} {'STREAM':<6} {entry[1][0]}\n")
    ctx.out(f"{entry[0]:<15} {'DGRAM':<6} \n{entry[0]:<15} {'RAW':<6} \n")


def _hosts_db(ctx: CommandContext, keys: list[str], ahosts: bool) -> int:
    if not keys:  # gethostent: the files module, read for IPv4
        for address, names in _hosts_lines(ctx):
            shown = _as_v4(address)
            if shown is not None:
                _print_host(ctx, (shown, names))
        return 0
    status = 0
    for key in keys:
        entry = _addrinfo(ctx, key) if ahosts else _host(ctx, key)
        if entry is None:
            status = 2
        elif ahosts:
            _print_addrinfo(ctx, entry)
        else:
            _print_host(ctx, entry)
    return status


# -- passwd and group ----------------------------------------------------------------

def _records(ctx: CommandContext, path: str, fields: int, numeric: int) -> list[list[str]]:
    """The well-formed lines of ``path``, split into ``fields`` (field ``numeric`` an id)."""
    try:
        text = ctx.machine.fs.read_path(path).decode("utf-8", "replace")
    except FsError:
        return []
    records = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(":", fields - 1)
        if len(parts) == fields and parts[numeric].isascii() and parts[numeric].isdigit():
            parts[numeric] = str(int(parts[numeric]))
            records.append(parts)
    return records


def _id_db(ctx: CommandContext, keys: list[str], path: str, fields: int, numeric: int) -> int:
    records = _records(ctx, path, fields, numeric)
    if not keys:
        ctx.out("".join(":".join(r) + "\n" for r in records))
        return 0
    status = 0
    for key in keys:
        by_id = key.isascii() and key.isdigit()
        column, wanted = (numeric, str(int(key))) if by_id else (0, key)
        match = next((r for r in records if r[column] == wanted), None)
        if match is None:
            status = 2
        else:
            ctx.out(":".join(match) + "\n")
    return status


def _dispatch(ctx: CommandContext, database: str, keys: list[str]) -> int:
    if database in ("hosts", "ahosts", "ahostsv4"):
        return _hosts_db(ctx, keys, database != "hosts")
    if database == "passwd":
        return _id_db(ctx, keys, "/etc/passwd", 7, 2)
    if database == "group":
        return _id_db(ctx, keys, "/etc/group", 4, 2)
    if database in DATABASES:
        ctx.error(f"the {database} database is not supported here; supported: {' '.join(SUPPORTED)}")
        return 1
    ctx.err(f"Unknown database: {database}\n")
    ctx.out(TRY)
    return 1


@command("getent")
def getent(ctx: CommandContext) -> int:
    try:
        operands = _operands(ctx)
    except _Stop as stop:
        return stop.status
    if not operands:
        ctx.error("wrong number of arguments")
        ctx.out(TRY)
        return 1
    return _dispatch(ctx, operands[0], operands[1:])
