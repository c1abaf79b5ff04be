"""The SQLite engine of the ``database`` application (a helper module, not an application).

A database window never keeps a connection in its state (state is JSON-like): it keeps the
file's path and the statements that changed data since the file was last written
(``pending``). The connection is derived: the file's bytes (read through the user's
filesystem) are deserialized into an in-memory SQLite database
(``sqlite3.connect(":memory:").deserialize(data)``) and the pending statements are
replayed on it, in order. Connections are kept in a process-wide LRU keyed by
``(sha256 of the bytes, pending statements)``, so the same content always yields the same
database, whatever process, snapshot or fork asks.

Determinism and isolation (every connection is built by :func:`_connect`):

* **No clock, no randomness.** ``random()`` and ``randomblob()`` are replaced by functions
  that fail; so are ``CURRENT_TIMESTAMP``, ``CURRENT_DATE`` and ``CURRENT_TIME``. The date
  and time functions (``date``, ``time``, ``datetime``, ``julianday``, ``unixepoch``,
  ``strftime``, ``timediff``) are replaced by wrappers that refuse ``'now'`` (and a call
  with no time value, which means now) and the host-dependent ``'localtime'`` / ``'utc'``
  modifiers, and hand any other call to a private connection's built-in function, so
  ``date('2026-09-17', '+1 day')`` still works.
* **No other files.** An authorizer (``set_authorizer``) denies ``ATTACH`` / ``DETACH``
  (which is also how ``VACUUM INTO 'file'`` reaches the host: refused), transactions and
  savepoints (the application owns the transaction: Write Changes and Revert Changes),
  virtual tables, ``load_extension()``, and every ``PRAGMA`` but a read-mostly list
  (:data:`PRAGMAS`). Extension loading stays disabled; temporary storage is memory.
* **Bounded work.** A progress handler stops a statement after :data:`STEP_BUDGET`
  virtual-machine steps (counted, so the same statement stops at the same place on every
  host); strings and blobs are limited to :data:`MAX_VALUE` bytes; the database may not
  grow past :data:`MAX_DB_BYTES`.

A statement *changes data* when the authorizer saw it ask for a write (INSERT, UPDATE,
DELETE, CREATE, DROP, ALTER, REINDEX, ANALYZE, a PRAGMA that sets a value); such
statements, once they succeed, are appended to ``pending``. Everything here is plain data
in and out: the application never sees a connection.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections import OrderedDict
from typing import Any

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

#: The largest database file the application opens (and grows to).
MAX_DB_BYTES = 32 << 20
#: The longest string or blob a value may be.
MAX_VALUE = 1_000_000
#: Virtual-machine steps one statement may take before it is stopped.
STEP_BUDGET = 20_000_000
#: Rows a query result keeps (the grid says when there were more).
MAX_RESULT_ROWS = 500
#: Characters a result cell keeps in the window's state.
CELL_CHARS = 200
#: Connections kept (least recently used out first).
CONNECTIONS_KEPT = 8

#: PRAGMAs a statement may use (reading them; the ones in :data:`_PRAGMA_WRITES` may also be set).
PRAGMAS = frozenset(
    {
        "application_id",
        "collation_list",
        "compile_options",
        "database_list",
        "encoding",
        "foreign_key_check",
        "foreign_key_list",
        "foreign_keys",
        "freelist_count",
        "function_list",
        "index_info",
        "index_list",
        "index_xinfo",
        "integrity_check",
        "module_list",
        "page_count",
        "page_size",
        "pragma_list",
        "quick_check",
        "schema_version",
        "table_info",
        "table_list",
        "table_xinfo",
        "user_version",
    }
)
_PRAGMA_WRITES = frozenset({"application_id", "foreign_keys", "user_version"})
#: PRAGMAs whose argument is an object name (reading, not setting).
_PRAGMA_ARG_READS = frozenset(
    {
        "foreign_key_check",
        "foreign_key_list",
        "index_info",
        "index_list",
        "index_xinfo",
        "integrity_check",
        "quick_check",
        "table_info",
        "table_list",
        "table_xinfo",
    }
)

# authorizer action codes (sqlite3.h)
_WRITES = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 23, 26, 27, 28})
_PRAGMA, _TRANSACTION, _ATTACH, _DETACH, _CREATE_VTABLE, _DROP_VTABLE, _FUNCTION, _SAVEPOINT = (
    19,
    22,
    24,
    25,
    29,
    30,
    31,
    32,
)
_DENIED_FUNCTIONS = {
    "random": "random() is disabled: the simulated computer has no randomness",
    "randomblob": "randomblob() is disabled: the simulated computer has no randomness",
    "load_extension": "load_extension() is disabled",
    "current_timestamp": "CURRENT_TIMESTAMP is disabled: the database cannot read the clock",
    "current_date": "CURRENT_DATE is disabled: the database cannot read the clock",
    "current_time": "CURRENT_TIME is disabled: the database cannot read the clock",
}
_TIME_FUNCTIONS = ("date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff")


class DbError(Exception):
    """A database that cannot be opened (not SQLite, too large, damaged)."""


class _Refused(Exception):
    """Raised by a replaced function; the message is shown instead of SQLite's."""


