"""``du``: estimate file space usage (GNU coreutils).

``-a -b -B SIZE -c -d N -h -H -k -l -L -m -P -s -S -x -0 --apparent-size --si --inodes
--max-depth --exclude=PATTERN --summarize --total``. Sizes follow the disk model in
``_fsutil`` (4 KiB blocks); a hard-linked file, and an operand seen before, is counted once
(unless ``-l``). Directory entries are visited in name order.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    blocks_512,
    child_path,
    glob_match,
    gnu_spec,
    human,
    q,
    usage_error,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, SYMLINK, FsError, Stat

SPEC = gnu_spec(
    "0abB:cd:hHklLmPsSx",
    {
        "null": "0",
        "all": "a",
        "apparent-size": "apparent",
        "bytes": "b",
        "block-size=": "B",
        "total": "c",
        "max-depth=": "d",
        "human-readable": "h",
        "si": "si",
        "inodes": "inodes",
        "dereference-args": "H",
        "count-links": "l",
        "dereference": "L",
        "no-dereference": "P",
        "summarize": "s",
        "separate-dirs": "S",
        "one-file-system": "x",
        "exclude=": "exclude",
    },
    unsupported=(
        "-X",
        "--exclude-from",
        "--files0-from",
        "--time",
        "--time-style",
        "-t",
        "--threshold",
    ),
)
_SUFFIX = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5, "E": 1024**6}


def block_size(text: str) -> int | None:
    """Bytes of a ``--block-size``/``-B`` value such as ``1K``, ``1MB`` or ``512``; ``None`` if malformed
    (shared with df)."""
    import re

    match = re.fullmatch(r"(\d*)([KMGTPE]?)(i?B?)", text)
    if match is None or not (match.group(1) or match.group(2)):
        return None
    number = int(match.group(1)) if match.group(1) else 1
    suffix = match.group(2)
    if not suffix:
        return number
    base = 1000 if match.group(3) == "B" else 1024
    power = "KMGTPE".index(suffix) + 1
    return number * base**power


class Du:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.all = False
        self.apparent = False
        self.block = 1024
        self.human = False
        self.si = False
        self.inodes = False
        self.count_links = False
        self.deref = "P"
        self.summarize = False
        self.separate = False
        self.max_depth: int | None = None
        self.exclude: list[str] = []
        self.end = "\n"
        self.seen: set[int] = set()
        self.hash_all = False  # several operands: never count a file twice
        self.status = 0

    def size_of(self, st: Stat) -> int:
        if self.inodes:
            return 1
        if self.apparent:
            return st.size if st.kind != DIR else 4096
        return blocks_512(st) * 512

    def show(self, size: int, path: str) -> None:
        if self.inodes:
            text = human(size, si=self.si) if self.human else str(size)
        elif self.human:
            text = human(size, si=self.si)
        else:
            text = str(-(-size // self.block))
        self.ctx.out(f"{text}\t{path}{self.end}")

    def visit(self, path: str, depth: int, top: bool) -> int:
        fs, cwd = self.ctx.fs, self.ctx.cwd
        follow = self.deref == "L" or (top and self.deref == "H")
        try:
            st = fs.stat(path, cwd, follow=follow)
        except FsError as exc:
            self.ctx.error(f"cannot access {q(path)}: {exc.strerror_text}")
            self.status = 1
            return 0
        if any(
            glob_match(p, path.rstrip("/").rsplit("/", 1)[-1]) or glob_match(p, path)
            for p in self.exclude
        ):
            return 0
        if not self.count_links and (st.nlink > 1 or st.kind == DIR or top or self.hash_all):
            if st.ino in self.seen:
                return 0
            self.seen.add(st.ino)
        total = self.size_of(st)
        if st.kind == DIR:
            try:
                names = fs.listdir(path, cwd)
            except FsError as exc:
                self.ctx.error(f"cannot read directory {q(path)}: {exc.strerror_text}")
                self.status = 1
                names = []
            for name in names:
                sub = self.visit(child_path(path, name), depth + 1, False)
                if not self.separate or not self._is_dir(child_path(path, name)):
                    total += sub
        show = (top or (not self.summarize and (st.kind == DIR or self.all))) and (
            self.max_depth is None or depth <= self.max_depth
        )
        if self.summarize and not top:
            show = False
        if show:
            self.show(total, path)
        return total

    def _is_dir(self, path: str) -> bool:
        try:
            st = self.ctx.fs.stat(path, self.ctx.cwd, follow=self.deref == "L")
        except FsError:
            return False
        return st.kind == DIR and st.kind != SYMLINK


@command("du")
def du(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    d = Du(ctx)
    total_line = False
    for key, value in opts:
        if key == "0":
            d.end = "\0"
        elif key == "a":
            d.all = True
        elif key == "apparent":
            d.apparent = True
        elif key == "b":
            d.apparent, d.block, d.human = True, 1, False
        elif key == "B":
            size = block_size(value or "")
            if size is None or size == 0:
                ctx.error(f"invalid --block-size argument {q(value or '')}")
                return 1
            d.block, d.human = size, False
        elif key == "k":
            d.block, d.human = 1024, False
        elif key == "m":
            d.block, d.human = 1024 * 1024, False
        elif key == "c":
            total_line = True
        elif key == "d":
            text = value or ""
            if not text.isdigit():
                ctx.error(f"invalid maximum depth {q(text)}")
                return 1
            d.max_depth = int(text)
        elif key == "h":
            d.human, d.si = True, False
        elif key == "si":
            d.human, d.si = True, True
        elif key == "inodes":
            d.inodes = True
        elif key in "HLP":
            d.deref = key
        elif key == "l":
            d.count_links = True
        elif key == "s":
            d.summarize = True
        elif key == "S":
            d.separate = True
        elif key == "exclude":
            d.exclude.append(value or "")
    if d.summarize and d.max_depth is not None and d.max_depth != 0:
        return usage_error(ctx, f"warning: summarizing conflicts with --max-depth={d.max_depth}")
    if d.summarize and d.all:
        return usage_error(ctx, "cannot both summarize and show all entries")
    grand = 0
    d.hash_all = len(operands) > 1
    for operand in operands or ["."]:
        try:
            st = ctx.fs.stat(operand, ctx.cwd, follow=d.deref in ("L", "H"))
            if st.ino in d.seen and not d.count_links:
                continue
        except FsError:
            pass
        grand += d.visit(operand, 0, True)
    if total_line:
        d.show(grand, "total")
    return d.status
