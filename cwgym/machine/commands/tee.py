"""``tee`` (GNU coreutils): copy standard input to standard output and to files
(``-a`` appends; ``-i`` and ``-p`` are accepted and change nothing here)."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="aip",
    long={"append": "a", "ignore-interrupts": "i", "output-error": "p", "output-error=": "p"},
)


@command("tee")
def tee(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    append = any(k == "a" for k, _ in opts)
    status = 0
    data = ctx.stdin
    for operand in operands:
        if operand in ("-", "/dev/stdout"):
            ctx.out(data)
            continue
        if operand == "/dev/stderr":
            ctx.err(data)
            continue
        try:
            ctx.fs.write(operand, ctx.cwd, data, append=append)
        except FsError as exc:
            ctx.error(f"{operand}: {exc.strerror_text}")
            status = 1
    ctx.out(data)
    return status
