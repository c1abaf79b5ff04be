"""``editor``: the Text Editor, a plain-text editor in the manner of GNOME Text Editor.

A window holds one document: the file given as the launch argument (a missing file opens
empty and is created on the first save), or an empty "Untitled Document 1". The title is
the file name, with GNOME Text Editor's dirty marker in front while the text differs from
what was last loaded or saved: ``• notes.txt``. Like GtkSourceView, the editor hides one
final line break of a file and writes it back on saving (a non-empty document always ends
with one on disk).

Layout (content coordinates, from the theme's content rectangle): a toolbar (Open, Save,
Save As…, Find, Undo, Redo, Close), the find bar or the open bar when shown, the text
area in the ``mono`` font on an exact cell grid with a scroll bar, and a status bar (a
message on the left, ``Ln 3, Col 7`` on the right). Long lines wrap on screen at the
area's width without changing the text: every painted row carries
:class:`~cwgym.scene.TextLine` provenance (``continuation`` on the wrapped rows), and the
whole document is published as the buffer ``window:<id>:editor``.

Control targets (``window:<id>:content:<target>``): ``open``, ``save``, ``save-as``,
``find``, ``undo``, ``redo``, ``close``; the find bar's ``find-field``, ``find-previous``,
``find-next``, ``find-close``; the open bar's ``open-path``, ``open-confirm``,
``open-cancel``; the text area ``editor-text:<first row painted>`` and its scroll bar
``pane:text:<track>:<thumb>:<max>`` (the scroll pane is ``pane:text``); the context menu's
``menu:undo``, ``menu:redo``, ``menu:cut``, ``menu:copy``, ``menu:paste``,
``menu:delete``, ``menu:select-all`` (commands that also answer while the menu is shut);
the Save As dialog's ``save-name``, ``save-folder``, ``save-cancel``, ``save-confirm``; the
unsaved-changes dialog's ``close-cancel``, ``close-discard``, ``close-save``.

Keys: characters, Enter, Tab, Backspace, Delete (Ctrl with either deletes a word),
arrows (by rows on screen vertically), Ctrl+ArrowLeft/ArrowRight by words, Home/End (the
line), PageUp/PageDown, Ctrl+Home/End, Shift with any of them extends the selection,
Ctrl+A, Ctrl+X/C/V (and Shift+Delete, Ctrl+Insert, Shift+Insert) through the machine
clipboard, Ctrl+Z undo, Ctrl+Y and Ctrl+Shift+Z redo, Ctrl+F find (Enter next, Shift+Enter
previous, Escape closes; F3/Ctrl+G and Shift+F3/Ctrl+Shift+G anywhere), Ctrl+S save,
Ctrl+Shift+S save as, Ctrl+O open, Ctrl+W close. Meta works as Ctrl with letters. The
command shortcuts (A, X, C, V, Z, Y, F, G, S, O, W) use the theme's primary modifier —
Ctrl on Ubuntu — and then the other one of Ctrl and Meta works as it with letters.
Pointer: a press places the caret at the nearest cell boundary, a drag selects, Shift
with a press extends the selection, a double click (or a second press on the same place)
selects the word and a third press the line, the secondary button opens the context
menu, the wheel scrolls whole rows without moving the caret.

Closing with unsaved changes asks (the unsaved-changes dialog), whether from the
toolbar's Close and Ctrl+W or from the desktop — the header's ✕, Alt+F4,
``application.v1 close`` reach :meth:`Editor.can_close`. The text area's scroll offset is
the window's (pane ``text``), so scrolling alone is a ``scroll`` effect.
"""

from __future__ import annotations

import itertools
import posixpath
from typing import Any

from cwgym.apps import _save_dialog as sd
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.scene import Box, NodeState, Rect, Semantic
from cwgym.text import line_height, measure

__all__ = ["DIRTY_MARK", "MAX_CHARS", "MAX_UNDO", "UNTITLED", "Editor"]

#: What the title shows in front of the name while there are unsaved changes.
DIRTY_MARK = "• "
UNTITLED = "Untitled Document 1"
#: Undo steps kept.
MAX_UNDO = 200
#: The most characters a document holds: typing or pasting past it fails the action with
#: ``invalid`` and changes nothing (a larger file still opens; it only cannot grow).
MAX_CHARS = 1 << 20

TOOLBAR_H = 44
BAR_H = 44
STATUS_H = 26
MARGIN = 10
TOOLBAR = (
    ("open", "Open"),
    ("save", "Save"),
    ("save-as", "Save As…"),
    ("find", "Find"),
    ("undo", "Undo"),
    ("redo", "Redo"),
    ("close", "Close"),
)
MENU = (
    ("menu:undo", "Undo"),
    ("menu:redo", "Redo"),
    ("menu:cut", "Cut"),
    ("menu:copy", "Copy"),
    ("menu:paste", "Paste"),
    ("menu:delete", "Delete"),
    ("menu:select-all", "Select All"),
)
#: The text area's scroll pane (``pane:text``); its offset is the window's.
PANE = "text"
DIALOG_TARGETS = {
    "save-as": ("save-name", "save-folder", "save-cancel", "save-confirm"),
    "close": ("close-cancel", "close-discard", "close-save"),
}


