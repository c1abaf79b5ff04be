"""``grep`` (GNU grep 3.8 in the C locale): BRE, ERE and fixed strings, context, counting,
listing, recursion.

``-P`` (Perl regexes), ``-T`` and the other rarely used GNU
options are refused with exit 2. Recursion lists directory entries in name order (real
grep uses the directory's own order, which no two filesystems share). ``egrep``/``fgrep``
are the ``-E``/``-F`` aliases.
"""

from __future__ import annotations

import re

from cwgym.machine.commands import command
from cwgym.machine.commands._engine import Regex
from cwgym.machine.commands._options import OptionSpec, UsageError, parse
from cwgym.machine.commands._regex import FLAGS, RegexError, extendable, posix_matches, translate
from cwgym.machine.commands._text import arg_text, glob_regex, raw, split_lines, text
from cwgym.machine.context import CommandContext, Exit
from cwgym.machine.filesystem import FsError, join

SPEC = OptionSpec(
    short="EFGe:f:iyvwxclLoqsnhHrRm:A:B:C:aIUVbz",
    long={
        "extended-regexp": "E",
        "fixed-strings": "F",
        "basic-regexp": "G",
        "regexp=": "e",
        "file=": "f",
        "ignore-case": "i",
        "no-ignore-case": "no-ignore-case",
        "invert-match": "v",
        "word-regexp": "w",
        "line-regexp": "x",
        "count": "c",
        "files-with-matches": "l",
        "files-without-match": "L",
        "only-matching": "o",
        "quiet": "q",
        "silent": "q",
        "no-messages": "s",
        "line-number": "n",
        "no-filename": "h",
        "with-filename": "H",
        "recursive": "r",
        "dereference-recursive": "R",
        "max-count=": "m",
        "after-context=": "A",
        "before-context=": "B",
        "context=": "C",
        "color": "color",
        "colour": "color",
        "color=": "color",
        "colour=": "color",
        "text": "a",
        "binary": "U",
        "include=": "include",
        "exclude=": "exclude",
        "exclude-dir=": "exclude-dir",
        "label=": "label",
        "line-buffered": "line-buffered",
        "version": "V",
        "byte-offset": "b",
        "null-data": "z",
    },
    unsupported=(
        "-P",
        "--perl-regexp",
        "-Z",
        "--null",
        "-T",
        "--initial-tab",
        "-u",
        "--unix-byte-offsets",
        "-D",
        "--devices",
        "-d",
        "--directories",
        "--binary-files",
        "--exclude-from",
        "--no-ignore-case",
    ),
    numeric="C",
)

_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\n"


def _usage(ctx: CommandContext) -> None:
    ctx.err(_USAGE)
    ctx.err("Try 'grep --help' for more information.\n")
    raise Exit(2)


def _context_number(ctx: CommandContext, value: str) -> int:
    if not value.isdigit():
        ctx.error(f"{value}: invalid context length argument")
        raise Exit(2)
    return int(value)


