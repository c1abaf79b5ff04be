"""The ``sqlite_query`` and ``image`` check kinds: their verdicts on files laid into a small
world, their refusals when a procedure is read, and the library procedures that use them."""

from __future__ import annotations

import base64
import copy
import io
import json
import sqlite3
from pathlib import Path

import pytest
from PIL import Image
from procedure_kit import TOOL, run_tool, staged

from cwgym.machine.sqlite import READ_ONLY_REASON, connect
from cwgym.procedures import ProcedureError, parse_procedure, verify
from cwgym.procedures.checks import FILE_CHECKS

LIBRARY = Path(__file__).resolve().parents[2] / "procedures" / "apps"

WHITE, RED = (255, 255, 255), (237, 28, 36)


def data_url(data: bytes, kind: str = "application/octet-stream") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def procedure(check: dict, files: dict[str, bytes | str] | None = None, params: list | None = None) -> dict:
    """A procedure that lays ``files`` into the home folder and checks them with ``check``."""
    setup = [{"path": path, "content": body if isinstance(body, str) else data_url(body)} for path, body in (files or {}).items()]
    return {
        "id": "office-look", "domain": "office", "instruction": "Look at the files.",
        "params": params or [], "setup": setup,
        "phases": [{"label": "Look", "writes": False, "tool": [
            {"family": "terminal.v1", "op": "execute", "payload": {"command": "ls"}}]}],
        "verify": [check],
    }


def verdict(check: dict, files: dict[str, bytes | str] | None = None, params: list | None = None):
    world, instance = staged(procedure(check, files, params), 0)
    return verify(world, instance).checks[0]


def refusal(check: dict) -> ProcedureError:
    with pytest.raises(ProcedureError) as info:
        parse_procedure(procedure(check), "procedures/office/office-look.json")
    return info.value


def test_both_kinds_read_only_files():
    assert "sqlite_query" in FILE_CHECKS and "image" in FILE_CHECKS


# -- sqlite_query --------------------------------------------------------------------------


def database() -> bytes:
    con = sqlite3.connect(":memory:")
    con.executescript(
        "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, photo BLOB);"
        "INSERT INTO items (name, price, photo) VALUES ('pen', 1.5, NULL), ('ink', 4, x'00ff'), ('pad', 2.25, NULL);"
    )
    return bytes(con.serialize())


DB = {"Documents/shop.db": database()}


def query(sql: str, params: list | None = None, **expected) -> dict:
    return {"sqlite_query": {"path": "Documents/shop.db", "sql": sql, "params": params or [], **expected}}


def test_equal_rows_pass_and_numbers_compare_by_value():
    result = verdict(query("SELECT name, price FROM items WHERE price > ? ORDER BY id", [2], equals=[["ink", 4], ["pad", 2.25]]), DB)
    assert result.passed, result.reason
    assert result.found == {"rows": [["ink", 4.0], ["pad", 2.25]], "count": 2}
    assert result.subject == "Documents/shop.db"


def test_a_blob_reads_as_its_literal_text():
    assert verdict(query("SELECT photo FROM items WHERE name = 'ink'", equals=[["X'00ff'"]]), DB).passed


def test_count_and_min_rows():
    assert verdict(query("SELECT * FROM items", count=3), DB).passed
    assert verdict(query("SELECT * FROM items", min_rows=3), DB).passed
    short = verdict(query("SELECT * FROM items", min_rows=4), DB)
    assert not short.passed and short.reason == "3 row(s), expected at least 4"
    wrong = verdict(query("SELECT * FROM items WHERE name = ?", ["pen"], count=0), DB)
    assert not wrong.passed and wrong.reason == "1 row(s), expected 0"


def test_other_rows_fail_naming_the_first_difference():
    result = verdict(query("SELECT name FROM items ORDER BY id", equals=[["pen"], ["pad"], ["ink"]]), DB)
    assert not result.passed and result.reason == "row 2 differs: expected ['pad'], found ['ink']"
    fewer = verdict(query("SELECT name FROM items ORDER BY id", equals=[["pen"], ["ink"]]), DB)
    assert fewer.reason == "expected 2 row(s), found 3"
    text_for_number = verdict(query("SELECT count(*) FROM items", equals=[["3"]]), DB)
    assert not text_for_number.passed and text_for_number.found["rows"] == [[3]]


