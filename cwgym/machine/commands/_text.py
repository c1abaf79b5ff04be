"""Shared helpers for the text commands: byte-exact text, lines, escapes, C printf.

The text tools run in the C locale, so one byte is one character. Input bytes are decoded
as Latin-1 (a 1:1 byte-to-char map, so any bytes survive and ``.`` matches one byte) and
encoded back the same way; arguments, which arrive as UTF-8 text, go through
:func:`arg_text` to reach the same representation.
"""

from __future__ import annotations

import math

from cwgym.machine.commands._limits import check_width
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError


def text(data: bytes) -> str:
    """Bytes as C-locale text (one char per byte)."""
    return data.decode("latin-1")


def raw(value: str) -> bytes:
    """C-locale text back to bytes."""
    return value.encode("latin-1")


def arg_text(value: str) -> str:
    """A command-line argument (UTF-8 text) as C-locale text."""
    return value.encode("utf-8", "surrogateescape").decode("latin-1")


def shown(value: str) -> str:
    """C-locale text as printable str for a message (back through UTF-8)."""
    return value.encode("latin-1").decode("utf-8", "surrogateescape")


def emit(ctx: CommandContext, value: str) -> None:
    """Write C-locale text to stdout."""
    ctx.stdout += value.encode("latin-1")


def split_lines(data: str, sep: str = "\n") -> list[str]:
    """Lines without their terminator; a missing final terminator still ends a line."""
    if not data:
        return []
    lines = data.split(sep)
    if lines[-1] == "":
        lines.pop()
    return lines


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def lower(value: str) -> str:
    """ASCII-only lower case, as in the C locale."""
    return value.translate(_LOWER)


def upper(value: str) -> str:
    """ASCII-only upper case, as in the C locale."""
    return value.translate(_UPPER)


def read_operand(ctx: CommandContext, operand: str, style: str = "plain") -> bytes | None:
    """Read a file operand or stdin; on failure print the tool's GNU message and return None.

    ``style``: ``plain`` (``tool: f: reason``), ``open`` (``tool: cannot open 'f' for
    reading: reason``).
    """
    try:
        return ctx.read_input(operand)
    except FsError as exc:
        if style == "open":
            ctx.error(f"cannot open '{operand}' for reading: {exc.strerror_text}")
        else:
            ctx.error(f"{operand}: {exc.strerror_text}")
        return None


# -- escapes ------------------------------------------------------------------------------

_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
}


def _unicode(code: int, long: bool) -> str:
    """``\\uHHHH``/``\\UHHHHHHHH``: the character if ASCII; otherwise, in the C locale,
    bash writes the escape back out in upper-case hex."""
    if code < 0x80:
        return chr(code)
    return f"\\U{code:08X}" if long else f"\\u{code:04X}"


