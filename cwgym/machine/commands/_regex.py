"""POSIX basic and extended regular expressions (GNU flavour) translated to Python ``re``.

grep, sed and awk speak POSIX regexes; Python's ``re`` differs in what is special (BRE's
``\\(``, ``\\{``, literal ``+``), in anchors (``$`` must not match before a final newline),
in bracket expressions (``[[:alpha:]]``, backslash literal inside brackets) and in stacked
quantifiers (``a**``). The translator parses the POSIX syntax and writes an equivalent
Python pattern. One known difference remains: POSIX picks the leftmost-*longest* match
among alternatives, Python the first alternative that matches.
"""

from __future__ import annotations

import re

from cwgym.machine.commands._engine import Regex

FLAGS = re.ASCII | re.DOTALL

CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "0-9a-zA-Z",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "!-/:-@\\[-`{-~",
    "print": " -~",
    "graph": "!-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "xdigit": "0-9A-Fa-f",
}


class RegexError(Exception):
    """A malformed regex; ``message`` is GNU's wording (``Unmatched ( or \\(``...)."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _lit(ch: str) -> str:
    return re.escape(ch) if not ch.isalnum() or ch > "\x7f" else ch


def _class_char(ch: str) -> str:
    if ch.isalnum() and ch < "\x80":
        return ch
    if ch in "\n\t\r\f\v":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f", "\v": "\\v"}[ch]
    return f"\\x{ord(ch):02x}" if ord(ch) < 256 else re.escape(ch)


_AWK_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "f": "\f",
    "v": "\v",
    "a": "\a",
    "b": "\b",
    "/": "/",
    '"': '"',
}
_SED_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


class _Translator:
    def __init__(self, pattern: str, extended: bool, dialect: str, offset: int, multiline: bool):
        self.p = pattern
        self.n = len(pattern)
        self.i = 0
        self.ere = extended
        self.dialect = dialect
        self.offset = offset
        self.groups = 0
        self.closed: set[int] = set()
        self.multiline = multiline
        self.warnings: list[str] = []

    # an atom list entry: [text, kind] with kind "atom" | "quant" | "anchor"
    def run(self) -> str:
        stack: list[tuple[list[str], list[list[str]], int]] = []
        branches: list[str] = []
        atoms: list[list[str]] = []
        p, n = self.p, self.n
        while self.i < n:
            ch = p[self.i]
            self.i += 1
            if ch == "\\":
                if self.i >= n:
                    raise RegexError("Trailing backslash")
                nxt = p[self.i]
                self.i += 1
                if not self.ere and nxt == "(":
                    stack.append((branches, atoms, self._open_group()))
                    branches, atoms = [], []
                elif not self.ere and nxt == ")":
                    if not stack:
                        raise RegexError("Unmatched ) or \\)")
                    atoms = self._close_group(stack, branches, atoms)
                    branches = stack.pop()[0]
                elif not self.ere and nxt == "|":
                    branches.append(self._join(atoms))
                    atoms = []
                elif not self.ere and nxt == "{":
                    self._interval(atoms, "\\}")
                elif not self.ere and nxt in "+?":
                    if atoms and atoms[-1][1] != "anchor":
                        self._quantify(atoms, nxt)
                    else:
                        atoms.append([_lit(nxt), "atom"])
                else:
                    atoms.append([self._escape(nxt), "atom"])
                continue
            if ch == "[":
                atoms.append([self._bracket(), "atom"])
            elif ch == ".":
                atoms.append([".", "atom"])
            elif ch == "*":
                if atoms and atoms[-1][1] != "anchor":
                    self._quantify(atoms, "*")
                else:
                    if self.ere and self.dialect == "grep":
                        self.warnings.append("* at start of expression")
                    atoms.append(["\\*", "atom"])
            elif ch == "^":
                if self.ere or not atoms:
                    atoms.append(["(?m:^)" if self.multiline else "^", "anchor"])
                else:
                    atoms.append(["\\^", "atom"])
            elif ch == "$":
                if self.ere or self._bre_end():
                    atoms.append(["(?m:$)" if self.multiline else "(?!\\n)\\Z", "anchor"])
                else:
                    atoms.append(["\\$", "atom"])
            elif self.ere and ch in "+?":
                if atoms and atoms[-1][1] != "anchor":
                    self._quantify(atoms, ch)
                else:
                    atoms.append([_lit(ch), "atom"])
            elif self.ere and ch == "{":
                start = self.i
                if atoms and self._valid_interval():
                    self._interval(atoms, "}")
                else:
                    self.i = start
                    atoms.append(["\\{", "atom"])
            elif self.ere and ch == "(":
                stack.append((branches, atoms, self._open_group()))
                branches, atoms = [], []
            elif self.ere and ch == ")":
                if not stack:
                    atoms.append(["\\)", "atom"])
                    continue
                atoms = self._close_group(stack, branches, atoms)
                branches = stack.pop()[0]
            elif self.ere and ch == "|":
                branches.append(self._join(atoms))
                atoms = []
            else:
                atoms.append([_lit(ch), "atom"])
        if stack:
            raise RegexError("Unmatched ( or \\(")
        branches.append(self._join(atoms))
        return "|".join(branches)

    def _join(self, atoms: list[list[str]]) -> str:
        return "".join(a[0] for a in atoms)

    def _open_group(self) -> int:
        self.groups += 1
        return self.groups

    def _close_group(self, stack, branches, atoms) -> list[list[str]]:
        _outer_branches, outer_atoms, number = stack[-1]
        body = "|".join([*branches, self._join(atoms)])
        self.closed.add(number)
        outer_atoms.append(["(" + body + ")", "atom"])
        return outer_atoms

    def _bre_end(self) -> bool:
        rest = self.p[self.i :]
        return rest == "" or rest.startswith("\\)") or rest.startswith("\\|")

    def _quantify(self, atoms: list[list[str]], q: str) -> None:
        last = atoms[-1]
        if last[1] == "quant" or (len(last[0]) > 1 and not _single(last[0])):
            last[0] = "(?:" + last[0] + ")"
        last[0] += q
        last[1] = "quant"

    def _valid_interval(self) -> bool:
        m = re.match(r"(\d*)(,?)(\d*)\}", self.p[self.i :])
        return bool(m and (m.group(1) or m.group(3)))

    def _interval(self, atoms: list[list[str]], close: str) -> None:
        rest = self.p[self.i :]
        m = re.match(r"(\d*)(,?)(\d*)" + re.escape(close), rest)
        if not m:
            if close == "\\}":
                if re.match(r"[\d,]*$", rest):
                    raise RegexError("Unmatched \\{")
                raise RegexError("Invalid content of \\{\\}")
            raise RegexError("Invalid content of \\{\\}")
        lo, comma, hi = m.group(1), m.group(2), m.group(3)
        if not lo and not comma:
            raise RegexError("Invalid content of \\{\\}")
        if lo and hi and int(hi) < int(lo):
            raise RegexError("Invalid content of \\{\\}")
        if max(int(lo or 0), int(hi or 0)) > 32767:
            raise RegexError("Regular expression too big")
        self.i += m.end()
        if not atoms or atoms[-1][1] == "anchor":
            if self.ere:
                atoms.append([re.escape("{" + m.group(0)), "atom"])
                return
            atoms.append([re.escape("{" + m.group(0).replace("\\", "")), "atom"])
            return
        q = "{" + (lo or "0") + (comma + hi if comma else "") + "}"
        self._quantify(atoms, q)

    def _escape(self, ch: str) -> str:
        if ch in "123456789":
            k = int(ch)
            if k not in self.closed:
                raise RegexError("Invalid back reference")
            return f"(?:\\{k + self.offset})"
        if ch == "<":
            return r"\b(?=\w)"
        if ch == ">":
            return r"\b(?<=\w)"
        if ch == "b" and self.dialect != "awk":
            return r"\b"
        if ch == "y" and self.dialect == "awk":
            return r"\b"
        if ch in "BwWsS":
            return "\\" + ch
        if ch == "`":
            return r"\A"
        if ch == "'":
            return r"\Z"
        if self.dialect == "awk" and ch in _AWK_ESCAPES:
            return _lit(_AWK_ESCAPES[ch])
        if self.dialect == "sed" and ch in _SED_ESCAPES:
            return _lit(_SED_ESCAPES[ch])
        if self.dialect == "sed" and ch in "xodc":
            value, used = numeric_escape(ch, self.p, self.i)
            if value is not None:
                self.i += used
                return _lit(value)
        if self.dialect in ("sed", "awk") and ch in "01234567" and self.dialect == "awk":
            j = self.i - 1
            k = j
            while k < self.n and k < j + 3 and self.p[k] in "01234567":
                k += 1
            self.i = k
            return _lit(chr(int(self.p[j:k], 8)))
        return _lit(ch)

    def _bracket(self) -> str:
        p, n = self.p, self.n
        i = self.i
        negate = False
        if i < n and p[i] == "^":
            negate = True
            i += 1
        parts: list[str] = []
        first = True
        while True:
            if i >= n:
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            ch = p[i]
            if ch == "]" and not first:
                i += 1
                break
            first = False
            if ch == "[" and i + 1 < n and p[i + 1] in ":=.":
                kind = p[i + 1]
                end = p.find(kind + "]", i + 2)
                if end < 0:
                    raise RegexError("Unmatched [, [^, [:, [., or [=")
                name = p[i + 2 : end]
                i = end + 2
                if kind == ":":
                    if name not in CLASSES:
                        raise RegexError("Invalid character class name")
                    parts.append(CLASSES[name])
                    continue
                if len(name) != 1:
                    raise RegexError("Invalid collation character")
                lo = name
            elif ch == "\\" and self.dialect == "awk" and i + 1 < n:
                nxt = p[i + 1]
                lo = _AWK_ESCAPES.get(nxt, nxt)
                i += 2
            else:
                lo = ch
                i += 1
            if i + 1 < n and p[i] == "-" and p[i + 1] != "]":
                hi_ch = p[i + 1]
                i += 2
                if hi_ch == "[" and i < n and p[i] in ".=":
                    end = p.find(p[i] + "]", i + 1)
                    if end < 0:
                        raise RegexError("Unmatched [, [^, [:, [., or [=")
                    hi_ch = p[i + 1 : end]
                    i = end + 2
                elif hi_ch == "\\" and self.dialect == "awk" and i < n:
                    hi_ch = _AWK_ESCAPES.get(p[i], p[i])
                    i += 1
                if len(hi_ch) != 1 or hi_ch < lo:
                    raise RegexError("Invalid range end")
                parts.append(_class_char(lo) + "-" + _class_char(hi_ch))
            else:
                parts.append(_class_char(lo))
        self.i = i
        body = "".join(parts)
        return "[" + ("^" if negate else "") + body + "]"


_NO_EXTEND = ("\\Z", "\\b", "\\B", "(?=", "(?!", "(?<", "(?m")


def extendable(regex: re.Pattern[str]) -> bool:
    """Whether POSIX's longest-match rule can differ from Python's first-alternative rule,
    and checking shorter windows (``fullmatch`` with an end position) is sound: the pattern
    has alternatives but no end anchors or lookarounds that a window would fool."""
    cached = _EXTENDABLE.get(regex)
    if cached is None:
        source = regex.pattern
        cached = "|" in source and not any(marker in source for marker in _NO_EXTEND)
        _EXTENDABLE[regex] = cached
    return cached


_EXTENDABLE: dict[re.Pattern[str], bool] = {}
#: How far past Python's match a longer alternative is looked for, and how many window
#: checks one scan may spend: the rule is exact for matches within reach, and a
#: pathological input cannot make it quadratic.
_REACH = 256
_BUDGET = 200_000


def longest(regex: re.Pattern[str], value: str, m: re.Match[str], budget: list[int] | None = None) -> re.Match[str]:
    """The POSIX (leftmost-longest) match starting where ``m`` starts."""
    if not extendable(regex):
        return m
    budget = budget if budget is not None else [_BUDGET]
    start = m.start()
    limit = min(len(value), m.end() + _REACH)
    for end in range(limit, m.end(), -1):
        if budget[0] <= 0:
            return m
        budget[0] -= 1
        longer = regex.fullmatch(value, start, end)
        if longer is not None:
            return longer
    return m


def posix_search(regex: re.Pattern[str], value: str, pos: int = 0) -> re.Match[str] | None:
    """``regex.search`` with POSIX's leftmost-longest choice among alternatives."""
    m = regex.search(value, pos)
    return longest(regex, value, m) if m is not None else None


