"""Tokens of the awk language.

A ``/`` starts a regex literal unless the previous token ends an operand (then it divides);
newlines are tokens because they end statements; backslash-newline continues a line.
"""

from __future__ import annotations

KEYWORDS = {
    "BEGIN",
    "END",
    "function",
    "func",
    "if",
    "else",
    "while",
    "for",
    "do",
    "break",
    "continue",
    "next",
    "nextfile",
    "exit",
    "return",
    "delete",
    "in",
    "getline",
    "print",
    "printf",
}

BUILTINS = {
    "length",
    "substr",
    "index",
    "split",
    "sub",
    "gsub",
    "match",
    "sprintf",
    "tolower",
    "toupper",
    "int",
    "sqrt",
    "exp",
    "log",
    "sin",
    "cos",
    "atan2",
    "rand",
    "srand",
    "system",
    "close",
    "fflush",
    "gensub",
    "systime",
}

#: gawk built-ins this awk does not provide: calling one fails loudly.
UNSUPPORTED_BUILTINS = {
    "strftime",
    "mktime",
    "asort",
    "asorti",
    "patsplit",
    "isarray",
    "typeof",
    "and",
    "or",
    "xor",
    "compl",
    "lshift",
    "rshift",
    "strtonum",
    "bindtextdomain",
    "dcgettext",
    "dcngettext",
}

OPERATORS = [
    "**=",
    "&&",
    "||",
    "==",
    "<=",
    ">=",
    "!=",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "^=",
    ">>",
    "!~",
    "**",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "!",
    ">",
    "<",
    "|",
    "?",
    ":",
    "~",
    "$",
    "=",
]

_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "\\": "\\",
    '"': '"',
    "/": "/",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}


class AwkSyntaxError(Exception):
    """A syntax error at ``line`` (1-based) and column ``col`` of the program text."""

    def __init__(self, message: str, line: int, col: int) -> None:
        self.message = message
        self.line = line
        self.col = col
        super().__init__(message)


class Token:
    __slots__ = ("col", "kind", "line", "value")

    def __init__(self, kind: str, value, line: int, col: int) -> None:
        self.kind = kind  # NUMBER STRING ERE NAME FUNC_NAME BUILTIN KEYWORD NEWLINE OP EOF
        self.value = value
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.value!r})"


