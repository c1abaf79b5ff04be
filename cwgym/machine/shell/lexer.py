"""Tokens and words of the shell language.

The lexer is pulled one token at a time by the parser, because what comes next depends on
where the parser is (a here-document body starts after the next newline; ``((`` and
``=~`` read their own text). Words are parsed into parts (:mod:`.ast`) as they are read,
so quoting is decided once, here, and expansion only walks the parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from cwgym.machine.shell import ast
from cwgym.machine.shell.chars import is_digits
from cwgym.machine.shell.errors import ShellSyntaxError


class _Programs:
    """How the lexer parses the program inside a command substitution: the lexer and the
    parser call each other (``$(...)`` holds a program), so the parser hands the lexer its
    two entry points when it is imported (:func:`use_parser`) instead of the lexer importing it."""

    parse: Callable[[str], ast.Node] | None = None
    parse_substitution: Callable[[str, int], tuple[ast.Node, int]] | None = None


def use_parser(parse: Callable[[str], ast.Node], parse_substitution: Callable[[str, int], tuple[ast.Node, int]]) -> None:
    """Give the lexer the parser's entry points for backquote and ``$(`` bodies."""
    _Programs.parse = parse
    _Programs.parse_substitution = parse_substitution


def _programs() -> type[_Programs]:
    if _Programs.parse is None or _Programs.parse_substitution is None:
        raise RuntimeError("cwgym.machine.shell.parser must be imported before lexing a command substitution")
    return _Programs

METACHARS = frozenset(" \t\n;&|<>()")
OPERATORS = (
    ";;&",
    "<<<",
    "<<-",
    "&>>",
    "&&",
    "||",
    ";;",
    ";&",
    "|&",
    "<<",
    "<&",
    "<>",
    ">>",
    ">&",
    ">|",
    "&>",
    ";",
    "&",
    "|",
    "<",
    ">",
    "(",
    ")",
)
SPECIAL_PARAMS = "@*#?-$!0"
NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
NAME_CHARS = NAME_START | frozenset("0123456789")


@dataclass(slots=True)
class Token:
    kind: str  # WORD, OP, IONUM, NEWLINE, EOF
    value: str  # operator text, or the word's raw source
    start: int
    end: int
    word: ast.Word | None = None


def is_name(text: str) -> bool:
    return bool(text) and text[0] in NAME_START and all(c in NAME_CHARS for c in text)


class Lexer:
    """Reads tokens from ``src`` starting at ``pos``; collects pending here-documents."""

    def __init__(self, src: str, pos: int = 0) -> None:
        self.src = src
        self.pos = pos
        self.pending: list[ast.HereDoc] = []
        self.warnings: list[str] = []

    # -- tokens ------------------------------------------------------------------------
    def skip_blanks(self) -> None:
        src = self.src
        while self.pos < len(src):
            c = src[self.pos]
            if c in " \t":
                self.pos += 1
            elif c == "\\" and src.startswith("\\\n", self.pos):
                self.pos += 2
            elif c == "#":
                end = src.find("\n", self.pos)
                self.pos = len(src) if end < 0 else end
            else:
                break

    def next_token(self) -> Token:
        self.skip_blanks()
        src = self.src
        start = self.pos
        if start >= len(src):
            self._finish_heredocs_at_eof()
            return Token("EOF", "", start, start)
        c = src[start]
        if c == "\n":
            self.pos += 1
            self._read_heredocs()
            return Token("NEWLINE", "\n", start, self.pos)
        if c in METACHARS:
            for op in OPERATORS:
                if src.startswith(op, start):
                    self.pos = start + len(op)
                    return Token("OP", op, start, self.pos)
        word, end = read_word(src, start, "word")
        self.pos = end
        raw = src[start:end]
        if is_digits(raw) and end < len(src) and src[end] in "<>":
            return Token("IONUM", raw, start, end)
        return Token("WORD", raw, start, end, word)

    # -- special readers -----------------------------------------------------------------
    def read_arith_command(self) -> str:
        """At ``((``: the expression text up to the matching ``))``."""
        start = self.pos + 2
        end = find_arith_end(self.src, start)
        if end < 0:
            raise ShellSyntaxError("unexpected EOF while looking for matching `))'")
        self.pos = end + 2
        return self.src[start:end]

    def read_regex_word(self) -> ast.Word:
        """The right side of ``=~``: parentheses and ``|`` are part of the word."""
        self.skip_blanks()
        src = self.src
        start = self.pos
        depth = 0
        parts: list = []
        pos = start
        while pos < len(src):
            c = src[pos]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            elif (depth == 0 and c in " \t\n;&<>") or (depth == 0 and c == "|"):
                break
            if c in "()|":
                parts.append(ast.Lit(c))
                pos += 1
                continue
            sub, pos = read_parts(src, pos, "regex")
            parts.extend(sub)
        if pos == start:
            raise ShellSyntaxError("unexpected argument to conditional binary operator")
        self.pos = pos
        return ast.Word(merge_parts(parts), src[start:pos])

    # -- here-documents ------------------------------------------------------------------
    def _read_heredocs(self) -> None:
        src = self.src
        while self.pending:
            doc = self.pending.pop(0)
            lines: list[str] = []
            while True:
                if self.pos >= len(src):
                    self.warnings.append(
                        f"warning: here-document at line {doc.line} delimited by end-of-file (wanted `{doc.delimiter}')"
                    )
                    break
                end = src.find("\n", self.pos)
                if end < 0:
                    end = len(src)
                line = src[self.pos : end]
                self.pos = min(end + 1, len(src))
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                if line == doc.delimiter:
                    break
                lines.append(line + "\n")
            doc.body = "".join(lines)
            doc.complete = True

    def _finish_heredocs_at_eof(self) -> None:
        for doc in self.pending:
            self.warnings.append(
                f"warning: here-document at line {doc.line} delimited by end-of-file (wanted `{doc.delimiter}')"
            )
            doc.complete = True
        self.pending.clear()


