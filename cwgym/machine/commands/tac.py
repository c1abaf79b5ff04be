"""``tac`` (GNU coreutils): files with their lines in reverse order (``-s SEP`` with a
literal separator, ``-b`` separators before). ``-r`` (regex separators) is refused."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, raw
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="bs:",
    long={"before": "b", "separator=": "s"},
    unsupported=("-r", "--regex"),
)


@command("tac")
def tac(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    sep = b"\n"
    before = False
    for key, value in opts:
        if key == "s":
            sep = raw(arg_text(value or ""))
            if not sep:
                ctx.error("separator cannot be empty")
                return 1
        elif key == "b":
            before = True
    status = 0
    for operand in operands or ["-"]:
        try:
            data = ctx.read_input(operand)
        except FsError as exc:
            ctx.error(f"failed to open '{operand}' for reading: {exc.strerror_text}")
            status = 1
            continue
        parts = data.split(sep)
        if before:
            records = [sep + p for p in parts[1:]]
            head = parts[0]
            ctx.out(b"".join(reversed(records)) + head)
        else:
            records = [p + sep for p in parts[:-1]]
            tail = parts[-1]
            ctx.out(tail + b"".join(reversed(records)) if tail else b"".join(reversed(records)))
    return status