def test_params_take_placeholders():
    params = [{"name": "item", "kind": "choice", "choices": ["pad"]}]
    result = verdict(query("SELECT price FROM items WHERE name = ?", ["{{item}}"], equals=[[2.25]]), DB, params)
    assert result.passed, result.reason


@pytest.mark.parametrize(("files", "reason"), [
    ({}, "no such file"),
    ({"Documents/shop.db": "just some text, no database at all"}, "the file is not an SQLite database (file is not a database)"),
    ({"Documents/shop.db": database()[:100]}, "the file is not an SQLite database"),
])
def test_a_missing_or_damaged_file_fails_with_a_reason(files, reason):
    result = verdict(query("SELECT * FROM items", count=3), files)
    assert not result.passed and result.reason.startswith(reason)


@pytest.mark.parametrize(("sql", "reason"), [
    ("SELECT * FROM nowhere", "the query failed: no such table: nowhere"),
    ("SELECT date('now') WHERE ? = 'pen'", "the query was refused: date('now') is disabled: the database cannot read the clock"),
    ("SELECT datetime('2026-01-01', 'localtime') WHERE ? = 'pen'", "the query was refused: the 'localtime' modifier is disabled"),
    ("SELECT * FROM items WHERE name = ? AND price = ?", "the query failed: Incorrect number of bindings"),
])
def test_a_query_that_fails_or_is_refused_when_it_runs_fails_the_check(sql, reason):
    result = verdict(query(sql, ["pen"], count=1), DB)
    assert not result.passed and result.reason.startswith(reason), result.reason


def test_the_read_only_connection_refuses_writes_and_the_file_is_untouched():
    con, guard = connect(DB["Documents/shop.db"], read_only=True)
    with pytest.raises(sqlite3.DatabaseError):
        con.execute("DELETE FROM items")
    assert guard.reason == READ_ONLY_REASON
    con.close()
    world, instance = staged(procedure(query("SELECT * FROM items", count=3), DB), 0)
    before = world.machine("workstation").fs.read_path("/home/ada/Documents/shop.db")
    assert verify(world, instance).passed
    assert world.machine("workstation").fs.read_path("/home/ada/Documents/shop.db") == before


@pytest.mark.parametrize(("sql", "problem"), [
    ("DELETE FROM items", "a check only reads: the statement must start with SELECT or WITH, not 'DELETE'"),
    ("WITH x AS (SELECT 1) INSERT INTO items (name) SELECT * FROM x", "a check only reads: INSERT changes data"),
    ("WITH x AS (SELECT 1) REPLACE INTO items (name) SELECT * FROM x", "a check only reads: REPLACE INTO changes data"),
    ("SELECT 1; SELECT 2", "a check runs one statement"),
    ("ATTACH 'other.db' AS other", "a check only reads: the statement must start with SELECT or WITH, not 'ATTACH'"),
    ("SELECT random()", "random() is disabled"),
    ("SELECT CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP is disabled"),
    ("SELECT date()", "date() without a time value reads the clock"),
    ("SELECT 'unclosed", "the statement has a quote or a comment that is never closed"),
    ("  -- nothing\n", "the statement is empty"),
])
def test_a_statement_that_is_not_one_read_is_refused_at_its_path(sql, problem):
    error = refusal(query(sql, count=1))
    assert (error.file, error.path) == ("procedures/office/office-look.json", "$.verify[0].sqlite_query.sql")
    assert error.problem.startswith(problem), error.problem


def test_words_inside_literals_and_quoted_names_are_not_statements():
    parse_procedure(procedure(query("SELECT 'insert into', \"update\" FROM items -- delete\n", count=0)))


@pytest.mark.parametrize(("payload", "path", "problem"), [
    ({"sql": "SELECT 1"}, "$.verify[0].sqlite_query", "exactly one of equals, count, min_rows"),
    ({"sql": "SELECT 1", "count": 1, "equals": [[1]]}, "$.verify[0].sqlite_query", "(got equals, count)"),
    ({"sql": "SELECT 1", "count": -1}, "$.verify[0].sqlite_query.count", "count must be 0 or more"),
    ({"sql": "SELECT 1", "equals": [[True]]}, "$.verify[0].sqlite_query.equals[0][0]", "expected `int | float | str | null`, got `bool`"),
    ({"sql": "SELECT 1", "equals": [[1]], "where": {}}, "$.verify[0].sqlite_query", "unknown field `where`"),
])
def test_a_malformed_payload_is_refused_with_its_path(payload, path, problem):
    error = refusal({"sqlite_query": {"path": "Documents/shop.db", **payload}})
    assert error.path == path and problem in error.problem, (error.path, error.problem)