# -- words ---------------------------------------------------------------------------------


def merge_parts(parts: list) -> list:
    """Join adjacent literals of the same kind."""
    out: list = []
    for part in parts:
        if out and type(part) in (ast.Lit, ast.Quoted) and type(out[-1]) is type(part):
            out[-1] = type(part)(out[-1].text + part.text)
        else:
            out.append(part)
    return out


def read_word(src: str, pos: int, mode: str) -> tuple[ast.Word, int]:
    start = pos
    parts, pos = read_parts(src, pos, mode)
    if parts and isinstance(parts[0], ast.Lit):
        text = parts[0].text
        if text.startswith("~"):
            parts = tilde_parts(parts)
        elif mode == "word" and "=~" in text:
            match = _ASSIGN_TILDE.match(text)
            if match:
                rest = tilde_parts([ast.Lit(text[match.end() :]), *parts[1:]])
                parts = [ast.Lit(text[: match.end()]), *rest]
    return ast.Word(parts, src[start:pos]), pos


_ASSIGN_TILDE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=(?=~)")


def tilde_parts(parts: list) -> list:
    """Word parts with a leading ``~`` or ``~user`` prefix made a tilde node (also used for
    assignment values, whose tildes the parser expands after ``=`` and ``:``)."""
    text = parts[0].text
    slash = text.find("/")
    prefix = text[1:] if slash < 0 else text[1:slash]
    if slash < 0 and len(parts) > 1:
        return parts  # ~"x": the user name is quoted, no expansion
    if prefix and not (prefix in ("+", "-") or all(c in NAME_CHARS or c in ".-" for c in prefix)):
        return parts
    rest = "" if slash < 0 else text[slash:]
    new = [ast.Tilde(prefix)]
    if rest:
        new.append(ast.Lit(rest))
    return new + parts[1:]


def read_parts(src: str, pos: int, mode: str, stop: str = "") -> tuple[list, int]:
    """Parse word parts from ``pos`` until a terminator of ``mode``.

    Modes: ``word`` (ends at a metacharacter), ``dq`` (inside double quotes, ends at
    ``"``), ``brace``/``brace_dq`` (the argument of ``${x...}``, ends at ``}`` or a char
    of ``stop``), ``heredoc`` (to the end; quotes are plain text), ``regex`` (one
    ``=~`` word segment, ends at a metacharacter).
    """
    parts: list = []
    lit: list[str] = []
    n = len(src)
    quoted_lit = mode in ("dq", "heredoc")

    def flush() -> None:
        if lit:
            text = "".join(lit)
            parts.append(ast.Quoted(text) if quoted_lit else ast.Lit(text))
            lit.clear()

    depth = 0  # unquoted braces inside ${...}
    while pos < n:
        c = src[pos]
        if mode in ("word", "regex") and c in METACHARS:
            break
        if mode == "dq" and c == '"':
            break
        if mode in ("brace", "brace_dq"):
            if c == "}" and depth == 0:
                break
            if c in stop and depth == 0:
                break
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
        if c == "\\":
            if pos + 1 >= n:
                lit.append("\\")
                pos += 1
                continue
            nxt = src[pos + 1]
            if nxt == "\n":
                pos += 2
                continue
            if mode in ("dq", "heredoc", "brace_dq"):
                escapable = '$`"\\' if mode != "heredoc" else "$`\\"
                if mode == "brace_dq":
                    escapable += "}"
                if nxt in escapable:
                    flush()
                    parts.append(ast.Quoted(nxt))
                else:
                    lit.append("\\" + nxt)
                pos += 2
                continue
            flush()
            parts.append(ast.Quoted(nxt))
            pos += 2
            continue
        if c == "'" and mode in ("word", "brace", "regex"):
            end = src.find("'", pos + 1)
            if end < 0:
                raise ShellSyntaxError("unexpected EOF while looking for matching `''")
            flush()
            parts.append(ast.Quoted(src[pos + 1 : end]))
            pos = end + 1
            continue
        if c == '"' and mode in ("word", "brace", "brace_dq", "regex"):
            flush()
            inner, end = read_parts(src, pos + 1, "dq")
            if end >= n or src[end] != '"':
                raise ShellSyntaxError("unexpected EOF while looking for matching `\"'")
            parts.append(ast.DQ(inner))
            pos = end + 1
            continue
        if c == "`":
            flush()
            node, pos = _read_backticks(src, pos, mode)
            parts.append(node)
            continue
        if c == "$" and pos + 1 < n:
            nxt = src[pos + 1]
            if nxt == "'" and mode in ("word", "brace", "regex"):
                text, pos = _read_ansi_c(src, pos + 2)
                flush()
                parts.append(ast.Quoted(text))
                continue
            if nxt == '"' and mode in ("word", "brace", "regex"):
                pos += 1
                continue
            node, newpos = _read_dollar(src, pos, mode)
            if node is not None:
                flush()
                parts.append(node)
                pos = newpos
                continue
        lit.append(c)
        pos += 1
    flush()
    return merge_parts(parts), pos


