"""``find``: search for files in a directory hierarchy (GNU findutils 4.9).

Options ``-H -L -P``; global options ``-maxdepth -mindepth -depth -d -xdev -mount -noleaf
-ignore_readdir_race -noignore_readdir_race -daystart -follow -regextype -warn -nowarn``;
tests ``-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex
-type -xtype -size -empty -newer -anewer -cnewer -newerXY -mtime -atime -ctime -mmin -amin
-cmin -perm -user -group -uid -gid -nouser -nogroup -links -inum -samefile -readable
-writable -executable -true -false``; actions ``-print -print0 -printf -ls -fprint
-fprint0 -fprintf -fls -exec -execdir -ok -okdir -delete -prune -quit``; operators
``( ) ! -not -a -and -o -or ,``.

Any other predicate GNU has is refused with ``find: unsupported predicate `-X'`` (exit 2)
rather than ignored. Directory entries are visited in name order (a real disk gives them
in an arbitrary order). Standard input is never a terminal, so GNU's warnings stay off;
``-ok`` reads its answers from standard input.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    blocks_512,
    ceil_div,
    child_path,
    entry_kinds,
    glob_match,
    lookup_group,
    lookup_user,
    mode_adjust,
    mode_compile,
    mode_string,
    q,
    unix_of,
)
from cwgym.machine.commands._timefmt import DateError, Tm, parse_date, strftime
from cwgym.machine.commands.rm import Answers
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, FILE, NULLDEV, SYMLINK, FsError, Stat
from cwgym.machine.users import group_name, user_name

UNSUPPORTED = {
    "-used",
    "-context",
    "-fstype",
    "-files0-from",
    "-help",
    "--help",
    "-version",
    "--version",
}
REGEX_TYPES = (
    "findutils-default",
    "ed",
    "emacs",
    "gnu-awk",
    "grep",
    "posix-awk",
    "awk",
    "posix-basic",
    "posix-egrep",
    "egrep",
    "posix-extended",
    "posix-minimal-basic",
    "sed",
)
TYPE_LETTERS = "bcdpflsD"


class Quit(Exception):
    """``-quit``: stop at once."""


class FindError(Exception):
    def __init__(self, message: str, status: int = 1) -> None:
        self.message = message
        self.status = status


class NoStat(Exception):
    """A test needed a file's status and it could not be read (``find`` reports it)."""

    def __init__(self, node: Node) -> None:
        self.node = node


class Node:
    """One visited file. Its kind is always known (from ``d_type``); its status only when
    the directory could be searched: a test that needs it then raises :class:`NoStat`."""

    __slots__ = ("_link_st", "_st", "depth", "error", "kind", "link_kind", "path", "start")

    def __init__(
        self,
        path: str,
        st: Stat | None,
        depth: int,
        start: str,
        link_st: Stat | None,
        *,
        kind: str | None = None,
        error: str = "",
    ) -> None:
        self.path = path
        self._st = st  # what the traversal mode says (followed or not)
        self._link_st = link_st  # the entry itself (never followed)
        self.depth = depth
        self.start = start
        self.kind = st.kind if st is not None else (kind or FILE)
        self.link_kind = link_st.kind if link_st is not None else (kind or FILE)
        self.error = error

    @property
    def st(self) -> Stat:
        if self._st is None:
            raise NoStat(self)
        return self._st

    @property
    def link_st(self) -> Stat:
        if self._link_st is None:
            raise NoStat(self)
        return self._link_st


Pred = Callable[[Node], bool]


