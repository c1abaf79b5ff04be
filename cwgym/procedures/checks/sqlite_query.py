"""``sqlite_query``: a read-only query on an SQLite file returns what is expected.

The file's bytes are opened in memory (:func:`cwgym.machine.sqlite.connect`, read-only),
so the check never changes the world and sees the file exactly as it is written (not a
window's unwritten changes). ``sql`` is one ``SELECT`` (or ``WITH ... SELECT``) statement
whose ``?`` marks take ``params`` in order; exactly one of these says what it must return:

* ``equals``: exactly these rows, in order (use ``ORDER BY``), each a list of values;
  numbers compare by value (``1`` equals ``1.0``), text exactly, ``null`` is SQL NULL,
  and a BLOB reads as its SQL literal text (``"X'00ff'"``);
* ``count``: exactly this many rows;
* ``min_rows``: at least this many rows.

The statement is refused when the procedure is read unless it is a single ``SELECT`` or
``WITH``; it may not name a statement that changes data (``INSERT``, ``UPDATE``,
``DELETE``, ``REPLACE INTO``, ``CREATE``, ``DROP``, ``ALTER``) or call ``random()``,
``randomblob()``, ``load_extension()``, ``CURRENT_TIMESTAMP``/``_DATE``/``_TIME`` or a
date function without a time value. At run time the database refuses the rest as the
Database application does (``'now'``, ``'localtime'``, ``ATTACH``, writes) and the check
fails with the reason, as it does for a missing file or one that is no database.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from cwgym.machine.sqlite import DbError, Refused, connect
from cwgym.procedures.checks import SHOWN_LINES, CheckKind, CheckResult, register
from cwgym.procedures.files import read_file

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine

#: The most rows a query may return to a check.
MAX_ROWS = 10_000

#: A value in ``params`` or in a row of ``equals``.
Value = int | float | str | None


class SqliteQuery(Struct, forbid_unknown_fields=True, kw_only=True):
    """A query on the SQLite file at ``path`` and what it must return (see the module notes)."""

    path: str
    sql: str
    params: list[Value] = []
    equals: list[list[Value]] | None = None
    count: int | None = None
    min_rows: int | None = None


#: What a query may return, exactly one a check.
EXPECTATIONS = ("equals", "count", "min_rows")

# One token of SQL: comments, literals and quoted names are kept whole so their text is
# never read as a keyword.
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
    | (?P<comment>--[^\n]*|/\*.*?\*/)
    | (?P<string>[xX]?'(?:[^']|'')*')
    | (?P<quoted>"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\])
    | (?P<word>[A-Za-z_][A-Za-z0-9_$]*)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
#: Words that only a statement changing data uses (SQLite reserves them: never a bare name).
_WRITING_WORDS = frozenset({"insert", "update", "delete", "create", "drop", "alter", "into", "commit"})
_DENIED_CALLS = {
    "random": "random() is disabled: the simulated computer has no randomness",
    "randomblob": "randomblob() is disabled: the simulated computer has no randomness",
    "load_extension": "load_extension() is disabled",
}
_CLOCK_WORDS = frozenset({"current_timestamp", "current_date", "current_time"})
_TIME_CALLS = frozenset({"date", "time", "datetime", "julianday", "unixepoch"})


def _tokens(sql: str) -> list[str] | str:
    """The words (lower-cased) and punctuation of ``sql`` without comments and spaces;
    literals and quoted names stand as ``'`` and ``"``. A string when it does not lex."""
    out: list[str] = []
    position = 0
    while position < len(sql):
        match = _TOKEN.match(sql, position)
        if match is None:  # pragma: no cover - `other` matches any single character
            return "the statement does not read as SQL"
        position = match.end()
        kind = match.lastgroup
        text = match[0]
        if kind in ("space", "comment"):
            continue
        if kind == "other" and (text in ("'", '"', "`", "[") or sql.startswith("/*", match.start())):
            return "the statement has a quote or a comment that is never closed"
        out.append({"string": "'", "quoted": '"', "word": text.lower()}.get(kind, text))
    return out


def sql_problem(sql: str) -> str | None:
    """Why ``sql`` is not one read-only, deterministic query, or ``None`` when it is."""
    tokens = _tokens(sql)
    if isinstance(tokens, str):
        return tokens
    while tokens and tokens[-1] == ";":
        tokens.pop()
    if not tokens:
        return "the statement is empty"
    if ";" in tokens:
        return "a check runs one statement: end it at the first ';'"
    if tokens[0] not in ("select", "with"):
        return f"a check only reads: the statement must start with SELECT or WITH, not {tokens[0].upper()!r}"
    for index, token in enumerate(tokens):
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in _WRITING_WORDS or (token == "replace" and after == "into"):
            word = "REPLACE INTO" if token == "replace" else token.upper()
            return f"a check only reads: {word} changes data"
        if token in _DENIED_CALLS and after == "(":
            return _DENIED_CALLS[token]
        if token in _CLOCK_WORDS:
            return f"{token.upper()} is disabled: the database cannot read the clock"
        if token in _TIME_CALLS and after == "(" and tokens[index + 2 : index + 3] == [")"]:
            return f"{token}() without a time value reads the clock: give the date"
    return None