def _read_backticks(src: str, pos: int, mode: str) -> tuple[ast.CmdSub, int]:
    out: list[str] = []
    i = pos + 1
    while i < len(src):
        c = src[i]
        if c == "`":
            break
        if c == "\\" and i + 1 < len(src):
            nxt = src[i + 1]
            if nxt in "$`\\" or (nxt == '"' and mode == "dq"):
                out.append(nxt)
                i += 2
                continue
        out.append(c)
        i += 1
    else:
        raise ShellSyntaxError("unexpected EOF while looking for matching ``'")
    inner = "".join(out)
    return ast.CmdSub(_programs().parse(inner), inner), i + 1


ANSI = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
        "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip


def _read_ansi_c(src: str, pos: int) -> tuple[str, int]:
    out: list[str] = []
    n = len(src)
    while pos < n:
        c = src[pos]
        if c == "'":
            return "".join(out), pos + 1
        if c == "\\" and pos + 1 < n:
            nxt = src[pos + 1]
            pos += 2
            if nxt in ANSI:
                out.append(ANSI[nxt])
            elif nxt in "01234567":
                digits = nxt
                while len(digits) < 3 and pos < n and src[pos] in "01234567":
                    digits += src[pos]
                    pos += 1
                out.append(chr(int(digits, 8) & 0xFF))
            elif nxt in "xuU":
                limit = {"x": 2, "u": 4, "U": 8}[nxt]
                digits = ""
                while len(digits) < limit and pos < n and src[pos] in "0123456789abcdefABCDEF":
                    digits += src[pos]
                    pos += 1
                if not digits:
                    out.append("\\" + nxt)
                else:
                    value = int(digits, 16)
                    if nxt == "x" and value >= 0x80:
                        out.append(chr(0xDC00 + value))  # a raw byte (surrogateescape)
                    else:
                        out.append(chr(value) if value < 0x110000 else "?")
            elif nxt == "c" and pos < n:
                out.append(chr(ord(src[pos]) & 0x1F))
                pos += 1
            else:
                out.append("\\" + nxt)
            continue
        out.append(c)
        pos += 1
    raise ShellSyntaxError("unexpected EOF while looking for matching `''")


def find_arith_end(src: str, pos: int) -> int:
    """Index of the ``))`` closing an arithmetic expression starting at ``pos``, or -1."""
    depth = 0
    n = len(src)
    while pos < n:
        c = src[pos]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return pos if src.startswith("))", pos) else -1
            depth -= 1
        elif c in "'\"":
            end = src.find(c, pos + 1)
            if end < 0:
                return -1
            pos = end
        elif c == "\\":
            pos += 1
        pos += 1
    return -1


@lru_cache(maxsize=8192)
def _matching_brace(src: str, pos: int) -> int:
    """Index of the ``}`` closing a ``${`` whose body starts at ``pos``, or -1.

    A nested ``${`` jumps to its own (cached) close, so deeply nested expansions cost
    linear, not quadratic, time.
    """
    depth = 0
    n = len(src)
    while pos < n:
        c = src[pos]
        if c == "\\":
            pos += 2
            continue
        if c == "'":
            end = src.find("'", pos + 1)
            if end < 0:
                return -1
            pos = end + 1
            continue
        if c == '"':
            _, end = read_parts(src, pos + 1, "dq")
            pos = end + 1
            continue
        if c == "$" and src.startswith("$(", pos):
            _, pos = _programs().parse_substitution(src, pos + 2)
            continue
        if c == "$" and src.startswith("${", pos):
            inner = _matching_brace(src, pos + 2)
            if inner < 0:
                return -1
            pos = inner + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return pos
            depth -= 1
        pos += 1
    return -1


