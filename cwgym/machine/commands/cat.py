"""``cat``: concatenate files to standard output (GNU coreutils).

``-A -b -e -E -n -s -t -T -u -v`` as in GNU; numbering and blank-line squeezing carry on
across files, as GNU's do. ``-`` (or no operand) reads standard input.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, qf
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "AbeEnstTuv",
    {
        "show-all": "A",
        "number-nonblank": "b",
        "show-ends": "E",
        "number": "n",
        "squeeze-blank": "s",
        "show-tabs": "T",
        "show-nonprinting": "v",
    },
)


def nonprinting(data: bytes, *, tabs: bool) -> bytes:
    """``cat -v`` notation: ``^X`` for controls, ``M-`` for bytes over 127 (newline kept)."""
    out = bytearray()
    for byte in data:
        if byte >= 128:
            out += b"M-"
            byte -= 128
        elif byte == 10 or (byte == 9 and not tabs):
            out.append(byte)
            continue
        if byte < 32:
            out += b"^" + bytes([byte + 64])
        elif byte == 127:
            out += b"^?"
        else:
            out.append(byte)
    return bytes(out)


class Formatter:
    """The per-invocation state GNU cat keeps across its input files."""

    def __init__(
        self, number: bool, nonblank: bool, squeeze: bool, ends: bool, tabs: bool, visible: bool
    ) -> None:
        self.number = number or nonblank
        self.nonblank = nonblank
        self.squeeze = squeeze
        self.ends = ends
        self.tabs = tabs
        self.visible = visible
        self.line = 0
        self.at_start = True
        self.blank_run = 0

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            piece = data[pos : nl + 1] if nl >= 0 else data[pos:]
            pos = nl + 1 if nl >= 0 else len(data)
            if piece == b"\n" and self.at_start:
                self.blank_run += 1
                if self.squeeze and self.blank_run > 1:
                    continue
                if self.number and not self.nonblank:
                    self.line += 1
                    out += f"{self.line:6d}\t".encode()
                out += b"$\n" if self.ends else b"\n"
                continue
            if self.at_start:
                self.blank_run = 0
                if self.number:
                    self.line += 1
                    out += f"{self.line:6d}\t".encode()
            body = piece[:-1] if piece.endswith(b"\n") else piece
            if self.visible:
                body = nonprinting(body, tabs=self.tabs)
            elif self.tabs:
                body = body.replace(b"\t", b"^I")
            out += body
            if piece.endswith(b"\n"):
                out += b"$\n" if self.ends else b"\n"
                self.at_start = True
            else:
                self.at_start = False
        return bytes(out)


@command("cat")
def cat(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    keys = [key for key, _ in opts]
    visible = ends = tabs = False
    number = nonblank = squeeze = False
    for key in keys:
        if key == "A":
            visible = ends = tabs = True
        elif key == "e":
            visible = ends = True
        elif key == "t":
            visible = tabs = True
        elif key == "v":
            visible = True
        elif key == "E":
            ends = True
        elif key == "T":
            tabs = True
        elif key == "n":
            number = True
        elif key == "b":
            nonblank = True
        elif key == "s":
            squeeze = True
    plain = not (visible or ends or tabs or number or nonblank or squeeze)
    formatter = Formatter(number, nonblank, squeeze, ends, tabs, visible)
    status = 0
    for operand in operands or ["-"]:
        try:
            data = ctx.read_input(operand)
        except FsError as exc:
            ctx.error(f"{qf(operand)}: {exc.strerror_text}")
            status = 1
            continue
        ctx.out(data if plain else formatter.feed(data))
    return status