def posix_matches(regex: re.Pattern[str], value: str):
    """Successive non-overlapping POSIX matches: leftmost-longest, and without the empty
    match Python allows right after a non-empty one (``s/l*/-/g`` on ``hello`` gives
    ``-h-e-o-`` in sed and awk)."""
    if not extendable(regex):
        last_end = -1
        for m in regex.finditer(value):
            if m.start() == m.end() == last_end:
                continue
            last_end = m.end()
            yield m
        return
    pos = 0
    last_end = -1
    n = len(value)
    budget = [_BUDGET]
    while pos <= n:
        m = regex.search(value, pos)
        if m is None:
            return
        m = longest(regex, value, m, budget)
        if m.start() == m.end():
            if m.start() == last_end:
                pos = m.start() + 1
                continue
            yield m
            last_end = m.end()
            pos = m.end() + 1
            continue
        yield m
        last_end = m.end()
        pos = m.end()


def numeric_escape(kind: str, text: str, pos: int) -> tuple[str | None, int]:
    """GNU sed's ``\\xHH``, ``\\oNNN``, ``\\dNNN`` and ``\\cX`` escapes, read from
    ``text[pos:]`` (just after the letter): (char or None, chars used)."""
    if kind == "c":
        if pos < len(text):
            return chr(ord(text[pos].upper()) ^ 0x40), 1
        return None, 0
    digits, limit, base = {"x": ("0123456789abcdefABCDEF", 2, 16), "o": ("01234567", 3, 8), "d": ("0123456789", 3, 10)}[kind]
    end = pos
    while end < len(text) and end < pos + limit and text[end] in digits:
        end += 1
    if end == pos:
        return None, 0
    return chr(int(text[pos:end], base) & 0xFF), end - pos


