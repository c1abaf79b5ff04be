"""``ls``: list directory contents, as GNU coreutils 9 prints them when stdout is not a
terminal (one name per line unless ``-C``/``-x``/``-m`` ask for columns, no colours, names
printed literally).

Supported: ``-a -A -B -c -C -d -F -g -G -h -H -i -I -k -l -L -m -n -N -o -p -q -r -R -s -S
-t -u -U -v -w -x -X -1``, ``--all --almost-all --classify --color[=never|auto|tty]
--directory --file-type --full-time --group-directories-first --hide --human-readable
--ignore --ignore-backups --indicator-style --inode --literal --no-group --numeric-uid-gid
--quoting-style --recursive --reverse --si --size --sort --time --time-style --width``.
Timestamps use GNU's "recent" format (``Sep 17 09:00``) for times within the last six
months up to now, else ``Sep 17  2026``. Block counts follow the disk model in
``_fsutil``. Column output (``-C``/``-x``) is 80 wide (``$COLUMNS`` or ``-w`` change it),
with tabs as GNU uses them. ``dir`` is ``ls -C`` and ``vdir`` is ``ls -l`` (GNU's ``dir``
also escapes names with ``-b``, which is not modelled: names print literally).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cmp_to_key

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    blocks_512,
    ceil_div,
    child_path,
    entry_kinds,
    filevercmp,
    glob_match,
    gnu_spec,
    human,
    is_executable,
    mode_string,
    q,
    shell_quote,
    take_optional,
    type_char,
    unix_of,
)
from cwgym.machine.commands._timefmt import Tm, strftime
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FILE, SYMLINK, FsError, Stat
from cwgym.machine.users import group_name, user_name

SPEC = gnu_spec(
    "aABcCdFgGhHiI:klLmnNopqrRsStuUvw:xX1",
    {
        "all": "a",
        "almost-all": "A",
        "ignore-backups": "B",
        "directory": "d",
        "file-type": "file-type",
        "full-time": "full-time",
        "group-directories-first": "group-directories-first",
        "no-group": "G",
        "human-readable": "h",
        "si": "si",
        "dereference-command-line": "H",
        "dereference-command-line-symlink-to-dir": "deref-dir",
        "hide=": "hide",
        "ignore=": "I",
        "indicator-style=": "indicator-style",
        "inode": "i",
        "kibibytes": "k",
        "dereference": "L",
        "numeric-uid-gid": "n",
        "literal": "N",
        "hide-control-chars": "q",
        "show-control-chars": "show-control-chars",
        "reverse": "r",
        "recursive": "R",
        "size": "s",
        "sort=": "sort",
        "time=": "time",
        "time-style=": "time-style",
        "quoting-style=": "quoting-style",
        "width=": "w",
        "format=": "format",
        "zero": "zero",
    },
    unsupported=(
        "-b",
        "--escape",
        "-D",
        "--dired",
        "-f",
        "-Q",
        "--quote-name",
        "-T",
        "--tabsize",
        "-Z",
        "--context",
        "--author",
        "--block-size",
        "--hyperlink",
    ),
)

SIX_MONTHS_S = 31556952 // 2
TIME_KEYS = {
    "atime": "atime",
    "access": "atime",
    "use": "atime",
    "ctime": "ctime",
    "status": "ctime",
    "birth": "btime",
    "creation": "btime",
}
COLOR_GROUPS = (("always", "yes", "force"), ("never", "no", "none"), ("auto", "tty", "if-tty"))
TIME_GROUPS = (("atime", "access", "use"), ("ctime", "status"), ("birth", "creation"))
FORMAT_GROUPS = (
    ("verbose", "long"),
    ("commas",),
    ("horizontal", "across"),
    ("vertical",),
    ("single-column",),
)
QUOTING_ALL = (
    *(("literal",), ("shell",), ("shell-always",), ("shell-escape",), ("shell-escape-always",)),
    ("c",),
    ("c-maybe",),
    ("escape",),
    ("locale",),
    ("clocale",),
)
SORT_KEYS = {
    "none": "none",
    "time": "time",
    "size": "size",
    "extension": "extension",
    "version": "version",
    "width": "width",
}
INDICATOR_STYLES = ("none", "slash", "file-type", "classify")
QUOTING_STYLES = ("literal", "shell", "shell-always", "shell-escape", "shell-escape-always")
FORMATS = {
    "verbose": "long",
    "long": "long",
    "commas": "commas",
    "horizontal": "across",
    "across": "across",
    "vertical": "vertical",
    "single-column": "single",
}


class Entry:
    __slots__ = ("display", "is_arg", "kind", "link_st", "name", "path", "st", "target")

    def __init__(self, name: str, path: str, st: Stat | None, *, is_arg: bool = False) -> None:
        self.name = name
        self.display = name
        self.path = path
        self.st = st
        self.is_arg = is_arg
        self.target: str | None = None
        self.link_st: Stat | None = None
        self.kind = st.kind if st is not None else "?"

    @property
    def is_dir(self) -> bool:
        return self.st is not None and self.st.kind == DIR


class Options:
    def __init__(self) -> None:
        self.all = False
        self.almost_all = False
        self.ignore_backups = False
        self.directory = False
        self.format = "single"
        self.long = False
        self.show_owner = True
        self.show_group = True
        self.numeric = False
        self.human = False
        self.si = False
        self.inode = False
        self.size = False
        self.recursive = False
        self.reverse = False
        self.sort = "name"
        self.sort_explicit = False
        self.time = "mtime"
        self.time_explicit = False
        self.indicator = "none"
        self.deref = "default"
        self.full_time = False
        self.time_style = "locale"
        self.group_dirs_first = False
        self.ignore: list[str] = []
        self.hide: list[str] = []
        self.hide_control = False
        self.quoting = "literal"
        self.width = 80
        self.zero = False


class Failure(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


def _parse(ctx: CommandContext) -> tuple[Options, list[str]]:
    args, color_values = take_optional(ctx.args, None, "color", min_prefix=3)
    args, classify_values = take_optional(args, None, "classify", min_prefix=3)
    for value in color_values:
        when = _choice(ctx, value, COLOR_GROUPS, "--color") if value is not None else "always"
        if when in COLOR_GROUPS[0]:
            ctx.error(
                f"unsupported option '--color{'=' + value if value else ''}': colours are not modelled"
            )
            raise Failure(2)
    opts_list, operands = ctx.options(SPEC, usage_status=2, args=args)
    o = Options()
    columns = ctx.env.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        o.width = int(columns)
    for value in classify_values:
        when = _choice(ctx, value, COLOR_GROUPS, "--classify") if value is not None else "always"
        o.indicator = "none" if when in COLOR_GROUPS[1] else "classify"
    for key, value in opts_list:
        if key == "a":
            o.all, o.almost_all = True, False
        elif key == "A":
            o.almost_all, o.all = True, False
        elif key == "B":
            o.ignore_backups = True
        elif key == "c":
            o.time, o.time_explicit = "ctime", True
        elif key == "u":
            o.time, o.time_explicit = "atime", True
        elif key == "C":
            o.format = "vertical"
        elif key == "x":
            o.format = "across"
        elif key == "m":
            o.format = "commas"
        elif key == "1":
            if o.format != "long":
                o.format = "single"
        elif key == "l":
            o.format = "long"
        elif key == "g":
            o.format, o.show_owner = "long", False
        elif key == "o":
            o.format, o.show_group = "long", False
        elif key == "n":
            o.format, o.numeric = "long", True
        elif key == "G":
            o.show_group = False
        elif key == "d":
            o.directory = True
        elif key == "F":
            o.indicator = "classify"
        elif key == "p":
            o.indicator = "slash"
        elif key == "file-type":
            o.indicator = "file-type"
        elif key == "indicator-style":
            o.indicator = _choice(ctx, value, INDICATOR_STYLES, "--indicator-style")
        elif key == "h":
            o.human, o.si = True, False
        elif key == "si":
            o.human, o.si = True, True
        elif key == "k":
            pass
        elif key == "H":
            o.deref = "args"
        elif key == "deref-dir":
            o.deref = "args-dirs"
        elif key == "L":
            o.deref = "always"
        elif key == "i":
            o.inode = True
        elif key == "s":
            o.size = True
        elif key == "r":
            o.reverse = True
        elif key == "R":
            o.recursive = True
        elif key == "S":
            o.sort, o.sort_explicit = "size", True
        elif key == "t":
            o.sort, o.sort_explicit = "time", True
        elif key == "U":
            o.sort, o.sort_explicit = "none", True
        elif key == "v":
            o.sort, o.sort_explicit = "version", True
        elif key == "X":
            o.sort, o.sort_explicit = "extension", True
        elif key == "sort":
            o.sort = SORT_KEYS[_choice(ctx, value, tuple(SORT_KEYS), "--sort")]
            o.sort_explicit = True
        elif key == "time":
            o.time = TIME_KEYS[_choice(ctx, value, TIME_GROUPS, "--time")]
            o.time_explicit = True
        elif key == "full-time":
            o.format, o.full_time = "long", True
            o.time_style = "full-iso"
        elif key == "time-style":
            style = value or ""
            if style.startswith("posix-"):
                style = style[6:]
            o.time_style = style
        elif key == "group-directories-first":
            o.group_dirs_first = True
        elif key == "I":
            o.ignore.append(value or "")
        elif key == "hide":
            o.hide.append(value or "")
        elif key == "q":
            o.hide_control = True
        elif key == "show-control-chars":
            o.hide_control = False
        elif key == "N":
            o.quoting = "literal"
        elif key == "quoting-style":
            o.quoting = _choice(ctx, value, QUOTING_ALL, "--quoting-style")
            if o.quoting not in QUOTING_STYLES:
                ctx.error(f"unsupported option '--quoting-style={o.quoting}'")
                raise Failure(2)
        elif key == "w":
            text = value or ""
            if not text.isdigit():
                ctx.error(f"invalid line width: {q(text)}")
                raise Failure(2)
            o.width = int(text)
        elif key == "format":
            o.format = FORMATS[_choice(ctx, value, FORMAT_GROUPS, "--format")]
        elif key == "zero":
            o.zero = True
    o.long = o.format == "long"
    if o.long and not o.time_style.startswith("+"):
        styles = ("full-iso", "long-iso", "iso", "locale")
        matches = [name for name in styles if name.startswith(o.time_style)] if o.time_style else []
        if o.time_style in styles or len(matches) == 1:
            o.time_style = o.time_style if o.time_style in styles else matches[0]
        else:
            ctx.error(f"invalid argument {q(o.time_style)} for 'time style'")
            ctx.err(
                "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n"
                "  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n"
                f"Try '{ctx.name} --help' for more information.\n"
            )
            raise Failure(2)
    if not o.sort_explicit and o.time_explicit and not o.long:
        o.sort = "time"
    if o.deref == "default":
        o.deref = "never" if (o.directory or o.indicator == "classify" or o.long) else "args-dirs"
    return o, operands


def _choice(ctx: CommandContext, value: str | None, valid, option: str) -> str:
    """GNU argmatch: an exact name or unambiguous prefix of one of ``valid``'s names.

    ``valid`` is a tuple of names or of synonym groups (tuples), listed as GNU lists them.
    """
    groups = [g if isinstance(g, tuple) else (g,) for g in valid]
    names = [name for group in groups for name in group]
    text = value or ""
    if text in names:
        return text
    matches = [name for name in names if name.startswith(text)] if text else []
    owners = {next(i for i, g in enumerate(groups) if m in g) for m in matches}
    if len(owners) == 1:
        return matches[0]
    kind = "ambiguous" if matches else "invalid"
    ctx.error(f"{kind} argument {q(text)} for {q(option)}")
    ctx.err("Valid arguments are:\n")
    for group in groups:
        ctx.err("  - " + ", ".join(q(name) for name in group) + "\n")
    ctx.err(f"Try '{ctx.name} --help' for more information.\n")
    raise Failure(1)


@command("ls", "dir", "vdir")
def ls(ctx: CommandContext) -> int:
    try:
        o, operands = _parse(ctx)
    except Failure as failure:
        return failure.status
    if (
        ctx.name.rsplit("/", 1)[-1] == "dir"
        and o.format == "single"
        and not any(a in ("-1", "--format=single-column") for a in ctx.args)
    ):
        o.format = "vertical"
    elif ctx.name.rsplit("/", 1)[-1] == "vdir":
        o.format, o.long = "long", True
    return Lister(ctx, o).run(operands)


class Lister:
    def __init__(self, ctx: CommandContext, o: Options) -> None:
        self.ctx = ctx
        self.o = o
        self.status = 0
        self.first = True
        self.now_s, self.now_ns = unix_of(ctx.machine.clock.now_us)
        self.users = ctx.machine.users
        self.align_quotes = False

    # -- gathering ------------------------------------------------------------------------
    def _stat(self, path: str, follow: bool) -> Stat:
        return self.ctx.fs.stat(path, self.ctx.cwd, follow=follow)

    def _arg_entry(self, operand: str) -> Entry | None:
        o = self.o
        follow = o.deref in ("always", "args") or operand.endswith("/")
        try:
            st = self._stat(operand, follow)
        except FsError as exc:
            self.ctx.error(f"cannot access {q(operand)}: {exc.strerror_text}")
            self.status = 2
            return None
        if st.kind == SYMLINK and o.deref == "args-dirs":
            try:
                target = self._stat(operand, True)
                if target.kind == DIR:
                    st = target
            except FsError:
                pass
        entry = Entry(operand, operand, st, is_arg=True)
        self._fill_link(entry)
        return entry

    def _fill_link(self, entry: Entry) -> None:
        if entry.st is None or entry.st.kind != SYMLINK:
            return
        entry.target = entry.st.target or ""
        if self.o.long or self.o.indicator in ("classify", "file-type"):
            try:
                entry.link_st = self._stat(entry.path, True)
            except FsError:
                entry.link_st = None

    def _read_dir(self, path: str, shown: str, is_arg: bool) -> list[Entry] | None:
        fs = self.ctx.fs
        try:
            inode = fs.lookup(path, self.ctx.cwd)
            names = fs.listdir(path, self.ctx.cwd)
        except FsError as exc:
            self.ctx.error(f"cannot open directory {q(shown)}: {exc.strerror_text}")
            self.status = 2 if is_arg else max(self.status, 1)
            return None
        if self.o.sort == "none":
            names = list(inode.entries or {})
        kinds = entry_kinds(self.ctx, path)
        kinds["."] = kinds[".."] = DIR
        o = self.o
        result: list[Entry] = []
        candidates = ([".", ".."] if o.all else []) + names
        need_stat = (
            o.long
            or o.indicator != "none"
            or o.sort in ("size", "time", "extension", "version")
            or o.inode
            or o.size
            or o.group_dirs_first
        )
        for name in candidates:
            if name.startswith(".") and not (o.all or o.almost_all):
                continue
            if o.ignore_backups and name.endswith("~"):
                continue
            if any(glob_match(p, name, period=True) for p in o.ignore):
                continue
            if not (o.all or o.almost_all) and any(
                glob_match(p, name, period=True) for p in o.hide
            ):
                continue
            entry_path = child_path(path, name)
            st: Stat | None = None
            if need_stat:
                try:
                    st = self._stat(entry_path, o.deref == "always")
                except FsError as exc:
                    where = name if shown == "." else child_path(shown, name)
                    self.ctx.error(f"cannot access {q(where)}: {exc.strerror_text}")
                    self.status = max(self.status, 1)
            entry = Entry(name, entry_path, st)
            if st is None:
                entry.kind = kinds.get(name, FILE)
            self._fill_link(entry)
            result.append(entry)
        return result

    # -- sorting --------------------------------------------------------------------------
    def _time_of(self, entry: Entry) -> int:
        st = entry.st
        if st is None:
            return 0
        return getattr(st, self.o.time)

    def _sorted(self, entries: list[Entry]) -> list[Entry]:
        o = self.o
        if o.sort == "none":
            ordered = list(entries)
            if o.reverse:
                ordered.reverse()
            return self._dirs_first(ordered)

        def by_name(a: Entry, b: Entry) -> int:
            ka, kb = (
                a.name.encode("utf-8", "surrogateescape"),
                b.name.encode("utf-8", "surrogateescape"),
            )
            return (ka > kb) - (ka < kb)

        cmp: Callable[[Entry, Entry], int]
        if o.sort == "time":

            def cmp(a: Entry, b: Entry) -> int:
                ta, tb = self._time_of(a), self._time_of(b)
                if ta != tb:
                    return -1 if ta > tb else 1
                return by_name(a, b)

        elif o.sort == "size":

            def cmp(a: Entry, b: Entry) -> int:
                sa = a.st.size if a.st else 0
                sb = b.st.size if b.st else 0
                if sa != sb:
                    return -1 if sa > sb else 1
                return by_name(a, b)

        elif o.sort == "extension":

            def ext(e: Entry) -> bytes:
                dot = e.name.rfind(".")
                return e.name[dot:].encode() if dot >= 0 else b""

            def cmp(a: Entry, b: Entry) -> int:
                ea, eb = ext(a), ext(b)
                if ea != eb:
                    return -1 if ea < eb else 1
                return by_name(a, b)

        elif o.sort == "version":

            def cmp(a: Entry, b: Entry) -> int:
                return filevercmp(a.name, b.name)

        elif o.sort == "width":

            def cmp(a: Entry, b: Entry) -> int:
                wa, wb = len(a.name), len(b.name)
                if wa != wb:
                    return -1 if wa < wb else 1
                return by_name(a, b)

        else:
            cmp = by_name
        final = cmp
        if o.reverse:

            def final(a: Entry, b: Entry) -> int:
                return cmp(b, a)

        return self._dirs_first(sorted(entries, key=cmp_to_key(final)))

    def _dirs_first(self, entries: list[Entry]) -> list[Entry]:
        if not self.o.group_dirs_first:
            return entries

        def is_dir(e: Entry) -> bool:
            if e.is_dir:
                return True
            return (
                e.st is not None
                and e.st.kind == SYMLINK
                and e.link_st is not None
                and e.link_st.kind == DIR
            )

        return [e for e in entries if is_dir(e)] + [e for e in entries if not is_dir(e)]

    # -- running --------------------------------------------------------------------------
    def run(self, operands: list[str]) -> int:
        o = self.o
        if not operands:
            operands = ["."]
            explicit = False
        else:
            explicit = True
        files: list[Entry] = []
        dirs: list[Entry] = []
        for operand in operands:
            entry = self._arg_entry(operand)
            if entry is None:
                continue
            if entry.is_dir and not o.directory:
                dirs.append(entry)
            else:
                files.append(entry)
        _ = explicit
        print_names = len(operands) > 1 or o.recursive
        if files:
            self._print_block(self._sorted(files))
        pending = self._sorted(dirs)
        if not files and len(operands) <= 1 and len(pending) == 1 and not o.recursive:
            print_names = False
        if files and pending:
            self.ctx.out("\n")
        queue = [(entry.path, entry.name, True) for entry in pending]
        while queue:
            path, shown, is_arg = queue.pop(0)
            entries = self._read_dir(path, shown, is_arg)
            if entries is None:
                continue
            if print_names:
                if not self.first:
                    self.ctx.out("\n")
                self.ctx.out(self._quoted_header(shown) + ":\n")
            self.first = False
            entries = self._sorted(entries)
            if o.long or o.size:
                total = sum(blocks_512(e.st) for e in entries if e.st is not None)
                self.ctx.out(f"total {self._blocks_text(total)}\n")
            self._print_block(entries)
            if o.recursive:
                subdirs = [
                    (child_path(path, e.name), child_path(shown, e.name), False)
                    for e in entries
                    if self._is_subdir(e) and e.name not in (".", "..")
                ]
                queue[0:0] = subdirs
        return self.status

    def _is_subdir(self, entry: Entry) -> bool:
        """Whether -R descends into an entry: a directory (by d_type; with -L, by stat)."""
        if entry.st is not None:
            return entry.st.kind == DIR
        if entry.kind == SYMLINK and self.o.deref == "always":
            try:
                return self._stat(entry.path, True).kind == DIR
            except FsError:
                return False
        return entry.kind == DIR

    def _quoted_header(self, name: str) -> str:
        return self._quote_name(name)

    # -- formatting -----------------------------------------------------------------------
    def _blocks_text(self, blocks: int) -> str:
        if self.o.human:
            return human(blocks * 512, si=self.o.si)
        return str(ceil_div(blocks * 512, 1024))

    def _quote_name(self, name: str) -> str:
        style = self.o.quoting
        if style == "literal":
            if self.o.hide_control:
                return "".join(
                    ch if (ch.isprintable() and ord(ch) < 0x7F) or ch == " " else "?" for ch in name
                )
            return name
        if style in ("shell-escape-always", "shell-always"):
            return shell_quote(name, always=True)
        return shell_quote(name, always=False)

    def _indicator(self, st: Stat | None) -> str:
        style = self.o.indicator
        if style == "none" or st is None:
            return ""
        if st.kind == DIR:
            return "/"
        if style == "slash":
            return ""
        if st.kind == SYMLINK:
            return "@"
        if style == "classify" and is_executable(st):
            return "*"
        return ""

    def _name_part(self, entry: Entry) -> str:
        return self._aligned_name(entry) + self._indicator(entry.st)

    def _aligned_name(self, entry: Entry) -> str:
        """The quoted name; when some names of the block are quoted and others not, GNU
        indents the bare ones by a space so the columns line up."""
        shown = self._quote_name(entry.display)
        if self.align_quotes and shown == entry.display:
            return " " + shown
        return shown

    def _print_block(self, entries: list[Entry]) -> None:
        if not entries:
            return
        self.align_quotes = (
            self.o.quoting in ("shell", "shell-escape")
            and self.o.format in ("long", "vertical", "across")
            and any(self._quote_name(e.display) != e.display for e in entries)
        )
        if self.o.long:
            self._print_long(entries)
            return
        inode_w = max((len(str(e.st.ino)) if e.st else 1) for e in entries) if self.o.inode else 0
        size_w = max(len(self._size_cell(e)) for e in entries) if self.o.size else 0
        cells = []
        for entry in entries:
            prefix = ""
            if self.o.inode:
                prefix += (str(entry.st.ino) if entry.st else "?").rjust(inode_w) + " "
            if self.o.size:
                prefix += self._size_cell(entry).rjust(size_w) + " "
            cells.append(prefix + self._name_part(entry))
        fmt = self.o.format
        end = "\0" if self.o.zero else "\n"
        if fmt == "single" or (self.o.width == 0 and fmt in ("vertical", "across")):
            for cell in cells:
                self.ctx.out(cell + end)
        elif fmt == "commas":
            self._print_commas(cells)
        else:
            self._print_columns(cells, by_columns=fmt == "vertical")

    def _size_cell(self, entry: Entry) -> str:
        if entry.st is None:
            return "?"
        return self._blocks_text(blocks_512(entry.st))

    def _print_commas(self, cells: list[str]) -> None:
        pos = 0
        width = self.o.width
        out = []
        for index, cell in enumerate(cells):
            length = len(cell)
            if index:
                if not width or pos + length + 2 < width:
                    pos += 2
                    out.append(", ")
                else:
                    pos = 0
                    out.append(",\n")
            out.append(cell)
            pos += length
        self.ctx.out("".join(out) + "\n")

    def _print_columns(self, cells: list[str], *, by_columns: bool) -> None:
        n = len(cells)
        width = self.o.width
        max_cols = max(1, min(width // 3 if width // 3 else 1, n))
        col_arrs = [[3] * (i + 1) for i in range(max_cols)]
        line_lens = [(i + 1) * 3 for i in range(max_cols)]
        valid = [True] * max_cols
        for filesno, cell in enumerate(cells):
            length = len(cell)
            for i in range(max_cols):
                if not valid[i]:
                    continue
                idx = filesno // ((n + i) // (i + 1)) if by_columns else filesno % (i + 1)
                real = length + (0 if idx == i else 2)
                if col_arrs[i][idx] < real:
                    line_lens[i] += real - col_arrs[i][idx]
                    col_arrs[i][idx] = real
                    valid[i] = line_lens[i] < width
        cols = max_cols
        while cols > 1 and not valid[cols - 1]:
            cols -= 1
        widths = col_arrs[cols - 1]
        out: list[str] = []
        if by_columns:
            rows = n // cols + (n % cols != 0)
            for row in range(rows):
                col = 0
                filesno = row
                pos = 0
                while True:
                    cell = cells[filesno]
                    max_len = widths[col]
                    col += 1
                    out.append(cell)
                    filesno += rows
                    if filesno >= n:
                        break
                    out.append(_indent(pos + len(cell), pos + max_len))
                    pos += max_len
                out.append("\n")
        else:
            pos = 0
            out.append(cells[0])
            name_len = len(cells[0])
            max_len = widths[0]
            for filesno in range(1, n):
                col = filesno % cols
                if col == 0:
                    out.append("\n")
                    pos = 0
                else:
                    out.append(_indent(pos + name_len, pos + max_len))
                    pos += max_len
                out.append(cells[filesno])
                name_len = len(cells[filesno])
                max_len = widths[col]
            out.append("\n")
        self.ctx.out("".join(out))

    def _owner(self, uid: int) -> str:
        return str(uid) if self.o.numeric else user_name(uid, self.users)

    def _group(self, gid: int) -> str:
        return str(gid) if self.o.numeric else group_name(gid, self.users)

    def _size_text(self, st: Stat) -> str:
        if st.kind == "null":
            return "1, 3"
        if self.o.human:
            return human(st.size, si=self.o.si)
        return str(st.size)

    def _date_text(self, st: Stat) -> str:
        seconds, nsec = unix_of(getattr(st, self.o.time))
        tm = Tm(seconds, nsec)
        style = self.o.time_style
        recent = self.now_s - SIX_MONTHS_S < seconds <= self.now_s
        if style == "full-iso":
            return strftime("%Y-%m-%d %H:%M:%S.%N %z", tm)
        if style == "long-iso":
            return strftime("%Y-%m-%d %H:%M", tm)
        if style == "iso":
            return strftime("%m-%d %H:%M" if recent else "%Y-%m-%d ", tm)
        if style.startswith("+"):
            formats = style[1:].split("\n", 1)
            fmt = formats[0] if recent or len(formats) == 1 else formats[1]
            return strftime(fmt, tm)
        return strftime("%b %e %H:%M" if recent else "%b %e  %Y", tm)

    def _print_long(self, entries: list[Entry]) -> None:
        o = self.o
        rows = []
        for entry in entries:
            st = entry.st
            if st is None:
                rows.append((entry, None))
                continue
            rows.append(
                (
                    entry,
                    (
                        str(st.ino),
                        self._blocks_text(blocks_512(st)),
                        mode_string(st),
                        str(st.nlink),
                        self._owner(st.uid),
                        self._group(st.gid),
                        self._size_text(st),
                        self._date_text(st),
                    ),
                )
            )
        known = [cells for _, cells in rows if cells is not None]

        def width(index: int) -> int:
            return max((len(c[index]) for c in known), default=1)

        ino_w, blk_w, _, nl_w, own_w, grp_w, size_w, date_w = (width(i) for i in range(8))
        if not known:
            date_w = len(self._date_text(Stat(0, FILE, 0, 0, 0, 1, 0, 0, 0, 0, 0)))
        out: list[str] = []
        for entry, cells in rows:
            parts = []
            if cells is None:
                mode = type_char(entry.kind) + "?" * 9
                cells = ("?", "?", mode, "?", "?", "?", "?", "?")
                date = "?".rjust(date_w)
            else:
                date = cells[7]
            if o.inode:
                parts.append(cells[0].rjust(ino_w) + " ")
            if o.size:
                parts.append(cells[1].rjust(blk_w) + " ")
            parts.append(cells[2] + " " + cells[3].rjust(nl_w) + " ")
            if o.show_owner:
                parts.append(cells[4].ljust(own_w) + " ")
            if o.show_group:
                parts.append(cells[5].ljust(grp_w) + " ")
            parts.append(cells[6].rjust(size_w) + " " + date + " ")
            parts.append(self._aligned_name(entry))
            st = entry.st
            if st is not None and st.kind == SYMLINK:
                parts.append(" -> " + self._quote_name(entry.target or ""))
                if o.indicator != "none" and entry.link_st is not None:
                    parts.append(self._indicator(entry.link_st))
            elif st is not None:
                parts.append(self._indicator(st))
            out.append("".join(parts) + ("\0" if o.zero else "\n"))
        self.ctx.out("".join(out))


def _indent(start: int, end: int, tabsize: int = 8) -> str:
    out = []
    while start < end:
        if tabsize and end // tabsize > (start + 1) // tabsize:
            out.append("\t")
            start += tabsize - start % tabsize
        else:
            out.append(" ")
            start += 1
    return "".join(out)
