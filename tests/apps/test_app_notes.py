"""Notes, driven only through the actor handle (pointer, keyboard, application; the terminal
moves the logical clock and changes files behind the application's back).

Controls are found in the scene by interaction id, role and label; the note files, the pins
file and the recent documents are checked through the owner's machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, act, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _textpane as tp
from cwgym.apps.notes import MAX_NOTE, MAX_SEARCH
from cwgym.machine import recent
from cwgym.resources import load_world

W, H = 1280, 800
DIR = "/home/ada/Notes"
SHOPPING = "# Shopping\nmilk\neggs\n"
IDEAS = "Ideas\nA garden on the roof\nPaint the stairwell\n"


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("notes")
    d["computers"][0]["initial_files"].update(files or {})
    return World(d, 7)


def _env(w: World):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    config["actions"] = [*config["actions"], "terminal.v1"]
    return w.environment(config)


def _open(files: dict | None = None, argument: str | None = None):
    w = _world(files)
    env = _env(w)
    payload = {"kind": "notes"} | ({"argument": argument} if argument else {})
    wid = ok(env, app("launch", **payload))["window"]
    return w, env, wid


def _seeded():
    return _open({"Notes/Shopping.md": SHOPPING, "Notes/Ideas.md": IDEAS})


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _rows(env) -> list[str]:
    """The list's rows, top to bottom, as (label, value)."""
    scene = env.scene(W, H)
    found = []
    for n in scene["nodes"]:
        if (n["interaction"] or "").startswith("window:0:content:note:") and n["semantic"]:
            found.append(
                (
                    n["bounds"]["y"] + n["transform"]["ty"],
                    n["semantic"]["label"],
                    n["semantic"]["value"],
                )
            )
    return [(label, value) for _y, label, value in sorted(found)]


def _titles(env) -> list[str]:
    return [label for label, _v in _rows(env)]


