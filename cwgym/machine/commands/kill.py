"""``kill``: send a signal to a process (bash's builtin ``kill``).

``kill [-s SIG | -n NUM | -SIG] PID...`` and ``kill -l [SIG...]``/``-L``. Terminating
signals (TERM, KILL, INT, HUP, QUIT, USR1, ...) end the process: it leaves
``machine.procs``. Signal 0 only checks that the process exists. PID 1 is the session's
init shell, which ignores every signal, as a container's PID 1 does. Signals whose default
is to stop or continue a process (STOP, TSTP, TTIN, TTOU, CONT) are not modelled: job
control is not, so they are refused (exit 2); ignored-by-default signals (CHLD, URG,
WINCH) change nothing. Job specs (``%1``) name no job: background jobs are processes here.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.context import CommandContext

SIGNALS = [
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
    "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
    "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
]  # fmt: skip
NUMBERS = {name: index + 1 for index, name in enumerate(SIGNALS)}
for _n in range(34, 65):
    if _n < 50:
        NUMBERS["RTMIN" if _n == 34 else f"RTMIN+{_n - 34}"] = _n
    else:
        NUMBERS["RTMAX" if _n == 64 else f"RTMAX-{64 - _n}"] = _n
NAMES = {number: name for name, number in NUMBERS.items()}
NUMBERS.update({"IOT": 6, "POLL": 29, "CLD": 17})
STOPPING = {"STOP", "TSTP", "TTIN", "TTOU", "CONT"}
IGNORED = {"CHLD", "URG", "WINCH"}
USAGE = (
    "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n"
)


def signal_number(spec: str) -> int | None:
    text = spec.upper()
    if text.isdigit():
        number = int(text)
        return number if number == 0 or number in NAMES else None
    if text.startswith("SIG"):
        text = text[3:]
    return NUMBERS.get(text)


def _listing() -> str:
    cells = [f"{number:2d}) SIG{name}" for number, name in sorted(NAMES.items())]
    lines = []
    for start in range(0, len(cells), 5):
        lines.append(
            "\t".join(cells[start : start + 5]) + "\t" * (len(cells[start : start + 5]) < 5)
        )
    return "\n".join(lines) + "\n"


def _list(ctx: CommandContext, specs: list[str]) -> int:
    if not specs:
        ctx.out(_listing())
        return 0
    status = 0
    for spec in specs:
        if spec.isdigit():
            number = int(spec)
            if number > 128:
                number -= 128
            if number in NAMES:
                ctx.out(NAMES[number] + "\n")
                continue
        else:
            number = signal_number(spec)
            if number is not None and number != 0:
                ctx.out(f"{number}\n")
                continue
        ctx.error(f"{spec}: invalid signal specification")
        status = 1
    return status


@command("kill")
def kill(ctx: CommandContext) -> int:
    args = list(ctx.args)
    if not args:
        ctx.err(USAGE)
        return 2
    signal = NUMBERS["TERM"]
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        if arg in ("-l", "-L"):
            return _list(ctx, args)
        if arg in ("-s", "-n"):
            if not args:
                ctx.error(f"{arg}: option requires an argument")
                return 1
            spec = args.pop(0)
            number = signal_number(spec)
            if number is None:
                ctx.error(f"{spec}: invalid signal specification")
                return 1
            signal = number
            continue
        number = signal_number(arg[1:])
        if number is None:
            ctx.error(f"{arg[1:]}: invalid signal specification")
            return 1
        signal = number
        break
    if not args:
        ctx.err(USAGE)
        return 2
    name = NAMES.get(signal, "")
    if name in STOPPING:
        ctx.error(f"unsupported signal SIG{name}: job control is not modelled")
        return 2
    machine = ctx.machine
    status = 0
    for target in args:
        if target.startswith("%"):
            ctx.error(f"{target}: no such job")
            status = 1
            continue
        text = target[1:] if target.startswith("-") else target
        if not text.isdigit():
            ctx.error(f"{target}: arguments must be process or job IDs")
            status = 1
            continue
        pid = int(text)
        if pid == 1:
            continue
        listing = {p.pid: p for p in machine.procs.listing(machine.clock.now_us)}
        proc = listing.get(pid)
        if proc is None:
            ctx.error(f"({pid}) - No such process")
            status = 1
            continue
        if machine.cred.uid not in (0, proc.uid):
            ctx.error(f"({pid}) - Operation not permitted")
            status = 1
            continue
        if signal == 0 or name in IGNORED:
            continue
        machine.procs.kill(pid)
    return status
