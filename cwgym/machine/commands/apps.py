"""``apps``: the applications installed on this machine (``application.v1 list`` ids),
sorted, one per line."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import q
from cwgym.machine.context import CommandContext


@command("apps")
def apps(ctx: CommandContext) -> int:
    if ctx.args:
        arg = ctx.args[0]
        if arg.startswith("-") and arg != "-":
            ctx.error(f"unrecognized option {q(arg)}")
        else:
            ctx.error(f"extra operand {q(arg)}")
        ctx.err("Usage: apps\n")
        return 2
    for name in sorted(set(ctx.machine.installed_apps), key=lambda n: n.encode()):
        ctx.out(name + "\n")
    return 0
