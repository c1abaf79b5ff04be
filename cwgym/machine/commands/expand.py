"""``expand`` (GNU coreutils): tabs to spaces, ``-t N`` or a tab-stop list, ``-i``."""

from __future__ import annotations

import itertools

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import emit, read_operand, text
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(short="t:i", long={"tabs=": "t", "initial": "i"}, numeric="t")


def parse_tabs(ctx: CommandContext, value: str) -> list[int]:
    stops = []
    for part in value.replace(" ", ",").split(","):
        if not part.isdigit() or int(part) == 0:
            ctx.error(f"tab size contains invalid character(s): '{part}'" if not part.isdigit() else "tab size cannot be 0")
            raise Exit(1)
        stops.append(int(part))
    if any(b <= a for a, b in itertools.pairwise(stops)):
        ctx.error("tab sizes must be ascending")
        raise Exit(1)
    return stops


def next_stop(column: int, stops: list[int]) -> int:
    if len(stops) == 1:
        return column + stops[0] - column % stops[0]
    for stop in stops:
        if stop > column:
            return stop
    return column + 1


@command("expand")
def expand(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    stops = [8]
    initial = False
    for key, value in opts:
        if key == "t":
            stops = parse_tabs(ctx, value or "")
        elif key == "i":
            initial = True
    status = 0
    out: list[str] = []
    for operand in operands or ["-"]:
        data = read_operand(ctx, operand)
        if data is None:
            status = 1
            continue
        for line in text(data).splitlines(keepends=True):
            column = 0
            leading = True
            buf: list[str] = []
            for ch in line:
                if ch == "\t" and (leading or not initial):
                    target = next_stop(column, stops)
                    buf.append(" " * (target - column))
                    column = target
                    continue
                if ch == "\b":
                    column = max(column - 1, 0)
                elif ch not in "\n":
                    column += 1
                if ch not in " \t":
                    leading = False
                buf.append(ch)
            out.append("".join(buf))
    emit(ctx, "".join(out))
    return status
