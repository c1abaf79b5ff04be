"""Brace expansion: ``a{b,c}d`` and ``{1..10..2}``, ``{a..e}``, before any other expansion.

Only unquoted braces count: a word's literal parts are looked at character by character
while quoted parts and expansions stay whole, so ``"{a,b}"`` and ``${x}`` are left alone.
"""

from __future__ import annotations

import itertools
import re

from cwgym.machine.shell import ast
from cwgym.machine.shell.errors import LimitExceeded

MAX_WORDS = 1_000_000
_NUM_SEQ = re.compile(r"([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?")
_CHAR_SEQ = re.compile(r"([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?")


def needs_expansion(word: ast.Word) -> bool:
    texts = [p.text for p in word.parts if isinstance(p, ast.Lit)]
    return any("{" in t for t in texts) and any("}" in t for t in texts)


def expand(word: ast.Word) -> list[ast.Word]:
    """The words ``word`` brace-expands to (itself when it has no valid brace)."""
    if not needs_expansion(word):
        return [word]
    items: list = []
    for part in word.parts:
        if isinstance(part, ast.Lit):
            items.extend(part.text)
        else:
            items.append(part)
    results = _expand(items, [0])
    return [ast.Word(_rebuild(r), word.raw) for r in results]


def _rebuild(items: list) -> list:
    parts: list = []
    text: list[str] = []
    for item in items:
        if isinstance(item, str):
            text.append(item)
            continue
        if text:
            parts.append(ast.Lit("".join(text)))
            text = []
        parts.append(item)
    if text:
        parts.append(ast.Lit("".join(text)))
    return parts


def _count(counter: list[int], n: int) -> None:
    counter[0] += n
    if counter[0] > MAX_WORDS:
        raise LimitExceeded("brace expansion produces too many words; command aborted")


def _expand(items: list, counter: list[int]) -> list[list]:
    n = len(items)
    start = 0
    while start < n:
        try:
            i = next(k for k in range(start, n) if items[k] == "{")
        except StopIteration:
            break
        depth = 0
        commas: list[int] = []
        j = i + 1
        while j < n:
            c = items[j]
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                commas.append(j)
            j += 1
        if j >= n:
            start = i + 1
            continue
        prefix = items[:i]
        suffix_variants = _expand(items[j + 1 :], counter)
        alternatives: list[list] | None = None
        if commas:
            bounds = [i, *commas, j]
            alternatives = []
            for a, b in itertools.pairwise(bounds):
                alternatives.extend(_expand(items[a + 1 : b], counter))
        else:
            inner = items[i + 1 : j]
            if all(isinstance(c, str) for c in inner):
                sequence = _sequence("".join(inner), counter)
                if sequence is not None:
                    alternatives = [list(s) for s in sequence]
        if alternatives is None:
            start = i + 1
            continue
        _count(counter, len(alternatives) * len(suffix_variants))
        return [prefix + alt + suf for alt in alternatives for suf in suffix_variants]
    return [items]


def _sequence(text: str, counter: list[int]) -> list[str] | None:
    match = _NUM_SEQ.fullmatch(text)
    if match:
        first, last = int(match.group(1)), int(match.group(2))
        step = abs(int(match.group(3))) if match.group(3) else 1
        step = step or 1
        count = abs(last - first) // step + 1
        _count(counter, count)
        values = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)
        width = 0
        for token in (match.group(1), match.group(2)):
            digits = token.lstrip("+-")
            if len(digits) > 1 and digits.startswith("0"):
                width = max(width, len(token))
        if width:
            return [f"{v:0{width}d}" if v >= 0 else "-" + f"{-v:0{width - 1}d}" for v in values]
        return [str(v) for v in values]
    match = _CHAR_SEQ.fullmatch(text)
    if match:
        first, last = ord(match.group(1)), ord(match.group(2))
        step = abs(int(match.group(3))) if match.group(3) else 1
        step = step or 1
        values = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)
        return [chr(v) for v in values]
    return None
