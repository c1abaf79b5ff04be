"""The Text Editor window, driven only through the actor handle (pointer, keyboard, application).

Controls are found in the scene (by interaction, role and label, by painted line
provenance), never by coordinates written into the test; files are checked through the
owner's machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _textpane as tp
from cwgym.resources import load_world
from cwgym.scene.text_lines import TextLine, join_lines

W, H = 1280, 800
NOTES = "Call the printer vendor about the jam on floor 2.\nBook the meeting room for Thursday."
LONG = "The quick brown fox jumps over the lazy dog and keeps running past the edge of the window " * 3


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    return w.environment(EnvironmentConfig.desktop("ada", [M]))


def _scene(env) -> dict:
    return env.scene(W, H)


def _focus(env) -> dict:
    return _scene(env)["focus"]


def _title(env, wid: int = 0) -> str:
    return next(x for x in _scene(env)["windows"] if x["id"] == wid)["title"]


def _buffer(env, wid: int = 0) -> dict:
    return next(b for b in _scene(env)["buffers"] if b["handle"] == f"window:{wid}:editor")


def _text(env) -> str:
    return "\n".join(_buffer(env)["lines"])


def _elements(env) -> dict[str, dict]:
    view = env.observe()["channels"]["semantic.v1"][M]
    return {e["id"]: e for e in view["elements"]}


def _texts(env) -> list[str]:
    """Every run of text on screen, as semantic.v1 lists them."""
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _click(env, target: str, **payload) -> dict:
    at = point(_scene(env), target)
    assert at is not None, f"{target} cannot be reached"
    return one(env, ptr("click", *at, width=W, height=H, **payload))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _screen(node: dict) -> tuple[int, int, int, int]:
    b, t = node["bounds"], node["transform"]
    return b["x"] + t["tx"], b["y"] + t["ty"], b["width"], b["height"]


def _rows(scene: dict, wid: int = 0) -> list[dict]:
    rows = [n for n in scene["nodes"] if n.get("line") and n.get("window") == wid and n["line"].get("pane")]
    return sorted(rows, key=lambda n: _screen(n)[1])


def _cell(env, logical: int, col: int, *, offset: int = 0) -> tuple[int, int]:
    """A point on the boundary before character ``col`` of the row starting at ``offset``."""
    row = next(n for n in _rows(_scene(env)) if n["line"]["logical"] == logical and n["line"]["offset"] == offset)
    x, y, _w, h = _screen(row)
    cw, _ch = tp.grid()
    return x + (col - offset) * cw + 1, y + h // 2


def _clipboard(w: World) -> str:
    return w.machine(M).clipboard


def _launch(env, argument: str | None = None) -> int:
    payload = {"kind": "editor"} if argument is None else {"kind": "editor", "argument": argument}
    return ok(env, app("launch", **payload))["window"]


# -- end to end ----------------------------------------------------------------------------


def test_write_a_note_and_save_it_through_the_save_as_dialog():
    w = _world()
    env = _env(w)
    at = point(_scene(env), "shell:launch:editor")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    assert _title(env) == "Untitled Document 1"
    assert _focus(env)["keyboard"]["route"] == "editor" and _focus(env)["keyboard"]["text_entry"]
    ok(env, type_("Remember the milk"))
    _keys(env, "Enter")
    ok(env, type_("and the eggs"))
    assert _title(env) == "• Untitled Document 1"
    out = one(env, key("Ctrl+S"))
    assert out["success"]
    elements = _elements(env)
    name = elements["window:0:content:save-name"]
    assert name["role"] == "textbox" and name["label"] == "Name" and name["focused"] and name["value"] == "Untitled Document 1.txt"
    assert elements["window:0:content:save-folder"]["value"] == "~/Documents"
    assert elements["window:0:content:save-confirm"]["label"] == "Save"
    ok(env, type_("note.txt"))  # the proposed name is selected: typing replaces it
    _keys(env, "Tab")
    ok(env, type_("~"))
    out = one(env, key("Enter"))
    assert sorted(out["effect"]["changed"]) == ["content", "document", "focus", "window.title"]
    assert w.machine(M).fs.read_path("/home/ada/note.txt") == b"Remember the milk\nand the eggs\n"
    scene = _scene(env)
    assert scene["windows"][0]["title"] == "note.txt" and scene["windows"][0]["document"] == "/home/ada/note.txt"
    # later saves go straight to the file
    ok(env, type_("!"))
    assert _title(env) == "• note.txt"
    _click(env, "window:0:content:save")
    assert w.machine(M).fs.read_path("/home/ada/note.txt") == b"Remember the milk\nand the eggs!\n"
    assert _title(env) == "note.txt"


def test_save_as_dialog_controls_by_pointer_and_its_refusals():
    w = _world()
    env = _env(w)
    _launch(env)
    ok(env, type_("draft"))
    _click(env, "window:0:content:save-as")
    _click(env, "window:0:content:save-name")
    _keys(env, "Ctrl+A")
    ok(env, type_("a/b"))
    _click(env, "window:0:content:save-confirm")
    assert "A file name cannot contain “/”." in _texts(env)
    _click(env, "window:0:content:save-name")
    _keys(env, "Ctrl+A")
    ok(env, type_("draft.txt"))
    _click(env, "window:0:content:save-folder")
    _keys(env, "Ctrl+A")
    ok(env, type_("~/Nowhere"))
    _click(env, "window:0:content:save-confirm")
    assert "There is no folder “~/Nowhere”." in _texts(env)
    # while the dialog is open, the window's other controls do not answer
    assert one(env, app("shell", target="window:0:content:find"))["error"]["reason"] == "unknown_shell_target"
    _click(env, "window:0:content:save-cancel")
    assert "window:0:content:save-name" not in _elements(env)
    ok(env, app("shell", target="window:0:content:save-as"))
    ok(env, app("shell", target="window:0:content:save-confirm"))  # Untitled Document 1.txt in ~/Documents
    assert w.machine(M).fs.read_path("/home/ada/Documents/Untitled Document 1.txt") == b"draft\n"


def test_opening_a_file_given_as_the_argument():
    env = _env(_world())
    _launch(env, "/home/ada/notes.txt")
    scene = _scene(env)
    assert scene["windows"][0]["title"] == "notes.txt" and scene["windows"][0]["document"] == "/home/ada/notes.txt"
    buf = _buffer(env)
    assert buf["lines"] == NOTES.split("\n") and buf["kind"] == "editor" and buf["first_visible"] == 0 and buf["visible"] == 2
    focus = scene["focus"]
    assert focus["caret"]["offset"] == 0 and focus["value"] == NOTES and focus["role"] == "textbox"
    # a missing file opens empty and is created on saving; a folder is refused
    _launch(env, "/home/ada/new.txt")
    assert _title(env, 1) == "new.txt" and _buffer(env, 1)["lines"] == [""]
    assert one(env, app("launch", kind="text_editor", argument="/home/ada/Documents"))["error"]["code"] == "action_failed"


def test_every_control_is_in_the_accessibility_tree_with_a_label():
    env = _env(_world())
    _launch(env, "/home/ada/notes.txt")
    elements = _elements(env)
    labels = {e["label"]: e["role"] for e in elements.values() if e.get("window") == 0}
    for label in ("Open", "Save", "Save As…", "Find", "Undo", "Redo", "Close"):
        assert labels[label] == "button"
    assert labels["notes.txt"] == "textbox"
    assert elements["window:0:content:undo"]["enabled"] is False
    ok(env, key("Ctrl+F"))
    ok(env, key("Ctrl+O"))  # one bar at a time
    elements = _elements(env)
    assert elements["window:0:content:open-path"]["label"] == "File to open" and "window:0:content:find-field" not in elements


# -- caret and selection -------------------------------------------------------------------


def test_caret_moves_by_keys():
    env = _env(_world())
    _launch(env, "/home/ada/notes.txt")

    def caret():
        c = _focus(env)["caret"]
        return c["line"], c["column"], c["offset"]

    first, second = NOTES.split("\n")
    _keys(env, "End")
    assert caret() == (0, len(first), len(first))
    _keys(env, "ArrowDown")
    assert caret() == (1, len(second), len(NOTES))  # the goal column clamps to the shorter line...
    _keys(env, "ArrowUp")
    assert caret() == (0, len(first), len(first))  # ...and is kept
    _keys(env, "Home", "ArrowRight", "ArrowRight")
    assert caret() == (0, 2, 2)
    _keys(env, "Ctrl+ArrowRight", "Ctrl+ArrowRight")
    assert caret() == (0, 8, 8)
    _keys(env, "Ctrl+End")
    assert caret() == (1, len(second), len(NOTES))
    _keys(env, "Ctrl+Home", "PageDown")
    assert caret()[0] == 1
    _keys(env, "PageUp")
    assert caret() == (0, 0, 0)
    _keys(env, "ArrowLeft")
    assert caret() == (0, 0, 0)
    # the caret is the cell at the insertion point
    _keys(env, "ArrowRight", "ArrowRight", "ArrowRight")
    row = _rows(_scene(env))[0]
    x, y, _w, _h = _screen(row)
    cw, ch = tp.grid()
    assert _focus(env)["caret"]["bounds"] == {"x": x + 3 * cw, "y": y, "width": cw, "height": ch}


def test_shift_extends_and_ctrl_a_selects_all():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    _keys(env, "Shift+End", "Ctrl+C")
    assert _clipboard(w) == "Call the printer vendor about the jam on floor 2."
    _keys(env, "Home", "Ctrl+Shift+ArrowRight", "Shift+ArrowRight", "Ctrl+Shift+ArrowRight", "Ctrl+C")
    assert _clipboard(w) == "Call the"
    _keys(env, "Shift+ArrowDown", "Ctrl+C")
    assert _clipboard(w).startswith("Call the printer") and _clipboard(w).endswith("\nBook the")
    _keys(env, "Ctrl+A", "Ctrl+C")
    assert _clipboard(w) == NOTES
    _keys(env, "Ctrl+End", "Shift+Home", "Ctrl+C")
    assert _clipboard(w) == "Book the meeting room for Thursday."
    _keys(env, "Shift+PageUp", "Ctrl+C")
    assert _clipboard(w) == NOTES


def test_pointer_places_the_caret_drags_select_and_repeated_presses_pick_words_and_lines():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    ok(env, ptr("click", *_cell(env, 1, 5), width=W, height=H))
    assert _focus(env)["caret"]["offset"] == len("Call the printer vendor about the jam on floor 2.\n") + 5
    start, end = _cell(env, 0, 5), _cell(env, 0, 16)
    ok(env, ptr("down", *start))
    assert one(env, ptr("move", *end))["value"] == {"cursor": "text"}
    ok(env, ptr("up", *end))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "the printer"
    at = _cell(env, 0, 11)
    ok(env, ptr("click", *at))
    ok(env, ptr("click", *at))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "printer"
    for _ in range(3):  # keys between presses start the count again
        ok(env, ptr("click", *at))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "Call the printer vendor about the jam on floor 2."
    # a drag by words after a double click
    ok(env, key("ArrowRight"))
    ok(env, ptr("click", *at))
    ok(env, ptr("down", *at))
    ok(env, ptr("move", *_cell(env, 0, 19)))
    ok(env, ptr("up", *_cell(env, 0, 19)))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "printer vendor"


def test_cut_copy_paste_through_the_machine_clipboard_and_the_context_menu():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    _keys(env, "Shift+End")
    out = one(env, key("Ctrl+X"))
    assert sorted(out["effect"]["changed"]) == ["clipboard", "content", "window.title"]
    assert _clipboard(w) == "Call the printer vendor about the jam on floor 2."
    assert _buffer(env)["lines"] == ["", "Book the meeting room for Thursday."]
    _keys(env, "Ctrl+End", "Enter", "Ctrl+V")
    assert _buffer(env)["lines"][-1] == "Call the printer vendor about the jam on floor 2."
    w.machine(M).clipboard = "pasted "
    _keys(env, "Ctrl+Home", "Shift+Insert")
    assert _buffer(env)["lines"][0] == "pasted "
    # the context menu (secondary button on the text)
    at = _cell(env, 1, 0)
    ok(env, ptr("down", *at, button=2))
    ok(env, ptr("up", *at, button=2))
    items = {e["label"]: e for e in _elements(env).values() if e["role"] == "menuitem"}
    assert set(items) == {"Undo", "Redo", "Cut", "Copy", "Paste", "Delete", "Select All"}
    assert items["Copy"]["enabled"] is False and items["Paste"]["enabled"] is True
    _click(env, "window:0:content:menu:select-all")
    ok(env, ptr("down", *at, button=2))
    ok(env, ptr("up", *at, button=2))
    _click(env, "window:0:content:menu:copy")
    assert _clipboard(w) == _text(env)
    ok(env, app("shell", target="window:0:content:menu:delete"))
    assert _buffer(env)["lines"] == [""]
    ok(env, app("shell", target="window:0:content:menu:undo"))
    assert _text(env) == _clipboard(w)


def test_typing_enter_tab_backspace_and_delete():
    env = _env(_world())
    _launch(env)
    ok(env, type_("ab"))
    _keys(env, "Tab", "c", "Enter", "D", "Space")
    assert _buffer(env)["lines"] == ["ab\tc", "D "]
    _keys(env, "Backspace", "Ctrl+Home", "Delete")
    assert _buffer(env)["lines"] == ["b\tc", "D"]
    _keys(env, "End", "Ctrl+Backspace")
    assert _buffer(env)["lines"] == ["b\t", "D"]
    # a tab shows as the spaces up to the next stop of 8 cells, the buffer keeps the tab
    row = _rows(_scene(env))[0]
    assert row["primitive"]["text"] == "b       " and row["primitive"]["font"] == "mono"


def test_undo_and_redo_group_typing_by_words():
    env = _env(_world())
    _launch(env)
    for ch in "ab cd":
        ok(env, key("Space" if ch == " " else ch))
    _keys(env, "Backspace", "Backspace")
    assert _text(env) == "ab "
    _keys(env, "Ctrl+Z")
    assert _text(env) == "ab cd"
    _keys(env, "Ctrl+Z")
    assert _text(env) == "ab "
    _keys(env, "Ctrl+Z")
    assert _text(env) == ""
    assert _title(env) == "Untitled Document 1"
    _keys(env, "Ctrl+Y")
    assert _text(env) == "ab "
    _keys(env, "Ctrl+Shift+Z")
    assert _text(env) == "ab cd"
    ok(env, type_(" whole phrase"))  # one typed text is one step
    _keys(env, "Ctrl+Z")
    assert _text(env) == "ab cd"
    _click(env, "window:0:content:undo")
    _click(env, "window:0:content:redo")
    assert _text(env) == "ab cd"
    # an edit after undoing drops what could be redone
    _keys(env, "Ctrl+Z", "x")
    assert _elements(env)["window:0:content:redo"]["enabled"] is False


def test_find_bar_goes_from_match_to_match():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    out = one(env, key("Ctrl+F"))
    assert "focus" in out["effect"]["changed"]
    field = _elements(env)["window:0:content:find-field"]
    assert field["role"] == "textbox" and field["label"] == "Find" and field["focused"]
    ok(env, type_("THE"))  # case-insensitive, found as you type
    texts = _texts(env)
    assert "1 of 3" in texts
    _keys(env, "Enter")
    assert "2 of 3" in _texts(env)
    _keys(env, "Enter", "Enter")  # wraps around
    assert "1 of 3" in _texts(env)
    _keys(env, "Shift+Enter")
    assert "3 of 3" in _texts(env)
    _click(env, "window:0:content:find-previous")
    _click(env, "window:0:content:find-next")
    assert "3 of 3" in _texts(env)
    _keys(env, "Escape")
    assert "window:0:content:find-field" not in _elements(env)
    assert _focus(env)["interaction"].startswith("window:0:content:editor-text:")
    _keys(env, "Ctrl+C")
    assert _clipboard(w) == "the"
    _click(env, "window:0:content:find")
    ok(env, type_("zebra"))
    assert "No results" in _texts(env)
    _click(env, "window:0:content:find-close")
    assert "window:0:content:find-field" not in _elements(env)


def test_open_bar_opens_another_file():
    env = _env(_world())
    _launch(env)
    _click(env, "window:0:content:open")
    ok(env, type_("~/Documents/missing.txt"))
    _keys(env, "Enter")
    texts = _texts(env)
    assert "Could not open “~/Documents/missing.txt”: No such file or directory" in texts
    _click(env, "window:0:content:open-path")
    _keys(env, "Ctrl+A")
    ok(env, type_("Documents/todo.txt"))
    _click(env, "window:0:content:open-confirm")
    assert _title(env) == "todo.txt" and _buffer(env)["lines"][0] == "[ ] renew domain"
    # with a document open, another file opens in a window of its own
    _keys(env, "Ctrl+O")
    ok(env, type_("report.md"))  # relative to the open document's folder
    out = one(env, key("Enter"))
    assert out["effect"]["windows_opened"] == [1]
    assert _title(env, 1) == "report.md" and _title(env, 0) == "todo.txt"


# -- saving and closing --------------------------------------------------------------------


def test_a_permission_failure_on_save_is_shown_and_the_document_stays_dirty():
    w = _world()
    env = _env(w)
    _launch(env, "/etc/hostname")
    ok(env, type_("evil-"))
    before = w.machine(M).fs.read_path("/etc/hostname")
    out = one(env, key("Ctrl+S"))
    assert out["success"] and "window.title" not in out["effect"]["changed"]
    texts = _texts(env)
    assert "Could not save “hostname”: Permission denied" in texts
    assert _title(env) == "• hostname" and w.machine(M).fs.read_path("/etc/hostname") == before


def test_closing_a_dirty_document_asks_to_save():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    ok(env, type_("Urgent: "))
    ok(env, key("Ctrl+W"))
    elements = _elements(env)
    for target, label in (("close-cancel", "Cancel"), ("close-discard", "Discard"), ("close-save", "Save")):
        assert elements[f"window:0:content:{target}"]["label"] == label
    assert _focus(env)["interaction"] == "window:0:content:close-save"
    _click(env, "window:0:content:close-cancel")
    assert [x["id"] for x in _scene(env)["windows"]] == [0] and _title(env) == "• notes.txt"
    _click(env, "window:0:content:close")
    out = _click(env, "window:0:content:close-save")
    assert out["effect"]["windows_closed"] == [0]
    assert w.machine(M).fs.read_path("/home/ada/notes.txt").decode().startswith("Urgent: Call the printer")
    # discard closes without writing
    _launch(env, "/home/ada/notes.txt")
    ok(env, type_("Scrap "))
    ok(env, key("Alt+F4"))
    out = _click(env, "window:1:content:close-discard")
    assert out["effect"]["windows_closed"] == [1]
    assert not w.machine(M).fs.read_path("/home/ada/notes.txt").decode().startswith("Scrap")
    # an untitled document asks for a name first, then closes
    _launch(env)
    ok(env, type_("keep me"))
    ok(env, app("shell", target="window:2:content:close"))
    ok(env, key("Enter"))  # Save
    ok(env, type_("kept.txt"))
    out = one(env, key("Enter"))
    assert out["effect"]["windows_closed"] == [2]
    assert w.machine(M).fs.read_path("/home/ada/Documents/kept.txt") == b"keep me\n"
    # a clean document closes at once, by its Close, Ctrl+W or (through the desktop) Alt+F4
    for close in (lambda wid: _click(env, f"window:{wid}:content:close"), lambda wid: one(env, key("Ctrl+W")), lambda wid: one(env, key("Alt+F4"))):
        wid = _launch(env, "/home/ada/notes.txt")
        assert close(wid)["effect"]["windows_closed"] == [wid]
    # the unsaved-changes dialog has no field to type into
    wid = _launch(env, "/home/ada/notes.txt")
    ok(env, key("Delete"))
    ok(env, key("Ctrl+W"))
    assert one(env, type_("x"))["error"]["code"] == "invalid"
    ok(env, key("Escape"))
    assert f"window:{wid}:content:close-save" not in _elements(env) and _title(env, wid) == "• notes.txt"


# -- wrapping and scrolling ----------------------------------------------------------------


def test_long_lines_soft_wrap_without_changing_the_text():
    env = _env(_world({"long.txt": LONG + "\nshort\n"}))
    _launch(env, "/home/ada/long.txt")
    assert _buffer(env)["lines"] == [LONG, "short"]
    scene = _scene(env)
    rows = _rows(scene)
    wrapped = [n for n in rows if n["line"]["logical"] == 0]
    assert len(wrapped) >= 3
    head = wrapped[0]
    cw, _ch = tp.grid()
    cols = head["bounds"]["width"] // cw
    for i, n in enumerate(wrapped[1:], 1):
        assert n["line"]["continuation"] is True and n["line"]["offset"] == i * cols
        assert n["line"]["wrapped_from"] == head["id"] and n["line"]["pane"] == "window:0:editor"
    assert join_lines([(n["primitive"]["text"], TextLine(**n["line"])) for n in rows]) == [LONG, "short"]
    # arrows move by rows on screen; End goes to the end of the whole line
    _keys(env, "ArrowDown")
    assert _focus(env)["caret"]["offset"] == cols
    _keys(env, "End")
    assert _focus(env)["caret"]["offset"] == len(LONG)
    # a click on a continuation row lands in the right place of the logical line
    ok(env, ptr("click", *_cell(env, 0, cols + 4, offset=cols), width=W, height=H))
    assert _focus(env)["caret"]["offset"] == cols + 4 and _focus(env)["caret"]["column"] == cols + 4


def test_the_view_follows_the_caret_and_the_wheel_scrolls_rows():
    text = "".join(f"line {i}\n" for i in range(200))
    env = _env(_world({"many.txt": text}))
    _launch(env, "/home/ada/many.txt")
    _, ch = tp.grid()

    def pane():
        return next(a for a in _scene(env)["scrolls"] if a["target"] == "window:0:content:pane:text")

    assert pane()["offset"] == 0
    _keys(env, "Ctrl+End")
    p = pane()
    assert p["offset"] == p["extent"] - p["bounds"]["height"]
    rows = p["bounds"]["height"] // ch
    first = 200 - rows
    assert _buffer(env)["first_visible"] == first and _buffer(env)["visible"] == rows
    assert _focus(env)["interaction"] == f"window:0:content:editor-text:{first}"
    b = p["bounds"]
    out = one(env, ptr("wheel", b["x"] + 30, b["y"] + 30, delta_y=-3 * ch, width=W, height=H))
    assert out["value"] == {"handled": True}
    assert pane()["offset"] == (first - 3) * ch and _focus(env)["caret"]["line"] == 199
    # an edit brings the caret back into view
    ok(env, type_("!"))
    assert pane()["offset"] == first * ch
    _keys(env, "Ctrl+Home")
    assert pane()["offset"] == 0
    # the scroll bar: a named click pages forward, a drag on the thumb scrolls
    bar = next(n for n in _scene(env)["nodes"] if (n["interaction"] or "").startswith("window:0:content:pane:text:") and n["semantic"])
    ok(env, app("shell", target=bar["interaction"]))
    assert pane()["offset"] == (rows - 1) * ch
    bar = next(n for n in _scene(env)["nodes"] if (n["interaction"] or "").startswith("window:0:content:pane:text:") and n["semantic"])
    x, y, _w, h = _screen(bar)
    ok(env, ptr("down", x + 4, y + h - 2))
    ok(env, ptr("up", x + 4, y + h - 2))
    p = pane()
    assert p["offset"] == p["extent"] - p["bounds"]["height"]


def test_editor_state_snapshots_and_determinism():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    ok(env, type_("x"))
    snap = w.snapshot()
    digest = _scene(env)["digest"]
    _keys(env, "Ctrl+A", "Delete")
    w.restore(snap)
    assert _scene(env)["digest"] == digest and _title(env) == "• notes.txt"
    other = _env(_world())
    _launch(other, "/home/ada/notes.txt")
    ok(other, type_("x"))
    assert _scene(other)["digest"] == digest


# -- the window manager and the framework's pointer details ---------------------------------


def test_the_window_manager_asks_a_dirty_editor_before_closing():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    ok(env, type_("Draft: "))
    dialog = ("close-cancel", "close-discard", "close-save")
    # the header's ✕, the window menu's Close, Alt+F4 and application.v1 close all ask
    asks = (
        lambda: _click(env, "window:0:close"),
        lambda: one(env, app("shell", target="window:0:close")),
        lambda: one(env, key("Alt+F4")),
        lambda: one(env, app("close", window=0)),
    )
    for ask in asks:
        out = ask()
        assert out["success"] and out["value"] is None, out
        assert not out["effect"].get("windows_closed") and "content" in out["effect"]["changed"]
        elements = _elements(env)
        assert all(f"window:0:content:{t}" in elements for t in dialog)
        assert [x["id"] for x in _scene(env)["windows"]] == [0] and _title(env) == "• notes.txt"
        _click(env, "window:0:content:close-cancel")
    # asking again while the dialog shows keeps it (and the window)
    one(env, app("close", window=0))
    out = one(env, app("close", window=0))
    assert out["success"] and out["effect"]["changed"] == [] and not out["effect"].get("windows_closed")
    # a background editor that asks is raised and focused, so its dialog shows
    _click(env, "window:0:content:close-cancel")
    other = _launch(env)
    out = one(env, app("close", window=0))
    assert out["effect"]["focused_window"] == 0 and "window.focused" in out["effect"]["changed"]
    assert _scene(env)["windows"][-1]["id"] == 0 and "window:0:content:close-save" in _elements(env)
    # Discard closes (the editor closes its own window: nobody asks again)
    out = _click(env, "window:0:content:close-discard")
    assert out["effect"]["windows_closed"] == [0]
    assert not w.machine(M).fs.read_path("/home/ada/notes.txt").decode().startswith("Draft")
    # a clean editor closes at once
    assert one(env, app("close", window=other))["effect"]["windows_closed"] == [other]


def test_double_click_selects_a_word_and_shift_click_extends_the_selection():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    out = one(env, ptr("double_click", *_cell(env, 0, 11), width=W, height=H))
    assert out["success"]
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "printer"
    # a click puts the caret; Shift+click selects from it to the pointer
    ok(env, ptr("click", *_cell(env, 0, 5)))
    ok(env, ptr("click", *_cell(env, 0, 16), modifiers=["shift"]))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "the printer"
    # another Shift+click moves the free end; the anchor stays
    ok(env, ptr("click", *_cell(env, 0, 0), modifiers=["Shift"]))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "Call "
    # Shift+press and drag extends as it moves
    ok(env, ptr("down", *_cell(env, 0, 9), modifiers=["shift"]))
    ok(env, ptr("move", *_cell(env, 0, 23), modifiers=["shift"]))
    ok(env, ptr("up", *_cell(env, 0, 23), modifiers=["shift"]))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "the printer vendor"  # from the anchor (5) still


def test_scrolling_reports_scroll_not_content_and_lives_on_the_window():
    text = "".join(f"line {i}\n" for i in range(200))
    w = _world({"many.txt": text})
    env = _env(w)
    _launch(env, "/home/ada/many.txt")
    _, ch = tp.grid()
    pane = next(a for a in _scene(env)["scrolls"] if a["target"] == "window:0:content:pane:text")
    b = pane["bounds"]
    out = one(env, ptr("wheel", b["x"] + 30, b["y"] + 30, delta_y=5 * ch, width=W, height=H))
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    assert _focus(env)["interaction"] == "window:0:content:editor-text:5"
    # PageDown moves the caret and the view
    out = one(env, key("PageDown"))
    assert sorted(out["effect"]["changed"]) == ["content", "scroll"]
    # the desktop's own wheel (Ctrl: the editor leaves it) moves the same offset
    snap = w.snapshot()
    before = next(a for a in _scene(env)["scrolls"] if a["target"] == pane["target"])["offset"]
    out = one(env, ptr("wheel", b["x"] + 30, b["y"] + 30, delta_y=-2 * ch, modifiers=["ctrl"]))
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    assert next(a for a in _scene(env)["scrolls"] if a["target"] == pane["target"])["offset"] == before - 2 * ch
    w.restore(snap)
    assert next(a for a in _scene(env)["scrolls"] if a["target"] == pane["target"])["offset"] == before
    # with the unsaved-changes dialog up, the wheel does not scroll the text under it
    ok(env, type_("x"))
    ok(env, key("Ctrl+W"))
    out = one(env, ptr("wheel", b["x"] + 30, b["y"] + 30, delta_y=5 * ch))
    assert out["effect"]["changed"] == []


def test_a_click_then_a_double_click_on_one_place_selects_the_line():
    w = _world()
    env = _env(w)
    _launch(env, "/home/ada/notes.txt")
    at = _cell(env, 0, 11)
    ok(env, ptr("click", *at, width=W, height=H))
    ok(env, ptr("double_click", *at))
    ok(env, key("Ctrl+C"))
    assert _clipboard(w) == "Call the printer vendor about the jam on floor 2."
