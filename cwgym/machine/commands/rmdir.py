"""``rmdir``: remove empty directories (GNU coreutils): ``-p``, ``-v``,
``--ignore-fail-on-non-empty``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, usage_error
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = gnu_spec(
    "pv",
    {"parents": "p", "verbose": "v", "ignore-fail-on-non-empty": "ignore"},
)


@command("rmdir")
def rmdir(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    keys = {key for key, _ in opts}
    parents, verbose, ignore = "p" in keys, "v" in keys, "ignore" in keys
    if not operands:
        return usage_error(ctx, "missing operand")
    status = 0
    for operand in operands:
        path = operand
        first = True
        while True:
            if verbose:
                ctx.out(f"rmdir: removing directory, {q(path)}\n")
            try:
                ctx.fs.rmdir(path, ctx.cwd)
            except FsError as exc:
                if exc.code == "EINVAL" and path.rstrip("/").rsplit("/", 1)[-1] == "..":
                    exc = FsError("ENOTEMPTY", path)  # Linux's answer for rmdir("..")
                if ignore and exc.code in ("ENOTEMPTY", "EEXIST"):
                    break
                what = "" if first else "directory "
                ctx.error(f"failed to remove {what}{q(path)}: {exc.strerror_text}")
                status = 1
                break
            first = False
            if not parents:
                break
            stripped = path.rstrip("/")
            if "/" not in stripped:
                break
            path = stripped.rsplit("/", 1)[0].rstrip("/")
            if not path:
                break
    return status
