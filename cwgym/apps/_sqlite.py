"""The SQLite engine of the ``database`` application (a helper module, not an application).

A database window never keeps a connection in its state (state is JSON-like): it keeps the
file's path and the statements that changed data since the file was last written
(``pending``). The connection is derived: the file's bytes (read through the user's
filesystem) are opened by :func:`cwgym.machine.sqlite.connect` (an in-memory database with
no clock, no randomness, no other files and a bounded amount of work; see that module) and
the pending statements are replayed on it, in order. Connections are kept in a
process-wide LRU keyed by ``(sha256 of the bytes, pending statements)``, so the same
content always yields the same database, whatever process, snapshot or fork asks.

A statement *changes data* when the connection's guard saw it ask for a write (INSERT,
UPDATE, DELETE, CREATE, DROP, ALTER, REINDEX, ANALYZE, a PRAGMA that sets a value); such
statements, once they succeed, are appended to ``pending``. Everything here is plain data
in and out: the application never sees a connection.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections import OrderedDict
from typing import Any

from cwgym.machine.sqlite import (
    MAX_DB_BYTES,
    MAX_VALUE,
    PRAGMAS,
    STEP_BUDGET,
    DbError,
    Guard,
    Refused,
    connect,
    split_statements,
)

__all__ = [
    "CELL_CHARS",
    "MAX_DB_BYTES",
    "MAX_RESULT_ROWS",
    "MAX_VALUE",
    "PRAGMAS",
    "STEP_BUDGET",
    "DbError",
    "browse",
    "cached_view",
    "digest",
    "display",
    "execute",
    "serialize",
    "split_statements",
    "structure",
]

#: Rows a query result keeps (the grid says when there were more).
MAX_RESULT_ROWS = 500
#: Characters a result cell keeps in the window's state.
CELL_CHARS = 200
#: Connections kept (least recently used out first).
CONNECTIONS_KEPT = 8


# -- digests and the connection cache ------------------------------------------------------

_DIGESTS: OrderedDict[bytes, str] = OrderedDict()
_CONNECTIONS: OrderedDict[tuple[str, tuple[str, ...]], tuple[sqlite3.Connection, Guard]] = (
    OrderedDict()
)
_VIEWS: OrderedDict[Any, Any] = OrderedDict()
VIEWS_KEPT = 256


def digest(data: bytes) -> str:
    """The sha256 of ``data`` (remembered for the last few byte strings: their hash is
    cached by Python, so asking again for the same file is a dictionary look-up)."""
    hit = _DIGESTS.get(data)
    if hit is None:
        hit = _DIGESTS[data] = hashlib.sha256(data).hexdigest()
        if len(_DIGESTS) > 16:
            _DIGESTS.popitem(last=False)
    else:
        _DIGESTS.move_to_end(data)
    return hit


def _take(
    data: bytes, pending: tuple[str, ...]
) -> tuple[tuple[str, tuple[str, ...]], sqlite3.Connection, Guard]:
    """Remove and return the connection for ``(data, pending)``, building it on a miss.

    Raises :class:`DbError` when the bytes are no database or a pending statement no
    longer applies to them."""
    key = (digest(data), pending)
    hit = _CONNECTIONS.pop(key, None)
    if hit is not None:
        return key, hit[0], hit[1]
    con, guard = connect(data)
    for i, sql in enumerate(pending):
        error, _result, _writes = _run_one(con, guard, sql, fetch=False)
        if error is not None:
            con.close()
            raise DbError(f"unwritten statement {i + 1} no longer applies to the file: {error}")
    return key, con, guard


def _give(key: tuple[str, tuple[str, ...]], con: sqlite3.Connection, guard: Guard) -> None:
    _CONNECTIONS[key] = (con, guard)
    _CONNECTIONS.move_to_end(key)
    while len(_CONNECTIONS) > CONNECTIONS_KEPT:
        _k, (old, _g) = _CONNECTIONS.popitem(last=False)
        old.close()


def cached_view(key: Any, build: Any) -> Any:
    hit = _VIEWS.get(key)
    if hit is None:
        hit = _VIEWS[key] = build()
        if len(_VIEWS) > VIEWS_KEPT:
            _VIEWS.popitem(last=False)
    else:
        _VIEWS.move_to_end(key)
    return hit


# -- statements ----------------------------------------------------------------------------


def display(value: Any) -> str:
    """How a grid shows a value: ``NULL``, a number as SQLite prints it, ``BLOB`` sizes."""
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"BLOB ({len(value)} bytes)"
    if isinstance(value, float):
        text = repr(value)
        return text
    text = str(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def _run_one(
    con: sqlite3.Connection, guard: Guard, sql: str, *, fetch: bool
) -> tuple[str | None, dict | None, bool]:
    """Run one statement: ``(error, result, writes)``; ``result`` holds ``columns``,
    ``rows`` (display strings, at most :data:`MAX_RESULT_ROWS`), ``more`` and
    ``changes`` when ``fetch``."""
    guard.reset()
    before = con.total_changes
    try:
        cur = con.execute(sql)
        rows: list = []
        more = False
        if cur.description is not None:
            got = cur.fetchmany(MAX_RESULT_ROWS + 1) if fetch else cur.fetchall()
            more = len(got) > MAX_RESULT_ROWS
            rows = got[:MAX_RESULT_ROWS]
        cur.close()
    except (sqlite3.Error, Refused, OverflowError, MemoryError, ValueError) as exc:
        message = guard.reason or str(exc) or type(exc).__name__
        if message == "not authorized" and guard.reason:
            message = guard.reason
        return message, None, False
    writes = guard.writes
    if not fetch:
        return None, None, writes
    columns = [d[0] for d in cur.description] if cur.description is not None else []
    result = {
        "columns": columns,
        "rows": [[display(v) for v in row] for row in rows],
        "more": more,
        "changes": con.total_changes - before,
    }
    return None, result, writes


def execute(data: bytes, pending: list[str], statements: list[str]) -> dict[str, Any]:
    """Run ``statements`` in order on the database ``data`` + ``pending``, stopping at the
    first error. Returns ``{"pending": [...], "result": {...} | None, "error": str | None,
    "ran": n, "changes": total rows changed}``: ``pending`` grown by the statements that
    changed data; ``result`` is the last statement's (its columns and rows)."""
    key, con, guard = _take(data, tuple(pending))
    grown = list(pending)
    result = None
    error = None
    ran = 0
    changes = 0
    try:
        for sql in statements:
            error, out, writes = _run_one(con, guard, sql, fetch=True)
            if error is not None:
                break
            ran += 1
            result = out
            changes += out["changes"] if out is not None else 0
            if writes:
                grown.append(sql)
    finally:
        _give((key[0], tuple(grown)), con, guard)
    return {"pending": grown, "result": result, "error": error, "ran": ran, "changes": changes}


