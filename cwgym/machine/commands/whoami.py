"""``whoami``: the name of the user the shell runs as."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, usage_error
from cwgym.machine.context import CommandContext
from cwgym.machine.users import user_name


@command("whoami")
def whoami(ctx: CommandContext) -> int:
    _, operands = ctx.options(gnu_spec())
    if operands:
        return usage_error(ctx, f"extra operand {q(operands[0])}")
    ctx.out(user_name(ctx.machine.cred.uid, ctx.machine.users) + "\n")
    return 0
