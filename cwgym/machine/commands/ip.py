"""``ip``: show the machine's interfaces, addresses and routes, as iproute2's ``ip`` (6.1).

Every machine has two interfaces: ``lo`` (``127.0.0.1/8`` and ``::1/128``) and ``eth0``,
holding the computer's address with a /24 prefix (the world gives addresses, not prefixes;
/24 is what a small office's DHCP hands out). ``eth0``'s MAC address is ``52:54:00:`` and
the first three bytes of the SHA-256 of the computer id, so it never changes. The address
is a DHCP lease as NetworkManager keeps it on Ubuntu (``dynamic noprefixroute``): a
one-day lease renewed every twelve hours of logical time, so ``valid_lft`` counts down with
the world's clock. The gateway is the ``.1`` of the /24.

Supported:

* ``ip [-4|-6] [-br] address [show|list] [[dev] IFNAME] [up]`` (``ip a``, ``ip addr``):
  the full ``1: lo: <LOOPBACK,UP,LOWER_UP> ...`` blocks, or with ``-br``/``-brief`` one line
  per interface (name in 16 columns, state in 14, each address followed by a space).
* ``ip [-br] link [show|list] [[dev] IFNAME]``: the link blocks, or ``-br`` lines with the
  MAC and flags.
* ``ip [-4|-6] route [show|list]``: the default route via the gateway and the /24's link
  route (``-6``: the ``::1`` route); ``ip route get ADDRESS``: the route one IPv4 address
  takes.
* ``-f``/``-family inet|inet6``, ``-c``/``-color`` (never coloured: no terminal),
  ``-h``/``-human``, ``-iec``, ``-N``, ``-force`` (no effect on what is shown here),
  ``-V`` (the version), ``-help`` and ``ip help`` (the usage on stderr, exit 255).

Changing anything (``add``, ``del``, ``set``, ...) fails as for a user who is not root:
``RTNETLINK answers: Operation not permitted``, exit 2 (nothing here runs as root). Other
objects iproute2 knows (``neigh``, ``rule``, ...), the options ``-s``, ``-d``, ``-j``,
``-o``, ``-t``, ``-n``, ... and filters other than a device are refused with a message,
exit 1. Unknown objects, options and commands get iproute2's messages
(``Object "foo" is unknown, try "ip help".`` exit 1; ``Option "-x" is unknown, try
"ip -help".`` and ``Command "x" is unknown, try "ip address help".`` exit 255).

Differs from the real tool: the world has no IPv6 beyond loopback, so ``eth0`` carries no
``fe80::`` link-local address; there are no ``altname`` lines, no neighbours and no
statistics.
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass
from typing import NamedTuple

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext

PREFIX = 24
LEASE_S = 86_400
RENEW_S = LEASE_S // 2
VERSION = "ip utility, iproute2-6.1.0, libbpf 1.3.0\n"
USAGE = (
    "Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n"
    "       ip [ -force ] -batch filename\n"
    "where  OBJECT := { address | addrlabel | amt | fou | help | ila | ioam | l2tp |\n"
    "                   link | macsec | maddress | monitor | mptcp | mroute | mrule |\n"
    "                   neighbor | neighbour | netconf | netns | nexthop | ntable |\n"
    "                   ntbl | route | rule | sr | tap | tcpmetrics |\n"
    "                   token | tunnel | tuntap | vrf | xfrm }\n"
    "       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[esolve] |\n"
    "                    -h[uman-readable] | -iec | -j[son] | -p[retty] |\n"
    "                    -f[amily] { inet | inet6 | mpls | bridge | link } |\n"
    "                    -4 | -6 | -M | -B | -0 |\n"
    "                    -l[oops] { maximum-addr-flush-attempts } | -br[ief] |\n"
    "                    -o[neline] | -t[imestamp] | -ts[hort] | -b[atch] [filename] |\n"
    "                    -rc[vbuf] [size] | -n[etns] name | -N[umeric] | -a[ll] |\n"
    "                    -c[olor]}\n"
)
#: ip.c's objects, in its order (a prefix picks the first it matches)
OBJECTS = ("address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl", "link",
           "l2tp", "fou", "ila", "macsec", "tunnel", "tunl", "tuntap", "tap", "token", "tcpmetrics", "tcp_metrics",
           "monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr", "nexthop", "mptcp", "ioam", "help",
           "stats")
#: ip.c's global options, in its order: (name, exact match only, takes an argument, action)
OPTIONS = (
    ("-loops", False, True, "refuse"), ("-family", False, True, "family"), ("-4", True, False, "inet"),
    ("-6", True, False, "inet6"), ("-0", True, False, "refuse"), ("-M", True, False, "refuse"),
    ("-B", True, False, "refuse"), ("-human", False, False, "ok"), ("-human-readable", False, False, "ok"),
    ("-iec", False, False, "ok"), ("-stats", False, False, "refuse"), ("-statistics", False, False, "refuse"),
    ("-details", False, False, "refuse"), ("-resolve", False, False, "refuse"), ("-oneline", False, False, "refuse"),
    ("-timestamp", False, False, "refuse"), ("-tshort", False, False, "refuse"), ("-Version", False, False, "version"),
    ("-force", False, False, "ok"), ("-batch", False, True, "refuse"), ("-rcvbuf", False, True, "refuse"),
    ("-color", False, False, "color"), ("-help", False, False, "usage"), ("-netns", False, True, "refuse"),
    ("-Numeric", False, False, "ok"), ("-all", False, False, "refuse"), ("-json", False, False, "refuse"),
    ("-pretty", False, False, "refuse"), ("-brief", False, False, "brief"), ("-echo", False, False, "refuse"),
)
DENIED = "RTNETLINK answers: Operation not permitted\n"


class _Exit(Exception):
    """End the command with ``status`` (its messages are already written)."""

    def __init__(self, status: int) -> None:
        self.status = status


@dataclass
class Settings:
    brief: bool = False
    family: str | None = None  # "inet", "inet6" or None (both)


class Address(NamedTuple):
    family: str
    cidr: str
    brd: str | None
    scope: str
    flags: str
    label: str
    lifetime: str


class Interface(NamedTuple):
    index: int
    name: str
    flags: str
    mtu: int
    qdisc: str
    state: str
    kind: str
    mac: str
    brd: str
    addresses: tuple[Address, ...]


def _matches(word: str, name: str) -> bool:
    """iproute2 ``matches()``: ``word`` is a non-empty prefix of ``name``."""
    return bool(word) and name.startswith(word)


# -- the machine's network ---------------------------------------------------------------

def _mac(machine_id: str) -> str:
    digest = hashlib.sha256(machine_id.encode("utf-8")).digest()
    return "52:54:00:" + ":".join(f"{b:02x}" for b in digest[:3])


def _network(ctx: CommandContext) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    return ipaddress.ip_interface(f"{ctx.machine.computer.address}/{PREFIX}")


def _gateway(ctx: CommandContext) -> str:
    return str(_network(ctx).network.network_address + 1)


def _interfaces(ctx: CommandContext) -> tuple[Interface, ...]:
    lease = f"{LEASE_S - (ctx.machine.clock.now_us // 1_000_000) % RENEW_S}sec"
    net = _network(ctx)
    lo = Interface(1, "lo", "LOOPBACK,UP,LOWER_UP", 65536, "noqueue", "UNKNOWN", "loopback", "00:00:00:00:00:00",
                   "00:00:00:00:00:00", (Address("inet", "127.0.0.1/8", None, "host", "", "lo", "forever"),
                                         Address("inet6", "::1/128", None, "host", "noprefixroute", "", "forever")))
    family = "inet" if net.version == 4 else "inet6"
    eth0 = Interface(2, "eth0", "BROADCAST,MULTICAST,UP,LOWER_UP", 1500, "fq_codel", "UP", "ether",
                     _mac(ctx.machine.id), "ff:ff:ff:ff:ff:ff",
                     (Address(family, str(net), str(net.network.broadcast_address), "global", "dynamic noprefixroute",
                              "eth0", lease),))
    return lo, eth0


# -- output ----------------------------------------------------------------------------

def _addresses(iface: Interface, settings: Settings) -> tuple[Address, ...]:
    return tuple(a for a in iface.addresses if settings.family in (None, a.family))


def _link_lines(iface: Interface, settings: Settings, *, link: bool) -> str:
    mode = "mode DEFAULT " if link else ""
    text = (f"{iface.index}: {iface.name}: <{iface.flags}> mtu {iface.mtu} qdisc {iface.qdisc} "
            f"state {iface.state} {mode}group default qlen 1000\n")
    if settings.family is None:
        text += f"    link/{iface.kind} {iface.mac} brd {iface.brd}\n"
    return text


def _address_lines(address: Address) -> str:
    brd = f"brd {address.brd} " if address.brd else ""
    flags = f"{address.flags} " if address.flags else ""
    return (f"    {address.family} {address.cidr} {brd}scope {address.scope} {flags}{address.label}\n"
            f"       valid_lft {address.lifetime} preferred_lft {address.lifetime}\n")


def _show_addresses(ctx: CommandContext, ifaces: tuple[Interface, ...], settings: Settings) -> None:
    for iface in ifaces:
        shown = _addresses(iface, settings)
        if iface.addresses and not shown:
            continue  # iproute2 drops a link none of whose addresses pass the family filter
        if settings.brief:
            ctx.out(f"{iface.name:<16} {iface.state:<14} " + "".join(f"{a.cidr} " for a in shown) + "\n")
        else:
            ctx.out(_link_lines(iface, settings, link=False) + "".join(_address_lines(a) for a in shown))


def _show_links(ctx: CommandContext, ifaces: tuple[Interface, ...], settings: Settings) -> None:
    for iface in ifaces:
        if settings.brief:
            ctx.out(f"{iface.name:<16} {iface.state:<14} {iface.mac} <{iface.flags}> \n")
        else:
            ctx.out(_link_lines(iface, settings, link=True))


def _routes(ctx: CommandContext, settings: Settings) -> str:
    if settings.family == "inet6":
        return "::1 dev lo proto kernel metric 256 pref medium \n"
    net, gateway = _network(ctx), _gateway(ctx)
    return (f"default via {gateway} dev eth0 proto dhcp src {net.ip} metric 100 \n"
            f"{net.network} dev eth0 proto kernel scope link src {net.ip} metric 100 \n")


def _route_get(ctx: CommandContext, args: list[str]) -> int:
    words = args[1:] if args and args[0] == "to" else args
    if len(words) != 1:
        ctx.error("only \"ip route get ADDRESS\" is supported here")
        return 1
    try:
        target = ipaddress.ip_address(words[0])
    except ValueError:
        ctx.err(f"Error: any valid prefix is expected rather than \"{words[0]}\".\n")
        return 1
    if target.version != 4:
        ctx.error("IPv6 route lookups are not supported here; the world has no IPv6 routes")
        return 1
    net, uid = _network(ctx), ctx.machine.cred.uid
    if target.is_loopback or target == net.ip:
        src = "127.0.0.1" if target.is_loopback else str(net.ip)
        ctx.out(f"local {target} dev lo src {src} uid {uid} \n    cache <local> \n")
    elif target in net.network:
        ctx.out(f"{target} dev eth0 src {net.ip} uid {uid} \n    cache \n")
    else:
        ctx.out(f"{target} via {_gateway(ctx)} dev eth0 src {net.ip} uid {uid} \n    cache \n")
    return 0


# -- command lines ---------------------------------------------------------------------

def _global_option(ctx: CommandContext, opt: str) -> tuple[str, bool]:
    """The action ``opt`` names and whether it takes an argument; exits for an unknown one."""
    word = opt[1:] if opt.startswith("--") else opt
    name = word.partition("=")[0] if _matches(word.partition("=")[0], "-color") else word
    for full, exact, takes, action in OPTIONS:
        if (name == full) if exact else _matches(name, full):
            return (f"{action}={word.partition('=')[2]}" if action == "color" else action), takes
    ctx.err(f"Option \"{word}\" is unknown, try \"ip -help\".\n")
    raise _Exit(255)


def _apply(ctx: CommandContext, opt: str, action: str, value: str | None, settings: Settings) -> None:
    """Set what ``opt`` asks for in ``settings``; exits for usage, version or a refusal."""
    if action == "usage":
        ctx.err(USAGE)
        raise _Exit(255)
    if action == "version":
        ctx.out(VERSION)
        raise _Exit(0)
    if action == "family" and value not in ("inet", "inet6"):
        ctx.error(f"family \"{value}\" is not supported here; supported: inet, inet6")
        raise _Exit(1)
    if action in ("inet", "inet6", "family"):
        settings.family = value if action == "family" else action
    elif action == "brief":
        settings.brief = True
    elif action == "color=always":
        ctx.error("colour output is not supported here")
        raise _Exit(1)
    elif action == "refuse":
        ctx.error(f"option \"{opt}\" is not supported here")
        raise _Exit(1)


def _options(ctx: CommandContext) -> tuple[Settings, list[str]]:
    settings, args = Settings(), list(ctx.args)
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt == "--":
            break
        action, takes = _global_option(ctx, opt)
        value = None
        if takes:
            if not args:
                ctx.err(USAGE)
                raise _Exit(255)
            value = args.pop(0)
        _apply(ctx, opt, action, value, settings)
    return settings, args


def _pick(word: str, names: tuple[str, ...]) -> str | None:
    return next((n for n in names if _matches(word, n)), None)


def _device_filter(ctx: CommandContext, args: list[str], ifaces: tuple[Interface, ...], obj: str) -> tuple[Interface, ...]:
    """``[dev] IFNAME`` and ``up`` of a ``show``; anything else is refused."""
    device = None
    words = list(args)
    while words:
        word = words.pop(0)
        if word == "up":
            continue
        if word == "dev":
            if not words:
                ctx.err("Command line is not complete. Try option \"help\"\n")
                raise _Exit(255)
            word = words.pop(0)
        elif word in ("scope", "to", "label", "master", "type", "vrf", "group", "primary", "secondary",
                      "dynamic", "permanent", "tentative", "deprecated", "dadfailed", "temporary", "nomaster"):
            ctx.error(f"the \"{word}\" filter of \"ip {obj} show\" is not supported here; use [dev] IFNAME")
            raise _Exit(1)
        device = word
    if device is None:
        return ifaces
    chosen = tuple(i for i in ifaces if i.name == device)
    if not chosen:
        ctx.err(f"Device \"{device}\" does not exist.\n")
        raise _Exit(1)
    return chosen


_CHANGES = {"address": ("add", "change", "chg", "replace", "delete"),
            "link": ("add", "set", "change", "replace", "delete"),
            "route": ("add", "change", "chg", "replace", "prepend", "append", "delete")}
_COMMANDS = {"address": ("add", "change", "chg", "replace", "delete", "list", "show", "lst", "flush", "save",
                         "showdump", "restore", "help"),
             "link": ("add", "set", "change", "replace", "delete", "show", "lst", "list", "xstats", "afstats",
                      "property", "help"),
             "route": ("add", "change", "chg", "replace", "prepend", "append", "test", "delete", "list", "show",
                       "lst", "get", "flush", "save", "restore", "showdump", "help")}


def _subcommand(ctx: CommandContext, obj: str, args: list[str]) -> str:
    """The command word of ``ip OBJECT ...`` (``show`` when there is none)."""
    if not args:
        return "show"
    word = args[0]
    chosen = "chg" if word == "chg" and obj != "link" else _pick(word, _COMMANDS[obj])
    if chosen is None:
        ctx.err(f"Command \"{word}\" is unknown, try \"ip {obj} help\".\n")
        raise _Exit(255)
    return "show" if chosen in ("list", "lst") else chosen


def _run_object(ctx: CommandContext, obj: str, args: list[str], settings: Settings) -> int:
    sub = _subcommand(ctx, obj, args)
    rest = args[1:]
    if sub in _CHANGES[obj]:
        ctx.err(DENIED)
        return 2
    if sub == "get" and obj == "route":
        return _route_get(ctx, rest)
    if sub != "show":
        ctx.error(f"\"ip {obj} {sub}\" is not supported here; supported: show")
        return 1
    if obj == "route":
        if rest:
            ctx.error("filters of \"ip route show\" are not supported here")
            return 1
        ctx.out(_routes(ctx, settings))
        return 0
    ifaces = _device_filter(ctx, rest, _interfaces(ctx), obj)
    (_show_addresses if obj == "address" else _show_links)(ctx, ifaces, settings)
    return 0


@command("ip", package="iproute2")
def ip(ctx: CommandContext) -> int:
    try:
        settings, args = _options(ctx)
        if not args:
            ctx.err(USAGE)
            return 255
        obj = _pick(args[0], OBJECTS)
        if obj is None:
            ctx.err(f"Object \"{args[0]}\" is unknown, try \"ip help\".\n")
            return 1
        if obj == "help":
            ctx.err(USAGE)
            return 255
        if obj not in _COMMANDS:
            ctx.error(f"object \"{obj}\" is not supported here; supported: address, link, route")
            return 1
        return _run_object(ctx, obj, args[1:], settings)
    except _Exit as stop:
        return stop.status
