"""The awk grammar (POSIX, plus the common gawk additions) as a recursive-descent parser.

The result is a :class:`Program` of tuple nodes (``("binop", "+", a, b)`` ...), which
:mod:`.interp` compiles into closures.
"""

from __future__ import annotations

from cwgym.machine.commands._awk.lexer import AwkSyntaxError, Token, tokenize

ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "^=", "**="}
CMP_OPS = {"<", "<=", "==", "!=", ">", ">="}
_CONCAT_START_KINDS = {"NUMBER", "STRING", "ERE", "NAME", "FUNC_NAME", "BUILTIN"}
_CONCAT_START_OPS = {"$", "!", "(", "-", "+", "++", "--"}


class AwkParseError(Exception):
    """A semantic error found while parsing (``next`` in BEGIN): ``error:`` line, exit 1."""


class Program:
    def __init__(self) -> None:
        self.begin: list = []
        self.end: list = []
        self.rules: list[tuple] = []  # (pattern | None, pattern2 | None, body | None)
        self.functions: dict[str, tuple[list[str], list]] = {}


class Parser:
    def __init__(self, src: str) -> None:
        self.src = src
        self.warnings: list[str] = []
        self.toks: list[Token] = tokenize(src, self.warnings)
        self.pos = 0
        self.no_gt = 0  # >0 while parsing print arguments: '>' is redirection
        self.no_in = 0  # >0 in a for(...) head before deciding for-in
        self.params: set[str] = set()
        self.action = ""  # "BEGIN" / "END" while parsing those actions

    # -- token helpers ------------------------------------------------------------------
    def peek(self, offset: int = 0) -> Token:
        return self.toks[min(self.pos + offset, len(self.toks) - 1)]

    def next(self) -> Token:
        tok = self.toks[self.pos]
        if self.pos < len(self.toks) - 1:
            self.pos += 1
        return tok

    def at(self, value: str, kind: str = "OP") -> bool:
        tok = self.peek()
        return tok.kind == kind and tok.value == value

    def at_kw(self, value: str) -> bool:
        return self.at(value, "KEYWORD")

    def error(self, tok: Token | None = None, message: str = "syntax error") -> AwkSyntaxError:
        tok = tok or self.peek()
        if tok.kind in ("EOF",) or (tok.kind == "NEWLINE" and message == "syntax error" and tok.col >= 0 and self._at_end(tok)):
            message = "unexpected newline or end of string"
        return AwkSyntaxError(message, tok.line, tok.col)

    def _at_end(self, tok: Token) -> bool:
        return self.toks[-2] is tok or tok.kind == "EOF"

    def expect(self, value: str, kind: str = "OP") -> Token:
        tok = self.peek()
        if tok.kind != kind or tok.value != value:
            raise self.error(tok)
        return self.next()

    def newlines(self) -> None:
        while self.peek().kind == "NEWLINE":
            self.next()

    def terminators(self) -> None:
        while self.peek().kind == "NEWLINE" or self.at(";"):
            self.next()

    # -- program ------------------------------------------------------------------------
    def parse(self) -> Program:
        prog = Program()
        self.terminators()
        while self.peek().kind != "EOF":
            tok = self.peek()
            if tok.kind == "KEYWORD" and tok.value in ("BEGIN", "END"):
                self.next()
                self.newlines_before_brace()
                self.action = tok.value
                body = self.block()
                self.action = ""
                (prog.begin if tok.value == "BEGIN" else prog.end).extend(body)
            elif tok.kind == "KEYWORD" and tok.value == "function":
                self.function(prog)
            else:
                pattern = pattern2 = None
                if not self.at("{"):
                    pattern = self.expr()
                    if self.at(","):
                        self.next()
                        self.newlines()
                        pattern2 = self.expr()
                body = self.block() if self.at("{") else None
                prog.rules.append((pattern, pattern2, body))
            ended_with_brace = self.toks[self.pos - 1].kind == "OP" and self.toks[self.pos - 1].value == "}"
            if not (self.peek().kind in ("NEWLINE", "EOF") or self.at(";") or ended_with_brace):
                raise self.error()
            self.terminators()
        return prog

    def newlines_before_brace(self) -> None:
        if not self.at("{"):
            raise self.error()

    def function(self, prog: Program) -> None:
        self.next()
        tok = self.next()
        if tok.kind not in ("NAME", "FUNC_NAME"):
            raise self.error(tok)
        name = tok.value
        if name in prog.functions:
            raise AwkSyntaxError(f"function name `{name}' previously defined", tok.line, tok.col)
        self.expect("(")
        params: list[str] = []
        while not self.at(")"):
            ptok = self.next()
            if ptok.kind != "NAME":
                raise self.error(ptok)
            params.append(ptok.value)
            if self.at(","):
                self.next()
                self.newlines()
            elif not self.at(")"):
                raise self.error()
        self.next()
        self.newlines()
        saved = self.params
        self.params = set(params)
        prog.functions[name] = (params, [])
        body = self.block()
        prog.functions[name] = (params, body)
        self.params = saved

    # -- statements ---------------------------------------------------------------------
    def block(self) -> list:
        self.expect("{")
        stmts = []
        self.terminators()
        while not self.at("}"):
            if self.peek().kind == "EOF":
                raise self.error()
            stmts.append(self.statement())
            self.terminators()
        self.next()
        return stmts

    def simple_end(self) -> None:
        tok = self.peek()
        if tok.kind == "NEWLINE" or self.at(";"):
            self.next()
            return
        if self.at("}") or tok.kind == "EOF":
            return
        raise self.error(tok)

    def statement(self):
        tok = self.peek()
        if self.at("{"):
            return ("block", self.block())
        if self.at(";"):
            self.next()
            return ("block", [])
        if tok.kind == "KEYWORD":
            word = tok.value
            if word == "if":
                self.next()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.newlines()
                then = self.statement()
                save = self.pos
                self.terminators()
                if self.at_kw("else"):
                    self.next()
                    self.newlines()
                    other = self.statement()
                    return ("if", cond, then, other)
                self.pos = save
                return ("if", cond, then, None)
            if word == "while":
                self.next()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                if self.at(";"):
                    self.next()
                    return ("while", cond, ("block", []))
                self.newlines()
                return ("while", cond, self.statement())
            if word == "do":
                self.next()
                self.newlines()
                body = self.statement()
                self.terminators()
                if not self.at_kw("while"):
                    raise self.error()
                self.next()
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.simple_end()
                return ("do", body, cond)
            if word == "for":
                return self.for_statement()
        stmt = self.simple_statement()
        self.simple_end()
        return stmt

    def for_statement(self):
        self.next()
        self.expect("(")
        # for (var in array)
        if (
            self.peek().kind == "NAME"
            and self.peek(1).kind == "KEYWORD"
            and self.peek(1).value == "in"
            and self.peek(2).kind == "NAME"
            and self.peek(3).kind == "OP"
            and self.peek(3).value == ")"
        ) and True:
            var = self.next().value
            self.next()
            arr = self.next().value
            self.next()
            self.newlines()
            return ("forin", ("var", var), arr, self.statement())
        init = None if self.at(";") else self.simple_statement()
        self.expect(";")
        self.newlines()
        cond = None if self.at(";") else self.expr()
        self.expect(";")
        self.newlines()
        step = None if self.at(")") else self.simple_statement()
        self.expect(")")
        if self.at(";"):
            self.next()
            return ("for", init, cond, step, ("block", []))
        self.newlines()
        return ("for", init, cond, step, self.statement())

    def simple_statement(self):
        tok = self.peek()
        if tok.kind == "KEYWORD":
            word = tok.value
            if word in ("print", "printf"):
                return self.print_statement()
            if word in ("next", "nextfile", "break", "continue"):
                self.next()
                if word in ("next", "nextfile") and self.action:
                    raise AwkParseError(f"`{word}' used in {self.action} action")
                return (word,)
            if word in ("exit", "return"):
                self.next()
                if self.peek().kind in ("NEWLINE", "EOF") or self.at(";") or self.at("}"):
                    return (word, None)
                return (word, self.expr())
            if word == "delete":
                self.next()
                name_tok = self.next()
                if name_tok.kind != "NAME":
                    raise self.error(name_tok)
                if self.at("["):
                    self.next()
                    subs = self.expr_list("]")
                    return ("delete", name_tok.value, subs)
                return ("delete", name_tok.value, None)
        return ("expr", self.expr())

    def print_statement(self):
        word = self.next().value
        args: list = []
        self.no_gt += 1
        try:
            if not (self.peek().kind in ("NEWLINE", "EOF") or self.at(";") or self.at("}") or self.at(">") or self.at(">>") or self.at("|")):
                args = self.expr_list(None)
        finally:
            self.no_gt -= 1
        if len(args) == 1 and args[0][0] == "group":
            args = args[0][1]
        redirect = None
        if self.at(">") or self.at(">>") or self.at("|"):
            op = self.next().value
            target = self.concat_expr(no_in=False)
            redirect = (op, target)
        return (word, args, redirect)

    def expr_list(self, closer: str | None) -> list:
        items = [self.expr()]
        while self.at(","):
            self.next()
            self.newlines()
            items.append(self.expr())
        if closer is not None:
            self.expect(closer)
        return items

    # -- expressions --------------------------------------------------------------------
    def expr(self):
        return self.ternary()

    def ternary(self):
        cond = self.or_expr()
        if self.at("?"):
            self.next()
            self.newlines()
            a = self.ternary()
            self.newlines()
            self.expect(":")
            self.newlines()
            b = self.ternary()
            return ("cond", cond, a, b)
        if self.peek().kind == "OP" and self.peek().value in ASSIGN_OPS and _is_lvalue(cond):
            op = self.next().value
            self.newlines()
            value = self.ternary()
            return ("assign", "^=" if op == "**=" else op, cond, value)
        return cond

    def or_expr(self):
        left = self.and_expr()
        while self.at("||"):
            self.next()
            self.newlines()
            left = ("or", left, self.and_expr())
        return left

    def and_expr(self):
        left = self.in_expr()
        while self.at("&&"):
            self.next()
            self.newlines()
            left = ("and", left, self.in_expr())
        return left

    def in_expr(self):
        left = self.match_expr()
        while self.at_kw("in"):
            self.next()
            name = self.next()
            if name.kind != "NAME":
                raise self.error(name)
            subs = left[1] if left[0] == "group" else [left]
            left = ("in", subs, name.value)
        return left

    def match_expr(self):
        left = self.cmp_expr()
        while self.at("~") or self.at("!~"):
            negate = self.next().value == "!~"
            right = self.cmp_expr()
            left = ("match", negate, left, right)
        return left

    def cmp_expr(self):
        left = self.concat_expr()
        tok = self.peek()
        if tok.kind == "OP" and tok.value in CMP_OPS:
            if tok.value == ">" and self.no_gt:
                return left
            op = self.next().value
            right = self.concat_expr()
            return ("cmp", op, left, right)
        if tok.kind == "OP" and tok.value == "|" and self.peek(1).kind == "KEYWORD" and self.peek(1).value == "getline":
            self.next()
            self.next()
            target = self.opt_lvalue()
            return ("getline", "cmd", target, left)
        return left

    def concat_expr(self, no_in: bool = True):
        left = self.additive()
        while self._starts_operand():
            left = ("concat", left, self.additive())
        return left

    def _starts_operand(self) -> bool:
        tok = self.peek()
        if tok.kind in _CONCAT_START_KINDS:
            return True
        if tok.kind == "KEYWORD" and tok.value == "getline":
            return False
        return tok.kind == "OP" and tok.value in ("$", "(", "++", "--")

    def additive(self):
        left = self.multiplicative()
        while self.at("+") or self.at("-"):
            op = self.next().value
            left = ("binop", op, left, self.multiplicative())
        return left

    def multiplicative(self):
        left = self.unary()
        while self.at("*") or self.at("/") or self.at("%"):
            op = self.next().value
            left = ("binop", op, left, self.unary())
        return left

    def unary(self):
        if self.at("!"):
            self.next()
            return ("not", self.unary())
        if self.at("-"):
            self.next()
            return ("neg", self.unary())
        if self.at("+"):
            self.next()
            return ("pos", self.unary())
        return self.power()

    def power(self):
        base = self.postfix()
        if self.at("^") or self.at("**"):
            self.next()
            exponent = self.unary_exponent()
            return ("binop", "^", base, exponent)
        return base

    def unary_exponent(self):
        if self.at("-"):
            self.next()
            return ("neg", self.unary_exponent())
        if self.at("+"):
            self.next()
            return ("pos", self.unary_exponent())
        if self.at("!"):
            self.next()
            return ("not", self.unary_exponent())
        return self.power()

    def postfix(self):
        if self.at("++") or self.at("--"):
            op = self.next().value
            target = self.postfix()
            if not _is_lvalue(target):
                raise self.error()
            return ("preinc", op, target)
        node = self.primary()
        if (self.at("++") or self.at("--")) and _is_lvalue(node):
            op = self.next().value
            return ("postinc", op, node)
        return node

    def opt_lvalue(self):
        tok = self.peek()
        if tok.kind == "NAME":
            self.next()
            if self.at("["):
                self.next()
                return ("index", tok.value, self.expr_list("]"))
            return ("var", tok.value)
        if self.at("$"):
            self.next()
            return ("field", self.field_operand())
        return None

    def field_operand(self):
        if self.at("++") or self.at("--"):
            op = self.next().value
            target = self.field_operand()
            return ("preinc", op, target)
        if self.at("-"):
            self.next()
            return ("neg", self.field_operand())
        if self.at("!"):
            self.next()
            return ("not", self.field_operand())
        return self.primary()

    def primary(self):
        tok = self.next()
        kind = tok.kind
        if kind == "NUMBER":
            return ("num", tok.value)
        if kind == "STRING":
            return ("str", tok.value)
        if kind == "ERE":
            return ("regex", tok.value)
        if kind == "OP":
            value = tok.value
            if value == "$":
                return ("field", self.field_operand())
            if value == "(":
                saved_gt, self.no_gt = self.no_gt, 0
                try:
                    self.newlines()
                    first = self.expr()
                    if self.at(","):
                        items = [first]
                        while self.at(","):
                            self.next()
                            self.newlines()
                            items.append(self.expr())
                        self.newlines()
                        self.expect(")")
                        return ("group", items)
                    self.newlines()
                    self.expect(")")
                finally:
                    self.no_gt = saved_gt
                return ("paren", first)
            if value == "-":
                return ("neg", self.unary())
            if value == "+":
                return ("pos", self.unary())
            if value == "!":
                return ("not", self.unary())
            raise self.error(tok)
        if kind == "NAME":
            if self.at("["):
                self.next()
                saved_gt, self.no_gt = self.no_gt, 0
                try:
                    subs = self.expr_list("]")
                finally:
                    self.no_gt = saved_gt
                return ("index", tok.value, subs)
            return ("var", tok.value)
        if kind == "FUNC_NAME":
            self.expect("(")
            saved_gt, self.no_gt = self.no_gt, 0
            try:
                self.newlines()
                args = [] if self.at(")") else self.expr_list(None)
                self.newlines()
                self.expect(")")
            finally:
                self.no_gt = saved_gt
            return ("call", tok.value, args, tok)
        if kind == "BUILTIN":
            name = tok.value
            if self.at("("):
                self.next()
                saved_gt, self.no_gt = self.no_gt, 0
                try:
                    self.newlines()
                    args = [] if self.at(")") else self.expr_list(None)
                    self.newlines()
                    closing = self.expect(")")
                finally:
                    self.no_gt = saved_gt
                low, high = _ARITY.get(name, (0, 99))
                if not low <= len(args) <= high:
                    raise AwkSyntaxError(
                        f"{len(args)} is invalid as number of arguments for {name}", closing.line, closing.col
                    )
                return ("builtin", name, args, tok)
            if name == "length":
                return ("builtin", name, [], tok)
            raise self.error()
        if kind == "KEYWORD" and tok.value == "getline":
            target = self.opt_lvalue()
            if self.at("<"):
                self.next()
                source = self.getline_source()
                return ("getline", "file", target, source)
            return ("getline", "main", target, None)
        raise self.error(tok)

    def getline_source(self):
        if self.at("$"):
            self.next()
            return ("field", self.field_operand())
        return self.primary()


_ARITY = {
    "length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 3), "sub": (2, 3),
    "gsub": (2, 3), "match": (2, 3), "sprintf": (1, 99), "tolower": (1, 1), "toupper": (1, 1),
    "int": (1, 1), "sqrt": (1, 1), "exp": (1, 1), "log": (1, 1), "sin": (1, 1), "cos": (1, 1),
    "atan2": (2, 2), "rand": (0, 0), "srand": (0, 1), "system": (1, 1), "close": (1, 2),
    "fflush": (0, 1), "gensub": (3, 4), "systime": (0, 0),
}


def _is_lvalue(node) -> bool:
    return node[0] in ("var", "index", "field")


def parse(src: str, warnings: list[str] | None = None) -> Program:
    """Parse an awk program. Raises :class:`AwkSyntaxError`; lexer warnings (gawk's
    ``escape sequence`` ones) are appended to ``warnings``."""
    parser = Parser(src)
    program = parser.parse()
    if warnings is not None:
        warnings.extend(parser.warnings)
    return program
