"""Visual Studio Code (``code``), driven only through the actor handle (pointer, keyboard,
application; the terminal.v1 channel reads what the integrated terminal ran).

Controls are found in the scene by interaction id, role and label; files and the recent
documents are checked through the owner's machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desktop"))

from desktop_fixture import M, app, key, ok, one, point, ptr, type_

from cwgym import EnvironmentConfig, World
from cwgym.apps import _code_commands as cmds
from cwgym.apps import _textpane as tp
from cwgym.apps.code import MAX_CHARS, MAX_TABS
from cwgym.machine import recent
from cwgym.resources import load_world

W, H = 1280, 800
SITE = "/home/ada/Projects/website"
INDEX = "<!doctype html>\n<title>Northwind</title>\n<h1>Welcome to Northwind</h1>\n"
FILES = {
    "Projects/website/.editorconfig": "root = true\n",
    "Projects/website/.git/config": "[core]\n",
    "Projects/website/app.js": "const site = 'Northwind';\nconsole.log(site);\n",
    "Projects/website/css/site.css": "body { color: navy; }\n",
    "Projects/website/Zeta.txt": "zeta\r\nline two\r\n",
    "Projects/website/logo.png": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==",
}


def _world(files: dict | None = None) -> World:
    d = load_world("ubuntu-workstation")
    d["computers"][0]["installed_apps"].append("code")
    d["computers"][0]["initial_files"].update(FILES if files is None else files)
    return World(d, 7)


def _env(w: World, terminal: bool = False):
    config = EnvironmentConfig.desktop("ada", [M]).to_plain()
    if terminal:
        config["actions"] = [*config["actions"], "terminal.v1"]
        config["observations"] = [*config["observations"], "terminal.v1"]
    return w.environment(config)


def _open(argument: str | None = SITE, files: dict | None = None, terminal: bool = False):
    w = _world(files)
    env = _env(w, terminal)
    payload = {"kind": "code"} | ({"argument": argument} if argument else {})
    ok(env, app("launch", **payload))
    ok(env, app("maximize"))
    return w, env


def _scene(env) -> dict:
    return env.scene(W, H)


def _elements(env) -> dict[str, dict]:
    return {e["id"]: e for e in env.observe()["channels"]["semantic.v1"][M]["elements"]}


def _el(env, target: str) -> dict:
    return _elements(env)[f"window:0:content:{target}"]


def _focus(env) -> dict:
    return _scene(env)["focus"]


def _windows(env) -> list[dict]:
    return _scene(env).get("windows", [])


def _title(env) -> str:
    return _windows(env)[0]["title"]


def _text(env) -> str:
    buf = next(b for b in _scene(env)["buffers"] if b["handle"] == "window:0:editor")
    return "\n".join(buf["lines"])


def _click(env, target: str, op: str = "click", **payload) -> dict:
    at = point(_scene(env), f"window:0:content:{target}")
    assert at is not None, f"{target} cannot be reached"
    out = one(env, ptr(op, *at, width=W, height=H, **payload))
    assert out["success"], out
    return out


def _shell(env, target: str) -> dict:
    return one(env, app("shell", target=f"window:0:content:{target}"))


def _keys(env, *names: str) -> None:
    for name in names:
        ok(env, key(name))


def _read(w: World, path: str) -> bytes:
    return w.machine(M).fs.read_path(path)


def _tree(env) -> list[str]:
    """The explorer's rows top to bottom, as their targets' paths."""
    scene = _scene(env)
    rows = [
        (n["bounds"]["y"] + n["transform"]["ty"], n["interaction"].split(":content:explore:", 1)[1])
        for n in scene["nodes"]
        if (n["interaction"] or "").startswith("window:0:content:explore:") and n["semantic"]
    ]
    return [rel for _y, rel in sorted(rows)]


def _tabs(env) -> list[str]:
    return _windows(env)[0].get("tabs", [])


def _status_texts(env) -> list[str]:
    return [t["text"] for t in env.observe()["channels"]["semantic.v1"][M]["text"]]


def _row_point(env, logical: int, col: int) -> tuple[int, int]:
    scene = _scene(env)
    row = next(
        n
        for n in scene["nodes"]
        if n.get("line")
        and n["line"].get("pane") == "window:0:editor"
        and n["line"]["logical"] == logical
    )
    x, y = row["bounds"]["x"] + row["transform"]["tx"], row["bounds"]["y"] + row["transform"]["ty"]
    cw, _ch = tp.grid()
    return x + col * cw + 1, y + row["bounds"]["height"] // 2


# -- launching and the explorer ----------------------------------------------------------


def test_a_folder_opens_as_the_workspace_with_the_explorer_sorted_like_vs_code():
    _w, env = _open()
    assert _title(env) == "website — Visual Studio Code"
    # folders first, then files, by name case-insensitively; dot files shown, .git left out
    assert _tree(env) == [
        "css",
        ".editorconfig",
        "app.js",
        "index.html",
        "logo.png",
        "README.md",
        "Zeta.txt",
    ]
    css = _el(env, "explore:css")
    assert css["role"] == "treeitem" and css["label"] == "css"
    assert _focus(env)["interaction"] == "window:0:content:explorer-root"
    # a click on a folder expands it, a second one collapses it
    _click(env, "explore:css")
    assert _tree(env)[:2] == ["css", "css/site.css"]
    _click(env, "explore:css")
    assert "css/site.css" not in _tree(env)
    # the keyboard walks the tree: Down/Home select, Right expands, Enter opens a file
    _keys(env, "ArrowDown")
    assert _focus(env)["interaction"] == "window:0:content:explore:.editorconfig"
    _keys(env, "Home")
    assert _focus(env)["interaction"] == "window:0:content:explore:css"
    _keys(env, "ArrowRight", "ArrowRight")
    assert _focus(env)["interaction"] == "window:0:content:explore:css/site.css"
    _keys(env, "Enter")
    assert _title(env) == "site.css — website — Visual Studio Code"
    assert _focus(env)["interaction"] == "window:0:content:text"
    assert _text(env) == "body { color: navy; }\n"
    # Collapse Folders in Explorer
    _click(env, "command:workbench.files.action.collapseExplorerFolders")
    assert "css/site.css" not in _tree(env)


def test_the_default_workspace_is_the_home_folder_and_a_file_argument_opens_its_folder():
    _w, env = _open(argument=None)
    assert _title(env) == "ada — Visual Studio Code"
    assert "Projects" in _tree(env) and "notes.txt" in _tree(env)
    w, env = _open(argument=f"{SITE}/index.html")
    assert _title(env) == "index.html — website — Visual Studio Code"
    assert _text(env) == INDEX
    assert _scene(env)["windows"][0]["document"] == f"{SITE}/index.html"
    assert recent.recent(w.machine(M))[0]["path"] == f"{SITE}/index.html"


def test_a_missing_file_argument_opens_an_editor_that_creates_it_and_a_missing_folder_is_refused():
    w, env = _open(argument=f"{SITE}/new.py")
    assert _title(env) == "new.py — website — Visual Studio Code"
    assert "created when it is saved" in " ".join(_status_texts(env))
    ok(env, type_("print('hi')"))
    _keys(env, "Ctrl+s")
    assert _read(w, f"{SITE}/new.py") == b"print('hi')"
    w = _world()
    env = _env(w)
    out = one(env, app("launch", kind="code", argument="/home/ada/nowhere/x.txt"))
    assert not out["success"] and out["error"]["code"] == "action_failed"


def test_a_binary_file_gives_an_in_app_error_and_opens_nothing():
    w, env = _open()
    before = w.state_hash()
    _click(env, "explore:logo.png")
    assert _tabs(env) == []
    assert any("Unable to open 'logo.png'" in t for t in _status_texts(env))
    assert _read(w, f"{SITE}/logo.png").startswith(b"\x89PNG")
    assert w.state_hash() != before  # the message is shown...
    assert _title(env) == "website — Visual Studio Code"  # ...and nothing else changed


# -- tabs ----------------------------------------------------------------------------------


def test_tabs_switch_by_click_and_keys_and_close_with_the_x_and_primary_w():
    _w, env = _open()
    _click(env, "explore:index.html")
    _click(env, "explore:app.js")
    _click(env, "explore:README.md")
    assert _tabs(env) == ["index.html", "app.js", "README.md"]
    assert _el(env, "tab:2")["role"] == "tab" and _el(env, "tab:2")["label"] == "README.md"
    assert _title(env).startswith("README.md")
    _click(env, "tab:0")
    assert _title(env).startswith("index.html")
    _keys(env, "Ctrl+Tab")
    assert _title(env).startswith("app.js")
    _keys(env, "Ctrl+PageDown")
    assert _title(env).startswith("README.md")
    _keys(env, "Ctrl+PageUp")
    assert _title(env).startswith("app.js")
    # opening an open file switches to its tab
    _click(env, "explore:index.html")
    assert _tabs(env) == ["index.html", "app.js", "README.md"] and _title(env).startswith(
        "index.html"
    )
    _click(env, "tab-close:1")
    assert _tabs(env) == ["index.html", "README.md"]
    _keys(env, "Ctrl+w")
    assert _tabs(env) == ["README.md"]
    ok(env, app("shell", target="window:0:content:tab-close:0"))
    assert _tabs(env) == [] and _title(env) == "website — Visual Studio Code"
    assert (
        one(env, app("shell", target="window:0:content:tab:0"))["error"]["reason"]
        == "unknown_shell_target"
    )


def test_an_unsaved_tab_asks_before_closing_and_shows_the_dirty_dot():
    w, env = _open()
    _click(env, "explore:index.html")
    ok(env, type_("X"))
    assert _title(env) == "● index.html — website — Visual Studio Code"
    assert _tabs(env) == ["● index.html"]
    assert _el(env, "tab:0")["value"] == "modified"
    _keys(env, "Ctrl+w")
    elements = _elements(env)
    assert elements["window:0:content:dialog:save"]["label"] == "Save"
    assert elements["window:0:content:dialog:dont-save"]["label"] == "Don't Save"
    assert any("save the changes you made to index.html" in t for t in _status_texts(env))
    # while the dialog is up nothing else answers
    assert _shell(env, "explore:app.js")["error"]["reason"] == "unknown_shell_target"
    _click(env, "dialog:cancel")
    assert _tabs(env) == ["● index.html"]
    _click(env, "tab-close:0")
    _click(env, "dialog:dont-save")
    assert _tabs(env) == []
    assert _read(w, f"{SITE}/index.html") == INDEX.encode()
    # Save in the dialog writes and closes
    _click(env, "explore:index.html")
    ok(env, type_("Y"))
    _keys(env, "Ctrl+w", "Enter")
    assert _tabs(env) == []
    assert _read(w, f"{SITE}/index.html") == ("Y" + INDEX).encode()


def test_closing_the_window_asks_for_each_unsaved_editor_then_closes():
    w, env = _open()
    _click(env, "explore:index.html")
    ok(env, type_("A"))
    _keys(env, "Ctrl+n")
    ok(env, type_("scratch"))
    out = one(env, app("close", window=0))
    assert out["success"] and _windows(env), out
    assert _title(env).startswith("● index.html")
    _click(env, "dialog:save")
    # the untitled one is next: Save asks where, through Save As
    assert _title(env).startswith("● Untitled-1")
    _click(env, "dialog:save")
    assert _el(env, "save-path")["value"] == "~/Projects/website/Untitled-1.txt"
    ok(env, type_("scratch.txt"))
    _keys(env, "Enter")
    assert _windows(env) == []
    assert _read(w, f"{SITE}/index.html") == ("A" + INDEX).encode()
    assert _read(w, f"{SITE}/scratch.txt") == b"scratch"


# -- the text ------------------------------------------------------------------------------


def test_typing_editing_undo_and_the_gutter():
    w, env = _open()
    _click(env, "explore:app.js")
    _keys(env, "Ctrl+End")
    ok(env, type_("function f("))
    ok(env, type_("x"))
    # a multi-character type is inserted as written; one character is a keystroke: "{" closes
    ok(env, type_(")"))
    ok(env, type_(" "))
    ok(env, type_("{"))
    assert _text(env).endswith("function f(x) {}")
    _keys(env, "Enter")
    ok(env, type_("return x;"))
    assert _text(env).endswith("function f(x) {\n    return x;\n}")
    status = _status_texts(env)
    assert "Ln 4, Col 14" in status and "JavaScript" in status and "LF" in status
    # the gutter numbers every line
    labels = [
        n["primitive"]["text"]
        for n in _scene(env)["nodes"]
        if n["interaction"] == "window:0:content:text"
        and n["primitive"].get("font") == "mono"
        and not n.get("line")
    ]
    assert labels[:5] == ["1", "2", "3", "4", "5"]
    _keys(env, "Ctrl+z")
    assert not _text(env).endswith("return x;\n}")
    _keys(env, "Ctrl+y")
    assert _text(env).endswith("return x;\n}")
    _keys(env, "Ctrl+s")
    assert _read(w, f"{SITE}/app.js").decode().endswith("function f(x) {\n    return x;\n}")
    # a click places the caret; Home goes to the first non-blank
    _click_at(env, _row_point(env, 3, 6))
    assert _focus(env)["caret"]["line"] == 3 and _focus(env)["caret"]["column"] == 6
    _keys(env, "Home")
    assert _focus(env)["caret"]["column"] == 4


def _click_at(env, at: tuple[int, int]) -> None:
    ok(env, ptr("click", *at, width=W, height=H))


def test_line_commands_comment_move_copy_delete_and_indent():
    _w, env = _open()
    _click(env, "explore:app.js")
    _keys(env, "Ctrl+/")
    assert _text(env).split("\n")[0] == "// const site = 'Northwind';"
    _keys(env, "Ctrl+/")
    assert _text(env).split("\n")[0] == "const site = 'Northwind';"
    _keys(env, "Alt+ArrowDown")
    assert _text(env).split("\n")[:2] == ["console.log(site);", "const site = 'Northwind';"]
    _keys(env, "Alt+ArrowUp")
    assert _text(env).split("\n")[:2] == ["const site = 'Northwind';", "console.log(site);"]
    _keys(env, "Shift+Alt+ArrowDown")
    assert _text(env).split("\n")[:3] == ["const site = 'Northwind';"] * 2 + ["console.log(site);"]
    _keys(env, "Ctrl+Shift+k")
    assert _text(env).split("\n")[:2] == ["const site = 'Northwind';", "console.log(site);"]
    _keys(env, "ArrowUp", "Ctrl+]")
    assert _text(env).split("\n")[0] == "    const site = 'Northwind';"
    _keys(env, "Ctrl+[")
    assert _text(env).split("\n")[0] == "const site = 'Northwind';"
    _keys(env, "Ctrl+Enter")
    assert _text(env).split("\n")[:2] == ["const site = 'Northwind';", ""]
    # HTML comments wrap the line
    _click(env, "explore:index.html")
    _keys(env, "ArrowDown", "Ctrl+/")
    assert _text(env).split("\n")[1] == "<!-- <title>Northwind</title> -->"


def test_crlf_files_keep_their_line_ends():
    w, env = _open()
    _click(env, "explore:Zeta.txt")
    assert _text(env) == "zeta\nline two\n"
    assert "CRLF" in _status_texts(env) and "Plain Text" in _status_texts(env)
    ok(env, type_("'"))  # no auto-closing quotes in plain text
    _keys(env, "Ctrl+s")
    assert _read(w, f"{SITE}/Zeta.txt") == b"'zeta\r\nline two\r\n"


# -- the command palette ---------------------------------------------------------------------


def test_the_command_palette_filters_one_table_and_runs_the_highlighted_command():
    _w, env = _open()
    _keys(env, "Ctrl+Shift+p")
    field = _el(env, "palette-input")
    assert field["role"] == "textbox" and field["value"] == ">"
    assert _focus(env)["interaction"] == "window:0:content:palette-input"
    ok(env, type_("toggle terminal"))
    options = [e for e in _elements(env).values() if e["role"] == "option"]
    assert [o["label"] for o in options] == ["View: Toggle Terminal"]
    _keys(env, "Enter")
    assert "window:0:content:palette-input" not in _elements(env)
    assert _focus(env)["interaction"] == "window:0:content:terminal:terminal-input"
    # the palette shows the key bindings and why a command cannot run now
    _keys(env, "Ctrl+Shift+p")
    ok(env, type_("file: save"))
    labels = {o["label"]: o["value"] for o in _elements(env).values() if o["role"] == "option"}
    assert labels == {
        "File: Save": "No editor is open",
        "File: Save All": "No editor is open",
        "File: Save As...": "No editor is open",
    }
    assert "Ctrl+S" in _status_texts(env)
    _keys(env, "Escape")
    assert "window:0:content:palette-input" not in _elements(env)
    # a click on a row runs it
    _keys(env, "F1")
    ok(env, type_("new untitled"))
    _click(env, "palette:0")
    assert _tabs(env) == ["Untitled-1"]


def test_every_command_is_a_click_target_and_a_disabled_one_says_why():
    ids = [c.id for c in cmds.COMMANDS]
    assert len(ids) == len(set(ids))
    w, env = _open()
    snap = w.snapshot()
    for command in cmds.COMMANDS:
        out = _shell(env, f"command:{command.id}")
        if command.needs in ("editor", "find", "terminal"):
            assert not out["success"] and out["error"]["code"] == "action_failed", command.id
        else:
            assert out["success"], (command.id, out)
        w.restore(snap)
    # with an editor open (and the find widget and the terminal up) every command runs
    _click(env, "explore:index.html")
    _keys(env, "Ctrl+h", "Ctrl+`", "Ctrl+`")
    snap = w.snapshot()
    for command in cmds.COMMANDS:
        out = _shell(env, f"command:{command.id}")
        assert out["success"], (command.id, out)
        env.scene(W, H)
        w.restore(snap)
    assert _shell(env, "command:no.such.command")["error"]["reason"] == "unknown_shell_target"
    # the palette lists a command that cannot run now with the reason as its value
    _w, env = _open()
    _keys(env, "Ctrl+Shift+p")
    ok(env, type_("terminal: clear"))
    option = _el(env, "palette:0")
    assert (
        option["label"] == "Terminal: Clear"
        and option["value"] == "The terminal has not been started"
    )
    _keys(env, "Enter")
    assert any(
        "Terminal: Clear: The terminal has not been started." in t for t in _status_texts(env)
    )


def test_quick_open_finds_a_file_by_name_and_goes_to_a_line():
    _w, env = _open(argument="/home/ada/Projects")
    _keys(env, "Ctrl+p")
    ok(env, type_("site"))
    options = [e["label"] for e in _elements(env).values() if e["role"] == "option"]
    # the file whose name starts with the query first, then the paths that contain it
    assert options[0] == "website/css/site.css" and "website/index.html" in options
    assert "scripts/backup.sh" not in options
    _keys(env, "Enter")
    assert _title(env) == "site.css — Projects — Visual Studio Code"
    _click(env, "explore:website")
    _click(env, "explore:website/app.js")
    _keys(env, "Ctrl+g")
    assert _el(env, "palette-input")["value"] == ":"
    ok(env, type_("2:9"))
    _keys(env, "Enter")
    caret = _focus(env)["caret"]
    assert (caret["line"], caret["column"]) == (1, 8)
    _click(env, "command:workbench.action.gotoLine")
    assert _el(env, "palette-input")["value"] == ":"


def test_new_file_and_folder_and_open_folder_through_the_palette_prompts():
    w, env = _open()
    _click(env, "command:explorer.newFolder")
    ok(env, type_("docs"))
    _keys(env, "Enter")
    assert "docs" in _tree(env)
    _click(env, "command:explorer.newFile")
    assert _el(env, "palette-input")["value"] == "docs/"
    ok(env, type_("intro.md"))
    _keys(env, "Enter")
    assert _title(env) == "intro.md — website — Visual Studio Code"
    assert "docs/intro.md" in _tree(env)
    assert _read(w, f"{SITE}/docs/intro.md") == b""
    _keys(env, "Ctrl+Shift+p")
    ok(env, type_("open folder"))
    _keys(env, "Enter")
    _keys(env, "Ctrl+a")
    ok(env, type_("~/Documents"))
    _keys(env, "Enter")
    assert _title(env) == "intro.md — Documents — Visual Studio Code"
    assert "report.md" in _tree(env)
    _keys(env, "Ctrl+o", "Ctrl+a")
    ok(env, type_("~/Documents/todo.txt"))
    _keys(env, "Enter")
    assert _title(env).startswith("todo.txt")


# -- find and replace ----------------------------------------------------------------------


def test_find_counts_matches_steps_through_them_and_honours_match_case():
    _w, env = _open()
    _click(env, "explore:index.html")
    _keys(env, "Ctrl+f")
    assert _focus(env)["interaction"] == "window:0:content:find-query"
    ok(env, type_("northwind"))
    assert "1 of 2" in _status_texts(env)
    _click(env, "command:editor.action.nextMatchFindAction")
    assert "2 of 2" in _status_texts(env)
    _click(env, "command:editor.action.previousMatchFindAction")
    assert "1 of 2" in _status_texts(env)
    _keys(env, "Enter")
    assert "2 of 2" in _status_texts(env)
    _click(env, "command:toggleFindCaseSensitive")
    assert _el(env, "command:toggleFindCaseSensitive")["checked"] is True
    assert "No results" in _status_texts(env)
    _keys(env, "Alt+c")
    assert "No results" not in _status_texts(env)
    _keys(env, "Escape")
    assert "window:0:content:find-query" not in _elements(env)
    assert _focus(env)["interaction"] == "window:0:content:text"
    # F3 brings it back with the last query
    _keys(env, "F3")
    assert _el(env, "find-query")["value"] == "Northwind"  # seeded from the selected match


def test_replace_one_and_replace_all_then_undo_in_one_step():
    w, env = _open()
    _click(env, "explore:index.html")
    _keys(env, "Ctrl+h")
    ok(env, type_("Northwind"))
    _click(env, "replace-query")
    ok(env, type_("Southwind"))
    _click(env, "command:editor.action.replaceOne")
    assert _text(env) == INDEX.replace("Northwind", "Southwind", 1)
    # undo belongs to the text: leave the widget, undo, come back (the fields are kept)
    _keys(env, "Escape", "Ctrl+z")
    assert _text(env) == INDEX
    _keys(env, "Ctrl+h")
    assert _el(env, "replace-query")["value"] == "Southwind"
    _click(env, "command:editor.action.replaceAll")
    assert _text(env) == INDEX.replace("Northwind", "Southwind")
    assert any("Replaced 2 occurrences" in t for t in _status_texts(env))
    _keys(env, "Escape", "Ctrl+z")
    assert _text(env) == INDEX
    _keys(env, "Ctrl+y", "Ctrl+s")
    assert _read(w, f"{SITE}/index.html") == INDEX.replace("Northwind", "Southwind").encode()
    # the chevron hides the replace row
    _keys(env, "Ctrl+h")
    _click(env, "command:editor.action.startFindReplaceAction")
    assert "window:0:content:replace-query" not in _elements(env)


# -- saving --------------------------------------------------------------------------------


def test_save_writes_through_the_files_and_records_a_recent_document():
    w, env = _open()
    _click(env, "explore:README.md")
    ok(env, type_("# "))
    _keys(env, "Ctrl+s")
    assert _read(w, f"{SITE}/README.md").startswith(b"# Static site")
    assert recent.recent(w.machine(M))[0] == {
        "path": f"{SITE}/README.md",
        "app": "code",
        "time_us": 0,
    }
    assert _title(env) == "README.md — website — Visual Studio Code"


def test_save_as_checks_the_folder_and_asks_before_replacing():
    w, env = _open()
    _keys(env, "Ctrl+n")
    ok(env, type_("draft"))
    _keys(env, "Ctrl+s")
    assert _focus(env)["interaction"] == "window:0:content:save-path"
    ok(env, type_("~/nowhere/draft.txt"))
    _keys(env, "Enter")
    assert any("does not exist" in t for t in _status_texts(env))
    _keys(env, "Ctrl+a")
    ok(env, type_("index.html"))
    _click(env, "dialog:save-as")
    assert any("already exists" in t for t in _status_texts(env))
    assert _read(w, f"{SITE}/index.html") == INDEX.encode()
    _click(env, "dialog:cancel")
    assert _tabs(env) == ["● Untitled-1"]
    _keys(env, "Ctrl+Shift+s", "Ctrl+a")
    ok(env, type_("draft.txt"))
    _keys(env, "Enter")
    assert _read(w, f"{SITE}/draft.txt") == b"draft"
    assert _tabs(env) == ["draft.txt"]


# -- terminal, side bar ----------------------------------------------------------------------


def test_the_integrated_terminal_runs_commands_in_the_workspace():
    w, env = _open(terminal=True)
    _keys(env, "Ctrl+`")
    focus = _focus(env)
    assert (
        focus["interaction"] == "window:0:content:terminal:terminal-input"
        and focus["keyboard"]["text_entry"]
    )
    ok(env, type_("ls\n"))
    buf = next(b for b in _scene(env)["buffers"] if b["handle"] == "window:0:terminal")
    assert buf["lines"][-2:] == ["index.html", "logo.png"] or "index.html" in buf["lines"]
    latched = env.observe()["channels"]["terminal.v1"][M]
    assert "index.html" in str(latched)
    ok(env, type_("echo hi > made.txt\n"))
    assert _read(w, f"{SITE}/made.txt") == b"hi\n"
    assert "made.txt" in _tree(env)
    # Ctrl+w is the shell's there (delete a word), not Close Editor
    ok(env, type_("echo two words"))
    _keys(env, "Ctrl+w")
    assert _focus(env)["value"] == "echo two "
    _click(env, "command:workbench.action.terminal.clear")
    buf = next(b for b in _scene(env)["buffers"] if b["handle"] == "window:0:terminal")
    assert buf["lines"] == []
    _keys(env, "Ctrl+`")
    assert "window:0:content:terminal:terminal-input" not in _elements(env)
    assert _shell(env, "command:workbench.action.togglePanel")["success"]
    _click(env, "command:workbench.action.togglePanel")
    assert "window:0:content:terminal:terminal-input" not in _elements(env)


def test_primary_b_toggles_the_side_bar():
    _w, env = _open()
    assert _tree(env)
    _keys(env, "Ctrl+b")
    assert _tree(env) == []
    _click(env, "command:workbench.action.toggleSidebarVisibility")
    assert _tree(env)
    _keys(env, "Ctrl+b", "Ctrl+Shift+e")
    assert _tree(env) and _focus(env)["interaction"] == "window:0:content:explore:css"


# -- caps ----------------------------------------------------------------------------------


def test_fields_and_documents_refuse_text_past_their_caps():
    _w, env = _open()
    _keys(env, "Ctrl+p")
    ok(env, type_("a" * (tp.FIELD_MAX - 1)))
    out = one(env, type_("bb"))
    assert not out["success"] and out["error"]["code"] == "invalid"
    assert len(_el(env, "palette-input")["value"]) == tp.FIELD_MAX - 1
    _keys(env, "Escape")
    big = "x" * MAX_CHARS
    _w, env = _open(files={**FILES, "Projects/website/big.txt": big})
    _click(env, "explore:big.txt")
    out = one(env, type_("y"))
    assert not out["success"] and out["error"]["code"] == "invalid"
    _keys(env, "Ctrl+End", "Backspace")
    ok(env, type_("y"))
    assert len(_focus(env)["value"]) == MAX_CHARS and _focus(env)["value"].endswith("xy")
    # too many tabs
    _w, env = _open()
    for _ in range(MAX_TABS):
        _keys(env, "Ctrl+n")
    _keys(env, "Ctrl+n")
    assert len(_tabs(env)) == MAX_TABS
    assert any("At most" in t for t in _status_texts(env))


def test_the_key_bindings_come_from_the_command_table():
    from cwgym.apps.code import _bindings

    table = _bindings("Ctrl")
    assert table["Ctrl+Shift+p"] == "workbench.action.showCommands"
    assert table["Ctrl+s"] == "workbench.action.files.save"
    assert table["Ctrl+`"] == "workbench.action.terminal.toggleTerminal"
    assert table["Ctrl+b"] == "workbench.action.toggleSidebarVisibility"
    assert table["Ctrl+Tab"] == "workbench.action.nextEditor"
    assert cmds.key_label("Ctrl+Shift+p") == "Ctrl+Shift+P"
    # under a theme whose primary modifier is Meta (Cmd) the same table spells Meta
    assert _bindings("Meta")["Shift+Meta+p"] == "workbench.action.showCommands"
    assert "Ctrl+s" not in _bindings("Meta")


def test_the_pointer_selects_text_and_the_gutter_selects_a_line():
    w, env = _open()
    _click(env, "explore:index.html")
    x0, y0 = _row_point(env, 2, 4)
    x1, _y = _row_point(env, 2, 11)
    ok(env, ptr("down", x0, y0, width=W, height=H))
    ok(env, ptr("move", x1, y0, width=W, height=H))
    ok(env, ptr("up", x1, y0, width=W, height=H))
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "Welcome"
    # a double click selects the word; nothing selected, Ctrl+C copies the line
    ok(env, ptr("double_click", *_row_point(env, 1, 9), width=W, height=H))
    _keys(env, "Ctrl+c")
    assert w.machine(M).clipboard == "Northwind"
    _keys(env, "ArrowRight", "Ctrl+c")
    assert w.machine(M).clipboard == "<title>Northwind</title>\n"
    # a press in the gutter selects the whole line; typing replaces it
    _x, y = _row_point(env, 0, 0)
    ok(env, ptr("click", _x - 30, y, width=W, height=H))
    ok(env, type_("<!DOCTYPE html>\n"))
    assert _text(env).split("\n")[:2] == ["<!DOCTYPE html>", "<title>Northwind</title>"]


def test_the_workbench_controls_answer_the_pointer():
    _w, env = _open()
    _click(env, "command:workbench.action.showCommands")  # the activity bar's gear
    assert _el(env, "palette-input")["value"] == ">"
    _keys(env, "Escape")
    _click(env, "explorer-root")
    assert _tree(env) == []
    _click(env, "explorer-root")
    assert _tree(env)
    _click(env, "explore:index.html")
    _keys(env, "Ctrl+h")
    # nothing selected: the query takes the focus first
    assert _focus(env)["interaction"] == "window:0:content:find-query"
    ok(env, type_("title"))
    _keys(env, "Tab")
    assert _focus(env)["interaction"] == "window:0:content:replace-query"
    _click(env, "find-query")
    assert _focus(env)["interaction"] == "window:0:content:find-query"
    _click(env, "command:closeFindWidget")
    assert "window:0:content:find-query" not in _elements(env)
    # the status bar's position opens Go to Line
    _click(env, "command:workbench.action.gotoLine")
    ok(env, type_("3"))
    _keys(env, "Enter")
    assert _focus(env)["caret"]["line"] == 2
    # the palette runs Undo like the key
    ok(env, type_("z"))
    _keys(env, "Ctrl+Shift+p")
    ok(env, type_("undo"))
    _keys(env, "Enter")
    assert _text(env) == INDEX


def _first_row(env) -> int:
    return min(
        n["line"]["logical"]
        for n in _scene(env)["nodes"]
        if n.get("line") and n["line"].get("pane") == "window:0:editor"
    )


def test_the_wheel_and_the_scroll_bar_scroll_the_text_and_the_terminal():
    big = "".join(f"x{i} = {i}\n" for i in range(300))
    _w, env = _open(files={**FILES, "Projects/website/big.py": big})
    _click(env, "explore:big.py")
    at = point(_scene(env), "window:0:content:text")
    out = one(env, ptr("wheel", *at, delta_x=0, delta_y=200, width=W, height=H))
    assert out["effect"]["changed"] == ["scroll"]
    assert _first_row(env) == 200 // tp.grid()[1]
    bar = next(e for e in _elements(env) if e.startswith("window:0:content:pane:text:"))
    ok(env, app("shell", target=bar))
    assert _first_row(env) > 200 // tp.grid()[1]
    # each tab keeps its own place
    _click(env, "explore:index.html")
    assert _first_row(env) == 0
    _click(env, "tab:0")
    assert _first_row(env) > 200 // tp.grid()[1]
    _keys(env, "Ctrl+Home")
    assert _first_row(env) == 0
    _keys(env, "Ctrl+`")
    ok(env, type_("seq 1 100\n"))
    at = point(_scene(env), "window:0:content:terminal:terminal-input")
    out = one(env, ptr("wheel", *at, delta_x=0, delta_y=-200, width=W, height=H))
    assert out["effect"]["changed"] == ["scroll"]
