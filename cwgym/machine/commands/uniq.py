"""``uniq`` (GNU coreutils, C locale): ``-c -d -D -u -i -f N -s N -w N -z`` and the
optional OUTPUT operand."""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import lower, raw, text, usage_exit
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="cdDuif:s:w:z",
    long={
        "count": "c",
        "repeated": "d",
        "all-repeated": "D",
        "unique": "u",
        "ignore-case": "i",
        "skip-fields=": "f",
        "skip-chars=": "s",
        "check-chars=": "w",
        "zero-terminated": "z",
    },
    unsupported=("--group",),
)

_FIELD = re.compile(r"[ \t]*[^ \t]*")


def _number(ctx: CommandContext, value: str, what: str) -> int:
    if not value.isdigit():
        ctx.error(f"{value}: invalid number of {what}")
        raise Exit(1)
    return int(value)


@command("uniq")
def uniq(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    count = repeated = unique = icase = all_repeated = False
    skip_fields = skip_chars = 0
    check: int | None = None
    sep = "\n"
    for key, value in opts:
        if key == "c":
            count = True
        elif key == "d":
            repeated = True
        elif key == "D":
            all_repeated = True
        elif key == "u":
            unique = True
        elif key == "i":
            icase = True
        elif key == "f":
            skip_fields = _number(ctx, value or "", "fields to skip")
        elif key == "s":
            skip_chars = _number(ctx, value or "", "bytes to skip")
        elif key == "w":
            check = _number(ctx, value or "", "bytes to compare")
        elif key == "z":
            sep = "\0"
    if len(operands) > 2:
        usage_exit(ctx, f"extra operand '{operands[2]}'")
    if count and all_repeated:
        usage_exit(ctx, "printing all duplicated lines and repeat counts is meaningless")
    source = operands[0] if operands else "-"
    try:
        data = text(ctx.read_input(source))
    except FsError as exc:
        ctx.error(f"{source}: {exc.strerror_text}")
        return 1
    lines = data.split(sep)
    if lines and lines[-1] == "":
        lines.pop()

    def key(line: str) -> str:
        if skip_fields:
            pos = 0
            for _ in range(skip_fields):
                m = _FIELD.match(line, pos)
                pos = m.end() if m else len(line)
            line = line[pos:]
        if skip_chars:
            line = line[skip_chars:]
        if check is not None:
            line = line[:check]
        return lower(line) if icase else line

    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        k = key(lines[i])
        j = i + 1
        while j < n and key(lines[j]) == k:
            j += 1
        size = j - i
        if all_repeated:
            if size > 1:
                out.extend(line + sep for line in lines[i:j])
        elif (size > 1 and not unique) or (size == 1 and not repeated):
            out.append((f"{size:7d} " if count else "") + lines[i] + sep)
        i = j
    result = raw("".join(out))
    if len(operands) == 2 and operands[1] != "-":
        try:
            ctx.fs.write(operands[1], ctx.cwd, result)
        except FsError as exc:
            ctx.error(f"{operands[1]}: {exc.strerror_text}")
            return 1
        return 0
    ctx.out(result)
    return 0
