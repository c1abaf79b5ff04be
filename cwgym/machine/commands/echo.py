"""``echo``, as bash's builtin: ``-n``, ``-e``, ``-E`` (only as leading words made of those letters)."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._text import arg_text, emit, expand_escapes
from cwgym.machine.context import CommandContext


@command("echo")
def echo(ctx: CommandContext) -> int:
    args = [arg_text(a) for a in ctx.args]
    newline, escapes = True, False
    while args and len(args[0]) > 1 and args[0][0] == "-" and all(c in "neE" for c in args[0][1:]):
        for c in args.pop(0)[1:]:
            if c == "n":
                newline = False
            else:
                escapes = c == "e"
    body = " ".join(args)
    if escapes:
        body, stopped = expand_escapes(body, "echo")
        if stopped:
            emit(ctx, body)
            return 0
    emit(ctx, body + ("\n" if newline else ""))
    return 0
