"""The file manager (``files``), driven through the actor handle.

Controls are found in the scene by interaction id or accessible label and clicked where
the scene's own hit testing says a click reaches them; results are checked through the
owner's trusted filesystem (``world.machine("workstation").fs``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "desktop"))

from desktop_fixture import (
    M,
    act,
    app,
    click,
    definition,
    desktop,
    key,
    ok,
    one,
    point,
    ptr,
    type_,
    world,
)

from cwgym import World
from cwgym.apps import APPS
from cwgym.apps import _files_model as model
from cwgym.scene import Scene

HOME = "/home/ada"
TRASH_FILES = f"{HOME}/.local/share/Trash/files"
TRASH_INFO = f"{HOME}/.local/share/Trash/info"
W, H = 1280, 800

# every file manager control target of spec/001 (indexed ones with index 0)
SPEC_TARGETS = (
    "files-back", "files-forward", "files-up", "files-root", "files-home", "files-reload",
    "files-newtab", "files-tab:0", "files-closetab:0", "files-location:/home/ada", "files-view",
    "files-sort:name", "files-search", "files-search-clear", "files-recents", "files-browse",
    "files-starred", "files-star", "files-star:0", "files-quick-access", "files-gallery",
    "files-trash", "files-hidden", "files-open", "files-new-folder", "files-new-file",
    "files-cut", "files-copy", "files-paste", "files-rename", "files-delete", "open:0",
)


# -- fixtures and helpers ------------------------------------------------------------------


@pytest.fixture
def w():
    return world()


@pytest.fixture
def env(w):
    return desktop(w)


@pytest.fixture
def fs(w):
    return w.machine(M).fs


def uid(fs) -> int:
    return fs.stat_path(HOME).uid


def launch(env, argument: str | None = None) -> int:
    payload = {"kind": "files"} if argument is None else {"kind": "files", "argument": argument}
    return ok(env, app("launch", **payload))["window"]


def T(target: str, wid: int = 0) -> str:
    return f"window:{wid}:content:{target}"


def shell(env, target: str, wid: int = 0):
    return one(env, app("shell", target=T(target, wid)))


def scene(env) -> dict:
    return env.scene(W, H)


def rows(env, wid: int = 0) -> list[str]:
    """The labels of the rows on screen, in displayed order."""
    found = {}
    prefix = f"window:{wid}:content:open:"
    for n in scene(env)["nodes"]:
        s, target = n["semantic"], n["interaction"] or ""
        if s and s["role"] in ("row", "listitem") and target.startswith(prefix):
            found[int(target[len(prefix):])] = s["label"]
    return [found[i] for i in sorted(found)]


def row(env, name: str, wid: int = 0) -> str:
    """The interaction of the row labelled ``name`` (a folder's label ends in ``/``)."""
    prefix = f"window:{wid}:content:open:"
    for n in scene(env)["nodes"]:
        s, target = n["semantic"], n["interaction"] or ""
        if s and s["role"] in ("row", "listitem") and s["label"] == name and target.startswith(prefix):
            return target
    raise AssertionError(f"no row {name!r} on screen: {rows(env, wid)}")


def by_label(env, label: str, wid: int = 0, role: str | None = None) -> str:
    """The interaction of the control labelled ``label`` in window ``wid``."""
    for n in scene(env)["nodes"]:
        s, target = n["semantic"], n["interaction"] or ""
        if s and s["label"] == label and target.startswith(f"window:{wid}:content:") and (role is None or s["role"] == role):
            return target
    raise AssertionError(f"no control labelled {label!r}")


def selected(env, wid: int = 0) -> list[str]:
    prefix = f"window:{wid}:content:open:"
    return [n["semantic"]["label"] for n in scene(env)["nodes"]
            if n["semantic"] and (n["interaction"] or "").startswith(prefix) and (n.get("state") or {}).get("selected")]


def messages(env, wid: int = 0) -> list[str]:
    """Alert and status texts painted in the window."""
    return [n["semantic"]["label"] for n in scene(env)["nodes"]
            if n["semantic"] and n["semantic"]["role"] in ("alert", "status") and n.get("window") == wid]


def alerts(env, wid: int = 0) -> list[str]:
    return [n["semantic"]["label"] for n in scene(env)["nodes"]
            if n["semantic"] and n["semantic"]["role"] == "alert" and n.get("window") == wid]


def win(env, wid: int = 0) -> dict:
    return next(x for x in scene(env)["windows"] if x["id"] == wid)


def press(env, *names: str) -> None:
    for name in names:
        out = one(env, key(name))
        assert out["success"], (name, out)


def typed(env, text: str) -> None:
    out = one(env, type_(text))
    assert out["success"], out


def dclick(env, interaction: str) -> dict:
    return click(env, interaction, op="double_click")


def editor_registered() -> bool:
    return "editor" in APPS


def populate(fs, folder: str, files: dict[str, bytes]) -> None:
    u = uid(fs)
    fs.makedirs(folder, u, u)
    for name, data in files.items():
        fs.put_file(f"{folder}/{name}", data, u, u)


# -- end to end ------------------------------------------------------------------------------


def test_rename_a_file_and_move_it_into_a_new_folder_by_pointer_and_keyboard(env, w, fs):
    notes = fs.read_path(f"{HOME}/notes.txt")
    out = click(env, "shell:launch:files")  # the dock launcher
    assert out["value"] == {"window": 0}
    assert win(env)["document"] == HOME and win(env)["title"] == "Home"
    # select notes.txt, F2, type the new base name (the name field selects it), Enter
    click(env, row(env, "notes.txt"))
    assert selected(env) == ["notes.txt"]
    press(env, "F2")
    typed(env, "ideas")
    press(env, "Enter")
    assert "ideas.txt" in rows(env) and "notes.txt" not in rows(env)
    # New Folder from its painted control, a typed name, Enter
    click(env, by_label(env, "New Folder", role="button"))
    press(env, "Ctrl+A")
    typed(env, "Archive")
    press(env, "Enter")
    assert selected(env) == ["Archive/"]
    # cut the file, open the folder by double click, paste
    click(env, row(env, "ideas.txt"))
    click(env, by_label(env, "Cut", role="button"))
    dclick(env, row(env, "Archive/"))
    assert win(env)["document"] == f"{HOME}/Archive" and win(env)["title"] == "Archive"
    press(env, "Ctrl+V")
    assert rows(env) == ["ideas.txt"]
    # the owner sees the result
    assert fs.list_path(f"{HOME}/Archive") == ["ideas.txt"]
    assert fs.read_path(f"{HOME}/Archive/ideas.txt") == notes
    assert not fs.exists(f"{HOME}/notes.txt") and not fs.exists(f"{HOME}/ideas.txt")
    assert w.machine(M).clipboard == ""  # a pasted cut empties the clipboard, as in GNOME


# -- opening and the listing ------------------------------------------------------------------


def test_launch_argument_opens_that_folder_and_lists_icon_name_size_and_time(env):
    wid = launch(env, f"{HOME}/Documents")
    window = win(env, wid)
    assert window["document"] == f"{HOME}/Documents" and window["title"] == "Documents"
    assert rows(env) == ["contacts.txt", "expenses.csv", "report.md", "todo.txt"]
    texts = {t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"] if t.get("window") == wid}
    assert "09:00" in texts  # modified today (the logical clock starts at 09:00)
    assert any(t.endswith(" bytes") for t in texts)
    nodes = scene(env)["nodes"]
    icons = [n for n in nodes if n["primitive"]["kind"] == "asset_image" and (n["interaction"] or "").startswith(T("open:"))]
    assert {n["primitive"]["name"] for n in icons} == {"file"}
    home = launch(env)
    labels = {t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"] if t.get("window") == home}
    assert "4 items" in labels and "0 items" in labels  # folders count their entries


def test_launch_refuses_a_missing_folder_and_a_file_argument_selects_it(env):
    out = one(env, app("launch", kind="file_manager", argument="/nowhere"))
    assert out["error"]["code"] == "action_failed"
    wid = launch(env, f"{HOME}/Documents/todo.txt")
    assert win(env, wid)["document"] == f"{HOME}/Documents"
    assert selected(env, wid) == ["todo.txt"]


def test_formatting_like_gnome_files():
    assert model.format_size(1) == "1 byte" and model.format_size(999) == "999 bytes"
    assert model.format_size(1234) == "1.2 kB" and model.format_size(3_400_000) == "3.4 MB"
    day = 86_400_000_000
    assert model.format_mtime(0, 0) == "09:00"
    assert model.format_mtime(0, 2 * day) == "17 Sep"
    assert model.format_mtime(-365 * day, 0) == "17 Sep 2025"
    assert model.format_items(1) == "1 item" and model.format_items(3) == "3 items"
    names = ["file10", "File2", "file1", "b", "a"]
    assert sorted(names, key=model.natural_key) == ["a", "b", "file1", "File2", "file10"]


def test_open_index_follows_the_displayed_sort_and_header_clicks_toggle_direction(env, fs):
    populate(fs, f"{HOME}/Sizes", {"a.txt": b"x" * 30, "b.txt": b"x" * 10, "c.txt": b"x" * 20})
    fs.makedirs(f"{HOME}/Sizes/zeta", uid(fs), uid(fs))
    launch(env, f"{HOME}/Sizes")
    assert rows(env) == ["zeta/", "a.txt", "b.txt", "c.txt"]  # folders first, then by name
    click(env, T("files-sort:size"))
    assert rows(env) == ["zeta/", "b.txt", "c.txt", "a.txt"]
    click(env, T("open:1"))  # the second row displayed, not the second in the raw listing
    assert selected(env) == ["b.txt"]
    click(env, T("files-sort:size"))  # again: descending
    assert rows(env) == ["zeta/", "a.txt", "c.txt", "b.txt"]
    header = next(n for n in scene(env)["nodes"] if n["interaction"] == T("files-sort:size") and n["semantic"])
    assert header["semantic"]["value"] == "descending"
    click(env, T("files-sort:name"))
    assert rows(env) == ["zeta/", "a.txt", "b.txt", "c.txt"]
    # shell open:<i> is the row's primary action: row 0 is the folder, it opens in place
    assert shell(env, "open:0")["success"]
    assert win(env)["document"] == f"{HOME}/Sizes/zeta"
    assert shell(env, "open:7")["error"]["reason"] == "unknown_shell_target"
    assert shell(env, "files-sort:colour")["error"]["reason"] == "unknown_shell_target"


def test_sort_by_date(env, w, fs):
    m = w.machine(M)
    populate(fs, f"{HOME}/Dated", {"old.txt": b"1"})
    m.clock.advance(90_000_000)  # a minute and a half later
    fs.put_file(f"{HOME}/Dated/new.txt", b"2", uid(fs), uid(fs))
    m.clock.advance(90_000_000)
    fs.put_file(f"{HOME}/Dated/mid.txt", b"3", uid(fs), uid(fs))
    fs.set_times(fs.resolve(f"{HOME}/Dated/mid.txt"), mtime=45_000_000)
    launch(env, f"{HOME}/Dated")
    click(env, by_label(env, "Modified", role="columnheader"))
    assert rows(env) == ["old.txt", "mid.txt", "new.txt"]
    click(env, by_label(env, "Modified", role="columnheader"))
    assert rows(env) == ["new.txt", "mid.txt", "old.txt"]


def test_double_click_opens_folders_in_place_and_text_files_in_the_editor(env, w):
    launch(env)
    dclick(env, row(env, "Documents/"))
    assert win(env)["document"] == f"{HOME}/Documents"
    out = dclick(env, row(env, "todo.txt"))
    assert out["success"]
    if editor_registered():
        assert out["value"]["window"] == 1
        editor = win(env, 1)
        assert editor["app"] == "editor" and editor["document"] == f"{HOME}/Documents/todo.txt"
        # and the file is now a recent one
        shell(env, "files-recents")
        assert rows(env) == ["todo.txt"]
    else:
        assert out["value"] is None
        assert alerts(env) == ["Cannot open “todo.txt”: the Text Editor is not available."]
        assert [x["id"] for x in scene(env)["windows"]] == [0]


def test_a_text_file_without_an_editor_installed_is_refused_visibly():
    d = definition()
    computer = d["computers"][0]
    computer["installed_apps"] = [a for a in computer["installed_apps"] if a != "editor"]
    env = desktop(World(d, 7))
    launch(env)
    out = dclick(env, row(env, "notes.txt"))
    assert out["success"] and out["value"] is None
    assert alerts(env) == ["Cannot open “notes.txt”: the Text Editor is not available."]
    assert [x["id"] for x in scene(env)["windows"]] == [0]
    shell(env, "files-recents")
    assert rows(env) == []  # only files that opened become recent


def test_a_binary_file_is_refused_with_a_visible_message(env, fs):
    populate(fs, f"{HOME}/Bin", {"photo.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"})
    launch(env, f"{HOME}/Bin")
    out = dclick(env, row(env, "photo.png"))
    assert out["success"] and out["value"] is None
    assert alerts(env) == ["Cannot open “photo.png”: there is no application installed for this kind of file."]
    assert len(scene(env)["windows"]) == 1
    click(env, T("files-dismiss"))
    assert alerts(env) == []


def test_keyboard_moves_the_selection_opens_and_goes_up(env):
    launch(env, f"{HOME}/Documents")
    press(env, "ArrowDown")
    assert selected(env) == ["contacts.txt"]
    press(env, "ArrowDown", "ArrowDown")
    assert selected(env) == ["report.md"]
    press(env, "ArrowUp")
    assert selected(env) == ["expenses.csv"]
    press(env, "Shift+ArrowDown")
    assert selected(env) == ["expenses.csv", "report.md"]
    press(env, "End")
    assert selected(env) == ["todo.txt"]
    press(env, "Home")
    assert selected(env) == ["contacts.txt"]
    press(env, "Backspace")
    assert win(env)["document"] == HOME
    assert selected(env) == ["Documents/"]  # going up selects the folder we came from
    press(env, "Enter")
    assert win(env)["document"] == f"{HOME}/Documents"
    press(env, "Alt+Up")
    assert win(env)["document"] == HOME
    press(env, "Ctrl+A")
    assert len(selected(env)) == len(rows(env)) == 10
    press(env, "Escape")
    assert selected(env) == []


# -- navigation ----------------------------------------------------------------------------


def test_back_forward_up_home_root_by_their_controls(env):
    launch(env)
    back = next(n for n in scene(env)["nodes"] if n["interaction"] == T("files-back") and n["semantic"])
    assert back["semantic"]["label"] == "Back" and back["semantic"]["disabled"]
    dclick(env, row(env, "Projects/"))
    dclick(env, row(env, "website/"))
    assert win(env)["document"] == f"{HOME}/Projects/website"
    click(env, by_label(env, "Back"))
    assert win(env)["document"] == f"{HOME}/Projects"
    click(env, by_label(env, "Back"))
    assert win(env)["document"] == HOME
    click(env, by_label(env, "Forward"))
    assert win(env)["document"] == f"{HOME}/Projects"
    click(env, by_label(env, "Computer"))
    assert win(env)["document"] == "/" and "home/" in rows(env)
    click(env, by_label(env, "Home", role="listitem"))
    assert win(env)["document"] == HOME
    click(env, by_label(env, "Go Up"))
    assert win(env)["document"] == "/home"
    # the path bar's segments are files-location:<path> controls
    dclick(env, row(env, "ada/"))
    dclick(env, row(env, "Projects/"))
    dclick(env, row(env, "scripts/"))
    click(env, T(f"files-location:{HOME}/Projects"))
    assert win(env)["document"] == f"{HOME}/Projects"
    press(env, "Alt+Left")
    assert win(env)["document"] == f"{HOME}/Projects/scripts"
    press(env, "Alt+Right")
    assert win(env)["document"] == f"{HOME}/Projects"
    press(env, "Alt+Home")
    assert win(env)["document"] == HOME


def test_location_bar_takes_a_typed_path_and_reports_a_missing_one(env):
    launch(env)
    press(env, "Ctrl+L")
    assert scene(env)["focus"]["keyboard"]["text_entry"]
    typed(env, "/home/ada/Projects/website")  # the current path is selected: typing replaces it
    press(env, "Enter")
    assert win(env)["document"] == f"{HOME}/Projects/website"
    assert rows(env) == ["index.html", "README.md"]
    # a click on the path bar opens the field too; a missing path is a visible error
    click(env, T("files-pathbar"))
    typed(env, "~/nowhere\n")
    assert win(env)["document"] == f"{HOME}/Projects/website"
    assert alerts(env) == ["The location “/home/ada/nowhere” does not exist."]
    press(env, "Escape")
    assert scene(env)["focus"]["keyboard"]["text_entry"] is False
    assert shell(env, "files-location:/etc")["success"]
    assert win(env)["document"] == "/etc"


def test_permission_denied_is_a_visible_message(env, fs):
    fs.makedirs(f"{HOME}/vault", uid(fs), uid(fs), 0o000)
    launch(env)
    out = dclick(env, row(env, "vault/"))
    assert out["success"]
    assert win(env)["document"] == HOME
    assert alerts(env) == ["You do not have the permissions necessary to view the contents of “vault”."]
    # a folder that becomes unreadable while shown says so in the list
    fs.makedirs(f"{HOME}/shown", uid(fs), uid(fs))
    shell(env, f"files-location:{HOME}/shown")
    fs.set_mode(fs.resolve(f"{HOME}/shown"), 0o000)
    assert "You do not have the permissions necessary to view the contents of “shown”." in alerts(env)


def test_hidden_files_toggle_by_key_and_control(env, fs):
    populate(fs, f"{HOME}/H", {".secret": b"s", "plain.txt": b"p"})
    launch(env, f"{HOME}/H")
    assert rows(env) == ["plain.txt"]
    press(env, "Ctrl+H")
    assert rows(env) == [".secret", "plain.txt"]
    control = next(n for n in scene(env)["nodes"] if n["interaction"] == T("files-hidden") and n["semantic"])
    assert control["semantic"]["label"] == "Show Hidden" and control["state"]["checked"] is True
    click(env, T("files-hidden"))
    assert rows(env) == ["plain.txt"]


def test_tabs_open_switch_and_close(env):
    launch(env)
    click(env, by_label(env, "New Tab"))
    tabs = [n["semantic"]["label"] for n in scene(env)["nodes"] if n["semantic"] and n["semantic"]["role"] == "tab"]
    assert tabs == ["Home", "Home"]
    click(env, by_label(env, "Documents", role="listitem"))
    assert win(env)["document"] == f"{HOME}/Documents"
    # the scene's window entry lists the tabs (the application's tabs/active_tab hooks)
    assert win(env)["tabs"] == ["Home", "Documents"] and win(env)["active_tab"] == 1
    click(env, T("files-tab:0"))
    assert win(env)["document"] == HOME and win(env)["active_tab"] == 0
    press(env, "Ctrl+PageDown")
    assert win(env)["document"] == f"{HOME}/Documents"
    click(env, T("files-closetab:1"))
    assert win(env)["document"] == HOME
    tabs = [n["semantic"]["label"] for n in scene(env)["nodes"] if n["semantic"] and n["semantic"]["role"] == "tab"]
    assert tabs == ["Home"]
    assert win(env)["tabs"] == ["Home"] and win(env)["active_tab"] == 0
    assert shell(env, "files-tab:3")["error"]["reason"] == "unknown_shell_target"
    # closing the last tab closes the window (the application closes itself), as Ctrl+W does
    out = shell(env, "files-closetab:0")
    assert out["success"] and out["effect"]["windows_closed"] == [0]
    assert not scene(env).get("windows")
    launch(env)
    assert one(env, key("Ctrl+W"))["effect"]["windows_closed"] == [1]


# -- naming ----------------------------------------------------------------------------------


def test_new_file_inline_naming_collision_and_escape(env, fs):
    launch(env, f"{HOME}/Documents")
    click(env, by_label(env, "New File", role="button"))
    focus = scene(env)["focus"]
    assert focus["keyboard"]["text_entry"] and focus["value"] == "Untitled Document"
    typed(env, "todo.txt")
    press(env, "Enter")
    assert alerts(env) == ["A file with that name already exists."]
    press(env, "Ctrl+A")
    typed(env, "plan.md")
    press(env, "Enter")
    assert fs.read_path(f"{HOME}/Documents/plan.md") == b""
    assert selected(env) == ["plan.md"]
    # Escape cancels: nothing is created
    click(env, T("files-new-folder"))
    typed(env, "Nope")
    press(env, "Escape")
    assert not fs.exists(f"{HOME}/Documents/Nope")
    assert scene(env)["focus"]["keyboard"]["text_entry"] is False
    # a name with a slash is refused
    click(env, T("files-new-folder"))
    typed(env, "a/b\n")
    assert alerts(env) == ["Folder names cannot contain “/”."]
    click(env, by_label(env, "Cancel", role="button"))


def test_rename_control_and_collision(env, fs):
    launch(env, f"{HOME}/Documents")
    click(env, row(env, "report.md"))
    click(env, by_label(env, "Rename", role="button"))
    assert scene(env)["focus"]["value"] == "report.md"
    typed(env, "todo")  # the base name is selected: this replaces it
    assert scene(env)["focus"]["value"] == "todo.md"
    press(env, "End", "Backspace", "Backspace")
    typed(env, "txt")
    press(env, "Enter")
    assert alerts(env) == ["A file with that name already exists."]
    press(env, "Ctrl+A")
    typed(env, "summary.md")
    click(env, T("files-name-ok"))
    assert fs.exists(f"{HOME}/Documents/summary.md") and not fs.exists(f"{HOME}/Documents/report.md")


# -- trash, clipboard ------------------------------------------------------------------------


def test_delete_moves_to_the_trash_with_trashinfo_and_restore_puts_it_back(env, fs):
    launch(env, f"{HOME}/Documents")
    original = fs.read_path(f"{HOME}/Documents/todo.txt")
    click(env, row(env, "todo.txt"))
    press(env, "Delete")
    assert "todo.txt" not in rows(env)
    assert messages(env)[0] == "“todo.txt” moved to the Trash."
    assert fs.list_path(TRASH_FILES) == ["todo.txt"]
    info = fs.read_path(f"{TRASH_INFO}/todo.txt.trashinfo").decode()
    assert info.splitlines() == ["[Trash Info]", f"Path={HOME}/Documents/todo.txt", "DeletionDate=2026-09-17T09:00:00"]
    # a second file of the same name gets GLib's next free name
    fs.put_file(f"{HOME}/Documents/todo.txt", b"again", uid(fs), uid(fs))
    click(env, row(env, "todo.txt"))
    click(env, by_label(env, "Move to Trash"))
    assert fs.list_path(TRASH_FILES) == ["todo.2.txt", "todo.txt"]
    # the Trash view shows where they came from and restores
    click(env, by_label(env, "Trash", role="listitem"))
    assert win(env)["document"] == "trash:///" and win(env)["title"] == "Trash"
    assert rows(env) == ["todo.txt", "todo.txt"]
    texts = {t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]}
    assert "Home/Documents" in texts and "Original Location" in texts
    click(env, T("open:1"))
    click(env, by_label(env, "Restore", role="button"))
    assert fs.read_path(f"{HOME}/Documents/todo.txt") == original
    assert fs.list_path(TRASH_FILES) == ["todo.2.txt"] and fs.list_path(TRASH_INFO) == ["todo.2.txt.trashinfo"]
    # restoring onto an existing name is refused visibly
    click(env, T("open:0"))
    click(env, T("files-restore"))
    assert alerts(env) == [f"“todo.txt” cannot be restored: “{HOME}/Documents/todo.txt” already exists."]
    # Delete in the Trash deletes for good; Empty Trash empties it
    click(env, T("open:0"))
    press(env, "Delete")
    assert fs.list_path(TRASH_FILES) == [] and fs.list_path(TRASH_INFO) == []


def test_copy_and_paste_a_folder_recursively(env, w, fs):
    launch(env)
    click(env, row(env, "Projects/"))
    press(env, "Ctrl+C")
    assert w.machine(M).clipboard == f"copy\nfile://{HOME}/Projects"
    dclick(env, row(env, "Documents/"))
    click(env, by_label(env, "Paste", role="button"))
    for rel in ("website/index.html", "website/README.md", "scripts/backup.sh"):
        assert fs.read_path(f"{HOME}/Documents/Projects/{rel}") == fs.read_path(f"{HOME}/Projects/{rel}")
    assert fs.stat_path(f"{HOME}/Documents/Projects/scripts/backup.sh").mode == fs.stat_path(f"{HOME}/Projects/scripts/backup.sh").mode
    # pasting again makes a copy beside it; the source stays (copy, not move)
    press(env, "Ctrl+V")
    assert "Projects (copy)/" in rows(env)
    assert fs.exists(f"{HOME}/Projects/website/index.html")
    assert w.machine(M).clipboard.startswith("copy\n")
    # a folder cannot be pasted into itself
    shell(env, f"files-location:{HOME}/Projects/website")
    shell(env, "files-paste")
    assert alerts(env) == ["You cannot copy a folder into itself."]


def test_clipboard_format_round_trips():
    text = model.clipboard_text("cut", ["/home/ada/a b.txt", "/tmp/x"])
    assert text == "cut\nfile:///home/ada/a%20b.txt\nfile:///tmp/x"
    assert model.clipboard_files(text) == ("cut", ["/home/ada/a b.txt", "/tmp/x"])
    assert model.clipboard_files("just some text") == ("", [])


# -- views ------------------------------------------------------------------------------------


def test_search_stars_recents_quick_access_gallery_and_browse(env, fs):
    launch(env)
    # search: recursive below the current folder, results show their folder
    click(env, by_label(env, "Search"))
    typed(env, "read")
    assert rows(env) == ["README.md"]
    texts = {t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]}
    assert "Home/Projects/website" in texts
    click(env, T("files-search-clear"))
    assert "README.md" not in rows(env) and "notes.txt" in rows(env)
    # typing in the list starts a search, as in GNOME Files
    typed(env, "notes")
    assert rows(env) == ["notes.txt"]
    press(env, "Escape")
    # stars: the row's star button, then the Starred view
    click(env, T(f"files-star:{rows(env).index('notes.txt')}"))
    click(env, row(env, "Documents/"))
    click(env, by_label(env, "Star", role="button"))
    click(env, by_label(env, "Starred", role="listitem"))
    assert win(env)["document"] == "starred:///" and rows(env) == ["Documents/", "notes.txt"]
    click(env, T("files-star:1"))  # unstar from the Starred view
    assert rows(env) == ["Documents/"]
    # Recent: nothing opened yet
    click(env, by_label(env, "Recent", role="listitem"))
    assert rows(env) == [] and "No Recent Files" in messages(env)
    # Quick Access lists the home folder's places
    click(env, by_label(env, "Quick Access", role="listitem"))
    assert rows(env) == ["Desktop/", "Documents/", "Downloads/", "Home/", "Music/", "Pictures/", "Videos/"]
    dclick(env, row(env, "Music/"))
    assert win(env)["document"] == f"{HOME}/Music"
    # Browse returns from a virtual view to the folder browsed before
    click(env, T("files-trash"))
    click(env, by_label(env, "Browse", role="listitem"))
    assert win(env)["document"] == f"{HOME}/Music"
    # Gallery: the Pictures folder as a grid
    populate(fs, f"{HOME}/Pictures", {"cat.png": b"\x89PNG\0"})
    click(env, by_label(env, "Gallery", role="listitem"))
    assert win(env)["document"] == f"{HOME}/Pictures"
    tile = next(n for n in scene(env)["nodes"] if n["interaction"] == T("open:0") and n["semantic"])
    assert tile["semantic"]["role"] == "listitem" and tile["semantic"]["label"] == "cat.png"
    click(env, by_label(env, "List View"))
    tile = next(n for n in scene(env)["nodes"] if n["interaction"] == T("open:0") and n["semantic"])
    assert tile["semantic"]["role"] == "row"


def test_every_spec_target_answers_through_application_shell(env, fs):
    populate(fs, f"{HOME}/Work", {"a.txt": b"a", "b.txt": b"b"})
    launch(env, f"{HOME}/Work")
    for target in SPEC_TARGETS:
        shell(env, f"files-location:{HOME}/Work")
        click(env, T("open:1"))  # b.txt selected, so selection controls act on it
        out = shell(env, target)
        assert out["success"], (target, out)
        # leave any inline field the control opened
        press(env, "Escape")
    assert shell(env, "files-nonsense")["error"]["reason"] == "unknown_shell_target"
    # the name field's controls answer only while it is open
    for target in ("files-name", "files-name-ok", "files-name-cancel", "files-location-entry", "files-search-entry"):
        assert shell(env, target)["error"]["reason"] == "unknown_shell_target", target
    shell(env, "files-new-folder")
    assert shell(env, "files-name-cancel")["success"]


def test_every_spec_target_is_painted(env, fs):
    """Each control of spec/001 is reachable by a click in a plain folder view with a row."""
    populate(fs, f"{HOME}/Work", {"a.txt": b"a"})
    launch(env, f"{HOME}/Work")
    shell(env, "files-search")
    painted = {n["interaction"] for n in scene(env)["nodes"]}
    assert T("files-search-clear") in painted
    shell(env, "files-search-clear")
    current = scene(env)
    painted = {n["interaction"] for n in current["nodes"]}
    typed_scene = Scene.from_plain(current)
    for target in SPEC_TARGETS:
        if target == "files-search-clear":
            continue
        wanted = T(target)
        assert wanted in painted, target
        assert point(current, wanted) is not None, target
    assert typed_scene.accessibility()


# -- scrolling -------------------------------------------------------------------------------


def test_a_long_folder_scrolls_by_wheel_scroll_bar_and_keyboard(env, fs):
    populate(fs, f"{HOME}/Many", {f"file{i:03d}.txt": b"x" * i for i in range(200)})
    launch(env, f"{HOME}/Many")
    pane = next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))
    assert pane["offset"] == 0 and pane["extent"] == 200 * 32
    shown = rows(env)
    assert shown[0] == "file000.txt" and "file199.txt" not in shown
    b = pane["bounds"]
    out = one(env, ptr("wheel", b["x"] + 40, b["y"] + 40, delta_y=320, width=W, height=H))
    assert out["value"] == {"handled": True}
    pane = next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))
    assert pane["offset"] == 320 and rows(env)[0] == "file010.txt"
    # drag the scroll bar's thumb to the bottom
    bar = next(n["interaction"] for n in scene(env)["nodes"] if (n["interaction"] or "").startswith(T("pane:list:")))
    track, thumb, limit = (int(v) for v in bar.rsplit(":", 3)[1:])
    assert limit == pane["extent"] - pane["bounds"]["height"] and thumb < track
    x, y = point(scene(env), bar)
    assert one(env, ptr("down", x, y))["success"]
    assert one(env, ptr("move", x, y + track))["value"] == {"cursor": "grabbing"}
    one(env, ptr("up", x, y + track))
    pane = next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))
    assert pane["offset"] == limit and rows(env)[-1] == "file199.txt"
    # a named click on the bar (no point) pages forward; Home brings the first row back
    shell(env, "files-location:" + f"{HOME}/Many")
    press(env, "Home")
    assert next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))["offset"] == 0
    bar = next(n["interaction"] for n in scene(env)["nodes"] if (n["interaction"] or "").startswith(T("pane:list:")))
    assert one(env, act("application.v1", "shell", target=bar))["success"]
    assert next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))["offset"] > 0
    press(env, "End")
    assert selected(env) == ["file199.txt"]
    assert next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))["offset"] == limit
    # a row scrolled into view is clicked where it is painted
    click(env, row(env, "file190.txt"))
    assert selected(env) == ["file190.txt"]


