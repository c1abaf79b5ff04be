"""``sleep``: wait on the logical clock (``machine.sleep``), never on the host's.

``sleep NUMBER[SUFFIX]...`` with suffixes ``s`` (default), ``m``, ``h``, ``d`` and
fractions; the intervals add up, rounded up to the clock's microsecond. ``sleep infinity``
would never return and is refused (exit 2).
"""

from __future__ import annotations

import re
from fractions import Fraction

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q
from cwgym.machine.context import CommandContext

_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?([smhd]?)")
_SCALE = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_interval(text: str) -> Fraction | None:
    """Seconds in a GNU ``sleep`` interval, ``None`` when it is not one."""
    match = _NUMBER.fullmatch(text.strip(" \t\n"))
    if match is None:
        return None
    mantissa, exponent, suffix = match.groups()
    value = Fraction(mantissa)
    if exponent:
        value *= Fraction(10) ** int(exponent[1:])
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
    ctx.machine.sleep(-(-micro.numerator // micro.denominator))
    return 0
