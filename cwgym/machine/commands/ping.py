"""``ping``: send ICMP echo requests over the world's network and report the replies, as
iputils ``ping`` 20240117 (Ubuntu 24.04) prints them.

Options: ``-c COUNT`` (stop after COUNT probes), ``-i INTERVAL`` (seconds between probes,
1 by default; below 0.002 only for root), ``-W TIMEOUT`` (seconds to wait for a last reply
when none came at all, 10 by default; with replies ping waits twice the slowest round trip,
at least one interval), ``-w DEADLINE`` (stop after DEADLINE seconds), ``-q`` (only the
header and the statistics), ``-n`` (numeric addresses), ``-4`` (no effect: every address
is IPv4), ``-h`` and ``-V``. iputils' other options exit 2 naming the option.

Without ``-c`` or ``-w`` the real ping runs until interrupted; a simulated command cannot
run forever, so that is refused (exit 2) with a line saying to pass ``-c``.

Each probe is one :meth:`~cwgym.machine.view.NetPort.echo` from this machine's node; the
logical clock advances by its round trip, then by the rest of the interval (probes go out
every INTERVAL, never earlier than the previous reply: an echo here is answered before the
next one is sent). A lost probe prints nothing. The name shown is the canonical one the
lookup ended on (the reverse lookup of the world's records gives the same name); a numeric
target is shown as its address. ``time`` in the statistics is from the first probe sent to
the last, as iputils counts it. A destination on this machine's /24 that no node answers
for prints ``From <own address> icmp_seq=N Destination Host Unreachable`` per probe (the
neighbour lookup fails); one the routes or the gateway do not reach is ``ping: connect:
Network is unreachable`` (exit 2), as is every non-loopback address for a machine outside a
world, which still resolves ``/etc/hosts`` and answers on its loopback.

Exit codes are iputils': 0 some reply came, 1 none did (or ``-w`` ended before ``-c``
replies), 2 an error (bad option or interval, unresolved name, no route); a malformed
``-c``/``-w`` number exits 1 as iputils does. No host clock, network or randomness is read:
loss comes from the world's seeded link streams.
"""

from __future__ import annotations

import ipaddress
import math
import re
import struct
from typing import Any

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec, UsageError, parse
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.etc import HOSTS, hosts_address
from cwgym.machine.filesystem import FsError
from cwgym.machine.view import Lookup, NetFailure

__all__ = ["OFFLINE_DNS", "OfflineNet", "Stats", "is_address", "is_loopback", "on_own_lan", "statistics", "trip_time"]

VERSION = "ping from iputils 20240117"
LONG_MAX = 9223372036854775807
INT_MAX = 2147483647
MIN_USER_INTERVAL_MS = 2
DEFAULT_LINGER_MS = 10_000
#: More probes than this in one command line would only burn host time; refused up front.
MAX_PROBES = 100_000
#: glibc's words when no resolver can be asked (a machine outside a world).
OFFLINE_DNS = "Temporary failure in name resolution"

USAGE = """
Usage
  ping [options] <destination>

Options:
  <destination>      DNS name or IP address
  -a                 use audible ping
  -A                 use adaptive ping
  -B                 sticky source address
  -c <count>         stop after <count> replies
  -C                 call connect() syscall on socket creation
  -D                 print timestamps
  -d                 use SO_DEBUG socket option
  -e <identifier>    define identifier for ping session, default is random for
                     SOCK_RAW and kernel defined for SOCK_DGRAM
                     Imply using SOCK_RAW (for IPv4 only for identifier 0)
  -f                 flood ping
  -h                 print help and exit
  -H                 force reverse DNS name resolution (useful for numeric
                     destinations or for -f), override -n
  -I <interface>     either interface name or address
  -i <interval>      seconds between sending each packet
  -L                 suppress loopback of multicast packets
  -l <preload>       send <preload> number of packages while waiting replies
  -m <mark>          tag the packets going out
  -M <pmtud opt>     define path MTU discovery, can be one of <do|dont|want|probe>
  -n                 no reverse DNS name resolution, override -H
  -O                 report outstanding replies
  -p <pattern>       contents of padding byte
  -q                 quiet output
  -Q <tclass>        use quality of service <tclass> bits
  -s <size>          use <size> as number of data bytes to be sent
  -S <size>          use <size> as SO_SNDBUF socket option value
  -t <ttl>           define time to live
  -U                 print user-to-user latency
  -v                 verbose output
  -V                 print version and exit
  -w <deadline>      reply wait <deadline> in seconds
  -W <timeout>       time to wait for response

IPv4 options:
  -4                 use IPv4
  -b                 allow pinging broadcast
  -R                 record route
  -T <timestamp>     define timestamp, can be one of <tsonly|tsandaddr|tsprespec>

IPv6 options:
  -6                 use IPv6
  -F <flowlabel>     define flow label, default is random
  -N <nodeinfo opt>  use IPv6 node info query, try <help> as argument

For more details see ping(8).
"""

