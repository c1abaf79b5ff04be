"""``wc`` (GNU coreutils, C locale): ``-l -w -c -m -L``, ``--total``, a total line for
several files and GNU's column width (digits of the files' total size; 7 when reading
standard input, which here always counts as a pipe)."""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="lwcmL",
    long={
        "lines": "l",
        "words": "w",
        "bytes": "c",
        "chars": "m",
        "max-line-length": "L",
    },
    unsupported=("--files0-from",),
)

_WORD = re.compile(rb"[^ \t\n\v\f\r]+")


def _max_line(data: bytes) -> int:
    """The widest line, tabs advancing to the next multiple of 8, unprintables 0 wide."""
    best = 0
    for line in data.split(b"\n"):
        if b"\t" not in line:
            best = max(best, sum(1 for b in line if 32 <= b < 127))
            continue
        width = 0
        for b in line:
            if b == 9:
                width += 8 - width % 8
            elif 32 <= b < 127:
                width += 1
        best = max(best, width)
    return best


@command("wc")
def wc(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    keys = {k for k, _ in opts}
    total_mode = "auto"
    for key, value in opts:
        if key == "total":
            if value not in ("auto", "always", "only", "never"):
                ctx.error(f"invalid argument '{value}' for '--total'")
                ctx.err("Valid arguments are:\n  - 'auto'\n  - 'always'\n  - 'only'\n  - 'never'\n")
                ctx.err("Try 'wc --help' for more information.\n")
                raise Exit(1)
            total_mode = value
    wanted = [k for k in "lwmcL" if k in keys] or ["l", "w", "c"]
    files = operands or ["-"]
    rows: list[tuple[list[int], str | None]] = []
    totals = dict.fromkeys("lwmcL", 0)
    status = 0
    regular_total = 0
    minimum = 1
    for operand in files:
        try:
            if operand != "-" and ctx.fs.is_dir(operand, ctx.cwd):
                ctx.error(f"{operand}: Is a directory")
                status = 1
                minimum = 7
                rows.append(([0 for _ in wanted], operand))
                continue
            data = ctx.read_input(operand)
        except FsError as exc:
            ctx.error(f"{operand}: {exc.strerror_text}")
            status = 1
            continue
        if operand == "-":
            minimum = 7
        else:
            regular_total += len(data)
        counts = {
            "l": data.count(b"\n"),
            "w": len(_WORD.findall(data)) if "w" in wanted else 0,
            "m": len(data),
            "c": len(data),
            "L": _max_line(data) if "L" in wanted else 0,
        }
        for k in "lwmc":
            totals[k] += counts[k]
        totals["L"] = max(totals["L"], counts["L"])
        rows.append(([counts[k] for k in wanted], None if operand == "-" and not operands else operand))
    if len(files) == 1 and len(wanted) == 1:
        width = 1
    else:
        width = 1
        total = regular_total
        while total >= 10:
            width += 1
            total //= 10
        width = max(width, minimum)
    out: list[str] = []
    show_total = total_mode == "always" or (total_mode == "auto" and len(files) > 1)
    if total_mode != "only":
        for values, name in rows:
            line = " ".join(str(v).rjust(width) for v in values)
            out.append(line + (f" {name}" if name is not None else "") + "\n")
    if total_mode == "only":
        out.append(" ".join(str(totals[k]) for k in wanted) + "\n")
    elif show_total:
        out.append(" ".join(str(totals[k]).rjust(width) for k in wanted) + " total\n")
    ctx.out("".join(out))
    return status
