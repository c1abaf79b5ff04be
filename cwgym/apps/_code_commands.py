"""The one command table of ``code`` (Visual Studio Code): the Command Palette, the key
bindings and the painted controls all read it (a helper module, not an application).

A :class:`Command` is data: VS Code's command id, the title the palette shows, the key
bindings (shortcut specs with the theme's ``Primary`` placeholder, first one shown) and
what it needs to run (``None``: always; ``"editor"``: an open editor tab; ``"folder"``: a
workspace folder; ``"find"``: the find widget shown; ``"terminal"``: the terminal panel
started). The application carries each command out (``code.py``); every command is
also the click target ``command:<id>``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["BY_ID", "COMMANDS", "NEEDS", "Command", "filter_commands", "key_label", "unmet"]


class Command(NamedTuple):
    id: str
    title: str
    keys: tuple[str, ...] = ()
    needs: str | None = None


#: Why a command whose need is not met cannot run now.
NEEDS = {
    "editor": "No editor is open",
    "folder": "No folder is open",
    "find": "The find widget is not open",
    "terminal": "The terminal has not been started",
}

COMMANDS: tuple[Command, ...] = (
    # the palettes
    Command("workbench.action.showCommands", "Show All Commands", ("Primary+Shift+p", "F1")),
    Command("workbench.action.quickOpen", "Go to File...", ("Primary+p",)),
    Command("workbench.action.gotoLine", "Go to Line/Column...", ("Primary+g",), "editor"),
    # files
    Command(
        "workbench.action.files.newUntitledFile", "File: New Untitled Text File", ("Primary+n",)
    ),
    Command("workbench.action.files.openFile", "File: Open File...", ("Primary+o",)),
    Command("workbench.action.files.openFolder", "File: Open Folder..."),
    Command("explorer.newFile", "Explorer: New File...", (), "folder"),
    Command("explorer.newFolder", "Explorer: New Folder...", (), "folder"),
    Command("workbench.action.files.save", "File: Save", ("Primary+s",), "editor"),
    Command("workbench.action.files.saveAs", "File: Save As...", ("Primary+Shift+s",), "editor"),
    Command("workbench.action.files.saveAll", "File: Save All", (), "editor"),
    Command("workbench.action.files.revert", "File: Revert File", (), "editor"),
    # editors (tabs)
    Command(
        "workbench.action.closeActiveEditor",
        "View: Close Editor",
        ("Primary+w", "Primary+F4"),
        "editor",
    ),
    Command("workbench.action.closeAllEditors", "View: Close All Editors", (), "editor"),
    Command(
        "workbench.action.nextEditor",
        "View: Open Next Editor",
        ("Primary+PageDown", "Primary+Tab"),
        "editor",
    ),
    Command(
        "workbench.action.previousEditor",
        "View: Open Previous Editor",
        ("Primary+PageUp", "Primary+Shift+Tab"),
        "editor",
    ),
    # find and replace
    Command("actions.find", "Find", ("Primary+f",), "editor"),
    Command("editor.action.startFindReplaceAction", "Replace", ("Primary+h",), "editor"),
    Command("editor.action.nextMatchFindAction", "Find Next", ("F3",), "editor"),
    Command("editor.action.previousMatchFindAction", "Find Previous", ("Shift+F3",), "editor"),
    Command("editor.action.replaceOne", "Replace One", ("Primary+Shift+1",), "find"),
    Command("editor.action.replaceAll", "Replace All", ("Primary+Alt+Enter",), "find"),
    Command("toggleFindCaseSensitive", "Toggle Find Case Sensitive", ("Alt+c",), "editor"),
    Command("closeFindWidget", "Close Find Widget", (), "find"),
    # editing
    Command("undo", "Undo", ("Primary+z",), "editor"),
    Command("redo", "Redo", ("Primary+y", "Primary+Shift+z"), "editor"),
    Command("editor.action.clipboardCutAction", "Cut", ("Primary+x",), "editor"),
    Command("editor.action.clipboardCopyAction", "Copy", ("Primary+c",), "editor"),
    Command("editor.action.clipboardPasteAction", "Paste", ("Primary+v",), "editor"),
    Command("editor.action.selectAll", "Select All", ("Primary+a",), "editor"),
    Command("editor.action.commentLine", "Toggle Line Comment", ("Primary+/",), "editor"),
    Command("editor.action.indentLines", "Indent Line", ("Primary+]",), "editor"),
    Command("editor.action.outdentLines", "Outdent Line", ("Primary+[",), "editor"),
    Command("editor.action.moveLinesUpAction", "Move Line Up", ("Alt+ArrowUp",), "editor"),
    Command("editor.action.moveLinesDownAction", "Move Line Down", ("Alt+ArrowDown",), "editor"),
    Command("editor.action.copyLinesUpAction", "Copy Line Up", ("Shift+Alt+ArrowUp",), "editor"),
    Command(
        "editor.action.copyLinesDownAction", "Copy Line Down", ("Shift+Alt+ArrowDown",), "editor"
    ),
    Command("editor.action.deleteLines", "Delete Line", ("Primary+Shift+k",), "editor"),
    Command("editor.action.insertLineAfter", "Insert Line Below", ("Primary+Enter",), "editor"),
    # the workbench
    Command("workbench.action.terminal.toggleTerminal", "View: Toggle Terminal", ("Primary+`",)),
    Command("workbench.action.togglePanel", "View: Toggle Panel Visibility", ("Primary+j",)),
    Command("workbench.action.terminal.clear", "Terminal: Clear", (), "terminal"),
    Command(
        "workbench.action.toggleSidebarVisibility",
        "View: Toggle Primary Side Bar Visibility",
        ("Primary+b",),
    ),
    Command("workbench.view.explorer", "View: Show Explorer", ("Primary+Shift+e",)),
    Command(
        "workbench.files.action.collapseExplorerFolders",
        "Explorer: Collapse Folders in Explorer",
        (),
        "folder",
    ),
)

#: The commands by id.
BY_ID: dict[str, Command] = {c.id: c for c in COMMANDS}

#: The palette lists the commands by title (ties by id).
_SORTED = tuple(sorted(COMMANDS, key=lambda c: (c.title.lower(), c.id)))


def filter_commands(query: str) -> list[Command]:
    """The commands whose title contains ``query`` (case-insensitive), by title."""
    q = query.strip().lower()
    if not q:
        return list(_SORTED)
    return [c for c in _SORTED if q in c.title.lower()]


def key_label(chord_name: str) -> str:
    """How a chord name is shown: ``Ctrl+Shift+p`` -> ``Ctrl+Shift+P``."""
    head, _, last = chord_name.rpartition("+")
    if not last and head.endswith("+"):  # "Ctrl++"
        return chord_name
    return f"{head}+{last.upper()}" if head else last.upper()


def unmet(state: dict, command: Command) -> str | None:
    """Why ``command`` cannot run in a code window's ``state`` now, or ``None`` when it can."""
    need = command.needs
    if need is None:
        return None
    met = {
        "editor": state["active"] >= 0,
        "folder": state["root"] is not None,
        "find": state["find"] is not None and state["active"] >= 0,
        "terminal": state["term"] is not None,
    }[need]
    return None if met else NEEDS[need]
