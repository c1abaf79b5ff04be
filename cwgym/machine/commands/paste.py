"""``paste`` (GNU coreutils): merge lines of files side by side or serially (``-s``), with
a cyclic ``-d`` delimiter list (``\\n \\t \\\\ \\0`` escapes) and ``-z``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, text
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="d:sz",
    long={"delimiters=": "d", "serial": "s", "zero-terminated": "z"},
)


def _delims(spec: str) -> list[str]:
    out = []
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch == "\\" and i + 1 < len(spec):
            nxt = spec[i + 1]
            out.append({"n": "\n", "t": "\t", "\\": "\\", "0": "", "b": "\b", "f": "\f", "r": "\r", "v": "\v"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return out


@command("paste")
def paste(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    delims = ["\t"]
    serial = False
    eol = "\n"
    for key, value in opts:
        if key == "d":
            delims = _delims(arg_text(value or "")) or [""]
        elif key == "s":
            serial = True
        elif key == "z":
            eol = "\0"
    files = operands or ["-"]
    contents: list[list[str]] = []
    stdin_lines: list[str] | None = None
    stdin_pos = 0
    stdin_users = files.count("-")
    for operand in files:
        if operand == "-":
            if stdin_lines is None:
                stdin_lines = _lines(text(ctx.stdin), eol)
            contents.append(["-"])
            continue
        try:
            contents.append(_lines(text(ctx.fs.read(operand, ctx.cwd)), eol))
        except FsError as exc:
            ctx.error(f"{operand}: {exc.strerror_text}")
            return 1
    out: list[str] = []
    if serial:
        for lines in contents:
            if lines == ["-"]:
                lines = stdin_lines[stdin_pos:] if stdin_lines is not None else []
                stdin_pos = len(stdin_lines or [])
            if not lines:
                out.append(eol)
                continue
            parts = [lines[0]]
            for k, line in enumerate(lines[1:]):
                parts.append(delims[k % len(delims)])
                parts.append(line)
            out.append("".join(parts) + eol)
        emit(ctx, "".join(out))
        return 0
    # stdin operands take lines round-robin, as when they share one stream
    columns: list[list[str]] = []
    stdin_cols = [i for i, c in enumerate(contents) if c == ["-"]]
    if stdin_cols and stdin_lines is not None:
        per = [[] for _ in stdin_cols]
        for k, line in enumerate(stdin_lines):
            per[k % stdin_users].append(line)
        it = iter(per)
        columns = [next(it) if c == ["-"] else c for c in contents]
    else:
        columns = contents
    rows = max((len(c) for c in columns), default=0)
    for r in range(rows):
        parts = []
        for k, col in enumerate(columns):
            if k:
                parts.append(delims[(k - 1) % len(delims)])
            parts.append(col[r] if r < len(col) else "")
        out.append("".join(parts) + eol)
    emit(ctx, "".join(out))
    return 0


def _lines(data: str, eol: str) -> list[str]:
    lines = data.split(eol)
    if lines and lines[-1] == "":
        lines.pop()
    return lines
