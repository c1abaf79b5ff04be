"""``host``: look a name up in the world's DNS, as bind9's ``host`` (package ``bind9-host``).

``host NAME`` prints each CNAME link the answer follows (``NAME is an alias for TARGET.``)
and then ``CANONICAL has address A``. ``host ADDRESS`` asks for the reverse (PTR) name; the
world has no PTR records, so it prints ``Host D.C.B.A.in-addr.arpa. not found: 3(NXDOMAIN)``.
An unknown name prints ``Host NAME not found: 3(NXDOMAIN)``. Messages go to stdout, the
usage to stderr, as bind9 9.18 (Ubuntu 24.04) does.

Options: ``-t A`` (the only query type the world's DNS answers; any other type is refused,
naming the supported one), ``-4``/``-T``/``-U``/``-w``/``-s`` and ``-W``/``-R``/``-N`` with
their argument (they hold as given: IPv4 is the only transport, the world's DNS answers at
once and has no search list), ``-V`` (the version). ``-6`` is refused: there is no IPv6.
``-v``/``-d``/``-a``/``-A`` (verbose dig-style output), ``-l`` (zone transfer), ``-C``,
``-r``, ``-c``, ``-p``, ``-m``, ``-i`` and a ``SERVER`` operand are refused with a message.

Exit codes: 0 answered, 1 not found, no server reachable, usage or a refused option.

Differs from the real tool: the query goes to the machine's resolver through
:meth:`~cwgym.machine.view.NetPort.lookup`, which reads ``/etc/hosts`` before DNS (as Ubuntu's
``systemd-resolved`` stub at 127.0.0.53 does), so names listed in ``/etc/hosts`` answer as if
DNS held them. The world has no AAAA or MX records, so the default lookup prints only the
A answer; a machine outside a world has no resolver (``;; connection timed out; no servers
could be reached``, exit 1).
"""

from __future__ import annotations

import ipaddress
from itertools import pairwise

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.view import NetFailure

VERSION = "host 9.18.30-0ubuntu0.24.04.2"
USAGE = (
    "Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n"
    "            [-R number] [-m flag] [-p port] hostname [server]\n"
    "       -a is equivalent to -v -t ANY\n"
    "       -A is like -a but omits RRSIG, NSEC, NSEC3\n"
    "       -c specifies query class for non-IN data\n"
    "       -C compares SOA records on authoritative nameservers\n"
    "       -d is equivalent to -v\n"
    "       -l lists all hosts in a domain, using AXFR\n"
    "       -m set memory debugging flag (trace|record|usage)\n"
    "       -N changes the number of dots allowed before root lookup is done\n"
    "       -p specifies the port on the server to query\n"
    "       -r disables recursive processing\n"
    "       -R specifies number of retries for UDP packets\n"
    "       -s a SERVFAIL response should stop query\n"
    "       -t specifies the query type\n"
    "       -T enables TCP/IP mode\n"
    "       -U enables UDP mode\n"
    "       -v enables verbose output\n"
    "       -V print version number and exit\n"
    "       -w specifies to wait forever for a reply\n"
    "       -W specifies how long to wait for a reply\n"
    "       -4 use IPv4 query transport only\n"
    "       -6 use IPv6 query transport only\n"
)
NO_SERVERS = ";; connection timed out; no servers could be reached\n"
#: options that take an argument (bind9's optstring "46aAc:dilnm:rst:vVwCDN:R:TUW:" plus -p)
_WITH_ARG = frozenset("cmtNRWp")
#: Options that hold as given without changing anything here: IPv4 transport (the only
#: one), TCP or UDP, waiting, retries and the next-server rule (the world's DNS answers at
#: once, never fails over), ndots (no search list).
_NO_EFFECT = frozenset("4TUwsWRN")
_REFUSED = {
    "a": "verbose output (-a)", "A": "verbose output (-A)", "v": "verbose output (-v)", "d": "verbose output (-d)",
    "l": "zone transfers (-l)", "C": "SOA comparison (-C)", "r": "non-recursive queries (-r)",
    "c": "query classes (-c)", "p": "querying another port (-p)", "m": "memory debugging (-m)",
    "6": "IPv6 query transport (-6): this world's network has no IPv6",
    "i": "IP6.INT reverse lookups (-i)", "D": "debugging (-D)", "n": "IP6.INT reverse lookups (-n)",
}


class _Usage(Exception):
    """A bad command line: ``message`` (without the ``host: `` prefix) precedes the usage."""

    def __init__(self, message: str = "") -> None:
        self.message = message


def _parse(args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """getopt-style, stopping at the first operand as bind9's parser does."""
    opts: list[tuple[str, str | None]] = []
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        arg = args[i]
        i += 1
        if arg == "--":
            break
        j = 1
        while j < len(arg):
            letter = arg[j]
            j += 1
            if letter not in _WITH_ARG and letter not in _NO_EFFECT and letter not in _REFUSED and letter not in "tV":
                raise _Usage(f"illegal option -- {letter}")
            if letter in _WITH_ARG:
                if j < len(arg):
                    value = arg[j:]
                elif i < len(args):
                    value = args[i]
                    i += 1
                else:
                    raise _Usage(f"option requires an argument -- {letter}")
                opts.append((letter, value))
                break
            opts.append((letter, None))
    return opts, args[i:]


def _check(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> int | None:
    """The exit status when an option ends the command (``-V``, a refused option), else ``None``."""
    for letter, value in opts:
        if letter == "V":
            ctx.err(VERSION + "\n")
            return 0
        if letter in _REFUSED:
            ctx.error(f"{_REFUSED[letter]} is not supported here; only plain A lookups are")
            return 1
        if letter == "t" and (value or "").upper() != "A":
            ctx.error(f"query type {value!r} is not supported here; supported: A")
            return 1
    return None


def _reverse_name(text: str) -> str | None:
    """The ``in-addr.arpa.``/``ip6.arpa.`` name of an address operand, or ``None``."""
    try:
        return ipaddress.ip_address(text).reverse_pointer + "."
    except ValueError:
        return None


def _answer(ctx: CommandContext, name: str) -> int:
    net = ctx.machine.net
    if net is None:
        ctx.out(NO_SERVERS)
        return 1
    reverse = _reverse_name(name)
    if reverse is not None:  # the world holds no PTR records
        ctx.out(f"Host {reverse} not found: 3(NXDOMAIN)\n")
        return 1
    try:
        found = net.lookup(name)
    except NetFailure as exc:
        if exc.code == "unresolved":
            ctx.out(f"Host {name} not found: 3(NXDOMAIN)\n")
        else:
            ctx.out(f"Host {name.rstrip('.')} not found: 2(SERVFAIL)\n")
        return 1
    chain = [name.rstrip("."), *found.aliases[1:]]
    for alias, target in pairwise(chain):
        ctx.out(f"{alias} is an alias for {target}.\n")
    ctx.out(f"{chain[-1]} has address {found.address}\n")
    return 0


@command("host", package="bind9-host")
def host(ctx: CommandContext) -> int:
    try:
        opts, operands = _parse(ctx.args)
    except _Usage as bad:
        ctx.error(bad.message)
        ctx.err(USAGE)
        return 1
    status = _check(ctx, opts)
    if status is not None:
        return status
    if not operands:
        ctx.err(USAGE)
        return 1
    if len(operands) > 1:
        ctx.error("asking a named server is not supported here; the machine's resolver answers")
        return 1
    return _answer(ctx, operands[0])
