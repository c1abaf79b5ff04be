"""The catalogue of application ids: what ``application.v1 list`` can name.

Every id has a kind: ``builtin`` (one of the four window kinds the desktop itself
provides), ``native`` (an application shipped with the simulator) or ``web`` (a world's
alias that opens a site in the browser). The label an application shows is the shell
theme's business (``Firefox`` on Ubuntu); :data:`LABELS` holds the neutral default.

An id is *implemented* when an application module is registered for it (in
``cwgym.apps.APPS``); a catalogued id without a module is still listed, so a
world may install it, but it is not launchable (``application_not_implemented``).

It is plain data in the protocol layer so that both the desktop (``application.v1``) and
the machine (the shell's ``apps``) name applications the same way and in the same order.
"""

from __future__ import annotations

__all__ = ["ALIASES", "BUILTIN", "CATALOGUE", "LABELS", "NATIVE", "canonical_id", "kind_of"]

#: The window kinds the desktop provides itself, in listing order.
BUILTIN = ("files", "browser", "terminal", "editor")

#: Native applications, in listing order.
NATIVE = (
    "calendar",
    "mail",
    "messages",
    "docs",
    "notes",
    "contacts",
    "settings",
    "calculator",
    "clock",
    "photos",
    "music",
    "maps",
    "weather",
    "code",
    "freecad",
    "kicad",
    "paint",
    "preview",
    "pixelmator",
    "gimp",
    "pinta",
    "sketchbook",
    "spreadsheet",
    "excel",
    "database",
    "clipchamp",
    "imovie",
    "kdenlive",
    "videoeditor",
)

#: Every catalogued id, in listing order.
CATALOGUE = BUILTIN + NATIVE

#: Other spellings ``launch`` accepts for an id.
ALIASES = {"text_editor": "editor", "file_manager": "files"}

#: Neutral labels; a theme overrides them with its own product names.
LABELS = {
    "files": "Files",
    "browser": "Web Browser",
    "terminal": "Terminal",
    "editor": "Text Editor",
    "calendar": "Calendar",
    "mail": "Mail",
    "messages": "Messages",
    "docs": "Documents",
    "notes": "Notes",
    "contacts": "Contacts",
    "settings": "Settings",
    "calculator": "Calculator",
    "clock": "Clock",
    "photos": "Photos",
    "music": "Music",
    "maps": "Maps",
    "weather": "Weather",
    "code": "Visual Studio Code",
    "freecad": "FreeCAD",
    "kicad": "KiCad",
    "paint": "Paint",
    "preview": "Preview",
    "pixelmator": "Pixelmator Pro",
    "gimp": "GIMP",
    "pinta": "Pinta",
    "sketchbook": "Sketchbook",
    "spreadsheet": "Spreadsheet",
    "excel": "Microsoft Excel",
    "database": "Database",
    "clipchamp": "Clipchamp",
    "imovie": "iMovie",
    "kdenlive": "Kdenlive",
    "videoeditor": "Video Editor",
}


def canonical_id(name: str) -> str:
    """The id an alias stands for (``text_editor`` -> ``editor``); other names unchanged."""
    return ALIASES.get(name, name)


def kind_of(app_id: str) -> str:
    """``builtin`` for the four desktop kinds, else ``native``."""
    return "builtin" if app_id in BUILTIN else "native"