def _click(env, target: str, wid: int = 0, **payload) -> dict:
    at = point(env.scene(W, H), f"window:{wid}:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr("click", *at, width=W, height=H, **payload))
    assert out["success"], out
    return out


def _shell(env, target: str, wid: int = 0) -> dict:
    return one(env, app("shell", target=f"window:{wid}:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _run(env, command: str) -> None:
    out = one(env, act("terminal.v1", "execute", command=command))
    assert out["success"] and out["value"]["exit_code"] == 0, out


def _read(w: World, name: str) -> bytes:
    return w.machine(M).fs.read_path(f"{DIR}/{name}")


def _names(w: World) -> list[str]:
    return w.machine(M).fs.list_path(DIR)


def _focus(env) -> dict:
    return env.scene(W, H)["focus"]


def _title(env, wid: int = 0) -> str:
    return next(x for x in env.scene(W, H)["windows"] if x["id"] == wid)["title"]


def _buffer(env, wid: int = 0) -> list[str]:
    return next(b for b in env.scene(W, H)["buffers"] if b["handle"] == f"window:{wid}:notes")[
        "lines"
    ]


def _cell(env, logical: int, col: int) -> tuple[int, int]:
    """A point just inside the boundary before character ``col`` of painted line ``logical``."""
    scene = env.scene(W, H)
    row = next(
        n
        for n in scene["nodes"]
        if n.get("line")
        and n["line"].get("pane") == "window:0:notes"
        and n["line"]["logical"] == logical
    )
    x, y = row["bounds"]["x"] + row["transform"]["tx"], row["bounds"]["y"] + row["transform"]["ty"]
    cw, _ch = tp.grid()
    return x + col * cw + 1, y + row["bounds"]["height"] // 2


# -- the list ------------------------------------------------------------------------------


def test_open_from_the_dock_lists_notes_pinned_first_then_newest_then_by_name():
    w = _world(
        {
            "Notes/Shopping.md": SHOPPING,
            "Notes/Ideas.md": IDEAS,
            "Notes/Bills.md": "Bills\nrent\n",
            "Notes/.pinned": "Shopping.md\nGone.md\n",
            "Notes/readme.txt": "not a note",
        }
    )
    env = _env(w)
    _run(env, "sleep 5 && touch ~/Notes/Ideas.md")
    at = point(env.scene(W, H), "shell:launch:notes")
    assert one(env, ptr("click", *at, width=W, height=H))["value"] == {"window": 0}
    # Shopping is pinned; Ideas is newer than Bills; the .txt file is no note
    assert _rows(env) == [("Shopping", "pinned"), ("Ideas", None), ("Bills", None)]
    assert _title(env) == "Shopping — Notes"  # the first note is selected
    assert env.scene(W, H)["windows"][0]["document"] == f"{DIR}/Shopping.md"
    focus = _focus(env)
    assert (
        focus["interaction"] == "window:0:content:note:Shopping.md" and focus["role"] == "listitem"
    )
    assert _buffer(env) == ["# Shopping", "milk", "eggs"]
    labels = {e["label"]: e["role"] for e in _elements(env).values() if e.get("window") == 0}
    for label in ("New note", "Undo", "Redo", "Unpin", "Delete"):
        assert labels[label] == "button"
    assert labels["Search notes"] == "textbox"
    # ties in modification time go by file name
    _run(env, "sleep 5 && touch ~/Notes/Bills.md ~/Notes/Ideas.md")
    assert _titles(env) == ["Shopping", "Bills", "Ideas"]


def test_keys_move_through_the_list_and_enter_edits():
    w, env, _ = _seeded()
    assert _titles(env) == ["Ideas", "Shopping"]
    assert _title(env) == "Ideas — Notes"
    _keys(env, "ArrowDown")
    assert _title(env) == "Shopping — Notes"
    _keys(env, "ArrowDown", "Home")
    assert _title(env) == "Ideas — Notes"
    _keys(env, "End")
    assert _title(env) == "Shopping — Notes"
    _keys(env, "Enter")
    focus = _focus(env)
    assert focus["interaction"] == "window:0:content:text" and focus["keyboard"]["text_entry"]
    assert focus["value"] == "# Shopping\nmilk\neggs"
    _keys(env, "Escape")
    assert _focus(env)["interaction"] == "window:0:content:note:Shopping.md"
    # a row clicked selects it; a double click goes on to the text
    _click(env, "note:Ideas.md")
    assert (
        _title(env) == "Ideas — Notes"
        and _focus(env)["interaction"] == "window:0:content:note:Ideas.md"
    )
    at = point(env.scene(W, H), "window:0:content:note:Shopping.md")
    ok(env, ptr("double_click", *at, width=W, height=H))
    assert _focus(env)["interaction"] == "window:0:content:text"
    assert _shell(env, "note:Nowhere.md")["error"]["reason"] == "unknown_shell_target"
    assert _shell(env, "frobnicate")["error"]["reason"] == "unknown_shell_target"
    assert _read(w, "Shopping.md") == SHOPPING.encode()  # looking writes nothing


# -- making and editing notes --------------------------------------------------------------


def test_new_note_by_pointer_is_named_after_its_title_and_saved_on_every_edit():
    w, env, _ = _open()
    assert "No notes yet" in _texts(env)
    _click(env, "new")
    assert _names(w) == ["Untitled.md"] and _read(w, "Untitled.md") == b""
    assert _title(env) == "Untitled — Notes"
    assert _focus(env)["interaction"] == "window:0:content:text"
    ok(env, type_("Quarterly plan"))
    assert _names(w) == ["Quarterly plan.md"]  # renamed after the title
    assert _title(env) == "Quarterly plan — Notes"
    assert recent.recent(w.machine(M)) == []  # a renaming save is not recorded yet
    _keys(env, "Enter")
    ok(env, type_("Revenue grew"))
    assert _read(w, "Quarterly plan.md") == b"Quarterly plan\nRevenue grew\n"
    assert [r["path"] for r in recent.recent(w.machine(M))] == [f"{DIR}/Quarterly plan.md"]
    assert _rows(env) == [("Quarterly plan", None)]
    assert "Ln 2, Col 13 · 27/10000" in _texts(env)
    # editing the title renames again; a taken name gets a number
    ok(env, app("shell", target="window:0:content:new"))
    ok(env, type_("Quarterly plan\nsecond copy"))
    assert _names(w) == ["Quarterly plan 2.md", "Quarterly plan.md"]
    _keys(env, "Ctrl+Home", "End", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace")
    assert _names(w) == ["Quarterly plan.md", "Quarterly.md"]
    assert _read(w, "Quarterly.md") == b"Quarterly\nsecond copy\n"
    # Primary+n makes another, Untitled again
    _keys(env, "Ctrl+n")
    assert "Untitled.md" in _names(w) and _title(env) == "Untitled — Notes"


def test_typing_keys_selection_and_the_clipboard():
    w, env, _ = _seeded()
    _click(env, "text")
    assert _focus(env)["interaction"] == "window:0:content:text"
    _keys(env, "Ctrl+End")
    caret = _focus(env)["caret"]
    assert (caret["line"], caret["column"]) == (2, len("Paint the stairwell"))
    _keys(env, "Enter", "Tab")
    ok(env, type_("x"))
    _keys(env, "Backspace", "Backspace", "Backspace")
    assert _read(w, "Ideas.md") == IDEAS.encode()
    _keys(env, "Ctrl+Home", "ArrowDown", "Home", "Shift+End", "Ctrl+c")
    assert w.machine(M).clipboard == "A garden on the roof"
    _keys(env, "Ctrl+x")
    assert _buffer(env) == ["Ideas", "", "Paint the stairwell"]
    _keys(env, "Ctrl+End", "Enter", "Ctrl+v")
    assert _read(w, "Ideas.md") == b"Ideas\n\nPaint the stairwell\nA garden on the roof\n"
    _keys(env, "ArrowUp", "Ctrl+Backspace", "Ctrl+Backspace")
    assert _buffer(env)[2] == "Paint "
    _keys(env, "Ctrl+a")
    ok(env, type_("Fresh"))
    assert _names(w) == ["Fresh.md", "Shopping.md"] and _read(w, "Fresh.md") == b"Fresh\n"


def test_pointer_places_the_caret_and_drags_select():
    w, env, _ = _seeded()
    ok(env, ptr("click", *_cell(env, 1, 9), width=W, height=H))
    focus = _focus(env)
    assert focus["interaction"] == "window:0:content:text"
    assert focus["caret"]["offset"] == len("Ideas\n") + 9
    start, end = _cell(env, 1, 2), _cell(env, 1, 8)
    ok(env, ptr("down", *start, width=W, height=H))
    ok(env, ptr("move", *end, width=W, height=H))
    ok(env, ptr("up", *end, width=W, height=H))
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "garden"
    at = _cell(env, 2, 3)
    ok(env, ptr("double_click", *at, width=W, height=H))
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "Paint"


def test_undo_and_redo_by_keys_and_buttons_follow_renames():
    w, env, _ = _seeded()
    elements = _elements(env)
    assert elements["window:0:content:undo"]["enabled"] is False
    _click(env, "text")
    _keys(env, "Ctrl+Home", "End")
    ok(env, type_(" and plans"))
    assert _names(w) == ["Ideas and plans.md", "Shopping.md"]
    assert _elements(env)["window:0:content:undo"]["enabled"] is True
    _keys(env, "Ctrl+z")
    assert _names(w) == ["Ideas.md", "Shopping.md"] and _read(w, "Ideas.md") == IDEAS.encode()
    assert _focus(env)["caret"]["offset"] == len("Ideas")
    _keys(env, "Ctrl+Shift+z")
    assert _names(w) == ["Ideas and plans.md", "Shopping.md"]
    _click(env, "undo")
    assert _read(w, "Ideas.md") == IDEAS.encode()
    assert _shell(env, "redo")["success"]
    assert (
        _read(w, "Ideas and plans.md")
        == b"Ideas and plans\nA garden on the roof\nPaint the stairwell\n"
    )
    # selecting another note starts afresh
    _click(env, "note:Shopping.md")
    assert _elements(env)["window:0:content:undo"]["enabled"] is False
    _keys(env, "Ctrl+z")
    assert _read(w, "Shopping.md") == SHOPPING.encode()


def test_primary_s_saves_and_records_the_note():
    w, env, _ = _seeded()
    out = one(env, key("Ctrl+s"))
    assert out["success"] and "library" in out["effect"]["changed"]
    assert [r["path"] for r in recent.recent(w.machine(M))] == [f"{DIR}/Ideas.md"]
    assert "Saved ~/Notes/Ideas.md" in _texts(env)
    # leaving an edited note records it too
    _click(env, "note:Shopping.md")
    _click(env, "text")
    ok(env, type_("x"))
    assert recent.recent(w.machine(M))[0]["path"] == f"{DIR}/Shopping.md"


# -- search --------------------------------------------------------------------------------


def test_search_filters_by_title_and_body_case_insensitively():
    _w, env, _ = _seeded()
    _click(env, "search")
    assert _focus(env)["interaction"] == "window:0:content:search"
    ok(env, type_("GARDEN"))
    assert _titles(env) == ["Ideas"]  # a body match
    _keys(env, "Ctrl+a")
    ok(env, type_("shop"))
    assert _titles(env) == ["Shopping"]  # a title match
    _keys(env, "Enter")  # to the list, selecting the first match
    assert (
        _title(env) == "Shopping — Notes"
        and _focus(env)["interaction"] == "window:0:content:note:Shopping.md"
    )
    assert _shell(env, "note:Ideas.md")["error"]["reason"] == "unknown_shell_target"  # hidden
    _keys(env, "Ctrl+f", "Escape")
    assert _titles(env) == ["Ideas", "Shopping"]
    # typing in the list starts a search
    _keys(env, "Escape")
    ok(env, type_("zzz"))
    assert _titles(env) == [] and "No matching notes" in _texts(env)
    assert _focus(env)["interaction"] == "window:0:content:search"
    # the cap
    _keys(env, "Ctrl+a", "Backspace")
    out = one(env, type_("q" * (MAX_SEARCH + 1)))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert _elements(env)["window:0:content:search"]["value"] == ""
    ok(env, type_("q" * MAX_SEARCH))
    assert one(env, key("q"))["error"]["code"] == "invalid"
    assert _elements(env)["window:0:content:search"]["value"] == "q" * MAX_SEARCH


# -- pins and deletion ---------------------------------------------------------------------


def test_pin_and_unpin_by_pointer_and_shell():
    w, env, _ = _seeded()
    _click(env, "note:Shopping.md")
    _click(env, "pin")
    assert _read(w, ".pinned") == b"Shopping.md\n"
    assert _rows(env) == [("Shopping", "pinned"), ("Ideas", None)]
    assert _elements(env)["window:0:content:pin"]["label"] == "Unpin"
    # a pinned note renamed by its title stays pinned
    _click(env, "text")
    _keys(env, "Ctrl+Home", "End")
    ok(env, type_(" list"))
    assert _read(w, ".pinned") == b"Shopping list.md\n"
    assert _rows(env)[0] == ("Shopping list", "pinned")
    assert _shell(env, "pin")["success"]
    assert _read(w, ".pinned") == b""
    assert _titles(env) == ["Ideas", "Shopping list"]


def test_delete_asks_first_by_pointer_and_by_keys():
    w, env, _ = _seeded()
    ok(env, app("shell", target="window:0:content:pin"))  # Ideas pinned
    _click(env, "delete")
    elements = _elements(env)
    assert elements["window:0:content:delete-confirm"]["label"] == "Delete"
    assert _focus(env)["interaction"] == "window:0:content:delete-cancel"
    assert _shell(env, "new")["error"]["reason"] == "unknown_shell_target"  # the dialog is modal
    _click(env, "delete-cancel")
    assert "Ideas.md" in _names(w)
    _click(env, "delete")
    _click(env, "delete-confirm")
    assert _names(w) == [".pinned", "Shopping.md"] and _read(w, ".pinned") == b""
    assert _title(env) == "Shopping — Notes"  # the next note is selected
    # by keys: Delete in the list, Escape cancels, Tab then Enter confirms
    _keys(env, "Delete", "Escape")
    assert "Shopping.md" in _names(w)
    _keys(env, "Delete", "Enter")  # Cancel has the focus first
    assert "Shopping.md" in _names(w)
    _keys(env, "Delete", "Tab", "Enter")
    assert _names(w) == [".pinned"]
    assert _title(env) == "Notes" and "No notes yet" in _texts(env)
    assert _elements(env)["window:0:content:delete"]["enabled"] is False


# -- caps, bad files, arguments ------------------------------------------------------------


def test_a_note_is_capped_and_refused_input_changes_nothing():
    body = "x" * (MAX_NOTE - 6)
    w, env, _ = _open({"Notes/Big.md": "Big\n" + body + "\n"})
    _click(env, "text")
    _keys(env, "Ctrl+End")
    ok(env, type_("y"))  # 9999 characters
    out = one(env, type_("zz"))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert one(env, key("Enter"))["success"]  # exactly 10000
    assert one(env, key("z"))["error"]["code"] == "invalid"
    w.machine(M).clipboard = "paste"
    assert one(env, key("Ctrl+v"))["error"]["code"] == "invalid"
    assert len(_read(w, "Big.md").decode()) == MAX_NOTE + 1  # the text and one line break
    _keys(env, "Backspace")
    ok(env, type_("z"))


def test_bad_files_are_skipped_with_a_message_and_left_alone():
    bad = "data:application/octet-stream;base64,//79"
    w, env, _ = _open(
        {
            "Notes/Shopping.md": SHOPPING,
            "Notes/broken.md": bad,
            "Notes/huge.md": "h" * (MAX_NOTE + 5),
            "Notes/.pinned": bad,
        }
    )
    assert _titles(env) == ["Shopping"]
    texts = _texts(env)
    assert "Skipped ~/Notes/broken.md: it is not UTF-8 text (and 2 more)" in texts
    # pinning refuses while the pins file is not text, and changes nothing
    _click(env, "pin")
    assert "~/Notes/.pinned is not UTF-8 text; pins are ignored" in _texts(env)
    assert _read(w, ".pinned") == b"\xff\xfe\xfd" and _read(w, "broken.md") == b"\xff\xfe\xfd"
    # a note changed to bad bytes behind the application's back is let go
    _run(env, "printf '\\377' > ~/Notes/Shopping.md")
    out = one(env, key("Enter"))
    assert out["success"]
    assert _title(env) == "Notes"


def test_launch_argument_selects_a_note_or_refuses():
    _w, env, _ = _seeded()
    wid = ok(env, app("launch", kind="notes", argument="~/Notes/Shopping.md"))["window"]
    assert _title(env, wid) == "Shopping — Notes"
    assert _focus(env)["interaction"] == f"window:{wid}:content:text"
    wid = ok(env, app("launch", kind="notes", argument="Ideas.md"))["window"]
    assert _title(env, wid) == "Ideas — Notes"
    for bad in ("/home/ada/notes.txt", "~/Notes/Missing.md", "/etc/passwd"):
        assert (
            one(env, app("launch", kind="notes", argument=bad))["error"]["code"] == "action_failed"
        )


def test_external_changes_show_and_stale_undo_is_dropped():
    w, env, _ = _seeded()
    _click(env, "text")
    _keys(env, "Ctrl+Home")
    ok(env, type_("New "))
    _run(env, "echo 'Ideas rewritten' > ~/Notes/New\\ Ideas.md")
    assert _buffer(env) == ["Ideas rewritten"]
    _keys(env, "Ctrl+z")
    assert "The note changed outside Notes; there is nothing to undo." in _texts(env)
    assert _read(w, "New Ideas.md") == b"Ideas rewritten\n"
    # a scroll bar pages a long note from the shell
    _run(env, "seq 1 200 >> ~/Notes/New\\ Ideas.md")
    bar = next(e for e in _elements(env) if e.startswith("window:0:content:pane:text:"))
    out = _shell(env, bar.split(":content:", 1)[1])
    assert out["success"] and "scroll" in out["effect"]["changed"]


def test_every_control_answers_application_shell():
    w, env, _ = _seeded()
    assert _shell(env, "note:Shopping.md")["success"] and _title(env) == "Shopping — Notes"
    assert _shell(env, "text")["success"] and _focus(env)["interaction"] == "window:0:content:text"
    assert (
        _shell(env, "search")["success"] and _focus(env)["interaction"] == "window:0:content:search"
    )
    assert _shell(env, "new")["success"] and _title(env) == "Untitled — Notes"
    ok(env, type_("Draft"))
    assert _shell(env, "undo")["success"] and _names(w) == [
        "Ideas.md",
        "Shopping.md",
        "Untitled.md",
    ]
    assert _shell(env, "redo")["success"] and _names(w) == ["Draft.md", "Ideas.md", "Shopping.md"]
    assert _shell(env, "pin")["success"] and _read(w, ".pinned") == b"Draft.md\n"
    assert _shell(env, "delete")["success"] and _shell(env, "delete-cancel")["success"]
    assert "Draft.md" in _names(w)
    assert _shell(env, "delete")["success"] and _shell(env, "delete-confirm")["success"]
    assert _names(w) == [".pinned", "Ideas.md", "Shopping.md"] and _read(w, ".pinned") == b""
    assert _shell(env, "delete-confirm")["error"]["reason"] == "unknown_shell_target"


def test_an_unreadable_note_is_skipped_and_named():
    _w, env, _ = _seeded()
    _run(env, "chmod 000 ~/Notes/Shopping.md")
    assert _titles(env) == ["Ideas"]
    assert "Skipped ~/Notes/Shopping.md: Permission denied" in _texts(env)
    _run(env, "chmod 644 ~/Notes/Shopping.md")
    assert _titles(env) == ["Ideas", "Shopping"]