def problems(payload: SqliteQuery) -> Iterator[tuple[str, str]]:
    if not payload.path:
        yield "path", "the path is empty"
    problem = sql_problem(payload.sql)
    if problem:
        yield "sql", problem
    given = [name for name in EXPECTATIONS if getattr(payload, name) is not None]
    if len(given) != 1:
        yield "", f"a sqlite_query check has exactly one of {', '.join(EXPECTATIONS)}" + (
            f" (got {', '.join(given)})" if given else ""
        )
    for name in ("count", "min_rows"):
        value = getattr(payload, name)
        if value is not None and value < 0:
            yield name, f"{name} must be 0 or more"


def plain(value: Any) -> Any:
    """A value SQLite returned as JSON data: a BLOB as its SQL literal text ``X'..'``."""
    if isinstance(value, bytes):
        return f"X'{value.hex()}'"
    return value


def same(found: Any, expected: Any) -> bool:
    """Whether a returned value is the expected one (numbers by value, never text for a number)."""
    if isinstance(found, (int, float)) and isinstance(expected, (int, float)):
        return found == expected
    return type(found) is type(expected) and found == expected


def rows_difference(expected: list[list[Any]], found: list[list[Any]]) -> str | None:
    """Where two row lists part, or ``None`` when they are the same."""
    for number, (want, got) in enumerate(zip(expected, found), start=1):
        if len(want) != len(got):
            return f"row {number} has {len(got)} column(s), expected {len(want)}"
        if not all(same(g, w) for g, w in zip(got, want)):
            return f"row {number} differs: expected {want!r}, found {got!r}"
    if len(expected) != len(found):
        return f"expected {len(expected)} row(s), found {len(found)}"
    return None


class QueryError(Exception):
    """A query that failed or was refused on a database that opened (the message says why)."""


def run_query(data: bytes, sql: str, params: list[Any]) -> tuple[list[list[Any]], bool]:
    """The rows ``sql`` returns on the database ``data`` (at most :data:`MAX_ROWS`) and
    whether there were more.

    Raises:
        DbError: the bytes are no SQLite database.
        QueryError: the query failed or was refused.
    """
    con, guard = connect(data, read_only=True)
    try:
        guard.reset()
        cursor = con.execute(sql, params)
        rows = cursor.fetchmany(MAX_ROWS + 1)
    except (sqlite3.Error, sqlite3.Warning, Refused, OverflowError, MemoryError, ValueError) as exc:
        reason = guard.reason or str(exc) or type(exc).__name__
        raise QueryError(f"the query was refused: {reason}" if guard.reason else f"the query failed: {reason}") from None
    finally:
        con.close()
    return [[plain(value) for value in row] for row in rows[:MAX_ROWS]], len(rows) > MAX_ROWS


def judge(world: World, machine: Machine, spec: dict[str, Any], r: CheckResult) -> None:
    expectation = next((name for name in EXPECTATIONS if spec.get(name) is not None), None)
    r.expected = {"sql": spec["sql"], "params": spec.get("params") or []}
    if expectation is not None:
        r.expected[expectation] = spec[expectation]
    problem = sql_problem(spec["sql"])
    if problem is not None or expectation is None:
        r.reason = problem or f"the check has none of {', '.join(EXPECTATIONS)}"
        return
    data = read_file(machine, spec["path"])
    if data is None:
        r.reason = "no such file"
        return
    try:
        rows, more = run_query(data, spec["sql"], list(spec.get("params") or []))
    except DbError as exc:
        r.reason = f"the file is not an SQLite database ({exc})"
        return
    except QueryError as exc:
        r.reason = str(exc)
        return
    r.found = {"rows": rows[:SHOWN_LINES], "count": len(rows)}
    if more:
        r.found["count"] = f"more than {MAX_ROWS}"
    wanted = spec[expectation]
    if expectation == "min_rows":
        r.passed = len(rows) >= wanted
        if not r.passed:
            r.reason = f"{len(rows)} row(s), expected at least {wanted}"
        return
    if more:
        r.reason = f"the query returned more than {MAX_ROWS} rows"
        return
    if expectation == "count":
        r.passed = len(rows) == wanted
        if not r.passed:
            r.reason = f"{len(rows)} row(s), expected {wanted}"
        return
    difference = rows_difference(wanted, rows)
    r.passed = difference is None
    if difference is not None:
        r.reason = difference


KIND = register(CheckKind("sqlite_query", SqliteQuery, judge, problems, files_only=True, shows_values=True))
