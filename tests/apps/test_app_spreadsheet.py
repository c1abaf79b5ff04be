"""The spreadsheet (LibreOffice Calc), driven only through the actor handle.

Controls are found in the scene by interaction id, role and label; cell values are read
from semantic.v1 (each visible cell is a ``gridcell`` whose value is what it shows); files
are checked through the owner's machine.
"""

from __future__ import annotations

import base64
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, bounds, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.machine.recent import recent
from cwgym.resources import load_world

W, H = 1280, 800
DOCS = "/home/ada/Documents"
EXPENSES = (
    "date,category,amount,vendor\n"
    "2026-09-01,travel,1280.00,Northwind Rail\n"
    "2026-09-03,meals,42.50,Cafe Lumen\n"
    "2026-09-07,office,310.99,Paper & Co\n"
    "2026-09-11,travel,96.20,City Taxi\n"
    "2026-09-14,software,120.00,Texthaus\n"
)


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("spreadsheet")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = w.environment(EnvironmentConfig.desktop("ada", [M]))
    payload = (
        {"kind": "spreadsheet"}
        if argument is None
        else {"kind": "spreadsheet", "argument": argument}
    )
    wid = ok(env, app("launch", **payload))["window"]
    return w, env, wid


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _t(target: str, wid: int = 0) -> str:
    return f"window:{wid}:content:{target}"


def _cell(env, name: str, wid: int = 0) -> str:
    """What a visible cell shows."""
    return _elements(env)[_t(f"cell:{name}", wid)]["value"]


def _field(env, target: str, wid: int = 0) -> str:
    return _elements(env)[_t(target, wid)]["value"]


def _title(env, wid: int = 0) -> str:
    return next(x for x in env.scene(W, H)["windows"] if x["id"] == wid)["title"]


def _centre(env, target: str, wid: int = 0) -> tuple[int, int]:
    b = bounds(env.scene(W, H), _t(target, wid))
    return b["x"] + b["width"] // 2, b["y"] + b["height"] // 2


def _click(env, target: str, wid: int = 0, **payload) -> dict:
    at = point(env.scene(W, H), _t(target, wid))
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H, **payload))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=_t(target, wid)))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _drag(env, start: tuple[int, int], end: tuple[int, int], **payload) -> None:
    ok(env, ptr("down", *start, width=W, height=H, **payload))
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    ok(env, ptr("move", *mid, width=W, height=H, **payload))
    ok(env, ptr("move", *end, width=W, height=H, **payload))
    ok(env, ptr("up", *end, width=W, height=H, **payload))


def _read(w: World, path: str) -> str:
    return w.machine(M).fs.read_path(path).decode()


def _focus(env) -> dict:
    return env.scene(W, H)["focus"]


# -- end to end ----------------------------------------------------------------------------


def test_open_a_csv_add_a_total_with_the_pointer_and_save_it():
    w, env, _wid = _open({"Documents/expenses.csv": EXPENSES}, f"{DOCS}/expenses.csv")
    assert _title(env) == "expenses.csv — LibreOffice Calc"
    assert env.scene(W, H)["windows"][0]["document"] == f"{DOCS}/expenses.csv"
    assert recent(w.machine(M))[0]["path"] == f"{DOCS}/expenses.csv"
    assert (
        _cell(env, "A1") == "date"
        and _cell(env, "C2") == "1280"
        and _cell(env, "D4") == "Paper & Co"
    )
    _click(env, "cell:A7")
    ok(env, type_("Total"))
    assert _field(env, "formula") == "Total"
    focus = _focus(env)
    assert (
        focus["interaction"] == _t("cell-editor")
        and focus["keyboard"]["text_entry"]
        and focus["caret"]["offset"] == 5
    )
    _keys(env, "Tab", "Tab")
    ok(env, type_("=sum(c2:c6"))
    _keys(env, "Enter")
    assert _cell(env, "C7") == "1849.69" and _cell(env, "A7") == "Total"
    _click(env, "cell:C7")
    assert _field(env, "formula") == "=SUM(C2:C6)"  # capitals and the closing parenthesis, as Calc
    assert _field(env, "name-box") == "C7"
    assert _title(env) == "• expenses.csv — LibreOffice Calc"
    _click(env, "save")
    assert _read(w, f"{DOCS}/expenses.csv") == EXPENSES + "Total,,1849.69,\n"
    assert _title(env) == "expenses.csv — LibreOffice Calc"
    assert "Saved “expenses.csv” (formulas as their values)." in _texts(env)