SPEC = OptionSpec(
    short="c:i:W:w:qn4hVaAbBCdDe:fHI:l:Lm:M:Op:Q:rRs:S:t:T:UvF:N:6",
    unsupported=[f"-{letter}" for letter in "aAbBCdDefHIlLmMOpQrRsStTUvFN6"],
)
_FLOAT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


# -- the network of a machine outside a world ---------------------------------------------

def is_address(text: str) -> bool:
    """Whether ``text`` is an IP address rather than a name."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def is_loopback(address: str) -> bool:
    """Whether ``address`` is the machine's own loopback (``127.0.0.0/8``, ``::1``)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def on_own_lan(address: str, own: str | None) -> bool:
    """Whether ``address`` is on the /24 of ``own`` (the machine's own address): where a
    host nobody answers for fails the neighbour lookup rather than the routing."""
    try:
        return own is not None and ipaddress.ip_address(address) in ipaddress.ip_network(f"{own}/24", strict=False)
    except ValueError:
        return False


class OfflineNet:
    """What programs on a machine outside a world reach: its ``/etc/hosts`` and its
    loopback, nothing else (every failure is a :class:`NetFailure`)."""

    def __init__(self, machine: Any) -> None:
        self.machine = machine

    def lookup(self, name: str) -> Lookup:
        if is_address(name):
            return Lookup(name, (name,), "address")
        try:
            text = self.machine.fs.read_path(HOSTS).decode("utf-8", "replace")
        except FsError:
            text = ""
        address = hosts_address(text, name)
        if address is None:
            raise NetFailure("unresolved", OFFLINE_DNS)
        return Lookup(address, (name,), "hosts")

    def echo(self, address: str) -> int:
        if is_loopback(address):
            return 0
        raise NetFailure("unreachable", "this machine is on no network")

    def request(self, method: str, url: str, headers: list[tuple[str, str]], body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        host = re.sub(r"(?i)^[a-z][a-z0-9+.-]*://", "", url).split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
        if is_loopback(self.lookup(host).address):
            raise NetFailure("refused", "nothing listens on this machine")
        raise NetFailure("unreachable", "this machine is on no network")


# -- options -------------------------------------------------------------------------------

class _Plan:
    """What one ``ping`` line asks for."""

    __slots__ = ("count", "deadline_ms", "interval_ms", "linger_ms", "numeric", "quiet")

    def __init__(self) -> None:
        self.count: int | None = None
        self.deadline_ms = 0
        self.interval_ms = 1000
        self.linger_ms = DEFAULT_LINGER_MS
        self.numeric = False
        self.quiet = False


def _fail(ctx: CommandContext, message: str, status: int) -> Exit:
    ctx.error(message)
    return Exit(status)


def _integer(ctx: CommandContext, text: str, low: int, high: int) -> int:
    """iputils' ``strtol_or_err``: the whole text a number in ``[low, high]``, else exit 1."""
    match = re.fullmatch(r"\s*([+-]?\d+)", text)
    if match is None:
        raise _fail(ctx, f"invalid argument: '{text}'", 1)
    value = int(match[1])
    if not -LONG_MAX - 1 <= value <= LONG_MAX:
        raise _fail(ctx, f"invalid argument: '{text}': Numerical result out of range", 1)
    if not low <= value <= high:
        raise _fail(ctx, f"invalid argument: '{text}': out of range: {low} <= value <= {high}", 1)
    return value


def _seconds(ctx: CommandContext, text: str, what: str) -> int:
    """iputils' ``ping_strtod`` for ``-i``/``-W``: milliseconds (truncated); trailing
    garbage is warned about, a negative or huge value exits 2 naming ``what``."""
    match = _FLOAT.match(text)
    value = float(match[0]) if match else 0.0
    rest = text[match.end():] if match else text
    if rest:
        ctx.error(f"option argument contains garbage: {rest}")
        ctx.error("this will become fatal error in the future")
    if value < 0 or value > INT_MAX / 1000:
        raise _fail(ctx, f"{what}: {text}", 2)
    return int(value * 1000)


def _parse(ctx: CommandContext) -> tuple[_Plan, list[str]]:
    try:
        options, operands = parse(SPEC, ctx.args)
    except UsageError as exc:
        if exc.unsupported:
            raise _fail(ctx, f"{exc.message} (not modelled by this simulation)", 2) from None
        message = "invalid option -- '-'" if exc.message.startswith(("unrecognized option", "option '--")) else exc.message
        ctx.error(message)
        ctx.err(USAGE)
        raise Exit(2) from None
    plan = _Plan()
    for key, value in options:
        if key == "h":
            ctx.err(USAGE)
            raise Exit(2)
        if key == "V":
            ctx.out(f"{VERSION}\n")
            raise Exit(0)
        if key == "c":
            plan.count = _integer(ctx, value or "", 1, LONG_MAX)
        elif key == "i":
            plan.interval_ms = _seconds(ctx, value or "", "bad timing interval")
        elif key == "W":
            plan.linger_ms = _seconds(ctx, value or "", "bad linger time")
        elif key == "w":
            plan.deadline_ms = _integer(ctx, value or "", 0, INT_MAX) * 1000
        elif key == "q":
            plan.quiet = True
        elif key == "n":
            plan.numeric = True
    return plan, operands


def _check(ctx: CommandContext, plan: _Plan, operands: list[str]) -> None:
    if not operands:
        raise _fail(ctx, "usage error: Destination address required", 2)
    if len(operands) > 1:
        raise _fail(ctx, "routing through intermediate hops (several destinations) is not modelled", 2)
    if plan.count is None and not plan.deadline_ms:
        raise _fail(ctx, "pass -c COUNT (or -w DEADLINE): without either ping runs until interrupted, "
                         "and a simulated command cannot run forever", 2)
    probes = plan.count if plan.count is not None else plan.deadline_ms // max(plan.interval_ms, 1) + 1
    if plan.deadline_ms and plan.count is not None:
        probes = min(probes, plan.deadline_ms // max(plan.interval_ms, 1) + 1)
    if probes > MAX_PROBES:
        raise _fail(ctx, f"more than {MAX_PROBES} probes in one command are not simulated; lower -c or -w", 2)


# -- the run -------------------------------------------------------------------------------

class Stats:
    """What iputils counts: sends, replies, errors, round trips (microseconds)."""

    __slots__ = ("errors", "ewma8", "first_us", "last_us", "rtts", "sent")

    def __init__(self) -> None:
        self.sent = 0
        self.errors = 0
        self.rtts: list[int] = []
        self.first_us = 0
        self.last_us = 0
        self.ewma8 = 0

    def reply(self, rtt: int) -> None:
        self.rtts.append(rtt)
        self.ewma8 = rtt * 8 if not self.ewma8 else self.ewma8 + rtt - self.ewma8 // 8


def trip_time(us: int) -> str:
    """A reply's ``time=`` as iputils prints it: fewer decimals as the round trip grows."""
    if us >= 100000 - 50:
        return f"{(us + 500) // 1000}"
    if us >= 10000 - 5:
        return f"{(us + 50) // 1000}.{((us + 50) % 1000) // 100}"
    if us >= 1000:
        return f"{(us + 5) // 1000}.{((us + 5) % 1000) // 10:02d}"
    return f"{us // 1000}.{us % 1000:03d}"


def _ms(us: int) -> str:
    return f"{us // 1000}.{us % 1000:03d}"


def _loss(sent: int, received: int) -> str:
    """``%g`` of the loss as the C float iputils computes it in."""
    value = struct.unpack("f", struct.pack("f", (sent - received) * 100.0 / sent))[0]
    return f"{value:g}"


def statistics(name: str, stats: Stats, interval_ms: int) -> str:
    elapsed = stats.last_us - stats.first_us
    line = f"{stats.sent} packets transmitted, {len(stats.rtts)} received"
    if stats.errors:
        line += f", +{stats.errors} errors"
    if stats.sent:
        line += f", {_loss(stats.sent, len(stats.rtts))}% packet loss, time {(elapsed + 500) // 1000}ms"
    text = f"\n--- {name} ping statistics ---\n{line}\n"
    tail, comma = "", ""
    if stats.rtts:
        total, tsum = len(stats.rtts), sum(stats.rtts)
        tsum2 = sum(r * r for r in stats.rtts)
        variance = (tsum2 - tsum * tsum // total) // total if tsum < INT_MAX else tsum2 // total - (tsum // total) ** 2
        mdev = math.isqrt(max(variance, 0))
        tail = f"rtt min/avg/max/mdev = {_ms(min(stats.rtts))}/{_ms(tsum // total)}/{_ms(max(stats.rtts))}/{_ms(mdev)} ms"
        comma = ", "
    if stats.rtts and interval_ms == 0 and stats.sent > 1:
        ipg = elapsed // (stats.sent - 1)
        tail += f"{comma}ipg/ewma {ipg // 1000}.{ipg % 1000:03d}/{stats.ewma8 // 8000}.{(stats.ewma8 // 8) % 1000:03d} ms"
    return text + tail + "\n"


def _probe(net: Any, address: str, own: str | None) -> tuple[str, int]:
    """One echo: ``("reply", rtt)``, ``("lost", 0)``, ``("host", 0)`` (no neighbour
    answers) or ``("network", 0)`` (no route, or the gateway refuses)."""
    try:
        return "reply", net.echo(address)
    except NetFailure as exc:
        if exc.code == "lost":
            return "lost", 0
        if exc.code == "unreachable" and on_own_lan(address, own):
            return "host", 0
        return "network", 0


def _run(ctx: CommandContext, net: Any, plan: _Plan, name: str, address: str, shown: str) -> int:
    machine = ctx.machine
    own = getattr(machine.computer, "address", None)
    interval_us = plan.interval_ms * 1000
    stats = Stats()
    header = f"PING {name} ({address}) {'56 data bytes' if ':' in address else '56(84) bytes of data.'}\n"
    if plan.interval_ms < MIN_USER_INTERVAL_MS and machine.cred.uid != 0:
        ctx.out(header)
        raise _fail(ctx, f"cannot flood, minimal interval for user must be >= {MIN_USER_INTERVAL_MS} ms, use -i 0.002 (or higher)", 2)
    stats.first_us = start = machine.clock.now_us
    outcome = _probe(net, address, own)
    if outcome[0] == "network":
        raise _fail(ctx, "connect: Network is unreachable", 2)
    ctx.out(header)
    seq = 1
    while True:
        stats.sent += 1
        stats.last_us = machine.clock.now_us - (outcome[1] if outcome[0] == "reply" else 0)
        _report(ctx, plan, stats, seq, outcome, shown, own)
        if plan.count is not None and seq >= plan.count:
            break
        due = start + seq * interval_us
        if seq >= MAX_PROBES or (plan.deadline_ms and max(due, machine.clock.now_us) >= start + plan.deadline_ms * 1000):
            break
        machine.sleep(max(0, due - machine.clock.now_us))
        seq += 1
        outcome = _probe(net, address, own)
    _linger(ctx, plan, stats, start)
    ctx.out(statistics(name, stats, plan.interval_ms))
    received = len(stats.rtts)
    return 1 if not received or (plan.deadline_ms and plan.count is not None and received < plan.count) else 0


def _report(ctx: CommandContext, plan: _Plan, stats: Stats, seq: int, outcome: tuple[str, int], shown: str, own: str | None) -> None:
    kind, rtt = outcome
    if kind == "reply":
        stats.reply(rtt)
        if not plan.quiet:
            ctx.out(f"64 bytes from {shown}: icmp_seq={seq} ttl=64 time={trip_time(rtt)} ms\n")
    elif kind in ("host", "network"):
        stats.errors += 1
        if not plan.quiet:
            ctx.out(f"From {own} icmp_seq={seq} Destination Host Unreachable\n")


def _linger(ctx: CommandContext, plan: _Plan, stats: Stats, start: int) -> None:
    """Wait as iputils does after the last probe: not at all when every probe is
    accounted for, else twice the slowest reply (at least an interval), or ``-W`` when
    nothing answered; never past ``-w``."""
    machine = ctx.machine
    deadline = start + plan.deadline_ms * 1000 if plan.deadline_ms else None
    if plan.count is None:
        end = deadline or machine.clock.now_us
    elif len(stats.rtts) + stats.errors >= plan.count:
        return
    else:
        send = stats.last_us
        wait = max(2 * max(stats.rtts), plan.interval_ms * 1000) if stats.rtts else plan.linger_ms * 1000
        end = send + wait if deadline is None else min(send + wait, deadline)
    machine.sleep(max(0, end - machine.clock.now_us))


def _target(ctx: CommandContext, net: Any, target: str, numeric: bool) -> tuple[str, str, str]:
    """``(name, address, shown)``: the canonical name for the header and statistics, the
    address, and how a reply names its sender."""
    try:
        found = net.lookup(target)
    except NetFailure as exc:
        raise _fail(ctx, f"{target}: {OFFLINE_DNS if exc.detail == OFFLINE_DNS else 'Name or service not known'}", 2) from None
    if found.source == "address":
        return target, found.address, found.address
    name = found.aliases[-1] if found.aliases else target
    return name, found.address, found.address if numeric else f"{name} ({found.address})"


@command("ping", package="iputils-ping")
def ping(ctx: CommandContext) -> int:
    plan, operands = _parse(ctx)
    _check(ctx, plan, operands)
    net = ctx.machine.net or OfflineNet(ctx.machine)
    name, address, shown = _target(ctx, net, operands[0], plan.numeric)
    return _run(ctx, net, plan, name, address, shown)