def _read_dollar(src: str, pos: int, mode: str) -> tuple[object | None, int]:
    """Parse an expansion at ``src[pos] == '$'``; ``(None, pos)`` when it is a plain ``$``."""
    nxt = src[pos + 1]
    if nxt == "(":
        if src.startswith("$((", pos):
            end = find_arith_end(src, pos + 3)
            if end >= 0:
                return ast.Arith(src[pos + 3 : end]), end + 2
        node, end = _programs().parse_substitution(src, pos + 2)
        return ast.CmdSub(node, src[pos + 2 : end - 1]), end
    if nxt == "{":
        return _read_brace_param(src, pos, mode)
    if nxt == "[":
        end = src.find("]", pos + 2)
        if end >= 0:
            return ast.Arith(src[pos + 2 : end]), end + 1
    if nxt in NAME_START:
        end = pos + 1
        while end < len(src) and src[end] in NAME_CHARS:
            end += 1
        return ast.Param(src[pos + 1 : end], text=src[pos:end]), end
    if is_digits(nxt) or nxt in SPECIAL_PARAMS:
        return ast.Param(nxt, text=src[pos : pos + 2]), pos + 2
    return None, pos


PARAM_OPS = (":-", ":=", ":?", ":+", "//", "/#", "/%", "##", "%%", "^^", ",,",
             "-", "=", "?", "+", "/", "#", "%", "^", ",", ":")  # fmt: skip


def _read_brace_param(src: str, pos: int, mode: str) -> tuple[object, int]:
    close = _matching_brace(src, pos + 2)
    if close < 0:
        raise ShellSyntaxError("unexpected EOF while looking for matching `}'")
    text = src[pos : close + 1]
    body = src[pos + 2 : close]
    bad = ast.Param("", "bad", text=text)
    inner_mode = "brace_dq" if mode in ("dq", "brace_dq") else "brace"
    i = pos + 2
    op_prefix = ""
    if body.startswith("#") and len(body) > 1:
        op_prefix = "len"
        i += 1
    elif body.startswith("!") and len(body) > 1:
        op_prefix = "indirect"
        i += 1
    # the name
    if i < close and src[i] in NAME_START:
        j = i
        while j < close and src[j] in NAME_CHARS:
            j += 1
    elif i < close and is_digits(src[i]):
        j = i
        while j < close and is_digits(src[j]):
            j += 1
    elif i < close and src[i] in SPECIAL_PARAMS:
        j = i + 1
    else:
        return bad, close + 1
    name = src[i:j]
    if j < close and src[j] == "[":
        return ast.Param(name, "array", text=text), close + 1
    if op_prefix == "len":
        return (ast.Param(name, "len", text=text) if j == close else bad), close + 1
    if op_prefix == "indirect":
        if j == close:
            return ast.Param(name, "indirect", text=text), close + 1
        if src[j] in "*@" and j + 1 == close:
            return ast.Param(name, "names", text=text), close + 1
        return bad, close + 1
    if j == close:
        return ast.Param(name, text=text), close + 1
    op = next((o for o in PARAM_OPS if src.startswith(o, j)), None)
    if op is None:
        if src[j] == "@":
            return ast.Param(name, "transform", text=text), close + 1
        return bad, close + 1
    k = j + len(op)
    if op in ("#", "##", "%", "%%"):
        arg, k = read_parts(src, k, "brace")
        return ast.Param(name, op, ast.Word(arg), text=text), close + 1
    if op in ("/", "//", "/#", "/%"):
        pattern, k = read_parts(src, k, "brace", stop="/")
        repl: list = []
        if k < close and src[k] == "/":
            repl, k = read_parts(src, k + 1, inner_mode)
        return (
            ast.Param(name, op, ast.Word(pattern), ast.Word(repl), text=text),
            close + 1,
        )
    if op == ":":
        offset, k = read_parts(src, k, "brace", stop=":")
        length = None
        if k < close and src[k] == ":":
            parts, k = read_parts(src, k + 1, "brace")
            length = ast.Word(parts)
        return ast.Param(name, ":", ast.Word(offset), length, text=text), close + 1
    arg, k = read_parts(src, k, inner_mode)
    return ast.Param(name, op, ast.Word(arg), text=text), close + 1