# -- geometry ------------------------------------------------------------------------------


class _Geom:
    """Where everything is for a content size and the bars shown."""

    __slots__ = ("bar", "cols", "pane", "rows", "status", "track")

    def __init__(self, width: int, height: int, state: dict) -> None:
        cw, ch = tp.grid()
        y = TOOLBAR_H
        self.bar: Rect | None = None
        if state["find"] is not None or state["open"] is not None:
            self.bar = Rect(0, y, width, BAR_H)
            y += BAR_H
        avail = max(ch, height - y - STATUS_H - 12)
        self.rows = max(1, avail // ch)
        pane_w = max(cw, width - MARGIN - tp.BAR - 10)
        self.pane = Rect(MARGIN, y + 6, pane_w, self.rows * ch)
        self.cols = max(1, pane_w // cw)
        self.track = Rect(width - tp.BAR - 3, y + 6, tp.BAR, self.rows * ch)
        self.status = Rect(0, max(y, height - STATUS_H), width, STATUS_H)


def _toolbar(width: int) -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in TOOLBAR:
        w = measure(label, "sans", 14) + 24
        out.append((name, label, Rect(x, 6, w, 32)))
        x += w + 6
    return out


def _bar_controls(width: int, bar: Rect, kind: str) -> dict[str, Rect]:
    """The find or open bar's field and buttons."""
    names = (
        (("find-previous", "Previous"), ("find-next", "Next"), ("find-close", "Close Find Bar"))
        if kind == "find"
        else (("open-confirm", "Open File"), ("open-cancel", "Cancel"))
    )
    widths = [measure(label, "sans", 14) + 24 for _, label in names]
    field_w = max(120, min(360, width - 16 - sum(widths) - 6 * len(names) - 110))
    out = {("find-field" if kind == "find" else "open-path"): Rect(8, bar.y + 6, field_w, 32)}
    x = 8 + field_w + 6
    for (name, _), w in zip(names, widths):
        out[name] = Rect(x, bar.y + 6, w, 32)
        x += w + 6
    return out


DIALOG = sd.DialogStyle(240, 420, "Save Changes?")


def _dialog_rects(width: int, height: int, kind: str) -> tuple[Rect, dict[str, Rect]]:
    return sd.dialog_rects(width, height, kind, DIALOG)


# -- the document --------------------------------------------------------------------------


def _lines(state: dict) -> list[str]:
    return state["text"].split("\n")


def _starts(lines: list[str]) -> list[int]:
    """The offset each line starts at (and one past the end)."""
    return [0, *itertools.accumulate(len(line) + 1 for line in lines)]


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _span(state: dict) -> tuple[int, int]:
    a, c = state["anchor"], state["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _dirty(state: dict) -> bool:
    return state["text"] != state["saved"]


def _name(state: dict) -> str:
    return posixpath.basename(state["path"]) if state["path"] else UNTITLED


def _resolve(raw: str, home: str, base: str) -> str:
    raw = raw.strip()
    if raw == "~":
        path = home
    elif raw.startswith("~/"):
        path = home + raw[1:]
    elif raw.startswith("/"):
        path = raw
    else:
        path = f"{base.rstrip('/')}/{raw}"
    return posixpath.normpath(path)


def _fold(text: str) -> str:
    low = text.lower()
    return low if len(low) == len(text) else text


def _new_doc(path: str | None, text: str) -> dict[str, Any]:
    return {
        "path": path,
        "text": text,
        "saved": text,
        "caret": 0,
        "anchor": None,
        "goal": None,
        "undo": [],
        "redo": [],
        "group": None,
    }


def _stored_row(stored: int | None) -> int:
    """The first row a stored pane offset (pixels) shows, before clamping."""
    return (stored or 0) // tp.grid()[1]


def _clamp_top(row: int, wrap: tp.Wrap, rows: int) -> int:
    return max(0, min(row, max(0, wrap.total - rows)))


def _set_top(ctx: AppContext, row: int) -> bool:
    """Scroll the text so ``row`` is the first shown; whether the offset moved."""
    value = row * tp.grid()[1]
    if value == (ctx.scroll_offset(PANE) or 0):
        return False
    ctx.set_scroll_offset(PANE, value or None)
    return True


def _read(ctx: AppContext, path: str) -> str:
    text = ctx.files().read(path, ctx.home).decode("utf-8", "replace")
    return text[:-1] if text.endswith("\n") else text


class Editor(App):
    id = "editor"
    label = "Text Editor"
    kind = "builtin"
    keyboard_route = "editor"
    default_size = (760, 520)
    min_size = (560, 300)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        path, text = None, ""
        if argument:
            path = _resolve(argument, ctx.home, ctx.cwd)
            try:
                text = _read(ctx, path)
            except FsError as exc:
                if exc.code != "ENOENT":
                    raise AppError(str(exc)) from None
        state = _new_doc(path, text)
        state.update(
            {
                "focus": "text",
                "find": None,
                "open": None,
                "dialog": None,
                "menu": None,
                "status": "",
                "error": False,
                "drag": None,
                "clicks": None,
            }
        )
        return state

    def title(self, state: dict) -> str:
        return (DIRTY_MARK if _dirty(state) else "") + _name(state)

    def document(self, state: dict) -> str:
        return state["path"] or ""

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        cw, ch = tp.grid()
        g = _Geom(p.width, p.height, state)
        dialog = state["dialog"]
        p.box(Rect(0, 0, p.width, TOOLBAR_H), pal.get("header", pal["button"]), key="toolbar")
        for name, label, rect in _toolbar(p.width):
            disabled = (name == "undo" and not state["undo"]) or (name == "redo" and not state["redo"])
            p.button(name, label, rect, disabled=disabled, suggested=name == "save" and _dirty(state))
        if g.bar is not None:
            self._paint_bar(p, state, g.bar)
        # the text area
        lines = _lines(state)
        wrap = tp.Wrap(lines, g.cols)
        top = _clamp_top(_stored_row(p.scroll_offset(PANE)), wrap, g.rows)
        area = f"editor-text:{top}"
        focused = state["focus"] == "text" and dialog is None
        p.paint(
            Box(pal["field"]),
            Rect(0, g.pane.y - 6, p.width, g.rows * ch + 12),
            key="text-bg",
            target=area,
            semantic=Semantic("textbox", _name(state), state["text"], False, True),
            state=NodeState(focused=focused),
        )
        s, e = _span(state)
        if s != e:
            a, b = _line_col(state["text"], s), _line_col(state["text"], e)
            for i, c0, n in tp.selection_boxes(wrap, top, g.rows, a, b):
                p.paint(Box(pal["selection"]), Rect(g.pane.x + c0 * cw, g.pane.y + i * ch, n * cw, ch), key=("sel", i), target=area)
        tp.paint_rows(
            p, wrap, top, g.rows, g.pane.x, g.pane.y,
            color=pal["text"], target=area, pane=f"window:{p.window}:editor", key="row",
        )
        line, col = _line_col(state["text"], state["caret"])
        row, cell = wrap.row_of(line, col)
        caret = Rect(g.pane.x + cell * cw, g.pane.y + (row - top) * ch, cw, ch)
        if focused and top <= row < top + g.rows:
            p.paint(Box(pal["text"]), Rect(caret.x, caret.y, 2, ch), key="caret", target=area)
        tp.paint_bar(p, PANE, g.track, g.rows, wrap.total, top)
        p.scroll(PANE, g.pane, wrap.total * ch, top * ch)
        shown = sorted({wrap.locate(r)[0] for r in range(top, min(top + g.rows, wrap.total))})
        p.buffer("editor", lines, shown[0] if shown else 0, len(shown))
        # the status bar
        st = g.status
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        where = f"Ln {line + 1}, Col {col + 1}"
        ww = measure(where, "sans", 13)
        ty = st.y + (st.height - line_height("sans", 13)) // 2
        p.text(where, st.right - ww - 12, ty, size=13, color=pal["muted"], key="where")
        if state["status"]:
            p.text(state["status"], 10, ty, size=13, color=ERROR if state["error"] else pal["muted"], width=max(0, st.width - ww - 40), key="status")
        if focused:
            p.focus(area, role="textbox", label=_name(state), value=state["text"], caret=caret, line=line, column=col, offset=state["caret"], text_entry=True)
        if dialog is not None:
            self._paint_dialog(p, state, dialog)
        if state["menu"] is not None and dialog is None:
            enabled = self._menu_enabled(state)
            tp.paint_menu(p, state["menu"], [(t, label, enabled[t]) for t, label in MENU])

    def _paint_bar(self, p: Painter, state: dict, bar: Rect) -> None:
        pal = p.palette
        kind = "find" if state["find"] is not None else "open"
        p.box(bar, pal["window"], key="bar-bg")
        controls = _bar_controls(p.width, bar, kind)
        focused = state["dialog"] is None
        if kind == "find":
            f = state["find"]
            tp.paint_field(p, "find-field", f, controls["find-field"], label="Find", focused=focused and state["focus"] == "find", placeholder="Find")
            p.button("find-previous", "Previous", controls["find-previous"])
            p.button("find-next", "Next", controls["find-next"])
            p.button("find-close", "Close Find Bar", controls["find-close"])
            if f["status"]:
                x = controls["find-close"].right + 12
                p.text(f["status"], x, bar.y + 14, size=13, color=p.palette["muted"], width=max(0, p.width - x - 8), key="find-status")
        else:
            tp.paint_field(
                p, "open-path", state["open"], controls["open-path"], label="File to open",
                focused=focused and state["focus"] == "open", placeholder="Type a path, like ~/notes.txt",
            )
            p.button("open-confirm", "Open File", controls["open-confirm"], suggested=True)
            p.button("open-cancel", "Cancel", controls["open-cancel"])

    def _paint_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        sd.paint_dialog(p, dialog, state["focus"], DIALOG, f"“{_name(state)}” has unsaved changes. Save them before closing?")

    # -- editing -----------------------------------------------------------------------
    def _edit(self, state: dict, start: int, end: int, new: str, kind: str) -> None:
        """Replace ``text[start:end]`` with ``new``, recording one undo step (or growing one)."""
        text = state["text"]
        old = text[start:end]
        if not old and not new:
            return
        before = [state["caret"], state["anchor"]]
        state["text"] = text[:start] + new + text[end:]
        state["caret"] = start + len(new)
        state["anchor"] = None
        state["goal"] = None
        undo = state["undo"]
        last = undo[-1] if undo and state["group"] == kind else None
        merged = False
        if last is not None and last["kind"] == kind:
            if kind == "type" and not old and start == last["at"] + len(last["new"]):
                word_break = last["new"][-1:].isspace() and not new[:1].isspace()
                if not word_break:
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
        state["group"] = kind if kind in ("type", "backspace", "delete") else None
        state["redo"] = []

    def _insert(self, state: dict, text: str, kind: str) -> None:
        s, e = _span(state)
        _fits(state, s, e, text)
        self._edit(state, s, e, text, kind if s == e else "replace")

    def _undo(self, state: dict) -> bool:
        if not state["undo"]:
            return False
        step = state["undo"].pop()
        at, old, new = step["at"], step["old"], step["new"]
        state["text"] = state["text"][:at] + old + state["text"][at + len(new) :]
        state["caret"], state["anchor"] = step["before"]
        state["redo"].append(step)
        state["group"] = None
        state["goal"] = None
        return True

    def _redo(self, state: dict) -> bool:
        if not state["redo"]:
            return False
        step = state["redo"].pop()
        at, old, new = step["at"], step["old"], step["new"]
        state["text"] = state["text"][:at] + new + state["text"][at + len(old) :]
        state["caret"], state["anchor"] = at + len(new), None
        state["undo"].append(step)
        state["group"] = None
        state["goal"] = None
        return True

    def _copy(self, ctx: AppContext, state: dict, cut: bool) -> None:
        s, e = _span(state)
        if s == e:
            return
        ctx.clipboard = state["text"][s:e]
        if cut:
            self._edit(state, s, e, "", "cut")

    def _paste(self, ctx: AppContext, state: dict) -> None:
        text = ctx.clipboard.replace("\r\n", "\n")
        if text:
            self._insert(state, text, "paste")

    def _reveal(self, ctx: AppContext, state: dict) -> None:
        """Scroll the least that brings the caret's row into view."""
        g = _Geom(ctx.width, ctx.height, state)
        wrap = tp.Wrap(_lines(state), g.cols)
        row, _cell = wrap.row_of(*_line_col(state["text"], state["caret"]))
        top = _stored_row(ctx.scroll_offset(PANE))
        if row < top:
            top = row
        elif row >= top + g.rows:
            top = row - g.rows + 1
        _set_top(ctx, _clamp_top(top, wrap, g.rows))

    def _scroll(self, ctx: AppContext, state: dict, rows: int) -> bool:
        g = _Geom(ctx.width, ctx.height, state)
        wrap = tp.Wrap(_lines(state), g.cols)
        top = _clamp_top(_stored_row(ctx.scroll_offset(PANE)), wrap, g.rows)
        return _set_top(ctx, _clamp_top(top + rows, wrap, g.rows))

    # -- saving, opening, closing ------------------------------------------------------
    def _write(self, ctx: AppContext, state: dict, path: str) -> str | None:
        """Write the document to ``path``; the reason it failed, or ``None``."""
        data = state["text"] + "\n" if state["text"] else ""
        try:
            ctx.files().write(path, ctx.home, data.encode("utf-8"))
        except FsError as exc:
            return exc.strerror_text
        state["path"] = path
        state["saved"] = state["text"]
        state["status"], state["error"] = "", False
        return None

    def _save(self, ctx: AppContext, state: dict, then: str | None = None) -> bool:
        if state["path"] is None:
            self._open_save_as(ctx, state, then)
            return False
        problem = self._write(ctx, state, state["path"])
        if problem is not None:
            state["status"] = f"Could not save “{_name(state)}”: {problem}"
            state["error"] = True
            return False
        return True

    def _open_save_as(self, ctx: AppContext, state: dict, then: str | None = None) -> None:
        if state["path"]:
            folder, name = posixpath.split(state["path"])
        else:
            name = f"{UNTITLED}.txt"
            docs = f"{ctx.home}/Documents"
            folder = docs if ctx.files().is_dir(docs, ctx.home) else ctx.home
        shown = "~" + folder[len(ctx.home) :] if folder == ctx.home or folder.startswith(ctx.home + "/") else folder
        state["dialog"] = {
            "kind": "save-as",
            "name": tp.field(name, select=True),
            "folder": tp.field(shown),
            "error": "",
            "then": then,
        }
        state["focus"] = "save-name"
        state["menu"] = None

    def _confirm_save_as(self, ctx: AppContext, state: dict) -> None:
        dialog = state["dialog"]
        name = dialog["name"]["text"].strip()
        folder_raw = dialog["folder"]["text"].strip() or "~"
        if not name:
            dialog["error"] = "Type a name for the document."
            return
        if "/" in name or name in (".", ".."):
            dialog["error"] = "A file name cannot contain “/”."
            return
        folder = _resolve(folder_raw, ctx.home, ctx.home)
        if not ctx.files().is_dir(folder, ctx.home):
            dialog["error"] = f"There is no folder “{folder_raw}”."
            return
        problem = self._write(ctx, state, posixpath.join(folder, name))
        if problem is not None:
            dialog["error"] = f"Could not save “{name}”: {problem}"
            return
        state["dialog"] = None
        state["focus"] = "text"
        if dialog["then"] == "close":
            self._close(ctx, state)

    def _cancel_dialog(self, state: dict) -> None:
        state["dialog"] = None
        state["focus"] = "text"

    def _request_close(self, ctx: AppContext, state: dict) -> None:
        """The toolbar's Close and Ctrl+W: what the window manager's close does."""
        state["menu"] = None
        if self.can_close(ctx, state):
            self._close(ctx, state)

    def _close(self, ctx: AppContext, state: dict) -> None:
        ctx.close()

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        """The window manager's close (✕, Alt+F4, ``application.v1 close``): with unsaved
        changes the window stays and asks (the dialog open already, if one is)."""
        if not _dirty(state):
            return True
        state["menu"] = None
        if state["dialog"] is None:
            state["dialog"] = {"kind": "close"}
            state["focus"] = "text"
        return False

    def _show_open(self, state: dict) -> None:
        state["open"] = tp.field("")
        state["find"] = None
        state["focus"] = "open"
        state["menu"] = None

    def _do_open(self, ctx: AppContext, state: dict) -> None:
        raw = state["open"]["text"].strip()
        if not raw:
            state["status"], state["error"] = "Type the path of a file to open.", True
            return
        base = posixpath.dirname(state["path"]) if state["path"] else ctx.home
        path = _resolve(raw, ctx.home, base)
        if path == state["path"]:
            state["open"], state["focus"] = None, "text"
            return
        try:
            text = _read(ctx, path)
        except FsError as exc:
            state["status"], state["error"] = f"Could not open “{raw}”: {exc.strerror_text}", True
            return
        state["open"], state["focus"] = None, "text"
        state["status"], state["error"] = "", False
        if _dirty(state) or state["path"] is not None or state["text"]:
            # keep this document: the file opens in a window of its own
            try:
                ctx.launch(self.id, path)
            except AppError:
                state["status"], state["error"] = f"Could not open “{raw}”.", True
            return
        state.update(_new_doc(path, text))
        ctx.set_scroll_offset(PANE, None)

    # -- finding -----------------------------------------------------------------------
    def _show_find(self, state: dict) -> None:
        s, e = _span(state)
        chosen = state["text"][s:e]
        query = chosen if chosen and "\n" not in chosen else (state["find"] or {}).get("text", "")
        state["find"] = {**tp.field(query, select=True), "origin": s, "status": ""}
        state["open"] = None
        state["focus"] = "find"
        state["menu"] = None

    def _find(self, state: dict, direction: int, origin: int | None = None) -> None:
        f = state["find"]
        if f is None or not f["text"]:
            if f is not None:
                f["status"] = ""
            return
        hay, needle = _fold(state["text"]), _fold(f["text"])
        if len(hay) != len(state["text"]) or len(needle) != len(f["text"]):
            hay, needle = state["text"], f["text"]
        s, e = _span(state)
        if direction > 0:
            start = e if origin is None else origin
            at = hay.find(needle, start)
            if at < 0:
                at = hay.find(needle)
        else:
            # the last match that starts before the selection, else (wrapping) the last one
            at = hay.rfind(needle, 0, s + len(needle) - 1) if s > 0 else -1
            if at < 0:
                at = hay.rfind(needle)
        if at < 0:
            f["status"] = "No results"
            return
        state["anchor"], state["caret"] = at, at + len(needle)
        state["goal"], state["group"] = None, None
        total = hay.count(needle)
        f["status"] = f"{hay.count(needle, 0, at) + 1} of {total}"

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        before = (state["text"], state["caret"], state["anchor"])
        taken = self._key(ctx, state, chord)
        if taken:
            state["clicks"] = None
            after = (state["text"], state["caret"], state["anchor"])
            if state["dialog"] is None and (after[0] is not before[0] or after[1:] != before[1:]):
                self._reveal(ctx, state)
        return taken

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = _as_primary(chord, ctx.primary).name  # the handlers below get the chord as pressed
        cmd = ctx.shortcut
        if state["menu"] is not None:
            state["menu"] = None
            if name == "Escape":
                return True
        if state["dialog"] is not None:
            return self._dialog_key(ctx, state, name, chord)
        if name == cmd("Primary+s"):
            self._save(ctx, state)
            return True
        if name == cmd("Primary+Shift+s"):
            self._open_save_as(ctx, state)
            return True
        if name == cmd("Primary+o"):
            self._show_open(state)
            return True
        if name == cmd("Primary+f"):
            self._show_find(state)
            return True
        if name == cmd("Primary+w"):
            self._request_close(ctx, state)
            return True
        if name in ("F3", "Shift+F3", cmd("Primary+g"), cmd("Primary+Shift+g")):
            if state["find"] is None:
                self._show_find(state)
            self._find(state, -1 if chord.shift else 1)
            return True
        if name == cmd("Primary+z"):
            self._undo(state)
            return True
        if name in (cmd("Primary+y"), cmd("Primary+Shift+z")):
            self._redo(state)
            return True
        focus = state["focus"]
        if focus == "find":
            return self._find_key(ctx, state, name, chord)
        if focus == "open":
            return self._open_key(ctx, state, name, chord)
        return self._text_key(ctx, state, name, chord)

    def _find_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = state["find"]
        if name in ("Enter", "Shift+Enter"):
            self._find(state, -1 if chord.shift else 1)
            return True
        if name == "Escape":
            state["find"], state["focus"] = None, "text"
            return True
        if name in ("Tab", "Shift+Tab", "ArrowDown"):
            state["focus"] = "text"
            return True
        before = f["text"]
        if not tp.field_key(ctx, f, chord):
            return False
        if f["text"] != before:
            self._find(state, 1, f["origin"])
        return True

    def _open_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        if name == "Enter":
            self._do_open(ctx, state)
            return True
        if name == "Escape":
            state["open"], state["focus"] = None, "text"
            return True
        return tp.field_key(ctx, state["open"], chord)

    def _dialog_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        dialog = state["dialog"]
        if name in ("Escape", "Alt+F4"):
            self._cancel_dialog(state)
            return True
        if dialog["kind"] == "close":
            if name == "Enter":
                self._dialog_close_save(ctx, state)
                return True
            return name in ("Tab", "Shift+Tab")
        if name == "Enter":
            self._confirm_save_as(ctx, state)
            return True
        if name in ("Tab", "Shift+Tab"):
            state["focus"] = "save-folder" if state["focus"] == "save-name" else "save-name"
            tp.field_select_all(dialog["folder" if state["focus"] == "save-folder" else "name"])
            return True
        f = dialog["folder" if state["focus"] == "save-folder" else "name"]
        if tp.field_key(ctx, f, chord):
            dialog["error"] = ""
            return True
        return False

    def _dialog_close_save(self, ctx: AppContext, state: dict) -> None:
        state["dialog"] = None
        if state["path"] is None:
            self._open_save_as(ctx, state, "close")
            return
        if self._save(ctx, state):
            self._close(ctx, state)

    def _text_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        text = state["text"]
        s, e = _span(state)
        if name in ("Enter", "Shift+Enter"):
            self._insert(state, "\n", "newline")
            return True
        if name == "Tab":
            self._insert(state, "\t", "type")
            return True
        if name in ("Backspace", "Shift+Backspace"):
            if s != e:
                self._edit(state, s, e, "", "cut")
            elif s > 0:
                self._edit(state, s - 1, s, "", "backspace")
            return True
        if name == "Delete":
            if s != e:
                self._edit(state, s, e, "", "cut")
            elif s < len(text):
                self._edit(state, s, s + 1, "", "delete")
            return True
        if name == "Ctrl+Backspace":
            if s != e:
                self._edit(state, s, e, "", "cut")
            else:
                self._edit(state, tp.word_left(text, s), s, "", "cut")
            return True
        if name == "Ctrl+Delete":
            if s != e:
                self._edit(state, s, e, "", "cut")
            else:
                self._edit(state, s, tp.word_right(text, s), "", "cut")
            return True
        if name == ctx.shortcut("Primary+a"):
            state["anchor"], state["caret"] = 0, len(text)
            state["group"] = None
            return True
        if name in (ctx.shortcut("Primary+c"), "Ctrl+Insert"):
            self._copy(ctx, state, cut=False)
            return True
        if name in (ctx.shortcut("Primary+x"), "Shift+Delete"):
            self._copy(ctx, state, cut=True)
            return True
        if name in (ctx.shortcut("Primary+v"), "Shift+Insert"):
            self._paste(ctx, state)
            return True
        if name == "Escape":
            if state["find"] is not None or state["open"] is not None:
                state["find"] = state["open"] = None
                return True
            if s != e:
                state["anchor"] = None
                return True
            return False
        if self._move(ctx, state, name, chord):
            return True
        if chord.char is not None:
            self._insert(state, chord.char, "type")
            return True
        return False

    def _move(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        base = name.replace("Shift+", "")
        text = state["text"]
        caret = state["caret"]
        s, e = _span(state)
        vertical = base in ("ArrowUp", "ArrowDown", "PageUp", "PageDown")
        if vertical:
            g = _Geom(ctx.width, ctx.height, state)
            wrap = tp.Wrap(_lines(state), g.cols)
            row, cell = wrap.row_of(*_line_col(text, caret))
            goal = state["goal"] if state["goal"] is not None else cell
            step = {"ArrowUp": -1, "ArrowDown": 1, "PageUp": -max(1, g.rows - 1), "PageDown": max(1, g.rows - 1)}[base]
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
                new = _starts(_lines(state))[line] + col
        else:
            lines = None
            line, col = _line_col(text, caret)
            if base == "ArrowLeft":
                new = s if s != e and not chord.shift else max(0, caret - 1)
            elif base == "ArrowRight":
                new = e if s != e and not chord.shift else min(len(text), caret + 1)
            elif base == "Ctrl+ArrowLeft":
                new = tp.word_left(text, caret)
            elif base == "Ctrl+ArrowRight":
                new = tp.word_right(text, caret)
            elif base in ("Home", "End"):
                lines = _lines(state)
                start = caret - col
                new = start if base == "Home" else start + len(lines[line])
            elif base == "Ctrl+Home":
                new = 0
            elif base == "Ctrl+End":
                new = len(text)
            else:
                return False
            goal = None
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

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        dialog = state["dialog"]
        if dialog is not None and dialog["kind"] != "save-as":
            return False  # the unsaved-changes dialog has no field
        state["menu"] = None
        state["clicks"] = None
        if dialog is not None:
            tp.field_type(dialog["folder" if state["focus"] == "save-folder" else "name"], text)
            dialog["error"] = ""
            return True
        focus = state["focus"]
        if focus == "find":
            tp.field_type(state["find"], text)
            self._find(state, 1, state["find"]["origin"])
            self._reveal(ctx, state)
            return True
        if focus == "open":
            tp.field_type(state["open"], text)
            return True
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
        if not text:
            return True
        self._insert(state, text, "type" if len(text) == 1 else "paste")
        self._reveal(ctx, state)
        return True

    # -- pointer -----------------------------------------------------------------------
    def _menu_enabled(self, state: dict) -> dict[str, bool]:
        s, e = _span(state)
        return {
            "menu:undo": bool(state["undo"]),
            "menu:redo": bool(state["redo"]),
            "menu:cut": s != e,
            "menu:copy": s != e,
            "menu:paste": True,
            "menu:delete": s != e,
            "menu:select-all": bool(state["text"]),
        }

    def activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        dialog = state["dialog"]
        if target == "menu-dismiss":
            state["menu"] = None
            return None
        if dialog is not None:
            if target not in DIALOG_TARGETS[dialog["kind"]]:
                raise UnknownTarget(target)
            return self._dialog_control(ctx, state, target, point)
        if target.startswith("menu:"):
            self._menu_command(ctx, state, target)
            return None
        state["menu"] = None
        g = _Geom(ctx.width, ctx.height, state)
        if target.startswith("editor-text"):
            state["focus"] = "text"
            return None
        if tp.parse_bar(target, PANE) is not None:
            self._scroll(ctx, state, max(1, g.rows - 1))
            return None
        if target == "open":
            if state["open"] is not None:
                state["open"], state["focus"] = None, "text"
            else:
                self._show_open(state)
            return None
        if target == "save":
            self._save(ctx, state)
            return None
        if target == "save-as":
            self._open_save_as(ctx, state)
            return None
        if target == "find":
            if state["find"] is not None:
                state["find"], state["focus"] = None, "text"
            else:
                self._show_find(state)
            return None
        if target in ("undo", "redo"):
            (self._undo if target == "undo" else self._redo)(state)
            self._reveal(ctx, state)
            return None
        if target == "close":
            self._request_close(ctx, state)
            return None
        if state["find"] is not None and target in ("find-field", "find-next", "find-previous", "find-close"):
            if target == "find-field":
                state["focus"] = "find"
                if point is not None:
                    rect = _bar_controls(ctx.width, g.bar, "find")["find-field"]
                    state["find"]["caret"] = tp.field_index(state["find"], rect, point[0])
                    state["find"]["anchor"] = None
            elif target == "find-close":
                state["find"], state["focus"] = None, "text"
            else:
                self._find(state, 1 if target == "find-next" else -1)
                self._reveal(ctx, state)
            return None
        if state["open"] is not None and target in ("open-path", "open-confirm", "open-cancel"):
            if target == "open-path":
                state["focus"] = "open"
                if point is not None:
                    rect = _bar_controls(ctx.width, g.bar, "open")["open-path"]
                    state["open"]["caret"] = tp.field_index(state["open"], rect, point[0])
                    state["open"]["anchor"] = None
            elif target == "open-cancel":
                state["open"], state["focus"] = None, "text"
            else:
                self._do_open(ctx, state)
            return None
        raise UnknownTarget(target)

    def _dialog_control(self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None) -> None:
        dialog = state["dialog"]
        if target in ("save-name", "save-folder"):
            state["focus"] = target
            f = dialog["name" if target == "save-name" else "folder"]
            if point is not None:
                _box, controls = _dialog_rects(ctx.width, ctx.height, "save-as")
                f["caret"] = tp.field_index(f, controls[target], point[0])
                f["anchor"] = None
        elif target in ("save-cancel", "close-cancel"):
            self._cancel_dialog(state)
        elif target == "save-confirm":
            self._confirm_save_as(ctx, state)
        elif target == "close-discard":
            state["dialog"] = None
            self._close(ctx, state)
        elif target == "close-save":
            self._dialog_close_save(ctx, state)

    def _menu_command(self, ctx: AppContext, state: dict, target: str) -> None:
        state["menu"] = None
        state["focus"] = "text"
        command = target[5:]
        s, e = _span(state)
        if command == "undo":
            self._undo(state)
        elif command == "redo":
            self._redo(state)
        elif command in ("cut", "copy"):
            self._copy(ctx, state, cut=command == "cut")
        elif command == "paste":
            self._paste(ctx, state)
        elif command == "delete":
            if s != e:
                self._edit(state, s, e, "", "cut")
        elif command == "select-all":
            state["anchor"], state["caret"] = 0, len(state["text"])
        else:
            raise UnknownTarget(target)
        self._reveal(ctx, state)

    def is_drag_surface(self, target: str, button: int) -> bool:
        if target.startswith("editor-text"):
            return button in (0, 2)
        return button == 0 and tp.parse_bar(target, PANE) is not None

    def cursor(self, target: str) -> str | None:
        if target.startswith("editor-text"):
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
        if state["dialog"] is not None:
            return
        cw, ch = tp.grid()
        g = _Geom(ctx.width, ctx.height, state)
        lines = _lines(state)
        wrap = tp.Wrap(lines, g.cols)
        if not target.startswith("editor-text"):
            top = _clamp_top(_stored_row(ctx.scroll_offset(PANE)), wrap, g.rows)
            px = tp.bar_drag(state, target, PANE, phase, point[1], g.track.y, top * ch)
            if px is not None:
                _set_top(ctx, _clamp_top((px + ch // 2) // ch, wrap, g.rows))
            return
        if button == 2:
            if phase == "down":
                state["menu"] = [point[0], point[1]]
                state["focus"] = "text"
            return
        if phase == "cancel":
            state["drag"] = None
            return
        if phase == "down" and state["menu"] is not None:
            state["menu"] = None
            state["drag"] = None
            return
        top = _clamp_top(_stored_row(ctx.scroll_offset(PANE)), wrap, g.rows)
        rel = (point[1] - g.pane.y) // ch
        if phase == "move" and (rel < 0 or rel >= g.rows):
            self._scroll(ctx, state, -1 if rel < 0 else 1)
            top = _clamp_top(_stored_row(ctx.scroll_offset(PANE)), wrap, g.rows)
        row = max(0, min(wrap.total - 1, top + rel))
        line, col = wrap.pos_at(row, point[0] - g.pane.x, cw)
        offset = _starts(lines)[line] + col
        text = state["text"]
        if phase == "down":
            state["focus"] = "text"
            state["goal"], state["group"] = None, None
            if "Shift" in modifiers and clicks == 1:
                # Shift+press extends the selection from its anchor (else the caret)
                anchor = state["anchor"] if state["anchor"] is not None else state["caret"]
                state["drag"] = {"kind": "text", "from": [anchor, anchor], "unit": 1}
                state["anchor"], state["caret"] = (None, offset) if anchor == offset else (anchor, offset)
                state["clicks"] = None
                return
            n = tp.click_count(state, offset, ctx.now_us, clicks)
            s, e = _unit(text, offset, n)
            state["drag"] = {"kind": "text", "from": [s, e], "unit": n}
            state["anchor"], state["caret"] = (None, offset) if s == e else (s, e)
            return
        drag = state["drag"] if isinstance(state["drag"], dict) and state["drag"].get("kind") == "text" else None
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
        if state["dialog"] is not None:
            return True  # the dialog is modal: the text does not scroll under it
        if not dy or "Shift" in modifiers or "Ctrl" in modifiers:
            return False
        return self._scroll(ctx, state, tp.rows_for_wheel(dy))


def _unit(text: str, offset: int, n: int) -> tuple[int, int]:
    """The span ``n`` presses select at ``offset``: nothing, the word, the line."""
    if n == 2:
        return tp.word_at(text, offset)
    if n == 3:
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        return start, len(text) if end < 0 else end
    return offset, offset


def _fits(state: dict, start: int, end: int, new: str) -> None:
    """Refuse (:class:`InvalidInput`) replacing ``text[start:end]`` with ``new`` when the
    document would pass :data:`MAX_CHARS`; a document already past it (a large file
    opened) may still shrink."""
    if len(new) > end - start and len(state["text"]) - (end - start) + len(new) > MAX_CHARS:
        raise InvalidInput(f"a document holds at most {MAX_CHARS} characters")


def _as_primary(chord: Chord, primary: str) -> Chord:
    """``chord`` with the other command modifier (Meta under a Ctrl theme, Ctrl under a Meta
    one) read as the primary, for a letter held without the primary itself."""
    other = "Meta" if primary == "Ctrl" else "Ctrl"
    held = chord.modifiers
    if other not in held or primary in held or len(chord.key) != 1:
        return chord
    mods = {m for m in held if m != other} | {primary}
    return Chord(chord.key, "Ctrl" in mods, "Alt" in mods, "Shift" in mods, "Meta" in mods)


# The document model, by public name, for the other editors built on it (VS Code's tabs,
# cwgym.apps.code): one implementation of typing, undo and the clipboard.
Editor.apply_edit = Editor._edit
Editor.undo_edit = Editor._undo
Editor.redo_edit = Editor._redo
Editor.copy_selection = Editor._copy
Editor.paste_clipboard = Editor._paste
line_starts = _starts
selection_span = _span
new_document = _new_doc
grapheme_unit = _unit
check_fits = _fits
as_primary = _as_primary

register(Editor())
