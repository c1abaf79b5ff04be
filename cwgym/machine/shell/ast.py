"""The syntax tree of the POSIX shell language: words and their parts, commands, lists.

Plain slotted classes, built by :mod:`.parser` and walked by :mod:`.interp`. A tree never
changes after parsing, so parsed trees can be cached by their source text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# -- word parts ------------------------------------------------------------------------


@dataclass(slots=True)
class Lit:
    """Unquoted literal text: subject to globbing, never to field splitting."""

    text: str


@dataclass(slots=True)
class Quoted:
    """Literal text from single quotes, ``$'...'`` or a backslash escape."""

    text: str


@dataclass(slots=True)
class DQ:
    """A double-quoted run: its expansions are neither split nor globbed."""

    parts: list


@dataclass(slots=True)
class Param:
    """``$name`` or ``${name<op><arg>}``. ``op`` is '' for a plain reference."""

    name: str
    op: str = ""
    arg: Word | None = None
    arg2: Word | None = None  # replacement of ${x/p/r}, length of ${x:o:l}
    text: str = ""  # the source text, for error messages


@dataclass(slots=True)
class CmdSub:
    """``$(...)`` or backticks: the parsed body and its source text."""

    body: Node
    source: str


@dataclass(slots=True)
class Arith:
    """``$((...))``: the raw expression text (expanded, then evaluated)."""

    expr: str


@dataclass(slots=True)
class Tilde:
    """``~`` or ``~user`` at the start of a word."""

    user: str


@dataclass(slots=True)
class Word:
    """One shell word: its parts and the source text it came from."""

    parts: list
    raw: str = ""


# -- commands --------------------------------------------------------------------------


@dataclass(slots=True)
class Redirect:
    """``[fd]op target``: op is one of < > >> >| <> <& >& &> &>> << <<- <<<."""

    op: str
    fd: int | None
    target: Word | None = None
    heredoc: HereDoc | None = None


@dataclass(slots=True)
class HereDoc:
    """A here-document body, filled in when the lexer reaches the line after it."""

    delimiter: str
    quoted: bool
    strip_tabs: bool
    body: str = ""
    complete: bool = False
    line: int = 1


@dataclass(slots=True)
class Assign:
    """``name=value`` or ``name+=value``."""

    name: str
    value: Word
    append: bool = False


@dataclass(slots=True)
class Simple:
    """A simple command: prefix assignments, words and redirections."""

    assigns: list[Assign]
    words: list[Word]
    redirects: list[Redirect]
    line: int = 1


@dataclass(slots=True)
class Pipeline:
    """``[!] a | b | c``."""

    commands: list
    negate: bool = False


@dataclass(slots=True)
class AndOr:
    """``first (&& | ||) rest...``: ops[i] joins items[i] and items[i + 1]."""

    items: list
    ops: list[str]


@dataclass(slots=True)
class ListNode:
    """A sequence of and-or lists; ``background`` flags those ended by ``&``."""

    items: list
    background: list[bool]


@dataclass(slots=True)
class Group:
    """``{ list; }``."""

    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Subshell:
    """``( list )``: runs in a copy of the shell state."""

    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class If:
    """``if c; then b; elif c; then b; else b; fi``: ``arms`` are (condition, body)."""

    arms: list[tuple]
    orelse: Node | None
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class While:
    """``while``/``until`` loops."""

    cond: Node
    body: Node
    until: bool = False
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class For:
    """``for name [in words]; do body; done``; ``words`` None means ``"$@"``."""

    var: str
    words: list[Word] | None
    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class ArithFor:
    """``for ((init; cond; step)); do body; done``."""

    init: str
    cond: str
    step: str
    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class CaseItem:
    patterns: list[Word]
    body: Node | None
    terminator: str = ";;"  # ;; ;& ;;&


@dataclass(slots=True)
class Case:
    word: Word
    items: list[CaseItem]
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class ArithCmd:
    """``(( expr ))``: status 0 when the expression is non-zero."""

    expr: str
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Cond:
    """``[[ expression ]]``."""

    expr: object
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class CondUnary:
    op: str
    operand: Word


@dataclass(slots=True)
class CondBinary:
    op: str
    left: Word
    right: Word


@dataclass(slots=True)
class CondWord:
    """A lone word inside ``[[ ]]``: true when non-empty."""

    word: Word


@dataclass(slots=True)
class CondNot:
    expr: object


@dataclass(slots=True)
class CondAnd:
    left: object
    right: object


@dataclass(slots=True)
class CondOr:
    left: object
    right: object


@dataclass(slots=True)
class FuncDef:
    """``name() body``; ``source`` is the definition's text, stored in the shell state."""

    name: str
    body: Node
    source: str


Node = object
