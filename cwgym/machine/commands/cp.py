"""``cp``: copy files and directories (GNU coreutils 9.1).

Supported: ``-a -d -f -H -i -l -L -n -P -p -r -R -s -t DIR -T -u -v -x``,
``--preserve[=LIST]`` / ``--no-preserve=LIST`` (mode, ownership, timestamps, links, all),
``--parents``, ``--remove-destination``, ``--strip-trailing-slashes``, ``--sparse``,
``--reflink`` (no effect). Backups (``-b``, ``-S``), ``--attributes-only``,
``--copy-contents`` and SELinux contexts are refused. ``-i`` reads its answers from
standard input (end of input means "no"). Directory entries are copied in name order.
"""

from __future__ import annotations

import contextlib

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import base_name, gnu_spec, q, take_optional, usage_error
from cwgym.machine.commands.rm import Answers
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FILE, NULLDEV, SYMLINK, FsError, Inode

SPEC = gnu_spec(
    "adfHilLnPprRst:TuvxS:bZ",
    {
        "archive": "a",
        "force": "f",
        "interactive": "i",
        "link": "l",
        "dereference": "L",
        "no-clobber": "n",
        "no-dereference": "P",
        "no-preserve=": "no-preserve",
        "recursive": "r",
        "symbolic-link": "s",
        "target-directory=": "t",
        "no-target-directory": "T",
        "update": "u",
        "verbose": "v",
        "one-file-system": "x",
        "parents": "parents",
        "remove-destination": "remove-destination",
        "strip-trailing-slashes": "strip",
        "sparse=": "sparse",
        "reflink": "reflink",
    },
    unsupported=(
        "-b",
        "--backup",
        "-S",
        "--suffix",
        "--attributes-only",
        "--copy-contents",
        "-Z",
        "--context",
        "--debug",
    ),
)
PRESERVE_WORDS = ("mode", "ownership", "timestamps", "links", "context", "xattr", "all")


