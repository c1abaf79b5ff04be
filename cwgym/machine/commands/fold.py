"""``fold`` (GNU coreutils, C locale): wrap lines at ``-w`` columns (tabs to the next
multiple of 8, backspace and carriage return as GNU counts them), ``-s`` at blanks,
``-b`` counting bytes."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import emit, read_operand, text
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(short="bsw:", long={"bytes": "b", "spaces": "s", "width=": "w"}, numeric="w")


def _advance(column: int, ch: str, count_bytes: bool) -> int:
    if count_bytes:
        return column + 1
    if ch == "\b":
        return max(column - 1, 0)
    if ch == "\r":
        return 0
    if ch == "\t":
        return column + 8 - column % 8
    return column + 1


def fold_line(line: str, width: int, spaces: bool, count_bytes: bool) -> str:
    out: list[str] = []
    buf: list[str] = []
    column = 0
    for ch in line:
        if ch == "\n":
            out.append("".join(buf) + "\n")
            buf, column = [], 0
            continue
        nxt = _advance(column, ch, count_bytes)
        if nxt > width:
            if spaces:
                blank = max((i for i, c in enumerate(buf) if c in " \t"), default=-1)
                if blank >= 0:
                    out.append("".join(buf[: blank + 1]) + "\n")
                    buf = buf[blank + 1 :]
                    column = 0
                    for c in buf:
                        column = _advance(column, c, count_bytes)
                    nxt = _advance(column, ch, count_bytes)
                    if nxt <= width:
                        buf.append(ch)
                        column = nxt
                        continue
            if buf:
                out.append("".join(buf) + "\n")
            buf, column = [], 0
            nxt = _advance(column, ch, count_bytes)
        buf.append(ch)
        column = nxt
    out.append("".join(buf))
    return "".join(out)


@command("fold")
def fold(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    width, spaces, count_bytes = 80, False, False
    for key, value in opts:
        if key == "w":
            if not (value or "").isdigit():
                ctx.error(f"invalid number of columns: '{value}'")
                raise Exit(1)
            if int(value or "0") == 0:
                ctx.error(f"invalid number of columns: '{value}': Numerical result out of range")
                raise Exit(1)
            width = int(value or "80")
        elif key == "s":
            spaces = True
        elif key == "b":
            count_bytes = True
    status = 0
    for operand in operands or ["-"]:
        try:
            is_dir = operand != "-" and ctx.fs.is_dir(operand, ctx.cwd)
        except Exception:
            is_dir = False
        if is_dir:
            ctx.error(f"{operand}: Is a directory")
            status = 1
            continue
        data = read_operand(ctx, operand)
        if data is None:
            status = 1
            continue
        emit(ctx, fold_line(text(data), width, spaces, count_bytes))
    return status
