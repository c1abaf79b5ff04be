"""``rev`` (util-linux, C locale): reverse the bytes of each line."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(short="", long={})


@command("rev")
def rev(ctx: CommandContext) -> int:
    _opts, operands = ctx.options(SPEC)
    status = 0
    for operand in operands or ["-"]:
        try:
            if operand != "-" and ctx.fs.is_dir(operand, ctx.cwd):
                ctx.error(f"{operand}: 0: Is a directory")
                status = 1
                continue
            data = ctx.read_input(operand)
        except FsError as exc:
            ctx.error(f"cannot open {operand}: {exc.strerror_text}")
            status = 1
            continue
        parts = data.split(b"\n")
        ctx.out(b"\n".join(p[::-1] for p in parts))
    return status
