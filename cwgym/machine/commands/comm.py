"""``comm`` (GNU coreutils, C locale): lines only in FILE1, only in FILE2, in both;
``-1 -2 -3``, ``--output-delimiter``, ``--total``, ``-z``, order checking."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, two_inputs
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(
    short="123z",
    long={
        "check-order": "check-order",
        "nocheck-order": "nocheck-order",
        "output-delimiter=": "output-delimiter",
        "total": "total",
        "zero-terminated": "z",
    },
)


@command("comm")
def comm(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    hide = set()
    delim = "\t"
    total = False
    check: bool | None = None
    eol = "\n"
    for key, value in opts:
        if key in "123" and len(key) == 1:
            hide.add(int(key))
        elif key == "output-delimiter":
            delim = arg_text(value or "") or "\0"
        elif key == "total":
            total = True
        elif key == "check-order":
            check = True
        elif key == "nocheck-order":
            check = False
        elif key == "z":
            eol = "\0"
    files = two_inputs(ctx, operands, eol)
    if files is None:
        return 1
    a, b = files
    prefix = {1: "", 2: "" if 1 in hide else delim, 3: ""}
    prefix[3] = (delim if 1 not in hide else "") + (delim if 2 not in hide else "")
    out: list[str] = []
    counts = {1: 0, 2: 0, 3: 0}
    disorder = [False, False]
    prev: list[str | None] = [None, None]
    status = 0

    def order(which: int, line: str) -> None:
        nonlocal status
        if prev[which] is not None and line < prev[which] and not disorder[which] and check is not False:  # type: ignore[operator]
            disorder[which] = True
            ctx.stdout += "".join(out).encode("latin-1")
            out.clear()
            ctx.error(f"file {which + 1} is not in sorted order")
            status = 1
            if check is True:
                raise Exit(1)
        prev[which] = line

    def put(column: int, line: str) -> None:
        counts[column] += 1
        if column not in hide:
            out.append(prefix[column] + line + eol)

    i = j = 0
    while i < len(a) or j < len(b):
        if j >= len(b) or (i < len(a) and a[i] < b[j]):
            order(0, a[i])
            put(1, a[i])
            i += 1
        elif i >= len(a) or b[j] < a[i]:
            order(1, b[j])
            put(2, b[j])
            j += 1
        else:
            order(0, a[i])
            order(1, b[j])
            put(3, a[i])
            i += 1
            j += 1
    if total:
        out.append(f"{counts[1]}{delim}{counts[2]}{delim}{counts[3]}{delim}total{eol}")
    emit(ctx, "".join(out))
    if status:
        ctx.error("input is not in sorted order")
    return status
