"""``code``: Visual Studio Code, a code editor with a workspace folder, tabs, a Command
Palette, find and replace and an integrated terminal.

The window: the activity bar (Explorer, Show All Commands), the Explorer side bar (the
workspace folder's tree), the tab strip of the open editors, the text area (the Text
Editor's text model on the ``mono`` cell grid of ``cwgym/apps/_textpane.py``, with a
line-number gutter), the find widget over its top right corner, the terminal panel under
it (the Terminal application's own model and painting, ``_code_terminal.py``) and the
status bar (``Ln 3, Col 7``, the indentation, the encoding, the line ends, the language).

One command table (``_code_commands.py``) drives the Command Palette, the key bindings
and the painted controls: every command is the click target ``command:<id>`` and a
control whose command cannot run now is painted disabled with the reason as its value.
See ``docs/apps/code.md`` for the targets, the keys, the files and the limits.
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.apps import _code_commands as cmds
from cwgym.apps import _code_model as model
from cwgym.apps import _code_terminal as term
from cwgym.apps import _code_view as view
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps.editor import MAX_CHARS, Editor
from cwgym.apps.editor import as_primary as _as_primary
from cwgym.apps.editor import check_fits as _fits
from cwgym.apps.editor import grapheme_unit as _unit
from cwgym.apps.editor import line_starts as _starts
from cwgym.apps.editor import new_document as _new_doc
from cwgym.apps.editor import selection_span as _span
from cwgym.desktop.framework import App, AppContext, AppError, UnknownTarget
from cwgym.desktop.keys import Chord, shortcut
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent

__all__ = ["DIRTY_MARK", "MAX_CHARS", "MAX_TABS", "QUICK_SHOWN", "TAB_SIZE", "Code"]

#: What the title shows in front of the name while the active editor has unsaved changes.
DIRTY_MARK = "● "
#: The most editors (tabs) a window keeps open.
MAX_TABS = 30
#: The most files Quick Open lists for a query.
QUICK_SHOWN = 200
#: Spaces one indentation step inserts (Tab, Enter after a bracket, Indent Line).
TAB_SIZE = 4
#: The text area's scroll pane (``pane:text``).
PANE = "text"

#: The text model shared with the Text Editor (undo steps, edits, the clipboard).
_TEXT = Editor()

#: Commands that act on the text and answer their keys only while the text has the focus.
TEXT_COMMANDS = frozenset(
    {
        "undo",
        "redo",
        "editor.action.clipboardCutAction",
        "editor.action.clipboardCopyAction",
        "editor.action.clipboardPasteAction",
        "editor.action.selectAll",
        "editor.action.commentLine",
        "editor.action.indentLines",
        "editor.action.outdentLines",
        "editor.action.moveLinesUpAction",
        "editor.action.moveLinesDownAction",
        "editor.action.copyLinesUpAction",
        "editor.action.copyLinesDownAction",
        "editor.action.deleteLines",
        "editor.action.insertLineAfter",
    }
)
#: Commands whose keys still reach the workbench while the terminal has the focus (VS
#: Code's ``terminal.integrated.commandsToSkipShell``); every other key goes to the shell.
TERMINAL_SKIPS = frozenset(
    {
        "workbench.action.showCommands",
        "workbench.action.quickOpen",
        "workbench.action.files.newUntitledFile",
        "workbench.action.files.openFile",
        "workbench.action.files.save",
        "workbench.action.files.saveAs",
        "workbench.action.nextEditor",
        "workbench.action.previousEditor",
        "workbench.action.terminal.toggleTerminal",
        "workbench.action.togglePanel",
        "workbench.action.toggleSidebarVisibility",
        "workbench.view.explorer",
    }
)
PAIRS = {"(": ")", "[": "]", "{": "}", '"': '"', "'": "'", "`": "`"}
QUOTES = frozenset("\"'`")
#: Characters after which an opening bracket or quote closes itself (VS Code's
#: ``autoCloseBefore``), besides the end of the text.
AUTO_CLOSE_BEFORE = frozenset(";:.,=}])>` \n\t")
_NO_PAIRS = frozenset({"Plain Text", "CSV"})
_NO_QUOTE_PAIRS = frozenset({"Markdown", "Plain Text", "CSV"})

_BINDINGS: dict[str, dict[str, str]] = {}


def _bindings(primary: str) -> dict[str, str]:
    """Chord name -> command id under a theme's primary modifier."""
    found = _BINDINGS.get(primary)
    if found is None:
        found = {}
        for c in cmds.COMMANDS:
            for spec in c.keys:
                found.setdefault(shortcut(spec, primary), c.id)
        _BINDINGS[primary] = found
    return found


# -- small helpers -------------------------------------------------------------------------


def _tab(state: dict) -> dict | None:
    return state["tabs"][state["active"]] if state["active"] >= 0 else None


def _dirty(tab: dict) -> bool:
    return tab["text"] != tab["saved"]


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _tilde(path: str, home: str) -> str:
    if path == home or path.startswith(home + "/"):
        return "~" + path[len(home) :]
    return path


def _new_tab(path: str | None, name: str, text: str, eol: str = "LF") -> dict[str, Any]:
    tab = _new_doc(path, text)
    tab.update({"name": name, "eol": eol, "top": None})
    return tab


def _language(tab: dict) -> str:
    return model.language(tab["path"] or tab["name"])


