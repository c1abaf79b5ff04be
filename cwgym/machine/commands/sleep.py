"""``sleep``: wait on the logical clock (``machine.sleep``), never on the host's.

``sleep NUMBER[SUFFIX]...`` with suffixes ``s`` (default), ``m``, ``h``, ``d`` and
fractions; the intervals add up, rounded up to the clock's microsecond. ``sleep infinity``
would never return and is refused (exit 2), as is an interval that would carry the clock
past its 64-bit range ("interval too long").
"""

from __future__ import annotations

import re
from fractions import Fraction

from cwgym.kernel.clock import MAX_TICK
from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q
from cwgym.machine.context import CommandContext

_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?([smhd]?)")
_SCALE = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
#: Exponents past this are too long (``1e99``) or round to nothing (``1e-99``) anyway; the cap
#: keeps ``1e999999999`` from building a billion-digit number.
_MAX_EXPONENT = 40


def parse_interval(text: str) -> Fraction | None:
    """Seconds in a GNU ``sleep`` interval, ``None`` when it is not one."""
    match = _NUMBER.fullmatch(text.strip(" \t\n"))
    if match is None:
        return None
    mantissa, exponent, suffix = match.groups()
    value = Fraction(mantissa)
    if exponent:
        power = int(exponent[1:])
        if power < -_MAX_EXPONENT:
            return Fraction(0)
        value *= Fraction(10) ** min(power, _MAX_EXPONENT + 1)
    return value * _SCALE[suffix]


@command("sleep")
def sleep(ctx: CommandContext) -> int:
    _, operands = ctx.options(gnu_spec())
    if not operands:
        ctx.error("missing operand")
        ctx.err("Try 'sleep --help' for more information.\n")
        return 1
    total = Fraction(0)
    ok = True
    for text in operands:
        if text.strip().lower().rstrip("smhd") in ("inf", "infinity"):
            ctx.error(f"unsupported interval {q(text)}: the logical clock cannot wait forever")
            return 2
        value = parse_interval(text)
        if value is None:
            ctx.error(f"invalid time interval {q(text)}")
            ok = False
            continue
        total += value
    if not ok:
        ctx.err("Try 'sleep --help' for more information.\n")
        return 1
    micro = total * 1_000_000
    delta = -(-micro.numerator // micro.denominator)
    if ctx.machine.clock.now_us + delta > MAX_TICK:
        ctx.error(f"interval too long: the logical clock ends in {(MAX_TICK - ctx.machine.clock.now_us) // 1_000_000} s")
        return 2
    ctx.machine.sleep(delta)
    return 0
