"""``nslookup``: query the machine's resolver, as bind9's ``nslookup`` (package ``bind9-dnsutils``).

``nslookup NAME`` prints the server it asked (the first ``nameserver`` of
``/etc/resolv.conf``, 127.0.0.53 on Ubuntu), then ``Non-authoritative answer:``, one
``ALIAS<TAB>canonical name = TARGET.`` line per CNAME link, ``Name:<TAB>CANONICAL`` and
``Address: A``, and a closing blank line. An unknown name prints
``** server can't find NAME: NXDOMAIN`` after the server lines. ``nslookup ADDRESS`` asks
for the PTR name; the world has none, so it prints ``** server can't find
D.C.B.A.in-addr.arpa: NXDOMAIN`` (bind9 prints no server lines for a reverse lookup).

Options (``-option`` before or after the name, prefixes as bind9 matches them):
``-type=A`` (also ``-query=``, ``-querytype=``, ``-q=``, ``-ty=``, ``-qu=``; any type but A is
refused, naming A), ``-class=IN``, ``-timeout=``, ``-retry=``, ``-ndots=``, ``-port=53``,
``-[no]vc``, ``-[no]search``, ``-[no]defname``, ``-recurse``, ``-nodebug``, ``-[no]fail``,
``-silent`` (no effect here), ``-version``. ``-debug``/``-d2``, ``-norecurse``,
``-domain=``, ``-all``, another port and a ``SERVER`` operand are refused; an option bind9
does not know prints ``*** Invalid option: X`` and the lookup goes on, as in bind9.
Interactive mode (no name, or ``-``) is refused.

Exit codes: 0 answered, 1 not found, no server reachable or a refused request.

Differs from the real tool: the answer comes from
:meth:`~cwgym.machine.view.NetPort.lookup`, which reads ``/etc/hosts`` before DNS (as Ubuntu's
``systemd-resolved`` stub does), so names listed in ``/etc/hosts`` answer as if DNS held them.
The world has no AAAA records, so no IPv6 address follows the A answer. A machine outside a
world has no resolver (``;; connection timed out; no servers could be reached``, exit 1).
"""

from __future__ import annotations

import ipaddress
from itertools import pairwise

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.etc import RESOLV_CONF
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import NetFailure

VERSION = "nslookup 9.18.30-0ubuntu0.24.04.2"
NO_SERVERS = ";; connection timed out; no servers could be reached\n"
_TYPE = ("type=", "ty=", "querytype=", "query=", "qu=", "q=")
_CLASS = ("class=", "cl=")
#: bind9's setoption() prefixes, in its order: (prefix, characters compared, what it does)
_OPTIONS = (
    ("domain=", 7, "refuse"), ("do=", 3, "refuse"), ("port=", 5, "port"), ("po=", 3, "port"),
    ("timeout=", 8, "ok"), ("t=", 2, "ok"), ("rec", 3, "ok"), ("norec", 5, "refuse"),
    ("retry=", 6, "ok"), ("ret=", 4, "ok"), ("def", 3, "ok"), ("nodef", 5, "ok"), ("vc", 3, "ok"),
    ("novc", 5, "ok"), ("deb", 3, "refuse"), ("nodeb", 5, "ok"), ("d2", 2, "refuse"), ("nod2", 4, "ok"),
    ("search", 3, "ok"), ("nosearch", 5, "ok"), ("sil", 3, "ok"), ("fail", 3, "ok"), ("nofail", 3, "ok"),
    ("ndots=", 6, "ok"),
)


class _Refused(Exception):
    """A request this world cannot answer: ``message`` says which (``nslookup: `` prefixed)."""


def _matches(opt: str, prefix: str, count: int) -> bool:
    """C ``strncasecmp(opt, prefix, count) == 0`` (the terminating NUL takes part)."""
    return (opt.lower() + "\0")[:count] == (prefix + "\0")[:count]


