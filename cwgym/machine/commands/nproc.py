"""``nproc``: processing units available. Every simulated machine has 2 (like the workplace
machines); ``OMP_NUM_THREADS`` and ``OMP_THREAD_LIMIT`` are honoured as in GNU."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, usage_error
from cwgym.machine.context import CommandContext

CPUS = 2
SPEC = gnu_spec("", {"all": "all", "ignore=": "ignore"})


def _env_count(value: str | None) -> int | None:
    if not value:
        return None
    first = value.split(",")[0].strip()
    return int(first) if first.isdigit() and int(first) > 0 else None


@command("nproc")
def nproc(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    if operands:
        return usage_error(ctx, f"extra operand {q(operands[0])}")
    everything = False
    ignore = 0
    for key, value in opts:
        if key == "all":
            everything = True
        else:
            text = (value or "").strip()
            if not text.isdigit():
                ctx.error(f"invalid number: {q(value or '')}")
                return 1
            ignore = int(text)
    count = CPUS
    if not everything:
        threads = _env_count(ctx.env.get("OMP_NUM_THREADS"))
        if threads is not None:
            count = threads
        limit = _env_count(ctx.env.get("OMP_THREAD_LIMIT"))
        if limit is not None:
            count = min(count, limit)
    count = max(1, count - ignore)
    ctx.out(f"{count}\n")
    return 0
