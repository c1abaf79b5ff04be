"""``ln``: make links (GNU coreutils 9.1): hard links by default, ``-s`` symbolic.

``-f -i -L -n -P -r -s -t DIR -T -v``. ``-r`` makes the symlink's target relative to the
link's directory. ``-i`` reads its answers from standard input. Backups are refused.
"""

from __future__ import annotations

import contextlib

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    base_name,
    dir_name,
    gnu_spec,
    normpath,
    q,
    qf,
    usage_error,
)
from cwgym.machine.commands.rm import Answers
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, SYMLINK, FsError

SPEC = gnu_spec(
    "fiLnPrst:TvS:bd",
    {
        "force": "f",
        "interactive": "i",
        "logical": "L",
        "no-dereference": "n",
        "physical": "P",
        "relative": "r",
        "symbolic": "s",
        "target-directory=": "t",
        "no-target-directory": "T",
        "verbose": "v",
    },
    unsupported=("-b", "--backup", "-S", "--suffix", "-d", "-F", "--directory"),
)


def relative_to(target: str, start: str) -> str:
    """``target`` relative to directory ``start`` (both absolute, normalised)."""
    t = [p for p in target.split("/") if p]
    s = [p for p in start.split("/") if p]
    common = 0
    while common < len(t) and common < len(s) and t[common] == s[common]:
        common += 1
    parts = [".."] * (len(s) - common) + t[common:]
    return "/".join(parts) or "."


@command("ln")
def ln(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    force = interactive = no_deref = relative = symbolic = verbose = no_target = False
    follow = False
    target_dir: str | None = None
    for key, value in opts:
        if key == "f":
            force, interactive = True, False
        elif key == "i":
            interactive, force = True, False
        elif key == "L":
            follow = True
        elif key == "P":
            follow = False
        elif key == "n":
            no_deref = True
        elif key == "r":
            relative = True
        elif key == "s":
            symbolic = True
        elif key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
        elif key == "v":
            verbose = True
    if relative and not symbolic:
        return usage_error(ctx, "cannot do --relative without --symbolic")
    if target_dir is not None and no_target:
        return usage_error(ctx, "cannot combine --target-directory and --no-target-directory")
    if not operands:
        return usage_error(ctx, "missing file operand")
    fs, cwd = ctx.fs, ctx.cwd
    pairs: list[tuple[str, str]] = []

    def into(directory: str, src: str) -> str:
        name = base_name(src)
        return directory.rstrip("/") + "/" + name if directory.rstrip("/") else "/" + name

    def is_dir_target(path: str) -> bool:
        try:
            inode = fs.lookup(path, cwd, follow=False)
        except FsError:
            return False
        if inode.kind == DIR:
            return True
        if inode.kind == SYMLINK and not no_deref:
            return fs.is_dir(path, cwd)
        return False

    if target_dir is not None:
        if not fs.is_dir(target_dir, cwd):
            try:
                fs.lookup(target_dir, cwd)
                ctx.error(f"target directory {q(target_dir)}: Not a directory")
            except FsError as exc:
                ctx.error(f"target directory {q(target_dir)}: {exc.strerror_text}")
            return 1
        pairs = [(src, into(target_dir, src)) for src in operands]
    elif no_target:
        if len(operands) == 1:
            return usage_error(ctx, f"missing destination file operand after {q(operands[0])}")
        if len(operands) > 2:
            return usage_error(ctx, f"extra operand {q(operands[2])}")
        pairs = [(operands[0], operands[1])]
    elif len(operands) == 1:
        pairs = [(operands[0], into(".", operands[0]))]
    else:
        *sources, last = operands
        if is_dir_target(last):
            pairs = [(src, into(last, src)) for src in sources]
        elif len(sources) > 1:
            try:
                fs.lookup(last, cwd)
                ctx.error(f"target {q(last)}: Not a directory")
            except FsError as exc:
                ctx.error(f"target {q(last)}: {exc.strerror_text}")
            return 1
        else:
            pairs = [(sources[0], last)]
    answers = Answers(ctx)
    status = 0
    for src, dst in pairs:
        kind = "symbolic link" if symbolic else "hard link"
        if not symbolic:
            try:
                inode = fs.lookup(src, cwd, follow=follow)
            except FsError as exc:
                ctx.error(f"failed to access {q(src)}: {exc.strerror_text}")
                status = 1
                continue
            if inode.kind == DIR:
                ctx.error(f"{src}: hard link not allowed for directory")
                status = 1
                continue
        try:
            existing = fs.lookup(dst, cwd, follow=False)
        except FsError:
            existing = None
        if existing is not None:
            if interactive:
                if not answers.ask(ctx, f"ln: replace {q(dst)}? "):
                    continue
            elif not force:
                ctx.error(f"failed to create {kind} {q(dst)}: File exists")
                status = 1
                continue
            if not symbolic and existing.ino == inode.ino:
                if verbose:
                    ctx.out(f"{q(dst)} => {q(src)}\n")
                continue
            if existing.kind == DIR:
                ctx.error(f"{qf(dst)}: cannot overwrite directory")
                status = 1
                continue
            try:
                fs.unlink(dst, cwd)
            except FsError as exc:
                ctx.error(f"cannot remove {q(dst)}: {exc.strerror_text}")
                status = 1
                continue
        try:
            if symbolic:
                target = src
                if relative:
                    link_dir = normpath(fs.realpath(dir_name(dst) or ".", cwd))
                    absolute = normpath(src if src.startswith("/") else ctx.path(src))
                    with contextlib.suppress(FsError):
                        absolute = fs.realpath(absolute, "/")
                    target = relative_to(absolute, link_dir)
                fs.symlink(target, dst, cwd)
                src_shown = target
            else:
                if follow:
                    real = fs.realpath(src, cwd)
                    fs.link(real, dst, cwd)
                else:
                    fs.link(src, dst, cwd)
                src_shown = src
        except FsError as exc:
            ctx.error(f"failed to create {kind} {q(dst)}: {exc.strerror_text}")
            status = 1
            continue
        if verbose:
            arrow = "->" if symbolic else "=>"
            ctx.out(f"{q(dst)} {arrow} {q(src_shown)}\n")
    return status
