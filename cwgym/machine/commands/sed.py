"""``sed`` (GNU sed 4.9 in the C locale): the stream editor's full command set except the
ones that run programs or read input files line by line.

Supported: addresses (``N``, ``$``, ``/re/I``, ``\\cREc``, ``first~step``, ranges with
``N``, ``/re/``, ``+N``, ``~N``, ``0,/re/``, ``!``), blocks, ``s`` (flags ``g p N i I m M
w``; ``&``, ``\\1``-``\\9``, ``\\L \\U \\l \\u \\E``, ``\\n``), ``y d D p P n N g G h H x b t
T : = q Q a i c l r R w F z #``, options ``-n -e -f -E -r -i[SUF] -s -z -u -l``.
``R`` and ``F`` too. Refused with exit 2: ``e`` (command and ``s///e``) and ``W``;
``v`` is a no-op.
"""

from __future__ import annotations

import contextlib
import re

from cwgym.machine.commands import command
from cwgym.machine.commands._engine import Regex
from cwgym.machine.commands._options import OptionSpec
from cwgym.machine.commands._regex import (
    FLAGS,
    RegexError,
    extendable,
    numeric_escape,
    posix_matches,
    translate,
)
from cwgym.machine.commands._text import arg_text, lower, raw, text, upper
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import FsError

SPEC = OptionSpec(
    short="ne:f:Erl:szuI",
    long={
        "quiet": "n",
        "silent": "n",
        "expression=": "e",
        "file=": "f",
        "regexp-extended": "E",
        "line-length=": "l",
        "separate": "s",
        "null-data": "z",
        "zero-terminated": "z",
        "unbuffered": "u",
        "posix": "posix",
        "sandbox": "sandbox",
        "version": "version",
        "in-place": "in-place",
        "in-place=": "in-place",
    },
    unsupported=("--debug", "--follow-symlinks", "-b", "--binary"),
)


EOF = "\uffff"  # past the end of the script (text never holds chars above 0xff)


class SedError(Exception):
    """A script error: GNU's text after ``sed: -e expression #N, char M: ``."""

    def __init__(self, message: str, pos: int) -> None:
        self.message = message
        self.pos = pos
        super().__init__(message)


#: Commands one run may execute: ``:a;ba`` would otherwise hang the simulated machine.
STEP_BUDGET = 20_000_000


class Addr:
    __slots__ = ("kind", "num", "regex", "step")

    def __init__(self, kind: str, num: int = 0, step: int = 0, regex=None) -> None:
        self.kind = kind  # line | last | regex | step | plus | tilde | zero
        self.num = num
        self.step = step
        self.regex = regex  # compiled pattern, or None for "the last regex"


