"""The database application (DB Browser for SQLite), driven only through the actor handle.

The database files are made here with Python's sqlite3 (``serialize()``) and laid into the
world as data URLs; controls are found in the scene by interaction, role and label, and
files are checked through the owner's machine (opened with sqlite3 in memory).
"""

from __future__ import annotations

import base64
import os
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _sqlite as sq
from cwgym.apps import database as db_app
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
HOME = "/home/ada"
SHOP = f"{HOME}/Documents/shop.db"


def _db_bytes(script: str) -> bytes:
    con = sqlite3.connect(":memory:")
    con.executescript(script)
    con.commit()
    data = bytes(con.serialize())
    con.close()
    return data


SHOP_SQL = """
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL);
INSERT INTO products (name, price) VALUES ('Blue mug', 8.5), ('Desk lamp', 32.0), ('Notebook', NULL);
CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO suppliers (name, city) VALUES ('Paper & Co', 'Leeds');
CREATE TABLE numbers (n INTEGER);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 250) INSERT INTO numbers SELECT x FROM c;
CREATE VIEW cheap AS SELECT name FROM products WHERE price < 10;
"""


def _url(data: bytes) -> str:
    return "data:application/vnd.sqlite3;base64," + base64.b64encode(data).decode()


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    computer = d["computers"][0]
    computer["installed_apps"].append("database")
    computer["initial_files"]["Documents/shop.db"] = _url(_db_bytes(SHOP_SQL))
    computer["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _launch(env, argument: str | None = "~/Documents/shop.db") -> int:
    payload = (
        {"kind": "database"} if argument is None else {"kind": "database", "argument": argument}
    )
    return ok(env, app("launch", **payload))["window"]


def _scene(env) -> dict:
    return env.scene(W, H)


def _title(env, wid: int = 0) -> str:
    return next(x for x in _scene(env).get("windows", []) if x["id"] == wid)["title"]


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _t(name: str, wid: int = 0) -> str:
    return f"window:{wid}:content:db:{name}"


def _click(env, name: str, op: str = "click", wid: int = 0) -> dict:
    at = point(_scene(env), _t(name, wid))
    assert at is not None, f"{name} cannot be reached"
    return one(env, ptr(op, *at, width=W, height=H))


def _shell(env, name: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=_t(name, wid)))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _cells(env, prefix: str = "cell") -> dict[str, str]:
    """Grid cells on screen: ``"<column> <row>"`` -> value."""
    return {
        e["label"]: e["value"]
        for k, e in _elements(env).items()
        if e["role"] == "gridcell" and f":db:{prefix}:" in k
    }


def _message(env) -> str:
    return "\n".join(
        t for t in _texts(env) if t.startswith(("Execution", "Result:", "At statement"))
    )


def _rows(w: World, sql: str, path: str = SHOP) -> list:
    con = sqlite3.connect(":memory:")
    con.deserialize(w.machine(M).fs.read_path(path))
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _run(env, sql: str, wid: int = 0) -> None:
    assert _shell(env, "tab:sql", wid)["success"]
    assert _shell(env, "sql", wid)["success"]
    _keys(env, "Ctrl+a")
    ok(env, type_(sql))
    _keys(env, "Ctrl+Enter")


# -- the three tabs ------------------------------------------------------------------------


