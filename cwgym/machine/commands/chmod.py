"""``chmod``: change file mode bits (GNU coreutils).

Modes are octal or symbolic (``u+x,go-w``, ``a=r``, ``g=u``, ``+X``, ``u+s``, ``+t``);
without ``ugoa`` the umask limits the change and a surprising result is diagnosed as GNU
does. ``-R -v -c -f --reference=FILE --preserve-root``. Symlinks named on the command line
are followed; symlinks met while recursing are skipped.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    child_path,
    gnu_spec,
    mode_adjust,
    mode_compile,
    perm_string,
    q,
    qf,
    usage_error,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, SYMLINK, FsError

SPEC = gnu_spec(
    "cfvR",
    {
        "changes": "c",
        "silent": "f",
        "quiet": "f",
        "verbose": "v",
        "recursive": "R",
        "reference=": "reference",
        "preserve-root": "preserve-root",
        "no-preserve-root": "no-preserve-root",
    },
)
MODE_LETTERS = set("rwxXstugoa=+-,01234567")


def _split_mode_args(args: list[str]) -> tuple[list[str], str | None]:
    """GNU chmod lets a mode like ``-w`` or ``-rwx`` stand where an option would."""
    rest: list[str] = []
    mode: str | None = None
    done = False
    for arg in args:
        if done:
            rest.append(arg)
            continue
        if arg == "--":
            done = True
            rest.append(arg)
            continue
        if (
            mode is None
            and len(arg) > 1
            and arg[0] == "-"
            and arg[1] in "rwxXstugoa=+,01234567"
            and all(c in MODE_LETTERS for c in arg[1:])
        ):
            mode = arg
            continue
        rest.append(arg)
    return rest, mode


class Chmod:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.verbose = False
        self.changes_only = False
        self.silent = False
        self.recursive = False
        self.changes = None
        self.fixed: int | None = None
        self.status = 0
        self.diagnose = False

    def error(self, message: str) -> None:
        if not self.silent:
            self.ctx.error(message)
        self.status = 1

    def visit(self, path: str, top: bool) -> None:
        fs, cwd = self.ctx.fs, self.ctx.cwd
        try:
            link = fs.lookup(path, cwd, follow=False)
        except FsError as exc:
            self.error(f"cannot access {q(path)}: {exc.strerror_text}")
            if self.verbose:
                self.ctx.out(f"{q(path)} could not be accessed\n")
            return
        if link.kind == SYMLINK:
            if not top:
                return
            try:
                inode = fs.lookup(path, cwd)
            except FsError:
                self.error(f"cannot operate on dangling symlink {q(path)}")
                return
        else:
            inode = link
        old = inode.mode & 0o7777
        is_dir = inode.kind == DIR
        if self.fixed is not None:
            new = self.fixed
        else:
            new = mode_adjust(old, is_dir, fs.umask, self.changes)
        ok = True
        if new != old:
            try:
                fs.chmod(path, cwd, new)
            except FsError as exc:
                self.error(f"changing permissions of {q(path)}: {exc.strerror_text}")
                ok = False
        if self.verbose or (self.changes_only and new != old and ok):
            if not ok:
                self.ctx.out(
                    f"failed to change mode of {q(path)} from {old:04o} ({perm_string(old)}) to {new:04o} ({perm_string(new)})\n"
                )
            elif new != old:
                self.ctx.out(
                    f"mode of {q(path)} changed from {old:04o} ({perm_string(old)}) to {new:04o} ({perm_string(new)})\n"
                )
            else:
                self.ctx.out(f"mode of {q(path)} retained as {old:04o} ({perm_string(old)})\n")
        if ok and self.diagnose and self.changes is not None:
            naive = mode_adjust(old, is_dir, 0, self.changes)
            if new & ~naive:
                self.error(
                    f"{qf(path)}: new permissions are {perm_string(new)}, not {perm_string(naive)}"
                )
        if self.recursive and is_dir:
            try:
                names = fs.listdir(path, cwd)
            except FsError as exc:
                self.error(f"cannot read directory {q(path)}: {exc.strerror_text}")
                return
            for name in names:
                self.visit(child_path(path, name), False)


@command("chmod")
def chmod(ctx: CommandContext) -> int:
    args, mode_arg = _split_mode_args(ctx.args)
    opts, operands = ctx.options(SPEC, args=args)
    c = Chmod(ctx)
    reference: str | None = None
    preserve_root = False
    for key, value in opts:
        if key == "v":
            c.verbose = True
        elif key == "c":
            c.changes_only = True
        elif key == "f":
            c.silent = True
        elif key == "R":
            c.recursive = True
        elif key == "reference":
            reference = value
        elif key == "preserve-root":
            preserve_root = True
        elif key == "no-preserve-root":
            preserve_root = False
    if reference is not None:
        try:
            c.fixed = ctx.fs.stat(reference, ctx.cwd).mode & 0o7777
        except FsError as exc:
            ctx.error(f"failed to get attributes of {q(reference)}: {exc.strerror_text}")
            return 1
        if mode_arg is not None:
            operands.insert(0, mode_arg)
    else:
        if mode_arg is None:
            if not operands:
                return usage_error(ctx, "missing operand")
            mode_arg = operands.pop(0)
        if not operands:
            return usage_error(ctx, f"missing operand after {q(mode_arg)}")
        changes = mode_compile(mode_arg)
        if changes is None:
            return usage_error(ctx, f"invalid mode: {q(mode_arg)}")
        c.changes = changes
        c.diagnose = any(change.affected == 0 for change in changes)
    if not operands:
        if reference is None and mode_arg is not None:
            return usage_error(ctx, f"missing operand after {q(mode_arg)}")
        return usage_error(ctx, "missing operand")
    for operand in operands:
        if c.recursive and preserve_root:
            try:
                if ctx.fs.realpath(operand, ctx.cwd) == "/":
                    ctx.error(f"it is dangerous to operate recursively on {q(operand)}")
                    ctx.error("use --no-preserve-root to override this failsafe")
                    c.status = 1
                    continue
            except FsError:
                pass
        c.visit(operand, True)
    return c.status