def _single(text: str) -> bool:
    """Whether ``text`` is one regex atom (a char, an escape, a class or a group)."""
    if text.startswith("\\") and len(text) == 2:
        return True
    if text.startswith("\\x") and len(text) == 4:
        return True
    if text.startswith("[") and text.endswith("]") and _closing_bracket(text) == len(text) - 1:
        return True
    if text.startswith("(") and text.endswith(")") and _closing_paren(text) == len(text) - 1:
        return True
    return len(text) == 1


def _closing_bracket(text: str) -> int:
    i = 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "]":
            return i
        i += 1
    return -1


def _closing_paren(text: str) -> int:
    depth = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = _closing_bracket(text[i:])
            i += j + 1 if j > 0 else 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def translate(
    pattern: str,
    *,
    extended: bool,
    dialect: str = "grep",
    offset: int = 0,
    multiline: bool = False,
) -> tuple[str, int, list[str]]:
    """A POSIX regex as a Python pattern: (pattern, capturing groups, warnings).

    ``dialect`` is ``grep``, ``sed`` (``\\n``, ``\\t`` escapes) or ``awk`` (C escapes,
    ``\\y`` word boundary, backslash escapes inside brackets). ``offset`` renumbers
    back-references when several patterns are joined into one alternation.
    """
    if dialect == "grep" and re.fullmatch(r"\[:[a-z]+:\]", pattern.strip("^$")):
        raise RegexError(
            f"character class syntax is [[:space:]], not {pattern.strip('^$')}"
        )
    tr = _Translator(pattern, extended, dialect, offset, multiline)
    body = tr.run()
    return body, tr.groups, tr.warnings


def compile_posix(
    pattern: str,
    *,
    extended: bool,
    dialect: str = "grep",
    icase: bool = False,
    multiline: bool = False,
) -> Regex:
    """Translate and compile one POSIX regex. Raises :class:`RegexError`."""
    body, _, _ = translate(pattern, extended=extended, dialect=dialect, multiline=multiline)
    try:
        return Regex(body, FLAGS | (re.IGNORECASE if icase else 0))
    except re.error as exc:
        raise RegexError(f"Invalid regular expression ({exc})") from None
    except RecursionError:
        raise RegexError("Regular expression too big") from None