# -- state ---------------------------------------------------------------------------------


def test_listing_is_read_live_and_survives_snapshot_restore(env, w, fs):
    launch(env, f"{HOME}/Documents")
    snap = w.snapshot()
    fs.put_file(f"{HOME}/Documents/extra.txt", b"new", uid(fs), uid(fs))
    assert "extra.txt" in rows(env)
    w.restore(snap)
    assert "extra.txt" not in rows(env)


def test_state_is_plain_data_and_the_scene_is_deterministic():
    def run():
        w = world()
        env = desktop(w)
        launch(env)
        click(env, row(env, "Projects/"))
        press(env, "Ctrl+C", "ArrowDown", "Enter")
        press(env, "Ctrl+V")
        return scene(env)["digest"], w.state_hash()

    assert run() == run()


def test_a_window_at_its_minimum_size_still_reaches_every_control(env):
    launch(env)
    grip = point(scene(env), "window:0:resize:se")
    one(env, ptr("down", *grip, width=W, height=H))
    one(env, ptr("move", grip[0] - 900, grip[1] - 900))
    one(env, ptr("up", grip[0] - 900, grip[1] - 900))
    assert (win(env)["bounds"]["width"], win(env)["bounds"]["height"]) == (600, 420)
    current = scene(env)
    unreachable = [t for t in SPEC_TARGETS if t != "files-search-clear" and point(current, T(t)) is None]
    # the sidebar scrolls: what it clips is reached after scrolling it
    side = next(a for a in current["scrolls"] if a["target"] == T("pane:side"))
    b = side["bounds"]
    assert one(env, ptr("wheel", b["x"] + 20, b["y"] + 20, delta_y=1000))["value"] == {"handled": True}
    after = scene(env)
    assert [t for t in unreachable if point(after, T(t)) is None] == []
    click(env, by_label(env, "Computer"))
    assert win(env)["document"] == "/"


