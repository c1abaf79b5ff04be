"""``ps``: report the machine's processes (procps-ng style).

The process model: PID 1 is the session's login shell (``bash``, on ``pts/0``, started at
tick 0), like a container's init; every process in ``machine.procs`` is its child. The
line being run shows as the command that asked (``ps ...``), a background ``sleep N &``
as ``sleep N``, a server started in the background as typed (``python3 -m http.server
8000``). CPU time is never consumed in this world, so TIME is always 0 and %CPU
0.0; VSZ/RSS are fixed per program (bash 8912/5248 KiB, ps 10072/3456, sleep 5480/1024,
python3 31140/19968, anything else 6220/2304) and %MEM is derived from them against 8 GiB
of memory.

Supported: ``ps`` (this terminal's processes), ``-e -A -a -x`` (every process here is on
the terminal, so these list the same ones), ``-f``, ``-u/-U USER``, ``-p/--pid PID``,
``-o/--format FIELDS`` (``pid ppid user uid comm cmd args command tty time etime stat
%cpu %mem vsz rss start stime lstart c ni pri``, ``field=HEADER``), ``--no-headers``, and
the BSD forms ``aux``, ``ax``, ``ux``, ``x``, ``a``, ``u``, ``h``. PIDs are 7 columns
wide, as on a 64-bit Linux. Other options get procps' message and exit 1.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import unix_of
from cwgym.machine.commands._timefmt import Tm, strftime
from cwgym.machine.context import CommandContext
from cwgym.machine.users import user_name

MEMORY_KIB = 8 * 1024 * 1024
MEMORY = {"bash": (8912, 5248), "sh": (8912, 5248), "ps": (10072, 3456), "sleep": (5480, 1024),
          "python3": (31140, 19968)}
DEFAULT_MEMORY = (6220, 2304)
TTY = "pts/0"
USAGE = (
    "\nUsage:\n"
    " ps [options]\n"
    "\n"
    " Try 'ps --help <simple|list|output|threads|misc|all>'\n"
    "  or 'ps --help <s|l|o|t|m|a>'\n"
    " for additional help text.\n"
    "\n"
    "For more details see ps(1).\n"
)
#: -o field -> (header, width, right-aligned)
FIELDS = {
    "pid": ("PID", 7, True),
    "ppid": ("PPID", 7, True),
    "user": ("USER", 8, False),
    "euser": ("EUSER", 8, False),
    "uid": ("UID", 5, True),
    "euid": ("EUID", 5, True),
    "comm": ("COMMAND", 0, False),
    "ucmd": ("CMD", 0, False),
    "cmd": ("CMD", 0, False),
    "args": ("COMMAND", 0, False),
    "command": ("COMMAND", 0, False),
    "tty": ("TT", 8, False),
    "tname": ("TTY", 8, False),
    "time": ("TIME", 8, True),
    "cputime": ("TIME", 8, True),
    "etime": ("ELAPSED", 11, True),
    "etimes": ("ELAPSED", 7, True),
    "stat": ("STAT", 4, False),
    "s": ("S", 1, False),
    "state": ("S", 1, False),
    "%cpu": ("%CPU", 4, True),
    "pcpu": ("%CPU", 4, True),
    "%mem": ("%MEM", 4, True),
    "pmem": ("%MEM", 4, True),
    "vsz": ("VSZ", 6, True),
    "rss": ("RSS", 5, True),
    "start": ("STARTED", 8, True),
    "bsdstart": ("START", 5, True),
    "bsdtime": ("TIME", 6, True),
    "stime": ("STIME", 5, True),
    "lstart": ("STARTED", 24, False),
    "c": ("C", 2, True),
    "pgid": ("PGID", 7, True),
    "sid": ("SID", 7, True),
    "nice": ("NI", 3, True),
    "ni": ("NI", 3, True),
    "pri": ("PRI", 3, True),
}


class Row:
    def __init__(
        self, pid: int, ppid: int, uid: int, argv: str, started_us: int, state: str
    ) -> None:
        self.pid = pid
        self.ppid = ppid
        self.uid = uid
        self.args = argv
        self.comm = argv.split()[0].rsplit("/", 1)[-1] if argv.split() else "?"
        self.started_us = started_us
        self.state = state


def _rows(ctx: CommandContext) -> list[Row]:
    machine = ctx.machine
    now = machine.clock.now_us
    procs = machine.procs.listing(now)
    foreground = [p for p in procs if not p.background and p.exit_code is None]
    me = max((p.pid for p in foreground), default=None)
    rows = [Row(1, 0, machine.cred.uid, "bash", 0, "Ss")]
    for proc in procs:
        if proc.pid == me:
            rows.append(Row(proc.pid, 1, proc.uid, " ".join(ctx.argv), proc.started_us, "R+"))
        else:
            rows.append(Row(proc.pid, proc.ppid, proc.uid, proc.command, proc.started_us, "S"))
    if me is None:
        rows.append(Row(machine.procs.next_pid, 1, machine.cred.uid, " ".join(ctx.argv), now, "R+"))
    return rows


def _value(ctx: CommandContext, row: Row, field: str, *, bsd: bool = False) -> str:
    users = ctx.machine.users
    now = ctx.machine.clock.now_us
    vsz, rss = MEMORY.get(row.comm, DEFAULT_MEMORY)
    start_s, _ = unix_of(row.started_us)
    now_s, _ = unix_of(now)
    if field == "pid":
        return str(row.pid)
    if field == "ppid":
        return str(row.ppid)
    if field in ("user", "euser"):
        return user_name(row.uid, users)
    if field in ("uid", "euid"):
        return str(row.uid)
    if field in ("comm", "ucmd"):
        return row.comm
    if field in ("cmd", "args", "command"):
        return row.args
    if field in ("tty", "tname"):
        return TTY
    if field == "bsdtime":
        return "0:00"
    if field in ("time", "cputime"):
        return "00:00:00"
    if field == "etime":
        elapsed = max(0, (now - row.started_us) // 1_000_000)
        days, rest = divmod(elapsed, 86400)
        hours, rest = divmod(rest, 3600)
        minutes, seconds = divmod(rest, 60)
        text = f"{minutes:02d}:{seconds:02d}"
        if hours or days:
            text = f"{hours:02d}:" + text
        if days:
            text = f"{days}-" + text
        return text
    if field == "etimes":
        return str(max(0, (now - row.started_us) // 1_000_000))
    if field == "stat":
        return row.state
    if field in ("s", "state"):
        return row.state[0]
    if field in ("%cpu", "pcpu"):
        return "0.0"
    if field in ("%mem", "pmem"):
        return f"{rss * 1000 // MEMORY_KIB / 10:.1f}"
    if field == "vsz":
        return str(vsz)
    if field == "rss":
        return str(rss)
    if field in ("start", "stime", "bsdstart"):
        tm = Tm(start_s)
        if now_s - start_s < 86400 and Tm(now_s).yday == tm.yday:
            return strftime("%H:%M:%S" if field == "start" else "%H:%M", tm)
        return strftime("%b%d", tm)
    if field == "lstart":
        return strftime("%a %b %e %H:%M:%S %Y", Tm(start_s))
    if field == "c":
        return "0"
    if field == "pgid":
        return str(row.pid)
    if field == "sid":
        return "1"
    if field in ("nice", "ni"):
        return "0"
    if field == "pri":
        return "19"
    return "-"


def _table(
    ctx: CommandContext,
    rows: list[Row],
    fields: list[tuple[str, str]],
    headers: bool,
    *,
    bsd: bool = False,
) -> None:
    cells = [[_value(ctx, row, name, bsd=bsd) for name, _ in fields] for row in rows]
    widths = []
    for index, (name, header) in enumerate(fields):
        _, width, _ = FIELDS[name]
        widths.append(
            max(width, len(header), *(len(c[index]) for c in cells))
            if index < len(fields) - 1
            else 0
        )
    lines = []
    if headers and any(h for _, h in fields):
        lines.append(_line([h for _, h in fields], widths, fields))
    for row_cells in cells:
        lines.append(_line(row_cells, widths, fields))
    ctx.out("".join(line + "\n" for line in lines))


def _line(values: list[str], widths: list[int], fields: list[tuple[str, str]]) -> str:
    parts = []
    for index, value in enumerate(values):
        name = fields[index][0]
        right = FIELDS[name][2]
        if index == len(values) - 1:
            parts.append(value.rjust(FIELDS[name][1]) if right else value)
        elif right:
            parts.append(value.rjust(widths[index]))
        else:
            parts.append(value.ljust(widths[index]))
    return " ".join(parts)


def _fields(spec: str) -> list[tuple[str, str]] | str:
    """The -o fields, or the name of the first unknown one."""
    result = []
    for item in spec.replace(" ", ",").split(","):
        if not item:
            continue
        name, eq, header = item.partition("=")
        key = name.lower()
        if key not in FIELDS:
            return name
        result.append((key, header if eq else FIELDS[key][0]))
    return result


def _error(ctx: CommandContext, message: str) -> int:
    ctx.err(f"error: {message}\n{USAGE}")
    return 1


@command("ps")
def ps(ctx: CommandContext) -> int:
    args = list(ctx.args)
    full = bsd_user = False
    headers = True
    bsd = False
    users: list[str] = []
    pids: list[int] = []
    fields: list[tuple[str, str]] | str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name in ("no-headers", "no-heading"):
                headers = False
            elif name in ("pid", "user", "format", "User"):
                if not eq:
                    if i >= len(args):
                        return _error(ctx, f"option --{name} requires an argument")
                    value = args[i]
                    i += 1
                if name == "pid":
                    parsed = _pid_list(value)
                    if parsed is None:
                        return _error(ctx, "process ID list syntax error")
                    pids += parsed
                elif name == "format":
                    fields = _fields(value)
                    if isinstance(fields, str):
                        return _error(ctx, f'unknown user-defined format specifier "{fields}"')
                else:
                    users += [u for u in value.split(",") if u]
            else:
                return _error(ctx, "unknown gnu long option")
            continue
        if arg.startswith("-"):
            letters = arg[1:]
            j = 0
            while j < len(letters):
                letter = letters[j]
                j += 1
                if letter in "eAax":
                    continue
                if letter == "f":
                    full = True
                elif letter in "uUpo":
                    value = letters[j:]
                    if not value:
                        if i >= len(args):
                            return _error(
                                ctx,
                                f"option -{letter} requires an argument"
                                if letter != "o"
                                else "improper format list",
                            )
                        value = args[i]
                        i += 1
                    j = len(letters)
                    if letter in "uU":
                        users += [u for u in value.split(",") if u]
                    elif letter == "p":
                        parsed = _pid_list(value)
                        if parsed is None:
                            return _error(ctx, "process ID list syntax error")
                        pids += parsed
                    else:
                        fields = _fields(value)
                        if isinstance(fields, str):
                            return _error(ctx, f'unknown user-defined format specifier "{fields}"')
                else:
                    return _error(ctx, "unsupported SysV option")
            continue
        # BSD syntax: aux, ax, u, x, h
        for letter in arg:
            if letter in "axw":
                continue
            if letter == "u":
                bsd_user = True
            elif letter == "h":
                headers = False
            else:
                return _error(ctx, "unsupported option (BSD syntax)")
        bsd = True
    rows = _rows(ctx)
    if users:
        wanted = set()
        for user in users:
            for known in ctx.machine.users:
                if user in (known.name, str(known.uid)):
                    wanted.add(known.uid)
                    break
            else:
                if user.isdigit():
                    wanted.add(int(user))
                else:
                    return _error(ctx, "user name does not exist")
        rows = [r for r in rows if r.uid in wanted]
    if pids:
        rows = [r for r in rows if r.pid in pids]
    if not isinstance(fields, list):
        if bsd and bsd_user:
            names = ("user", "pid", "%cpu", "%mem", "vsz", "rss", "tty", "stat", "bsdstart")
            fields = [(n, {"tty": "TTY"}.get(n, FIELDS[n][0])) for n in names]
            fields += [("bsdtime", "TIME"), ("cmd", "COMMAND")]
        elif bsd:
            fields = [("pid", "PID"), ("tty", "TTY"), ("stat", "STAT"), ("bsdtime", "TIME")]
            fields.append(("cmd", "COMMAND"))
        elif full:
            fields = [
                ("user", "UID"),
                ("pid", "PID"),
                ("ppid", "PPID"),
                ("c", "C"),
                ("stime", "STIME"),
                ("tty", "TTY"),
                ("time", "TIME"),
                ("cmd", "CMD"),
            ]
        else:
            fields = [("pid", "PID"), ("tty", "TTY"), ("time", "TIME"), ("comm", "CMD")]
    _table(ctx, rows, fields, headers, bsd=bsd)
    return 0 if rows else 1


def _pid_list(text: str) -> list[int] | None:
    result = []
    for item in text.replace(" ", ",").split(","):
        if not item:
            continue
        if not item.isdigit():
            return None
        result.append(int(item))
    return result