class Code(App):
    id = "code"
    label = "Visual Studio Code"
    kind = "native"
    keyboard_route = "editor"
    default_size = (1120, 720)
    min_size = (640, 400)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        ufs = ctx.files()
        root: str | None = ctx.home
        file: str | None = None
        if argument:
            path = model.resolve(argument, ctx.home, ctx.cwd)
            if ufs.is_dir(path, "/"):
                root = path
            elif ufs.exists(path, "/") or ufs.is_dir(posixpath.dirname(path), "/"):
                root, file = posixpath.dirname(path), path
            else:
                raise AppError(f"no such file or folder: {argument}")
        state: dict[str, Any] = {
            "root": root,
            "root_closed": False,
            "expanded": [],
            "sidebar": True,
            "tree_sel": None,
            "tabs": [],
            "active": -1,
            "untitled": 1,
            "focus": "explorer",
            "palette": None,
            "find": None,
            "find_memory": {"query": "", "replace": "", "case": False},
            "dialog": None,
            "panel": False,
            "term": None,
            "status": "",
            "error": False,
            "drag": None,
            "clicks": None,
        }
        if file is not None:
            if ufs.exists(file, "/"):
                self._open_file(ctx, state, file)
            else:
                state["tabs"].append(_new_tab(file, posixpath.basename(file), ""))
                state["active"] = 0
                state["focus"] = "text"
                self._status(state, f"{posixpath.basename(file)} will be created when it is saved.")
        return state

    def title(self, state: dict) -> str:
        parts = []
        tab = _tab(state)
        if tab is not None:
            parts.append((DIRTY_MARK if _dirty(tab) else "") + tab["name"])
        if state["root"] is not None:
            parts.append(posixpath.basename(state["root"].rstrip("/")) or state["root"])
        parts.append(self.label)
        return " — ".join(parts)

    def document(self, state: dict) -> str:
        tab = _tab(state)
        return (tab["path"] or "") if tab is not None else ""

    def tabs(self, state: dict) -> list[str]:
        return [(DIRTY_MARK if _dirty(t) else "") + t["name"] for t in state["tabs"]]

    def active_tab(self, state: dict) -> int:
        return max(0, state["active"])

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        rows: tuple = ()
        if state["sidebar"] and state["root"] is not None and not state["root_closed"]:
            rows = self._rows(ctx, state)
        return ctx.primary, rows, self._quick(ctx, state)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        view.paint(p, state, key)

    def _rows(self, ctx: AppContext, state: dict) -> tuple:
        if state["root"] is None:
            return ()
        return model.tree(ctx.files(), state["root"], tuple(state["expanded"]))

    def _quick(self, ctx: AppContext, state: dict) -> tuple[str, ...]:
        pal = state["palette"]
        if (
            pal is None
            or pal["prompt"] is not None
            or pal["text"][:1] in (">", ":")
            or state["root"] is None
        ):
            return ()
        files = model.quick_files(ctx.files(), state["root"])
        return tuple(model.rank_files(files, pal["text"])[:QUICK_SHOWN])

    # -- messages ----------------------------------------------------------------------
    @staticmethod
    def _status(state: dict, text: str, error: bool = False) -> None:
        state["status"], state["error"] = text, error

    # -- tabs --------------------------------------------------------------------------
    def _switch(self, ctx: AppContext, state: dict, index: int) -> None:
        old = _tab(state)
        if old is not None and state["active"] != index:
            old["top"] = ctx.scroll_offset(PANE)
        state["active"] = index
        tab = _tab(state)
        ctx.set_scroll_offset(PANE, tab["top"] if tab is not None else None)

    def _open_file(self, ctx: AppContext, state: dict, path: str) -> bool:
        for i, tab in enumerate(state["tabs"]):
            if tab["path"] == path:
                self._switch(ctx, state, i)
                state["focus"] = "text"
                return True
        name = posixpath.basename(path)
        try:
            data = ctx.files().read(path, "/")
        except FsError as exc:
            self._status(state, f"Unable to open '{name}': {exc.strerror_text}.", True)
            return False
        text, eol, problem = model.decode(data)
        if text is None:
            self._status(state, f"Unable to open '{name}': {problem}", True)
            return False
        if len(state["tabs"]) >= MAX_TABS:
            self._status(state, f"At most {MAX_TABS} editors can be open: close one first.", True)
            return False
        state["tabs"].append(_new_tab(path, name, text, eol))
        self._switch(ctx, state, len(state["tabs"]) - 1)
        state["focus"] = "text"
        self._status(state, "")
        add_recent(ctx.machine, path, self.id)
        return True

    def _new_untitled(self, ctx: AppContext, state: dict) -> None:
        if len(state["tabs"]) >= MAX_TABS:
            self._status(state, f"At most {MAX_TABS} editors can be open: close one first.", True)
            return
        n = state["untitled"]
        state["untitled"] = n + 1
        state["tabs"].append(_new_tab(None, f"Untitled-{n}", ""))
        self._switch(ctx, state, len(state["tabs"]) - 1)
        state["focus"] = "text"

    def _remove_tab(self, ctx: AppContext, state: dict, index: int) -> None:
        active = state["active"]
        if index != active:
            state["tabs"].pop(index)
            if index < active:
                state["active"] = active - 1
            return
        state["tabs"].pop(index)
        state["active"] = -1
        if state["tabs"]:
            self._switch(ctx, state, min(index, len(state["tabs"]) - 1))
        else:
            ctx.set_scroll_offset(PANE, None)
            state["find"] = None
            if state["focus"] in ("text", "find", "replace"):
                state["focus"] = "explorer"

    def _close_tab(self, ctx: AppContext, state: dict, index: int, then: str = "one") -> None:
        """Close editor ``index``; with unsaved changes ask first. ``then`` goes on after
        it: ``one`` stops, ``all`` closes the other editors too, ``window`` the window."""
        if _dirty(state["tabs"][index]):
            if state["active"] != index:
                self._switch(ctx, state, index)
            state["dialog"] = {"kind": "close", "tab": index, "then": then}
            state["palette"] = None
            return
        self._remove_tab(ctx, state, index)
        self._go_on(ctx, state, then)

    def _go_on(self, ctx: AppContext, state: dict, then: str) -> None:
        if then == "one":
            return
        while state["tabs"]:
            if _dirty(state["tabs"][0]):
                self._close_tab(ctx, state, 0, then)
                return
            self._remove_tab(ctx, state, 0)
        if then == "window":
            ctx.close()

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        first = next((i for i, t in enumerate(state["tabs"]) if _dirty(t)), None)
        if first is None:
            return True
        if state["dialog"] is None:
            self._switch(ctx, state, first)
            state["dialog"] = {"kind": "close", "tab": first, "then": "window"}
            state["palette"] = None
        return False

    # -- saving --------------------------------------------------------------------------
    def _write(self, ctx: AppContext, tab: dict, path: str) -> str | None:
        try:
            ctx.files().write(path, "/", model.encode(tab["text"], tab["eol"]))
        except FsError as exc:
            return exc.strerror_text
        tab["path"] = path
        tab["name"] = posixpath.basename(path)
        tab["saved"] = tab["text"]
        add_recent(ctx.machine, path, self.id)
        return None

    def _save(self, ctx: AppContext, state: dict, index: int, then: str | None = None) -> bool:
        tab = state["tabs"][index]
        if tab["path"] is None:
            self._open_save_as(ctx, state, index, then)
            return False
        problem = self._write(ctx, tab, tab["path"])
        if problem is not None:
            self._status(state, f"Failed to save '{tab['name']}': {problem}.", True)
            return False
        self._status(state, "")
        return True

    def _open_save_as(
        self, ctx: AppContext, state: dict, index: int, then: str | None = None
    ) -> None:
        tab = state["tabs"][index]
        if tab["path"] is not None:
            suggested = tab["path"]
        else:
            suffix = "" if "." in tab["name"] else ".txt"
            suggested = f"{(state['root'] or ctx.home).rstrip('/')}/{tab['name']}{suffix}"
        state["dialog"] = {
            "kind": "save-as",
            "tab": index,
            "path": tp.field(_tilde(suggested, ctx.home), select=True),
            "error": "",
            "then": then,
            "replace": None,
        }
        state["palette"] = None

    def _confirm_save_as(self, ctx: AppContext, state: dict) -> None:
        dialog = state["dialog"]
        raw = dialog["path"]["text"].strip()
        if not raw or raw.endswith("/"):
            dialog["error"] = "Type the path of the file, with its name."
            return
        path = model.resolve(raw, ctx.home, state["root"] or ctx.home)
        ufs = ctx.files()
        folder = posixpath.dirname(path)
        if not ufs.is_dir(folder, "/"):
            dialog["error"] = f"The folder '{_tilde(folder, ctx.home)}' does not exist."
            return
        if ufs.is_dir(path, "/"):
            dialog["error"] = f"'{raw}' is a folder."
            return
        index = dialog["tab"]
        if any(t["path"] == path for i, t in enumerate(state["tabs"]) if i != index):
            dialog["error"] = (
                f"'{posixpath.basename(path)}' is open in another editor: close it first."
            )
            return
        tab = state["tabs"][index]
        if ufs.exists(path, "/") and path != tab["path"] and dialog["replace"] != path:
            dialog["replace"] = path
            dialog["error"] = (
                f"'{posixpath.basename(path)}' already exists. Select Save again to replace it."
            )
            return
        problem = self._write(ctx, tab, path)
        if problem is not None:
            dialog["error"] = f"Failed to save '{posixpath.basename(path)}': {problem}."
            return
        state["dialog"] = None
        state["focus"] = "text"
        self._status(state, "")
        then = dialog["then"]
        if then is not None:
            self._remove_tab(ctx, state, index)
            self._go_on(ctx, state, then)

    # -- commands ------------------------------------------------------------------------
    def _command(self, ctx: AppContext, state: dict, cid: str, *, from_key: bool = False) -> bool:
        """Run a command of the table; whether it ran (``False``: it cannot run now, and a
        key then is not taken)."""
        command = cmds.BY_ID[cid]
        reason = cmds.unmet(state, command)
        if reason is not None:
            if not from_key:
                self._status(state, f"{command.title}: {reason}.", True)
            return False
        getattr(self, "_do_" + cid.replace(".", "_"))(ctx, state)
        return True

    def _do_workbench_action_showCommands(self, ctx: AppContext, state: dict) -> None:
        self._open_palette(state, ">")

    def _do_workbench_action_quickOpen(self, ctx: AppContext, state: dict) -> None:
        self._open_palette(state, "")

    def _do_workbench_action_gotoLine(self, ctx: AppContext, state: dict) -> None:
        self._open_palette(state, ":")

    def _open_palette(self, state: dict, text: str, prompt: str | None = None) -> None:
        state["palette"] = {**tp.field(text), "sel": 0, "prompt": prompt}
        state["focus"] = "palette"

    def _do_workbench_action_files_newUntitledFile(self, ctx: AppContext, state: dict) -> None:
        self._new_untitled(ctx, state)

    def _do_workbench_action_files_openFile(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        base = (
            posixpath.dirname(tab["path"])
            if tab is not None and tab["path"]
            else state["root"] or ctx.home
        )
        self._open_palette(state, _tilde(base, ctx.home).rstrip("/") + "/", "open-file")

    def _do_workbench_action_files_openFolder(self, ctx: AppContext, state: dict) -> None:
        self._open_palette(state, _tilde(state["root"] or ctx.home, ctx.home), "open-folder")

    def _selected_folder(self, ctx: AppContext, state: dict) -> str:
        """The explorer's selected folder (or the selected file's folder), relative."""
        sel = state["tree_sel"]
        if not sel:
            return ""
        row = next((r for r in self._rows(ctx, state) if r.rel == sel), None)
        if row is None:
            return ""
        return row.rel if row.folder else posixpath.dirname(row.rel)

    def _do_explorer_newFile(self, ctx: AppContext, state: dict) -> None:
        folder = self._selected_folder(ctx, state)
        self._open_palette(state, folder + "/" if folder else "", "new-file")

    def _do_explorer_newFolder(self, ctx: AppContext, state: dict) -> None:
        folder = self._selected_folder(ctx, state)
        self._open_palette(state, folder + "/" if folder else "", "new-folder")

    def _do_workbench_action_files_save(self, ctx: AppContext, state: dict) -> None:
        self._save(ctx, state, state["active"])

    def _do_workbench_action_files_saveAs(self, ctx: AppContext, state: dict) -> None:
        self._open_save_as(ctx, state, state["active"])

    def _do_workbench_action_files_saveAll(self, ctx: AppContext, state: dict) -> None:
        for i, tab in enumerate(state["tabs"]):
            if _dirty(tab) and tab["path"] is not None and not self._save(ctx, state, i):
                return
        untitled = next(
            (i for i, t in enumerate(state["tabs"]) if _dirty(t) and t["path"] is None), None
        )
        if untitled is not None:
            self._switch(ctx, state, untitled)
            self._open_save_as(ctx, state, untitled)

    def _do_workbench_action_files_revert(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        assert tab is not None
        if tab["path"] is None:
            text = ""
        else:
            try:
                data = ctx.files().read(tab["path"], "/")
            except FsError as exc:
                self._status(state, f"Unable to revert '{tab['name']}': {exc.strerror_text}.", True)
                return
            text, eol, problem = model.decode(data)
            if text is None:
                self._status(state, f"Unable to revert '{tab['name']}': {problem}", True)
                return
            tab["eol"] = eol
        if text != tab["text"]:
            _TEXT.apply_edit(tab, 0, len(tab["text"]), text, "replace")
            tab["caret"] = min(tab["caret"], len(text))
        tab["saved"] = text
        state["focus"] = "text"

    def _do_workbench_action_closeActiveEditor(self, ctx: AppContext, state: dict) -> None:
        self._close_tab(ctx, state, state["active"])

    def _do_workbench_action_closeAllEditors(self, ctx: AppContext, state: dict) -> None:
        self._go_on(ctx, state, "all")

    def _do_workbench_action_nextEditor(self, ctx: AppContext, state: dict) -> None:
        self._switch(ctx, state, (state["active"] + 1) % len(state["tabs"]))
        state["focus"] = "text"

    def _do_workbench_action_previousEditor(self, ctx: AppContext, state: dict) -> None:
        self._switch(ctx, state, (state["active"] - 1) % len(state["tabs"]))
        state["focus"] = "text"

    # find and replace
    def _show_find(self, state: dict, replace: bool | None) -> None:
        tab = _tab(state)
        assert tab is not None
        s, e = _span(tab)
        chosen = tab["text"][s:e]
        memory = state["find_memory"]
        find = state["find"]
        if find is None:
            query = memory["query"]
            find = state["find"] = {
                "query": tp.field(query, select=True),
                "replace": tp.field(memory["replace"]),
                "case": memory["case"],
                "show_replace": bool(replace),
            }
        elif replace is not None:
            find["show_replace"] = replace
        seeded = bool(chosen) and "\n" not in chosen
        if seeded:
            find["query"] = tp.field(chosen, select=True)
        else:
            tp.field_select_all(find["query"])
        # Replace goes on to the replace field when the query was just seeded from the
        # selection or already had the focus; otherwise the query (selected) takes it
        state["focus"] = "replace" if replace and (seeded or state["focus"] == "find") else "find"

    def _remember_find(self, state: dict) -> None:
        find = state["find"]
        if find is not None:
            state["find_memory"] = {
                "query": find["query"]["text"],
                "replace": find["replace"]["text"],
                "case": find["case"],
            }

    def _do_actions_find(self, ctx: AppContext, state: dict) -> None:
        self._show_find(state, None if state["find"] is not None else False)
        state["focus"] = "find"

    def _do_editor_action_startFindReplaceAction(self, ctx: AppContext, state: dict) -> None:
        find = state["find"]
        if find is not None and find["show_replace"]:
            find["show_replace"] = False
            if state["focus"] == "replace":
                state["focus"] = "find"
            return
        self._show_find(state, True)

    def _find_step(
        self, ctx: AppContext, state: dict, direction: int, origin: int | None = None
    ) -> None:
        tab = _tab(state)
        find = state["find"]
        assert tab is not None and find is not None
        q = find["query"]["text"]
        if not q:
            return
        found = model.find_all(tab["text"], q, find["case"])
        if not found:
            return
        s, e = _span(tab)
        if direction > 0:
            start = e if origin is None else origin
            at = next((x for x in found if x >= start), found[0])
        else:
            at = next((x for x in reversed(found) if x < s), found[-1])
        tab["anchor"], tab["caret"] = at, at + len(q)
        tab["goal"] = tab["group"] = None
        self._reveal(ctx, state)

    def _do_editor_action_nextMatchFindAction(self, ctx: AppContext, state: dict) -> None:
        if state["find"] is None:
            self._show_find(state, False)
        self._find_step(ctx, state, 1)

    def _do_editor_action_previousMatchFindAction(self, ctx: AppContext, state: dict) -> None:
        if state["find"] is None:
            self._show_find(state, False)
        self._find_step(ctx, state, -1)

    def _do_editor_action_replaceOne(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        find = state["find"]
        assert tab is not None and find is not None
        q, new = find["query"]["text"], find["replace"]["text"]
        if not q:
            return
        s, e = _span(tab)
        if s != e and model.find_all(tab["text"][s:e], q, find["case"]) == [0] and e - s == len(q):
            _fits(tab, s, e, new)
            _TEXT.apply_edit(tab, s, e, new, "replace")
            self._find_step(ctx, state, 1, s + len(new))
            return
        self._find_step(ctx, state, 1, s)

    def _do_editor_action_replaceAll(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        find = state["find"]
        assert tab is not None and find is not None
        q, new = find["query"]["text"], find["replace"]["text"]
        found = model.find_all(tab["text"], q, find["case"]) if q else []
        if not found:
            self._status(state, f"No results for '{q}'." if q else "Type what to find first.")
            return
        text = tab["text"]
        lo, hi = found[0], found[-1] + len(q)
        pieces = []
        prev = lo
        for at in found:
            pieces.append(text[prev:at])
            pieces.append(new)
            prev = at + len(q)
        block = "".join(pieces)
        _fits(tab, lo, hi, block)
        _TEXT.apply_edit(tab, lo, hi, block, "replace")
        tab["caret"], tab["anchor"] = lo + len(block), None
        n = len(found)
        self._status(
            state, f"Replaced {n} occurrence{'s' if n != 1 else ''} of '{q}' with '{new}'."
        )

    def _do_toggleFindCaseSensitive(self, ctx: AppContext, state: dict) -> None:
        if state["find"] is None:
            self._show_find(state, False)
        find = state["find"]
        find["case"] = not find["case"]
        self._remember_find(state)

    def _do_closeFindWidget(self, ctx: AppContext, state: dict) -> None:
        self._remember_find(state)
        state["find"] = None
        state["focus"] = "text"

    # editing
    def _do_undo(self, ctx: AppContext, state: dict) -> None:
        _TEXT.undo_edit(_tab(state))
        state["focus"] = "text"

    def _do_redo(self, ctx: AppContext, state: dict) -> None:
        _TEXT.redo_edit(_tab(state))
        state["focus"] = "text"

    def _do_editor_action_clipboardCutAction(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        s, e = _span(tab)
        if s == e:  # VS Code cuts the whole line when nothing is selected
            self._line_clip(ctx, tab, cut=True)
        else:
            _TEXT.copy_selection(ctx, tab, cut=True)
        state["focus"] = "text"

    def _do_editor_action_clipboardCopyAction(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        s, e = _span(tab)
        if s == e:
            self._line_clip(ctx, tab, cut=False)
        else:
            _TEXT.copy_selection(ctx, tab, cut=False)
        state["focus"] = "text"

    def _line_clip(self, ctx: AppContext, tab: dict, cut: bool) -> None:
        text = tab["text"]
        line, _col = _line_col(text, tab["caret"])
        lines = text.split("\n")
        starts = _starts(lines)
        ctx.clipboard = lines[line] + "\n"
        if cut:
            s = starts[line]
            e = min(len(text), starts[line + 1])
            if e == len(text) and line > 0 and e - s == len(lines[line]):
                s -= 1  # the last line: take the line break before it
            _TEXT.apply_edit(tab, s, e, "", "cut")

    def _do_editor_action_clipboardPasteAction(self, ctx: AppContext, state: dict) -> None:
        _TEXT.paste_clipboard(ctx, _tab(state))
        state["focus"] = "text"

    def _do_editor_action_selectAll(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        tab["anchor"], tab["caret"] = (0, len(tab["text"])) if tab["text"] else (None, 0)
        tab["group"] = None
        state["focus"] = "text"

    def _line_span(self, tab: dict) -> tuple[int, int]:
        """The first and last line the selection (or the caret) covers; a selection
        ending at the start of a line leaves that line out."""
        s, e = _span(tab)
        text = tab["text"]
        first = text.count("\n", 0, s)
        last = text.count("\n", 0, e)
        if e > s and last > first and (e == 0 or text[e - 1] == "\n"):
            last -= 1
        return first, last

    def _map_lines(self, tab: dict, first: int, last: int, fn: Any) -> None:
        """Replace lines ``first..last`` by ``fn(line) -> (new line, shift)``, where
        ``shift`` moves the columns of that line; the selection follows."""
        lines = tab["text"].split("\n")
        starts = _starts(lines)
        new_lines = []
        shifts = []
        for i in range(first, last + 1):
            new, shift = fn(lines[i])
            new_lines.append(new)
            shifts.append(shift)
        block = "\n".join(new_lines)
        lo, hi = starts[first], starts[last] + len(lines[last])
        if block == tab["text"][lo:hi]:
            return
        old_marks = [tab["anchor"], tab["caret"]]
        old_text = tab["text"]
        _fits(tab, lo, hi, block)
        _TEXT.apply_edit(tab, lo, hi, block, "replace")
        new_starts = _starts(new_lines)
        marks = []
        for m in old_marks:
            if m is None:
                marks.append(None)
                continue
            if m < lo:
                marks.append(m)
            elif m > hi:
                marks.append(m + len(block) - (hi - lo))
            else:
                old_line = old_text.count("\n", 0, m)
                col = m - starts[old_line]
                k = old_line - first
                col = max(0, min(len(new_lines[k]), col + shifts[k]))
                marks.append(lo + new_starts[k] + col)
        tab["anchor"], tab["caret"] = marks
        if tab["anchor"] == tab["caret"]:
            tab["anchor"] = None

    def _do_editor_action_indentLines(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        first, last = self._line_span(tab)
        self._map_lines(
            tab, first, last, lambda line: (" " * TAB_SIZE + line, TAB_SIZE) if line else (line, 0)
        )
        state["focus"] = "text"

    def _do_editor_action_outdentLines(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        first, last = self._line_span(tab)
        self._map_lines(tab, first, last, _outdent)
        state["focus"] = "text"

    def _do_editor_action_commentLine(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        state["focus"] = "text"
        tokens = model.comment_tokens(_language(tab))
        if tokens is None:
            return
        start, end = tokens
        first, last = self._line_span(tab)
        lines = tab["text"].split("\n")[first : last + 1]
        filled = [x for x in lines if x.strip()]
        if not filled:
            return
        if end:
            commented = all(x.strip().startswith(start) and x.strip().endswith(end) for x in filled)
        else:
            commented = all(x.lstrip().startswith(start) for x in filled)
        indent = min(len(x) - len(x.lstrip()) for x in filled)

        def toggle(line: str) -> tuple[str, int]:
            if not line.strip():
                return line, 0
            if commented:
                lead = len(line) - len(line.lstrip())
                body = line[lead:][len(start) :]
                cut = len(start)
                if body.startswith(" "):
                    body, cut = body[1:], cut + 1
                if end:
                    body = body.rstrip()
                    body = body[: -len(end)]
                    body = body[:-1] if body.endswith(" ") else body
                return line[:lead] + body, -cut
            if end:
                return f"{line[:indent]}{start} {line[indent:]} {end}", len(start) + 1
            return f"{line[:indent]}{start} {line[indent:]}", len(start) + 1

        self._map_lines(tab, first, last, toggle)

    def _move_lines(self, ctx: AppContext, state: dict, step: int, copy: bool) -> None:
        tab = _tab(state)
        state["focus"] = "text"
        first, last = self._line_span(tab)
        lines = tab["text"].split("\n")
        starts = _starts(lines)
        block = lines[first : last + 1]
        size = sum(len(x) + 1 for x in block)  # the block with its line breaks
        a, c = tab["anchor"], tab["caret"]
        if copy:
            at = starts[last] + len(lines[last])
            _fits(tab, at, at, "\n" + "\n".join(block))
            _TEXT.apply_edit(tab, at, at, "\n" + "\n".join(block), "replace")
            shift = size if step > 0 else 0
        else:
            if (step < 0 and first == 0) or (step > 0 and last >= len(lines) - 1):
                return
            if step < 0:
                other = lines[first - 1]
                lo, hi = starts[first - 1], starts[last] + len(lines[last])
                new = "\n".join([*block, other])
                shift = -(len(other) + 1)
            else:
                other = lines[last + 1]
                lo, hi = starts[first], starts[last + 1] + len(other)
                new = "\n".join([other, *block])
                shift = len(other) + 1
            _TEXT.apply_edit(tab, lo, hi, new, "replace")
        tab["anchor"] = None if a is None else a + shift
        tab["caret"] = c + shift
        if tab["anchor"] == tab["caret"]:
            tab["anchor"] = None

    def _do_editor_action_moveLinesUpAction(self, ctx: AppContext, state: dict) -> None:
        self._move_lines(ctx, state, -1, False)

    def _do_editor_action_moveLinesDownAction(self, ctx: AppContext, state: dict) -> None:
        self._move_lines(ctx, state, 1, False)

    def _do_editor_action_copyLinesUpAction(self, ctx: AppContext, state: dict) -> None:
        self._move_lines(ctx, state, -1, True)

    def _do_editor_action_copyLinesDownAction(self, ctx: AppContext, state: dict) -> None:
        self._move_lines(ctx, state, 1, True)

    def _do_editor_action_deleteLines(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        state["focus"] = "text"
        first, last = self._line_span(tab)
        lines = tab["text"].split("\n")
        starts = _starts(lines)
        _line, col = _line_col(tab["text"], tab["caret"])
        if last < len(lines) - 1:
            lo, hi = starts[first], starts[last + 1]
        elif first > 0:
            lo, hi = starts[first] - 1, len(tab["text"])
        else:
            lo, hi = 0, len(tab["text"])
        _TEXT.apply_edit(tab, lo, hi, "", "cut")
        text = tab["text"]
        line = min(first, text.count("\n"))
        start = _starts(text.split("\n"))[line]
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        tab["caret"], tab["anchor"] = min(start + col, end), None

    def _do_editor_action_insertLineAfter(self, ctx: AppContext, state: dict) -> None:
        tab = _tab(state)
        state["focus"] = "text"
        text = tab["text"]
        end = text.find("\n", tab["caret"])
        end = len(text) if end < 0 else end
        line_start = text.rfind("\n", 0, end) + 1
        indent = _indent_of(text[line_start:end])
        tab["anchor"], tab["caret"] = None, end
        _fits(tab, end, end, "\n" + indent)
        _TEXT.apply_edit(tab, end, end, "\n" + indent, "newline")

    # the workbench
    def _panel_rect(self, ctx: AppContext, state: dict) -> Any:
        g = view.Geom(ctx.width, ctx.height, {**state, "panel": True})
        return g.term

    def _do_workbench_action_terminal_toggleTerminal(self, ctx: AppContext, state: dict) -> None:
        if state["panel"]:
            state["panel"] = False
            if state["focus"] == "terminal":
                state["focus"] = "text" if state["active"] >= 0 else "explorer"
            return
        state["panel"] = True
        if state["term"] is None:
            state["term"] = term.start(ctx, self._panel_rect(ctx, state), state["root"])
        state["focus"] = "terminal"

    def _do_workbench_action_togglePanel(self, ctx: AppContext, state: dict) -> None:
        self._do_workbench_action_terminal_toggleTerminal(ctx, state)

    def _do_workbench_action_terminal_clear(self, ctx: AppContext, state: dict) -> None:
        term.activate(ctx, state["term"], self._panel_rect(ctx, state), "clear", None)

    def _do_workbench_action_toggleSidebarVisibility(self, ctx: AppContext, state: dict) -> None:
        state["sidebar"] = not state["sidebar"]
        if not state["sidebar"] and state["focus"] == "explorer":
            state["focus"] = "text"

    def _do_workbench_view_explorer(self, ctx: AppContext, state: dict) -> None:
        state["sidebar"] = True
        state["root_closed"] = False
        state["focus"] = "explorer"
        if state["tree_sel"] is None:
            rows = self._rows(ctx, state)
            state["tree_sel"] = rows[0].rel if rows else None

    def _do_workbench_files_action_collapseExplorerFolders(
        self, ctx: AppContext, state: dict
    ) -> None:
        state["expanded"] = []
        sel = state["tree_sel"]
        if sel and "/" in sel:
            state["tree_sel"] = sel.split("/", 1)[0]
        ctx.set_scroll_offset("explorer", None)

    # -- the palette ---------------------------------------------------------------------
    def _palette_items(self, ctx: AppContext, state: dict) -> list:
        return view.palette_items(state, self._quick(ctx, state))

    def _accept_palette(self, ctx: AppContext, state: dict, index: int | None = None) -> None:
        pal = state["palette"]
        text = pal["text"]
        prompt = pal["prompt"]
        if prompt is not None:
            self._accept_prompt(ctx, state, prompt, text.strip())
            return
        if text.startswith(":"):
            self._goto_line(ctx, state, text[1:])
            return
        items = self._palette_items(ctx, state)
        index = pal["sel"] if index is None else index
        if not 0 <= index < len(items):
            return
        kind, value, _title, reason, _keys = items[index]
        state["palette"] = None
        state["focus"] = "text" if state["active"] >= 0 else "explorer"
        if kind == "command":
            if reason is not None:
                self._status(state, f"{cmds.BY_ID[value].title}: {reason}.", True)
                return
            self._command(ctx, state, value)
        else:
            self._open_file(ctx, state, f"{state['root'].rstrip('/')}/{value}")

    def _goto_line(self, ctx: AppContext, state: dict, spec: str) -> None:
        tab = _tab(state)
        parts = spec.strip().replace(",", ":").split(":")
        if (
            tab is None
            or not parts[0].strip().isdigit()
            or (len(parts) > 1 and not parts[1].strip().isdigit())
        ):
            return
        lines = tab["text"].split("\n")
        line = max(1, min(int(parts[0]), len(lines))) - 1
        col = max(1, min(int(parts[1]), len(lines[line]) + 1)) - 1 if len(parts) > 1 else 0
        tab["caret"], tab["anchor"] = _starts(lines)[line] + col, None
        tab["goal"] = tab["group"] = None
        state["palette"] = None
        state["focus"] = "text"
        self._reveal(ctx, state, center=True)

    def _accept_prompt(self, ctx: AppContext, state: dict, prompt: str, raw: str) -> None:
        if not raw:
            return
        ufs = ctx.files()
        base = state["root"] or ctx.home
        path = model.resolve(raw, ctx.home, base)
        if prompt == "open-file":
            if ufs.is_dir(path, "/"):
                self._status(state, f"'{raw}' is a folder: use File: Open Folder.", True)
                return
            if self._open_file(ctx, state, path):
                state["palette"] = None
            return
        if prompt == "open-folder":
            if not ufs.is_dir(path, "/"):
                self._status(state, f"'{raw}' is not a folder.", True)
                return
            state.update(
                {
                    "root": path,
                    "root_closed": False,
                    "expanded": [],
                    "tree_sel": None,
                    "sidebar": True,
                }
            )
            ctx.set_scroll_offset("explorer", None)
            state["palette"] = None
            state["focus"] = "explorer"
            self._status(state, "")
            return
        # new-file / new-folder, relative to the workspace folder
        name = posixpath.basename(path)
        if ufs.exists(path, "/"):
            self._status(state, f"A file or folder '{name}' already exists at this location.", True)
            return
        parent = posixpath.dirname(path)
        if not ufs.is_dir(parent, "/"):
            self._status(state, f"The folder '{_tilde(parent, ctx.home)}' does not exist.", True)
            return
        try:
            if prompt == "new-file":
                ufs.write(path, "/", b"")
            else:
                ufs.mkdir(path, "/")
        except FsError as exc:
            self._status(state, f"Unable to create '{name}': {exc.strerror_text}.", True)
            return
        state["palette"] = None
        self._status(state, "")
        root = state["root"]
        if root is not None and path.startswith(root.rstrip("/") + "/"):
            rel = path[len(root.rstrip("/")) + 1 :]
            parts = rel.split("/")
            expanded = set(state["expanded"])
            expanded.update("/".join(parts[:i]) for i in range(1, len(parts)))
            state["expanded"] = sorted(expanded)
            state["tree_sel"] = rel
        if prompt == "new-file":
            self._open_file(ctx, state, path)
        else:
            state["focus"] = "explorer"

    def _palette_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool | None:
        pal = state["palette"]
        if name == "Escape":
            state["palette"] = None
            state["focus"] = "text" if state["active"] >= 0 else "explorer"
            return True
        if name == "Enter":
            self._accept_palette(ctx, state)
            return True
        if name in ("ArrowUp", "ArrowDown", "PageUp", "PageDown"):
            n = len(self._palette_items(ctx, state))
            if n:
                step = {
                    "ArrowUp": -1,
                    "ArrowDown": 1,
                    "PageUp": -view.PALETTE_ROWS,
                    "PageDown": view.PALETTE_ROWS,
                }[name]
                if name.startswith("Arrow"):
                    pal["sel"] = (pal["sel"] + step) % n
                else:
                    pal["sel"] = max(0, min(n - 1, pal["sel"] + step))
            return True
        before = pal["text"]
        if not tp.field_key(ctx, pal, chord):
            return None
        if pal["text"] != before:
            pal["sel"] = 0
        return True

    # -- keys ----------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        tab = _tab(state)
        before = (tab["text"], tab["caret"], tab["anchor"]) if tab is not None else None
        taken = self._key(ctx, state, chord)
        if taken:
            state["clicks"] = None
            tab = _tab(state)
            if tab is not None and state["dialog"] is None and before is not None:
                after = (tab["text"], tab["caret"], tab["anchor"])
                if after[0] is not before[0] or after[1:] != before[1:]:
                    self._reveal(ctx, state)
        return taken

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = _as_primary(chord, ctx.primary).name
        if state["dialog"] is not None:
            return self._dialog_key(ctx, state, name, chord)
        focus = state["focus"]
        if focus == "palette" and state["palette"] is not None:
            taken = self._palette_key(ctx, state, name, chord)
            if taken is not None:
                return taken
        bound = _bindings(ctx.primary).get(name)
        if (
            focus == "terminal"
            and state["panel"]
            and state["term"] is not None
            and bound not in TERMINAL_SKIPS
        ):
            return term.key(ctx, state["term"], self._panel_rect(ctx, state), chord)
        if (
            focus in ("find", "replace")
            and state["find"] is not None
            and self._find_key(ctx, state, name, chord)
        ):
            return True
        if bound is not None and (bound not in TEXT_COMMANDS or focus == "text"):
            if state["palette"] is not None:
                state["palette"] = None
            return self._command(ctx, state, bound, from_key=True)
        if focus == "explorer":
            return self._tree_key(ctx, state, name)
        if focus == "text" and _tab(state) is not None:
            return self._text_key(ctx, state, name, chord)
        return False

    def _dialog_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        dialog = state["dialog"]
        if name == "Escape":
            self._dialog_button(ctx, state, "dialog:cancel")
            return True
        if dialog["kind"] == "close":
            if name == "Enter":
                self._dialog_button(ctx, state, "dialog:save")
                return True
            return name in ("Tab", "Shift+Tab")
        if name == "Enter":
            self._confirm_save_as(ctx, state)
            return True
        if tp.field_key(ctx, dialog["path"], chord):
            dialog["error"], dialog["replace"] = "", None
            return True
        return False

    def _dialog_button(self, ctx: AppContext, state: dict, target: str) -> None:
        dialog = state["dialog"]
        if target == "dialog:cancel":
            state["dialog"] = None
            state["focus"] = "text" if state["active"] >= 0 else "explorer"
            return
        if dialog["kind"] == "save-as":
            if target == "dialog:save-as":
                self._confirm_save_as(ctx, state)
                return
            raise UnknownTarget(target)
        index, then = dialog["tab"], dialog["then"]
        if target == "dialog:dont-save":
            state["dialog"] = None
            self._remove_tab(ctx, state, index)
            self._go_on(ctx, state, then)
        elif target == "dialog:save":
            state["dialog"] = None
            if self._save(ctx, state, index, then):
                self._remove_tab(ctx, state, index)
                self._go_on(ctx, state, then)
        else:
            raise UnknownTarget(target)

    def _find_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        find = state["find"]
        focus = state["focus"]
        if name == "Escape":
            self._do_closeFindWidget(ctx, state)
            return True
        if name in ("Enter", "Shift+Enter"):
            if focus == "replace" and name == "Enter":
                self._command(ctx, state, "editor.action.replaceOne")
            else:
                self._find_step(ctx, state, -1 if chord.shift else 1)
            return True
        if name in ("Tab", "Shift+Tab"):
            if find["show_replace"]:
                state["focus"] = "replace" if focus == "find" else "find"
            return True
        f = find["query" if focus == "find" else "replace"]
        before = f["text"]
        if not tp.field_key(ctx, f, chord):
            return False
        if focus == "find" and f["text"] != before:
            self._incremental(ctx, state)
        self._remember_find(state)
        return True

    def _incremental(self, ctx: AppContext, state: dict) -> None:
        """Typing in the query selects the first match from where the selection starts."""
        tab = _tab(state)
        s, _e = _span(tab)
        self._find_step(ctx, state, 1, s)

    def _tree_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        rows = self._rows(ctx, state)
        if not rows or not state["sidebar"] or state["root_closed"]:
            return False
        at = next((i for i, r in enumerate(rows) if r.rel == state["tree_sel"]), None)
        if name in ("ArrowDown", "ArrowUp", "Home", "End", "PageUp", "PageDown"):
            if at is None:
                at = 0
            else:
                step = {
                    "ArrowDown": 1,
                    "ArrowUp": -1,
                    "Home": -len(rows),
                    "End": len(rows),
                    "PageUp": -10,
                    "PageDown": 10,
                }
                at = max(0, min(len(rows) - 1, at + step[name]))
            state["tree_sel"] = rows[at].rel
            self._reveal_row(ctx, state, at)
            return True
        if at is None:
            return name in ("Enter", "Space", "ArrowLeft", "ArrowRight")
        row = rows[at]
        if name in ("Enter", "Space"):
            self._pick_row(ctx, state, row, keep_focus=name == "Space")
            return True
        if name == "ArrowRight":
            if row.folder and not row.open:
                self._toggle_folder(state, row.rel)
            elif row.folder and at + 1 < len(rows) and rows[at + 1].depth > row.depth:
                state["tree_sel"] = rows[at + 1].rel
            return True
        if name == "ArrowLeft":
            if row.folder and row.open:
                self._toggle_folder(state, row.rel)
            elif "/" in row.rel:
                state["tree_sel"] = row.rel.rsplit("/", 1)[0]
            return True
        return False

    def _reveal_row(self, ctx: AppContext, state: dict, at: int) -> None:
        g = view.Geom(ctx.width, ctx.height, state)
        if g.tree is None:
            return
        offset = ctx.scroll_offset("explorer") or 0
        y = at * view.ROW_H
        if y < offset:
            ctx.set_scroll_offset("explorer", y or None)
        elif y + view.ROW_H > offset + g.tree.height:
            ctx.set_scroll_offset("explorer", y + view.ROW_H - g.tree.height)

    def _toggle_folder(self, state: dict, rel: str) -> None:
        expanded = set(state["expanded"])
        if rel in expanded:
            expanded.discard(rel)
        else:
            expanded.add(rel)
        state["expanded"] = sorted(expanded)

    def _pick_row(self, ctx: AppContext, state: dict, row: Any, keep_focus: bool = False) -> None:
        state["tree_sel"] = row.rel
        if row.folder:
            self._toggle_folder(state, row.rel)
            state["focus"] = "explorer"
            return
        if self._open_file(ctx, state, f"{state['root'].rstrip('/')}/{row.rel}") and keep_focus:
            state["focus"] = "explorer"

    # -- the text ------------------------------------------------------------------------
    def _text_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        tab = _tab(state)
        text = tab["text"]
        s, e = _span(tab)
        if name in ("Enter", "Shift+Enter"):
            self._enter(tab)
            return True
        if name == "Tab":
            if s != e and text.count("\n", s, e):
                self._do_editor_action_indentLines(ctx, state)
            else:
                col = _line_col(text, s)[1]
                self._insert(tab, " " * (TAB_SIZE - col % TAB_SIZE), "type")
            return True
        if name == "Shift+Tab":
            self._do_editor_action_outdentLines(ctx, state)
            return True
        if name in ("Backspace", "Shift+Backspace"):
            if s != e:
                _TEXT.apply_edit(tab, s, e, "", "cut")
            elif s > 0:
                pair = text[s - 1 : s + 1]
                if len(pair) == 2 and PAIRS.get(pair[0]) == pair[1] and self._pairs(tab, pair[0]):
                    _TEXT.apply_edit(tab, s - 1, s + 1, "", "backspace")
                else:
                    _TEXT.apply_edit(tab, s - 1, s, "", "backspace")
            return True
        if name == "Delete":
            if s != e:
                _TEXT.apply_edit(tab, s, e, "", "cut")
            elif s < len(text):
                _TEXT.apply_edit(tab, s, s + 1, "", "delete")
            return True
        if name in ("Ctrl+Backspace", "Ctrl+Delete"):
            if s != e:
                _TEXT.apply_edit(tab, s, e, "", "cut")
            elif name == "Ctrl+Backspace":
                _TEXT.apply_edit(tab, tp.word_left(text, s), s, "", "cut")
            else:
                _TEXT.apply_edit(tab, s, tp.word_right(text, s), "", "cut")
            return True
        if name in ("Ctrl+Insert",):
            self._do_editor_action_clipboardCopyAction(ctx, state)
            return True
        if name == "Shift+Delete":
            self._do_editor_action_clipboardCutAction(ctx, state)
            return True
        if name == "Shift+Insert":
            self._do_editor_action_clipboardPasteAction(ctx, state)
            return True
        if name == "Escape":
            if state["find"] is not None:
                self._do_closeFindWidget(ctx, state)
                return True
            if s != e:
                tab["anchor"] = None
                return True
            return False
        if self._move(ctx, state, tab, name, chord):
            return True
        if chord.char is not None:
            self._keystroke(tab, chord.char)
            return True
        return False

    def _insert(self, tab: dict, text: str, kind: str) -> None:
        _TEXT._insert(tab, text, kind)

    def _pairs(self, tab: dict, opener: str) -> bool:
        lang = _language(tab)
        if lang in _NO_PAIRS:
            return False
        return not (opener in QUOTES and lang in _NO_QUOTE_PAIRS and opener != "`")

    def _keystroke(self, tab: dict, ch: str) -> None:
        """One typed character, as VS Code types it: brackets and quotes close themselves
        (and wrap a selection), a closing one right after the caret is typed over."""
        text = tab["text"]
        s, e = _span(tab)
        if ch in PAIRS and self._pairs(tab, ch):
            closer = PAIRS[ch]
            if s != e:
                chosen = text[s:e]
                _fits(tab, s, e, ch + chosen + closer)
                _TEXT.apply_edit(tab, s, e, ch + chosen + closer, "replace")
                tab["anchor"], tab["caret"] = s + 1, e + 1
                return
            nxt = text[s : s + 1]
            if ch in QUOTES and nxt == ch:
                tab["caret"] = s + 1
                tab["group"] = None
                return
            prev = text[s - 1 : s]
            auto = nxt == "" or nxt in AUTO_CLOSE_BEFORE
            if ch in QUOTES and (prev.isalnum() or prev == "_"):
                auto = False
            if auto:
                _fits(tab, s, s, ch + closer)
                _TEXT.apply_edit(tab, s, s, ch + closer, "type")
                tab["caret"] = s + 1
                tab["group"] = None
                return
        elif ch in ")]}" and s == e and text[s : s + 1] == ch and self._pairs(tab, "("):
            tab["caret"] = s + 1
            tab["group"] = None
            return
        self._insert(tab, ch, "type")

    def _enter(self, tab: dict) -> None:
        """A line break that keeps the line's indentation (one step more after an opening
        bracket or a Python colon; a bracket pair opens onto three lines)."""
        text = tab["text"]
        s, e = _span(tab)
        line_start = text.rfind("\n", 0, s) + 1
        head = text[line_start:s]
        indent = _indent_of(head)
        before = head.rstrip()[-1:]
        after = text[e : e + 1]
        if before in ("(", "[", "{") and after == PAIRS[before]:
            new = "\n" + indent + " " * TAB_SIZE + "\n" + indent
            _fits(tab, s, e, new)
            _TEXT.apply_edit(tab, s, e, new, "newline")
            tab["caret"] = s + 1 + len(indent) + TAB_SIZE
            return
        if before in ("(", "[", "{") or (before == ":" and _language(tab) == "Python"):
            indent += " " * TAB_SIZE
        new = "\n" + indent
        _fits(tab, s, e, new)
        _TEXT.apply_edit(tab, s, e, new, "newline")

    def _move(self, ctx: AppContext, state: dict, tab: dict, name: str, chord: Chord) -> bool:
        base = name.replace("Shift+", "")
        text = tab["text"]
        caret = tab["caret"]
        s, e = _span(tab)
        if base in ("ArrowUp", "ArrowDown", "PageUp", "PageDown"):
            g = view.Geom(ctx.width, ctx.height, state)
            lines = text.split("\n")
            wrap = tp.Wrap(lines, g.cols)
            row, cell = wrap.row_of(*_line_col(text, caret))
            goal = tab["goal"] if tab["goal"] is not None else cell
            step = {
                "ArrowUp": -1,
                "ArrowDown": 1,
                "PageUp": -max(1, g.rows - 1),
                "PageDown": max(1, g.rows - 1),
            }[base]
            target = row + step
            if base.startswith("Page"):
                self._scroll(ctx, state, step)
            if target < 0:
                new = 0
            elif target >= wrap.total:
                new = len(text)
            else:
                cw, _ch = tp.grid()
                line, col = wrap.pos_at(target, goal * cw, cw)
                _l, k = wrap.locate(target)
                frags = wrap.frags(line)
                if k < len(frags) - 1 and col >= frags[k][1]:
                    col = max(frags[k][0], frags[k][1] - 1)
                new = _starts(lines)[line] + col
        else:
            line, col = _line_col(text, caret)
            if base == "ArrowLeft":
                new = s if s != e and not chord.shift else max(0, caret - 1)
            elif base == "ArrowRight":
                new = e if s != e and not chord.shift else min(len(text), caret + 1)
            elif base == "Ctrl+ArrowLeft":
                new = tp.word_left(text, caret)
            elif base == "Ctrl+ArrowRight":
                new = tp.word_right(text, caret)
            elif base == "Home":
                start = caret - col
                line_text = text[start:].split("\n", 1)[0]
                first = start + len(line_text) - len(line_text.lstrip())
                new = start if caret == first else first  # VS Code: first non-blank, then the start
            elif base == "End":
                start = caret - col
                new = start + len(text[start:].split("\n", 1)[0])
            elif base == "Ctrl+Home":
                new = 0
            elif base == "Ctrl+End":
                new = len(text)
            else:
                return False
            goal = None
        if chord.shift:
            if tab["anchor"] is None:
                tab["anchor"] = caret
        else:
            tab["anchor"] = None
        tab["caret"] = new
        if tab["anchor"] == new:
            tab["anchor"] = None
        tab["goal"] = goal
        tab["group"] = None
        self._reveal(ctx, state)  # a move shows the caret even when it stays where it was
        return True

    def _reveal(self, ctx: AppContext, state: dict, center: bool = False) -> None:
        """Scroll the least that brings the caret's row into view (or centre it)."""
        tab = _tab(state)
        if tab is None:
            return
        g = view.Geom(ctx.width, ctx.height, state)
        wrap = tp.Wrap(tab["text"].split("\n"), g.cols)
        row, _cell = wrap.row_of(*_line_col(tab["text"], tab["caret"]))
        ch = tp.grid()[1]
        top = (ctx.scroll_offset(PANE) or 0) // ch
        if center and not top <= row < top + g.rows:
            top = row - g.rows // 2
        elif row < top:
            top = row
        elif row >= top + g.rows:
            top = row - g.rows + 1
        top = max(0, min(top, max(0, wrap.total - g.rows)))
        if top * ch != (ctx.scroll_offset(PANE) or 0):
            ctx.set_scroll_offset(PANE, top * ch or None)

    def _scroll(self, ctx: AppContext, state: dict, rows: int) -> bool:
        tab = _tab(state)
        if tab is None:
            return False
        g = view.Geom(ctx.width, ctx.height, state)
        wrap = tp.Wrap(tab["text"].split("\n"), g.cols)
        ch = tp.grid()[1]
        limit = max(0, wrap.total - g.rows)
        top = max(0, min((ctx.scroll_offset(PANE) or 0) // ch, limit))
        new = max(0, min(top + rows, limit))
        if new == top:
            return False
        ctx.set_scroll_offset(PANE, new * ch or None)
        return True

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        state["clicks"] = None
        dialog = state["dialog"]
        if dialog is not None:
            if dialog["kind"] != "save-as":
                return False
            tp.field_type(dialog["path"], text)
            dialog["error"], dialog["replace"] = "", None
            return True
        focus = state["focus"]
        if focus == "palette" and state["palette"] is not None:
            tp.field_type(state["palette"], text)
            state["palette"]["sel"] = 0
            return True
        if focus in ("find", "replace") and state["find"] is not None:
            f = state["find"]["query" if focus == "find" else "replace"]
            tp.field_type(f, text)
            if focus == "find":
                self._incremental(ctx, state)
            self._remember_find(state)
            return True
        if focus == "terminal" and state["panel"] and state["term"] is not None:
            return term.type_text(ctx, state["term"], self._panel_rect(ctx, state), text)
        tab = _tab(state)
        if focus != "text" or tab is None:
            return False
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
        if not text:
            return True
        if len(text) == 1:
            if text == "\n":
                self._enter(tab)
            else:
                self._keystroke(tab, text)
        else:
            self._insert(tab, text, "paste")
        self._reveal(ctx, state)
        return True

    # -- the pointer ---------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["dialog"] is not None:
            if not target.startswith("dialog:") and target != "save-path":
                raise UnknownTarget(target)
            if target == "save-path":
                self._field_click(ctx, state, state["dialog"]["path"], "save-path", point)
                return None
            self._dialog_button(ctx, state, target)
            return None
        if target.startswith("command:"):
            cid = target[len("command:") :]
            command = cmds.BY_ID.get(cid)
            if command is None:
                raise UnknownTarget(target)
            reason = cmds.unmet(state, command)
            if reason is not None:
                raise AppError(f"{command.title}: {reason}")
            state["palette"] = None
            self._command(ctx, state, cid)
            return None
        if target == "palette-input" and state["palette"] is not None:
            state["focus"] = "palette"
            self._field_click(ctx, state, state["palette"], "palette-input", point)
            return None
        if target.startswith("palette:") and state["palette"] is not None:
            index = _index(target, "palette:")
            if index is None or not 0 <= index < len(self._palette_items(ctx, state)):
                raise UnknownTarget(target)
            state["palette"]["sel"] = index
            self._accept_palette(ctx, state, index)
            return None
        if target.startswith("tab:") or target.startswith("tab-close:"):
            index = _index(target, "tab-close:" if target.startswith("tab-close:") else "tab:")
            if index is None or not 0 <= index < len(state["tabs"]):
                raise UnknownTarget(target)
            state["palette"] = None
            if target.startswith("tab-close:"):
                self._close_tab(ctx, state, index)
            else:
                self._switch(ctx, state, index)
                state["focus"] = "text"
            return None
        if target.startswith("explore:") and state["root"] is not None:
            rel = target[len("explore:") :]
            row = next((r for r in self._rows(ctx, state) if r.rel == rel), None)
            if row is None or not state["sidebar"] or state["root_closed"]:
                raise UnknownTarget(target)
            state["palette"] = None
            self._pick_row(ctx, state, row)
            return None
        if target == "explorer-root" and state["root"] is not None and state["sidebar"]:
            state["root_closed"] = not state["root_closed"]
            state["focus"] = "explorer"
            return None
        if state["find"] is not None and target in ("find-query", "replace-query"):
            if target == "replace-query" and not state["find"]["show_replace"]:
                raise UnknownTarget(target)
            state["focus"] = "find" if target == "find-query" else "replace"
            f = state["find"]["query" if target == "find-query" else "replace"]
            self._field_click(ctx, state, f, target, point)
            return None
        if target == "text" and state["active"] >= 0:
            state["focus"] = "text"
            state["palette"] = None
            return None
        if tp.parse_bar(target, PANE) is not None and state["active"] >= 0:
            g = view.Geom(ctx.width, ctx.height, state)
            self._scroll(ctx, state, max(1, g.rows - 1))
            return None
        if target.startswith(term.PREFIX) and state["panel"] and state["term"] is not None:
            state["focus"] = "terminal"
            state["palette"] = None
            return term.activate(
                ctx, state["term"], self._panel_rect(ctx, state), target[len(term.PREFIX) :], point
            )
        raise UnknownTarget(target)

    def _field_click(
        self, ctx: AppContext, state: dict, f: dict, name: str, point: tuple[int, int] | None
    ) -> None:
        if point is None:
            return
        rect = self._field_rect(ctx, state, name)
        if rect is not None:
            f["caret"] = tp.field_index(f, rect, point[0])
            f["anchor"] = None

    def _field_rect(self, ctx: AppContext, state: dict, name: str) -> Any:
        if name == "save-path":
            return view.dialog_rects(ctx.width, ctx.height, "save-as")[1]["save-path"]
        if name == "palette-input":
            return view.palette_box(ctx.width, 1)[1]
        g = view.Geom(ctx.width, ctx.height, state)
        return g.find_controls(state["find"]["show_replace"]).get(name)

    def is_drag_surface(self, target: str, button: int) -> bool:
        if target == "text":
            return button == 0
        if target.startswith(term.PREFIX):
            return term.is_drag_surface(target[len(term.PREFIX) :], button)
        return button == 0 and tp.parse_bar(target, PANE) is not None

    def cursor(self, target: str) -> str | None:
        if target == "text" or target == f"{term.PREFIX}terminal-input":
            return "text"
        return None

    def drag(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        phase: str,
        point: tuple[int, int],
        button: int,
        modifiers: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> None:
        if state["dialog"] is not None:
            return
        if target.startswith(term.PREFIX):
            if state["term"] is None or not state["panel"]:
                return
            if phase == "down":
                state["focus"] = "terminal"
                state["palette"] = None
            term.drag(
                ctx,
                state["term"],
                self._panel_rect(ctx, state),
                target[len(term.PREFIX) :],
                phase,
                point,
                button,
                modifiers,
                clicks,
            )
            return
        tab = _tab(state)
        if tab is None:
            return
        cw, ch = tp.grid()
        g = view.Geom(ctx.width, ctx.height, state)
        lines = tab["text"].split("\n")
        wrap = tp.Wrap(lines, g.cols)
        limit = max(0, wrap.total - g.rows)
        top = max(0, min((ctx.scroll_offset(PANE) or 0) // ch, limit))
        if target != "text":
            px = tp.bar_drag(state, target, PANE, phase, point[1], g.track.y, top * ch)
            if px is not None:
                new = max(0, min((px + ch // 2) // ch, limit))
                ctx.set_scroll_offset(PANE, new * ch or None)
            return
        if phase == "cancel":
            state["drag"] = None
            return
        rel = (point[1] - g.pane.y) // ch
        if phase == "move" and (rel < 0 or rel >= g.rows):
            self._scroll(ctx, state, -1 if rel < 0 else 1)
            top = max(0, min((ctx.scroll_offset(PANE) or 0) // ch, limit))
        row = max(0, min(wrap.total - 1, top + rel))
        line, col = wrap.pos_at(row, max(0, point[0] - g.pane.x), cw)
        offset = _starts(lines)[line] + col
        text = tab["text"]
        if phase == "down":
            state["focus"] = "text"
            state["palette"] = None
            tab["goal"] = tab["group"] = None
            if point[0] < g.pane.x:  # the gutter: the whole line
                s = _starts(lines)[line]
                e = min(len(text), s + len(lines[line]) + 1)
                state["drag"] = {"kind": "text", "from": [s, e], "unit": 3}
                tab["anchor"], tab["caret"] = s, e
                return
            if "Shift" in modifiers and clicks == 1:
                anchor = tab["anchor"] if tab["anchor"] is not None else tab["caret"]
                state["drag"] = {"kind": "text", "from": [anchor, anchor], "unit": 1}
                tab["anchor"], tab["caret"] = (
                    (None, offset) if anchor == offset else (anchor, offset)
                )
                state["clicks"] = None
                return
            n = tp.click_count(state, offset, ctx.now_us, clicks)
            s, e = _unit(text, offset, n)
            state["drag"] = {"kind": "text", "from": [s, e], "unit": n}
            tab["anchor"], tab["caret"] = (None, offset) if s == e else (s, e)
            return
        drag = (
            state["drag"]
            if isinstance(state["drag"], dict) and state["drag"].get("kind") == "text"
            else None
        )
        if drag is None:
            return
        s0, e0 = drag["from"]
        s1, e1 = _unit(text, offset, drag["unit"])
        if s1 < s0:
            tab["anchor"], tab["caret"] = e0, s1
        else:
            tab["anchor"], tab["caret"] = s0, max(e0, e1)
        if tab["anchor"] == tab["caret"]:
            tab["anchor"] = None
        if phase == "up":
            state["drag"] = None

    def wheel(
        self,
        ctx: AppContext,
        state: dict,
        target: str | None,
        point: tuple[int, int],
        dx: int,
        dy: int,
        modifiers: tuple[str, ...],
    ) -> bool:
        if state["dialog"] is not None:
            return True
        if not dy or "Shift" in modifiers or "Ctrl" in modifiers:
            return False
        if (
            target is not None
            and target.startswith(term.PREFIX)
            and state["term"] is not None
            and state["panel"]
        ):
            return term.wheel(ctx, state["term"], self._panel_rect(ctx, state), dy, modifiers)
        if target == "text" or (target is not None and tp.parse_bar(target, PANE) is not None):
            return self._scroll(ctx, state, tp.rows_for_wheel(dy))
        return False


def _index(target: str, prefix: str) -> int | None:
    raw = target[len(prefix) :]
    return int(raw) if raw.isdigit() and len(raw) < 6 else None


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _outdent(line: str) -> tuple[str, int]:
    if line.startswith("\t"):
        return line[1:], -1
    n = len(line) - len(line.lstrip(" "))
    cut = min(n, TAB_SIZE)
    return line[cut:], -cut


register(Code())