class Grep:
    """One grep run: the compiled matcher and the output settings."""

    def __init__(self, ctx: CommandContext, opts: list[tuple[str, str | None]]) -> None:
        self.ctx = ctx
        self.mode = "G"
        self.patterns: list[str] | None = None
        self.icase = False
        self.invert = self.word = self.line = False
        self.count = self.only = self.quiet = self.silent = False
        self.list_files: str | None = None
        self.number = False
        self.with_name: bool | None = None
        self.recursive: str | None = None
        self.max_count: int | None = None
        self.after = self.before = 0
        self.text_mode = False
        self.includes: list[re.Pattern[str]] = []
        self.excludes: list[re.Pattern[str]] = []
        self.exclude_dirs: list[re.Pattern[str]] = []
        self.label = "(standard input)"
        self.byte_offset = False
        self.eol = "\n"
        after = before = None
        context = 0
        for key, value in opts:
            if key in "EFG" and len(key) == 1:
                self.mode = key
            elif key == "e":
                self.patterns = (self.patterns or []) + arg_text(value or "").split("\n")
            elif key == "f":
                try:
                    data = text(ctx.read_input(value or ""))
                except FsError as exc:
                    ctx.fs_error(exc, value)
                    raise Exit(2) from None
                self.patterns = (self.patterns or []) + split_lines(data)
            elif key in ("i", "y"):
                self.icase = True
            elif key == "v":
                self.invert = True
            elif key == "w":
                self.word = True
            elif key == "x":
                self.line = True
            elif key == "c":
                self.count = True
            elif key in ("l", "L"):
                self.list_files = key
            elif key == "o":
                self.only = True
            elif key == "q":
                self.quiet = True
            elif key == "s":
                self.silent = True
            elif key == "n":
                self.number = True
            elif key == "h":
                self.with_name = False
            elif key == "H":
                self.with_name = True
            elif key in ("r", "R"):
                self.recursive = key
            elif key == "m":
                try:
                    self.max_count = int(value or "")
                except ValueError:
                    ctx.error("invalid max count")
                    raise Exit(2) from None
            elif key == "A":
                after = _context_number(ctx, value or "")
            elif key == "B":
                before = _context_number(ctx, value or "")
            elif key == "C":
                context = _context_number(ctx, value or "")
            elif key == "color":
                if value not in (None, "never", "no", "none", "auto", "tty", "if-tty"):
                    if value in ("always", "yes", "force"):
                        ctx.error("--color=always is not supported")
                        raise Exit(2)
                    ctx.error(f"invalid argument '{value}' for '--color'")
                    raise Exit(2)
            elif key == "a":
                self.text_mode = True
            elif key == "include":
                self.includes.append(Regex(glob_regex(arg_text(value or ""))))
            elif key == "exclude":
                self.excludes.append(Regex(glob_regex(arg_text(value or ""))))
            elif key == "exclude-dir":
                self.exclude_dirs.append(Regex(glob_regex(arg_text(value or ""))))
            elif key == "label":
                self.label = value or ""
            elif key == "b":
                self.byte_offset = True
            elif key == "z":
                self.eol = "\0"
            elif key == "V":
                ctx.out("grep (GNU grep) 3.8\n")
                raise Exit(0)
        self.after = after if after is not None else context
        self.before = before if before is not None else context
        self.matched_any = False
        self.error = False
        self.printed_group = False

    def compile(self) -> None:
        patterns = self.patterns or []
        if not patterns:
            self.regex = None
            return
        parts = []
        offset = 0
        for pattern in patterns:
            if self.mode == "F":
                body = re.escape(pattern)
            else:
                try:
                    body, groups, warnings = translate(
                        pattern, extended=self.mode == "E", dialect="grep", offset=offset
                    )
                except RegexError as exc:
                    self.ctx.error(exc.message)
                    raise Exit(2) from None
                offset += groups
                for warning in warnings:
                    self.ctx.error(f"warning: {warning}")
            if self.line:
                body = rf"\A(?:{body})\Z"
            elif self.word:
                body = rf"(?<!\w)(?:{body})(?!\w)"
            parts.append(body)
        source = parts[0] if len(parts) == 1 else "|".join(f"(?:{p})" for p in parts)
        try:
            self.regex = Regex(source, FLAGS | (re.IGNORECASE if self.icase else 0))
        except re.error as exc:
            self.ctx.error(f"invalid regular expression ({exc})")
            raise Exit(2) from None

    # -- one input ----------------------------------------------------------------------
    def search(self, name: str, data: bytes, show_name: bool) -> None:
        ctx = self.ctx
        regex = self.regex
        eol = self.eol
        binary = not self.text_mode and eol == "\n" and b"\0" in data
        lines = split_lines(text(data), eol)
        offsets: list[int] = []
        if self.byte_offset:
            total = 0
            for line in lines:
                offsets.append(total)
                total += len(line) + 1
        self.offsets = offsets
        prefix = name + ":" if show_name else ""
        ctx_prefix = name + "-" if show_name else ""
        out: list[str] = []
        selected = 0
        invert = self.invert
        plain = not (self.count or self.list_files or self.quiet)
        context = bool(self.before or self.after) and not self.only
        last_printed = -1
        after_left = 0
        max_count = self.max_count
        for index, line in enumerate(lines):
            done = max_count is not None and selected >= max_count
            if done and after_left <= 0:
                break
            hit = not done and (regex is not None and regex.search(line) is not None) != invert
            if not hit:
                if after_left > 0 and plain and context:
                    out.append(self._line(ctx_prefix, index, "-", line))
                    last_printed = index
                    after_left -= 1
                continue
            selected += 1
            self.matched_any = True
            if self.quiet:
                raise Exit(0)
            if not plain:
                if self.list_files:
                    break
                continue
            if binary:
                ctx.err(f"grep: {name}: binary file matches\n")
                break
            if context:
                first = max(index - self.before, last_printed + 1)
                if self.printed_group and first > last_printed + 1:
                    out.append("--\n")
                for b in range(first, index):
                    out.append(self._line(ctx_prefix, b, "-", lines[b]))
                self.printed_group = True
                after_left = self.after
            if self.only:
                if not invert and regex is not None and (self.number or self.byte_offset):
                    for m in posix_matches(regex, line):
                        if m.end() > m.start():
                            out.append(self._line(prefix, index, ":", m.group(0), m.start()))
                elif not invert and regex is not None and regex.min_width and not regex.groups and not extendable(regex):
                    # every match is non-empty and POSIX's: re's findall lists them in C
                    eol = self.eol
                    out += [f"{prefix}{found}{eol}" for found in regex.findall(line)]
                elif not invert and regex is not None:
                    eol = self.eol
                    out += [f"{prefix}{m.group(0)}{eol}" for m in posix_matches(regex, line) if m.end() > m.start()]
            else:
                out.append(self._line(prefix, index, ":", line))
            last_printed = index
        if self.count and not self.list_files:
            out.append(f"{prefix}{selected}\n")
        if self.list_files == "l" and selected:
            out.append(f"{name}{eol}")
        if self.list_files == "L" and not selected:
            out.append(f"{name}{eol}")
        ctx.stdout += raw("".join(out))

    def _line(self, prefix: str, index: int, sep: str, line: str, column: int = 0) -> str:
        head = prefix
        if self.number:
            head += f"{index + 1}{sep}"
        if self.byte_offset:
            head += f"{self.offsets[index] + column}{sep}"
        return f"{head}{line}{self.eol}"

    # -- operands -----------------------------------------------------------------------
    def run_operand(self, operand: str, show_name: bool) -> None:
        ctx = self.ctx
        if operand == "-":
            self.search(self.label, ctx.stdin, show_name)
            return
        try:
            is_dir = ctx.fs.is_dir(operand, ctx.cwd)
        except FsError:
            is_dir = False
        if is_dir:
            if self.recursive:
                saved = self.with_name
                if self.with_name is None:
                    self.with_name = True
                self.walk(operand, operand)
                self.with_name = saved
                return
            if not self.silent:
                ctx.error(f"{operand}: Is a directory")
            self.error = True
            return
        try:
            data = ctx.fs.read(operand, ctx.cwd)
        except FsError as exc:
            if not self.silent:
                ctx.error(f"{operand}: {exc.strerror_text}")
            self.error = True
            return
        self.search(operand, data, show_name)

    def walk(self, path: str, shown_path: str) -> None:
        """Search a directory tree; names print as ``shown_path/name`` (bare names when
        grep was given no operand at all), entries in name order."""
        ctx = self.ctx
        try:
            names = sorted(ctx.fs.listdir(path, ctx.cwd))
        except FsError as exc:
            if not self.silent:
                ctx.error(f"{shown_path or '.'}: {exc.strerror_text}")
            self.error = True
            return
        for name in names:
            child = join(path, name)
            if shown_path == "":
                shown = name
            elif shown_path.endswith("/"):
                shown = shown_path + name
            else:
                shown = shown_path + "/" + name
            try:
                st = ctx.fs.stat(child, ctx.cwd, follow=False)
            except FsError:
                continue
            kind = st.kind
            if kind == "symlink":
                if self.recursive != "R":
                    continue
                try:
                    kind = ctx.fs.stat(child, ctx.cwd).kind
                except FsError as exc:
                    if not self.silent:
                        ctx.error(f"{shown}: {exc.strerror_text}")
                    self.error = True
                    continue
            if kind == "dir":
                if any(p.match(name) for p in self.exclude_dirs):
                    continue
                self.walk(child, shown)
                continue
            if kind != "file":
                continue
            if self.includes and not any(p.match(name) for p in self.includes):
                continue
            if any(p.match(name) for p in self.excludes):
                continue
            try:
                data = ctx.fs.read(child, ctx.cwd)
            except FsError as exc:
                if not self.silent:
                    ctx.error(f"{shown}: {exc.strerror_text}")
                self.error = True
                continue
            self.search(shown, data, self.with_name is not False)


@command("grep", "egrep", "fgrep")
def grep(ctx: CommandContext) -> int:
    try:
        opts, operands = parse(SPEC, ctx.args)
    except UsageError as exc:
        ctx.error(exc.message)
        if exc.unsupported:
            raise Exit(2) from None
        _usage(ctx)
    if ctx.name == "egrep":
        opts.insert(0, ("E", None))
    elif ctx.name == "fgrep":
        opts.insert(0, ("F", None))
    g = Grep(ctx, opts)
    if g.patterns is None:
        if not operands:
            _usage(ctx)
        g.patterns = arg_text(operands.pop(0)).split("\n")
    g.compile()
    if not operands:
        operands = ["."] if g.recursive else ["-"]
        if g.recursive:
            g.walk(".", "")
            return _status(g)
    show = g.with_name if g.with_name is not None else len(operands) > 1
    for operand in operands:
        g.run_operand(operand, show)
    return _status(g)


def _status(g: Grep) -> int:
    if g.error and not (g.quiet and g.matched_any):
        return 2
    return 0 if g.matched_any else 1