def test_structure_then_browse_with_the_pointer():
    w = _world()
    env = _env(w)
    assert _launch(env) == 0
    assert _title(env) == "shop.db — DB Browser for SQLite"
    assert recent(w.machine(M))[0]["path"] == SHOP
    elements = _elements(env)
    assert (
        elements[_t("tab:structure")]["role"] == "tab" and elements[_t("tab:structure")]["selected"]
    )
    products = elements[_t("object:products")]
    assert products["role"] == "treeitem" and products["value"] == "table"
    texts = _texts(env)
    for text in (
        "products",
        "suppliers",
        "numbers",
        "cheap",
        "INTEGER PRIMARY KEY",
        "TEXT NOT NULL",
        "REAL",
    ):
        assert text in texts
    _click(env, "object:suppliers")
    assert _elements(env)[_t("object:suppliers")]["selected"]
    _click(env, "object:suppliers", op="double_click")  # opens it in Browse Data
    assert _elements(env)[_t("tab:browse")]["selected"]
    assert _elements(env)[_t("picker")]["value"] == "suppliers"
    assert _cells(env) == {"id 1": "1", "name 1": "Paper & Co", "city 1": "Leeds"}
    _click(env, "picker")
    assert _elements(env)[_t("pick:products")]["role"] == "option"
    _click(env, "pick:products")
    cells = _cells(env)
    assert (
        cells["name 2"] == "Desk lamp" and cells["price 2"] == "32.0" and cells["price 3"] == "NULL"
    )
    assert "1 - 3 of 3" in _texts(env)
    # a cell is selected by a click and copied with Ctrl+C; arrows move the selection
    _click(env, "cell:2:1")
    assert _elements(env)[_t("cell:2:1")]["selected"]
    _keys(env, "ArrowDown", "Ctrl+c")
    assert w.machine(M).clipboard == "Notebook"
    # the view is a table picker item too
    _shell(env, "picker")
    _shell(env, "pick:cheap")
    assert _cells(env) == {"name 1": "Blue mug"}


def test_paging_through_a_long_table_by_pointer_keys_and_shell():
    env = _env(_world())
    _launch(env)
    _shell(env, "tab:browse")
    _shell(env, "picker")
    _shell(env, "pick:numbers")
    assert "1 - 100 of 250" in _texts(env)
    assert _elements(env)[_t("prev")]["enabled"] is False
    _click(env, "next")
    assert "101 - 200 of 250" in _texts(env) and _cells(env)["n 101"] == "101"
    _shell(env, "last")
    assert "201 - 250 of 250" in _texts(env) and _elements(env)[_t("next")]["enabled"] is False
    _click(env, "prev")
    assert "101 - 200 of 250" in _texts(env)
    _shell(env, "first")
    assert "1 - 100 of 250" in _texts(env)
    _keys(env, "PageDown")
    assert "101 - 200 of 250" in _texts(env)
    _keys(env, "PageUp")
    assert "1 - 100 of 250" in _texts(env)
    # Ctrl+1..3 switch the tabs
    _keys(env, "Ctrl+3")
    assert _elements(env)[_t("tab:sql")]["selected"]
    _keys(env, "Ctrl+1")
    assert _elements(env)[_t("tab:structure")]["selected"]


def test_execute_sql_then_write_changes():
    w = _world()
    env = _env(w)
    _launch(env)
    _click(env, "tab:sql")
    focus = _scene(env)["focus"]
    assert (
        focus["role"] == "textbox" and focus["label"] == "SQL" and focus["keyboard"]["text_entry"]
    )
    ok(
        env,
        type_(
            "INSERT INTO suppliers (name, city) VALUES ('Northwind Goods', 'Bristol');\nSELECT name, city FROM suppliers ORDER BY id;"
        ),
    )
    assert focus["caret"]["offset"] == 0 and _scene(env)["focus"]["caret"]["line"] == 1
    _click(env, "run")
    assert _message(env).startswith("Execution finished without errors.\nResult: 2 rows returned")
    assert _cells(env, "result") == {
        "name 1": "Paper & Co",
        "city 1": "Leeds",
        "name 2": "Northwind Goods",
        "city 2": "Bristol",
    }
    assert _title(env) == "• shop.db — DB Browser for SQLite"
    assert "1 unwritten change" in _texts(env)
    assert _rows(w, "SELECT count(*) FROM suppliers") == [(1,)]  # nothing written yet
    out = one(env, key("Ctrl+s"))
    assert out["success"] and "document" not in out["effect"]["changed"]
    assert _rows(w, "SELECT name, city FROM suppliers ORDER BY id") == [
        ("Paper & Co", "Leeds"),
        ("Northwind Goods", "Bristol"),
    ]
    assert _title(env) == "shop.db — DB Browser for SQLite"
    assert "Wrote the changes to “shop.db”." in _texts(env)
    # F5 runs too; an UPDATE reports the rows it changed; the Write Changes button writes
    _keys(env, "Ctrl+a")
    ok(env, type_("UPDATE products SET price = price * 2 WHERE price IS NOT NULL"))
    _keys(env, "F5")
    assert "Result: query executed successfully. 2 rows affected" in _message(env)
    _click(env, "write")
    assert _rows(w, "SELECT price FROM products ORDER BY id") == [(17.0,), (64.0,), (None,)]
    # a selection runs only what is selected
    _keys(env, "Ctrl+a")
    ok(env, type_("SELECT 1;\nSELECT 2;"))
    _keys(env, "Shift+Home")
    _keys(env, "Ctrl+Enter")
    assert _cells(env, "result") == {"2 1": "2"}


