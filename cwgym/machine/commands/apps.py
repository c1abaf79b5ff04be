"""``apps``: the applications installed on this machine, one id per line, as
``application.v1 list`` names and orders them (aliases resolved, the catalogue's order,
then other ids sorted). A world's web-app aliases, which ``list`` adds beside the browser,
belong to the world rather than the machine and are not printed."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import q
from cwgym.machine.context import CommandContext
from cwgym.protocol.catalogue import CATALOGUE, canonical_id


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
    have = {canonical_id(name) for name in ctx.machine.installed_apps}
    ordered = [a for a in CATALOGUE if a in have] + sorted(have - set(CATALOGUE), key=lambda n: n.encode())
    for name in ordered:
        ctx.out(name + "\n")
    return 0