class Cmd:
    __slots__ = (
        "a1",
        "a2",
        "active",
        "arg",
        "end",
        "flags",
        "label",
        "name",
        "negate",
        "regex",
        "repl",
        "target",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.a1: Addr | None = None
        self.a2: Addr | None = None
        self.negate = False
        self.active = False
        self.end = 0
        self.arg: object = None
        self.regex = None
        self.repl: list = []
        self.flags: dict = {}
        self.label = ""
        self.target = 0


class Parser:
    """Parses a whole script (the ``-e`` pieces joined by newlines) into a flat command list
    where ``{`` jumps past its block when the address does not match and branches hold
    indexes."""

    def __init__(self, script: str, chunks: list[int], extended: bool, sandbox: bool) -> None:
        self.s = script
        self.i = 0
        self.chunks = chunks  # start offset of each -e piece
        self.extended = extended
        self.sandbox = sandbox
        self.cmds: list[Cmd] = []

    def error(self, message: str, pos: int | None = None) -> SedError:
        return SedError(message, self.i if pos is None else pos)

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else EOF

    def get(self) -> str:
        ch = self.peek()
        self.i += 1
        return ch

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def parse(self) -> list[Cmd]:
        blocks: list[int] = []
        s = self.s
        while True:
            while self.i < len(s) and s[self.i] in " \t\n;":
                self.i += 1
            if self.i >= len(s):
                break
            if s[self.i] == "#":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
                continue
            a1 = self.address()
            a2 = None
            if a1 is not None:
                self.skip_ws()
                if self.peek() == ",":
                    self.i += 1
                    self.skip_ws()
                    a2 = self.address(second=True)
                    if a2 is None:
                        raise self.error("unexpected `,'")
                if a1.kind == "zero" and (a2 is None or a2.kind != "regex"):
                    raise self.error("invalid usage of line address 0")
            self.skip_ws()
            negate = False
            while self.peek() == "!":
                self.i += 1
                negate = True
                self.skip_ws()
            if self.i >= len(s) or s[self.i] in "\n;":
                raise self.error("missing command")
            name = self.get()
            cmd = Cmd(name)
            cmd.a1, cmd.a2, cmd.negate = a1, a2, negate
            if name == "}":
                if a1 is not None or negate:
                    raise self.error("} doesn't want any addresses")
                if not blocks:
                    raise self.error("unexpected `}'")
                self.cmds[blocks.pop()].target = len(self.cmds) + 1
                self.cmds.append(cmd)
                self.end_of_command()
                continue
            self.cmds.append(cmd)
            if name == "{":
                blocks.append(len(self.cmds) - 1)
                continue
            self.command_args(cmd)
        if blocks:
            raise SedError("unmatched `{'", 0)
        labels = {c.label: i for i, c in enumerate(self.cmds) if c.name == ":"}
        for c in self.cmds:
            if c.name in "btT":
                if c.label == "":
                    c.target = len(self.cmds)
                elif c.label in labels:
                    c.target = labels[c.label]
                else:
                    raise SedError(f"can't find label for jump to `{c.label}'", -1)
        return self.cmds

    def end_of_command(self) -> None:
        self.skip_ws()
        ch = self.peek()
        if ch in (EOF, "\n", ";"):
            if ch != EOF:
                self.i += 1
            return
        if ch in "}#":
            return
        raise self.error("extra characters after command", self.i + 1)

    def address(self, second: bool = False) -> Addr | None:
        ch = self.peek()
        if ch.isdigit():
            j = self.i
            while self.i < len(self.s) and self.s[self.i].isdigit():
                self.i += 1
            num = int(self.s[j : self.i])
            if self.peek() == "~" and not second:
                self.i += 1
                k = self.i
                while self.i < len(self.s) and self.s[self.i].isdigit():
                    self.i += 1
                step = int(self.s[k : self.i] or "0")
                return Addr("step", num, step)
            if num == 0 and not second:
                return Addr("zero")
            return Addr("line", num)
        if ch == "$":
            self.i += 1
            return Addr("last")
        if second and ch in "+~":
            self.i += 1
            k = self.i
            while self.i < len(self.s) and self.s[self.i].isdigit():
                self.i += 1
            if k == self.i:
                raise self.error("expected newer version of sed")
            return Addr("plus" if ch == "+" else "tilde", int(self.s[k : self.i]))
        if ch == "/" or ch == "\\":
            self.i += 1
            delim = "/"
            if ch == "\\":
                delim = self.get()
                if delim in (EOF, "\n", "\\"):
                    raise self.error("unexpected `,'")
            body = self.delimited(delim, "unterminated address regex")
            icase = multiline = False
            while self.peek() in ("I", "M"):
                if self.get() == "I":
                    icase = True
                else:
                    multiline = True
            return Addr("regex", regex=self.compile(body, icase, multiline))
        return None

    def delimited(self, delim: str, message: str, regex: bool = True) -> str:
        """Text up to an unescaped ``delim``; ``\\delim`` becomes ``delim``."""
        out = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise self.error(message)
            ch = s[self.i]
            self.i += 1
            if ch == "\\":
                if self.i >= len(s):
                    raise self.error(message)
                nxt = s[self.i]
                self.i += 1
                if nxt == delim:
                    out.append(delim if delim != "&" or regex else "\\&")
                elif nxt == "\n" and regex:
                    out.append("\\n")
                else:
                    out.append("\\" + nxt)
                continue
            if ch == delim:
                return "".join(out)
            if ch == "\n" and regex:
                raise self.error(message)
            out.append(ch)

    def compile(self, body: str, icase: bool, multiline: bool):
        if body == "":
            return None
        try:
            pattern, _, _ = translate(body, extended=self.extended, dialect="sed", multiline=multiline)
            return Regex(pattern, FLAGS | (re.IGNORECASE if icase else 0))
        except RegexError as exc:
            raise self.error(exc.message) from None
        except re.error as exc:
            raise self.error(f"Invalid regular expression ({exc})") from None

    def read_label(self) -> str:
        self.skip_ws()
        j = self.i
        while self.i < len(self.s) and self.s[self.i] not in "\n;":
            self.i += 1
        return self.s[j : self.i].rstrip(" \t")

    def read_filename(self) -> str:
        self.skip_ws()
        j = self.i
        while self.i < len(self.s) and self.s[self.i] != "\n":
            self.i += 1
        return self.s[j : self.i]

    def read_text(self) -> str:
        """The text of ``a``, ``i``, ``c`` (GNU one-line and classic ``a\\`` forms)."""
        s = self.s
        self.skip_ws()
        if self.peek() == "\\":
            self.i += 1
            if self.peek() == "\n":
                self.i += 1
        out = []
        while self.i < len(s):
            ch = s[self.i]
            self.i += 1
            if ch == "\\":
                if self.i < len(s):
                    nxt = s[self.i]
                    self.i += 1
                    out.append(nxt)
                continue
            if ch == "\n":
                break
            out.append(ch)
        return "".join(out) + "\n"

    def command_args(self, cmd: Cmd) -> None:
        name = cmd.name
        if name in "=dDgGhHnNpPxzF":
            self.end_of_command()
        elif name in "qQlL":
            if name == "L":
                raise self.error("unknown command: `L'", self.i)
            self.skip_ws()
            j = self.i
            while self.i < len(self.s) and self.s[self.i].isdigit():
                self.i += 1
            cmd.arg = int(self.s[j : self.i]) if self.i > j else None
            if name in "qQ" and cmd.a2 is not None:
                raise self.error("command only uses one address", self.i)
            self.end_of_command()
        elif name in "aic":
            cmd.arg = self.read_text()
        elif name == ":":
            if cmd.a1 is not None:
                raise self.error(": doesn't want any addresses")
            label = self.read_label()
            if not label:
                raise SedError('":" lacks a label', self.i)
            cmd.label = label
            if self.peek() == ";":
                self.i += 1
        elif name in "btT":
            cmd.label = self.read_label()
            if self.peek() == ";":
                self.i += 1
        elif name in "rwRW":
            if name == "W":
                raise Refused("the `W' command")
            if self.sandbox:
                raise self.error("e/r/w commands disabled in sandbox mode")
            cmd.arg = self.read_filename()
            if not cmd.arg:
                raise self.error("missing filename in r/R/w/W commands")
        elif name == "e":
            raise Refused("the `e' command")
        elif name == "v":
            self.read_label()
        elif name == "s":
            self.parse_s(cmd)
        elif name == "y":
            self.parse_y(cmd)
        else:
            raise self.error(f"unknown command: `{name}'", self.i)

    def parse_s(self, cmd: Cmd) -> None:
        delim = self.get()
        if delim in (EOF, "\n", "\\"):
            raise self.error("unterminated `s' command")
        regex_text = self.delimited(delim, "unterminated `s' command")
        repl_text = self.delimited(delim, "unterminated `s' command", regex=False)
        flags: dict = {"g": False, "p": 0, "n": 1, "i": False, "m": False, "w": None}
        seen_n = False
        while True:
            ch = self.peek()
            if ch == "g":
                flags["g"] = True
            elif ch == "p":
                flags["p"] += 1
            elif ch in "iI":
                flags["i"] = True
            elif ch in "mM":
                flags["m"] = True
            elif ch == "e":
                raise Refused("the `e' flag of `s'")
            elif ch.isdigit():
                j = self.i
                while self.i < len(self.s) and self.s[self.i].isdigit():
                    self.i += 1
                if seen_n:
                    raise self.error("multiple number options to `s' command")
                seen_n = True
                flags["n"] = int(self.s[j : self.i])
                if flags["n"] == 0:
                    raise self.error("number option to `s' command may not be zero")
                continue
            elif ch == "w":
                self.i += 1
                flags["w"] = self.read_filename()
                break
            else:
                break
            self.i += 1
        end = self.i
        self.end_of_command_s(end)
        cmd.regex = self.compile(regex_text, flags["i"], flags["m"])
        cmd.flags = flags
        cmd.repl = parse_replacement(repl_text)
        max_ref = max((p for p in cmd.repl if isinstance(p, int)), default=0)
        if max_ref and cmd.regex is not None and max_ref > cmd.regex.groups:
            raise self.error(f"invalid reference \\{max_ref} on `s' command's RHS", end)

    def end_of_command_s(self, end: int) -> None:
        self.skip_ws()
        ch = self.peek()
        if ch in (EOF, "\n", ";", "}", "#"):
            if ch in ("\n", ";"):
                self.i += 1
            return
        raise self.error("unknown option to `s'", end + 1)

    def parse_y(self, cmd: Cmd) -> None:
        delim = self.get()
        if delim in (EOF, "\n", "\\"):
            raise self.error("unterminated `y' command")
        src = _y_text(self.delimited(delim, "unterminated `y' command", regex=False))
        dst = _y_text(self.delimited(delim, "unterminated `y' command", regex=False))
        if len(src) != len(dst):
            raise self.error("strings for `y' command are different lengths")
        cmd.arg = str.maketrans(dict(zip(src, dst)))
        self.end_of_command()


class Refused(Exception):
    """A GNU sed feature this sed does not implement."""


def _y_text(value: str) -> str:
    out = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append({"n": "\n", "t": "\t", "\\": "\\", "r": "\r"}.get(nxt, "\\" + nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse_replacement(value: str) -> list:
    """The RHS of ``s`` as parts: str literals, int group refs (0 for ``&``), case ops
    (``("case", "L")``)."""
    parts: list = []
    buf: list[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        i += 1
        if ch == "&":
            parts.append("".join(buf))
            buf = []
            parts.append(0)
        elif ch == "\\" and i < len(value):
            nxt = value[i]
            i += 1
            if nxt.isdigit():
                parts.append("".join(buf))
                buf = []
                parts.append(int(nxt))
            elif nxt in "LUluE":
                parts.append("".join(buf))
                buf = []
                parts.append(("case", nxt))
            elif nxt in "xodc" and numeric_escape(nxt, value, i)[0] is not None:
                char, used = numeric_escape(nxt, value, i)
                buf.append(char or "")
                i += used
            elif nxt == "n":
                buf.append("\n")
            elif nxt == "t":
                buf.append("\t")
            elif nxt == "r":
                buf.append("\r")
            elif nxt == "a":
                buf.append("\a")
            elif nxt == "f":
                buf.append("\f")
            elif nxt == "v":
                buf.append("\v")
            else:
                buf.append(nxt)
        else:
            buf.append(ch)
    parts.append("".join(buf))
    return [p for p in parts if p != ""]


def expand_replacement(parts: list, m: re.Match[str]) -> str:
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    out: list[str] = []
    mode = ""  # "", "L", "U"
    one = ""  # "", "l", "u"
    for part in parts:
        if isinstance(part, tuple):
            op = part[1]
            if op in "LU":
                mode, one = op, ""
            elif op == "E":
                mode, one = "", ""
            else:
                one = op
            continue
        piece = part if isinstance(part, str) else (m.group(part) or "")
        if mode == "L":
            piece = lower(piece)
        elif mode == "U":
            piece = upper(piece)
        if one and piece:
            piece = (upper(piece[0]) if one == "u" else lower(piece[0])) + piece[1:]
            one = ""
        out.append(piece)
    return "".join(out)


class Quit(Exception):
    def __init__(self, status: int, autoprint: bool) -> None:
        self.status = status
        self.autoprint = autoprint
        super().__init__(status)


class Runner:
    """Runs a parsed script over a list of lines."""

    def __init__(self, ctx: CommandContext, cmds: list[Cmd], quiet: bool, sep: str, width: int):
        self.ctx = ctx
        self.cmds = cmds
        self.quiet = quiet
        self.sep = sep
        self.width = width
        self.hold = ""
        self.last_regex = None
        self.files: dict[str, list[str]] = {}
        self.rfiles: dict[str, list] = {}
        self.budget = STEP_BUDGET
        self.fname = "-"

    def run(self, data: list[tuple[str, bool, str]], out: list[str]) -> int | None:
        """Process ``data`` (lines, each with whether it ended with a newline); returns an
        exit status when ``q``/``Q`` stopped it."""
        self.out = out
        self.missing = False
        cmds = self.cmds
        n = len(data)
        self.lines = data
        self.index = 0
        self.lineno = getattr(self, "lineno", 0)
        if n == 0:
            return None
        self.read_next()
        while True:
            self.append: list[str] = []
            self.replaced = False
            try:
                restart = self.cycle(cmds)
            except Quit as q:
                if q.autoprint and not self.quiet:
                    self.emit(self.ps, self.chomped)
                self.flush_append()
                return q.status
            if restart == "D":
                self.flush_append()
                continue
            if restart != "delete" and not self.quiet:
                self.emit(self.ps, self.chomped)
            self.flush_append()
            if self.index >= n:
                return None
            self.read_next()

    def read_next(self) -> None:
        self.ps, self.chomped, self.fname = self.lines[self.index]
        self.index += 1
        self.lineno += 1

    def is_last(self) -> bool:
        return self.index >= len(self.lines) and self.final

    def emit(self, value: str, newline: bool = True) -> None:
        if self.missing:
            self.out.append(self.sep)
        self.out.append(value)
        if newline:
            self.out.append(self.sep)
        self.missing = not newline

    def emit_text(self, value: str) -> None:
        if self.missing:
            self.out.append(self.sep)
            self.missing = False
        self.out.append(value)

    def flush_append(self) -> None:
        for item in self.append:
            self.emit_text(item)
        self.append = []

    def matches(self, addr: Addr) -> bool:
        kind = addr.kind
        if kind == "line":
            return self.lineno == addr.num
        if kind == "last":
            return self.is_last()
        if kind == "regex":
            regex = addr.regex if addr.regex is not None else self.last_regex
            if regex is None:
                raise SedRuntime("no previous regular expression")
            self.last_regex = regex
            return regex.search(self.ps) is not None
        if kind == "step":
            if addr.step <= 0:
                return self.lineno == addr.num
            return self.lineno >= addr.num and (self.lineno - addr.num) % addr.step == 0
        return False

    def selected(self, cmd: Cmd) -> bool:
        a1 = cmd.a1
        if a1 is None:
            return True
        a2 = cmd.a2
        if a2 is None:
            return self.matches(a1)
        line = self.lineno
        if a1.kind == "zero" and not cmd.end:
            cmd.end = 1
            cmd.active = True
        if cmd.active:
            kind = a2.kind
            if kind == "line":
                if line >= a2.num:
                    cmd.active = False
                return True
            if kind in ("plus",):
                if line >= cmd.end:
                    cmd.active = False
                return True
            if kind == "tilde":
                if a2.num <= 0 or line % a2.num == 0:
                    cmd.active = False
                return True
            if kind == "last":
                if self.is_last():
                    cmd.active = False
                return True
            if self.matches(a2):
                cmd.active = False
            return True
        if a1.kind == "zero":
            return False
        if not self.matches(a1):
            return False
        kind = a2.kind
        if kind == "line":
            cmd.active = a2.num > line
        elif kind == "plus":
            cmd.end = line + a2.num
            cmd.active = a2.num > 0
        elif kind == "tilde":
            cmd.active = not (a2.num <= 0 or line % a2.num == 0)
        elif kind == "last":
            cmd.active = not self.is_last()
        else:
            cmd.active = True
        return True

    def cycle(self, cmds: list[Cmd]) -> str | None:
        pc = 0
        count = len(cmds)
        while pc < count:
            cmd = cmds[pc]
            pc += 1
            self.budget -= 1
            if self.budget < 0:
                raise SedRuntime(f"more than {STEP_BUDGET} commands run: stopped as a runaway script")
            name = cmd.name
            if name == "}" or name == ":":
                continue
            hit = self.selected(cmd)
            if cmd.negate:
                hit = not hit
            if not hit:
                if name == "{":
                    pc = cmd.target
                continue
            if name == "{":
                continue
            if name == "s":
                self.substitute(cmd)
            elif name == "p":
                self.emit(self.ps, self.chomped)
            elif name == "d":
                return "delete"
            elif name == "D":
                if "\n" not in self.ps:
                    return "delete"
                self.ps = self.ps.split("\n", 1)[1]
                return "D"
            elif name == "P":
                if "\n" in self.ps:
                    self.emit(self.ps.split("\n", 1)[0])
                else:
                    self.emit(self.ps, self.chomped)
            elif name == "n":
                if self.index >= len(self.lines):
                    raise Quit(None, True)  # type: ignore[arg-type]
                if not self.quiet:
                    self.emit(self.ps, self.chomped)
                self.flush_append()
                self.read_next()
            elif name == "N":
                if self.index >= len(self.lines):
                    raise Quit(None, True)  # type: ignore[arg-type]
                self.flush_append()
                prev = self.ps
                self.read_next()
                self.ps = prev + "\n" + self.ps
            elif name == "=":
                self.emit_text(f"{self.lineno}\n")
            elif name == "a":
                self.append.append(cmd.arg)  # type: ignore[arg-type]
            elif name == "i":
                self.emit_text(cmd.arg)  # type: ignore[arg-type]
            elif name == "c":
                if cmd.a2 is None or not cmd.active or cmd.negate:
                    self.emit_text(cmd.arg)  # type: ignore[arg-type]
                return "delete"
            elif name == "y":
                self.ps = self.ps.translate(cmd.arg)  # type: ignore[arg-type]
            elif name == "g":
                self.ps = self.hold
            elif name == "G":
                self.ps = self.ps + "\n" + self.hold
            elif name == "h":
                self.hold = self.ps
            elif name == "H":
                self.hold = self.hold + "\n" + self.ps
            elif name == "x":
                self.ps, self.hold = self.hold, self.ps
            elif name == "z":
                self.ps = ""
            elif name == "q":
                raise Quit(cmd.arg or 0, True)  # type: ignore[arg-type]
            elif name == "Q":
                raise Quit(cmd.arg or 0, False)  # type: ignore[arg-type]
            elif name == "l":
                self.emit_text(self.listing(cmd.arg))  # type: ignore[arg-type]
            elif name == "b":
                pc = cmd.target
            elif name == "t":
                if self.replaced:
                    self.replaced = False
                    pc = cmd.target
            elif name == "T":
                if not self.replaced:
                    pc = cmd.target
                else:
                    self.replaced = False
            elif name == "r":
                with contextlib.suppress(FsError):
                    self.append.append(text(self.ctx.fs.read(cmd.arg, self.ctx.cwd)))  # type: ignore[arg-type]
            elif name == "w":
                self.write_file(cmd.arg, self.ps + "\n")  # type: ignore[arg-type]
            elif name == "F":
                self.emit_text(f"{self.fname}\n")
            elif name == "R":
                self.read_one_line(cmd.arg)  # type: ignore[arg-type]
        return None

    def read_one_line(self, name: str) -> None:
        state = self.rfiles.get(name)
        if state is None:
            try:
                content = text(self.ctx.fs.read(name, self.ctx.cwd))
            except FsError:
                content = ""
            state = self.rfiles[name] = [_lines(content, "\n", name), 0]
        if state[1] < len(state[0]):
            self.append.append(state[0][state[1]][0] + "\n")
            state[1] += 1

    def write_file(self, name: str, value: str) -> None:
        if name == "/dev/stdout":
            self.emit_text(value)
        elif name == "/dev/stderr":
            self.ctx.err(raw(value))
        else:
            self.files.setdefault(name, []).append(value)

    def substitute(self, cmd: Cmd) -> None:
        regex = cmd.regex if cmd.regex is not None else self.last_regex
        if regex is None:
            raise SedRuntime("no previous regular expression")
        self.last_regex = regex
        flags = cmd.flags
        ps = self.ps
        nth = flags["n"]
        glob = flags["g"]
        if glob and nth == 1 and regex.min_width and all(isinstance(p, str) for p in cmd.repl) and not extendable(regex):
            # POSIX and re agree here (no empty matches, no alternatives to lengthen): one C call
            literal = "".join(cmd.repl)
            ps, done = regex.subn(literal if "\\" not in literal else lambda _: literal, ps)
            if not done:
                return
            self.ps = ps
        else:
            if not self.substitute_matches(cmd, regex, ps):
                return
        self.replaced = True
        for _ in range(flags["p"]):
            self.emit(self.ps, self.chomped)
        if flags["w"]:
            self.write_file(flags["w"], self.ps + "\n")

    def substitute_matches(self, cmd: Cmd, regex: Regex, ps: str) -> bool:
        """``s`` match by match, POSIX's way; whether anything was replaced."""
        nth = cmd.flags["n"]
        glob = cmd.flags["g"]
        pieces: list[str] = []
        pos = 0
        count = 0
        done = False
        for m in posix_matches(regex, ps):
            count += 1
            if count < nth:
                continue
            pieces.append(ps[pos : m.start()])
            pieces.append(expand_replacement(cmd.repl, m))
            pos = m.end()
            done = True
            if not glob:
                break
        if done:
            pieces.append(ps[pos:])
            self.ps = "".join(pieces)
        return done

    def listing(self, width: int | None) -> str:
        width = self.width if width is None else width
        names = {"\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
        out: list[str] = []
        line_len = 0
        for ch in self.ps:
            if ch in names:
                piece = names[ch]
            elif " " <= ch <= "~":
                piece = ch
            else:
                piece = f"\\{ord(ch):03o}"
            if width > 1 and line_len + len(piece) > width - 1:
                out.append("\\\n")
                line_len = 0
            out.append(piece)
            line_len += len(piece)
        out.append("$\n")
        return "".join(out)


class SedRuntime(Exception):
    """A run-time error (``no previous regular expression``)."""


def _lines(data: str, sep: str, name: str) -> list[tuple[str, bool, str]]:
    """(line, ended with a separator, file name) for each line of ``data``."""
    if not data:
        return []
    parts = data.split(sep)
    result = [(p, True, name) for p in parts[:-1]]
    if parts[-1] != "":
        result.append((parts[-1], False, name))
    return result


def _preprocess(args: list[str]) -> tuple[list[str], str | None]:
    """Pull ``-i[SUFFIX]`` / ``--in-place[=SUFFIX]`` (an optional argument, which the shared
    option parser has no notion of) out of the command line."""
    out: list[str] = []
    suffix: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out.extend(args[i - 1 :])
            break
        if arg.startswith("--in-place"):
            suffix = arg.partition("=")[2]
            continue
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters = arg[1:]
            kept = ""
            takes_next = False
            for j, c in enumerate(letters):
                if c in "efl":
                    kept += letters[j:]
                    takes_next = j == len(letters) - 1
                    break
                if c == "i":
                    suffix = letters[j + 1 :]
                    break
                kept += c
            if kept:
                out.append("-" + kept)
            if takes_next and i < len(args):
                out.append(args[i])
                i += 1
            continue
        out.append(arg)
    return out, suffix


@command("sed")
def sed(ctx: CommandContext) -> int:
    args, in_place = _preprocess(ctx.args)
    opts, operands = ctx.options(SPEC, usage_status=1, args=args)
    quiet = extended = separate = sandbox = False
    sep = "\n"
    width = 70
    pieces: list[str] = []
    for key, value in opts:
        if key == "n":
            quiet = True
        elif key == "e":
            pieces.append(arg_text(value or ""))
        elif key == "f":
            try:
                content = text(ctx.read_input(value or ""))
            except FsError as exc:
                ctx.error(f"couldn't open file {value}: {exc.strerror_text}")
                return 1
            pieces.append(content[:-1] if content.endswith("\n") else content)
        elif key in ("E", "r"):
            extended = True
        elif key == "s":
            separate = True
        elif key == "z":
            sep = "\0"
        elif key == "l":
            width = int(value or "70")
        elif key == "sandbox":
            sandbox = True
        elif key == "version":
            ctx.out("sed (GNU sed) 4.9\n")
            return 0
        elif key == "in-place":
            in_place = value or ""
    if not pieces:
        if not operands:
            ctx.err("Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n")
            return 1
        pieces.append(arg_text(operands.pop(0)))
    script = "\n".join(pieces)
    if script.startswith("#n\n") or script == "#n":
        quiet = True
    chunks = []
    offset = 0
    for piece in pieces:
        chunks.append(offset)
        offset += len(piece) + 1
    try:
        cmds = Parser(script, chunks, extended, sandbox).parse()
    except SedError as exc:
        if exc.pos < 0:
            ctx.error(exc.message)
            return 4
        number = 1
        start = 0
        for k, chunk_start in enumerate(chunks):
            if exc.pos >= chunk_start:
                number, start = k + 1, chunk_start
        pos = exc.pos - start
        ctx.error(f"-e expression #{number}, char {pos}: {exc.message}")
        return 1
    except Refused as exc:
        ctx.error(f"{exc} is not supported")
        return 2
    runner = Runner(ctx, cmds, quiet, sep, width)
    if in_place is not None:
        if not operands:
            ctx.error("no input files")
            return 4
        return _in_place(ctx, runner, operands, in_place, sep)
    inputs = operands or ["-"]
    status = 0
    out: list[str] = []
    groups: list[list[tuple[str, bool, str]]] = []
    current: list[tuple[str, bool, str]] = []
    for operand in inputs:
        try:
            if operand != "-" and ctx.fs.is_dir(operand, ctx.cwd):
                ctx.error(f"read error on {operand}: Is a directory")
                status = 2
                continue
            data = text(ctx.read_input(operand))
        except FsError as exc:
            ctx.error(f"can't read {operand}: {exc.strerror_text}")
            status = 2
            continue
        lines = _lines(data, sep, operand)
        if separate:
            groups.append(lines)
        else:
            if current and not current[-1][1]:
                current[-1] = (current[-1][0], True, current[-1][2])
            current.extend(lines)
    if not separate:
        groups = [current]
    try:
        for k, lines in enumerate(groups):
            runner.final = k == len(groups) - 1 or separate
            if separate:
                runner.lineno = 0
                for cmd in runner.cmds:
                    cmd.active = False
                    cmd.end = 0
            code = runner.run(lines, out)
            if code is not None:
                status = code
                break
    except SedRuntime as exc:
        ctx.stdout += raw("".join(out))
        return _runtime_error(ctx, exc)
    ctx.stdout += raw("".join(out))
    _write_files(ctx, runner)
    return status


def _runtime_error(ctx: CommandContext, exc: Exception) -> int:
    if str(exc).startswith("more than"):
        ctx.error(str(exc))
        return 4
    ctx.error(f"-e expression #1, char 0: {exc}")
    return 1


def _write_files(ctx: CommandContext, runner: Runner) -> None:
    for name, chunks in runner.files.items():
        try:
            ctx.fs.write(name, ctx.cwd, raw("".join(chunks)))
        except FsError as exc:
            ctx.error(f"couldn't open file {name}: {exc.strerror_text}")


def _in_place(ctx: CommandContext, runner: Runner, operands: list[str], suffix: str, sep: str) -> int:
    status = 0
    for operand in operands:
        try:
            if ctx.fs.is_dir(operand, ctx.cwd):
                ctx.error(f"couldn't edit {operand}: not a regular file")
                status = 4
                continue
            original = ctx.fs.read(operand, ctx.cwd)
        except FsError as exc:
            ctx.error(f"can't read {operand}: {exc.strerror_text}")
            status = 2
            continue
        out: list[str] = []
        runner.final = True
        runner.lineno = 0
        for cmd in runner.cmds:
            cmd.active = False
            cmd.end = 0
        try:
            code = runner.run(_lines(text(original), sep, operand), out)
        except SedRuntime as exc:
            return _runtime_error(ctx, exc)
        try:
            if suffix:
                backup = suffix.replace("*", operand.rsplit("/", 1)[-1]) if "*" in suffix else operand + suffix
                ctx.fs.write(backup, ctx.cwd, original)
            ctx.fs.write(operand, ctx.cwd, raw("".join(out)))
        except FsError as exc:
            ctx.error(f"couldn't open temporary file {operand}: {exc.strerror_text}")
            return 4
        if code is not None:
            status = code
            break
    _write_files(ctx, runner)
    return status
