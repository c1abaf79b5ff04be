"""Regular-expression matching whose work is bounded, whatever the pattern and the input.

Python's ``re`` backtracks: ``(a+)+$`` against thirty ``a`` and a ``!`` does not return, and
even ``a*b`` is quadratic in the line (a 100 kB line takes seconds). Every regex and glob
of the simulated tools (grep, sed, awk, nl, find, ``[[ =~ ]]``, ``case``, ``[[ == ]]``,
``${x#pattern}``...) is therefore compiled into a :class:`Regex`, which picks its engine
per call from a static bound on the backtracking work:

* **Python's** ``re`` when the worst case ``len(subject) ** power`` stays within
  :data:`BACKTRACK_STEPS`, where ``power`` is one more than the number of repetitions in
  the pattern (the classic bound for a backtracking search) -- short lines, and any line
  for a pattern without repetition (``power`` 1: linear in ``re`` too, and ``re``'s
  per-match cost is a tenth of the RE2 wrapper's);
* otherwise **RE2** (``google-re2``), an automaton engine whose time is linear in the
  subject -- for every pattern RE2 can express;
* the rest (back-references, the word anchors ``\\<`` ``\\>`` and ``grep -w``, which need
  look-around) has no linear engine: past the bound the call raises
  :class:`RegexTooExpensive`, a :class:`~cwgym.machine.shell.errors.LimitExceeded` that
  aborts the line with a message, never a hang. A pattern with nested repetition
  (``(a+)+``) has no polynomial bound at all and always takes RE2 or that refusal.

The choice depends only on the pattern and the subject's length, so a run is as
deterministic as before.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import re2

from cwgym.machine.shell.errors import LimitExceeded

__all__ = ["BACKTRACK_STEPS", "Regex", "RegexTooExpensive", "cached_regex"]

#: The most steps a backtracking match may be expected to take (``len ** power``).
BACKTRACK_STEPS = 2_000_000
#: The limit of a pattern whose backtracking search is already linear: any subject.
_LINEAR = 1 << 62

_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_RE2_OPTIONS.max_mem = 64 << 20


class RegexTooExpensive(LimitExceeded):
    """A match that only a backtracking engine can run would exceed its step bound."""


def _scan(body: str) -> tuple[int | None, bool, str]:
    """``(power, re2_ok, re2_body)`` of a Python pattern.

    ``power`` is 1 + the number of quantifiers (``None`` when a quantified group holds a
    quantifier or an alternative: exponential); ``re2_ok`` is false for look-around and
    back-references; ``re2_body`` spells ``\\Z`` as RE2's ``\\z``.
    """
    quantifiers = 0
    nested = False
    re2_ok = True
    out: list[str] = []
    # per open group: [quantifiers inside, has alternation]
    groups: list[list] = []
    last_group: list | None = None  # the group that just closed, if the previous atom was one
    i, n = 0, len(body)
    in_class = False
    while i < n:
        c = body[i]
        if not in_class and body.startswith("(?!\\n)\\Z", i):  # POSIX $: the end, which RE2 spells \z
            out.append("\\z")
            i += 8
            last_group = None
            continue
        if c == "\\" and i + 1 < n:
            nxt = body[i + 1]
            if not in_class and nxt.isdigit() and nxt != "0":
                re2_ok = False
            out.append("\\z" if (nxt == "Z" and not in_class) else body[i : i + 2])
            i += 2
            last_group = None
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and body[i] == "^":
                out.append("^")
                i += 1
            if i < n and body[i] == "]":
                out.append("]")
                i += 1
            last_group = None
            continue
        if c == "(":
            if body.startswith(("(?=", "(?!", "(?<=", "(?<!", "(?P="), i):
                re2_ok = False
            end = i + 1
            if body.startswith("(?", i):  # the group's kind or inline flags are no quantifiers
                prefix = re.match(r"\(\?(?:[:=!]|<[=!]|P<\w+>|P=\w+|[aiLmsux-]+:?)", body[i:])
                end = i + (prefix.end() if prefix else 2)
            groups.append([0, False])
            out.append(body[i:end])
            i = end
            last_group = None
            continue
        if c == ")":
            closed = groups.pop() if groups else [0, False]
            if groups:
                groups[-1][0] += closed[0]
                groups[-1][1] = groups[-1][1] or closed[1]
            last_group = closed
            out.append(c)
            i += 1
            continue
        if c == "|":
            if groups:
                groups[-1][1] = True
            out.append(c)
            i += 1
            last_group = None
            continue
        if c in "*+?" or (c == "{" and re.match(r"\{\d*,?\d*\}", body[i:])):
            end = body.index("}", i) + 1 if c == "{" else i + 1
            if end < n and body[end] == "?":  # a lazy quantifier is one quantifier
                end += 1
            quantifiers += 1
            if groups:
                groups[-1][0] += 1
            if last_group is not None and (last_group[0] or last_group[1]):
                nested = True
            out.append(body[i:end])
            i = end
            last_group = None
            continue
        out.append(c)
        i += 1
        last_group = None
    return (None if nested else quantifiers + 1), re2_ok, "".join(out)


def _re2_flags(flags: int) -> str:
    inline = ""
    if flags & re.IGNORECASE:
        inline += "i"
    if flags & re.MULTILINE:
        inline += "m"
    if flags & re.DOTALL:
        inline += "s"
    return f"(?{inline})" if inline else ""


class Regex:
    """A compiled pattern with ``re.Pattern``'s matching methods and bounded work.

    Construction raises ``re.error`` as ``re.compile`` does; a call whose only engine would
    exceed its bound raises :class:`RegexTooExpensive`. Matches are ``re`` or RE2 match
    objects (``group``, ``groups``, ``span``, ``start``, ``end``).
    """

    __slots__ = ("_py", "_re2", "flags", "groups", "limit", "min_width", "pattern", "power")

    def __init__(self, body: str, flags: int = 0) -> None:
        self._py = re.compile(body, flags)
        self.pattern = body
        self.flags = flags
        self.groups = self._py.groups
        #: the fewest characters a match spans; 0 when the pattern can match empty
        self.min_width = _min_width(body, flags)
        self.power, re2_ok, re2_body = _scan(body)
        #: the longest subject the backtracking engine may take (len ** power <= the bound)
        self.limit = -1 if self.power is None else _LINEAR if self.power <= 1 else _root(BACKTRACK_STEPS, self.power)
        self._re2: Any = None
        if re2_ok:
            try:
                self._re2 = re2.compile(_re2_flags(flags) + re2_body, _RE2_OPTIONS)
            except re2.error:
                self._re2 = None  # a construct RE2 lacks: the step bound applies

    def _engine(self, size: int, text: str) -> Any:
        if size <= self.limit:
            return self._py
        if self._re2 is not None and (text.isascii() or _encodable(text)):
            return self._re2
        raise RegexTooExpensive(
            f"regular expression too expensive: matching /{_shown(self.pattern)}/ against "
            f"{size} characters would exceed {BACKTRACK_STEPS:,} backtracking steps "
            "(back-references, \\< \\> and -w have no linear-time engine); command aborted"
        )

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        end = len(text) if endpos is None or endpos > len(text) else endpos
        if end - pos <= self.limit:
            return self._py.search(text, pos, end)
        return self._engine(max(0, end - pos), text).search(text, pos, end)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        end = len(text) if endpos is None or endpos > len(text) else endpos
        if end - pos <= self.limit:
            return self._py.match(text, pos, end)
        return self._engine(max(0, end - pos), text).match(text, pos, end)

    def fullmatch(self, text: str, pos: int = 0, endpos: int | None = None) -> Any:
        end = len(text) if endpos is None or endpos > len(text) else endpos
        if end - pos <= self.limit:
            return self._py.fullmatch(text, pos, end)
        return self._engine(max(0, end - pos), text).fullmatch(text, pos, end)

    def finditer(self, text: str) -> Any:
        engine = self._engine(len(text), text)
        if engine is self._py:
            return engine.finditer(text)
        return _distinct(engine.finditer(text))

    def findall(self, text: str) -> list:
        return self._engine(len(text), text).findall(text)

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        engine = self._engine(len(text), text)
        if engine is self._py:
            return engine.split(text, maxsplit)
        out: list[str] = []
        last = 0
        for count, m in enumerate(_distinct(engine.finditer(text)), 1):
            out += [text[last : m.start()], *m.groups()]
            last = m.end()
            if count == maxsplit:
                break
        return [*out, text[last:]]

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        return self.subn(repl, text, count)[0]

    def subn(self, repl: Any, text: str, count: int = 0) -> tuple[str, int]:
        engine = self._engine(len(text), text)
        if engine is self._py:
            return engine.subn(repl, text, count)
        out: list[str] = []
        last = done = 0
        for done, m in enumerate(_distinct(engine.finditer(text)), 1):
            out += [text[last : m.start()], repl(m) if callable(repl) else m.expand(repl)]
            last = m.end()
            if done == count:
                break
        return "".join([*out, text[last:]]), done

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def _distinct(matches: Any) -> Any:
    """RE2's matches without the repeated empty match it can report at the end (``re`` never
    yields one span twice)."""
    last = None
    for m in matches:
        span = m.span()
        if span != last:
            yield m
        last = span


def _min_width(body: str, flags: int) -> int:
    """The shortest match ``body`` allows, from ``re``'s own parser (0 if it cannot say)."""
    try:
        from re import _parser  # the parser behind re.compile; its getwidth() is exact

        return _parser.parse(body, flags).getwidth()[0]
    except Exception:  # an internal API: without it, assume an empty match
        return 0


def _root(bound: int, power: int) -> int:
    """The largest ``n`` with ``n ** power <= bound``."""
    n = round(bound ** (1 / power))
    while n**power > bound:
        n -= 1
    while (n + 1) ** power <= bound:
        n += 1
    return n


def _encodable(text: str) -> bool:
    """Whether RE2 can read ``text`` (it takes UTF-8: no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(pattern: str) -> str:
    return pattern if len(pattern) <= 60 else pattern[:57] + "..."


@lru_cache(maxsize=1024)
def cached_regex(body: str, flags: int = 0) -> Regex:
    """A :class:`Regex`, compiled once per ``(body, flags)`` (patterns are immutable)."""
    return Regex(body, flags)
