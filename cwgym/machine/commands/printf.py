"""``printf``, as bash's builtin: C conversions with flags, width and precision (``*`` too),
``%b``, ``%q``, escapes in the format, and the format reused while arguments remain.

``-v VAR`` is the shell's business (it captures this command's output); reached directly
it is refused, as are ``%(fmt)T`` and ``%a`` (exit 2).
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._text import (
    arg_text,
    c_number_prefix,
    emit,
    expand_escapes,
    format_float,
    format_int,
    format_str,
    parse_spec,
)
from cwgym.machine.context import CommandContext, Exit

_SPECIAL = set(" \t\n'\"\\|&;()<>!{}*[?]^$`,")


def quote(value: str) -> str:
    """bash's ``%q``: backslash quoting, or ``$'...'`` when control characters appear."""
    if value == "":
        return "''"
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        out = []
        names = {"\a": "a", "\b": "b", "\x1b": "E", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v"}
        for c in value:
            if c in names:
                out.append("\\" + names[c])
            elif c in "\\'":
                out.append("\\" + c)
            elif ord(c) < 32 or ord(c) == 127:
                out.append(f"\\{ord(c):03o}")
            else:
                out.append(c)
        return "$'" + "".join(out) + "'"
    out = []
    for i, c in enumerate(value):
        if c in _SPECIAL or (c == "~" and (i == 0 or value[i - 1] in "=:")) or (c == "#" and i == 0):
            out.append("\\")
        out.append(c)
    return "".join(out)


class _Printer:
    def __init__(self, ctx: CommandContext, args: list[str]) -> None:
        self.ctx = ctx
        self.args = args
        self.pos = 0
        self.status = 0
        self.out: list[str] = []

    def next_arg(self) -> str | None:
        if self.pos < len(self.args):
            self.pos += 1
            return self.args[self.pos - 1]
        return None

    def bad_number(self, value: str) -> None:
        self.ctx.error(f"{value}: invalid number")
        self.status = 1

    def integer(self, value: str | None) -> int:
        if value is None or value == "":
            return 0
        if value[0] in "'\"":
            return ord(value[1]) if len(value) > 1 else 0
        text = value.lstrip(" \t\n")
        sign = 1
        body = text
        if body[:1] in "+-":
            sign = -1 if body[0] == "-" else 1
            body = body[1:]
        if body[:2].lower() == "0x":
            base, digits_ok, body2 = 16, "0123456789abcdefABCDEF", body[2:]
        elif body[:1] == "0":
            base, digits_ok, body2 = 8, "01234567", body
        else:
            base, digits_ok, body2 = 10, "0123456789", body
        j = 0
        while j < len(body2) and body2[j] in digits_ok:
            j += 1
        number = sign * int(body2[:j], base) if j else 0
        if base == 8 and j < len(body2) and body2[j] in "89":
            self.ctx.error(f"{value}: invalid octal number")
            self.status = 1
            return 0
        if not j or j < len(body2):
            self.bad_number(value)
        if not -(1 << 63) <= number < (1 << 63):
            self.ctx.error(f"warning: {value}: Numerical result out of range")
            number = (1 << 63) - 1 if number > 0 else -(1 << 63)
        return number

    def floating(self, value: str | None) -> float:
        if value is None or value == "":
            return 0.0
        if value[0] in "'\"":
            return float(ord(value[1])) if len(value) > 1 else 0.0
        stripped = value.strip(" \t\n").lower()
        for word, number in (("inf", float("inf")), ("infinity", float("inf")), ("nan", float("nan"))):
            for sign, factor in (("", 1.0), ("+", 1.0), ("-", -1.0)):
                if stripped == sign + word:
                    return factor * number
        number, used = c_number_prefix(value)
        if used < len(value):
            self.bad_number(value)
        return number

    def run_format(self, fmt: str) -> bool:
        """One pass over the format; False when output must stop (``\\c`` or an error)."""
        i, n = 0, len(fmt)
        out = self.out
        while i < n:
            ch = fmt[i]
            if ch == "\\":
                j = i + 1
                if j < n and fmt[j] in "01234567":
                    k = j
                    while k < n and k < j + 3 and fmt[k] in "01234567":
                        k += 1
                    out.append(chr(int(fmt[j:k], 8) & 0xFF))
                    i = k
                    continue
                if j < n and fmt[j] == "c":
                    return False
                end = j + 1
                if j < n and fmt[j] in "xuU":
                    limit = {"x": 2, "u": 4, "U": 8}[fmt[j]]
                    while end < n and end < j + 1 + limit and fmt[end] in "0123456789abcdefABCDEF":
                        end += 1
                piece, _ = expand_escapes(fmt[i:end], "format")
                out.append(piece)
                i = end
                continue
            if ch != "%":
                j = fmt.find("%", i)
                k = fmt.find("\\", i)
                stop = min(x for x in (j, k, n) if x >= 0)
                out.append(fmt[i:stop])
                i = stop
                continue
            if i + 1 < n and fmt[i + 1] == "%":
                out.append("%")
                i += 2
                continue
            if fmt.startswith("(", i + 1):
                self.ctx.error("%(...)T time formats are not supported")
                raise Exit(2)
            parsed = parse_spec(fmt, i + 1)
            if parsed is None:
                self.ctx.error(f"`{fmt[i:]}': missing format character")
                self.status = 1
                return False
            flags, width_text, prec_text, _length, conv, i = parsed
            width = 0
            if width_text == "*":
                width = self.integer(self.next_arg())
                if width < 0:
                    flags += "-"
                    width = -width
            elif width_text:
                width = int(width_text)
            prec: int | None = None
            if prec_text:
                if prec_text == ".*":
                    prec = self.integer(self.next_arg())
                    if prec < 0:
                        prec = None
                else:
                    prec = int(prec_text[1:] or "0")
            if conv in "di":
                out.append(format_int(self.integer(self.next_arg()), "d", flags, width, prec))
            elif conv in "ouxX":
                number = self.integer(self.next_arg())
                out.append(format_int(number & ((1 << 64) - 1), conv, flags, width, prec))
            elif conv in "feEgGF":
                out.append(format_float(self.floating(self.next_arg()), conv, flags, width, prec))
            elif conv == "s":
                out.append(format_str(self.next_arg() or "", flags, width, prec))
            elif conv == "c":
                value = self.next_arg() or ""
                out.append(format_str(value[:1], flags, width, None))
            elif conv == "b":
                expanded, stopped = expand_escapes(self.next_arg() or "", "b")
                out.append(format_str(expanded, flags, width, prec))
                if stopped:
                    return False
            elif conv == "q" or conv == "Q":
                value = self.next_arg() or ""
                if conv == "Q" and prec is not None:
                    value = value[:prec]
                    prec = None
                out.append(format_str(quote(value), flags, width, prec))
            elif conv in "aA":
                self.ctx.error(f"`%{conv}' (hexadecimal floating point) is not supported")
                raise Exit(2)
            else:
                self.ctx.error(f"`{conv}': invalid format character")
                self.status = 1
                return False
        return True


@command("printf")
def printf(ctx: CommandContext) -> int:
    args = [arg_text(a) for a in ctx.args]
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0].startswith("-v"):
            ctx.error("-v (assign to a variable) is not supported")
            return 2
        ctx.error(f"{args[0][:2]}: invalid option")
        ctx.err("printf: usage: printf [-v var] format [arguments]\n")
        return 2
    if not args:
        ctx.err("printf: usage: printf [-v var] format [arguments]\n")
        return 2
    fmt, rest = args[0], args[1:]
    printer = _Printer(ctx, rest)
    try:
        while True:
            before = printer.pos
            if not printer.run_format(fmt):
                break
            if printer.pos >= len(rest) or printer.pos == before:
                break
    finally:
        emit(ctx, "".join(printer.out))
    return printer.status