class _Guard:
    """What the authorizer and the progress handler of one connection remember."""

    __slots__ = ("reason", "steps", "writes")

    def __init__(self) -> None:
        self.reason: str | None = None
        self.writes = False
        self.steps = 0

    def reset(self) -> None:
        self.reason = None
        self.writes = False
        self.steps = 0

    def authorize(
        self, action: int, arg1: str | None, arg2: str | None, _db: str | None, _src: str | None
    ) -> int:
        if action in _WRITES:
            self.writes = True
            return sqlite3.SQLITE_OK
        if action in (_ATTACH, _DETACH):
            self.reason = (
                "ATTACH, DETACH and VACUUM INTO are refused: the database cannot reach other files"
            )
            return sqlite3.SQLITE_DENY
        if action in (_TRANSACTION, _SAVEPOINT):
            self.reason = (
                "transactions are the application's: use Write Changes (Ctrl+S) or Revert Changes"
            )
            return sqlite3.SQLITE_DENY
        if action in (_CREATE_VTABLE, _DROP_VTABLE):
            self.reason = "virtual tables are not supported"
            return sqlite3.SQLITE_DENY
        if action == _FUNCTION:
            name = (arg2 or "").lower()
            if name in _DENIED_FUNCTIONS:
                self.reason = _DENIED_FUNCTIONS[name]
                return sqlite3.SQLITE_DENY
            return sqlite3.SQLITE_OK
        if action == _PRAGMA:
            name = (arg1 or "").lower()
            if name not in PRAGMAS:
                self.reason = f"PRAGMA {name} is refused"
                return sqlite3.SQLITE_DENY
            if arg2 is not None and name not in _PRAGMA_ARG_READS:
                if name not in _PRAGMA_WRITES:
                    self.reason = f"PRAGMA {name} can only be read"
                    return sqlite3.SQLITE_DENY
                self.writes = True
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_OK

    def progress(self) -> int:
        self.steps += 1
        if self.steps * _PROGRESS_EVERY > STEP_BUDGET:
            self.reason = f"the statement was stopped after {STEP_BUDGET:,} steps"
            return 1
        return 0


_PROGRESS_EVERY = 10_000
_helper: sqlite3.Connection | None = None


def _builtin(name: str, args: tuple) -> Any:
    """A built-in date/time function on a private connection that replaces nothing."""
    global _helper
    if _helper is None:
        _helper = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    marks = ", ".join("?" * len(args))
    return _helper.execute(f"SELECT {name}({marks})", args).fetchone()[0]


def _time_function(name: str, guard: _Guard) -> Any:
    def call(*args: Any) -> Any:
        # strftime's first argument is the format, timediff has two time values
        values = args[1:] if name == "strftime" else args
        if not values or (name == "timediff" and len(values) < 2):
            guard.reason = f"{name}() without a time value reads the clock: give the date"
            raise _Refused(guard.reason)
        for i, value in enumerate(args):
            if isinstance(value, str) and (name != "strftime" or i > 0):
                low = value.strip().lower()
                if low == "now":
                    guard.reason = f"{name}('now') is disabled: the database cannot read the clock"
                    raise _Refused(guard.reason)
                if low in ("localtime", "utc"):
                    guard.reason = (
                        f"the '{low}' modifier is disabled: it depends on the host's time zone"
                    )
                    raise _Refused(guard.reason)
        return _builtin(name, args)

    return call