def _setoption(ctx: CommandContext, opt: str) -> bool:
    """Apply ``-opt``; ``True`` when it asked for an explicit query type."""
    if opt.lower().startswith("all"):
        raise _Refused("showing the settings (-all) is not supported here")
    for prefix in _CLASS:
        if _matches(opt, prefix, len(prefix)):
            if opt[len(prefix):].upper() != "IN":
                raise _Refused(f"query class {opt[len(prefix):]!r} is not supported here; supported: IN")
            return False
    for prefix in _TYPE:
        if _matches(opt, prefix, len(prefix)):
            if opt[len(prefix):].upper() != "A":
                raise _Refused(f"query type {opt[len(prefix):]!r} is not supported here; supported: A")
            return True
    for prefix, count, action in _OPTIONS:
        if _matches(opt, prefix, count):
            if action == "refuse" or (action == "port" and opt.partition("=")[2] != "53"):
                raise _Refused(f"option -{opt} is not supported here")
            return False
    ctx.out(f"*** Invalid option: {opt}\n")
    return False


class _Version(Exception):
    """``-version``: print the version and stop."""


def _parse(ctx: CommandContext) -> tuple[str | None, bool]:
    """``(name, explicit type)``; ``name`` is ``None`` for interactive mode (no name, or ``-``)."""
    name: str | None = None
    typed = interactive = False
    for arg in ctx.args:
        if arg == "-":
            interactive = True
        elif arg.startswith("-"):
            if arg.lower().startswith("-ver"):
                raise _Version
            typed = _setoption(ctx, arg[1:]) or typed
        elif name is None and not interactive:
            name = arg
        else:
            raise _Refused("asking a named server is not supported here; the machine's resolver answers")
    return (None if interactive else name), typed


def _server(ctx: CommandContext) -> str:
    """The first ``nameserver`` of ``/etc/resolv.conf`` (bind9 falls back to 127.0.0.1)."""
    try:
        text = ctx.machine.fs.read_path(RESOLV_CONF).decode("utf-8", "replace")
    except FsError:
        return "127.0.0.1"
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "nameserver":
            return fields[1]
    return "127.0.0.1"


def _header(ctx: CommandContext) -> str:
    server = _server(ctx)
    return f"Server:\t\t{server}\nAddress:\t{server}#53\n\n"


def _lookup(ctx: CommandContext, name: str, typed: bool) -> int:
    try:
        reverse = ipaddress.ip_address(name).reverse_pointer
    except ValueError:
        reverse = None
    if reverse is not None:  # the world holds no PTR records
        ctx.out((_header(ctx) if typed else "") + f"** server can't find {reverse}: NXDOMAIN\n")
        return 1
    ctx.out(_header(ctx))
    try:
        found = ctx.machine.net.lookup(name)  # type: ignore[union-attr]
    except NetFailure as exc:
        rcode = "NXDOMAIN" if exc.code == "unresolved" else "SERVFAIL"
        ctx.out(f"** server can't find {name.rstrip('.')}: {rcode}\n")
        return 1
    chain = [name.rstrip("."), *found.aliases[1:]]
    ctx.out("Non-authoritative answer:\n")
    for alias, target in pairwise(chain):
        ctx.out(f"{alias}\tcanonical name = {target}.\n")
    ctx.out(f"Name:\t{chain[-1]}\nAddress: {found.address}\n")
    return 0


@command("nslookup", package="bind9-dnsutils")
def nslookup(ctx: CommandContext) -> int:
    try:
        name, typed = _parse(ctx)
    except _Version:
        ctx.err(VERSION + "\n")
        return 0
    except _Refused as refused:
        ctx.error(str(refused))
        return 1
    if name is None:
        ctx.error("interactive mode is not supported here; give the name to look up: nslookup NAME")
        return 1
    if ctx.machine.net is None:
        ctx.out(NO_SERVERS + "\n")
        return 1
    status = _lookup(ctx, name, typed)
    ctx.out("\n")  # bind9 ends every run with a blank line
    return status