def test_sql_errors_and_refused_statements_change_nothing(tmp_path):
    w = _world()
    env = _env(w)
    _launch(env)
    before = w.machine(M).fs.read_path(SHOP)
    _run(env, "SELECT * FROM x")
    assert (
        _message(env)
        == "Execution finished with errors.\nResult: no such table: x\nAt statement 1: SELECT * FROM x;"
    )
    host = tmp_path / "escape.db"
    refusals = {
        "SELECT random()": "random() is disabled",
        "SELECT randomblob(8)": "randomblob() is disabled",
        "SELECT date('now')": "date('now') is disabled",
        "SELECT CURRENT_TIMESTAMP": "CURRENT_TIMESTAMP is disabled",
        "SELECT datetime(0, 'unixepoch', 'localtime')": "the 'localtime' modifier is disabled",
        f"ATTACH '{host}' AS other": "ATTACH, DETACH and VACUUM INTO are refused",
        f"VACUUM INTO '{host}'": "ATTACH, DETACH and VACUUM INTO are refused",
        "PRAGMA journal_mode = WAL": "PRAGMA journal_mode is refused",
        "BEGIN": "transactions are the application's",
        "SELECT load_extension('x')": "load_extension() is disabled",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c": "stopped after",
    }
    for sql, reason in refusals.items():
        _run(env, sql)
        assert reason in _message(env), (sql, _message(env))
    assert not host.exists() and not os.path.exists("other")
    # what does not read the clock still works
    _run(env, "SELECT date('2026-09-17', '+1 day') AS d")
    assert _cells(env, "result") == {"d 1": "2026-09-18"}
    # a failing statement stops the run; the ones before it stay (unwritten)
    _run(
        env,
        "INSERT INTO suppliers (name) VALUES ('A'); INSERT INTO suppliers (nope) VALUES (1); INSERT INTO suppliers (name) VALUES ('B')",
    )
    assert "At statement 2" in _message(env) and "has no column named nope" in _message(env)
    assert "1 unwritten change" in _texts(env)
    assert w.machine(M).fs.read_path(SHOP) == before


def test_revert_changes_and_the_state_survives_snapshots():
    w = _world()
    env = _env(w)
    _launch(env)
    _run(env, "DELETE FROM products WHERE name = 'Blue mug'")
    snap = w.snapshot()
    # a fresh process has no cached connection: the pending statement is replayed
    sq._CONNECTIONS.clear()
    sq._VIEWS.clear()
    _shell(env, "tab:browse")
    _shell(env, "picker")
    _shell(env, "pick:products")
    assert "1 - 2 of 2" in _texts(env)
    fork = w.fork(snap)
    fenv = fork.session(env.id)
    _click(env, "revert")
    assert "1 - 3 of 3" in _texts(env) and _title(env) == "shop.db — DB Browser for SQLite"
    assert "Reverted 1 unwritten change." in _texts(env)
    assert _elements(env)[_t("write")]["enabled"] is False
    # the fork still holds the unwritten delete, and writes it
    sq._CONNECTIONS.clear()
    ok(fenv, key("Ctrl+s"))
    assert _rows(fork, "SELECT count(*) FROM products") == [(2,)]
    assert _rows(w, "SELECT count(*) FROM products") == [(3,)]