def test_the_scene_scales_to_a_small_viewport(env):
    launch(env)
    out = click(env, row(env, "Documents/"), width=320, height=200, op="double_click")
    assert out["success"]
    assert win(env)["document"] == f"{HOME}/Documents"


def test_accessibility_tree_names_controls_as_a_person_reads_them(env):
    launch(env)
    click(env, row(env, "notes.txt"))
    tree = {ax.id: ax for ax in Scene.from_plain(scene(env)).accessibility()}
    for target, role, name in (
        ("files-back", "button", "Back"),
        ("files-forward", "button", "Forward"),
        ("files-up", "button", "Go Up"),
        ("files-new-folder", "button", "New Folder"),
        ("files-delete", "button", "Move to Trash"),
        ("files-trash", "listitem", "Trash"),
        ("files-sort:name", "columnheader", "Name"),
        ("files-tab:0", "tab", "Home"),
    ):
        ax = tree[T(target)]
        assert (ax.role, ax.name) == (role, name), target
        assert ax.hit is not None or target in ("files-back", "files-forward"), target
    assert not tree[T("files-back")].enabled and tree[T("files-new-folder")].enabled
    notes = tree[T(f"open:{rows(env).index('notes.txt')}")]
    assert (notes.role, notes.name, notes.selected) == ("row", "notes.txt", True)
    documents = tree[T(f"open:{rows(env).index('Documents/')}")]
    assert (documents.role, documents.name, documents.selected) == ("row", "Documents/", False)
    assert scene(env)["focus"]["label"] == "notes.txt" and scene(env)["focus"]["role"] == "row"