class Finder:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.follow = "P"
        self.maxdepth: int | None = None
        self.mindepth = 0
        self.depth_first = False
        self.daystart = False
        self.regextype = "findutils-default"
        self.status = 0
        self.quit = False
        self.pending_plus: list[tuple[list[str], list[str], str | None]] = []
        self.answers = Answers(ctx)
        now_s, now_ns = unix_of(ctx.machine.clock.now_us)
        self.now = (now_s, now_ns)
        self.has_action = False
        self.prune_flag = False
        self.delete_used = False
        self.files: dict[str, list[str]] = {}

    # -- parsing ----------------------------------------------------------------------
    def parse(self, tokens: list[str]) -> Pred:
        self.tokens = tokens
        self.pos = 0
        if not tokens:
            return lambda node: True
        pred = self._parse_comma()
        if self.pos < len(tokens):
            token = tokens[self.pos]
            if token == ")":
                raise FindError("invalid expression; you have too many ')'")
            raise FindError(f"paths must precede expression: `{token}'")
        return pred

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _parse_comma(self) -> Pred:
        left = self._parse_or()
        while self._peek() == ",":
            self.pos += 1
            if self._peek() is None:
                raise FindError("expected an expression after ','")
            right = self._parse_or()
            left = _comma(left, right)
        return left

    def _parse_or(self) -> Pred:
        left = self._parse_and()
        while self._peek() in ("-o", "-or"):
            op = self.tokens[self.pos]
            self.pos += 1
            if self._peek() is None:
                raise FindError(f"expected an expression after '{op}'")
            right = self._parse_and()
            left = _or(left, right)
        return left

    def _parse_and(self) -> Pred:
        left = self._parse_unary()
        while True:
            token = self._peek()
            if token in ("-a", "-and"):
                self.pos += 1
                if self._peek() is None:
                    raise FindError(f"expected an expression after '{token}'")
                right = self._parse_unary()
            elif token is None or token in ("-o", "-or", ",", ")"):
                return left
            else:
                right = self._parse_unary()
            left = _and(left, right)

    def _parse_unary(self) -> Pred:
        token = self._peek()
        if token is None:
            raise FindError("invalid expression")
        if token in ("!", "-not"):
            self.pos += 1
            if self._peek() is None:
                raise FindError(f"expected an expression after '{token}'")
            inner = self._parse_unary()
            return lambda node: not inner(node)
        if token == "(":
            self.pos += 1
            if self._peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            inner = self._parse_comma()
            if self._peek() != ")":
                raise FindError(
                    "invalid expression; I was expecting to find a ')' somewhere but did not see one."
                )
            self.pos += 1
            return inner
        if token in ("-o", "-or", "-a", "-and", ","):
            if token == ",":
                raise FindError(
                    "invalid expression; you have used a binary operator ',' with nothing before it."
                )
            raise FindError(
                f"invalid expression; you have used a binary operator '{token}' with nothing before it."
            )
        if token == ")":
            raise FindError("invalid expression; you have too many ')'")
        self.pos += 1
        return self._primary(token)

    def _arg(self, name: str) -> str:
        if self.pos >= len(self.tokens):
            raise FindError(f"missing argument to `{name}'")
        value = self.tokens[self.pos]
        self.pos += 1
        return value

    def _primary(self, name: str) -> Pred:
        if not name.startswith("-") or name == "-":
            raise FindError(f"paths must precede expression: `{name}'")
        attribute = "_p_" + name[1:]
        handler = getattr(self, attribute, None) if attribute.isidentifier() else None
        if name in UNSUPPORTED:
            raise FindError(f"unsupported predicate `{name}'", 2)
        if name.startswith("-newer") and len(name) == 8:
            return self._newer_xy(name)
        if handler is None:
            raise FindError(f"unknown predicate `{name}'")
        return handler(name)

    # -- options ----------------------------------------------------------------------
    def _depth_arg(self, name: str) -> int:
        value = self._arg(name)
        if not value.isdigit():
            raise FindError(
                f"Expected a positive decimal integer argument to {name}, but got {q(value)}"
            )
        return int(value)

    def _p_maxdepth(self, name: str) -> Pred:
        self.maxdepth = self._depth_arg(name)
        return _true

    def _p_mindepth(self, name: str) -> Pred:
        self.mindepth = self._depth_arg(name)
        return _true

    def _p_depth(self, name: str) -> Pred:
        self.depth_first = True
        return _true

    _p_d = _p_depth

    def _p_xdev(self, name: str) -> Pred:
        return _true

    _p_mount = _p_noleaf = _p_ignore_readdir_race = _p_noignore_readdir_race = _p_xdev
    _p_warn = _p_nowarn = _p_xdev

    def _p_daystart(self, name: str) -> Pred:
        self.daystart = True
        return _true

    def _p_follow(self, name: str) -> Pred:
        self.follow = "L"
        return _true

    def _p_regextype(self, name: str) -> Pred:
        value = self._arg(name)
        if value not in REGEX_TYPES:
            listed = ", ".join(f"'{t}'" for t in REGEX_TYPES)
            raise FindError(
                f"Unknown regular expression type {q(value)}; valid types are {listed}."
            )
        self.regextype = value
        return _true

    # -- name tests -------------------------------------------------------------------
    def _p_name(self, name: str) -> Pred:
        pattern = self._arg(name)
        fold = name == "-iname"

        def test(node: Node) -> bool:
            base = _base_for_name(node.path)
            return glob_match(pattern, base, casefold=fold)

        return test

    _p_iname = _p_name

    def _p_path(self, name: str) -> Pred:
        pattern = self._arg(name)
        fold = name in ("-ipath", "-iwholename")
        return lambda node: glob_match(pattern, node.path, casefold=fold)

    _p_ipath = _p_wholename = _p_iwholename = _p_path

    def _p_lname(self, name: str) -> Pred:
        pattern = self._arg(name)
        fold = name == "-ilname"

        def test(node: Node) -> bool:
            if node.link_kind != SYMLINK:
                return False
            return glob_match(pattern, node.link_st.target or "", casefold=fold)

        return test

    _p_ilname = _p_lname

    def _p_regex(self, name: str) -> Pred:
        pattern = self._arg(name)
        compiled = self._compile_regex(pattern, name == "-iregex")
        return lambda node: compiled.fullmatch(node.path) is not None

    _p_iregex = _p_regex

    def _compile_regex(self, pattern: str, icase: bool) -> re.Pattern[str]:
        from cwgym.machine.commands._regex import RegexError, compile_posix

        kind = self.regextype
        try:
            if kind in (
                "findutils-default",
                "emacs",
                "gnu-awk",
                "posix-awk",
                "awk",
                "posix-egrep",
                "egrep",
                "posix-extended",
            ):
                extended = kind not in ("findutils-default", "emacs")
                text = pattern if extended else _emacs_to_bre(pattern)
                return compile_posix(text, extended=extended, icase=icase)
            return compile_posix(pattern, extended=False, icase=icase)
        except RegexError as exc:
            raise FindError(exc.message) from None

    # -- type, size, emptiness ----------------------------------------------------------
    def _type_list(self, name: str) -> set[str]:
        value = self._arg(name)
        letters: set[str] = set()
        parts = value.split(",")
        for index, part in enumerate(parts):
            if part == "" and index == len(parts) - 1 and index > 0:
                raise FindError(
                    f"Last file type in list argument to {name} is missing, i.e., list is ending on: ','"
                )
            if len(part) > 1:
                raise FindError(f"Must separate multiple arguments to {name} using: ','")
            if not part:
                raise FindError(f"Unknown argument to {name}: {value}")
            if part not in TYPE_LETTERS:
                raise FindError(f"Unknown argument to {name}: {part}")
            if part in letters:
                raise FindError(f"Duplicate file type '{part}' in the argument list to {name}.")
            letters.add(part)
        return letters

    def _p_type(self, name: str) -> Pred:
        letters = self._type_list(name)
        return lambda node: _KIND_LETTER.get(node.kind, "U") in letters

    def _p_xtype(self, name: str) -> Pred:
        letters = self._type_list(name)

        def test(node: Node) -> bool:
            st = node.link_st
            if (
                self.follow == "P" or (self.follow == "H" and node.depth > 0)
            ) and st.kind == SYMLINK:
                with contextlib.suppress(FsError):
                    st = self.fs.stat(node.path, self.ctx.cwd, follow=True)
            else:
                st = node.link_st
            return _type_letter(st) in letters

        return test

    def _p_size(self, name: str) -> Pred:
        value = self._arg(name)
        match = re.fullmatch(r"([+-]?)(\d+)([bcwkMG]?)", value)
        if match is None:
            raise FindError(f"Invalid argument `{value}' to -size")
        sign, number, unit = match.groups()
        scale = {"": 512, "b": 512, "c": 1, "w": 2, "k": 1024, "M": 1024 * 1024, "G": 1024**3}[unit]
        n = int(number)

        def test(node: Node) -> bool:
            units = ceil_div(node.st.size, scale)
            if sign == "+":
                return units > n
            if sign == "-":
                return units < n
            return units == n

        return test

    def _p_empty(self, name: str) -> Pred:
        def test(node: Node) -> bool:
            st = node.st
            if st.kind == DIR:
                try:
                    return not self.fs.listdir(node.path, self.ctx.cwd)
                except FsError:
                    return False
            return st.kind == FILE and st.size == 0

        return test

    # -- times --------------------------------------------------------------------------
    def _number(self, name: str) -> tuple[str, int]:
        value = self._arg(name)
        match = re.fullmatch(r"([+-]?)(\d+)", value)
        if match is None:
            raise FindError(f"invalid argument `{value}' to `{name}'")
        return match.group(1), int(match.group(2))

    def _origin_us(self) -> int:
        now_us = self.ctx.machine.clock.now_us
        if not self.daystart:
            return now_us
        now_s, _ = self.now
        # -daystart measures from the start of tomorrow (GNU), i.e. midnight after today.
        midnight = (now_s // 86400 + 1) * 86400
        return now_us + (midnight - now_s) * 1_000_000 - (now_us % 1_000_000)

    def _age_test(self, name: str, field: str, unit_s: int, days: bool) -> Pred:
        sign, n = self._number(name)
        origin = self._origin_us()
        unit_us = unit_s * 1_000_000

        def test(node: Node) -> bool:
            age = origin - getattr(node.st, field)
            if days:
                if sign == "+":
                    return age >= (n + 1) * unit_us
                if sign == "-":
                    return age < n * unit_us
                return n * unit_us <= age < (n + 1) * unit_us
            if sign == "+":
                return age > n * unit_us
            if sign == "-":
                return age < n * unit_us
            return (n - 1) * unit_us < age <= n * unit_us

        return test

    def _p_mtime(self, name: str) -> Pred:
        return self._age_test(name, "mtime", 86400, True)

    def _p_atime(self, name: str) -> Pred:
        return self._age_test(name, "atime", 86400, True)

    def _p_ctime(self, name: str) -> Pred:
        return self._age_test(name, "ctime", 86400, True)

    def _p_mmin(self, name: str) -> Pred:
        return self._age_test(name, "mtime", 60, False)

    def _p_amin(self, name: str) -> Pred:
        return self._age_test(name, "atime", 60, False)

    def _p_cmin(self, name: str) -> Pred:
        return self._age_test(name, "ctime", 60, False)

    def _reference(self, path: str) -> Stat:
        try:
            return self.fs.stat(path, self.ctx.cwd, follow=self.follow != "P")
        except FsError as exc:
            raise FindError(f"{q(path)}: {exc.strerror_text}") from None

    def _p_newer(self, name: str) -> Pred:
        ref = self._reference(self._arg(name))
        field = {"-newer": "mtime", "-anewer": "atime", "-cnewer": "ctime"}[name]
        return lambda node: getattr(node.st, field) > ref.mtime

    _p_anewer = _p_cnewer = _p_newer

    def _newer_xy(self, name: str) -> Pred:
        x, y = name[6], name[7]
        fields = {"a": "atime", "m": "mtime", "c": "ctime", "B": "btime"}
        if x not in fields or (y not in fields and y != "t"):
            raise FindError(f"unknown predicate `{name}'")
        value = self._arg(name)
        if y == "t":
            try:
                seconds, nsec = parse_date(value, *self.now)
            except DateError as exc:
                if exc.unsupported:
                    raise FindError(f"unsupported date string {q(value)} for {name}", 2) from None
                raise FindError(
                    f"I cannot figure out how to interpret {q(value)} as a date or time"
                ) from None
            from cwgym.machine.commands._fsutil import us_of

            threshold = us_of(seconds, nsec)
        else:
            threshold = getattr(self._reference(value), fields[y])
        return lambda node: getattr(node.st, fields[x]) > threshold

    # -- permissions and owners ----------------------------------------------------------
    def _p_perm(self, name: str) -> Pred:
        value = self._arg(name)
        kind = ""
        text = value
        if value and value[0] in "-/+":
            kind, text = value[0], value[1:]
        changes = mode_compile(text)
        if changes is None or kind == "+":
            raise FindError(f"invalid mode {q(value)}")
        mode = mode_adjust(0, False, 0, changes)

        def test(node: Node) -> bool:
            bits = node.st.mode & 0o7777
            if kind == "-":
                return bits & mode == mode
            if kind == "/":
                return mode == 0 or bool(bits & mode)
            return bits == mode

        return test

    def _p_user(self, name: str) -> Pred:
        value = self._arg(name)
        uid = lookup_user(value, self.ctx.machine.users)
        if uid is None:
            raise FindError(f"{q(value)} is not the name of a known user")
        return lambda node: node.st.uid == uid

    def _p_group(self, name: str) -> Pred:
        value = self._arg(name)
        gid = lookup_group(value, self.ctx.machine.users)
        if gid is None:
            raise FindError(f"{q(value)} is not the name of an existing group")
        return lambda node: node.st.gid == gid

    def _numeric_test(self, name: str, field: str) -> Pred:
        sign, n = self._number(name)

        def test(node: Node) -> bool:
            value = getattr(node.st, field)
            if sign == "+":
                return value > n
            if sign == "-":
                return value < n
            return value == n

        return test

    def _p_uid(self, name: str) -> Pred:
        return self._numeric_test(name, "uid")

    def _p_gid(self, name: str) -> Pred:
        return self._numeric_test(name, "gid")

    def _p_links(self, name: str) -> Pred:
        return self._numeric_test(name, "nlink")

    def _p_inum(self, name: str) -> Pred:
        return self._numeric_test(name, "ino")

    def _p_nouser(self, name: str) -> Pred:
        users = self.ctx.machine.users
        return lambda node: user_name(node.st.uid, users) == str(node.st.uid)

    def _p_nogroup(self, name: str) -> Pred:
        users = self.ctx.machine.users
        return lambda node: group_name(node.st.gid, users) == str(node.st.gid)

    def _p_samefile(self, name: str) -> Pred:
        ref = self._reference(self._arg(name))
        return lambda node: node.st.ino == ref.ino

    def _access(self, want: int) -> Pred:
        def test(node: Node) -> bool:
            try:
                inode = self.fs.lookup(node.path, self.ctx.cwd)
            except FsError:
                return False
            return self.fs.cred.may(inode, want)

        return test

    def _p_readable(self, name: str) -> Pred:
        return self._access(4)

    def _p_writable(self, name: str) -> Pred:
        return self._access(2)

    def _p_executable(self, name: str) -> Pred:
        return self._access(1)

    def _p_true(self, name: str) -> Pred:
        return _true

    def _p_false(self, name: str) -> Pred:
        return lambda node: False

    # -- actions ----------------------------------------------------------------------
    def _sink(self, name: str) -> Callable[[str], None]:
        """Where an action writes: stdout, or for ``-fprint*``/``-fls`` a file (truncated
        when the expression is parsed, written when find ends)."""
        if not name.startswith("-f"):
            return self.ctx.out
        path = self._arg(name)
        if path in ("/dev/stdout", "-"):
            return self.ctx.out
        if path == "/dev/stderr":
            return self.ctx.err
        chunks = self.files.setdefault(path, [])
        try:
            self.fs.write(path, self.ctx.cwd, b"")
        except FsError as exc:
            raise FindError(f"{q(path)}: {exc.strerror_text}") from None
        return lambda text: chunks.append(text)

    def write_files(self) -> None:
        for path, chunks in self.files.items():
            data = "".join(chunks).encode("utf-8", "surrogateescape")
            try:
                self.fs.write(path, self.ctx.cwd, data)
            except FsError as exc:
                self.ctx.error(f"{q(path)}: {exc.strerror_text}")
                self.status = 1

    def _p_print(self, name: str) -> Pred:
        self.has_action = True
        end = "\0" if name.endswith("0") else "\n"
        sink = self._sink(name)

        def act(node: Node) -> bool:
            sink(node.path + end)
            return True

        return act

    _p_print0 = _p_fprint = _p_fprint0 = _p_print

    def _p_printf(self, name: str) -> Pred:
        self.has_action = True
        sink = self._sink(name)
        fmt = self._arg(name)
        _check_format(fmt)

        def act(node: Node) -> bool:
            sink(self._format(fmt, node))
            return True

        return act

    _p_fprintf = _p_printf

    def _p_ls(self, name: str) -> Pred:
        self.has_action = True
        sink = self._sink(name)

        def act(node: Node) -> bool:
            st = node.st
            users = self.ctx.machine.users
            secs, nsec = unix_of(st.mtime)
            now_s = self.now[0]
            recent = now_s - 31556952 // 2 < secs <= now_s
            date = strftime("%b %e %H:%M" if recent else "%b %e  %Y", Tm(secs, nsec))
            line = (
                f"{st.ino:>9} {ceil_div(blocks_512(st), 2):>6} {mode_string(st)} {st.nlink:>3} "
                f"{user_name(st.uid, users):<8} {group_name(st.gid, users):<8} "
                f"{st.size if st.kind != NULLDEV else '1,   3':>8} {date} {node.path}"
            )
            if st.kind == SYMLINK:
                line += " -> " + (st.target or "")
            sink(line + "\n")
            return True

        return act

    _p_fls = _p_ls

    def _p_delete(self, name: str) -> Pred:
        self.has_action = True
        self.depth_first = True
        self.delete_used = True

        def act(node: Node) -> bool:
            if node.depth == 0 and node.path.rstrip("/") in (".", ""):
                return True
            try:
                if node.link_kind == DIR:
                    self.fs.rmdir(node.path, self.ctx.cwd)
                else:
                    self.fs.unlink(node.path, self.ctx.cwd)
            except FsError as exc:
                self.ctx.error(f"cannot delete {q(node.path)}: {exc.strerror_text}")
                self.status = 1
                return False
            return True

        return act

    def _p_prune(self, name: str) -> Pred:
        def act(node: Node) -> bool:
            if not self.depth_first:
                self.prune_flag = True
            return True

        return act

    def _p_quit(self, name: str) -> Pred:
        def act(node: Node) -> bool:
            self.quit = True
            raise Quit

        return act

    def _command_args(self, name: str) -> tuple[list[str], bool]:
        args: list[str] = []
        while True:
            if self.pos >= len(self.tokens):
                raise FindError(f"missing argument to `{name}'")
            token = self.tokens[self.pos]
            self.pos += 1
            if token == ";":
                if not args:
                    raise FindError(f"missing argument to `{name}'")
                return args, False
            if token == "+" and args and args[-1] == "{}":
                return args[:-1], True
            args.append(token)

    def _p_exec(self, name: str) -> Pred:
        self.has_action = True
        argv, plus = self._command_args(name)
        in_dir = name in ("-execdir", "-okdir")
        ask = name in ("-ok", "-okdir")
        if plus and ask:
            raise FindError(f"missing argument to `{name}'")
        if plus:
            batch: tuple[list[str], list[str], str | None] = (argv, [], None)
            batches: dict[str | None, tuple[list[str], list[str], str | None]] = {}
            self.pending_plus.append(batch)

            def act(node: Node) -> bool:
                if in_dir:
                    directory, shown = _split_for_dir(node.path)
                    entry = batches.get(directory)
                    if entry is None:
                        entry = (argv, [], directory)
                        batches[directory] = entry
                        self.pending_plus.append(entry)
                    entry[1].append(shown)
                else:
                    batch[1].append(node.path)
                return True

            return act

        def act_one(node: Node) -> bool:
            if in_dir:
                directory, shown = _split_for_dir(node.path)
            else:
                directory, shown = None, node.path
            command_argv = [arg.replace("{}", shown) for arg in argv]
            if ask:
                prompt = f"< {command_argv[0]} ... {shown} > ? "
                if not self.answers.ask(self.ctx, prompt):
                    return False
            return self._run(command_argv, directory) == 0

        return act_one

    _p_execdir = _p_ok = _p_okdir = _p_exec

    def _run(self, argv: list[str], directory: str | None) -> int:
        if directory is None:
            status, out, err = self.ctx.run(argv, b"")
        else:
            script = "cd -- " + _shell_word(directory) + ' || exit 1\n"$@"\n'
            status, out, err = self.ctx.run_script(script, ["find", *argv], b"")
        self.ctx.out(out)
        self.ctx.err(err)
        return status

    def flush_plus(self) -> None:
        for argv, paths, directory in self.pending_plus:
            if paths:
                if self._run([*argv, *paths], directory) != 0:
                    self.status = 1
                paths.clear()

    # -- -printf ----------------------------------------------------------------------------
    def _format(self, fmt: str, node: Node) -> str:
        out: list[str] = []
        i = 0
        while i < len(fmt):
            c = fmt[i]
            if c == "\\" and i + 1 < len(fmt):
                nxt = fmt[i + 1]
                if nxt == "c":
                    break
                if nxt in "01234567":
                    digits = re.match(r"[0-7]{1,3}", fmt[i + 1 :]).group(0)  # type: ignore[union-attr]
                    out.append(chr(int(digits, 8)))
                    i += 1 + len(digits)
                    continue
                out.append(
                    {
                        "n": "\n",
                        "t": "\t",
                        "\\": "\\",
                        "a": "\a",
                        "b": "\b",
                        "f": "\f",
                        "r": "\r",
                        "v": "\v",
                    }.get(nxt, "\\" + nxt)
                )
                i += 2
                continue
            if c != "%":
                out.append(c)
                i += 1
                continue
            match = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d+))?([A-Za-z%@+])?").match(fmt, i)
            if match is None or match.group(4) is None:
                out.append(fmt[i:])
                break
            flags, width, precision, conv = match.groups()
            i = match.end()
            if conv in "ACT" and i < len(fmt):
                key = fmt[i]
                i += 1
                out.append(
                    _pad(
                        self._time_directive(conv, key, node),
                        flags,
                        width,
                        precision,
                        numeric=False,
                    )
                )
                continue
            value, numeric = self._directive(conv, node, flags)
            out.append(_pad(value, flags, width, precision, numeric=numeric))
        return "".join(out)

    def _time_directive(self, conv: str, key: str, node: Node) -> str:
        us = {"A": node.st.atime, "C": node.st.ctime, "T": node.st.mtime}[conv]
        secs, nsec = unix_of(us)
        tm = Tm(secs, nsec)
        if key == "@":
            return f"{secs}.{nsec:09d}0"
        if key == "+":
            return strftime("%Y-%m-%d+%H:%M:%S", tm) + f".{nsec:09d}0"
        if key == "S":
            return strftime("%S", tm) + f".{nsec:09d}0"
        if key == "T":
            return strftime("%H:%M:%S", tm) + f".{nsec:09d}0"
        text = strftime("%" + key, tm)
        return text if text != "%" + key else key

    def _directive(self, conv: str, node: Node, flags: str = "") -> tuple[str, bool]:
        path = node.path
        if conv == "%":
            return "%", False
        if conv == "p":
            return path, False
        if conv == "f":
            return _base_for_printf(path), False
        if conv == "h":
            return _dir_for_printf(path), False
        if conv == "P":
            start = node.start
            if path == start:
                return "", False
            prefix = start if start.endswith("/") else start + "/"
            return (path[len(prefix) :] if path.startswith(prefix) else path), False
        if conv == "H":
            return node.start, False
        if conv == "d":
            return str(node.depth), True
        if conv == "y":
            kind = node.link_kind if self.follow == "P" else node.kind
            return _KIND_LETTER.get(kind, "U"), False
        if conv == "Y":
            if node.link_kind == SYMLINK:
                try:
                    return _type_letter(self.fs.stat(path, self.ctx.cwd, follow=True)), False
                except FsError as exc:
                    return ("L" if exc.code == "ELOOP" else "N"), False
            return _KIND_LETTER.get(node.kind, "U"), False
        if conv == "l":
            return (node.link_st.target or "") if node.link_kind == SYMLINK else "", False
        if conv == "F":
            return "ext4", False
        if conv == "Z":
            return "?", False
        if conv == "D":
            return "2049", True
        st = node.st
        users = self.ctx.machine.users
        if conv == "s":
            return str(st.size), True
        if conv == "k":
            return str(ceil_div(blocks_512(st), 2)), True
        if conv == "b":
            return str(blocks_512(st)), True
        if conv == "m":
            bits = st.mode & 0o7777
            return (f"0{bits:o}" if "#" in flags and bits else f"{bits:o}"), True
        if conv == "M":
            return mode_string(st), False
        if conv == "u":
            return user_name(st.uid, users), False
        if conv == "U":
            return str(st.uid), True
        if conv == "g":
            return group_name(st.gid, users), False
        if conv == "G":
            return str(st.gid), True
        if conv == "n":
            return str(st.nlink), True
        if conv == "i":
            return str(st.ino), True
        if conv in "tac":
            us = {"t": st.mtime, "a": st.atime, "c": st.ctime}[conv]
            secs, nsec = unix_of(us)
            tm = Tm(secs, nsec)
            return strftime("%a %b %e %H:%M:%S", tm) + f".{nsec:09d}0 " + strftime("%Y", tm), False
        if conv == "S":
            size = st.size
            blocks = blocks_512(st)
            return (f"{blocks * 512 / size:g}" if size else "1"), False
        return "", False

    # -- walking ------------------------------------------------------------------------
    def walk(self, start: str, pred: Pred) -> None:
        fs, cwd = self.fs, self.ctx.cwd
        follow_start = self.follow in ("L", "H")
        try:
            link_st = fs.stat(start, cwd, follow=False)
            st = (
                fs.stat(start, cwd, follow=True)
                if follow_start and link_st.kind == SYMLINK
                else link_st
            )
        except FsError as exc:
            if exc.code == "ENOENT" and follow_start:
                try:
                    link_st = st = fs.stat(start, cwd, follow=False)
                except FsError:
                    self._report(start, exc)
                    return
            else:
                self._report(start, exc)
                return
        if start.endswith("/") and link_st.kind == SYMLINK:
            try:
                st = fs.stat(start, cwd, follow=True)
            except FsError as exc:
                self._report(start, exc)
                return
        self._visit(Node(start, st, 0, start, link_st), pred, set())

    def _report(self, path: str, exc: FsError) -> None:
        self.ctx.error(f"{q(path)}: {exc.strerror_text}")
        self.status = 1

    def _evaluate(self, node: Node, pred: Pred) -> None:
        try:
            pred(node)
        except NoStat:
            self.ctx.error(f"{q(node.path)}: {node.error or 'Permission denied'}")
            self.status = 1

    def _visit(self, node: Node, pred: Pred, ancestors: set[int]) -> None:
        if self.quit:
            return
        fs, cwd = self.fs, self.ctx.cwd
        in_range = node.depth >= self.mindepth and (
            self.maxdepth is None or node.depth <= self.maxdepth
        )
        self.prune_flag = False
        if not self.depth_first and in_range:
            self._evaluate(node, pred)
            if self.quit:
                return
        pruned = self.prune_flag
        descend = (
            node.kind == DIR
            and not pruned
            and (self.maxdepth is None or node.depth < self.maxdepth)
        )
        ino = node._st.ino if node._st is not None else None
        if descend and ino in ancestors:
            self.ctx.error(
                f"File system loop detected; {q(node.path)} is part of the same file system loop as {q(node.start)}."
            )
            self.status = 1
            descend = False
        if descend:
            try:
                names = fs.listdir(node.path, cwd)
                kinds = entry_kinds(self.ctx, node.path)
            except FsError as exc:
                names = []
                kinds = {}
                self._report(node.path, exc)
            inner = ancestors | ({ino} if ino is not None else set())
            for name in names:
                if self.quit:
                    return
                path = child_path(node.path, name)
                try:
                    link_st: Stat | None = fs.stat(path, cwd, follow=False)
                except FsError as exc:
                    # the name is known (readdir) but its status is not: tests that need
                    # it will report this
                    child = Node(
                        path,
                        None,
                        node.depth + 1,
                        node.start,
                        None,
                        kind=kinds.get(name),
                        error=exc.strerror_text,
                    )
                    self._visit(child, pred, inner)
                    continue
                child_st = link_st
                if link_st is not None and link_st.kind == SYMLINK and self.follow == "L":
                    try:
                        child_st = fs.stat(path, cwd, follow=True)
                    except FsError:
                        child_st = link_st
                self._visit(Node(path, child_st, node.depth + 1, node.start, link_st), pred, inner)
        if self.depth_first and in_range and not self.quit:
            self._evaluate(node, pred)