def _refuse(reason: str, guard: _Guard) -> Any:
    def call(*_args: Any) -> Any:
        guard.reason = reason
        raise _Refused(reason)

    return call


def _connect(data: bytes) -> tuple[sqlite3.Connection, _Guard]:
    """An in-memory database holding ``data``, guarded (see the module docstring)."""
    if len(data) > MAX_DB_BYTES:
        raise DbError(f"the file is larger than {MAX_DB_BYTES >> 20} MiB")
    con = sqlite3.connect(
        ":memory:", isolation_level=None, cached_statements=0, check_same_thread=False
    )
    try:
        if data:
            if (
                len(data) >= 20 and data[18:20] == b"\x02\x02"
            ):  # a WAL-mode file: read it as rollback
                data = data[:18] + b"\x01\x01" + data[20:]
            con.deserialize(data)
        con.execute("PRAGMA temp_store = MEMORY")
        page = con.execute("PRAGMA page_size").fetchone()[0] or 4096
        con.execute(f"PRAGMA max_page_count = {max(1, MAX_DB_BYTES // page)}")
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.DatabaseError, MemoryError, OverflowError) as exc:
        con.close()
        raise DbError(str(exc) or "file is not a database") from None
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)
    guard = _Guard()
    for name, reason in _DENIED_FUNCTIONS.items():
        if name.startswith("current_"):
            con.create_function(name, 0, _refuse(reason, guard))
        elif name != "load_extension":
            con.create_function(name, -1, _refuse(reason, guard))
    for name in _TIME_FUNCTIONS:
        con.create_function(name, -1, _time_function(name, guard), deterministic=True)
    con.set_authorizer(guard.authorize)
    con.set_progress_handler(guard.progress, _PROGRESS_EVERY)
    return con, guard


# -- digests and the connection cache ------------------------------------------------------

_DIGESTS: OrderedDict[bytes, str] = OrderedDict()
_CONNECTIONS: OrderedDict[tuple[str, tuple[str, ...]], tuple[sqlite3.Connection, _Guard]] = (
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
) -> tuple[tuple[str, tuple[str, ...]], sqlite3.Connection, _Guard]:
    """Remove and return the connection for ``(data, pending)``, building it on a miss.

    Raises :class:`DbError` when the bytes are no database or a pending statement no
    longer applies to them."""
    key = (digest(data), pending)
    hit = _CONNECTIONS.pop(key, None)
    if hit is not None:
        return key, hit[0], hit[1]
    con, guard = _connect(data)
    for i, sql in enumerate(pending):
        error, _result, _writes = _run_one(con, guard, sql, fetch=False)
        if error is not None:
            con.close()
            raise DbError(f"unwritten statement {i + 1} no longer applies to the file: {error}")
    return key, con, guard


def _give(key: tuple[str, tuple[str, ...]], con: sqlite3.Connection, guard: _Guard) -> None:
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


def split_statements(text: str) -> list[str]:
    """The statements of ``text``, each ending with its ``;`` (one is added to a last
    statement that has none); blank pieces and comment-only pieces are dropped."""
    out: list[str] = []
    start = 0
    i = text.find(";")
    while i >= 0:
        piece = text[start : i + 1]
        if sqlite3.complete_statement(piece):
            out.append(piece.strip())
            start = i + 1
        i = text.find(";", i + 1)
    tail = text[start:].strip()
    if tail:
        out.append(tail + ";")
    return [s for s in out if _has_code(s)]


def _has_code(sql: str) -> bool:
    """Whether ``sql`` holds anything but comments, whitespace and semicolons."""
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch.isspace() or ch == ";":
            i += 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            return True
    return False


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
    con: sqlite3.Connection, guard: _Guard, sql: str, *, fetch: bool
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
    except (sqlite3.Error, _Refused, OverflowError, MemoryError, ValueError) as exc:
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
