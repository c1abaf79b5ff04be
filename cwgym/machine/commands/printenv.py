"""``printenv``: print the environment, or the values of the named variables."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec
from cwgym.machine.context import CommandContext

SPEC = gnu_spec("0", {"null": "0"})


@command("printenv")
def printenv(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC, usage_status=2)
    end = "\0" if opts else "\n"
    if not operands:
        for key, value in ctx.env.items():
            ctx.out(f"{key}={value}{end}")
        return 0
    status = 0
    for name in operands:
        if "=" not in name and name in ctx.env:
            ctx.out(ctx.env[name] + end)
        else:
            status = 1
    return status