def test_a_file_that_is_not_a_database_shows_an_error_and_changes_nothing():
    w = _world({"Documents/notes.db": "these are notes, not a database\n" * 20})
    env = _env(w)
    _launch(env, "~/Documents/notes.db")
    assert any(
        t.startswith("Could not open “notes.db”: file is not a database") for t in _texts(env)
    )
    assert _title(env) == "DB Browser for SQLite" and "No database is open." in _texts(env)
    assert (
        w.machine(M).fs.read_path(f"{HOME}/Documents/notes.db")
        == b"these are notes, not a database\n" * 20
    )
    # with a database open, opening a bad file keeps it
    _launch(env)
    _click(env, "open", wid=1)
    assert _scene(env)["focus"]["label"] == "Database to open"
    ok(env, type_("~/Documents/notes.db"))
    _keys(env, "Enter")
    assert any("file is not a database" in t for t in _texts(env))
    assert _title(env, 1) == "shop.db — DB Browser for SQLite"
    _shell(env, "open-cancel", wid=1)
    assert _t("open-path", 1) not in _elements(env)
    # a folder is refused at launch
    assert (
        one(env, app("launch", kind="database", argument="~/Documents"))["error"]["code"]
        == "action_failed"
    )


def test_a_missing_file_is_a_new_database_created_on_write():
    w = _world()
    env = _env(w)
    _launch(env, "~/Documents/new.db")
    assert any(t.startswith("“new.db” is a new database") for t in _texts(env))
    _run(
        env,
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('first')",
    )
    _keys(env, "Ctrl+s")
    assert _rows(w, "SELECT body FROM notes", f"{HOME}/Documents/new.db") == [("first",)]
    _shell(env, "tab:structure")
    assert "notes" in _texts(env)


def test_sql_editor_keys_undo_clear_and_caps():
    env = _env(_world())
    _launch(env)
    _shell(env, "tab:sql")
    ok(env, type_("SELECT 1"))
    _keys(env, "Home", "Shift+End", "Ctrl+x")
    assert _scene(env)["focus"]["value"] == ""
    _keys(env, "Ctrl+z")
    assert _scene(env)["focus"]["value"] == "SELECT 1"
    _keys(env, "Ctrl+y")
    assert _scene(env)["focus"]["value"] == ""
    _keys(env, "Ctrl+v", "Enter", "Tab")
    ok(env, type_("x"))
    assert _scene(env)["focus"]["value"] == "SELECT 1\n    x"
    _click(env, "clear")
    assert _scene(env)["focus"]["value"] == ""
    _keys(env, "F5")
    assert "there is no SQL to execute" in _message(env)
    out = one(env, type_("x" * (db_app.MAX_SQL + 1)))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _scene(env)["focus"]["value"] == ""
    ok(env, type_("SELECT 1;" * (db_app.MAX_STATEMENTS + 1)))
    _keys(env, "F5")
    assert f"at most {db_app.MAX_STATEMENTS} statements" in _message(env)
    assert _shell(env, "nothing")["error"]["reason"] == "unknown_shell_target"
    assert (
        _shell(env, "pick:products")["error"]["reason"] == "unknown_shell_target"
    )  # not on Browse Data


def test_closing_with_unwritten_changes_asks():
    w = _world()
    env = _env(w)
    _launch(env)
    _run(env, "DELETE FROM numbers")
    ok(env, app("close", window=0))
    assert _elements(env)[_t("close-save")]["label"] == "Save"
    _click(env, "close-cancel")
    ok(env, key("Ctrl+w"))
    _click(env, "close-discard")
    assert not _scene(env).get("windows")
    assert _rows(w, "SELECT count(*) FROM numbers") == [(250,)]
    _launch(env)
    _run(env, "DELETE FROM numbers", wid=1)
    ok(env, app("close", window=1))
    _keys(env, "Enter")  # the dialog's default is Save
    assert _rows(w, "SELECT count(*) FROM numbers") == [(0,)]


def test_engine_splits_statements_and_marks_writes():
    assert sq.split_statements(
        "SELECT ';'; -- a; comment\nCREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END; SELECT 2"
    ) == [
        "SELECT ';';",
        "-- a; comment\nCREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END;",
        "SELECT 2;",
    ]
    assert sq.split_statements("  -- only a comment\n;") == []
    data = _db_bytes(SHOP_SQL)
    out = sq.execute(
        data,
        [],
        [
            "SELECT count(*) FROM products;",
            "PRAGMA user_version = 7;",
            "PRAGMA table_info(products);",
        ],
    )
    assert out["error"] is None and out["pending"] == ["PRAGMA user_version = 7;"]
    written = sq.serialize(data, out["pending"])
    assert sq.execute(written, [], ["PRAGMA user_version;"])["result"]["rows"] == [["7"]]
