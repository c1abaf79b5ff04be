"""Shell arithmetic: 64-bit signed C integer expressions, as in ``$((...))`` and ``((...))``.

Operators (loosest first): ``,``; assignments ``= += -= *= /= %= <<= >>= &= ^= |=``;
``?:``; ``||``; ``&&``; ``|``; ``^``; ``&``; ``== !=``; ``< > <= >=``; ``<< >>``;
``+ -``; ``* / %``; ``**``; unary ``! ~ + - ++ --``; postfix ``++ --``. A variable's value
is itself evaluated as an expression, like bash. Errors carry bash's wording.
"""

from __future__ import annotations

from collections.abc import Callable

from cwgym.machine.shell.chars import is_digits
from cwgym.machine.shell.errors import ExpansionError

_MASK = (1 << 64) - 1
MAX_DEPTH = 1024
_OPS = ("**=", "<<=", ">>=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
        "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=",
        "+", "-", "*", "/", "%", "<", ">", "&", "^", "|", "!", "~", "?", ":", "=", ",", "(", ")")  # fmt: skip
_ASSIGN_OPS = frozenset(("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**="))
_BINARY_LEVELS = (
    ("||",),
    ("&&",),
    ("|",),
    ("^",),
    ("&",),
    ("==", "!="),
    ("<", ">", "<=", ">="),
    ("<<", ">>"),
    ("+", "-"),
    ("*", "/", "%"),
)


_PRECEDENCE = {op: level for level, ops in enumerate(_BINARY_LEVELS) for op in ops}


def wrap(value: int) -> int:
    """Reduce to a signed 64-bit integer, as C arithmetic on ``intmax_t`` wraps."""
    value &= _MASK
    return value - (1 << 64) if value >> 63 else value


class Variables:
    """How arithmetic reaches shell variables."""

    def __init__(self, get: Callable[[str], str | None], set_: Callable[[str, str], None]) -> None:
        self.get = get
        self.set = set_


class _Tok:
    __slots__ = ("kind", "pos", "value")

    def __init__(self, kind: str, value, pos: int) -> None:
        self.kind = kind  # num, name, op, end
        self.value = value
        self.pos = pos