def expand_escapes(value: str, mode: str) -> tuple[str, bool]:
    """Backslash escapes as ``echo -e`` (``mode="echo"``), a printf format (``"format"``)
    or printf ``%b`` (``"b"``) expand them. Returns (text, stopped by ``\\c``)."""
    out: list[str] = []
    i, n = 0, len(value)
    while i < n:
        ch = value[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = value[i + 1]
        i += 2
        if nxt in _SIMPLE:
            out.append(_SIMPLE[nxt])
        elif nxt == "c" and mode != "format":
            return "".join(out), True
        elif nxt == '"' and mode == "format":
            out.append('"')
        elif nxt == "'" and mode == "format":
            out.append("'")
        elif nxt == "?" and mode == "format":
            out.append("?")
        elif nxt in "01234567" and (mode != "echo" or nxt == "0"):
            # \0nnn: up to 3 digits after the 0 (echo, %b); \nnn: up to 3 digits
            start = i if (mode != "format" and nxt == "0") else i - 1
            j = start
            limit = start + 3
            while j < limit and j < n and value[j] in "01234567":
                j += 1
            digits = value[start:j]
            out.append(chr(int(digits, 8) & 0xFF) if digits else "\0")
            i = j
        elif nxt == "x":
            j = i
            while j < i + 2 and j < n and value[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i:
                out.append("\\x")
            else:
                out.append(chr(int(value[i:j], 16)))
                i = j
        elif nxt in "uU":
            limit = 4 if nxt == "u" else 8
            j = i
            while j < i + limit and j < n and value[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i:
                out.append("\\" + nxt)
            else:
                out.append(_unicode(int(value[i:j], 16), nxt == "U"))
                i = j
        else:
            out.append("\\" + nxt)
    return "".join(out), False


# -- numbers ------------------------------------------------------------------------------


def c_number_prefix(value: str) -> tuple[float, int]:
    """strtod on ``value``: the number its longest numeric prefix spells and that prefix's
    length (0 when none; leading blanks count)."""
    i, n = 0, len(value)
    while i < n and value[i] in " \t\n\r\f\v":
        i += 1
    start = i
    if i < n and value[i] in "+-":
        i += 1
    digits = i
    while i < n and value[i].isdigit() and value[i] < "\x80":
        i += 1
    seen = i > digits
    if i < n and value[i] == ".":
        j = i + 1
        while j < n and value[j].isdigit() and value[j] < "\x80":
            j += 1
        if j > i + 1 or seen:
            seen = True
            i = j
    if not seen:
        return 0.0, 0
    if i < n and value[i] in "eE":
        j = i + 1
        if j < n and value[j] in "+-":
            j += 1
        k = j
        while k < n and value[k].isdigit() and value[k] < "\x80":
            k += 1
        if k > j:
            i = k
    try:
        return float(value[start:i]), i
    except ValueError:
        return 0.0, 0


# -- C printf ---------------------------------------------------------------------------


def _pad(body: str, width: int, left: bool) -> str:
    if len(body) >= width:
        return body
    return body + " " * (width - len(body)) if left else " " * (width - len(body)) + body


def format_int(value: int, conv: str, flags: str, width: int, prec: int | None) -> str:
    """One C integer conversion (``d i u o x X``) of ``value`` (already wrapped for u/o/x)."""
    check_width(width, prec)
    negative = value < 0
    magnitude = -value if negative else value
    if conv in "di" or conv == "u":
        digits = str(magnitude)
    elif conv == "o":
        digits = format(magnitude, "o")
    elif conv == "x":
        digits = format(magnitude, "x")
    else:
        digits = format(magnitude, "X")
    if prec is not None:
        if prec == 0 and magnitude == 0:
            digits = ""
        digits = digits.rjust(prec, "0")
    prefix = ""
    if conv in "di":
        if negative:
            prefix = "-"
        elif "+" in flags:
            prefix = "+"
        elif " " in flags:
            prefix = " "
    elif "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and magnitude != 0:
            prefix = "0x" if conv == "x" else "0X"
    left = "-" in flags
    if "0" in flags and not left and prec is None:
        digits = digits.rjust(width - len(prefix), "0")
    return _pad(prefix + digits, width, left)


def format_float(value: float, conv: str, flags: str, width: int, prec: int | None) -> str:
    """One C floating conversion (``f F e E g G``) of ``value``."""
    check_width(width, prec)
    left = "-" in flags
    if math.isinf(value) or math.isnan(value):
        body = "nan" if math.isnan(value) else "inf"
        if conv in "FEG":
            body = body.upper()
        sign = "-" if math.copysign(1.0, value) < 0 else ("+" if "+" in flags else (" " if " " in flags else ""))
        return _pad(sign + body, width, left)
    spec = "%" + "".join(f for f in "+ #" if f in flags)
    spec += "" if prec is None else f".{prec}"
    body = (spec + conv) % value
    if "0" in flags and not left and len(body) < width:
        sign = body[0] if body[0] in "+- " else ""
        body = sign + body[len(sign) :].rjust(width - len(sign), "0")
    return _pad(body, width, left)


def format_str(value: str, flags: str, width: int, prec: int | None) -> str:
    """A C ``%s`` of ``value``."""
    check_width(width, prec)
    if prec is not None:
        value = value[:prec]
    return _pad(value, width, "-" in flags)


def parse_spec(fmt: str, i: int) -> tuple[str, str, str, str, str, int] | None:
    """Parse a conversion starting after ``%`` at ``i``.

    Returns (flags, width, precision, length modifiers, conversion, next index); width and
    precision are the raw text (may be ``*``, precision includes no dot and is ``""`` when
    absent, ``"."`` alone means 0). ``None`` when the format ends inside the spec.
    """
    n = len(fmt)
    start = i
    while i < n and fmt[i] in "-+ #0'":
        i += 1
    flags = fmt[start:i].replace("'", "")
    wstart = i
    if i < n and fmt[i] == "*":
        i += 1
    else:
        while i < n and fmt[i].isdigit():
            i += 1
    width = fmt[wstart:i]
    prec = ""
    if i < n and fmt[i] == ".":
        i += 1
        pstart = i
        if i < n and fmt[i] == "*":
            i += 1
        else:
            while i < n and fmt[i].isdigit():
                i += 1
        prec = "." + fmt[pstart:i]
    lstart = i
    while i < n and fmt[i] in "hlLjzt":
        i += 1
    length = fmt[lstart:i]
    if i >= n:
        return None
    return flags, width, prec, length, fmt[i], i + 1


# -- GNU-style glob (for --include and the like) -----------------------------------------


def glob_regex(pattern: str) -> str:
    """A shell glob as a Python regex (``*``, ``?``, ``[...]``), anchored."""
    import re

    out = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        i += 1
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "[":
            j = i
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append("\\[")
            else:
                body = pattern[i:j]
                i = j + 1
                neg = body[:1] in ("!", "^")
                if neg:
                    body = body[1:]
                body = body.replace("\\", "\\\\")
                out.append("[" + ("^" if neg else "") + body + "]")
        elif ch == "\\" and i < n:
            out.append(re.escape(pattern[i]))
            i += 1
        else:
            out.append(re.escape(ch))
    return "(?s:" + "".join(out) + r")\Z"


def usage_exit(ctx: CommandContext, message: str, status: int = 1) -> None:
    """Print ``tool: message`` and GNU's ``--help`` hint, then exit ``status``."""
    ctx.error(message)
    ctx.err(f"Try '{ctx.name} --help' for more information.\n")
    raise Exit(status)


def two_inputs(ctx: CommandContext, operands: list[str], eol: str) -> list[list[str]] | None:
    """The lines of exactly two file operands (``-`` is stdin), as comm and join take them.

    A wrong operand count exits with GNU's usage message; an unreadable file is reported
    and gives ``None``.
    """
    if len(operands) < 2:
        if not operands:
            usage_exit(ctx, "missing operand")
        usage_exit(ctx, f"missing operand after '{operands[0]}'")
    if len(operands) > 2:
        usage_exit(ctx, f"extra operand '{operands[2]}'")
    contents = []
    for operand in operands:
        try:
            data = text(ctx.read_input(operand))
        except FsError as exc:
            ctx.error(f"{operand}: {exc.strerror_text}")
            return None
        lines = data.split(eol)
        if lines and lines[-1] == "":
            lines.pop()
        contents.append(lines)
    return contents