def test_every_toolbar_and_formula_bar_control_is_labelled():
    _w, env, _wid = _open()
    elements = _elements(env)
    for target, label in (
        ("open", "Open"),
        ("save", "Save"),
        ("save-as", "Save As…"),
        ("undo", "Undo"),
        ("redo", "Redo"),
        ("cut", "Cut"),
        ("copy", "Copy"),
        ("paste", "Paste"),
        ("fill-down", "Fill Down"),
        ("sort-asc", "Sort Ascending"),
        ("sort-desc", "Sort Descending"),
        ("autosum", "Sum"),
        ("corner", "Select All"),
        ("fill", "Fill handle"),
    ):
        assert (
            elements[_t(target)]["role"] == "button" and elements[_t(target)]["label"] == label
        ), target
    assert (
        elements[_t("name-box")]["role"] == "textbox" and elements[_t("name-box")]["value"] == "A1"
    )
    assert (
        elements[_t("formula")]["role"] == "textbox"
        and elements[_t("formula")]["label"] == "Formula"
    )
    assert (
        elements[_t("col:C")]["role"] == "columnheader"
        and elements[_t("row:3")]["role"] == "rowheader"
    )
    assert (
        elements[_t("cell:B3")]["role"] == "gridcell" and elements[_t("cell:B3")]["label"] == "B3"
    )
    assert elements[_t("undo")]["enabled"] is False
    assert env.scene(W, H)["windows"][0]["title"] == "Untitled 1 — LibreOffice Calc"
    focus = _focus(env)
    assert focus["interaction"] == _t("cell:A1") and focus["role"] == "gridcell"
    # unknown targets are refused
    for target in (
        "nope",
        "cell:BA1",
        "cell:a1",
        "col:BA",
        "row:0",
        "row:1001",
        "formula-accept",
        "open-path",
        "save-name",
    ):
        assert _shell(env, target)["error"]["reason"] == "unknown_shell_target", target


def test_keyboard_navigation_and_editing():
    _w, env, _wid = _open()
    ok(env, type_("12"))
    _keys(env, "Enter")  # commits and moves down
    ok(env, type_("30"))
    _keys(env, "Tab")  # commits and moves right
    assert _field(env, "name-box") == "B2"
    _keys(env, "ArrowLeft", "ArrowUp")
    assert _field(env, "name-box") == "A1" and _cell(env, "A1") == "12" and _cell(env, "A2") == "30"
    # typing replaces, Escape cancels
    ok(env, type_("99"))
    _keys(env, "Escape")
    assert _cell(env, "A1") == "12" and _field(env, "formula") == "12"
    # F2 edits in place, caret at the end
    _keys(env, "F2")
    ok(env, type_("5"))
    _keys(env, "ArrowLeft", "ArrowLeft")  # in edit mode the arrows move the caret
    ok(env, type_("-"))
    _keys(env, "Enter")
    assert _cell(env, "A1") == "1-25"
    # typed arrows in enter mode commit and move
    _keys(env, "ArrowUp")
    ok(env, type_("7"))
    _keys(env, "ArrowRight")
    assert _cell(env, "A1") == "7" and _field(env, "name-box") == "B1"
    # Delete clears the selection
    _keys(env, "ArrowLeft", "Shift+ArrowDown")
    assert _field(env, "name-box") == "A1:A2"
    _keys(env, "Delete")
    assert _cell(env, "A1") == "" and _cell(env, "A2") == ""
    # Ctrl+End, Ctrl+Home, Home
    _keys(env, "Ctrl+z")
    _keys(env, "Ctrl+End")
    assert _field(env, "name-box") == "A2"
    _keys(env, "Ctrl+Home")
    assert _field(env, "name-box") == "A1"


def test_a_typed_newline_and_tab_move_like_enter_and_tab():
    _w, env, _wid = _open()
    ok(env, type_("a\tb\tc\n"))
    assert [_cell(env, n) for n in ("A1", "B1", "C1")] == ["a", "b", "c"]
    assert _field(env, "name-box") == "A2"  # Enter after Tabs goes back to the first column
    ok(env, type_("d\n"))
    assert _field(env, "name-box") == "A3"


