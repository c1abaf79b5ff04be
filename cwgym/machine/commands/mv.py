"""``mv``: move (rename) files (GNU coreutils 9.1).

``-f -i -n -u -v -t DIR -T --strip-trailing-slashes``; ``-i`` reads its answers from
standard input (end of input means "no"). Every simulated machine has one filesystem, so a
move is always a rename. Backups (``-b``, ``-S``) and SELinux contexts are refused.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import base_name, gnu_spec, q, usage_error
from cwgym.machine.commands.rm import Answers
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FsError, Inode

SPEC = gnu_spec(
    "fint:TuvS:bZ",
    {
        "force": "f",
        "interactive": "i",
        "no-clobber": "n",
        "target-directory=": "t",
        "no-target-directory": "T",
        "update": "u",
        "verbose": "v",
        "strip-trailing-slashes": "strip",
    },
    unsupported=(
        "-b",
        "--backup",
        "-S",
        "--suffix",
        "-Z",
        "--context",
        "--debug",
        "--no-copy",
        "--exchange",
    ),
)


class Mover:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.mode = "force"  # force | interactive | no-clobber
        self.update = False
        self.verbose = False
        self.answers = Answers(ctx)
        self.status = 0

    def error(self, message: str) -> None:
        self.ctx.error(message)
        self.status = 1

    def move(self, src: str, dst: str) -> None:
        fs, cwd = self.ctx.fs, self.ctx.cwd
        try:
            inode = fs.lookup(src, cwd, follow=False)
        except FsError as exc:
            self.error(f"cannot stat {q(src)}: {exc.strerror_text}")
            return
        try:
            target: Inode | None = fs.lookup(dst, cwd, follow=False)
        except FsError as exc:
            if exc.code != "ENOENT":
                self.error(f"cannot stat {q(dst)}: {exc.strerror_text}")
                return
            target = None
        if target is None and dst.endswith("/") and inode.kind != DIR:
            self.error(f"cannot move {q(src)} to {q(dst)}: Not a directory")
            return
        if target is not None:
            if self.mode == "no-clobber":
                return
            if target.ino == inode.ino:
                self.error(f"{q(src)} and {q(dst)} are the same file")
                return
            if self.update and target.mtime >= inode.mtime:
                return
            if self.mode == "interactive" and not self.answers.ask(
                self.ctx, f"mv: overwrite {q(dst)}? "
            ):
                return
            if target.kind == DIR and inode.kind != DIR:
                self.error(f"cannot overwrite directory {q(dst)} with non-directory")
                return
            if target.kind != DIR and inode.kind == DIR:
                self.error(f"cannot overwrite non-directory {q(dst)} with directory {q(src)}")
                return
        if base_name(src) in (".", ".."):
            self.error(f"cannot move {q(src)} to {q(dst)}: Device or resource busy")
            return
        if inode.kind == DIR:
            try:
                src_real = fs.realpath(src, cwd)
                parent = dst.rstrip("/").rsplit("/", 1)[0] if "/" in dst.rstrip("/") else "."
                dst_real = fs.realpath(parent or "/", cwd).rstrip("/") + "/" + base_name(dst)
                if dst_real.startswith(src_real.rstrip("/") + "/"):
                    self.error(f"cannot move {q(src)} to a subdirectory of itself, {q(dst)}")
                    return
            except FsError:
                pass
        try:
            fs.rename(src, dst, cwd)
        except FsError as exc:
            text = exc.strerror_text
            if exc.code == "EISDIR" and dst.endswith("/") and target is None:
                text = "Not a directory"
            self.error(f"cannot move {q(src)} to {q(dst)}: {text}")
            return
        if self.verbose:
            self.ctx.out(f"renamed {q(src)} -> {q(dst)}\n")


@command("mv")
def mv(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    m = Mover(ctx)
    target_dir: str | None = None
    no_target = strip = False
    for key, value in opts:
        if key == "f":
            m.mode = "force"
        elif key == "i":
            m.mode = "interactive"
        elif key == "n":
            m.mode = "no-clobber"
        elif key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
        elif key == "u":
            m.update = True
        elif key == "v":
            m.verbose = True
        elif key == "strip":
            strip = True
    if strip:
        operands = [o.rstrip("/") or "/" for o in operands]
    if target_dir is not None and no_target:
        return usage_error(
            ctx, "cannot combine --target-directory (-t) and --no-target-directory (-T)"
        )
    if not operands:
        return usage_error(ctx, "missing file operand")
    if target_dir is None and len(operands) == 1:
        return usage_error(ctx, f"missing destination file operand after {q(operands[0])}")
    fs = ctx.fs
    if no_target:
        if len(operands) > 2:
            return usage_error(ctx, f"extra operand {q(operands[2])}")
        m.move(operands[0], operands[1])
        return m.status
    if target_dir is not None:
        sources = operands
        try:
            if fs.lookup(target_dir, ctx.cwd).kind != DIR:
                ctx.error(f"target directory {q(target_dir)}: Not a directory")
                return 1
        except FsError as exc:
            ctx.error(f"target directory {q(target_dir)}: {exc.strerror_text}")
            return 1
    else:
        *sources, last = operands
        if not fs.is_dir(last, ctx.cwd):
            if len(sources) > 1:
                try:
                    fs.lookup(last, ctx.cwd)
                    ctx.error(f"target {q(last)}: Not a directory")
                except FsError as exc:
                    ctx.error(f"target {q(last)}: {exc.strerror_text}")
                return 1
            m.move(sources[0], last)
            return m.status
        target_dir = last
    for src in sources:
        name = base_name(src)
        dst = target_dir.rstrip("/") + "/" + name if target_dir.rstrip("/") else "/" + name
        m.move(src, dst)
    return m.status
