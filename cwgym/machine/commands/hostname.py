"""``hostname``: the machine's name (the computer id) and address.

``-s`` short name (up to the first dot), ``-f``/``--fqdn``/``--long`` the full name (the
world has no DNS domain for machines, so it is the name itself), ``-d`` the (empty) domain,
``-i`` and ``-I`` the machine's address. Setting the name needs root.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec
from cwgym.machine.context import CommandContext

SPEC = gnu_spec(
    "sfdiIA",
    {
        "short": "s",
        "fqdn": "f",
        "long": "f",
        "domain": "d",
        "ip-address": "i",
        "all-ip-addresses": "I",
        "all-fqdns": "A",
    },
    unsupported=("-F", "--file", "-y", "--yp", "--nis", "-a", "--alias", "-b", "--boot"),
)


@command("hostname")
def hostname(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    if operands:
        ctx.error("you must be root to change the host name")
        return 1
    name = ctx.machine.hostname
    mode = opts[-1][0] if opts else ""
    if mode == "s":
        ctx.out(name.split(".")[0] + "\n")
    elif mode == "d":
        ctx.out("\n")
    elif mode == "i":
        ctx.out(ctx.machine.computer.address + "\n")
    elif mode == "I":
        ctx.out(ctx.machine.computer.address + " \n")
    elif mode == "A":
        ctx.out(name + " \n")
    else:
        ctx.out(name + "\n")
    return 0