def test_double_click_and_formula_bar_edit_in_place():
    _w, env, _wid = _open()
    ok(env, type_("hello\n"))
    at = _centre(env, "cell:A1")
    ok(env, ptr("double_click", *at, width=W, height=H))
    focus = _focus(env)
    assert (
        focus["interaction"] == _t("cell-editor")
        and focus["value"] == "hello"
        and focus["caret"]["offset"] == 5
    )
    ok(env, type_("!"))
    _click(env, "formula-accept")
    assert _cell(env, "A1") == "hello!"
    # the formula bar edits the active cell
    _click(env, "formula")
    assert _focus(env)["interaction"] == _t("formula")
    _keys(env, "End")
    ok(env, type_("?"))
    assert _cell(env, "A1") == "hello!"  # nothing is written before Enter
    _click(env, "formula-cancel")
    assert _cell(env, "A1") == "hello!"
    ok(env, app("shell", target=_t("formula")))
    _keys(env, "End")
    ok(env, type_("?"))
    _keys(env, "Enter")
    assert _cell(env, "A1") == "hello!?" and _field(env, "name-box") == "A2"


def test_clicking_cells_while_typing_a_formula_inserts_references():
    _w, env, _wid = _open()
    ok(env, type_("4\n5\n6\n"))
    ok(env, type_("=SUM("))
    _drag(env, _centre(env, "cell:A1"), _centre(env, "cell:A3"))
    assert _focus(env)["value"] == "=SUM(A1:A3"
    ok(env, type_(")*"))
    _click(env, "cell:A2")
    _keys(env, "Enter")
    assert _cell(env, "A4") == "75"
    # point mode from the keyboard: an arrow after an operator picks the neighbour
    ok(env, type_("=1+"))
    _keys(env, "ArrowUp", "Shift+ArrowUp", "Enter")
    _keys(env, "ArrowUp")
    assert _field(env, "formula") == "=1+A3:A4"


def test_errors_show_as_calc_shows_them():
    _w, env, _wid = _open()
    for text in ("=1/0", "=nosuch(1)", "=ZZ1", '=1+"x"', "=B6", "=B5", "=(1+2", "=SQRT(-1)"):
        ok(env, type_(text + "\n"))
    assert [_cell(env, f"A{r}") for r in range(1, 9)] == [
        "#DIV/0!",
        "#NAME?",
        "#REF!",
        "#VALUE!",
        "0",
        "0",
        "3",  # a missing closing parenthesis is added on Enter
        "Err:502",
    ]
    _click(env, "cell:B6")
    ok(env, type_("=A5\n=B6+1\n"))  # A5 reads B6, which reads A5; B7 reads the circle
    assert [_cell(env, n) for n in ("A5", "B6", "B7", "A6")] == [
        "Err:522",
        "Err:522",
        "Err:522",
        "0",
    ]


def test_numbers_show_in_general_format():
    _w, env, _wid = _open()
    ok(env, type_("=0.1+0.2\n=1/3\n1.50\n=2^60\n=1/7*100000000\n=10^14\n=-1/3*10^300\n"))
    # the column is too narrow for 15 digits: fewer decimals, then a shorter mantissa
    shown = [_cell(env, f"A{r}") for r in range(1, 8)]
    assert shown == [
        "0.3",
        "0.3333333333",
        "1.5",
        "1.152922E+18",
        "14285714.286",
        "1E+14",
        "-3.33333E+299",
    ]
    # the formula bar keeps what was typed
    _click(env, "cell:A3")
    assert _field(env, "formula") == "1.50"


def test_range_selection_by_drag_shift_click_and_headers_and_the_status_sum():
    _w, env, _wid = _open()
    ok(env, type_("1\n2\n3\n"))
    _drag(env, _centre(env, "cell:A1"), _centre(env, "cell:B3"))
    assert _field(env, "name-box") == "A1:B3"
    assert "Average: 2; Sum: 6" in _texts(env)
    elements = _elements(env)
    assert elements[_t("cell:B2")]["selected"] is True and "selected" not in elements[_t("cell:C2")]
    assert elements[_t("col:B")]["selected"] is True and elements[_t("row:3")]["selected"] is True
    _click(env, "cell:A1")
    _click(env, "cell:A2", modifiers=["Shift"])
    assert _field(env, "name-box") == "A1:A2" and "Average: 1.5; Sum: 3" in _texts(env)
    _click(env, "col:B")
    assert _field(env, "name-box") == "B1:B1000"
    _click(env, "row:2")
    assert _field(env, "name-box") == "A2:AZ2"
    _click(env, "corner")
    assert _field(env, "name-box") == "A1:AZ1000"
    _keys(env, "Delete")
    assert _cell(env, "A1") == "" and _cell(env, "A3") == ""
    _keys(env, "Ctrl+z")
    assert _cell(env, "A3") == "3"


