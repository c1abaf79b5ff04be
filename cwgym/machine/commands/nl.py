"""``nl`` (GNU coreutils): number lines. ``-b a|t|n|pRE`` (also ``-h``/``-f`` for header and
footer sections), ``-n ln|rn|rz``, ``-w``, ``-s``, ``-v``, ``-i``, ``-p``, ``-d`` and the
``\\:\\:\\:`` section delimiters."""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._engine import Regex
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._regex import FLAGS, RegexError, translate
from cwgym.machine.commands._text import arg_text, emit, read_operand, text, usage_exit
from cwgym.machine.context import CommandContext, Exit

SPEC = OptionSpec(
    short="b:h:f:n:w:s:v:i:pd:l:",
    long={
        "body-numbering=": "b",
        "header-numbering=": "h",
        "footer-numbering=": "f",
        "number-format=": "n",
        "number-width=": "w",
        "number-separator=": "s",
        "starting-line-number=": "v",
        "line-increment=": "i",
        "no-renumber": "p",
        "section-delimiter=": "d",
        "join-blank-lines=": "l",
    },
)


def _style(ctx: CommandContext, value: str, which: str):
    if value in ("a", "t", "n"):
        return value
    if value.startswith("p"):
        try:
            body, _, _ = translate(value[1:], extended=False, dialect="grep")
            return Regex(body, FLAGS)
        except (RegexError, re.error):
            ctx.error(f"invalid regular expression '{value[1:]}'")
            raise Exit(1) from None
    usage_exit(ctx, f"invalid {which} numbering style: '{value}'")
    return None


@command("nl")
def nl(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    styles = {"header": "n", "body": "t", "footer": "n"}
    fmt, width, sep, start, incr = "rn", 6, "\t", 1, 1
    renumber = True
    delim = "\\:"
    for key, value in opts:
        value = arg_text(value or "")
        if key == "b":
            styles["body"] = _style(ctx, value, "body")
        elif key == "h":
            styles["header"] = _style(ctx, value, "header")
        elif key == "f":
            styles["footer"] = _style(ctx, value, "footer")
        elif key == "n":
            if value not in ("ln", "rn", "rz"):
                usage_exit(ctx, f"invalid line numbering format: '{value}'")
            fmt = value
        elif key in "wvil":
            try:
                number = int(value)
            except ValueError:
                number = -1
            if key == "w" and number < 1:
                ctx.error(f"invalid line number field width: '{value}': Numerical result out of range")
                raise Exit(1)
            if key == "w":
                width = number
            elif key == "v":
                start = number
            elif key == "i":
                incr = number
        elif key == "s":
            sep = value
        elif key == "p":
            renumber = False
        elif key == "d":
            delim = value if len(value) > 1 else value + ":"
    number = start
    section = "body"
    out: list[str] = []
    status = 0
    headers = {delim * 3: "header", delim * 2: "body", delim: "footer"}
    for operand in operands or ["-"]:
        data = read_operand(ctx, operand)
        if data is None:
            status = 1
            continue
        content = text(data)
        lines = content.split("\n")
        if lines[-1] == "":
            lines.pop()
        for line in lines:
            end = "\n"
            if line in headers:
                section = headers[line]
                if renumber:
                    number = start
                out.append("\n")
                continue
            style = styles[section]
            numbered = (
                style == "a"
                or (style == "t" and line != "")
                or (not isinstance(style, str) and style is not None and style.search(line) is not None)
            )
            if numbered:
                if fmt == "ln":
                    label = str(number).ljust(width)
                elif fmt == "rz":
                    label = (str(number).rjust(width, "0") if number >= 0 else "-" + str(-number).rjust(width - 1, "0"))
                else:
                    label = str(number).rjust(width)
                out.append(label + sep + line + end)
                number += incr
            else:
                out.append(" " * (width + len(sep)) + line + end)
    emit(ctx, "".join(out))
    return status