def _true(node: Node) -> bool:
    return True


def _and(left: Pred, right: Pred) -> Pred:
    return lambda node: left(node) and right(node)


def _or(left: Pred, right: Pred) -> Pred:
    return lambda node: left(node) or right(node)


def _comma(left: Pred, right: Pred) -> Pred:
    def both(node: Node) -> bool:
        left(node)
        return right(node)

    return both


_KIND_LETTER = {DIR: "d", FILE: "f", SYMLINK: "l", NULLDEV: "c"}


def _type_letter(st: Stat) -> str:
    return _KIND_LETTER.get(st.kind, "U")


def _base_for_name(path: str) -> str:
    stripped = path.rstrip("/")
    if not stripped:
        return "/"
    return stripped.rsplit("/", 1)[-1]


def _base_for_printf(path: str) -> str:
    if path == "/" or path.endswith("/"):
        return path if "/" not in path.rstrip("/") else path.rstrip("/").rsplit("/", 1)[-1] + "/"
    return path.rsplit("/", 1)[-1]


def _dir_for_printf(path: str) -> str:
    if path == "/":
        return ""
    stripped = path.rstrip("/") if path.endswith("/") and "/" in path.rstrip("/") else path
    if "/" not in stripped or (stripped.endswith("/") and "/" not in stripped.rstrip("/")):
        return "."
    head = stripped.rsplit("/", 1)[0]
    return head if head else "/"


