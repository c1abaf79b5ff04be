"""``dirname``: strip the last component from file names (GNU coreutils)."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import dir_name, gnu_spec
from cwgym.machine.context import CommandContext

SPEC = gnu_spec("z", {"zero": "z"})


@command("dirname")
def dirname(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    end = "\0" if any(key == "z" for key, _ in opts) else "\n"
    if not operands:
        ctx.error("missing operand")
        ctx.err("Try 'dirname --help' for more information.\n")
        return 1
    for name in operands:
        ctx.out(dir_name(name) + end)
    return 0
