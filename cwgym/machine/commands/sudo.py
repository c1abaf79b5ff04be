"""``sudo``: refused, honestly.

The machine's user is not root and has no password the simulator could check, and there is
no terminal to type one into, so ``sudo`` answers as real sudo does when it cannot ask for
a password (``sudo -n``): ``sudo: a password is required``, exit 1. Nothing runs as root.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext

USAGE = (
    "usage: sudo -h | -K | -k | -V\n"
    "usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]\n"
    "usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user] [-u user] [command [arg ...]]\n"
    "usage: sudo [-ABbEHkNnPS] [-r role] [-t type] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] [VAR=value] [-i | -s] [command [arg ...]]\n"
    "usage: sudo -e [-ABkNnS] [-r role] [-t type] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] file ...\n"
)


@command("sudo")
def sudo(ctx: CommandContext) -> int:
    if not ctx.args:
        ctx.err(USAGE)
        return 1
    if ctx.args[0] in ("-k", "-K"):
        return 0
    ctx.error("a password is required")
    return 1
