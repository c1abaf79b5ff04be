"""``rm``: remove files or directories (GNU coreutils).

``-f -i -I -r -R -d -v --interactive[=WHEN] --preserve-root --no-preserve-root
--one-file-system``. Standard input is never a terminal here, so write-protected files are
removed without asking unless ``-i`` is given; answers to ``-i``/``-I`` prompts are read
from standard input (end of input means "no"). Recursing on ``/`` is refused, as in GNU.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    base_name,
    child_path,
    gnu_spec,
    q,
    take_optional,
    usage_error,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, SYMLINK, FsError, Inode

SPEC = gnu_spec(
    "dfiIrRv",
    {
        "dir": "d",
        "force": "f",
        "recursive": "r",
        "verbose": "v",
        "preserve-root": "preserve-root",
        "no-preserve-root": "no-preserve-root",
        "one-file-system": "one-file-system",
    },
    unsupported=("--presume-input-tty",),
)


class Answers:
    """Lines of standard input, read one per prompt (as ``yesno()`` does). Standard input
    is only touched when a question is actually asked."""

    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.lines: list[bytes] | None = None

    def ask(self, ctx: CommandContext, prompt: str) -> bool:
        ctx.err(prompt)
        if self.lines is None:
            data = self.ctx.stdin
            self.lines = data.split(b"\n") if data else []
            if self.lines and self.lines[-1] == b"":
                self.lines.pop()
        if not self.lines:
            return False
        line = self.lines.pop(0)
        return line[:1] in (b"y", b"Y")


def describe(inode: Inode, writable: bool) -> str:
    if inode.kind == DIR:
        kind = "directory"
    elif inode.kind == SYMLINK:
        kind = "symbolic link"
    elif inode.kind == "null":
        kind = "character special file"
    else:
        kind = "regular empty file" if not inode.data else "regular file"
    return kind if writable else "write-protected " + kind


class Remover:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.force = False
        self.interactive = "never"
        self.recursive = False
        self.dirs = False
        self.verbose = False
        self.preserve_root = True
        self.answers = Answers(ctx)
        self.status = 0

    def fail(self, path: str, text: str) -> bool:
        self.ctx.error(f"cannot remove {q(path)}: {text}")
        self.status = 1
        return False

    def _writable(self, inode: Inode) -> bool:
        return inode.kind == SYMLINK or self.ctx.fs.cred.may(inode, 2)

    def remove(self, path: str, top: bool) -> bool:
        fs = self.ctx.fs
        cwd = self.ctx.cwd
        try:
            inode = fs.lookup(path, cwd, follow=False)
        except FsError as exc:
            if exc.code == "ENOENT" and self.force:
                return True
            return self.fail(path, exc.strerror_text)
        if inode.kind == DIR:
            if not self.recursive:
                if not self.dirs:
                    return self.fail(path, "Is a directory")
                if self.interactive == "always" and not self.answers.ask(
                    self.ctx, f"rm: remove directory {q(path)}? "
                ):
                    return True
                return self._rmdir(path)
            try:
                names = fs.listdir(path, cwd)
            except FsError as exc:
                names = None
                list_error = exc
            if names is None:
                try:
                    fs.rmdir(path, cwd)
                except FsError:
                    return self.fail(path, list_error.strerror_text)
                if self.verbose:
                    self.ctx.out(f"removed directory {q(path)}\n")
                return True
            if names and self.interactive == "always":
                prompt = f"rm: descend into {'write-protected ' if not self._writable(inode) else ''}directory {q(path)}? "
                if not self.answers.ask(self.ctx, prompt):
                    return True
            ok = True
            for name in names:
                if not self.remove(child_path(path, name), False):
                    ok = False
            if not ok:
                return False
            if self.interactive == "always" and not self.answers.ask(
                self.ctx, f"rm: remove {describe(inode, self._writable(inode))} {q(path)}? "
            ):
                return True
            return self._rmdir(path)
        if self.interactive == "always" and not self.answers.ask(
            self.ctx, f"rm: remove {describe(inode, self._writable(inode))} {q(path)}? "
        ):
            return True
        try:
            fs.unlink(path, cwd)
        except FsError as exc:
            return self.fail(path, exc.strerror_text)
        if self.verbose:
            self.ctx.out(f"removed {q(path)}\n")
        return True

    def _rmdir(self, path: str) -> bool:
        try:
            self.ctx.fs.rmdir(path, self.ctx.cwd)
        except FsError as exc:
            return self.fail(path, exc.strerror_text)
        if self.verbose:
            self.ctx.out(f"removed directory {q(path)}\n")
        return True


@command("rm")
def rm(ctx: CommandContext) -> int:
    args, interactive_values = take_optional(ctx.args, None, "interactive", min_prefix=3)
    opts, operands = ctx.options(SPEC, args=args)
    r = Remover(ctx)
    # options apply in order; -f and -i override each other
    events: list[tuple[str, str | None]] = list(opts)
    for value in interactive_values:
        events.append(("interactive", value))
    for key, value in events:
        if key == "f":
            r.force, r.interactive = True, "never"
        elif key == "i":
            r.force, r.interactive = False, "always"
        elif key == "I":
            r.force, r.interactive = False, "once"
        elif key == "interactive":
            word = value or "always"
            groups = {
                "never": "never",
                "no": "never",
                "none": "never",
                "once": "once",
                "always": "always",
                "yes": "always",
            }
            matches = [w for w in groups if w.startswith(word)] if word else []
            if word in groups:
                r.interactive = groups[word]
            elif len({groups[m] for m in matches}) == 1:
                r.interactive = groups[matches[0]]
            else:
                ctx.error(f"invalid argument {q(word)} for '--interactive'")
                ctx.err(
                    "Valid arguments are:\n  - 'never', 'no', 'none'\n  - 'once'\n  - 'always', 'yes'\n"
                )
                return _try(ctx)
            if r.interactive != "never":
                r.force = False
        elif key in ("r", "R"):
            r.recursive = True
        elif key == "d":
            r.dirs = True
        elif key == "v":
            r.verbose = True
        elif key == "preserve-root":
            r.preserve_root = True
        elif key == "no-preserve-root":
            r.preserve_root = False
    if not operands:
        if r.force:
            return 0
        return usage_error(ctx, "missing operand")
    if r.interactive == "once" and (r.recursive or len(operands) > 3):
        count = len(operands)
        noun = "argument" if count == 1 else "arguments"
        what = f"rm: remove {count} {noun}{' recursively' if r.recursive else ''}? "
        if not r.answers.ask(ctx, what):
            return 0
    for operand in operands:
        if r.recursive:
            last = base_name(operand) if operand.rstrip("/") else "/"
            if last in (".", ".."):
                ctx.error(f"refusing to remove '.' or '..' directory: skipping {q(operand)}")
                r.status = 1
                continue
            if r.preserve_root and _is_root(ctx, operand):
                if operand == "/":
                    ctx.error("it is dangerous to operate recursively on '/'")
                else:
                    ctx.error(
                        f"it is dangerous to operate recursively on {q(operand)} (same as '/')"
                    )
                ctx.error("use --no-preserve-root to override this failsafe")
                r.status = 1
                continue
        r.remove(operand, True)
    return r.status


def _is_root(ctx: CommandContext, path: str) -> bool:
    try:
        return ctx.fs.realpath(path, ctx.cwd) == "/"
    except FsError:
        return False


def _try(ctx: CommandContext) -> int:
    ctx.err("Try 'rm --help' for more information.\n")
    return 1