class Copier:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.recursive = False
        self.deref = "default"  # default | always | never | args
        self.preserve: set[str] = set()
        self.force = False
        self.interactive = False
        self.no_clobber = False
        self.update = False
        self.verbose = False
        self.hard_link = False
        self.symbolic = False
        self.remove_destination = False
        self.parents = False
        self.answers = Answers(ctx)
        self.status = 0
        self.top_dst_ino: int | None = None
        self.top_names: tuple[str, str] = ("", "")

    def error(self, message: str) -> bool:
        self.ctx.error(message)
        self.status = 1
        return False

    def _lookup(self, path: str, follow: bool) -> Inode | None:
        try:
            return self.fs.lookup(path, self.ctx.cwd, follow=follow)
        except FsError:
            return None

    # -- one top-level source ------------------------------------------------------------
    def copy_top(self, src: str, dst: str) -> None:
        follow = self.deref in ("always", "args") or (
            self.deref == "default" and not self.recursive
        )
        try:
            inode = self.fs.lookup(src, self.ctx.cwd, follow=follow)
        except FsError as exc:
            self.error(f"cannot stat {q(src)}: {exc.strerror_text}")
            return
        if inode.kind == DIR and not self.recursive:
            self.error(f"-r not specified; omitting directory {q(src)}")
            return
        if inode.kind == DIR:
            dst_parent = dst.rstrip("/").rsplit("/", 1)[0] if "/" in dst.rstrip("/") else "."
            try:
                src_real = self.fs.realpath(src, self.ctx.cwd)
                parent_real = self.fs.realpath(dst_parent, self.ctx.cwd)
                dst_real = parent_real.rstrip("/") + "/" + base_name(dst)
                if dst_real == src_real or dst_real.startswith(src_real.rstrip("/") + "/"):
                    self.top_names = (src, dst)
            except FsError:
                pass
        self.copy(src, dst, inode, top=True)

    def copy(self, src: str, dst: str, inode: Inode, *, top: bool) -> bool:
        fs, cwd = self.fs, self.ctx.cwd
        try:
            existing_l: Inode | None = fs.lookup(dst, cwd, follow=False)
        except FsError as exc:
            if exc.code != "ENOENT":
                return self.error(f"cannot stat {q(dst)}: {exc.strerror_text}")
            existing_l = None
        existing = self._lookup(dst, True)
        if existing is not None and existing.ino == inode.ino and not self.symbolic:
            return self.error(f"{q(src)} and {q(dst)} are the same file")
        if inode.kind == DIR:
            if existing is not None and existing.kind != DIR:
                return self.error(
                    f"cannot overwrite non-directory {q(dst)} with directory {q(src)}"
                )
            return self._copy_dir(src, dst, inode, existing)
        if existing is not None and existing.kind == DIR:
            return self.error(f"cannot overwrite directory {q(dst)} with non-directory")
        if existing_l is not None:
            if self.no_clobber:
                return True
            if self.update and existing is not None and existing.mtime >= inode.mtime:
                return True
            if self.interactive and not self.answers.ask(self.ctx, f"cp: overwrite {q(dst)}? "):
                return True
        if self.symbolic:
            return self._make_link(src, dst, existing_l, symbolic=True)
        if self.hard_link:
            return self._make_link(src, dst, existing_l, symbolic=False)
        if inode.kind == SYMLINK:
            return self._copy_symlink(src, dst, inode, existing_l)
        return self._copy_file(src, dst, inode, existing, existing_l)

    # -- kinds ---------------------------------------------------------------------------
    def _copy_file(
        self, src: str, dst: str, inode: Inode, existing: Inode | None, existing_l: Inode | None
    ) -> bool:
        fs, cwd = self.fs, self.ctx.cwd
        if inode.kind not in (FILE, NULLDEV):
            return self.error(f"cannot copy {q(src)}: unsupported file type")
        try:
            data = fs.read(src, cwd)
        except FsError as exc:
            return self.error(f"cannot open {q(src)} for reading: {exc.strerror_text}")
        if existing_l is not None and existing is None and not self.remove_destination:
            return self.error(f"not writing through dangling symlink {q(dst)}")
        if existing_l is not None and self.remove_destination:
            try:
                fs.unlink(dst, cwd)
            except FsError as exc:
                return self.error(f"cannot remove {q(dst)}: {exc.strerror_text}")
            existing = None
        created = existing is None
        try:
            fs.write(dst, cwd, data, mode=inode.mode & 0o777)
        except FsError as exc:
            if exc.code == "EACCES" and self.force and not created:
                try:
                    fs.unlink(dst, cwd)
                    fs.write(dst, cwd, data, mode=inode.mode & 0o777)
                    created = True
                except FsError as exc2:
                    return self.error(f"cannot create regular file {q(dst)}: {exc2.strerror_text}")
            else:
                if created and exc.code == "EISDIR" and dst.endswith("/"):
                    return self.error(f"cannot create regular file {q(dst)}: Not a directory")
                verb = "cannot create regular file" if created else "cannot open"
                suffix = "" if created else " for writing"
                return self.error(f"{verb} {q(dst)}{suffix}: {exc.strerror_text}")
        if self.verbose:
            self.ctx.out(f"{q(src)} -> {q(dst)}\n")
        self._preserve(dst, inode)
        return True

    def _copy_symlink(self, src: str, dst: str, inode: Inode, existing_l: Inode | None) -> bool:
        fs, cwd = self.fs, self.ctx.cwd
        if existing_l is not None:
            try:
                fs.unlink(dst, cwd)
            except FsError as exc:
                return self.error(f"cannot remove {q(dst)}: {exc.strerror_text}")
        try:
            fs.symlink(inode.target or "", dst, cwd)
        except FsError as exc:
            return self.error(f"cannot create symbolic link {q(dst)}: {exc.strerror_text}")
        if self.verbose:
            self.ctx.out(f"{q(src)} -> {q(dst)}\n")
        return True

    def _make_link(self, src: str, dst: str, existing_l: Inode | None, *, symbolic: bool) -> bool:
        fs, cwd = self.fs, self.ctx.cwd
        if existing_l is not None:
            if not (self.force or self.remove_destination):
                what = "symbolic link" if symbolic else "hard link"
                return self.error(
                    f"cannot create {what} {q(dst)}: File exists"
                    if symbolic
                    else f"cannot create hard link {q(dst)} to {q(src)}: File exists"
                )
            try:
                fs.unlink(dst, cwd)
            except FsError as exc:
                return self.error(f"cannot remove {q(dst)}: {exc.strerror_text}")
        try:
            if symbolic:
                if not src.startswith("/") and "/" in dst.rstrip("/"):
                    return self.error(
                        f"{q(dst)}: can make relative symbolic links only in current directory"
                    )
                fs.symlink(src, dst, cwd)
            else:
                fs.link(src, dst, cwd)
        except FsError as exc:
            what = "symbolic link" if symbolic else "hard link"
            if symbolic:
                return self.error(f"cannot create {what} {q(dst)}: {exc.strerror_text}")
            return self.error(f"cannot create hard link {q(dst)} to {q(src)}: {exc.strerror_text}")
        if self.verbose:
            self.ctx.out(f"{q(src)} -> {q(dst)}\n")
        return True

    def _copy_dir(self, src: str, dst: str, inode: Inode, existing: Inode | None) -> bool:
        fs, cwd = self.fs, self.ctx.cwd
        try:
            names = fs.listdir(src, cwd)
        except FsError as exc:
            return self.error(f"cannot access {q(src)}: {exc.strerror_text}")
        created = False
        if existing is None:
            try:
                fs.mkdir(dst, cwd, (inode.mode & 0o777) | 0o700)
                created = True
            except FsError as exc:
                return self.error(f"cannot create directory {q(dst)}: {exc.strerror_text}")
            if self.verbose:
                self.ctx.out(f"{q(src)} -> {q(dst)}\n")
        dst_inode = self._lookup(dst, True)
        if self.top_names[0] and self.top_dst_ino is None and dst_inode is not None:
            self.top_dst_ino = dst_inode.ino
            names = fs.listdir(src, cwd)
        ok = True
        for name in names:
            child_src = src.rstrip("/") + "/" + name if src != "/" else "/" + name
            child_dst = dst.rstrip("/") + "/" + name if dst != "/" else "/" + name
            try:
                child = fs.lookup(child_src, cwd, follow=self.deref == "always")
            except FsError as exc:
                ok = self.error(f"cannot stat {q(child_src)}: {exc.strerror_text}")
                continue
            if self.top_dst_ino is not None and child.ino == self.top_dst_ino:
                ok = self.error(
                    f"cannot copy a directory, {q(self.top_names[0])}, into itself, {q(self.top_names[1])}"
                )
                continue
            if not self.copy(child_src, child_dst, child, top=False):
                ok = False
        if created:
            mode = (
                inode.mode & 0o7777 if "mode" in self.preserve else (inode.mode & 0o777) & ~fs.umask
            )
            with contextlib.suppress(FsError):
                fs.chmod(dst, cwd, mode)
        self._preserve(dst, inode, skip_mode=True)
        return ok

    def _preserve(self, dst: str, inode: Inode, *, skip_mode: bool = False) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        if "ownership" in self.preserve:
            with contextlib.suppress(FsError):
                fs.chown(dst, cwd, None, inode.gid)
        if "mode" in self.preserve and not skip_mode:
            with contextlib.suppress(FsError):
                fs.chmod(dst, cwd, inode.mode & 0o7777)
        if "timestamps" in self.preserve:
            with contextlib.suppress(FsError):
                fs.utime(dst, cwd, inode.atime, inode.mtime)


