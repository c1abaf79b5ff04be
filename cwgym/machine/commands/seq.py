"""``seq`` (GNU coreutils): FIRST, INCREMENT, LAST with ``-s``, ``-w`` and ``-f``. Decimal
arithmetic keeps ``seq 0 0.1 1`` exact; the default format is GNU's (as many fraction
digits as FIRST and INCREMENT show, ``%g`` when one is written with an exponent)."""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from cwgym.machine.commands import command
from cwgym.machine.commands._limits import check_size
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._text import arg_text, emit, format_float, parse_spec, usage_exit
from cwgym.machine.context import CommandContext

SPEC = OptionSpec(
    short="s:wf:",
    long={"separator=": "s", "equal-width": "w", "format=": "f"},
    permute=False,
)

_NUM = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*\Z")


class _Arg:
    def __init__(self, ctx: CommandContext, value: str) -> None:
        m = _NUM.match(value)
        low = value.strip().lower().lstrip("+-")
        if m is None and low not in ("inf", "infinity", "nan"):
            usage_exit(ctx, f"invalid floating point argument: '{value}'")
        if m is None:
            if low == "nan":
                usage_exit(ctx, f"invalid 'not-a-number' argument: '{value}'")
            self.value = Decimal("-Infinity" if value.strip().startswith("-") else "Infinity")
            self.precision = None
            self.width = 0
            return
        self.value = Decimal(value.strip())
        body = m.group(1)
        if m.group(2):
            self.precision = None
        else:
            self.precision = len(body) - body.index(".") - 1 if "." in body else 0
        self.width = len(value.strip())


def _fmt_user(ctx: CommandContext, fmt: str):
    i = 0
    found = None
    while i < len(fmt):
        if fmt[i] == "%":
            if fmt[i + 1 : i + 2] == "%":
                i += 2
                continue
            parsed = parse_spec(fmt, i + 1)
            if parsed is None or parsed[4] not in "eEfFgGaA" or found is not None:
                if found is not None and parsed is not None:
                    ctx.error(f"format '{fmt}' has too many % directives")
                else:
                    conv = parsed[4] if parsed else ""
                    ctx.error(f"format '{fmt}' has unknown %{conv} directive")
                return None
            found = (i, parsed)
            i = parsed[5]
            continue
        i += 1
    if found is None:
        ctx.error(f"format '{fmt}' has no % directive")
        return None
    start, (flags, width, prec, _l, conv, end) = found
    before = fmt[:start].replace("%%", "%")
    after = fmt[end:].replace("%%", "%")
    w = int(width) if width and width != "*" else 0
    p = int(prec[1:] or "0") if prec else None
    return lambda x: before + format_float(float(x), conv, flags, w, p) + after


@command("seq")
def seq(ctx: CommandContext) -> int:
    args = ctx.args
    # negative numbers are operands, not options
    split = 0
    while split < len(args) and args[split].startswith("-") and not re.match(r"-[\d.]", args[split]):
        split += 1
        if args[split - 1] in ("-s", "-f") and split < len(args):
            split += 1
    opts, _ = ctx.options(SPEC, args=args[:split])
    operands = [arg_text(a) for a in args[split:]]
    if operands and operands[0] == "--":
        operands = operands[1:]
    sep, equal, user_fmt = "\n", False, None
    for key, value in opts:
        if key == "s":
            sep = arg_text(value or "")
        elif key == "w":
            equal = True
        elif key == "f":
            user_fmt = arg_text(value or "")
    if not operands:
        usage_exit(ctx, "missing operand")
    if len(operands) > 3:
        usage_exit(ctx, f"extra operand '{operands[3]}'")
    parsed = [_Arg(ctx, o) for o in operands]
    first = parsed[0] if len(parsed) > 1 else None
    step = parsed[1] if len(parsed) == 3 else None
    last = parsed[-1]
    start = first.value if first else Decimal(1)
    incr = step.value if step else Decimal(1)
    if incr == 0:
        usage_exit(ctx, f"invalid Zero increment value: '{operands[1]}'")
    if user_fmt is not None and equal:
        usage_exit(ctx, "format string may not be specified when printing equal width strings")
    fixed_prec: int | None = None  # the digits after the point, when the output is fixed-point
    if user_fmt is not None:
        formatter = _fmt_user(ctx, user_fmt)
        if formatter is None:
            return 1
    else:
        precs = [a.precision for a in (first, step) if a is not None]
        if any(p is None for p in precs) or last.precision is None:
            formatter = lambda x: format_float(float(x), "g", "", 0, None)  # noqa: E731
        else:
            prec = fixed_prec = max([p for p in precs if p is not None], default=0)
            fmt_width = 0
            if equal:
                first_width = (first.width if first else 1) + (prec - (first.precision if first else 0))
                last_width = last.width + (prec - last.precision)
                if last.precision and prec == 0:
                    last_width -= 1
                if last.precision == 0 and prec:
                    last_width += 1
                if (first.precision if first else 0) == 0 and prec:
                    first_width += 1
                fmt_width = max(first_width, last_width)
            formatter = lambda x: format_float(float(x), "f", "0" if equal else "", fmt_width, prec) if abs(x) >= 10**15 or prec > 15 else _decimal_fixed(x, prec, fmt_width)  # noqa: E731
    out: list[str] = []
    end = last.value
    i = 0
    if end.is_infinite() and (end > 0) == (incr > 0):
        ctx.error("infinite sequences are not supported")
        return 2
    if (end - start) * incr >= 0:  # refuse before generating what the output cap would drop
        count = int((end - start) / incr) + 1
        if fixed_prec is None:
            shortest = 1 if start <= 0 <= end or end <= 0 <= start else min(len(formatter(start)), len(formatter(end)))
            least = count * shortest
        else:
            least = _integer_digits(start, incr, count) + (count * (fixed_prec + 1) if fixed_prec else 0)
        check_size("seq: the sequence", least + count * len(sep))
    written = 0
    while True:
        x = start + i * incr
        if (incr > 0 and x > end) or (incr < 0 and x < end):
            break
        out.append(formatter(x))
        written += len(out[-1]) + len(sep)
        i += 1
        if not i % 4096:
            check_size("seq: the sequence", written)
    if out:
        emit(ctx, sep.join(out) + "\n")
    return 0


def _integer_digits(start: Decimal, incr: Decimal, count: int) -> int:
    """The digits of the integer parts of ``start + i*incr`` for ``i < count``, summed
    without generating them: one term per power of ten the sequence reaches."""
    if incr < 0:  # the same magnitudes, walked upward
        start, incr = start + (count - 1) * incr, -incr
    total, power = count, Decimal(10)
    while True:
        positive = count - min(count, max(0, int(((power - start) / incr).to_integral_value(ROUND_CEILING))))
        negative = min(count, max(0, int(((-power - start) / incr).to_integral_value(ROUND_FLOOR)) + 1))
        if not positive and not negative:
            return total
        total += positive + negative
        power *= 10


def _decimal_fixed(x: Decimal, prec: int, width: int) -> str:
    body = format(x.quantize(Decimal(1).scaleb(-prec)) if prec else x.to_integral_value(), f".{prec}f")
    if width and len(body) < width:
        sign = "-" if body.startswith("-") else ""
        body = sign + body[len(sign) :].rjust(width - len(sign), "0")
    return body

