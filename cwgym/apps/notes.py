"""``notes``: Notes, a notes application in the manner of GNOME Notes (Bijiben).

Every note is one Markdown file in ``~/Notes/`` (:data:`NOTES_DIR`): the file's first line
is the note's **title** (a leading Markdown heading marker ``#`` is not part of it), the
rest its body. Only regular ``*.md`` files whose names do not start with a dot are notes;
folders and other files are left alone. A file that is not UTF-8 text, or holds more than
:data:`MAX_NOTE` characters, is skipped with a message in the status bar (never opened,
never changed).

**File names follow titles.** A note created with *New note* is ``Untitled.md`` (then
``Untitled 2.md`` ...). When an edit changes a note's title, its file is renamed after the
new title (``/`` becomes ``-``, a leading dot is dropped, at most :data:`MAX_NAME`
characters, `` 2``, `` 3`` ... appended when the name is taken by another note), so a note
titled *Shopping* is ``~/Notes/Shopping.md``. A file whose name does not match its title
keeps its name until its title is edited.

**Saving is automatic**: every edit writes the note's file at once (one trailing line
break, like the Text Editor). ``Primary+s`` writes it too, and says so. The note is
recorded in the desktop's recent documents (:func:`cwgym.machine.recent.add_recent`) on
``Primary+s``, on the first save of a visit that does not rename the file, and when an
edited note is left (another note selected, a new note, the window closed).

**Pins** are kept in ``~/Notes/.pinned`` (:data:`PINS_FILE`), one file name per line,
sorted. Pinned notes come first in the list, then the rest; within each group the most
recently modified file first (the filesystem's modification time), ties by file name.

Layout: a header bar (New note, the search field, Undo, Redo, Pin/Unpin, Delete), the
sidebar list of notes (title, first line of the body, "Pinned"), the editor pane of the
selected note (the ``mono`` grid of :mod:`cwgym.apps._textpane`, wrapped rows, a scroll
bar; the title rows in the accent colour) and a status bar (a message or an error on the
left, ``Ln 2, Col 5 · 123/10000`` on the right). The search field filters the list by
title and body, case-insensitively.

Control targets (``window:<id>:content:<target>``): ``new``, ``search``, ``undo``,
``redo``, ``pin``, ``delete``; ``note:<file name>`` (a row of the list); ``text`` (the
editor; a drag surface); ``pane:text:<track>:<thumb>:<max>`` (its scroll bar);
``delete-cancel`` and ``delete-confirm`` (the confirmation dialog). Scroll panes:
``pane:list`` and ``pane:text``.

Keys: ``Primary+n`` new note, ``Primary+f`` search, ``Primary+s`` save, ``Primary+z`` undo,
``Primary+Shift+z`` / ``Primary+y`` redo. In the list: ``ArrowUp``/``ArrowDown``/``Home``/
``End`` select, ``Enter`` edits, ``Delete`` asks to delete, printable characters start a
search, ``Tab`` to the editor, ``Shift+Tab`` to the search field. In the search field: its
editing keys, ``Enter``/``Tab``/``ArrowDown`` to the list, ``Escape`` clears it (then goes to
the list). In the editor: characters, ``Enter``, ``Tab``, ``Backspace``/``Delete`` (with
``Ctrl`` a word), arrows (by rows on screen vertically), ``Ctrl+ArrowLeft/Right``,
``Home``/``End``, ``Ctrl+Home``/``Ctrl+End``, ``PageUp``/``PageDown``, ``Shift`` with any of
them selects, ``Primary+a/c/x/v`` (and ``Shift+Delete``, ``Ctrl+Insert``,
``Shift+Insert``), ``Escape`` back to the list. In the dialog: ``Tab``/arrows move between
the buttons, ``Enter`` presses the focused one (Cancel at first), ``Escape`` cancels.

Caps: a note holds at most :data:`MAX_NOTE` characters and the search field
:data:`MAX_SEARCH`; typing or pasting past them fails with ``invalid`` and changes nothing.
Undo keeps :data:`MAX_UNDO` steps of the selected note (at most :data:`MAX_UNDO_CHARS`
characters in all); selecting another note starts afresh.

Launch argument: the path of a note (absolute, ``~/``, or a file name in ``~/Notes``),
which is selected. A path outside ``~/Notes`` or a missing file refuses the launch
(``action_failed``); a note that cannot be read opens the window with the message.
"""

from __future__ import annotations

import functools
import posixpath
from typing import Any

from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine import recent
from cwgym.machine.filesystem import FILE, FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import ellipsize, line_height, measure

__all__ = [
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_SEARCH",
    "MAX_UNDO",
    "MAX_UNDO_CHARS",
    "NOTES_DIR",
    "PINS_FILE",
    "Notes",
]

#: The notes folder, relative to the home folder.
NOTES_DIR = "Notes"
#: The pins file inside the notes folder.
PINS_FILE = ".pinned"
#: The most characters a note holds.
MAX_NOTE = 10_000
#: The most characters the search field holds.
MAX_SEARCH = 200
#: The most characters of a title used in a file name.
MAX_NAME = 80
#: Undo steps kept, and the most characters they hold in all.
MAX_UNDO = 100
MAX_UNDO_CHARS = 40_000

HEADER_H = 48
STATUS_H = 26
ROW_H = 56
SIDEBAR_MAX = 280
PANE = "text"
LIST = "list"
UNTITLED = "Untitled"


# -- notes on disk -------------------------------------------------------------------------


def _title_of(text: str) -> str:
    """The title of a note's text: its first line without a heading marker ("" if none)."""
    first = text.split("\n", 1)[0].strip()
    return first.lstrip("#").strip()


def _shown(title: str) -> str:
    return title or UNTITLED


def _preview(text: str) -> str:
    for line in text.split("\n")[1:]:
        line = line.strip()
        if line:
            return line[:120]
    return ""


