"""``tail`` (GNU coreutils): ``-n [+]N``, ``-c [+]N``, ``-NUM``, ``-q``, ``-v``, ``-z``.

``-f``/``-F``/``--follow`` are refused (exit 2): nothing in the simulated machine can
grow a file while tail waits.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands.head import parse_count, read_for, split_keep
from cwgym.machine.context import CommandContext

SPEC = OptionSpec(
    short="n:c:qvz",
    long={
        "lines=": "n",
        "bytes=": "c",
        "quiet": "q",
        "silent": "q",
        "verbose": "v",
        "zero-terminated": "z",
    },
    unsupported=("-f", "-F", "--follow", "--retry", "-s", "--sleep-interval", "--pid"),
    numeric="n",
)


@command("tail")
def tail(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    count, unit, sign = 10, "lines", ""
    verbose = None
    sep = b"\n"
    for key, value in opts:
        if key == "n":
            count, sign = parse_count(ctx, value or "", "lines")
            unit = "lines"
        elif key == "c":
            count, sign = parse_count(ctx, value or "", "bytes")
            unit = "bytes"
        elif key == "q":
            verbose = False
        elif key == "v":
            verbose = True
        elif key == "z":
            sep = b"\0"
    files = operands or ["-"]
    show = verbose if verbose is not None else len(files) > 1
    status = 0
    first = True
    for operand in files:
        data = read_for(ctx, operand)
        if data is None:
            status = 1
            continue
        if show:
            name = "standard input" if operand == "-" else operand
            ctx.out(("" if first else "\n") + f"==> {name} <==\n")
        first = False
        if unit == "bytes":
            if sign == "+":
                ctx.out(data[max(count - 1, 0) :])
            else:
                ctx.out(data[max(len(data) - count, 0) :] if count else b"")
        else:
            lines = split_keep(data, sep)
            if sign == "+":
                ctx.out(b"".join(lines[max(count - 1, 0) :]))
            else:
                ctx.out(b"".join(lines[max(len(lines) - count, 0) :]) if count else b"")
    return status