def unescape(body: str, warnings: list[str] | None = None) -> str:
    """Process the escapes of an awk string literal (or a ``-v`` value). An unknown escape
    of a regex metacharacter keeps its backslash, so ``"\\."`` still means a literal dot
    when the string is used as a regex; gawk's warning is collected in ``warnings``."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        i += 2
        if nxt in _ESCAPES:
            if nxt == "/" and warnings is not None:
                warnings.append("escape sequence `\\/' treated as plain `/'")
            out.append(_ESCAPES[nxt])
        elif nxt in "01234567":
            j = i - 1
            k = j
            while k < n and k < j + 3 and body[k] in "01234567":
                k += 1
            out.append(chr(int(body[j:k], 8) & 0xFF))
            i = k
        elif nxt == "x" and i < n and body[i] in "0123456789abcdefABCDEF":
            k = i
            while k < n and k < i + 2 and body[k] in "0123456789abcdefABCDEF":
                k += 1
            out.append(chr(int(body[i:k], 16)))
            i = k
        elif nxt == "\n":
            pass
        else:
            if warnings is not None:
                warnings.append(f"escape sequence `\\{nxt}' treated as plain `{nxt}'")
            out.append("\\" + nxt if nxt in ".[]()*+?^$|{}" else nxt)
    return "".join(out)


_OPERAND_END = {"NUMBER", "STRING", "ERE", "NAME", "BUILTIN"}


def tokenize(src: str, warnings: list[str] | None = None) -> list[Token]:
    """The tokens of an awk program (escape warnings go to ``warnings``)."""
    tokens: list[Token] = []
    i, n = 0, len(src)
    line, line_start = 1, 0

    def add(kind: str, value, start: int) -> None:
        tokens.append(Token(kind, value, line, start - line_start))

    while i < n:
        ch = src[i]
        if ch in " \t\r":
            i += 1
            continue
        if ch == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            line += 1
            line_start = i
            continue
        if ch == "\\" and src.startswith("\r\n", i + 1):
            i += 3
            line += 1
            line_start = i
            continue
        if ch == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if ch == "\n":
            add("NEWLINE", "\n", i)
            i += 1
            line += 1
            line_start = i
            continue
        if ch == '"':
            j = i + 1
            buf = []
            while True:
                if j >= n or src[j] == "\n":
                    raise AwkSyntaxError("unterminated string", line, i - line_start)
                c = src[j]
                if c == "\\" and j + 1 < n:
                    buf.append(src[j : j + 2])
                    j += 2
                    continue
                if c == '"':
                    break
                buf.append(c)
                j += 1
            add("STRING", unescape("".join(buf), warnings), i)
            i = j + 1
            continue
        if ch == "/" and not _divides(tokens):
            j = i + 1
            buf = []
            in_bracket = False
            while True:
                if j >= n or src[j] == "\n":
                    raise AwkSyntaxError("unterminated regexp", line, i - line_start)
                c = src[j]
                if c == "\\" and j + 1 < n:
                    if src[j + 1] == "/":
                        buf.append("/")
                    else:
                        buf.append(src[j : j + 2])
                    j += 2
                    continue
                if c == "[" and not in_bracket:
                    in_bracket = True
                    buf.append(c)
                    j += 1
                    if j < n and src[j] == "^":
                        buf.append("^")
                        j += 1
                    if j < n and src[j] == "]":
                        buf.append("]")
                        j += 1
                    continue
                if c == "[" and in_bracket and j + 1 < n and src[j + 1] in ":.=":
                    end = src.find(src[j + 1] + "]", j + 2)
                    if end > 0:
                        buf.append(src[j : end + 2])
                        j = end + 2
                        continue
                if c == "]" and in_bracket:
                    in_bracket = False
                elif c == "/" and not in_bracket:
                    break
                buf.append(c)
                j += 1
            add("ERE", "".join(buf), i)
            i = j + 1
            continue
        if ch.isdigit() or (ch == "." and i + 1 < n and src[i + 1].isdigit()):
            j = i
            if ch == "0" and i + 1 < n and src[i + 1] in "xX" and i + 2 < n and src[i + 2] in "0123456789abcdefABCDEF":
                j = i + 2
                while j < n and src[j] in "0123456789abcdefABCDEF":
                    j += 1
                add("NUMBER", float(int(src[i + 2 : j], 16)), i)
                i = j
                continue
            while j < n and src[j].isdigit():
                j += 1
            if j < n and src[j] == ".":
                j += 1
                while j < n and src[j].isdigit():
                    j += 1
            if j < n and src[j] in "eE":
                k = j + 1
                if k < n and src[k] in "+-":
                    k += 1
                if k < n and src[k].isdigit():
                    while k < n and src[k].isdigit():
                        k += 1
                    j = k
            literal = src[i:j]
            if len(literal) > 1 and literal[0] == "0" and literal.isdigit() and all(c in "01234567" for c in literal):
                add("NUMBER", float(int(literal, 8)), i)
            else:
                add("NUMBER", float(literal), i)
            i = j
            continue
        if ch.isalpha() or ch == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_") and src[j] < "\x80":
                j += 1
            word = src[i:j]
            if word in KEYWORDS:
                add("KEYWORD", "function" if word == "func" else word, i)
            elif word in BUILTINS or word in UNSUPPORTED_BUILTINS:
                add("BUILTIN", word, i)
            elif j < n and src[j] == "(":
                add("FUNC_NAME", word, i)
            else:
                add("NAME", word, i)
            i = j
            continue
        for op in OPERATORS:
            if src.startswith(op, i):
                add("OP", op, i)
                i += len(op)
                break
        else:
            raise AwkSyntaxError(f"invalid char '{ch}' in expression", line, i - line_start)
    add("NEWLINE", "\n", n)
    add("EOF", None, n)
    return tokens


def _divides(tokens: list[Token]) -> bool:
    if not tokens:
        return False
    last = tokens[-1]
    if last.kind in _OPERAND_END:
        return True
    if last.kind == "KEYWORD" and last.value == "getline":
        return True
    return last.kind == "OP" and last.value in (")", "]", "$", "++", "--")