@functools.lru_cache(maxsize=512)
def _decode(data: bytes) -> tuple[str, str, str, str] | str:
    """``(text, title, preview, folded text)`` of a note file's bytes, or the problem."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    text = text.replace("\r\n", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    if len(text) > MAX_NOTE:
        return f"it holds more than {MAX_NOTE} characters"
    return text, _title_of(text), _preview(text), text.casefold()


def _file_base(title: str) -> str:
    """The file name (without ``.md``) a title gives."""
    base = "".join(ch if ch.isprintable() else " " for ch in title).replace("/", "-").strip()
    base = base.lstrip(".").strip()[:MAX_NAME].rstrip()
    return base or UNTITLED


def _folder(ctx: AppContext) -> str:
    return f"{ctx.home}/{NOTES_DIR}"


def _path(ctx: AppContext, name: str) -> str:
    return f"{ctx.home}/{NOTES_DIR}/{name}"


def _is_note_name(name: str) -> bool:
    return name.endswith(".md") and not name.startswith(".") and "/" not in name and len(name) > 3


def _read_pins(ctx: AppContext) -> tuple[tuple[str, ...], str]:
    """The pinned file names and a problem ("" when fine)."""
    try:
        data = ctx.files().read(f"{_folder(ctx)}/{PINS_FILE}", ctx.home)
    except FsError as exc:
        if exc.code in ("ENOENT", "ENOTDIR"):
            return (), ""
        return (), f"~/{NOTES_DIR}/{PINS_FILE} cannot be read: {exc.strerror_text}"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return (), f"~/{NOTES_DIR}/{PINS_FILE} is not UTF-8 text; pins are ignored"
    names = sorted({line.strip() for line in text.splitlines() if _is_note_name(line.strip())})
    return tuple(names), ""


def _files_in(ctx: AppContext, folder: str) -> list[tuple[str, Any]]:
    """The regular files of ``folder`` by name: ``(name, inode)``, the inode ``None`` when
    the user may not read the file. Raises :class:`FsError` for the folder itself. (One
    walk to the folder, then its entries: the list is read on every composition.)"""
    ufs = ctx.files()
    names = ufs.listdir(folder, ctx.home)  # the folder's own checks
    directory = ufs.lookup(folder, ctx.home)
    searchable = ufs.cred.may(directory, 1)
    out = []
    for name in names:
        inode = ufs.fs.inode(directory.entries[name])
        if inode.kind == FILE:
            out.append((name, inode if searchable and ufs.cred.may(inode, 4) else None))
    return out


def _scan(ctx: AppContext) -> tuple[list[tuple], list[str], tuple[str, ...], str]:
    """``(notes, problems, pins, pins problem)``; notes ``(name, mtime, title, preview,
    folded, pinned)`` in list order (pinned first, newest first, then by name)."""
    try:
        files = _files_in(ctx, _folder(ctx))
    except FsError as exc:
        if exc.code == "ENOENT":
            return [], [], (), ""
        return [], [f"~/{NOTES_DIR} cannot be read: {exc.strerror_text}"], (), ""
    pins, pin_problem = _read_pins(ctx)
    pinned = set(pins)
    notes = []
    problems = []
    for name, inode in files:
        if not _is_note_name(name):
            continue
        if inode is None:
            problems.append(f"Skipped ~/{NOTES_DIR}/{name}: Permission denied")
            continue
        parsed = _decode(inode.data)
        if isinstance(parsed, str):
            problems.append(f"Skipped ~/{NOTES_DIR}/{name}: {parsed}")
            continue
        _text, title, preview, folded = parsed
        notes.append((name, inode.mtime, title, preview, folded, name in pinned))
    notes.sort(key=lambda n: (not n[5], -n[1], n[0]))
    return notes, problems, pins, pin_problem


def _matches(note: tuple, query: str) -> bool:
    return not query or query in note[4]


def _visible(notes: list[tuple], search: str) -> list[tuple]:
    query = search.strip().casefold()
    return [n for n in notes if _matches(n, query)]


def _load(ctx: AppContext, name: str) -> str | None:
    """The text of the note ``name``; ``None`` when it is missing or unusable."""
    try:
        data = ctx.files().read(_path(ctx, name), ctx.home)
    except FsError:
        return None
    parsed = _decode(data)
    return None if isinstance(parsed, str) else parsed[0]


def _write_pins(ctx: AppContext, pins: set[str]) -> str:
    """Write the pins file; the problem or ""."""
    data = "".join(f"{n}\n" for n in sorted(pins)).encode("utf-8")
    try:
        ctx.files().write(f"{_folder(ctx)}/{PINS_FILE}", ctx.home, data, mode=0o644)
    except FsError as exc:
        return f"Could not save the pins: {exc.strerror_text}"
    return ""


def _ensure_folder(ctx: AppContext) -> None:
    ufs = ctx.files()
    if not ufs.exists(_folder(ctx), ctx.home):
        ufs.mkdir(_folder(ctx), ctx.home, 0o755)


def _free_name(ctx: AppContext, base: str, current: str | None) -> str:
    """``<base>.md``, or ``<base> <n>.md`` with the smallest free ``n`` from 2."""
    ufs = ctx.files()
    candidate = f"{base}.md"
    n = 2
    while candidate != current and ufs.exists(_path(ctx, candidate), ctx.home, follow=False):
        candidate = f"{base} {n}.md"
        n += 1
    return candidate


# -- geometry ------------------------------------------------------------------------------


class _Geom:
    __slots__ = ("cols", "list", "pane", "rows", "sidebar", "status", "track")

    def __init__(self, width: int, height: int) -> None:
        cw, ch = tp.grid()
        self.sidebar = max(160, min(SIDEBAR_MAX, width // 3))
        body_h = max(ch, height - HEADER_H - STATUS_H)
        self.list = Rect(0, HEADER_H, self.sidebar, body_h)
        x = self.sidebar + 14
        pane_w = max(cw, width - x - tp.BAR - 10)
        self.rows = max(1, (body_h - 20) // ch)
        self.pane = Rect(x, HEADER_H + 10, pane_w, self.rows * ch)
        self.cols = max(1, pane_w // cw)
        self.track = Rect(width - tp.BAR - 3, HEADER_H + 10, tp.BAR, self.rows * ch)
        self.status = Rect(0, max(HEADER_H, height - STATUS_H), width, STATUS_H)


def _header(width: int, pinned: bool) -> dict[str, tuple[str, Rect]]:
    """The header's controls: target -> (label, rect); ``pinned``: the selected note is."""
    out: dict[str, tuple[str, Rect]] = {}
    w = measure("New note", "sans", 14) + 24
    out["new"] = ("New note", Rect(8, 8, w, 32))
    right = [
        ("delete", "Delete"),
        ("pin", "Unpin" if pinned else "Pin"),
        ("redo", "Redo"),
        ("undo", "Undo"),
    ]
    x = width - 8
    for name, label in right:
        bw = measure(label, "sans", 14) + 24
        x -= bw
        out[name] = (label, Rect(x, 8, bw, 32))
        x -= 6
    sx = 8 + w + 10
    out["search"] = ("Search notes", Rect(sx, 8, max(80, min(320, x - sx - 10)), 32))
    return out