def test_the_name_box_goes_to_a_cell_or_range():
    _w, env, _wid = _open()
    _click(env, "name-box")
    assert _focus(env)["interaction"] == _t("name-box")
    ok(env, type_("d40"))
    _keys(env, "Enter")
    assert _field(env, "name-box") == "D40" and _t("cell:D40") in _elements(env)
    assert _t("cell:D1") not in _elements(env)  # scrolled: only the visible cells are painted
    ok(env, type_("deep\n"))
    ok(env, app("shell", target=_t("name-box")))
    ok(env, type_("B2:C3"))
    _keys(env, "Enter")
    assert _field(env, "name-box") == "B2:C3"
    ok(env, app("shell", target=_t("name-box")))
    ok(env, type_("nowhere"))
    _keys(env, "Enter")
    assert any(t.startswith("“nowhere” is not a cell or range") for t in _texts(env))
    alerts = [e for e in _elements(env).values() if e["role"] == "alert"]
    assert alerts and alerts[0]["label"].startswith("“nowhere”")
    _click(env, "message")  # a click dismisses it
    assert not [e for e in _elements(env).values() if e["role"] == "alert"]


def test_copy_cut_and_paste_ranges_as_tsv_with_references_moved():
    w, env, _wid = _open()
    ok(env, type_("1\t=A1*2\n2\t=A2*2\n"))  # after a Tab, Enter returns to column A
    assert _field(env, "name-box") == "A3"
    _keys(env, "ArrowUp", "ArrowUp", "Shift+ArrowDown", "Shift+ArrowRight")
    assert _field(env, "name-box") == "A1:B2"
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "1\t2\n2\t4"
    _click(env, "cell:D5")
    _keys(env, "Ctrl+v")
    assert [_cell(env, n) for n in ("D5", "E5", "D6", "E6")] == ["1", "2", "2", "4"]
    _click(env, "cell:E6")
    assert _field(env, "formula") == "=D6*2"
    # text from elsewhere is pasted as typed
    w.machine(M).clipboard = "x\ty\n=1+1\t3\n"
    _click(env, "cell:A10")
    _click(env, "paste")
    assert [_cell(env, n) for n in ("A10", "B10", "A11", "B11")] == ["x", "y", "2", "3"]
    # cut moves: the source is emptied at once and references are kept
    _click(env, "cell:B1")
    _click(env, "cut")
    assert _cell(env, "B1") == "" and w.machine(M).clipboard == "2"
    _click(env, "cell:C1")
    ok(env, app("shell", target=_t("paste")))
    _click(env, "cell:C1")
    assert _field(env, "formula") == "=A1*2"
    # one value pasted over a range fills it
    w.machine(M).clipboard = "z"
    _click(env, "cell:F1")
    _keys(env, "Shift+ArrowDown", "Shift+ArrowDown", "Ctrl+v")
    assert [_cell(env, f"F{r}") for r in (1, 2, 3)] == ["z", "z", "z"]
    # copy button
    _click(env, "cell:A10")
    _click(env, "copy")
    assert w.machine(M).clipboard == "x"


def test_fill_handle_drag_continues_series_and_moves_references():
    _w, env, _wid = _open()
    ok(env, type_("1\t=A1*10\tItem 1\n"))
    _click(env, "cell:A1")
    _keys(env, "Shift+ArrowRight", "Shift+ArrowRight")
    handle = _centre(env, "fill")
    target = _centre(env, "cell:C4")
    _drag(env, handle, (handle[0], target[1]))
    assert [_cell(env, f"A{r}") for r in range(1, 5)] == ["1", "2", "3", "4"]
    assert [_cell(env, f"B{r}") for r in range(1, 5)] == ["10", "20", "30", "40"]
    assert [_cell(env, f"C{r}") for r in range(1, 5)] == ["Item 1", "Item 2", "Item 3", "Item 4"]
    assert _field(env, "name-box") == "A1:C4"
    _click(env, "cell:B4")
    assert _field(env, "formula") == "=A4*10"
    # Ctrl copies instead of counting
    _click(env, "cell:E1")
    ok(env, type_("7\n"))
    _click(env, "cell:E1")
    handle = _centre(env, "fill")
    _drag(env, handle, (handle[0], _centre(env, "cell:E3")[1]), modifiers=["Ctrl"])
    assert [_cell(env, f"E{r}") for r in (1, 2, 3, 4)] == ["7", "7", "7", ""]
    # a press and release on the handle fills nothing; undo takes the fills back
    ok(env, ptr("click", *_centre(env, "fill"), width=W, height=H))
    assert _cell(env, "E4") == ""
    _keys(env, "Ctrl+z", "Ctrl+z", "Ctrl+z")  # the copy, the 7, the series
    assert _cell(env, "E1") == "" and _cell(env, "A2") == "" and _cell(env, "A1") == "1"