class _Evaluator:
    def __init__(self, text: str, env: Variables, depth: int) -> None:
        self.text = text
        self.env = env
        self.depth = depth
        self.tokens = self._tokenize(text)
        self.i = 0
        self.operand_pos = 0

    # -- errors --------------------------------------------------------------------------
    def fail(self, message: str, pos: int | None = None) -> ExpansionError:
        if pos is None:
            tok = self.tokens[self.i]
            if tok.kind == "end" and self.i > 0:
                pos = self.tokens[self.i - 1].pos
            else:
                pos = tok.pos
        shown = self.text.lstrip()
        return ExpansionError(f'{shown}: {message} (error token is "{self.text[pos:]}")')

    # -- tokens --------------------------------------------------------------------------
    def _tokenize(self, text: str) -> list[_Tok]:
        tokens: list[_Tok] = []
        i = 0
        n = len(text)
        while i < n:
            c = text[i]
            if c in " \t\n":
                i += 1
                continue
            if is_digits(c):
                j = i
                while j < n and (text[j].isalnum() or text[j] in "#_@"):
                    j += 1
                tokens.append(_Tok("num", text[i:j], i))
                i = j
                continue
            if c.isalpha() or c == "_":
                j = i
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
                if j < n and text[j] == "[":
                    raise ExpansionError(f"{text[i:j]}: arrays are not supported by this shell", 2)
                tokens.append(_Tok("name", text[i:j], i))
                i = j
                continue
            for op in _OPS:
                if text.startswith(op, i):
                    tokens.append(_Tok("op", op, i))
                    i += len(op)
                    break
            else:
                self.tokens = [*tokens, _Tok("end", None, n)]
                self.i = len(tokens)
                raise self.fail("syntax error: invalid arithmetic operator", i)
        tokens.append(_Tok("end", None, n))
        return tokens

    def peek(self) -> _Tok:
        return self.tokens[self.i]

    def take(self) -> _Tok:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        return tok

    def at_op(self, *ops: str) -> bool:
        tok = self.tokens[self.i]
        return tok.kind == "op" and tok.value in ops

    # -- grammar (evaluating as it parses; ``live`` False skips side effects) -----------
    def run(self) -> int:
        if self.peek().kind == "end":
            return 0
        value = self.comma(True)
        if self.peek().kind != "end":
            raise self.fail("syntax error in expression")
        return value

    def comma(self, live: bool) -> int:
        value = self.assign(live)
        while self.at_op(","):
            self.take()
            value = self.assign(live)
        return value

    def assign(self, live: bool) -> int:
        tok = self.peek()
        nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        if nxt is not None and nxt.kind == "op" and nxt.value in _ASSIGN_OPS:
            if tok.kind != "name":
                raise self.fail("attempted assignment to non-variable", nxt.pos)
            self.take()
            op = self.take().value
            right = self.assign(live)
            if not live:
                return 0
            if op == "=":
                value = right
            else:
                value = self.binary(op[:-1], self.variable(tok.value), right, tok.pos)
            self.env.set(tok.value, str(value))
            return value
        return self.ternary(live)

    def ternary(self, live: bool) -> int:
        cond = self.level(0, live)
        if not self.at_op("?"):
            return cond
        self.take()
        yes = self.comma(live and cond != 0)
        if not self.at_op(":"):
            raise self.fail("`:' expected for conditional expression")
        self.take()
        no = self.assign(live and cond == 0)
        return yes if cond else no

    def level(self, index: int, live: bool) -> int:
        """Binary operators by precedence climbing; ``index`` is the loosest level allowed."""
        left = self.power(live)
        while True:
            tok = self.tokens[self.i]
            if tok.kind != "op":
                return left
            prec = _PRECEDENCE.get(tok.value)
            if prec is None or prec < index:
                return left
            self.i += 1
            op = tok.value
            if op == "&&":
                right = self.level(prec + 1, live and left != 0)
                left = int(left != 0 and right != 0)
            elif op == "||":
                right = self.level(prec + 1, live and left == 0)
                left = int(left != 0 or right != 0)
            else:
                right = self.level(prec + 1, live)
                left = self.binary(op, left, right, self.operand_pos) if live else 0

    def power(self, live: bool) -> int:
        base = self.unary(live)
        if self.at_op("**"):
            self.take()
            exponent = self.power(live)
            return self.binary("**", base, exponent, self.operand_pos) if live else 0
        return base

    def unary(self, live: bool) -> int:
        tok = self.peek()
        if tok.kind == "op":
            if tok.value in ("!", "~", "-", "+"):
                self.take()
                value = self.unary(live)
                if tok.value == "!":
                    return int(value == 0)
                if tok.value == "~":
                    return wrap(~value)
                return wrap(-value) if tok.value == "-" else value
            if tok.value in ("++", "--"):
                self.take()
                name = self.peek()
                if name.kind != "name":
                    raise self.fail("syntax error: operand expected")
                self.take()
                if not live:
                    return 0
                value = wrap(self.variable(name.value) + (1 if tok.value == "++" else -1))
                self.env.set(name.value, str(value))
                return value
        return self.postfix(live)

    def postfix(self, live: bool) -> int:
        tok = self.peek()
        if (
            tok.kind == "name"
            and self.tokens[self.i + 1].kind == "op"
            and self.tokens[self.i + 1].value in ("++", "--")
        ):
            self.take()
            op = self.take().value
            if not live:
                return 0
            value = self.variable(tok.value)
            self.env.set(tok.value, str(wrap(value + (1 if op == "++" else -1))))
            return value
        return self.primary(live)

    def primary(self, live: bool) -> int:
        tok = self.peek()
        if tok.kind == "op" and tok.value == "(":
            self.take()
            value = self.comma(live)
            if not self.at_op(")"):
                raise self.fail("missing `)'")
            self.take()
            return value
        if tok.kind == "num":
            self.take()
            self.operand_pos = tok.pos
            return self.number(tok)
        if tok.kind == "name":
            self.take()
            self.operand_pos = tok.pos
            return self.variable(tok.value) if live else 0
        raise self.fail("syntax error: operand expected")

    # -- values --------------------------------------------------------------------------
    def number(self, tok: _Tok) -> int:
        text: str = tok.value
        base = 10
        digits = text
        if "#" in text:
            base_text, _, digits = text.partition("#")
            if not is_digits(base_text) or not 2 <= int(base_text) <= 64:
                raise self.fail("invalid arithmetic base", tok.pos)
            base = int(base_text)
        elif text[:2] in ("0x", "0X"):
            base, digits = 16, text[2:]
        elif len(text) > 1 and text[0] == "0":
            base, digits = 8, text[1:]
        value = 0
        for ch in digits:
            if is_digits(ch):
                d = ord(ch) - 48
            elif "a" <= ch <= "z":
                d = ord(ch) - 87
            elif "A" <= ch <= "Z":
                d = ord(ch) - 29 if base > 36 else ord(ch) - 55
            elif ch == "@":
                d = 62
            elif ch == "_":
                d = 63
            else:
                d = 99
            if d >= base:
                raise self.fail("value too great for base", tok.pos)
            value = value * base + d
        return wrap(value)

    def variable(self, name: str) -> int:
        raw = self.env.get(name)
        if raw is None or raw.strip() == "":
            return 0
        raw = raw.strip()
        if is_digits(raw.lstrip("-")) and not raw.lstrip("-").startswith("0"):
            return wrap(int(raw))
        return evaluate(raw, self.env, self.depth + 1)

    def binary(self, op: str, a: int, b: int, pos: int) -> int:
        if op == "+":
            return wrap(a + b)
        if op == "-":
            return wrap(a - b)
        if op == "*":
            return wrap(a * b)
        if op in ("/", "%"):
            if b == 0:
                raise self.fail("division by 0", pos)
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return wrap(q) if op == "/" else wrap(a - q * b)
        if op == "**":
            if b < 0:
                raise self.fail("exponent less than 0", pos)
            return wrap(pow(a, b, 1 << 64))
        if op == "<<":
            return wrap(a << (b & 63))
        if op == ">>":
            return a >> (b & 63)
        if op == "&":
            return wrap(a & b)
        if op == "|":
            return wrap(a | b)
        if op == "^":
            return wrap(a ^ b)
        if op == "==":
            return int(a == b)
        if op == "!=":
            return int(a != b)
        if op == "<":
            return int(a < b)
        if op == ">":
            return int(a > b)
        if op == "<=":
            return int(a <= b)
        if op == ">=":
            return int(a >= b)
        raise self.fail("syntax error in expression", pos)  # pragma: no cover


def evaluate(text: str, env: Variables, depth: int = 0) -> int:
    """The value of arithmetic expression ``text`` (raises ExpansionError)."""
    if depth > MAX_DEPTH:
        raise ExpansionError(
            f'{text}: expression recursion level exceeded (error token is "{text}")'
        )
    return _Evaluator(text, env, depth).run()