# -- image ---------------------------------------------------------------------------------


def png(im: Image.Image) -> bytes:
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def card() -> Image.Image:
    """40 x 30, white, a red rectangle over x 10..19 and y 5..14, a blue pixel at (39, 0)."""
    im = Image.new("RGB", (40, 30), WHITE)
    im.paste(RED, (10, 5, 20, 15))
    im.putpixel((39, 0), (0, 0, 255))
    return im


CARD = {"Pictures/card.png": png(card())}


def picture(**fields) -> dict:
    return {"image": {"path": "Pictures/card.png", **fields}}


def test_format_size_pixels_and_colours_pass():
    result = verdict(picture(
        format="PNG", width=40, height=30,
        pixels=[{"at": [10, 5], "color": "#ed1c24"}, {"at": [0, 0], "color": "#ffffffff"}],
        colors=[{"color": "#ed1c24", "rectangle": True, "min_width": 10, "min_height": 10, "min_share": 100 / 1200},
                {"color": "#ed1c24", "box": [0, 0, 10, 30], "max_share": 0}],
    ), CARD)
    assert result.passed, result.reason
    assert result.found["colors"][0] == {"color": "#ed1c24", "count": 100, "share": round(100 / 1200, 6), "span": [10, 5, 20, 15]}


def test_each_field_that_does_not_hold_is_a_reason():
    result = verdict(picture(format="JPEG", width=30, pixels=[{"at": [0, 0], "color": "#ed1c24"}]), CARD)
    assert not result.passed
    assert result.reason == (
        "the file is a PNG picture, expected JPEG; the picture is 40 × 30, expected width 30; "
        "the pixel at (0, 0) is #ffffff, expected #ed1c24 (tolerance 0)"
    )


def test_a_colour_tolerance_is_inclusive():
    files = {"Pictures/card.png": png(Image.new("RGB", (4, 4), (240, 31, 36)))}
    assert verdict(picture(pixels=[{"at": [1, 1], "color": "#ed1c24", "tolerance": 3}]), files).passed
    off = verdict(picture(pixels=[{"at": [1, 1], "color": "#ed1c24", "tolerance": 2}]), files)
    assert not off.passed and off.found["pixels"] == [{"at": [1, 1], "color": "#f01f24"}]


def test_share_edges_and_the_rectangle_shape():
    exact = 100 / 1200
    assert verdict(picture(colors=[{"color": "#ed1c24", "min_share": exact, "max_share": exact}]), CARD).passed
    above = verdict(picture(colors=[{"color": "#ed1c24", "min_share": 0.09}]), CARD)
    assert above.reason == "0.0833 of the picture is near #ed1c24, expected at least 0.09"
    assert verdict(picture(colors=[{"color": "#0000ff", "max_share": 0}]), CARD).reason == "0.0008 of the picture is near #0000ff, expected at most 0.0"
    assert verdict(picture(colors=[{"color": "#00ff00"}]), CARD).reason == "no pixel of the picture is near #00ff00 (tolerance 0)"
    notched = card()
    notched.putpixel((15, 10), WHITE)
    broken = verdict(picture(colors=[{"color": "#ed1c24", "rectangle": True}]), {"Pictures/card.png": png(notched)})
    assert broken.reason == "the pixels near #ed1c24 do not fill one rectangle: 99 of the 10 × 10 they span"
    small = verdict(picture(colors=[{"color": "#ed1c24", "min_width": 11}]), CARD)
    assert small.reason == "the pixels near #ed1c24 span 10 × 10, expected at least 11 wide"
    outside = verdict(picture(colors=[{"color": "#ed1c24", "box": [0, 0, 41, 30]}], pixels=[{"at": [40, 0], "color": "#ffffff"}]), CARD)
    assert outside.reason == "(40, 0) is outside the 40 × 30 picture; the box [0, 0, 41, 30] is not inside the 40 × 30 picture"


def test_whole_numbers_take_placeholders():
    params = [{"name": "size", "kind": "choice", "choices": [{"w": 40, "h": 30}]}]
    result = verdict(picture(width="{{#size.w}}", height="{{#size.h}}", pixels=[{"at": ["{{#size.h}}", 0], "color": "#ffffff"}]), CARD, params)
    assert result.passed, result.reason