def test_times_read_relative_to_the_logical_day(env, w):
    wid = launch(env, f"{HOME}/Documents")

    def texts():
        return {t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"] if t.get("window") == wid}

    assert "09:00" in texts()
    w.machine(M).clock.advance(24 * 3600 * 1_000_000)  # the next day
    assert "17 Sep" in texts() and "09:00" not in texts()


def test_the_list_offset_is_the_windows_and_each_tab_keeps_its_own(env, fs):
    populate(fs, f"{HOME}/Many", {f"file{i:03d}.txt": b"x" for i in range(200)})
    launch(env, f"{HOME}/Many")

    def offset() -> int:
        return next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))["offset"]

    b = next(a for a in scene(env)["scrolls"] if a["target"] == T("pane:list"))["bounds"]
    out = one(env, ptr("wheel", b["x"] + 40, b["y"] + 40, delta_y=640, width=W, height=H))
    assert out["value"] == {"handled": True} and out["effect"]["changed"] == ["scroll"]
    assert offset() == 640
    # a new tab starts at the top; going back to the first tab finds its place again
    press(env, "Ctrl+T")
    assert offset() == 0
    press(env, "Ctrl+PageUp")
    assert offset() == 640 and rows(env)[0] == "file020.txt"
    # keys that move the selection scroll it into view (content and scroll)
    out = one(env, key("End"))
    assert sorted(out["effect"]["changed"]) == ["content", "scroll"]


def test_ctrl_and_shift_clicks_select_several_rows(env):
    launch(env, f"{HOME}/Documents")
    names = rows(env)
    assert len(names) >= 4
    click(env, row(env, names[0]))
    one(env, ptr("click", *point(scene(env), row(env, names[2])), modifiers=["ctrl"]))
    assert selected(env) == [names[0], names[2]]
    # Ctrl+click again takes a row out
    one(env, ptr("click", *point(scene(env), row(env, names[0])), modifiers=["Ctrl"]))
    assert selected(env) == [names[2]]
    # Shift+click selects the range from the current row
    one(env, ptr("click", *point(scene(env), row(env, names[0])), modifiers=["shift"]))
    assert selected(env) == names[:3]
    # the selected rows act together
    shell(env, "files-copy")
    assert messages(env)[0] == "3 items will be copied when you paste."
    # a plain click selects one row again
    click(env, row(env, names[3]))
    assert selected(env) == [names[3]]