def test_fill_handle_right_and_a_two_number_step():
    _w, env, _wid = _open()
    ok(env, type_("5\t10\n"))
    _click(env, "cell:A1")
    _keys(env, "Shift+ArrowRight")
    handle = _centre(env, "fill")
    _drag(env, handle, (_centre(env, "cell:D1")[0], handle[1]))
    assert [_cell(env, n) for n in ("A1", "B1", "C1", "D1")] == ["5", "10", "15", "20"]


def test_fill_down_with_primary_d_and_the_toolbar():
    _w, env, _wid = _open()
    ok(env, type_("3\t=A1+1\n"))
    _click(env, "cell:A1")
    _keys(env, "Shift+ArrowRight", "Shift+ArrowDown", "Shift+ArrowDown")
    _keys(env, "Ctrl+d")  # copies the first row (no series)
    assert [_cell(env, f"A{r}") for r in (1, 2, 3)] == ["3", "3", "3"]
    assert [_cell(env, f"B{r}") for r in (1, 2, 3)] == ["4", "4", "4"]
    _click(env, "cell:B3")
    assert _field(env, "formula") == "=A3+1"
    # one row selected: the row above comes down
    _click(env, "cell:B4")
    _click(env, "fill-down")
    assert _field(env, "formula") == "=A4+1"


def test_sort_by_the_selected_column_keeps_the_header_row_and_undoes():
    w, env, _wid = _open({"Documents/expenses.csv": EXPENSES}, f"{DOCS}/expenses.csv")
    _click(env, "cell:E2")
    ok(env, type_("=C2*2\n"))
    _click(env, "cell:C3")
    _click(env, "sort-asc")
    assert [_cell(env, f"C{r}") for r in range(1, 7)] == [
        "amount",
        "42.5",
        "96.2",
        "120",
        "310.99",
        "1280",
    ]
    assert [_cell(env, f"D{r}") for r in range(2, 4)] == ["Cafe Lumen", "City Taxi"]
    assert _cell(env, "E6") == "2560"  # the formula travelled with its row, its reference moved
    _click(env, "cell:E6")
    assert _field(env, "formula") == "=C6*2"
    assert any(
        t.startswith("Sorted rows 2–6 by column C, ascending, keeping the header row 1")
        for t in _texts(env)
    )
    _click(env, "cell:B2")
    ok(env, app("shell", target=_t("sort-desc")))
    assert [_cell(env, f"B{r}") for r in range(1, 7)] == [
        "category",
        "travel",
        "travel",
        "software",
        "office",
        "meals",
    ]
    assert [_cell(env, f"D{r}") for r in (2, 3)] == [
        "City Taxi",
        "Northwind Rail",
    ]  # equal keys keep their order
    _keys(env, "Ctrl+z", "Ctrl+z")
    assert [_cell(env, f"C{r}") for r in range(2, 7)] == ["1280", "42.5", "310.99", "96.2", "120"]
    _keys(env, "Ctrl+y")
    assert _cell(env, "C2") == "42.5"
    _click(env, "save")
    lines = _read(w, f"{DOCS}/expenses.csv").splitlines()
    assert lines[0] == "date,category,amount,vendor,"
    assert lines[1] == "2026-09-03,meals,42.50,Cafe Lumen,"
    assert lines[5] == "2026-09-01,travel,1280.00,Northwind Rail,2560"


def test_sort_without_a_header_row_sorts_every_row():
    _w, env, _wid = _open()
    ok(env, type_("pear\nApple\n10\nfig\n2\n"))
    _click(env, "cell:A1")
    _click(env, "sort-asc")
    assert [_cell(env, f"A{r}") for r in range(1, 6)] == ["2", "10", "Apple", "fig", "pear"]


