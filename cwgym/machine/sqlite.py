"""SQLite on a file's bytes: an in-memory database that cannot reach the host or its clock.

What the ``database`` application and the ``sqlite_query`` check share. :func:`connect`
deserializes a file's bytes into an in-memory database
(``sqlite3.connect(":memory:").deserialize(data)``) and guards it, so the same bytes and
the same statements give the same answers on every host:

* **No clock, no randomness.** ``random()`` and ``randomblob()`` are replaced by functions
  that fail; so are ``CURRENT_TIMESTAMP``, ``CURRENT_DATE`` and ``CURRENT_TIME``. The date
  and time functions (``date``, ``time``, ``datetime``, ``julianday``, ``unixepoch``,
  ``strftime``, ``timediff``) are replaced by wrappers that refuse ``'now'`` (and a call
  with no time value, which means now) and the host-dependent ``'localtime'`` / ``'utc'``
  modifiers, and hand any other call to a private connection's built-in function, so
  ``date('2026-09-17', '+1 day')`` still works.
* **No other files.** An authorizer (``set_authorizer``) denies ``ATTACH`` / ``DETACH``
  (which is also how ``VACUUM INTO 'file'`` reaches the host: refused), transactions and
  savepoints (the application owns the transaction), virtual tables,
  ``load_extension()``, and every ``PRAGMA`` but a read-mostly list (:data:`PRAGMAS`).
  Extension loading stays disabled; temporary storage is memory.
* **Bounded work.** A progress handler stops a statement after :data:`STEP_BUDGET`
  virtual-machine steps (counted, so the same statement stops at the same place on every
  host); strings and blobs are limited to :data:`MAX_VALUE` bytes; the database may not
  grow past :data:`MAX_DB_BYTES`.

The connection's :class:`Guard` remembers why a statement was refused (``reason``) and
whether it asked to change data (``writes``: INSERT, UPDATE, DELETE, CREATE, DROP, ALTER,
REINDEX, ANALYZE, a PRAGMA that sets a value). A ``read_only`` connection refuses those
statements outright, which is what a check that only looks needs.
"""

from __future__ import annotations

import sqlite3
from typing import Any

__all__ = [
    "MAX_DB_BYTES",
    "MAX_VALUE",
    "PRAGMAS",
    "STEP_BUDGET",
    "DbError",
    "Guard",
    "Refused",
    "connect",
    "split_statements",
]

#: The largest database file opened (and grown to).
MAX_DB_BYTES = 32 << 20
#: The longest string or blob a value may be.
MAX_VALUE = 1_000_000
#: Virtual-machine steps one statement may take before it is stopped.
STEP_BUDGET = 20_000_000

#: PRAGMAs a statement may use (reading them; the ones in :data:`PRAGMA_WRITES` may also be set).
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
#: PRAGMAs that may also be set (a write).
PRAGMA_WRITES = frozenset({"application_id", "foreign_keys", "user_version"})
#: PRAGMAs whose argument is an object name (reading, not setting).
PRAGMA_ARG_READS = frozenset(
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
WRITE_ACTIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 23, 26, 27, 28})
PRAGMA_ACTION = 19
TRANSACTION_ACTION = 22
ATTACH_ACTION = 24
DETACH_ACTION = 25
CREATE_VTABLE_ACTION = 29
DROP_VTABLE_ACTION = 30
FUNCTION_ACTION = 31
SAVEPOINT_ACTION = 32

#: Functions no statement may call, and why.
DENIED_FUNCTIONS = {
    "random": "random() is disabled: the simulated computer has no randomness",
    "randomblob": "randomblob() is disabled: the simulated computer has no randomness",
    "load_extension": "load_extension() is disabled",
    "current_timestamp": "CURRENT_TIMESTAMP is disabled: the database cannot read the clock",
    "current_date": "CURRENT_DATE is disabled: the database cannot read the clock",
    "current_time": "CURRENT_TIME is disabled: the database cannot read the clock",
}
#: The date and time functions, which may not read the clock or the host's time zone.
TIME_FUNCTIONS = ("date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff")
#: Why a read-only connection refused a statement.
READ_ONLY_REASON = "the statement changes data: this database is only read"

_PROGRESS_EVERY = 10_000


class DbError(Exception):
    """A database that cannot be opened (not SQLite, too large, damaged)."""


class Refused(Exception):
    """Raised by a replaced function; the message is shown instead of SQLite's."""


