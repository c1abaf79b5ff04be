"""``head`` (GNU coreutils): ``-n [-]N``, ``-c [-]N`` (with GNU size suffixes), ``-NUM``,
``-q``, ``-v``, ``-z``, and ``==> name <==`` headers for several files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError

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
    numeric="n",
)

_SUFFIXES = {
    "b": 512,
    "kB": 1000,
    "K": 1024,
    "KiB": 1024,
    "k": 1024,
    "MB": 1000**2,
    "M": 1024**2,
    "MiB": 1024**2,
    "GB": 1000**3,
    "G": 1024**3,
    "GiB": 1024**3,
    "TB": 1000**4,
    "T": 1024**4,
}


def parse_count(ctx: CommandContext, value: str, what: str) -> tuple[int, str]:
    """``[+-]N[suffix]`` as (N, sign); prints GNU's message and exits on a bad count."""
    sign = value[:1] if value[:1] in "+-" else ""
    body = value[len(sign) :]
    digits = ""
    while body and body[0].isdigit():
        digits += body[0]
        body = body[1:]
    if not digits or (body and body not in _SUFFIXES):
        ctx.error(f"invalid number of {what}: '{value}'")
        raise Exit(1)
    return int(digits) * (_SUFFIXES[body] if body else 1), sign


def split_keep(data: bytes, sep: bytes) -> list[bytes]:
    """Lines with their terminators (the last may lack one)."""
    parts = data.split(sep)
    lines = [p + sep for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def read_for(ctx: CommandContext, operand: str) -> bytes | None:
    try:
        if operand != "-" and ctx.fs.is_dir(operand, ctx.cwd):
            ctx.error(f"error reading '{operand}': Is a directory")
            return None
        return ctx.read_input(operand)
    except FsError as exc:
        ctx.error(f"cannot open '{operand}' for reading: {exc.strerror_text}")
        return None


def head_or_tail(ctx: CommandContext, spec: OptionSpec, pick: Callable[[Any, int, str], Any]) -> int:
    """The shared body of head and tail: options, file headers, and ``pick`` choosing
    which units of each input to print (a slice of the bytes, or of the list of lines)
    from the count and its sign."""
    opts, operands = ctx.options(spec)
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
        chosen = pick(data if unit == "bytes" else split_keep(data, sep), count, sign)
        ctx.out(chosen if isinstance(chosen, bytes) else b"".join(chosen))
    return status


def _head_pick(units: Any, count: int, sign: str) -> Any:
    return units[: max(len(units) - count, 0)] if sign == "-" else units[:count]


@command("head")
def head(ctx: CommandContext) -> int:
    return head_or_tail(ctx, SPEC, _head_pick)
