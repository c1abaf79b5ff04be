"""Recursive-descent parser: source text to the syntax tree of :mod:`.ast`.

Follows the POSIX shell grammar with bash's extensions (``[[ ]]``, ``(( ))``,
``for ((;;))``, ``function name``, ``|&``, ``&>``). A parse is a pure function of the
text, so :func:`parse_program` caches its results by source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cwgym.machine.shell import ast
from cwgym.machine.shell.errors import LimitExceeded, ShellSyntaxError
from cwgym.machine.shell.lexer import Lexer, Token, is_name, tilde_parts, use_parser
from cwgym.machine.shell.testcmd import UNARY

RESERVED = frozenset(
    [
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "do",
        "done",
        "case",
        "esac",
        "while",
        "until",
        "for",
        "in",
        "function",
        "{",
        "}",
        "!",
        "[[",
        "]]",
        "select",
        "time",
        "coproc",
    ]
)
LIST_END = frozenset(["then", "elif", "else", "fi", "do", "done", "esac", "}"])
REDIRECT_OPS = frozenset(["<", ">", ">>", ">|", "<>", "<&", ">&", "&>", "&>>", "<<", "<<-", "<<<"])
# [[ ]] takes the same unary file and string tests as test/[.
COND_UNARY = UNARY
COND_BINARY = frozenset(
    ["==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]
)
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_FUNC_PARENS = re.compile(r"[ \t]*\([ \t]*\)")
_FUNC_NAME = re.compile(r"[^\s$`'\"\\=;&|<>(){}]+")


@dataclass(slots=True)
class Program:
    """A parsed command line or script: its complete commands, in order.

    Like bash, a line is parsed a complete command (up to a newline) at a time, so the
    commands before a syntax error still run; ``error`` is that error, if any. Each
    command carries the here-document warnings the lexer had while reading it.
    """

    commands: list[tuple[ast.Node, list[str]]]
    error: ShellSyntaxError | None


_CACHE: dict[str, Program] = {}
_CACHE_LIMIT = 4096
#: The longest program text parsed at once (a line, a script, ``eval``'s argument): the
#: whole text is parsed before it runs, so its size bounds the work a line does before
#: any step is counted. Real scripts are a few kilobytes.
MAX_PROGRAM = 128 * 1024


def parse_program(src: str) -> Program:
    """Parse a whole command line or script (cached by text)."""
    cached = _CACHE.get(src)
    if cached is not None:
        return cached
    if len(src) > MAX_PROGRAM:
        raise LimitExceeded(f"program text too long ({len(src)} characters, over {MAX_PROGRAM // 1024} KiB); command aborted")
    parser = Parser(src)
    commands: list[tuple[ast.Node, list[str]]] = []
    error = None
    try:
        while True:
            parser.skip_newlines()
            if parser.peek().kind == "EOF":
                break
            node = parser.parse_list(set(), top=True)
            tok = parser.peek()
            if tok.kind == "NEWLINE":
                parser.advance()  # reads the here-document bodies of this line
            elif tok.kind != "EOF":
                parser.unexpected(tok)
            commands.append((node, list(parser.lexer.warnings)))
            parser.lexer.warnings.clear()
    except ShellSyntaxError as exc:
        error = exc
    except RecursionError:
        error = ShellSyntaxError("syntax error: expression nested too deeply")
    program = Program(commands, error)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[src] = program
    return program


def parse_function(source: str) -> ast.FuncDef:
    """The definition stored as ``source`` in the shell state."""
    program = parse_program(source)
    if program.error is not None or not program.commands:
        raise program.error or ShellSyntaxError("syntax error: empty function")
    node = program.commands[0][0]
    return node.items[0]  # type: ignore[attr-defined]


def parse(src: str) -> ast.Node:
    """Parse ``src`` as one list (raises ShellSyntaxError): backtick bodies."""
    parser = Parser(src)
    return parser.parse_all()


def parse_substitution(src: str, pos: int) -> tuple[ast.Node, int]:
    """Parse the body of ``$(`` starting at ``pos``; returns it and the index after ``)``."""
    parser = Parser(src, pos)
    body = parser.parse_list({")"})
    tok = parser.peek()
    if tok.kind == "EOF":
        raise ShellSyntaxError("unexpected EOF while looking for matching `)'")
    if not (tok.kind == "OP" and tok.value == ")"):
        parser.unexpected(tok)
    parser.advance()
    return body, tok.end


def unquote_delimiter(raw: str) -> str:
    out: list[str] = []
    i = 0
    quote = ""
    while i < len(raw):
        c = raw[i]
        if quote == "'":
            if c == "'":
                quote = ""
            else:
                out.append(c)
        elif c == "\\" and i + 1 < len(raw) and (quote == "" or raw[i + 1] in '$`"\\'):
            out.append(raw[i + 1])
            i += 1
        elif c in "'\"" and (quote == "" or quote == c):
            quote = "" if quote else c
        else:
            out.append(c)
        i += 1
    return "".join(out)


class Parser:
    def __init__(self, src: str, pos: int = 0) -> None:
        self.src = src
        self.lexer = Lexer(src, pos)
        self.tok: Token | None = None
        self.last_end = pos

    # -- token plumbing -------------------------------------------------------------------
    def peek(self) -> Token:
        if self.tok is None:
            self.tok = self.lexer.next_token()
        return self.tok

    def advance(self) -> Token:
        tok = self.peek()
        self.tok = None
        self.last_end = tok.end
        return tok

    def rewind(self, tok: Token) -> None:
        """Forget a peeked token so the lexer re-reads from its start in another mode."""
        self.tok = None
        self.lexer.pos = tok.start

    def unexpected(self, tok: Token) -> None:
        if tok.kind == "EOF":
            raise ShellSyntaxError("syntax error: unexpected end of file")
        shown = "newline" if tok.kind == "NEWLINE" else tok.value
        raise ShellSyntaxError(f"syntax error near unexpected token `{shown}'")

    def is_word(self, tok: Token, value: str) -> bool:
        return tok.kind == "WORD" and tok.value == value

    def is_op(self, tok: Token, value: str) -> bool:
        return tok.kind == "OP" and tok.value == value

    def expect_word(self, value: str) -> None:
        tok = self.peek()
        if not self.is_word(tok, value):
            self.unexpected(tok)
        self.advance()

    def skip_newlines(self) -> None:
        while self.peek().kind == "NEWLINE":
            self.advance()

    # -- lists ------------------------------------------------------------------------------
    def parse_all(self) -> ast.Node:
        body = self.parse_list(set())
        tok = self.peek()
        if tok.kind != "EOF":
            self.unexpected(tok)
        return body

    def _at_list_end(self, tok: Token, ends: set[str]) -> bool:
        if tok.kind == "EOF":
            return True
        if tok.kind == "WORD" and tok.value in LIST_END:
            return True
        return tok.kind == "OP" and (tok.value in ends or tok.value in (";;", ";&", ";;&", ")"))

    def parse_list(self, ends: set[str], *, top: bool = False) -> ast.ListNode:
        items: list = []
        background: list[bool] = []
        while True:
            if not top:
                self.skip_newlines()
            tok = self.peek()
            if self._at_list_end(tok, ends) or (top and tok.kind == "NEWLINE"):
                break
            items.append(self.parse_and_or())
            tok = self.peek()
            if tok.kind == "OP" and tok.value in (";", "&"):
                self.advance()
                background.append(tok.value == "&")
                continue
            background.append(False)
            if tok.kind == "NEWLINE" and not top:
                continue
            break
        return ast.ListNode(items, background)

    def parse_compound_list(self, ends: set[str] | None = None) -> ast.ListNode:
        body = self.parse_list(ends or set())
        if not body.items:
            self.unexpected(self.peek())
        return body

    def parse_and_or(self) -> ast.Node:
        items = [self.parse_pipeline()]
        ops: list[str] = []
        while True:
            tok = self.peek()
            if tok.kind == "OP" and tok.value in ("&&", "||"):
                self.advance()
                self.skip_newlines()
                ops.append(tok.value)
                items.append(self.parse_pipeline())
            else:
                break
        return items[0] if not ops else ast.AndOr(items, ops)

    def parse_pipeline(self) -> ast.Node:
        negate = False
        while self.is_word(self.peek(), "!"):
            self.advance()
            negate = not negate
        commands = [self.parse_command()]
        while True:
            tok = self.peek()
            if tok.kind == "OP" and tok.value in ("|", "|&"):
                self.advance()
                if tok.value == "|&":
                    _redirects_of(commands[-1]).append(
                        ast.Redirect(">&", 2, ast.Word([ast.Lit("1")], "1"))
                    )
                self.skip_newlines()
                commands.append(self.parse_command())
            else:
                break
        if len(commands) == 1 and not negate:
            return commands[0]
        return ast.Pipeline(commands, negate)

    # -- commands ---------------------------------------------------------------------------
    def parse_command(self) -> ast.Node:
        tok = self.peek()
        if tok.kind == "OP" and tok.value == "(":
            if self.src.startswith("((", tok.start):
                self.rewind(tok)
                expr = self.lexer.read_arith_command()
                self.last_end = self.lexer.pos
                return self._redirected(ast.ArithCmd(expr))
            self.advance()
            body = self.parse_compound_list({")"})
            close = self.peek()
            if not self.is_op(close, ")"):
                self.unexpected(close)
            self.advance()
            return self._redirected(ast.Subshell(body))
        if tok.kind == "WORD":
            value = tok.value
            if value == "{":
                self.advance()
                body = self.parse_compound_list()
                self.expect_word("}")
                return self._redirected(ast.Group(body))
            if value == "if":
                return self._redirected(self.parse_if())
            if value in ("while", "until"):
                self.advance()
                cond = self.parse_compound_list()
                body = self.parse_do()
                return self._redirected(ast.While(cond, body, value == "until"))
            if value == "for":
                return self._redirected(self.parse_for())
            if value == "case":
                return self._redirected(self.parse_case())
            if value == "[[":
                self.advance()
                expr = self.parse_cond_or()
                self.skip_newlines()
                self.expect_word("]]")
                return self._redirected(ast.Cond(expr))
            if value == "function":
                return self.parse_function_keyword()
            if value in ("then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]"):
                self.unexpected(tok)
            if value in ("select", "coproc"):
                raise ShellSyntaxError(f"{value}: not supported by this shell")
            if _FUNC_NAME.fullmatch(value) and _FUNC_PARENS.match(self.src, tok.end):
                return self.parse_function(tok)
        return self.parse_simple()

    def _redirected(self, node):
        redirects = node.redirects
        while True:
            tok = self.peek()
            if tok.kind == "IONUM" or (tok.kind == "OP" and tok.value in REDIRECT_OPS):
                redirects.append(self.parse_redirect())
            else:
                return node

    def parse_do(self) -> ast.ListNode:
        self.skip_newlines()
        self.expect_word("do")
        body = self.parse_compound_list()
        self.expect_word("done")
        return body

    def parse_if(self) -> ast.If:
        self.advance()
        arms = []
        cond = self.parse_compound_list()
        self.expect_word("then")
        arms.append((cond, self.parse_compound_list()))
        orelse = None
        while True:
            tok = self.peek()
            if self.is_word(tok, "elif"):
                self.advance()
                cond = self.parse_compound_list()
                self.expect_word("then")
                arms.append((cond, self.parse_compound_list()))
            elif self.is_word(tok, "else"):
                self.advance()
                orelse = self.parse_compound_list()
            else:
                break
        self.expect_word("fi")
        return ast.If(arms, orelse)

    def parse_for(self) -> ast.Node:
        self.advance()
        tok = self.peek()
        if self.is_op(tok, "(") and self.src.startswith("((", tok.start):
            self.rewind(tok)
            text = self.lexer.read_arith_command()
            self.last_end = self.lexer.pos
            pieces = _split_arith_for(text)
            tok = self.peek()
            if self.is_op(tok, ";"):
                self.advance()
            body = self.parse_do()
            return ast.ArithFor(pieces[0], pieces[1], pieces[2], body)
        if tok.kind != "WORD" or not is_name(tok.value):
            self.unexpected(tok)
        var = self.advance().value
        words: list[ast.Word] | None = None
        self.skip_newlines()
        tok = self.peek()
        if self.is_word(tok, "in"):
            self.advance()
            words = []
            while True:
                tok = self.peek()
                if tok.kind == "WORD":
                    words.append(self.advance().word)  # type: ignore[arg-type]
                elif tok.kind == "NEWLINE" or self.is_op(tok, ";"):
                    self.advance()
                    break
                else:
                    self.unexpected(tok)
        elif self.is_op(tok, ";"):
            self.advance()
        body = self.parse_do()
        return ast.For(var, words, body)

    def parse_case(self) -> ast.Case:
        self.advance()
        tok = self.peek()
        if tok.kind != "WORD":
            self.unexpected(tok)
        word = self.advance().word
        self.skip_newlines()
        self.expect_word("in")
        items: list[ast.CaseItem] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if self.is_word(tok, "esac"):
                self.advance()
                break
            if self.is_op(tok, "("):
                self.advance()
                tok = self.peek()
            patterns = []
            while True:
                if tok.kind != "WORD":
                    self.unexpected(tok)
                patterns.append(self.advance().word)
                tok = self.peek()
                if self.is_op(tok, "|"):
                    self.advance()
                    tok = self.peek()
                    continue
                if self.is_op(tok, ")"):
                    self.advance()
                    break
                self.unexpected(tok)
            body = self.parse_list(set())
            tok = self.peek()
            terminator = ";;"
            if tok.kind == "OP" and tok.value in (";;", ";&", ";;&"):
                terminator = self.advance().value
            elif not self.is_word(tok, "esac"):
                self.unexpected(tok)
            items.append(ast.CaseItem(patterns, body if body.items else None, terminator))
        return ast.Case(word, items)  # type: ignore[arg-type]

    def parse_function(self, tok: Token) -> ast.Node:
        start = tok.start
        name = self.advance().value
        self.advance()  # (
        close = self.advance()
        if not self.is_op(close, ")"):
            self.unexpected(close)
        return self._function_body(name, start)

    def parse_function_keyword(self) -> ast.Node:
        start = self.advance().start
        tok = self.peek()
        if tok.kind != "WORD" or not _FUNC_NAME.fullmatch(tok.value):
            self.unexpected(tok)
        name = self.advance().value
        tok = self.peek()
        if self.is_op(tok, "("):
            self.advance()
            close = self.advance()
            if not self.is_op(close, ")"):
                self.unexpected(close)
        return self._function_body(name, start)

    def _function_body(self, name: str, start: int) -> ast.Node:
        self.skip_newlines()
        tok = self.peek()
        compound = (
            tok.kind == "WORD" and tok.value in ("{", "if", "while", "until", "for", "case", "[[")
        ) or (self.is_op(tok, "("))
        if not compound:
            self.unexpected(tok)
        body = self.parse_command()
        source = self.src[start : self.last_end]
        return ast.FuncDef(name, body, source)

    def parse_simple(self) -> ast.Node:
        assigns: list[ast.Assign] = []
        words: list[ast.Word] = []
        redirects: list[ast.Redirect] = []
        while True:
            tok = self.peek()
            if tok.kind == "WORD":
                match = _ASSIGN.match(tok.value) if not words else None
                if match:
                    if (
                        tok.end < len(self.src)
                        and self.src[tok.end] == "("
                        and tok.value.endswith("=")
                    ):
                        raise ShellSyntaxError(
                            f"{match.group(1)}: arrays are not supported by this shell"
                        )
                    self.advance()
                    assigns.append(_assignment(tok, match))
                    continue
                self.advance()
                words.append(tok.word)  # type: ignore[arg-type]
            elif tok.kind == "IONUM" or (tok.kind == "OP" and tok.value in REDIRECT_OPS):
                redirects.append(self.parse_redirect())
            else:
                break
        if not (assigns or words or redirects):
            self.unexpected(self.peek())
        return ast.Simple(assigns, words, redirects)

    def parse_redirect(self) -> ast.Redirect:
        fd: int | None = None
        tok = self.advance()
        if tok.kind == "IONUM":
            fd = int(tok.value) if len(tok.value) < 6 else 99999
            tok = self.advance()
            if not (tok.kind == "OP" and tok.value in REDIRECT_OPS):
                self.unexpected(tok)
        op = tok.value
        target = self.peek()
        if self.is_op(target, "(") and op in ("<", ">") and target.start == tok.end:
            raise ShellSyntaxError(f"process substitution {op}(...) is not supported by this shell")
        if target.kind != "WORD":
            self.unexpected(target)
        self.advance()
        if op in ("<<", "<<-"):
            raw = target.value
            quoted = any(c in raw for c in "'\"\\")
            doc = ast.HereDoc(unquote_delimiter(raw), quoted, op == "<<-")
            doc.line = self.src.count("\n", 0, tok.start) + 1
            self.lexer.pending.append(doc)
            return ast.Redirect(op, fd, None, doc)
        return ast.Redirect(op, fd, target.word)

    # -- [[ ]] --------------------------------------------------------------------------------
    def _cond_peek(self) -> Token:
        self.skip_newlines()
        return self.peek()

    def parse_cond_or(self):
        left = self.parse_cond_and()
        while self.is_op(self._cond_peek(), "||"):
            self.advance()
            left = ast.CondOr(left, self.parse_cond_and())
        return left

    def parse_cond_and(self):
        left = self.parse_cond_not()
        while self.is_op(self._cond_peek(), "&&"):
            self.advance()
            left = ast.CondAnd(left, self.parse_cond_not())
        return left

    def parse_cond_not(self):
        tok = self._cond_peek()
        if self.is_word(tok, "!"):
            self.advance()
            return ast.CondNot(self.parse_cond_not())
        return self.parse_cond_primary()

    def parse_cond_primary(self):
        tok = self._cond_peek()
        if self.is_op(tok, "("):
            self.advance()
            inner = self.parse_cond_or()
            close = self._cond_peek()
            if not self.is_op(close, ")"):
                self.unexpected(close)
            self.advance()
            return inner
        if tok.kind != "WORD" or tok.value == "]]":
            if tok.kind == "EOF" or tok.kind == "NEWLINE":
                raise ShellSyntaxError("unexpected EOF while looking for `]]'")
            raise ShellSyntaxError(
                f"syntax error in conditional expression: unexpected token `{tok.value}'"
            )
        self.advance()
        nxt = self.peek()
        if tok.value in COND_UNARY and nxt.kind == "WORD" and nxt.value != "]]":
            self.advance()
            return ast.CondUnary(tok.value, nxt.word)  # type: ignore[arg-type]
        if (nxt.kind == "WORD" and nxt.value in COND_BINARY) or (
            nxt.kind == "OP" and nxt.value in ("<", ">")
        ):
            self.advance()
            if nxt.value == "=~":
                right = self.lexer.read_regex_word()
                self.last_end = self.lexer.pos
            else:
                operand = self.peek()
                if operand.kind != "WORD" or operand.value == "]]":
                    raise ShellSyntaxError(
                        f"unexpected argument `{operand.value or 'newline'}' to conditional binary operator"
                    )
                right = self.advance().word  # type: ignore[assignment]
            return ast.CondBinary(nxt.value, tok.word, right)  # type: ignore[arg-type]
        return ast.CondWord(tok.word)  # type: ignore[arg-type]


def _redirects_of(node) -> list:
    redirects = getattr(node, "redirects", None)
    if redirects is None:
        raise ShellSyntaxError("syntax error near unexpected token `|&'")
    return redirects


def _assignment(tok: Token, match: re.Match) -> ast.Assign:
    """Split ``name=value`` into an Assign: the value keeps the word's parts after ``=``."""
    word = tok.word
    assert word is not None
    prefix_len = match.end()
    parts = list(word.parts)
    first = parts[0]
    rest_text = first.text[prefix_len:]
    value_parts = ([ast.Lit(rest_text)] if rest_text else []) + parts[1:]
    if value_parts and isinstance(value_parts[0], ast.Lit) and value_parts[0].text.startswith("~"):
        value_parts = tilde_parts(value_parts)
    return ast.Assign(
        match.group(1), ast.Word(value_parts, tok.value[prefix_len:]), match.group(2) == "+"
    )


def _split_arith_for(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    current: list[str] = []
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == ";" and depth == 0:
            pieces.append("".join(current))
            current = []
        else:
            current.append(c)
    pieces.append("".join(current))
    if len(pieces) != 3:
        raise ShellSyntaxError(f"syntax error: arithmetic expression required: `(({text}))'")
    return pieces


use_parser(parse, parse_substitution)
