"""``unexpand`` (GNU coreutils): blanks to tabs. Leading blanks only by default; ``-a``
(implied by ``-t``) converts every run of two or more blanks ending at a tab stop;
``--first-only`` undoes ``-a``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import emit, read_operand, text
from cwgym.machine.commands.expand import next_stop, parse_tabs
from cwgym.machine.context import CommandContext

SPEC = OptionSpec(
    short="at:",
    long={"all": "a", "tabs=": "t", "first-only": "first-only"},
    numeric="t",
)


def _is_stop(column: int, stops: list[int]) -> bool:
    if len(stops) == 1:
        return column % stops[0] == 0
    return column in stops


def unexpand_line(line: str, stops: list[int], everywhere: bool) -> str:
    out: list[str] = []
    column = 0
    pending = 0
    converting = True
    last_stop = stops[-1] if len(stops) > 1 else None
    for ch in line:
        if converting and ch == " " and (last_stop is None or column < last_stop):
            pending += 1
            column += 1
            if _is_stop(column, stops):
                out.append("\t" if pending > 1 else " ")
                pending = 0
            continue
        if converting and ch == "\t":
            column = next_stop(column, stops)
            pending = 0
            out.append("\t")
            continue
        out.append(" " * pending)
        pending = 0
        out.append(ch)
        if ch == "\b":
            column = max(column - 1, 0)
        elif ch != "\n":
            column += 1
        if ch == "\n":
            column = 0
            converting = True
            continue
        if not everywhere:
            converting = False
    out.append(" " * pending)
    return "".join(out)


@command("unexpand")
def unexpand(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    stops = [8]
    everywhere = False
    first_only = False
    for key, value in opts:
        if key == "a":
            everywhere = True
        elif key == "t":
            stops = parse_tabs(ctx, value or "")
            everywhere = True
        elif key == "first-only":
            first_only = True
    if first_only:
        everywhere = False
    status = 0
    out: list[str] = []
    for operand in operands or ["-"]:
        data = read_operand(ctx, operand)
        if data is None:
            status = 1
            continue
        out.extend(unexpand_line(line, stops, everywhere) for line in text(data).splitlines(keepends=True))
    emit(ctx, "".join(out))
    return status
