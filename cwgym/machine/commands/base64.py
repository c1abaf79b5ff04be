"""``base64``: encode or decode base64 (GNU coreutils): ``-d -i -w COLS``."""

from __future__ import annotations

import base64 as _b64

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, qf, usage_error
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec("diw:", {"decode": "d", "ignore-garbage": "i", "wrap=": "w"})
ALPHABET = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def decode(data: bytes, ignore_garbage: bool) -> tuple[bytes, bool]:
    """Decoded bytes and whether the input was valid (GNU decodes up to the first error)."""
    if ignore_garbage:
        data = bytes(b for b in data if b in ALPHABET)
    else:
        data = data.replace(b"\n", b"")
    out = bytearray()
    pos = 0
    while pos < len(data):
        chunk = data[pos : pos + 4]
        if any(b not in ALPHABET for b in chunk):
            good = bytearray()
            for b in chunk:
                if b not in ALPHABET:
                    break
                good.append(b)
            out += _partial(bytes(good))
            return bytes(out), False
        if len(chunk) < 4:
            out += _partial(chunk)
            return bytes(out), False
        if b"=" in chunk:
            head = chunk.split(b"=")[0]
            if chunk[chunk.index(b"=") :].strip(b"=") or len(head) < 2:
                out += _partial(head)
                return bytes(out), False
            out += _b64.b64decode(head + b"=" * (4 - len(head)))
            pos += 4
            if pos < len(data):
                rest, ok = decode(data[pos:], ignore_garbage)
                return bytes(out + rest), ok
            return bytes(out), True
        out += _b64.b64decode(chunk)
        pos += 4
    return bytes(out), True


def _partial(chunk: bytes) -> bytes:
    """What GNU emits for a short trailing group: whole bytes it can decode."""
    usable = len(chunk) // 4 * 4
    out = _b64.b64decode(chunk[:usable]) if usable else b""
    rest = chunk[usable:].rstrip(b"=")
    if len(rest) >= 2:
        out += _b64.b64decode(rest + b"=" * (4 - len(rest)))[: len(rest) - 1]
    return out


@command("base64")
def base64(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    decode_mode = ignore = False
    wrap = 76
    for key, value in opts:
        if key == "d":
            decode_mode = True
        elif key == "i":
            ignore = True
        elif key == "w":
            text = value or ""
            if not text.isdigit():
                ctx.error(f"invalid wrap size: {q(text)}")
                return 1
            wrap = int(text)
    if len(operands) > 1:
        return usage_error(ctx, f"extra operand {q(operands[1])}")
    operand = operands[0] if operands else "-"
    try:
        data = ctx.read_input(operand)
    except FsError as exc:
        if exc.code == "EISDIR":
            ctx.error(f"read error: {exc.strerror_text}")
        else:
            ctx.error(f"{qf(operand)}: {exc.strerror_text}")
        return 1
    if decode_mode:
        decoded, ok = decode(data, ignore)
        ctx.out(decoded)
        if not ok:
            ctx.error("invalid input")
            return 1
        return 0
    encoded = _b64.b64encode(data).decode()
    if not encoded:
        return 0
    if wrap == 0:
        ctx.out(encoded)
        return 0
    lines = [encoded[i : i + wrap] for i in range(0, len(encoded), wrap)]
    ctx.out("\n".join(lines) + "\n")
    return 0
