"""``cut`` (GNU coreutils, C locale): ``-b``/``-c`` byte ranges, ``-f`` fields with ``-d``,
``-s``, ``--complement``, ``--output-delimiter``, ``-z``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, read_operand, shown, text, usage_exit
from cwgym.machine.context import CommandContext

SPEC = OptionSpec(
    short="b:c:f:d:snz",
    long={
        "bytes=": "b",
        "characters=": "c",
        "fields=": "f",
        "delimiter=": "d",
        "only-delimited": "s",
        "complement": "complement",
        "output-delimiter=": "output-delimiter",
        "zero-terminated": "z",
    },
)


def parse_list(ctx: CommandContext, spec: str, fields: bool) -> list[tuple[int, int]]:
    """A LIST (``1,3-5,7-``) as sorted, merged 1-based inclusive ranges (end may be huge)."""
    big = 1 << 62
    ranges: list[tuple[int, int]] = []
    what = "field value" if fields else "byte/character position"
    for part in spec.replace(" ", ",").split(","):
        if part == "":
            usage_exit(ctx, f"{'fields' if fields else 'byte/character positions'} are numbered from 1")
        lo_text, dash, hi_text = part.partition("-")
        if dash and not lo_text and not hi_text:
            usage_exit(ctx, "invalid range with no endpoint: -")
        for piece in (lo_text, hi_text):
            if piece and not piece.isdigit():
                usage_exit(ctx, f"invalid {what} '{shown(part)}'")
        lo = int(lo_text) if lo_text else 1
        hi = (int(hi_text) if hi_text else big) if dash else lo
        if (lo_text and int(lo_text) == 0) or (hi_text and int(hi_text) == 0 and dash):
            usage_exit(ctx, f"{'fields' if fields else 'byte/character positions'} are numbered from 1")
        if hi < lo:
            usage_exit(ctx, "invalid decreasing range")
        ranges.append((lo, hi))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    start = 1
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    out.append((start, 1 << 62))
    return [r for r in out if r[0] <= r[1]]


@command("cut")
def cut(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    mode = None
    spec = ""
    delim = "\t"
    only = complement = False
    out_delim = None
    eol = "\n"
    for key, value in opts:
        if key in "bcf" and len(key) == 1:
            if mode is not None:
                usage_exit(ctx, "only one list may be specified")
            mode, spec = key, arg_text(value or "")
        elif key == "d":
            delim = arg_text(value or "")
            if len(delim) > 1:
                usage_exit(ctx, "the delimiter must be a single character")
            if delim == "":
                delim = "\0"
        elif key == "s":
            only = True
        elif key == "complement":
            complement = True
        elif key == "output-delimiter":
            out_delim = arg_text(value or "")
        elif key == "z":
            eol = "\0"
    if mode is None:
        usage_exit(ctx, "you must specify a list of bytes, characters, or fields")
    if mode != "f" and any(k == "d" for k, _ in opts):
        usage_exit(ctx, "an input delimiter may be specified only when operating on fields")
    if mode != "f" and only:
        usage_exit(ctx, "suppressing non-delimited lines makes sense\n\tonly when operating on fields")
    ranges = parse_list(ctx, spec, mode == "f")
    if complement:
        ranges = _complement(ranges)
    status = 0
    out: list[str] = []
    for operand in operands or ["-"]:
        data = read_operand(ctx, operand)
        if data is None:
            status = 1
            continue
        content = text(data)
        lines = content.split(eol)
        if lines and lines[-1] == "":
            lines.pop()
        for line in lines:
            if mode == "f":
                if delim not in line:
                    if not only:
                        out.append(line + eol)
                    continue
                parts = line.split(delim)
                chosen = [p for i, p in enumerate(parts, 1) if _within(ranges, i)]
                out.append((delim if out_delim is None else out_delim).join(chosen) + eol)
            else:
                pieces = []
                for lo, hi in ranges:
                    if lo > len(line):
                        break
                    pieces.append(line[lo - 1 : hi])
                out.append(("" if out_delim is None else out_delim).join(pieces) + eol)
    emit(ctx, "".join(out))
    return status


def _within(ranges: list[tuple[int, int]], index: int) -> bool:
    return any(lo <= index <= hi for lo, hi in ranges)
