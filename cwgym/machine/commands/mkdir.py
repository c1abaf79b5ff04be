"""``mkdir``: make directories (GNU coreutils): ``-p``, ``-m MODE``, ``-v``."""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, mode_adjust, mode_compile, q, usage_error
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FsError

SPEC = gnu_spec(
    "m:pv",
    {"mode=": "m", "parents": "p", "verbose": "v"},
    unsupported=("-Z", "--context"),
)


@command("mkdir")
def mkdir(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    parents = verbose = False
    mode_text: str | None = None
    for key, value in opts:
        if key == "p":
            parents = True
        elif key == "v":
            verbose = True
        elif key == "m":
            mode_text = value
    umask = ctx.fs.umask
    mode: int | None = None
    if mode_text is not None:
        changes = mode_compile(mode_text)
        if changes is None:
            ctx.error(f"invalid mode {q(mode_text)}")
            return 1
        mode = mode_adjust(0o777, True, umask, changes)
    if not operands:
        return usage_error(ctx, "missing operand")
    status = 0
    for operand in operands:
        if not _make(ctx, operand, parents, verbose, mode):
            status = 1
    return status


def _make(ctx: CommandContext, path: str, parents: bool, verbose: bool, mode: int | None) -> bool:
    fs = ctx.fs
    if parents:
        # Each ancestor, spelt as the operand spells it; missing ones get u+wx, as in GNU.
        ends = [i for i, c in enumerate(path) if c == "/" and i > 0 and path[i - 1] != "/"]
        for end in ends:
            prefix = path[:end]
            if end == len(path.rstrip("/")):
                break
            try:
                inode = fs.lookup(prefix, ctx.cwd)
            except FsError as exc:
                if exc.code != "ENOENT":
                    ctx.error(f"cannot create directory {q(prefix)}: {exc.strerror_text}")
                    return False
            else:
                if inode.kind != DIR:
                    ctx.error(f"cannot create directory {q(prefix)}: Not a directory")
                    return False
                continue
            try:
                fs.mkdir(prefix, ctx.cwd, 0o777)
                fs.chmod(prefix, ctx.cwd, (0o777 & ~fs.umask) | 0o300)
            except FsError as exc:
                ctx.error(f"cannot create directory {q(prefix)}: {exc.strerror_text}")
                return False
            if verbose:
                ctx.out(f"mkdir: created directory {q(prefix)}\n")
    try:
        fs.mkdir(path, ctx.cwd, 0o777)
    except FsError as exc:
        if parents and exc.code == "EEXIST" and fs.is_dir(path, ctx.cwd):
            return True
        ctx.error(f"cannot create directory {q(path)}: {exc.strerror_text}")
        return False
    if mode is not None:
        try:
            fs.chmod(path, ctx.cwd, mode)
        except FsError as exc:
            ctx.error(f"cannot set permissions of {q(path)}: {exc.strerror_text}")
            return False
    if verbose:
        ctx.out(f"mkdir: created directory {q(path)}\n")
    return True