class Guard:
    """What the authorizer and the progress handler of one connection remember."""

    __slots__ = ("read_only", "reason", "steps", "writes")

    def __init__(self, read_only: bool = False) -> None:
        self.read_only = read_only
        self.reason: str | None = None
        self.writes = False
        self.steps = 0

    def reset(self) -> None:
        """Forget the last statement (call before each one)."""
        self.reason = None
        self.writes = False
        self.steps = 0

    def write(self) -> int:
        """A statement asks to change data: noted, or refused on a read-only connection."""
        self.writes = True
        if self.read_only:
            self.reason = READ_ONLY_REASON
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def authorize(
        self, action: int, arg1: str | None, arg2: str | None, _db: str | None, _src: str | None
    ) -> int:
        if action in WRITE_ACTIONS:
            return self.write()
        if action in (ATTACH_ACTION, DETACH_ACTION):
            self.reason = (
                "ATTACH, DETACH and VACUUM INTO are refused: the database cannot reach other files"
            )
            return sqlite3.SQLITE_DENY
        if action in (TRANSACTION_ACTION, SAVEPOINT_ACTION):
            self.reason = (
                "transactions are the application's: use Write Changes (Ctrl+S) or Revert Changes"
            )
            return sqlite3.SQLITE_DENY
        if action in (CREATE_VTABLE_ACTION, DROP_VTABLE_ACTION):
            self.reason = "virtual tables are not supported"
            return sqlite3.SQLITE_DENY
        if action == FUNCTION_ACTION:
            name = (arg2 or "").lower()
            if name in DENIED_FUNCTIONS:
                self.reason = DENIED_FUNCTIONS[name]
                return sqlite3.SQLITE_DENY
            return sqlite3.SQLITE_OK
        if action == PRAGMA_ACTION:
            name = (arg1 or "").lower()
            if name not in PRAGMAS:
                self.reason = f"PRAGMA {name} is refused"
                return sqlite3.SQLITE_DENY
            if arg2 is not None and name not in PRAGMA_ARG_READS:
                if name not in PRAGMA_WRITES:
                    self.reason = f"PRAGMA {name} can only be read"
                    return sqlite3.SQLITE_DENY
                return self.write()
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_OK

    def progress(self) -> int:
        self.steps += 1
        if self.steps * _PROGRESS_EVERY > STEP_BUDGET:
            self.reason = f"the statement was stopped after {STEP_BUDGET:,} steps"
            return 1
        return 0


class BuiltinTimeFunctions:
    """SQLite's own date and time functions, on a private connection that replaces nothing."""

    def __init__(self) -> None:
        self.connection: sqlite3.Connection | None = None

    def call(self, name: str, args: tuple) -> Any:
        if self.connection is None:
            self.connection = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        marks = ", ".join("?" * len(args))
        return self.connection.execute(f"SELECT {name}({marks})", args).fetchone()[0]


BUILTINS = BuiltinTimeFunctions()


def time_function(name: str, guard: Guard) -> Any:
    """``name`` (a date or time function) refusing the clock and the host's time zone."""

    def call(*args: Any) -> Any:
        # strftime's first argument is the format, timediff has two time values
        values = args[1:] if name == "strftime" else args
        if not values or (name == "timediff" and len(values) < 2):
            guard.reason = f"{name}() without a time value reads the clock: give the date"
            raise Refused(guard.reason)
        for i, value in enumerate(args):
            if isinstance(value, str) and (name != "strftime" or i > 0):
                low = value.strip().lower()
                if low == "now":
                    guard.reason = f"{name}('now') is disabled: the database cannot read the clock"
                    raise Refused(guard.reason)
                if low in ("localtime", "utc"):
                    guard.reason = f"the '{low}' modifier is disabled: it depends on the host's time zone"
                    raise Refused(guard.reason)
        return BUILTINS.call(name, args)

    return call


def refusing(reason: str, guard: Guard) -> Any:
    """A function that fails with ``reason`` whatever it is given."""

    def call(*_args: Any) -> Any:
        guard.reason = reason
        raise Refused(reason)

    return call


def connect(data: bytes, *, read_only: bool = False) -> tuple[sqlite3.Connection, Guard]:
    """An in-memory database holding ``data`` (empty bytes: a new database), guarded as
    the module notes say; with ``read_only`` every statement that changes data is refused.

    Raises:
        DbError: the bytes are larger than :data:`MAX_DB_BYTES` or are no SQLite database.
    """
    if len(data) > MAX_DB_BYTES:
        raise DbError(f"the file is larger than {MAX_DB_BYTES >> 20} MiB")
    con = sqlite3.connect(":memory:", isolation_level=None, cached_statements=0, check_same_thread=False)
    try:
        if data:
            if len(data) >= 20 and data[18:20] == b"\x02\x02":  # a WAL-mode file: read it as rollback
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
    guard = Guard(read_only)
    for name, reason in DENIED_FUNCTIONS.items():
        if name.startswith("current_"):
            con.create_function(name, 0, refusing(reason, guard))
        elif name != "load_extension":
            con.create_function(name, -1, refusing(reason, guard))
    for name in TIME_FUNCTIONS:
        con.create_function(name, -1, time_function(name, guard), deterministic=True)
    con.set_authorizer(guard.authorize)
    con.set_progress_handler(guard.progress, _PROGRESS_EVERY)
    return con, guard


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
    return [s for s in out if has_code(s)]


def has_code(sql: str) -> bool:
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