def test_undo_and_redo_of_edits_by_keys_and_toolbar():
    _w, env, _wid = _open()
    ok(env, type_("a\nb\n"))
    _keys(env, "Ctrl+z")
    assert _cell(env, "A2") == "" and _field(env, "name-box") == "A2"
    _click(env, "undo")
    assert _cell(env, "A1") == ""
    assert _elements(env)[_t("undo")]["enabled"] is False
    _click(env, "redo")
    _keys(env, "Ctrl+Shift+z")
    assert _cell(env, "A1") == "a" and _cell(env, "A2") == "b"


def test_save_as_dialog_writes_csv_or_the_native_format_and_reopens_formulas():
    w, env, _wid = _open()
    ok(env, type_("2\n=A1*21\n"))
    _keys(env, "Ctrl+s")  # untitled: Save As
    elements = _elements(env)
    assert (
        elements[_t("save-name")]["value"] == "Untitled 1.csv"
        and elements[_t("save-folder")]["value"] == "~/Documents"
    )
    assert _focus(env)["interaction"] == _t("save-name")
    ok(env, type_("answer"))  # the name without its extension is selected
    _keys(env, "Enter")
    assert _read(w, f"{DOCS}/answer.csv") == "2\n42\n"
    assert _title(env) == "answer.csv — LibreOffice Calc"
    # Save As to the native format keeps the formulas
    _click(env, "save-as")
    _click(env, "save-name")
    _keys(env, "Ctrl+a")
    ok(env, type_("answer.cwsheet"))
    _click(env, "save-confirm")
    doc = json.loads(_read(w, f"{DOCS}/answer.cwsheet"))
    assert doc == {"cells": {"A1": "2", "A2": "=A1*21"}, "format": "cwsheet", "version": 1}
    assert recent(w.machine(M))[0]["path"] == f"{DOCS}/answer.cwsheet"
    _w2, env2, _ = _open(
        {"Documents/answer.cwsheet": _read(w, f"{DOCS}/answer.cwsheet")},
        "~/Documents/answer.cwsheet",
    )
    assert _cell(env2, "A2") == "42"
    # refusals inside the dialog
    _click(env, "save-as")
    _click(env, "save-name")
    _keys(env, "Ctrl+a")
    ok(env, type_("report.xlsx"))
    _click(env, "save-confirm")
    assert any("xlsx is not written here" in t for t in _texts(env))
    _click(env, "save-name")
    _keys(env, "Ctrl+a")
    ok(env, type_("a/b.csv"))
    _click(env, "save-confirm")
    assert "A file name cannot contain “/”." in _texts(env)
    _click(env, "save-cancel")
    assert _t("save-name") not in _elements(env)


def test_malformed_csv_shows_an_error_naming_the_line_and_changes_nothing():
    latin1 = base64.b64encode(b"a,b\n1,2\ncaf\xe9,3\n").decode()
    bad = {
        "Documents/quote.csv": 'a,b\n1,"open\n2,3\n',
        "Documents/latin.csv": f"data:text/csv;base64,{latin1}",
        "Documents/stray.csv": 'a,"b"c\n',
    }
    w = _world(bad)
    env = w.environment(EnvironmentConfig.desktop("ada", [M]))
    ok(env, app("launch", kind="spreadsheet", argument=f"{DOCS}/quote.csv"))
    assert "Could not open “quote.csv”: line 2: a quoted field is not closed." in _texts(env)
    assert _title(env) == "Untitled 1 — LibreOffice Calc" and _cell(env, "A1") == ""
    alerts = [e for e in _elements(env).values() if e["role"] == "alert"]
    assert alerts and "line 2" in alerts[0]["label"]
    # from the open bar: the sheet stays as it was
    ok(env, type_("keep\n"))
    _click(env, "open")
    assert _focus(env)["interaction"] == _t("open-path")
    ok(env, type_("~/Documents/latin.csv"))
    _keys(env, "Enter")
    assert "Could not open “latin.csv”: line 3 is not UTF-8 text." in _texts(env)
    assert _cell(env, "A1") == "keep"
    ok(env, app("shell", target=_t("open-path")))
    _keys(env, "Ctrl+a")
    ok(env, type_("~/Documents/stray.csv"))
    _click(env, "open-confirm")
    assert (
        "Could not open “stray.csv”: line 1: a quote inside a quoted field must be doubled."
        in _texts(env)
    )
    assert w.machine(M).fs.read_path(f"{DOCS}/quote.csv") == b'a,b\n1,"open\n2,3\n'
    _click(env, "open-cancel")
    assert _t("open-path") not in _elements(env)


