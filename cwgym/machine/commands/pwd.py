"""``pwd``: print the working directory (bash's builtin: ``-L`` logical, ``-P`` physical)."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError


@command("pwd")
def pwd(ctx: CommandContext) -> int:
    physical = False
    for arg in ctx.args:
        if arg == "--":
            break
        if not arg.startswith("-") or arg == "-":
            break  # bash ignores operands
        for letter in arg[1:]:
            if letter == "L":
                physical = False
            elif letter == "P":
                physical = True
            else:
                ctx.error(f"-{letter}: invalid option")
                ctx.err("pwd: usage: pwd [-LP]\n")
                return 2
    cwd = ctx.cwd
    if physical:
        try:
            cwd = ctx.fs.realpath(cwd, "/")
        except FsError as exc:
            ctx.error(
                f"error retrieving current directory: getcwd: cannot access parent directories: {exc.strerror_text}"
            )
            return 1
    ctx.out(cwd + "\n")
    return 0
