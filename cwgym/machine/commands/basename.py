"""``basename``: strip directory and suffix from file names (GNU coreutils)."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import base_name, gnu_spec, q
from cwgym.machine.context import CommandContext

SPEC = gnu_spec("as:z", {"multiple": "a", "suffix=": "s", "zero": "z"})


def _strip(name: str, suffix: str) -> str:
    if suffix and name != suffix and name.endswith(suffix):
        return name[: -len(suffix)]
    return name


@command("basename")
def basename(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    multiple = False
    suffix = ""
    end = "\n"
    for key, value in opts:
        if key == "a":
            multiple = True
        elif key == "s":
            multiple = True
            suffix = value or ""
        elif key == "z":
            end = "\0"
    if not operands:
        ctx.error("missing operand")
        ctx.err("Try 'basename --help' for more information.\n")
        return 1
    if not multiple:
        if len(operands) > 2:
            ctx.error(f"extra operand {q(operands[2])}")
            ctx.err("Try 'basename --help' for more information.\n")
            return 1
        if len(operands) == 2:
            suffix = operands[1]
        operands = operands[:1]
    for name in operands:
        ctx.out(_strip(base_name(name), suffix) + end)
    return 0