def _dialog_rects(width: int, height: int) -> tuple[Rect, dict[str, Rect]]:
    w = max(240, min(400, width - 40))
    h = 140
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    controls = {}
    x = box.right - 16
    for name, label in (("delete-confirm", "Delete"), ("delete-cancel", "Cancel")):
        bw = measure(label, "sans", 14) + 32
        x -= bw
        controls[name] = Rect(x, box.bottom - 48, bw, 34)
        x -= 8
    return box, controls


def _paint_head(p: Painter, pinned: bool, has: bool, no_undo: bool, no_redo: bool) -> None:
    """The header bar and its buttons (the search field is painted apart: it has a caret)."""
    pal = p.palette
    p.box(Rect(0, 0, p.width, HEADER_H), pal.get("header", pal["button"]), key="header")
    for name, (label, rect) in _header(p.width, pinned).items():
        if name == "search":
            continue
        disabled = (
            (name in ("pin", "delete") and not has)
            or (name == "undo" and no_undo)
            or (name == "redo" and no_redo)
        )
        p.button(name, label, rect, disabled=disabled, suggested=name == "new")


def _paint_empty(p: Painter, sidebar: int, any_notes: bool) -> None:
    """The editor pane without a note."""
    pal = p.palette
    msg = "No note selected" if any_notes else "No notes yet"
    hint = (
        "Pick a note in the list, or make one with New note."
        if any_notes
        else "Make one with New note."
    )
    cx = sidebar + (p.width - sidebar) // 2
    w1 = measure(msg, "sans-bold", 18)
    p.paint(
        UiTextBold(msg, 18, pal["muted"]),
        Rect(cx - w1 // 2, p.height // 2 - 30, w1, line_height("sans-bold", 18)),
        key="empty",
    )
    p.text(
        hint,
        cx - measure(hint, "sans", 13) // 2,
        p.height // 2,
        size=13,
        color=pal["muted"],
        key="empty-hint",
    )


def _paint_status(p: Painter, st: Rect, right: str, message: str, bad: bool) -> None:
    """The status bar: ``message`` on the left (an error when ``bad``), ``right`` on the right."""
    pal = p.palette
    p.box(st, pal.get("header", pal["button"]), key="status-bg")
    ty = st.y + (st.height - line_height("sans", 13)) // 2
    if right:
        rw = measure(right, "sans", 13)
        p.text(right, st.right - rw - 12, ty, size=13, color=pal["muted"], key="where")
    if message:
        width = max(0, st.width - measure(right, "sans", 13) - 40)
        shown = ellipsize(message, "sans", 13, width)
        p.paint(
            UiText(shown, 13, ERROR if bad else pal["muted"]),
            Rect(10, ty, measure(shown, "sans", 13), line_height("sans", 13)),
            key="status-text",
            semantic=Semantic("alert" if bad else "status", message),
        )


# -- the text ------------------------------------------------------------------------------


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _starts(lines: list[str]) -> list[int]:
    out = [0]
    for line in lines:
        out.append(out[-1] + len(line) + 1)
    return out


def _span(state: dict) -> tuple[int, int]:
    a, c = state["anchor"], state["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _clamp_top(row: int, wrap: tp.Wrap, rows: int) -> int:
    return max(0, min(row, max(0, wrap.total - rows)))


def _top(ctx: AppContext, wrap: tp.Wrap, rows: int) -> int:
    return _clamp_top((ctx.scroll_offset(PANE) or 0) // tp.grid()[1], wrap, rows)


def _set_top(ctx: AppContext, row: int) -> None:
    value = row * tp.grid()[1]
    if value != (ctx.scroll_offset(PANE) or 0):
        ctx.set_scroll_offset(PANE, value or None)


def _unit(text: str, offset: int, n: int) -> tuple[int, int]:
    if n == 2:
        return tp.word_at(text, offset)
    if n == 3:
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        return start, len(text) if end < 0 else end
    return offset, offset


def _field_guard(f: dict, cap: int, change: Any) -> Any:
    """Run ``change()`` on a field; put it back and refuse when it grew past ``cap``."""
    before = dict(f)
    result = change()
    if len(f["text"]) > cap and len(f["text"]) > len(before["text"]):
        f.update(before)
        raise InvalidInput(f"the search field holds at most {cap} characters")
    return result


class Notes(App):
    id = "notes"
    label = "Notes"
    default_size = (960, 620)
    min_size = (560, 320)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        state: dict[str, Any] = {
            "folder": _folder(ctx),
            "selected": None,
            "title": "",
            "pinned": False,
            "caret": 0,
            "anchor": None,
            "goal": None,
            "undo": [],
            "redo": [],
            "group": None,
            "search": tp.field(""),
            "focus": "list",
            "confirm": None,
            "error": "",
            "status": "",
            "recent": None,
            "edited": False,
            "drag": None,
            "clicks": None,
        }
        if argument:
            raw = argument.strip()
            if raw.startswith("~/"):
                path = ctx.home + raw[1:]
            elif raw.startswith("/"):
                path = raw
            else:
                path = f"{_folder(ctx)}/{raw}"
            path = posixpath.normpath(path)
            folder, name = posixpath.split(path)
            if folder != _folder(ctx) or not _is_note_name(name):
                raise AppError(f"Notes opens the .md files in ~/{NOTES_DIR} only")
            if not ctx.files().exists(path, ctx.home):
                raise AppError(f"there is no note {path}")
            self._select(ctx, state, name)
            state["focus"] = "text" if state["selected"] else "list"
        else:
            notes, _problems, _pins, _pp = _scan(ctx)
            if notes:
                self._select(ctx, state, notes[0][0])
        return state

    def title(self, state: dict) -> str:
        return f"{state['title']} — Notes" if state["selected"] else "Notes"

    def document(self, state: dict) -> str:
        return f"{state['folder']}/{state['selected']}" if state["selected"] else ""

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        self._leave(ctx, state)
        return True

    # -- selection -----------------------------------------------------------------------
    def _leave(self, ctx: AppContext, state: dict) -> None:
        """Record an edited note in the recent documents when it is left."""
        name = state["selected"]
        if name is not None and state["edited"]:
            path = _path(ctx, name)
            if state["recent"] != path and ctx.files().exists(path, ctx.home):
                recent.add_recent(ctx.machine, path, self.id)
                state["recent"] = path
        state["edited"] = False

    def _select(self, ctx: AppContext, state: dict, name: str | None) -> None:
        if name is not None and name == state["selected"]:
            return
        self._leave(ctx, state)
        state.update(
            {
                "selected": None,
                "title": "",
                "pinned": False,
                "caret": 0,
                "anchor": None,
                "goal": None,
            }
        )
        state.update({"undo": [], "redo": [], "group": None, "drag": None, "clicks": None})
        ctx.set_scroll_offset(PANE, None)
        if name is None:
            return
        try:
            data = ctx.files().read(_path(ctx, name), ctx.home)
        except FsError as exc:
            state["error"] = f"Could not open ~/{NOTES_DIR}/{name}: {exc.strerror_text}"
            return
        parsed = _decode(data)
        if isinstance(parsed, str):
            state["error"] = f"Could not open ~/{NOTES_DIR}/{name}: {parsed}"
            return
        pins, _problem = _read_pins(ctx)
        state["selected"] = name
        state["title"] = _shown(parsed[1])
        state["pinned"] = name in pins
        state["error"] = ""

    def _text(self, ctx: AppContext, state: dict) -> str | None:
        """The selected note's text (the caret kept inside it); ``None`` without one (a
        note that vanished or broke outside the application is let go)."""
        name = state["selected"]
        if name is None:
            return None
        text = _load(ctx, name)
        if text is None:
            state["error"] = f"~/{NOTES_DIR}/{name} is gone or unreadable"
            state.update({"selected": None, "title": "", "pinned": False, "undo": [], "redo": []})
            state.update({"caret": 0, "anchor": None, "edited": False})
            return None
        n = len(text)
        if state["caret"] > n:
            state["caret"] = n
        if state["anchor"] is not None and state["anchor"] > n:
            state["anchor"] = n
        return text

    # -- saving --------------------------------------------------------------------------
    def _store(self, ctx: AppContext, state: dict, old: str, new: str) -> bool:
        """Write ``new`` as the selected note (renaming it when its title changed);
        whether the text was written."""
        name = state["selected"]
        ufs = ctx.files()
        path = _path(ctx, name)
        data = (new + "\n").encode("utf-8") if new else b""
        try:
            ufs.write(path, ctx.home, data)
        except FsError as exc:
            state["error"] = f"Could not save “{state['title']}”: {exc.strerror_text}"
            return False
        state["error"] = ""
        state["status"] = ""
        state["edited"] = True
        title = _title_of(new)
        state["title"] = _shown(title)
        renamed = False
        if title != _title_of(old):
            target = _free_name(ctx, _file_base(title), name)
            if target != name:
                try:
                    ufs.rename(path, _path(ctx, target), ctx.home)
                except FsError as exc:
                    state["error"] = (
                        f"Saved, but could not rename the file to “{target}”: {exc.strerror_text}"
                    )
                else:
                    renamed = True
                    state["selected"] = target
                    pins, problem = _read_pins(ctx)
                    if name in pins and not problem:
                        state["error"] = _write_pins(ctx, (set(pins) - {name}) | {target})
        new_path = _path(ctx, state["selected"])
        if not renamed and state["recent"] != new_path:
            recent.add_recent(ctx.machine, new_path, self.id)
            state["recent"] = new_path
        return True

    def _edit(
        self, ctx: AppContext, state: dict, text: str, start: int, end: int, new: str, kind: str
    ) -> None:
        """Replace ``text[start:end]`` with ``new``, save, and record one undo step."""
        old = text[start:end]
        if not old and not new:
            return
        if len(new) > len(old) and len(text) - len(old) + len(new) > MAX_NOTE:
            raise InvalidInput(f"a note holds at most {MAX_NOTE} characters")
        result = text[:start] + new + text[end:]
        before = [state["caret"], state["anchor"]]
        if not self._store(ctx, state, text, result):
            return
        state["caret"] = start + len(new)
        state["anchor"] = None
        state["goal"] = None
        undo = state["undo"]
        last = undo[-1] if undo and state["group"] == kind else None
        merged = False
        if last is not None and last["kind"] == kind:
            if kind == "type" and not old and start == last["at"] + len(last["new"]):
                if not (last["new"][-1:].isspace() and not new[:1].isspace()):
                    last["new"] += new
                    merged = True
            elif kind == "backspace" and not new and end == last["at"]:
                last["at"] = start
                last["old"] = old + last["old"]
                merged = True
            elif kind == "delete" and not new and start == last["at"]:
                last["old"] += old
                merged = True
        if not merged:
            undo.append({"kind": kind, "at": start, "old": old, "new": new, "before": before})
        del undo[:-MAX_UNDO]
        total = sum(len(s["old"]) + len(s["new"]) for s in undo)
        while len(undo) > 1 and total > MAX_UNDO_CHARS:
            total -= len(undo[0]["old"]) + len(undo[0]["new"])
            del undo[0]
        state["group"] = kind if kind in ("type", "backspace", "delete") else None
        state["redo"] = []

    def _insert(self, ctx: AppContext, state: dict, text: str, new: str, kind: str) -> None:
        s, e = _span(state)
        self._edit(ctx, state, text, s, e, new, kind if s == e else "replace")

    def _undo(self, ctx: AppContext, state: dict, redo: bool = False) -> None:
        text = self._text(ctx, state)
        stack, other = (state["redo"], state["undo"]) if redo else (state["undo"], state["redo"])
        if text is None or not stack:
            return
        step = stack[-1]
        at, old, new = step["at"], step["old"], step["new"]
        have, put = (old, new) if redo else (new, old)
        if text[at : at + len(have)] != have:
            state["undo"], state["redo"] = [], []
            state["status"] = "The note changed outside Notes; there is nothing to undo."
            return
        result = text[:at] + put + text[at + len(have) :]
        if len(result) > MAX_NOTE and len(result) > len(text):
            raise InvalidInput(f"a note holds at most {MAX_NOTE} characters")
        if not self._store(ctx, state, text, result):
            return
        stack.pop()
        other.append(step)
        if redo:
            state["caret"], state["anchor"] = at + len(new), None
        else:
            state["caret"], state["anchor"] = step["before"]
            state["caret"] = min(state["caret"], len(result))
            if state["anchor"] is not None:
                state["anchor"] = min(state["anchor"], len(result))
        state["group"] = None
        state["goal"] = None
        self._reveal(ctx, state, result)

    # -- commands ------------------------------------------------------------------------
    def _new(self, ctx: AppContext, state: dict) -> None:
        self._leave(ctx, state)
        try:
            _ensure_folder(ctx)
            name = _free_name(ctx, UNTITLED, None)
            ctx.files().write(_path(ctx, name), ctx.home, b"", mode=0o644)
        except FsError as exc:
            state["error"] = f"Could not create a note: {exc.strerror_text}"
            return
        state["search"] = tp.field("")
        ctx.set_scroll_offset(LIST, None)
        self._select(ctx, state, name)
        state["focus"] = "text"
        state["status"] = f"Created ~/{NOTES_DIR}/{name}"

    def _save_now(self, ctx: AppContext, state: dict) -> None:
        text = self._text(ctx, state)
        if text is None:
            return
        name = state["selected"]
        try:
            ctx.files().write(
                _path(ctx, name), ctx.home, (text + "\n").encode("utf-8") if text else b""
            )
        except FsError as exc:
            state["error"] = f"Could not save “{state['title']}”: {exc.strerror_text}"
            return
        recent.add_recent(ctx.machine, _path(ctx, name), self.id)
        state["recent"] = _path(ctx, name)
        state["status"] = f"Saved ~/{NOTES_DIR}/{name}"
        state["error"] = ""

    def _toggle_pin(self, ctx: AppContext, state: dict) -> None:
        name = state["selected"]
        if name is None or self._text(ctx, state) is None:
            return
        pins, problem = _read_pins(ctx)
        if problem:
            state["error"] = problem
            return
        now = set(pins)
        if name in now:
            now.discard(name)
        else:
            now.add(name)
        error = _write_pins(ctx, now)
        if error:
            state["error"] = error
            return
        state["pinned"] = name in now
        state["status"] = "Pinned" if state["pinned"] else "Unpinned"

    def _ask_delete(self, state: dict) -> None:
        if state["selected"] is not None:
            state["confirm"] = {
                "name": state["selected"],
                "title": state["title"],
                "button": "delete-cancel",
            }

    def _delete(self, ctx: AppContext, state: dict) -> None:
        confirm = state["confirm"]
        state["confirm"] = None
        name = confirm["name"]
        notes, _problems, pins, problem = _scan(ctx)
        order = [n[0] for n in _visible(notes, state["search"]["text"])]
        try:
            ctx.files().unlink(_path(ctx, name), ctx.home)
        except FsError as exc:
            state["error"] = f"Could not delete ~/{NOTES_DIR}/{name}: {exc.strerror_text}"
            return
        if name in pins and not problem:
            state["error"] = _write_pins(ctx, set(pins) - {name})
        if name == state["selected"]:
            state["edited"] = False
            state["selected"] = None
            nxt = None
            if name in order:
                i = order.index(name)
                rest = order[i + 1 :] + order[:i][::-1]
                nxt = rest[0] if rest else None
            self._select(ctx, state, nxt)
        state["focus"] = "list"
        state["status"] = f"Deleted “{confirm['title']}”"

    # -- painting ------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        notes, problems, _pins, pin_problem = _scan(ctx)
        rows = tuple(
            (n[0], _shown(n[2]), n[3], n[5]) for n in _visible(notes, state["search"]["text"])
        )
        text = _load(ctx, state["selected"]) if state["selected"] is not None else None
        return rows, tuple(problems) + ((pin_problem,) if pin_problem else ()), text, len(notes)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        rows, problems, text, count = key
        pal = p.palette
        g = _Geom(p.width, p.height)
        dialog = state["confirm"]
        focus = state["focus"] if dialog is None else None
        # header: the buttons are a reused piece, the search field is painted each time
        has = state["selected"] is not None and text is not None
        pinned = bool(state["pinned"])
        no_undo = not (has and state["undo"])
        no_redo = not (has and state["redo"])
        p.reuse(
            ("notes-head", pinned, has, no_undo, no_redo),
            _paint_head,
            pinned,
            has,
            no_undo,
            no_redo,
        )
        label, rect = _header(p.width, pinned)["search"]
        tp.paint_field(
            p,
            "search",
            state["search"],
            rect,
            label=label,
            focused=focus == "search",
            placeholder="Search notes",
        )
        # sidebar
        offset = p.scroll(LIST, g.list, len(rows) * ROW_H)
        p.reuse(
            (
                "notes-list",
                rows,
                state["selected"],
                focus == "list",
                offset,
                count,
                state["search"]["text"] != "",
            ),
            _paint_list,
            g.list,
            rows,
            state["selected"],
            focus == "list",
            offset,
            count,
            state["search"]["text"] != "",
        )
        p.box(Rect(g.sidebar, HEADER_H, 1, g.list.height), pal["border"], key="divider")
        # editor
        if text is not None and state["selected"] is not None:
            self._paint_text(p, state, g, text, focus == "text")
        else:
            p.reuse(("notes-empty", bool(count)), _paint_empty, g.sidebar, bool(count))
        # status bar
        right = ""
        if text is not None and state["selected"] is not None:
            line, col = _line_col(text, min(state["caret"], len(text)))
            right = f"Ln {line + 1}, Col {col + 1} · {len(text)}/{MAX_NOTE}"
        message = state["error"] or (problems[0] if problems else "") or state["status"]
        if problems and not state["error"] and len(problems) > 1:
            message = f"{problems[0]} (and {len(problems) - 1} more)"
        bad = bool(state["error"] or problems)
        p.reuse(
            ("notes-status", g.status, right, message, bad),
            _paint_status,
            g.status,
            right,
            message,
            bad,
        )
        if focus == "list":
            if state["selected"] is not None and any(r[0] == state["selected"] for r in rows):
                p.focus(f"note:{state['selected']}", role="listitem", label=state["title"])
            else:
                p.focus(None, role="list", label="Notes")
        if dialog is not None:
            self._paint_dialog(p, dialog)

    def _paint_text(self, p: Painter, state: dict, g: _Geom, text: str, focused: bool) -> None:
        pal = p.palette
        cw, ch = tp.grid()
        lines = text.split("\n")
        wrap = tp.Wrap(lines, g.cols)
        top = _clamp_top((p.scroll_offset(PANE) or 0) // ch, wrap, g.rows)
        p.paint(
            Box(pal["field"]),
            Rect(g.sidebar + 1, HEADER_H, p.width - g.sidebar - 1, g.status.y - HEADER_H),
            key="text-bg",
            target="text",
            semantic=Semantic("textbox", state["title"], text, False, True),
            state=NodeState(focused=focused),
        )
        caret = min(state["caret"], len(text))
        anchor = state["anchor"]
        if anchor is not None and anchor != caret:
            s, e = min(anchor, caret), max(anchor, caret)
            a, b = _line_col(text, s), _line_col(text, min(e, len(text)))
            for i, c0, n in tp.selection_boxes(wrap, top, g.rows, a, b):
                p.paint(
                    Box(pal["selection"]),
                    Rect(g.pane.x + c0 * cw, g.pane.y + i * ch, n * cw, ch),
                    key=("sel", i),
                    target="text",
                )
        title_rows = wrap.starts[1]
        if top < title_rows:
            n = min(g.rows, title_rows - top)
            tp.paint_rows(
                p,
                wrap,
                top,
                n,
                g.pane.x,
                g.pane.y,
                color=pal["accent"],
                target="text",
                pane=f"window:{p.window}:notes",
                key="row",
            )
            rest = g.rows - n
            if rest > 0:
                tp.paint_rows(
                    p,
                    wrap,
                    title_rows,
                    rest,
                    g.pane.x,
                    g.pane.y + n * ch,
                    color=pal["text"],
                    target="text",
                    pane=f"window:{p.window}:notes",
                    key="row",
                )
        else:
            tp.paint_rows(
                p,
                wrap,
                top,
                g.rows,
                g.pane.x,
                g.pane.y,
                color=pal["text"],
                target="text",
                pane=f"window:{p.window}:notes",
                key="row",
            )
        if not text:
            p.text(
                "Title on the first line, then the note",
                g.pane.x,
                g.pane.y,
                size=13,
                color=pal["muted"],
                key="placeholder",
                target="text",
            )
        line, col = _line_col(text, caret)
        row, cell = wrap.row_of(line, col)
        caret_rect = Rect(g.pane.x + cell * cw, g.pane.y + (row - top) * ch, cw, ch)
        if focused and top <= row < top + g.rows:
            p.paint(
                Box(pal["text"]),
                Rect(caret_rect.x, caret_rect.y, 2, ch),
                key="caret",
                target="text",
            )
        tp.paint_bar(p, PANE, g.track, g.rows, wrap.total, top)
        p.scroll(PANE, g.pane, wrap.total * ch, top * ch)
        shown = sorted({wrap.locate(r)[0] for r in range(top, min(top + g.rows, wrap.total))})
        p.buffer("notes", lines, shown[0] if shown else 0, len(shown))
        if focused:
            p.focus(
                "text",
                role="textbox",
                label=state["title"],
                value=text,
                caret=caret_rect,
                line=line,
                column=col,
                offset=caret,
                text_entry=True,
            )

    def _paint_dialog(self, p: Painter, dialog: dict) -> None:
        pal = p.palette
        p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="scrim")
        box, controls = _dialog_rects(p.width, p.height)
        title = "Delete note?"
        p.paint(
            RoundedBox(pal["window"], 12, pal["border"], 1),
            box,
            key="dialog",
            semantic=Semantic("dialog", title),
        )
        h = line_height("sans-bold", 15)
        p.paint(
            UiTextBold(title, 15, pal["text"]),
            Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), h),
            key="dialog-title",
        )
        message = f"“{dialog['title']}” ({dialog['name']}) will be deleted for good."
        p.text(
            message,
            box.x + 16,
            box.y + 46,
            size=13,
            color=pal["text"],
            width=box.width - 32,
            key="dialog-text",
        )
        for name, label in (("delete-cancel", "Cancel"), ("delete-confirm", "Delete")):
            p.button(
                name,
                label,
                controls[name],
                focused=dialog["button"] == name,
                suggested=name == "delete-confirm",
            )
        p.focus(
            dialog["button"],
            role="button",
            label="Delete" if dialog["button"] == "delete-confirm" else "Cancel",
        )

    # -- pointer -------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["confirm"] is not None:
            if target == "delete-cancel":
                state["confirm"] = None
                return None
            if target == "delete-confirm":
                self._delete(ctx, state)
                return None
            raise UnknownTarget(target)
        state["status"] = ""
        self._text(ctx, state)
        if target == "new":
            self._new(ctx, state)
            return None
        if target == "search":
            state["focus"] = "search"
            if point is not None:
                rect = _header(ctx.width, state["pinned"])["search"][1]
                state["search"]["caret"] = tp.field_index(state["search"], rect, point[0])
                state["search"]["anchor"] = None
            return None
        if target in ("undo", "redo"):
            self._undo(ctx, state, redo=target == "redo")
            return None
        if target == "pin":
            self._toggle_pin(ctx, state)
            return None
        if target == "delete":
            if self._text(ctx, state) is not None:
                self._ask_delete(state)
            return None
        if target == "text":
            if state["selected"] is not None:
                state["focus"] = "text"
            return None
        if target.startswith("note:"):
            name = target[5:]
            notes, _p, _pins, _pp = _scan(ctx)
            if name not in {n[0] for n in _visible(notes, state["search"]["text"])}:
                raise UnknownTarget(target)
            self._select(ctx, state, name)
            state["focus"] = "list"
            return None
        if tp.parse_bar(target, PANE) is not None:
            text = self._text(ctx, state)
            if text is not None:
                g = _Geom(ctx.width, ctx.height)
                wrap = tp.Wrap(text.split("\n"), g.cols)
                _set_top(
                    ctx, _clamp_top(_top(ctx, wrap, g.rows) + max(1, g.rows - 1), wrap, g.rows)
                )
            return None
        raise UnknownTarget(target)

    def double_click(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        out = self.activate(ctx, state, target, point, modifiers)
        if target.startswith("note:") and state["selected"] is not None:
            state["focus"] = "text"
        return out

    def is_drag_surface(self, target: str, button: int) -> bool:
        if target == "text":
            return button == 0
        return button == 0 and tp.parse_bar(target, PANE) is not None

    def cursor(self, target: str) -> str | None:
        if target == "text":
            return "text"
        if target.startswith("pane:"):
            return "default"
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
        if state["confirm"] is not None:
            return
        text = self._text(ctx, state)
        if text is None:
            return
        cw, ch = tp.grid()
        g = _Geom(ctx.width, ctx.height)
        lines = text.split("\n")
        wrap = tp.Wrap(lines, g.cols)
        if target != "text":
            top = _top(ctx, wrap, g.rows)
            px = tp.bar_drag(state, target, PANE, phase, point[1], g.track.y, top * ch)
            if px is not None:
                _set_top(ctx, _clamp_top((px + ch // 2) // ch, wrap, g.rows))
            return
        if phase == "cancel":
            state["drag"] = None
            return
        top = _top(ctx, wrap, g.rows)
        rel = (point[1] - g.pane.y) // ch
        if phase == "move" and (rel < 0 or rel >= g.rows):
            _set_top(ctx, _clamp_top(top + (-1 if rel < 0 else 1), wrap, g.rows))
            top = _top(ctx, wrap, g.rows)
        row = max(0, min(wrap.total - 1, top + rel))
        line, col = wrap.pos_at(row, point[0] - g.pane.x, cw)
        offset = _starts(lines)[line] + col
        if phase == "down":
            state["focus"] = "text"
            state["status"] = ""
            state["goal"], state["group"] = None, None
            if "Shift" in modifiers and clicks == 1:
                anchor = state["anchor"] if state["anchor"] is not None else state["caret"]
                state["drag"] = {"kind": "text", "from": [anchor, anchor], "unit": 1}
                state["anchor"], state["caret"] = (
                    (None, offset) if anchor == offset else (anchor, offset)
                )
                state["clicks"] = None
                return
            n = tp.click_count(state, offset, ctx.now_us, clicks)
            s, e = _unit(text, offset, n)
            state["drag"] = {"kind": "text", "from": [s, e], "unit": n}
            state["anchor"], state["caret"] = (None, offset) if s == e else (s, e)
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
            state["anchor"], state["caret"] = e0, s1
        else:
            state["anchor"], state["caret"] = s0, max(e0, e1)
        if state["anchor"] == state["caret"]:
            state["anchor"] = None
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
        return state["confirm"] is not None

    # -- keys ----------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        state["clicks"] = None
        self._text(ctx, state)  # a note gone or broken outside the application is let go
        if state["confirm"] is not None:
            return self._dialog_key(ctx, state, name)
        if name == cmd("Primary+n"):
            self._new(ctx, state)
            return True
        if name == cmd("Primary+f"):
            state["focus"] = "search"
            tp.field_select_all(state["search"])
            return True
        if name == cmd("Primary+s"):
            self._save_now(ctx, state)
            return True
        if name == cmd("Primary+z"):
            state["status"] = ""
            self._undo(ctx, state)
            return True
        if name in (cmd("Primary+Shift+z"), cmd("Primary+y")):
            state["status"] = ""
            self._undo(ctx, state, redo=True)
            return True
        focus = state["focus"]
        if focus == "search":
            return self._search_key(ctx, state, name, chord)
        if focus == "text" and state["selected"] is not None:
            return self._text_key(ctx, state, name, chord)
        return self._list_key(ctx, state, name, chord)

    def _dialog_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        confirm = state["confirm"]
        if name == "Escape":
            state["confirm"] = None
            return True
        if name in ("Tab", "Shift+Tab", "ArrowLeft", "ArrowRight"):
            confirm["button"] = (
                "delete-confirm" if confirm["button"] == "delete-cancel" else "delete-cancel"
            )
            return True
        if name in ("Enter", "Space"):
            if confirm["button"] == "delete-confirm":
                self._delete(ctx, state)
            else:
                state["confirm"] = None
            return True
        return True  # the dialog is modal: other keys do nothing

    def _search_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = state["search"]
        if name in ("Enter", "Tab", "ArrowDown"):
            self._to_list(ctx, state)
            return True
        if name == "Shift+Tab":
            state["focus"] = "text" if state["selected"] is not None else "list"
            return True
        if name == "Escape":
            if f["text"]:
                state["search"] = tp.field("")
                ctx.set_scroll_offset(LIST, None)
            else:
                state["focus"] = "list"
            return True
        before = f["text"]
        taken = _field_guard(f, MAX_SEARCH, lambda: tp.field_key(ctx, f, chord))
        if f["text"] != before:
            ctx.set_scroll_offset(LIST, None)
        return taken

    def _to_list(self, ctx: AppContext, state: dict) -> None:
        state["focus"] = "list"
        notes, _p, _pins, _pp = _scan(ctx)
        names = [n[0] for n in _visible(notes, state["search"]["text"])]
        if names and state["selected"] not in names:
            self._select(ctx, state, names[0])
            self._reveal_row(ctx, 0)

    def _reveal_row(self, ctx: AppContext, index: int) -> None:
        g = _Geom(ctx.width, ctx.height)
        offset = ctx.scroll_offset(LIST) or 0
        top, bottom = index * ROW_H, (index + 1) * ROW_H
        if top < offset:
            ctx.set_scroll_offset(LIST, top or None)
        elif bottom > offset + g.list.height:
            ctx.set_scroll_offset(LIST, bottom - g.list.height)

    def _list_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        notes, _p, _pins, _pp = _scan(ctx)
        names = [n[0] for n in _visible(notes, state["search"]["text"])]
        if name in ("ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"):
            if not names:
                return True
            i = names.index(state["selected"]) if state["selected"] in names else -1
            page = max(1, _Geom(ctx.width, ctx.height).list.height // ROW_H - 1)
            j = {
                "ArrowUp": max(0, i - 1) if i >= 0 else 0,
                "ArrowDown": min(len(names) - 1, i + 1),
                "Home": 0,
                "End": len(names) - 1,
                "PageUp": max(0, i - page),
                "PageDown": min(len(names) - 1, max(0, i) + page),
            }[name]
            self._select(ctx, state, names[j])
            state["focus"] = "list"
            self._reveal_row(ctx, j)
            return True
        if name == "Enter" or name == "Tab":
            if state["selected"] is not None:
                state["focus"] = "text"
            return True
        if name == "Shift+Tab":
            state["focus"] = "search"
            return True
        if name == "Delete":
            if self._text(ctx, state) is not None:
                self._ask_delete(state)
            return True
        if name == "Escape":
            return False
        if chord.char is not None:
            self._type_search(ctx, state, chord.char)
            return True
        return False

    def _type_search(self, ctx: AppContext, state: dict, text: str) -> None:
        f = state["search"]
        if not f["text"]:
            f["caret"], f["anchor"] = 0, None
        _field_guard(f, MAX_SEARCH, lambda: tp.field_type(f, text))
        state["focus"] = "search"
        ctx.set_scroll_offset(LIST, None)

    def _text_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        text = self._text(ctx, state)
        if text is None:
            state["focus"] = "list"
            return True
        state["status"] = ""
        s, e = _span(state)
        cmd = ctx.shortcut
        if name == "Escape":
            if s != e:
                state["anchor"] = None
            else:
                state["focus"] = "list"
            return True
        if name in ("Enter", "Shift+Enter"):
            self._insert(ctx, state, text, "\n", "newline")
        elif name == "Tab":
            self._insert(ctx, state, text, "\t", "type")
        elif name in ("Backspace", "Shift+Backspace"):
            if s != e:
                self._edit(ctx, state, text, s, e, "", "cut")
            elif s > 0:
                self._edit(ctx, state, text, s - 1, s, "", "backspace")
        elif name == "Delete":
            if s != e:
                self._edit(ctx, state, text, s, e, "", "cut")
            elif s < len(text):
                self._edit(ctx, state, text, s, s + 1, "", "delete")
        elif name in ("Ctrl+Backspace", "Ctrl+Delete"):
            if s == e:
                s, e = (
                    (tp.word_left(text, s), s)
                    if name == "Ctrl+Backspace"
                    else (s, tp.word_right(text, s))
                )
            self._edit(ctx, state, text, s, e, "", "cut")
        elif name == cmd("Primary+a"):
            state["anchor"], state["caret"] = 0, len(text)
            state["group"] = None
        elif name in (cmd("Primary+c"), "Ctrl+Insert", cmd("Primary+x"), "Shift+Delete"):
            if s != e:
                ctx.clipboard = text[s:e]
                if name in (cmd("Primary+x"), "Shift+Delete"):
                    self._edit(ctx, state, text, s, e, "", "cut")
        elif name in (cmd("Primary+v"), "Shift+Insert"):
            paste = _clean(ctx.clipboard)
            if paste:
                self._insert(ctx, state, text, paste, "paste")
        elif self._move(ctx, state, text, name, chord):
            pass
        elif chord.char is not None:
            self._insert(ctx, state, text, chord.char, "type")
        else:
            return False
        self._reveal(ctx, state)
        return True

    def _move(self, ctx: AppContext, state: dict, text: str, name: str, chord: Chord) -> bool:
        base = name.replace("Shift+", "")
        caret = state["caret"]
        s, e = _span(state)
        goal = None
        if base in ("ArrowUp", "ArrowDown", "PageUp", "PageDown"):
            g = _Geom(ctx.width, ctx.height)
            lines = text.split("\n")
            wrap = tp.Wrap(lines, g.cols)
            row, cell = wrap.row_of(*_line_col(text, caret))
            goal = state["goal"] if state["goal"] is not None else cell
            step = {
                "ArrowUp": -1,
                "ArrowDown": 1,
                "PageUp": -max(1, g.rows - 1),
                "PageDown": max(1, g.rows - 1),
            }[base]
            target = row + step
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
        elif base == "ArrowLeft":
            new = s if s != e and not chord.shift else max(0, caret - 1)
        elif base == "ArrowRight":
            new = e if s != e and not chord.shift else min(len(text), caret + 1)
        elif base == "Ctrl+ArrowLeft":
            new = tp.word_left(text, caret)
        elif base == "Ctrl+ArrowRight":
            new = tp.word_right(text, caret)
        elif base in ("Home", "End"):
            start = text.rfind("\n", 0, caret) + 1
            end = text.find("\n", caret)
            new = start if base == "Home" else (len(text) if end < 0 else end)
        elif base == "Ctrl+Home":
            new = 0
        elif base == "Ctrl+End":
            new = len(text)
        else:
            return False
        if chord.shift:
            if state["anchor"] is None:
                state["anchor"] = caret
        else:
            state["anchor"] = None
        state["caret"] = new
        if state["anchor"] == new:
            state["anchor"] = None
        state["goal"] = goal
        state["group"] = None
        return True

    def _reveal(self, ctx: AppContext, state: dict, text: str | None = None) -> None:
        """Scroll the editor the least that shows the caret's row."""
        if text is None:
            text = _load(ctx, state["selected"]) if state["selected"] is not None else None
        if text is None:
            return
        g = _Geom(ctx.width, ctx.height)
        wrap = tp.Wrap(text.split("\n"), g.cols)
        row, _cell = wrap.row_of(*_line_col(text, min(state["caret"], len(text))))
        top = (ctx.scroll_offset(PANE) or 0) // tp.grid()[1]
        if row < top:
            top = row
        elif row >= top + g.rows:
            top = row - g.rows + 1
        _set_top(ctx, _clamp_top(top, wrap, g.rows))

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["confirm"] is not None:
            return True
        state["clicks"] = None
        focus = state["focus"]
        if focus == "search":
            f = state["search"]
            _field_guard(f, MAX_SEARCH, lambda: tp.field_type(f, text))
            ctx.set_scroll_offset(LIST, None)
            return True
        if focus == "text" and state["selected"] is not None:
            current = self._text(ctx, state)
            if current is None:
                return True
            state["status"] = ""
            clean = _clean(text)
            if clean:
                self._insert(ctx, state, current, clean, "type" if len(clean) == 1 else "paste")
                self._reveal(ctx, state)
            return True
        self._type_search(ctx, state, text)
        return True


def _clean(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")


def _paint_list(
    p: Painter,
    rect: Rect,
    rows: tuple,
    selected: str | None,
    focused: bool,
    offset: int,
    count: int,
    searching: bool,
) -> None:
    pal = p.palette
    p.paint(Box(pal["window"]), rect, key="list-bg", semantic=Semantic("list", "Notes"))
    if not rows:
        msg = "No matching notes" if searching and count else "No notes"
        p.text(msg, rect.x + 16, rect.y + 16, size=13, color=pal["muted"], key="list-empty")
        return
    first = offset // ROW_H
    last = min(len(rows), (offset + rect.height) // ROW_H + 1)
    with p.clipped(rect, dy=-offset):
        for i in range(first, last):
            name, title, preview, pinned = rows[i]
            r = Rect(rect.x, rect.y + i * ROW_H, rect.width, ROW_H)
            on = name == selected
            target = f"note:{name}"
            p.paint(
                Box(pal["selection"] if on else pal["window"]),
                r,
                key=("row", name),
                target=target,
                semantic=Semantic("listitem", title, "pinned" if pinned else None, False, True),
                state=NodeState(selected=on, focused=True if on and focused else None),
            )
            tw = rect.width - 24
            if pinned:
                tag = "Pinned"
                pw = measure(tag, "sans", 11)
                p.paint(
                    UiText(tag, 11, pal["accent"]),
                    Rect(r.right - pw - 10, r.y + 10, pw, line_height("sans", 11)),
                    key=("row-pin", name),
                    target=target,
                )
                tw -= pw + 8
            shown = ellipsize(title, "sans-bold", 14, max(0, tw))
            p.paint(
                UiTextBold(shown, 14, pal["text"]),
                Rect(
                    r.x + 12, r.y + 8, measure(shown, "sans-bold", 14), line_height("sans-bold", 14)
                ),
                key=("row-title", name),
                target=target,
            )
            if preview:
                sub = ellipsize(preview, "sans", 12, max(0, rect.width - 24))
                p.paint(
                    UiText(sub, 12, pal["muted"]),
                    Rect(r.x + 12, r.y + 30, measure(sub, "sans", 12), line_height("sans", 12)),
                    key=("row-preview", name),
                    target=target,
                )
            p.paint(Box(pal["border"]), Rect(r.x, r.bottom - 1, r.width, 1), key=("row-line", name))


register(Notes())
