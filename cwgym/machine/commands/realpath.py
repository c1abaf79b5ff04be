"""``realpath``: print canonical file names (GNU coreutils).

``-e -m -L -P -q -s -z --relative-to=DIR --relative-base=DIR``. Without ``-e``/``-m``
every component but the last must exist.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import canonicalize, gnu_spec, normpath, usage_error
from cwgym.machine.commands.ln import relative_to
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FsError

SPEC = gnu_spec(
    "emLPqsz",
    {
        "canonicalize-existing": "e",
        "canonicalize-missing": "m",
        "logical": "L",
        "physical": "P",
        "quiet": "q",
        "strip": "s",
        "no-symlinks": "s",
        "zero": "z",
        "relative-to=": "relative-to",
        "relative-base=": "relative-base",
    },
)


def _lexical(ctx: CommandContext, path: str) -> str:
    """``realpath -s``: resolve ``.``/``..`` lexically; components that exist must be
    directories where more follow."""
    absolute = normpath(path if path.startswith("/") else ctx.path(path))
    parts = [p for p in absolute.split("/") if p]
    for index in range(len(parts) - 1):
        prefix = "/" + "/".join(parts[: index + 1])
        try:
            inode = ctx.fs.lookup(prefix, "/", follow=False)
        except FsError:
            break
        if inode.kind != DIR and not ctx.fs.is_dir(prefix, "/"):
            raise FsError("ENOTDIR", path)
    return absolute


def _under(path: str, base: str) -> bool:
    return base == "/" or path == base or path.startswith(base.rstrip("/") + "/")


@command("realpath")
def realpath(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    mode = "f"
    physical = True
    quiet = zero = False
    rel_to: str | None = None
    rel_base: str | None = None
    for key, value in opts:
        if key in ("e", "m"):
            mode = key
        elif key == "L":
            physical = False
        elif key == "P":
            physical = True
        elif key == "s":
            physical = False
        elif key == "q":
            quiet = True
        elif key == "z":
            zero = True
        elif key == "relative-to":
            rel_to = value
        elif key == "relative-base":
            rel_base = value
    if not operands:
        return usage_error(ctx, "missing operand")

    def resolve(path: str) -> str:
        if physical:
            return canonicalize(ctx, path, mode)
        return _lexical(ctx, path)

    try:
        to_dir = resolve(rel_to) if rel_to is not None else None
        base_dir = resolve(rel_base) if rel_base is not None else None
    except FsError as exc:
        ctx.error(f"{exc.path}: {exc.strerror_text}")
        return 1
    if to_dir is None and base_dir is not None:
        to_dir = base_dir
    if to_dir is not None and base_dir is not None and not _under(to_dir, base_dir):
        to_dir = base_dir = None
    end = "\0" if zero else "\n"
    status = 0
    for operand in operands:
        try:
            result = resolve(operand)
        except FsError as exc:
            if not quiet:
                ctx.error(f"{operand}: {exc.strerror_text}")
            status = 1
            continue
        if to_dir is not None and (base_dir is None or _under(result, base_dir)):
            result = relative_to(result, to_dir)
        ctx.out(result + end)
    return status
