"""``cmp``: compare two files byte by byte (GNU diffutils 3.8).

``-b -i SKIP[:SKIP2] -l -n LIMIT -s`` and operands ``FILE1 [FILE2 [SKIP1 [SKIP2]]]``
(``-`` or a missing FILE2 is standard input). Exit 0 same, 1 different, 2 trouble.
"""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, qf
from cwgym.machine.commands._options import UsageError, parse
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "bi:ln:s",
    {
        "print-bytes": "b",
        "ignore-initial=": "i",
        "verbose": "l",
        "bytes=": "n",
        "quiet": "s",
        "silent": "s",
    },
)
_SUFFIXES = {
    "": 1,
    "kB": 1000,
    "K": 1024,
    "KiB": 1024,
    "MB": 1000**2,
    "M": 1024**2,
    "MiB": 1024**2,
    "GB": 1000**3,
    "G": 1024**3,
    "GiB": 1024**3,
}


def _number(text: str) -> int | None:
    match = re.fullmatch(r"(\d+)([A-Za-z]*)", text)
    if match is None or match.group(2) not in _SUFFIXES:
        return None
    return int(match.group(1)) * _SUFFIXES[match.group(2)]


def _usage(ctx: CommandContext, message: str) -> int:
    ctx.error(message)
    ctx.error("Try 'cmp --help' for more information.")
    return 2


def _printable(byte: int) -> str:
    if byte >= 128:
        prefix = "M-"
        byte -= 128
    else:
        prefix = ""
    if byte < 32:
        return prefix + "^" + chr(byte + 64)
    if byte == 127:
        return prefix + "^?"
    return prefix + chr(byte)


@command("cmp")
def cmp(ctx: CommandContext) -> int:
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as exc:
        if exc.unsupported:
            ctx.error(exc.message)
            return 2
        return _usage(ctx, exc.message)
    print_bytes = verbose = silent = False
    skip1 = skip2 = 0
    limit: int | None = None
    for key, value in opts:
        if key == "b":
            print_bytes = True
        elif key == "l":
            verbose = True
        elif key == "s":
            silent = True
        elif key == "i":
            first, _, second = (value or "").partition(":")
            n1 = _number(first)
            n2 = _number(second) if second else n1
            if n1 is None or n2 is None:
                return _usage(ctx, f"invalid --ignore-initial value '{value}'")
            skip1, skip2 = n1, n2
        elif key == "n":
            n = _number(value or "")
            if n is None:
                return _usage(ctx, f"invalid --bytes value '{value}'")
            limit = n
    if verbose and silent:
        return _usage(ctx, "options -l and -s are incompatible")
    if not operands:
        return _usage(ctx, f"missing operand after '{ctx.argv[-1]}'")
    if len(operands) > 4:
        return _usage(ctx, f"extra operand '{operands[4]}'")
    name1 = operands[0]
    name2 = operands[1] if len(operands) > 1 else "-"
    for index, text in enumerate(operands[2:4]):
        n = _number(text)
        if n is None:
            return _usage(ctx, f"invalid --ignore-initial value '{text}'")
        if index == 0:
            skip1 = n
        else:
            skip2 = n
    if name1 != "-" and name2 != "-" and skip1 == skip2:
        try:
            same = ctx.fs.stat(name1, ctx.cwd).ino == ctx.fs.stat(name2, ctx.cwd).ino
        except FsError:
            same = False
        if same:
            return 0
    contents = []
    for name in (name1, name2):
        try:
            contents.append(ctx.read_input(name))
        except FsError as exc:
            # a file that cannot be opened is silent under -s; a read error is not
            if not silent or exc.code == "EISDIR":
                ctx.error(f"{qf(name)}: {exc.strerror_text}")
            return 2
    a = contents[0][skip1:]
    b = contents[1][skip2:]
    if limit is not None:
        a, b = a[:limit], b[:limit]
    shortest = min(len(a), len(b))
    offset_width = len(str(shortest))
    status = 0
    line = 1
    for index in range(shortest):
        x, y = a[index], b[index]
        if x != y:
            status = 1
            if silent:
                return 1
            if verbose:
                if print_bytes:
                    ctx.out(
                        f"{index + 1:>{offset_width}} {x:3o} {_printable(x):<4} {y:3o} {_printable(y)}\n"
                    )
                else:
                    ctx.out(f"{index + 1:>{offset_width}} {x:3o} {y:3o}\n")
                continue
            if print_bytes:
                ctx.out(
                    f"{name1} {name2} differ: byte {index + 1}, line {line} is "
                    f"{x:3o} {_printable(x)} {y:3o} {_printable(y)}\n"
                )
            else:
                ctx.out(f"{name1} {name2} differ: char {index + 1}, line {line}\n")
            return 1
        if x == 10:
            line += 1
    if len(a) != len(b):
        if silent:
            return 1
        shorter, data = (name1, a) if len(a) < len(b) else (name2, b)
        if not data:
            ctx.error(f"EOF on {shorter} which is empty")
        elif verbose:
            ctx.error(f"EOF on {shorter} after byte {len(data)}")
        elif data.endswith(b"\n"):
            lines = data.count(b"\n")
            ctx.error(f"EOF on {shorter} after byte {len(data)}, line {lines}")
        else:
            lines = data.count(b"\n") + 1
            ctx.error(f"EOF on {shorter} after byte {len(data)}, in line {lines}")
        return 1
    return status