def _parse_preserve(ctx: CommandContext, value: str | None, option: str) -> set[str] | None:
    words = set()
    for word in (value or "mode,ownership,timestamps").split(","):
        matches = [w for w in PRESERVE_WORDS if w.startswith(word)] if word else []
        if word in PRESERVE_WORDS:
            matches = [word]
        if len(matches) != 1:
            kind = "ambiguous" if matches else "invalid"
            ctx.error(f"{kind} argument {q(word)} for {q(option)}")
            ctx.err("Valid arguments are:\n")
            for name in PRESERVE_WORDS:
                ctx.err(f"  - {q(name)}\n")
            ctx.err("Try 'cp --help' for more information.\n")
            return None
        words.add(matches[0])
    if "all" in words:
        words |= {"mode", "ownership", "timestamps", "links"}
    return words


@command("cp")
def cp(ctx: CommandContext) -> int:
    args, preserve_values = take_optional(ctx.args, None, "preserve", min_prefix=4)
    opts, operands = ctx.options(SPEC, args=args)
    c = Copier(ctx)
    target_dir: str | None = None
    no_target = False
    strip = False
    for key, value in opts:
        if key == "a":
            c.recursive = True
            c.deref = "never"
            c.preserve |= {"mode", "ownership", "timestamps", "links"}
        elif key == "d":
            c.deref = "never"
            c.preserve.add("links")
        elif key == "f":
            c.force = True
        elif key == "i":
            c.interactive, c.no_clobber = True, False
        elif key == "n":
            c.no_clobber, c.interactive = True, False
        elif key == "H":
            c.deref = "args"
        elif key == "L":
            c.deref = "always"
        elif key == "P":
            c.deref = "never"
        elif key == "l":
            c.hard_link = True
        elif key == "s":
            c.symbolic = True
        elif key == "p":
            c.preserve |= {"mode", "ownership", "timestamps"}
        elif key == "no-preserve":
            words = _parse_preserve(ctx, value, "--no-preserve")
            if words is None:
                return 1
            c.preserve -= words
        elif key in ("r", "R"):
            c.recursive = True
        elif key == "t":
            target_dir = value
        elif key == "T":
            no_target = True
        elif key == "u":
            c.update = True
        elif key == "v":
            c.verbose = True
        elif key == "parents":
            c.parents = True
        elif key == "remove-destination":
            c.remove_destination = True
        elif key == "strip":
            strip = True
    for value in preserve_values:
        words = _parse_preserve(ctx, value, "--preserve")
        if words is None:
            return 1
        c.preserve |= words
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
    if target_dir is not None:
        sources = operands
        try:
            if fs.lookup(target_dir, ctx.cwd).kind != DIR:
                ctx.error(f"target directory {q(target_dir)}: Not a directory")
                return 1
        except FsError as exc:
            ctx.error(f"target directory {q(target_dir)}: {exc.strerror_text}")
            return 1
    elif no_target:
        if len(operands) > 2:
            return usage_error(ctx, f"extra operand {q(operands[2])}")
        c.copy_top(operands[0], operands[1])
        return c.status
    else:
        *sources, last = operands
        is_dir = fs.is_dir(last, ctx.cwd)
        if not is_dir:
            if len(sources) > 1:
                try:
                    fs.lookup(last, ctx.cwd)
                    ctx.error(f"target {q(last)}: Not a directory")
                except FsError as exc:
                    ctx.error(f"target {q(last)}: {exc.strerror_text}")
                return 1
            c.copy_top(sources[0], last)
            return c.status
        target_dir = last
    if c.parents:
        for src in sources:
            _copy_with_parents(c, src, target_dir)
        return c.status
    for src in sources:
        name = base_name(src)
        dst = target_dir.rstrip("/") + "/" + name if target_dir != "/" else "/" + name
        c.copy_top(src, dst)
    return c.status


def _copy_with_parents(c: Copier, src: str, target: str) -> None:
    fs, cwd = c.fs, c.ctx.cwd
    parts = [p for p in src.split("/") if p]
    built_dst = target.rstrip("/")
    built_src = "/" if src.startswith("/") else ""
    for part in parts[:-1]:
        built_src = (built_src.rstrip("/") + "/" + part) if built_src else part
        built_dst = built_dst + "/" + part
        if not fs.is_dir(built_dst, cwd):
            try:
                mode = fs.lookup(built_src, cwd).mode
                fs.mkdir(built_dst, cwd, mode & 0o777)
            except FsError as exc:
                c.error(f"cannot make directory {q(built_dst)}: {exc.strerror_text}")
                return
            if c.verbose:
                c.ctx.out(f"{built_src} -> {built_dst}\n")
    c.copy_top(src, built_dst + "/" + parts[-1] if parts else built_dst)
