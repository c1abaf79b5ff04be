"""Glob patterns (``*``, ``?``, ``[a-f]``, ``[!x]``, ``[[:digit:]]``) as regular expressions.

A pattern string marks characters that came from quotes with a backslash, so ``"*"``
stays literal while an unquoted ``*`` matches anything. Character classes use the C
locale. Used by pathname expansion, ``case``, ``[[ == ]]`` and ``${x#pattern}``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from cwgym.machine.commands._engine import Regex, cached_regex
from cwgym.machine.shell.errors import LimitExceeded

CLASSES = {
    "alpha": "A-Za-z",
    "digit": "0-9",
    "alnum": "A-Za-z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "print": " -~",
    "graph": "!-~",
    "cntrl": "\\x00-\\x1f\\x7f",
    "xdigit": "0-9A-Fa-f",
    "word": "A-Za-z0-9_",
}
GLOB_CHARS = frozenset("*?[")


def escape(text: str) -> str:
    """``text`` as a pattern matching only itself."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def unescape(pattern: str) -> str:
    """Quote removal: the literal text a pattern string stands for."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            i += 1
        out.append(pattern[i])
        i += 1
    return "".join(out)


def has_glob(pattern: str) -> bool:
    """Whether ``pattern`` has an unescaped ``*``, ``?`` or ``[``."""
    if "*" not in pattern and "?" not in pattern and "[" not in pattern:
        return False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?":
            return True
        if c == "[" and "]" in pattern[i + 2 :]:
            return True
        i += 1
    return False


def _bracket(pattern: str, i: int) -> tuple[str, int] | None:
    """Translate a bracket expression starting after ``[``; None if it never closes."""
    n = len(pattern)
    j = i
    negate = False
    if j < n and pattern[j] in "!^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while j < n:
        c = pattern[j]
        if c == "]" and not first:
            body = "".join(items)
            if not body:
                return None
            return ("[^" if negate else "[") + body + "]", j + 1
        first = False
        if c == "[" and pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end > 0 and pattern[j + 2 : end] in CLASSES:
                items.append(CLASSES[pattern[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\" and j + 1 < n:
            j += 1
            c = pattern[j]
        if j + 2 < n and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            hi = pattern[j + 2]
            k = j + 3
            if hi == "\\" and k < n:
                hi = pattern[k]
                k += 1
            if ord(hi) >= ord(c):
                items.append(re.escape(c) + "-" + re.escape(hi))
            j = k
            continue
        items.append(re.escape(c))
        j += 1
    return None


@lru_cache(maxsize=2048)
def compile_pattern(pattern: str) -> Regex:
    """The regular expression matching exactly what ``pattern`` matches."""
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 < n:
                out.append(re.escape(pattern[i + 1]))
                i += 2
            else:
                out.append(re.escape("\\"))
                i += 1
            continue
        if c == "*":
            while i < n and pattern[i] == "*":
                i += 1
            out.append(".*")
            continue
        if c == "?":
            out.append(".")
            i += 1
            continue
        if c == "[":
            translated = _bracket(pattern, i + 1)
            if translated is not None:
                out.append(translated[0])
                i = translated[1]
                continue
        out.append(re.escape(c))
        i += 1
    return cached_regex("".join(out), re.DOTALL)


#: Characters one ``${x#p}``-style operation may hand the matcher in all, over every window it
#: tries: each try is linear, but a long value tried at every length is quadratic.
PATTERN_WORK = 20_000_000


class _Meter:
    __slots__ = ("left", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.left = PATTERN_WORK

    def spend(self, size: int) -> None:
        self.left -= size + 1
        if self.left < 0:
            raise LimitExceeded(
                f"pattern too expensive: matching '{self.pattern[:40]}' against every part of a "
                f"long value exceeds {PATTERN_WORK:,} characters of work; command aborted"
            )


def match(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).fullmatch(text) is not None


def strip_prefix(text: str, pattern: str, longest: bool) -> str:
    """``${x#p}`` / ``${x##p}``."""
    if not has_glob(pattern):
        literal = unescape(pattern)
        return text[len(literal) :] if text.startswith(literal) else text
    regex = compile_pattern(pattern)
    if regex.match(text) is None:
        return text  # no prefix matches at all: one linear search says so
    lengths = range(len(text), -1, -1) if longest else range(len(text) + 1)
    meter = _Meter(pattern)
    for k in lengths:
        meter.spend(k)
        if regex.fullmatch(text, 0, k):
            return text[k:]
    return text


def strip_suffix(text: str, pattern: str, longest: bool) -> str:
    """``${x%p}`` / ``${x%%p}``."""
    if not has_glob(pattern):
        literal = unescape(pattern)
        return text[: len(text) - len(literal)] if literal and text.endswith(literal) else text
    regex = compile_pattern(pattern)
    if cached_regex(regex.pattern + "\\Z", re.DOTALL).search(text) is None:
        return text  # no suffix matches at all
    starts = range(len(text) + 1) if longest else range(len(text), -1, -1)
    meter = _Meter(pattern)
    for k in starts:
        meter.spend(len(text) - k)
        if regex.fullmatch(text, k):
            return text[:k]
    return text


def replace(text: str, pattern: str, repl: str, mode: str) -> str:
    """``${x/p/r}`` (mode ``/``), ``${x//p/r}`` (``//``), anchored ``/#`` and ``/%``."""
    regex = compile_pattern(pattern)
    meter = _Meter(pattern)
    if mode == "/#":
        for k in range(len(text), -1, -1):
            meter.spend(k)
            if regex.fullmatch(text, 0, k):
                return repl + text[k:] if (k or pattern == "") else text
        return text
    if mode == "/%":
        for k in range(len(text) + 1):
            meter.spend(len(text) - k)
            if regex.fullmatch(text, k):
                return text[:k] + repl if (k < len(text) or pattern == "") else text
        return text
    if pattern == "":
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        meter.spend(n - i)
        found = regex.match(text, i)
        if found is None or found.end() == i:
            out.append(text[i])
            i += 1
            continue
        out.append(repl)
        i = found.end()
        if mode != "//":
            break
    out.append(text[i:])
    return "".join(out)