def clockwise(im: Image.Image) -> Image.Image:
    """``im`` turned a quarter turn clockwise (Pillow's angles are counter-clockwise)."""
    return im.rotate(-90, expand=True)


def test_equals_turns_the_reference_clockwise():
    files = {"Pictures/card.png": png(clockwise(card())), "Pictures/original.png": png(card())}
    by_path = verdict(picture(equals={"path": "Pictures/original.png", "rotate": 90}), files)
    assert by_path.passed, by_path.reason
    assert by_path.found["equals"] == {"reference": [30, 40], "difference": 0.0}
    by_content = verdict(picture(equals={"content": data_url(png(card()), "image/png"), "rotate": 90}), files)
    assert by_content.passed, by_content.reason
    assert verdict(picture(equals={"path": "Pictures/card.png"}), files).passed
    half_turn = {"Pictures/card.png": png(clockwise(clockwise(card()))), "Pictures/original.png": png(card())}
    assert verdict(picture(equals={"path": "Pictures/original.png", "rotate": 180}), half_turn).passed
    other_way = verdict(picture(equals={"path": "Pictures/original.png", "rotate": 270}), files)
    assert not other_way.passed
    assert other_way.reason.startswith("the picture differs from the reference turned 270° clockwise: mean difference")
    unturned = verdict(picture(equals={"path": "Pictures/original.png"}), files)
    assert unturned.reason == "the picture is 30 × 40, the reference as it is is 40 × 30"


def test_the_mean_difference_tolerance_is_inclusive():
    base = Image.new("RGB", (2, 2), WHITE)
    nudged = base.copy()
    nudged.putpixel((0, 0), (247, 255, 255))  # 8 off in one of 2 x 2 x 4 channels: mean 0.5
    files = {"Pictures/card.png": png(nudged), "Pictures/original.png": png(base)}
    assert verdict(picture(equals={"path": "Pictures/original.png", "tolerance": 0.5}), files).passed
    close = verdict(picture(equals={"path": "Pictures/original.png", "tolerance": 0.49}), files)
    assert not close.passed and close.found["equals"]["difference"] == 0.5


def test_a_jpeg_is_read_and_compared_with_a_tolerance():
    out = io.BytesIO()
    card().save(out, "JPEG", quality=90)
    files = {"Pictures/card.jpg": out.getvalue(), "Pictures/original.png": png(card())}
    check = {"image": {"path": "Pictures/card.jpg", "format": "JPEG",
                       "pixels": [{"at": [15, 10], "color": "#ed1c24", "tolerance": 16}],
                       "equals": {"path": "Pictures/original.png", "tolerance": 8}}}
    result = verdict(check, files)
    assert result.passed, result.reason
    assert 0 < result.found["equals"]["difference"] <= 8
    again = verdict(check, files)
    assert again.found == result.found  # the same bytes decode to the same pixels


def gif() -> bytes:
    out = io.BytesIO()
    card().save(out, "GIF")
    return out.getvalue()


@pytest.mark.parametrize(("files", "reason"), [
    ({}, "no such file"),
    ({"Pictures/card.png": "not a picture"}, "the file is not a PNG or JPEG picture, or it is damaged"),
    ({"Pictures/card.png": png(card())[:60]}, "the file is not a PNG or JPEG picture, or it is damaged"),
    ({"Pictures/card.png": gif()}, "the file is not a PNG or JPEG picture, or it is damaged"),
])
def test_a_missing_or_damaged_picture_fails_with_a_reason(files, reason):
    result = verdict(picture(width=40), files)
    assert not result.passed and result.reason == reason


def test_a_missing_or_damaged_reference_fails_with_a_reason():
    missing = verdict(picture(equals={"path": "Pictures/gone.png"}), CARD)
    assert missing.reason == "the reference Pictures/gone.png does not exist"
    damaged = verdict(picture(equals={"content": data_url(b"GIF89a", "image/gif")}), CARD)
    assert damaged.reason == "the reference: the file is not a PNG or JPEG picture, or it is damaged"