def _split_for_dir(path: str) -> tuple[str, str]:
    """-execdir: the directory to run in and the ``./name`` to pass."""
    stripped = path.rstrip("/") or "/"
    if stripped == "/":
        return "/", "/"
    if "/" not in stripped:
        return ".", "./" + stripped
    head, base = stripped.rsplit("/", 1)
    return head or "/", "./" + base


def _shell_word(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _pad(value: str, flags: str, width: str, precision: str | None, *, numeric: bool) -> str:
    if precision is not None and not numeric:
        value = value[: int(precision)]
    if not width:
        return value
    if "-" in flags:
        return value.ljust(int(width))
    return value.rjust(int(width))


def _check_format(fmt: str) -> None:
    stripped = re.sub(r"%%", "", fmt)
    if re.search(r"%[-+ #0]*\d*(?:\.\d+)?$", stripped):
        raise FindError("error: % at end of format string")
    for match in re.finditer(r"%[-+ #0]*\d*(?:\.\d+)?([A-Za-z@+])", stripped):
        conv = match.group(1)
        if conv not in "pfhPHdskbmMuUgGniyYltacDFSZACT":
            raise FindError(f"warning: unrecognized format directive `%{conv}'", 1)


def _emacs_to_bre(pattern: str) -> str:
    """findutils' default (emacs) regex syntax as GNU BRE: ``+``/``?`` are operators and
    ``\\{`` is literal in emacs, the other way round in BRE."""
    out: list[str] = []
    i = 0
    in_bracket = False
    while i < len(pattern):
        c = pattern[i]
        if in_bracket:
            out.append(c)
            if c == "]" and not (out[-2:-1] == ["["] or out[-3:-1] == ["[", "^"]):
                in_bracket = False
            i += 1
            continue
        if c == "[":
            in_bracket = True
            out.append(c)
            i += 1
            continue
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in "+?{}":
                out.append(nxt)
            else:
                out.append("\\" + nxt)
            i += 2
            continue
        if c in "+?":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _split_arguments(args: list[str]) -> tuple[str, list[str], list[str]]:
    """(-H/-L/-P mode, start paths, expression tokens)."""
    follow = "P"
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-H", "-L", "-P"):
            follow = arg[1]
            i += 1
            continue
        if arg.startswith("-O") or arg == "-D":
            if arg == "-D":
                raise FindError("unsupported option `-D'", 2)
            i += 1
            continue
        if arg == "--":
            i += 1
        break
    paths: list[str] = []
    while i < len(args):
        arg = args[i]
        if (arg.startswith("-") and arg != "-") or arg in ("(", "!"):
            break
        paths.append(arg)
        i += 1
    return follow, paths, args[i:]


@command("find")
def find(ctx: CommandContext) -> int:
    finder = Finder(ctx)
    try:
        follow, paths, tokens = _split_arguments(list(ctx.args))
        finder.follow = follow
        pred = finder.parse(tokens)
    except FindError as exc:
        ctx.error(exc.message)
        return exc.status
    if not finder.has_action:
        inner = pred

        def pred(node: Node) -> bool:
            if inner(node):
                ctx.out(node.path + "\n")
            return True

    for start in paths or ["."]:
        if finder.quit:
            break
        if start == "":
            ctx.error("'': No such file or directory")
            finder.status = 1
            continue
        try:
            finder.walk(start, pred)
        except Quit:
            break
    finder.flush_plus()
    finder.write_files()
    return finder.status
