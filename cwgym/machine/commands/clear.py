"""``clear``: clear the terminal.

The terminal is an xterm (``TERM=xterm-256color``), so ``clear`` writes what ncurses'
``clear`` writes there: home, erase display, erase scrollback (``\\e[H\\e[2J\\e[3J``);
``-x`` leaves the scrollback (``\\e[H\\e[2J``). ``TERM`` is not consulted.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext

CLEAR = "\x1b[H\x1b[2J\x1b[3J"
CLEAR_KEEP_SCROLLBACK = "\x1b[H\x1b[2J"


@command("clear")
def clear(ctx: CommandContext) -> int:
    keep = False
    args = list(ctx.args)
    while args:
        arg = args.pop(0)
        if arg == "-x":
            keep = True
        elif arg == "-T" and args:
            args.pop(0)
        elif arg.startswith("-T") and len(arg) > 2:
            continue
        elif arg == "-V":
            ctx.out("ncurses 6.4.20240113\n")
            return 0
        else:
            ctx.err(
                "Usage: clear [options]\n\nOptions:\n  -T TERM     use this instead of $TERM\n  -V          print curses-version\n  -x          do not try to clear scrollback\n"
            )
            return 1
    ctx.out(CLEAR_KEEP_SCROLLBACK if keep else CLEAR)
    return 0