@pytest.mark.parametrize(("fields", "path", "problem"), [
    ({"format": "GIF"}, "$.verify[0].image.format", "the format is one of PNG, JPEG"),
    ({"width": 0}, "$.verify[0].image.width", "width must be 1 or more"),
    ({"height": "30"}, "$.verify[0].image.height", "is a whole number or one {{#name}} placeholder"),
    ({"pixels": [{"at": [1], "color": "#ffffff"}]}, "$.verify[0].image.pixels[0].at", "a point is [x, y]"),
    ({"pixels": [{"at": [1, 1], "color": "#fff"}]}, "$.verify[0].image.pixels[0].color", "a colour is '#rrggbb' or '#rrggbbaa'"),
    ({"pixels": [{"at": [1, 1], "color": "#ffffff", "tolerance": 256}]}, "$.verify[0].image.pixels[0].tolerance", "a tolerance is 0 to 255"),
    ({"colors": [{"color": "#ffffff", "box": [5, 0, 5, 9]}]}, "$.verify[0].image.colors[0].box", "x0 < x1 and y0 < y1"),
    ({"colors": [{"color": "#ffffff", "min_share": 1.5}]}, "$.verify[0].image.colors[0].min_share", "a share is 0 to 1"),
    ({"colors": [{"color": "#ffffff", "min_share": 0.5, "max_share": 0.2}]}, "$.verify[0].image.colors[0].min_share", "min_share is more than max_share"),
    ({"colors": [{"colour": "#ffffff"}]}, "$.verify[0].image.colors[0]", "unknown field `colour`"),
    ({"equals": {"rotate": 90}}, "$.verify[0].image.equals", "exactly one of path or content"),
    ({"equals": {"path": "a.png", "rotate": 45}}, "$.verify[0].image.equals.rotate", "rotate is 0, 90, 180 or 270"),
    ({"equals": {"content": "iVBORw0KGgo="}}, "$.verify[0].image.equals.content", "content is a data URL"),
    ({"equals": {"path": "a.png", "tolerance": -1}}, "$.verify[0].image.equals.tolerance", "a tolerance is 0 to 255"),
])
def test_a_malformed_image_check_is_refused_with_its_path(fields, path, problem):
    error = refusal(picture(**fields))
    assert error.path == path and problem in error.problem, (error.path, error.problem)


# -- the library procedures that use them --------------------------------------------------


def library(name: str) -> dict:
    return json.loads((LIBRARY / f"{name}.json").read_text())


def writing_tool(data: dict) -> list[dict]:
    return next(phase["tool"] for phase in data["phases"] if phase.get("writes", True))


def test_the_database_insert_is_verified_by_query():
    data = library("apps-database-insert")
    assert [next(iter(check)) for check in data["verify"]] == ["sqlite_query", "sqlite_query", "find"]
    _world, _instance, demo = run_tool(data, 0)
    assert demo.verification.passed
    twice = copy.deepcopy(data)
    typed = next(step for step in writing_tool(twice) if step["op"] == "type")
    typed["payload"]["text"] *= 2  # the INSERT statement twice, run together
    _world, _instance, demo = run_tool(twice, 0)
    [failure] = demo.verification.failures()
    assert (failure.kind, failure.reason) == ("sqlite_query", "row 1 differs: expected [1], found [2]")


def test_the_photos_rotation_is_verified_clockwise_like_rotate_right():
    data = library("apps-photos-rotate")
    _world, _instance, demo = run_tool(data, 0)
    assert demo.verification.passed
    assert demo.verification.checks[0].found["equals"]["difference"] == 0.0
    left = copy.deepcopy(data)
    steps = writing_tool(left)
    [rotate] = [step for step in steps if step["payload"].get("key") == "Ctrl+r"]
    rotate["payload"]["key"] = "Ctrl+Shift+r"  # Rotate Left
    _world, _instance, demo = run_tool(left, 0)
    [failure] = demo.verification.failures()
    assert failure.kind == "image" and "turned 90° clockwise: mean difference" in failure.reason


def test_the_paint_picture_holds_a_filled_rectangle_of_the_colour():
    data = library("apps-paint-new")
    world, instance, demo = run_tool(data, 0)
    assert demo.verification.passed
    found = demo.verification.checks[0].found
    assert (found["width"], found["height"]) == (instance.params["size"]["w"], instance.params["size"]["h"])
    assert found["colors"][0]["color"] == instance.params["colour"]["hex"] and found["colors"][0]["count"] == 121 * 81
    outline = copy.deepcopy(data)
    for step in writing_tool(outline):
        if step["payload"].get("target", "").endswith("shape:filled"):
            step["payload"]["target"] = "window:0:content:shape:outline"
    world, instance = staged(outline, 0)
    from cwgym.procedures import project

    [failure] = project(world, instance, TOOL).verification.failures()
    assert failure.kind == "image" and "do not fill one rectangle" in failure.reason
