"""``touch``: change file timestamps, creating missing files (GNU coreutils).

``-a -m -c -d DATE -t STAMP -r FILE -h --time=WORD``. Times come from the logical clock;
``-d`` understands the date strings ``date -d`` does.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, unix_of, us_of
from cwgym.machine.commands._timefmt import DateError, parse_date, parse_touch_stamp
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import SYMLINK, FsError

SPEC = gnu_spec(
    "acd:fhmr:t:",
    {
        "no-create": "c",
        "date=": "d",
        "no-dereference": "h",
        "reference=": "r",
        "time=": "time",
    },
)


@command("touch")
def touch(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    only_a = only_m = no_create = no_deref = False
    stamp: int | None = None
    now_us = ctx.machine.clock.now_us
    now_s, now_ns = unix_of(now_us)
    ref_times: tuple[int, int] | None = None
    date_text: str | None = None
    for key, value in opts:
        if key == "a":
            only_a = True
        elif key == "m":
            only_m = True
        elif key == "c":
            no_create = True
        elif key == "h":
            no_deref = True
        elif key == "time":
            word = value or ""
            if word in ("atime", "access", "use"):
                only_a = True
            elif word in ("mtime", "modify"):
                only_m = True
            else:
                ctx.error(f"invalid argument {q(word)} for '--time'")
                ctx.err(
                    "Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'\n"
                )
                return _try(ctx)
        elif key == "t":
            seconds = parse_touch_stamp(value or "", now_s)
            if seconds is None:
                ctx.error(f"invalid date format {q(value or '')}")
                return 1
            stamp = us_of(seconds)
        elif key == "d":
            date_text = value
        elif key == "r":
            try:
                st = ctx.fs.stat(value or "", ctx.cwd)
            except FsError as exc:
                ctx.error(f"failed to get attributes of {q(value or '')}: {exc.strerror_text}")
                return 1
            ref_times = (st.atime, st.mtime)
    if date_text is not None:
        base_s, base_ns = unix_of(ref_times[1]) if ref_times else (now_s, now_ns)
        try:
            seconds, nsec = parse_date(date_text, base_s, base_ns)
        except DateError as exc:
            if exc.unsupported:
                ctx.error(f"unsupported date string {q(date_text)}: this form is not modelled")
                return 2
            ctx.error(f"invalid date format {q(date_text)}")
            return 1
        stamp = us_of(seconds, nsec)
        ref_times = None
    if not operands:
        ctx.error("missing file operand")
        ctx.err("Try 'touch --help' for more information.\n")
        return 1
    if ref_times is not None:
        atime, mtime = ref_times
    elif stamp is not None:
        atime = mtime = stamp
    else:
        atime = mtime = now_us
    if only_a and not only_m:
        mtime_value: int | None = None
        atime_value: int | None = atime
    elif only_m and not only_a:
        atime_value, mtime_value = None, mtime
    else:
        atime_value, mtime_value = atime, mtime
    fs = ctx.fs
    status = 0
    for operand in operands:
        if operand == "-":
            continue
        try:
            inode = fs.lookup(operand, ctx.cwd, follow=not no_deref)
        except FsError as exc:
            if exc.code != "ENOENT" or no_create or no_deref:
                if exc.code == "ENOENT" and no_create:
                    continue
                ctx.error(f"cannot touch {q(operand)}: {exc.strerror_text}")
                status = 1
                continue
            try:
                fs.write(operand, ctx.cwd, b"", append=True)
                inode = fs.lookup(operand, ctx.cwd)
            except FsError as exc2:
                ctx.error(f"cannot touch {q(operand)}: {exc2.strerror_text}")
                status = 1
                continue
            if stamp is None and ref_times is None and not (only_a or only_m):
                continue
        try:
            if inode.kind == SYMLINK and no_deref:
                if ctx.machine.cred.uid not in (0, inode.uid):
                    raise FsError("EPERM", operand)
                fs.fs.set_times(inode.ino, atime_value, mtime_value)
            else:
                fs.utime(operand, ctx.cwd, atime_value, mtime_value)
        except FsError as exc:
            word = "cannot touch" if exc.code == "EACCES" else "setting times of"
            ctx.error(f"{word} {q(operand)}: {exc.strerror_text}")
            status = 1
    return status


def _try(ctx: CommandContext) -> int:
    ctx.err("Try 'touch --help' for more information.\n")
    return 1