def serialize(data: bytes, pending: list[str]) -> bytes:
    """The bytes of the database ``data`` with ``pending`` applied (what Write Changes writes)."""
    key, con, guard = _take(data, tuple(pending))
    try:
        return bytes(con.serialize())
    finally:
        _give(key, con, guard)


def check(data: bytes) -> None:
    """Raise :class:`DbError` unless ``data`` opens as a database."""
    key, con, guard = _take(data, ())
    _give(key, con, guard)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def structure(data: bytes, pending: list[str]) -> tuple:
    """The schema: a tuple of ``(type, name, sql, columns)`` for every table, view, index
    and trigger (sorted by type then name); ``columns`` is a tuple of
    ``(name, declared type, not null, primary key)`` for tables and views."""
    key = ("structure", digest(data), tuple(pending))

    def build() -> tuple:
        k, con, guard = _take(data, tuple(pending))
        try:
            guard.reset()
            rows = con.execute(
                "SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                "ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name"
            ).fetchall()
            out = []
            for kind, name, sql in rows:
                cols: tuple = ()
                if kind in ("table", "view"):
                    info = con.execute(f"PRAGMA table_info({_quote(name)})").fetchall()
                    cols = tuple((c[1], c[2] or "", bool(c[3]), bool(c[5])) for c in info)
                out.append((kind, name, sql, cols))
            return tuple(out)
        except sqlite3.Error as exc:  # a damaged file whose header still reads
            raise DbError(str(exc) or "database disk image is malformed") from None
        finally:
            _give(k, con, guard)

    return cached_view(key, build)


def browse(data: bytes, pending: list[str], table: str, offset: int, limit: int) -> tuple:
    """``(columns, rows, total)`` of ``table`` from row ``offset`` (at most ``limit`` rows,
    display strings), in the table's own order."""
    key = ("browse", digest(data), tuple(pending), table, offset, limit)

    def build() -> tuple:
        k, con, guard = _take(data, tuple(pending))
        try:
            guard.reset()
            total = con.execute(f"SELECT count(*) FROM {_quote(table)}").fetchone()[0]
            guard.reset()
            cur = con.execute(f"SELECT * FROM {_quote(table)} LIMIT ? OFFSET ?", (limit, offset))
            columns = tuple(d[0] for d in cur.description)
            rows = tuple(tuple(display(v) for v in row) for row in cur.fetchall())
            return columns, rows, total
        except sqlite3.Error as exc:
            return (), (), str(exc)
        finally:
            _give(k, con, guard)

    return cached_view(key, build)