def test_too_big_files_and_other_formats_are_refused_in_the_window():
    wide = ",".join(["x"] * 53) + "\n"
    long_cell = "a," + "y" * 1001 + "\n"
    _w, env, _wid = _open({"Documents/wide.csv": wide, "Documents/long.csv": long_cell})
    ok(env, key("Ctrl+o"))
    ok(env, type_("~/Documents/wide.csv"))
    _keys(env, "Enter")
    assert any("line 1: a sheet has at most 52 columns" in t for t in _texts(env))
    ok(env, app("shell", target=_t("open-path")))
    _keys(env, "Ctrl+a")
    ok(env, type_("~/Documents/long.csv\n"))
    assert any("line 1: a cell holds at most 1000 characters" in t for t in _texts(env))
    assert (
        one(env, app("launch", kind="spreadsheet", argument=DOCS))["error"]["code"]
        == "action_failed"
    )


def test_a_missing_file_opens_empty_and_is_created_on_save():
    w, env, _wid = _open(argument="~/Documents/new.csv")
    assert _title(env) == "new.csv — LibreOffice Calc"
    assert "“new.csv” is new: it is created when you save." in _texts(env)
    ok(env, type_("x,y\n"))
    _keys(env, "Ctrl+s")
    assert _read(w, f"{DOCS}/new.csv") == '"x,y"\n'


def test_opening_another_file_keeps_this_sheet_and_opens_a_window():
    _w, env, _wid = _open({"Documents/expenses.csv": EXPENSES})
    ok(env, type_("mine\n"))
    _click(env, "open")
    ok(env, type_("~/Documents/expenses.csv"))
    _click(env, "open-confirm")
    scene = env.scene(W, H)
    titles = sorted(x["title"] for x in scene["windows"])
    assert titles == ["expenses.csv — LibreOffice Calc", "• Untitled 1 — LibreOffice Calc"]


def test_caps_are_refused_as_invalid_before_changing_anything():
    _w, env, _wid = _open()
    out = one(env, type_("y" * 1001))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _cell(env, "A1") == "" and _focus(env)["interaction"] == _t("cell:A1")
    ok(env, type_("y" * 1000))
    assert not one(env, type_("z"))["success"]
    _keys(env, "Enter")
    _keys(env, "ArrowUp")
    assert _field(env, "formula") == "y" * 1000
    # pasting past the sheet's end
    ok(env, app("shell", target=_t("name-box")))
    ok(env, type_("AZ1000\n"))
    _w.machine(M).clipboard = "a\tb"
    out = one(env, key("Ctrl+v"))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _cell(env, "AZ1000") == ""


def test_wheel_and_scroll_bars_scroll_the_grid():
    _w, env, _wid = _open()
    at = _centre(env, "cell:C5")
    ok(env, ptr("wheel", *at, delta_y=240, width=W, height=H))  # 3 rows a notch
    elements = _elements(env)
    assert _t("cell:A7") in elements and _t("cell:A6") not in elements
    scrolls = {s["target"]: s for s in env.scene(W, H)["scrolls"]}
    assert scrolls[_t("pane:grid")]["offset"] == 6 * 24 and scrolls[_t("pane:cols")]["horizontal"]
    ok(env, ptr("wheel", *at, delta_y=120, modifiers=["Shift"], width=W, height=H))
    elements = _elements(env)
    assert _t("cell:D7") in elements and _t("cell:C7") not in elements
    # the vertical bar pages from the shell and drags with the pointer
    bar = next(
        e for e in _elements(env).values() if e["role"] == "scrollbar" and e["label"] == "Rows"
    )
    ok(env, app("shell", target=bar["id"]))
    assert _t("cell:D7") not in _elements(env)
    b = bar["bounds"]
    _drag(env, (b["x"] + 5, b["y"] + 40), (b["x"] + 5, b["y"] + b["height"] - 2))
    assert _t("cell:D1000") in _elements(env)
    # keys bring the active cell back into view
    _keys(env, "Ctrl+Home")
    assert _t("cell:A1") in _elements(env)


def test_autosum_proposes_the_numbers_above():
    _w, env, _wid = _open()
    ok(env, type_("label\n4\n5\n6\n"))
    _click(env, "autosum")
    focus = _focus(env)
    assert focus["value"] == "=SUM(A2:A4)"
    _keys(env, "Enter")
    assert _cell(env, "A5") == "15"


