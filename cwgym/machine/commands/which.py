"""``which``: locate a program on ``$PATH`` (Debian's debianutils ``which``).

The simulator's programs live in ``/usr/bin`` (and, on this merged-/usr system, ``/bin``):
every registered command that is not shell-only is found there, so ``which ls`` prints
``/usr/bin/ls``. Executable files the user has on ``$PATH`` are found too. Shell-only
builtins (``cd``, ``export``...) are not programs and are not found, as with real ``which``.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import executable_file, search_path
from cwgym.machine.context import CommandContext


@command("which")
def which(ctx: CommandContext) -> int:
    args = list(ctx.args)
    all_matches = False
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        for letter in arg[1:]:
            if letter != "a":
                ctx.err(f"Illegal option -{letter}\n")
                ctx.out("Usage: /usr/bin/which [-a] args\n")
                return 2
            all_matches = True
    status = 1 if not args else 0
    for name in args:
        if "/" in name:
            found = [name] if executable_file(ctx, name) else []
        else:
            found = search_path(ctx, name, all_matches=all_matches)
        for path in found:
            ctx.out(path + "\n")
        if not found:
            status = 1
    return status
