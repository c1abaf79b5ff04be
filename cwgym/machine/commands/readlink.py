"""``readlink``: print a symlink's target, or with ``-f``/``-e``/``-m`` a canonical name
(GNU coreutils): ``-f -e -m -n -q -s -v -z``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import canonicalize, gnu_spec, usage_error
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "femnqsvz",
    {
        "canonicalize": "f",
        "canonicalize-existing": "e",
        "canonicalize-missing": "m",
        "no-newline": "n",
        "quiet": "q",
        "silent": "s",
        "verbose": "v",
        "zero": "z",
    },
)


@command("readlink")
def readlink(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    mode: str | None = None
    no_newline = verbose = zero = False
    for key, _ in opts:
        if key in "fem":
            mode = key
        elif key == "n":
            no_newline = True
        elif key in "qs":
            verbose = False
        elif key == "v":
            verbose = True
        elif key == "z":
            zero = True
    if not operands:
        return usage_error(ctx, "missing operand")
    if no_newline and len(operands) > 1:
        ctx.error("ignoring --no-newline with multiple arguments")
        no_newline = False
    end = "\0" if zero else ("" if no_newline else "\n")
    status = 0
    for operand in operands:
        try:
            if mode is None:
                value = ctx.fs.readlink(operand, ctx.cwd)
            else:
                value = canonicalize(ctx, operand, mode)
        except FsError as exc:
            if verbose:
                ctx.error(f"{operand}: {exc.strerror_text}")
            status = 1
            continue
        ctx.out(value + end)
    return status