def test_closing_with_unsaved_changes_asks():
    w, env, _wid = _open({"Documents/expenses.csv": EXPENSES}, f"{DOCS}/expenses.csv")
    ok(env, type_("changed\n"))
    ok(env, app("close", window=0))
    elements = _elements(env)
    assert (
        elements[_t("close-save")]["label"] == "Save"
        and elements[_t("close-discard")]["label"] == "Don't Save"
    )
    _click(env, "close-cancel")
    assert len(env.scene(W, H)["windows"]) == 1
    ok(env, key("Ctrl+w"))
    _click(env, "close-save")
    assert env.scene(W, H).get("windows", []) == []
    assert _read(w, f"{DOCS}/expenses.csv").startswith("changed,category")


def test_a_keystroke_stays_cheap():
    rows = "".join(f"{r},=A{r + 1}*2,item {r}\n" for r in range(1, 301))
    _w, env, _wid = _open({"Documents/big.csv": rows}, f"{DOCS}/big.csv")
    env.scene(W, H)
    start = time.perf_counter()
    for _ in range(10):
        ok(env, type_("x"))
        env.scene(W, H)
    elapsed = (time.perf_counter() - start) / 10
    assert elapsed < 0.25, elapsed


def test_ctrl_arrows_page_keys_and_select_all():
    _w, env, _wid = _open()
    ok(env, type_("1\n2\n3\n"))
    _keys(env, "Ctrl+Home", "Ctrl+ArrowDown")
    assert _field(env, "name-box") == "A3"  # the end of the block
    _keys(env, "Ctrl+ArrowDown")
    assert _field(env, "name-box") == "A1000"  # no more data: the sheet's edge
    _keys(env, "Ctrl+ArrowUp")
    assert _field(env, "name-box") == "A3"
    _keys(env, "Ctrl+Shift+ArrowUp")
    assert _field(env, "name-box") == "A1:A3"
    _keys(env, "PageDown")
    row = int(_field(env, "name-box")[1:])
    assert row > 20 and _t(f"cell:A{row}") in _elements(env) and _t("cell:A1") not in _elements(env)
    _keys(env, "PageUp", "End")
    assert _field(env, "name-box") == "A1"
    _keys(env, "Ctrl+a")
    assert _field(env, "name-box") == "A1:AZ1000"


def test_csv_text_that_looks_like_a_formula_stays_text_and_round_trips():
    text = 'name,note\nx,=1+1\ny,\'quoted\n"a, b",TRUE\n'
    w, env, _wid = _open({"Documents/odd.csv": text}, f"{DOCS}/odd.csv")
    assert (
        _cell(env, "B2") == "=1+1" and _cell(env, "B3") == "'quoted" and _cell(env, "A4") == "a, b"
    )
    assert _cell(env, "B4") == "TRUE"
    _click(env, "cell:C1")
    ok(env, type_("'007\n"))  # an apostrophe keeps a number as text
    assert _cell(env, "C1") == "007"
    _keys(env, "Ctrl+s")
    assert _read(w, f"{DOCS}/odd.csv") == 'name,note,007\nx,=1+1,\ny,\'quoted,\n"a, b",TRUE,\n'


def test_tsv_files_and_bad_native_files():
    w, env, _wid = _open(
        {
            "Documents/t.tsv": "a\tb\n1\t2\n",
            "Documents/bad.cwsheet": '{"format": "cwsheet", "version": 1, "cells": {"A0": "x"}}',
        },
        f"{DOCS}/t.tsv",
    )
    assert _cell(env, "B2") == "2"
    ok(env, type_("=A2+B2\n"))
    ok(env, key("Ctrl+s"))
    assert _read(w, f"{DOCS}/t.tsv") == "3\tb\n1\t2\n"
    ok(env, key("Ctrl+Shift+s"))
    assert _elements(env)[_t("save-name")]["value"] == "t.tsv"
    _keys(env, "Escape")
    ok(env, app("launch", kind="spreadsheet", argument=f"{DOCS}/bad.cwsheet"))
    assert any(
        t.startswith("Could not open “bad.cwsheet”: line 1: “A0” is not a cell")
        for t in _texts(env)
    )
    assert (
        one(env, app("launch", kind="spreadsheet", argument=f"{DOCS}/report.xlsx"))["error"]["code"]
        == "action_failed"
    )
