"""``date``: print the world's wall-clock time (GNU coreutils), from ``machine.clock``.

Every machine keeps UTC. ``date`` with ``+FORMAT`` (GNU strftime sequences and flags),
``-d``/``--date STRING`` (see :func:`~cwgym.machine.commands._timefmt.parse_date` for the
forms understood; other forms GNU accepts are refused with exit 2), ``-f FILE``,
``-r FILE``, ``-u``, ``-I[FMT]``, ``-R``, ``--rfc-3339=FMT``. Setting the clock
(``-s`` or an ``MMDDhhmm`` operand) needs root: it fails with GNU's message, after printing
the date, as for any user. A ``TZ`` other than UTC is refused: zones are not modelled.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, take_optional, unix_of, usage_error
from cwgym.machine.commands._timefmt import (
    DateError,
    Tm,
    default_date,
    parse_date,
    parse_touch_stamp,
    strftime,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "d:f:r:Rs:u",
    {
        "date=": "d",
        "file=": "f",
        "reference=": "r",
        "rfc-email": "R",
        "rfc-822": "R",
        "rfc-2822": "R",
        "rfc-3339=": "rfc3339",
        "set=": "s",
        "utc": "u",
        "universal": "u",
        "uct": "u",
    },
    unsupported=("--debug", "--resolution"),
)
UTC_NAMES = {
    "",
    "UTC",
    "UTC0",
    "UTC+0",
    "UTC-0",
    "GMT",
    "GMT0",
    "Etc/UTC",
    "Etc/GMT",
    "Universal",
    "Zulu",
    "UCT",
    "Etc/UCT",
}
ISO_FORMATS = {
    "date": "%Y-%m-%d",
    "hours": "%Y-%m-%dT%H%:z",
    "minutes": "%Y-%m-%dT%H:%M%:z",
    "seconds": "%Y-%m-%dT%H:%M:%S%:z",
    "ns": "%Y-%m-%dT%H:%M:%S,%N%:z",
}
RFC3339_FORMATS = {
    "date": "%Y-%m-%d",
    "seconds": "%Y-%m-%d %H:%M:%S%:z",
    "ns": "%Y-%m-%d %H:%M:%S.%N%:z",
}


def _pick(ctx: CommandContext, value: str, choices: dict[str, str], option: str) -> str | None:
    matches = [name for name in choices if name.startswith(value)] if value else []
    if value in choices:
        return choices[value]
    if len(matches) == 1:
        return choices[matches[0]]
    kind = "ambiguous" if matches else "invalid"
    ctx.error(f"{kind} argument {q(value)} for {q(option)}")
    ctx.err("Valid arguments are:\n")
    order = (
        ["hours", "minutes", "date", "seconds", "ns"] if option == "--iso-8601" else list(choices)
    )
    for name in order:
        ctx.err(f"  - {q(name)}\n")
    ctx.err("Try 'date --help' for more information.\n")
    return None


@command("date")
def date(ctx: CommandContext) -> int:
    args, iso_values = take_optional(ctx.args, "I", "iso-8601")
    opts, operands = ctx.options(SPEC, args=args)
    opts = [("I", value) for value in iso_values] + opts
    zone_env = ctx.env.get("TZ")
    if zone_env is not None and zone_env.lstrip(":") not in UTC_NAMES:
        ctx.error(f"unsupported time zone {q(zone_env)}: every machine keeps UTC")
        return 2
    date_text: str | None = None
    date_file: str | None = None
    reference: str | None = None
    set_text: str | None = None
    fmt: str | None = None
    for key, value in opts:
        if key == "d":
            date_text = value
        elif key == "f":
            date_file = value
        elif key == "r":
            reference = value
        elif key == "s":
            set_text = value
        elif key in ("I", "R", "rfc3339"):
            if fmt is not None:
                ctx.error("multiple output formats specified")
                return 1
            if key == "I":
                fmt = _pick(ctx, value or "date", ISO_FORMATS, "--iso-8601")
            elif key == "R":
                fmt = "%a, %d %b %Y %H:%M:%S %z"
            else:
                fmt = _pick(ctx, value or "", RFC3339_FORMATS, "--rfc-3339")
            if fmt is None:
                return 1
    if sum(x is not None for x in (date_text, date_file, reference)) > 1:
        return usage_error(ctx, "the options to specify dates for printing are mutually exclusive")
    if set_text is not None and (
        date_text is not None or date_file is not None or reference is not None
    ):
        return usage_error(ctx, "the options to print and set the time may not be used together")
    if len(operands) > 1:
        return usage_error(ctx, f"extra operand {q(operands[1])}")
    if operands:
        operand = operands[0]
        if operand.startswith("+"):
            if fmt is not None:
                ctx.error("multiple output formats specified")
                return 1
            fmt = operand[1:]
        elif (
            date_text is not None
            or date_file is not None
            or reference is not None
            or set_text is not None
        ):
            ctx.error(f"the argument {q(operand)} lacks a leading '+';")
            ctx.err(
                "when using an option to specify date(s), any non-option\n"
                "argument must be a format string beginning with '+'\n"
                "Try 'date --help' for more information.\n"
            )
            return 1
        else:
            seconds = _posix_set_stamp(operand, ctx.machine.clock.unix_seconds())
            if seconds is None:
                ctx.error(f"invalid date {q(operand)}")
                return 1
            ctx.error("cannot set date: Operation not permitted")
            ctx.out(_render(seconds, 0, fmt) + "\n")
            return 1
    now_s, now_ns = unix_of(ctx.machine.clock.now_us)
    if set_text is not None:
        result = _parse(ctx, set_text, now_s, now_ns)
        if result is None or isinstance(result, int):
            return 1 if result is None else result
        ctx.error("cannot set date: Operation not permitted")
        ctx.out(_render(*result, fmt) + "\n")
        return 1
    if date_file is not None:
        try:
            data = ctx.read_input(date_file)
        except FsError as exc:
            ctx.error(f"{date_file}: {exc.strerror_text}")
            return 1
        status = 0
        for line in data.decode("utf-8", "surrogateescape").splitlines():
            result = _parse(ctx, line, now_s, now_ns)
            if result is None:
                status = 1
                continue
            if isinstance(result, int):
                return result
            ctx.out(_render(*result, fmt) + "\n")
        return status
    if reference is not None:
        try:
            st = ctx.fs.stat(reference, ctx.cwd)
        except FsError as exc:
            ctx.error(f"{reference}: {exc.strerror_text}")
            return 1
        seconds, nsec = unix_of(st.mtime)
    elif date_text is not None:
        result = _parse(ctx, date_text, now_s, now_ns)
        if result is None or isinstance(result, int):
            return 1 if result is None else result
        seconds, nsec = result
    else:
        seconds, nsec = now_s, now_ns
    ctx.out(_render(seconds, nsec, fmt) + "\n")
    return 0


def _parse(ctx: CommandContext, text: str, now_s: int, now_ns: int) -> tuple[int, int] | int | None:
    try:
        return parse_date(text, now_s, now_ns)
    except DateError as exc:
        if exc.unsupported:
            ctx.error(f"unsupported date string {q(text)}: this form is not modelled")
            return 2
        ctx.error(f"invalid date {q(text)}")
        return None


def _render(seconds: int, nsec: int, fmt: str | None) -> str:
    tm = Tm(seconds, nsec)
    if fmt is None:
        return default_date(tm)
    return strftime(fmt, tm)


def _posix_set_stamp(text: str, now_s: int) -> int | None:
    """``date MMDDhhmm[[CC]YY][.ss]`` to Unix seconds."""
    body, dot, secs = text.partition(".")
    if (
        not body.isdigit()
        or len(body) not in (8, 10, 12)
        or (dot and not (secs.isdigit() and len(secs) == 2))
    ):
        return None
    mmddhhmm, year = body[:8], body[8:]
    stamp = year + mmddhhmm + (dot + secs if dot else "")
    return parse_touch_stamp(stamp, now_s)
