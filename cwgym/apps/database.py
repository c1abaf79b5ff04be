"""``database``: an SQLite client in the manner of DB Browser for SQLite.

A window holds one SQLite database file of the simulated machine (the launch argument, a
``.db``/``.sqlite``/``.sqlite3``/``.db3`` path; a missing path is a new, empty database
that Write Changes creates). The file's bytes are read through the user's filesystem and
opened in memory by :mod:`cwgym.apps._sqlite`; the window's state keeps no connection,
only the file's path and the statements that changed data since the file was last written
(``pending``), replayed on the file's bytes whenever a connection is needed. Write
Changes (Ctrl+S) writes the whole database back through the filesystem; Revert Changes
drops the pending statements. Nothing touches the host's files.

Layout (content coordinates): the toolbar (Open Database, Write Changes, Revert Changes);
the open bar when shown; the tab strip (Database Structure, Browse Data, Execute SQL); the
tab's page; the status bar (a message on the left, errors in red with the role ``alert``;
the count of unwritten statements on the right).

Every control's target is ``db:<command>`` (``window:<id>:content:db:<command>``), as the
reference engine names them: ``db:open``, ``db:write``, ``db:revert``; ``db:tab:structure``,
``db:tab:browse``, ``db:tab:sql``; the structure tree's ``db:object:<name>``; Browse
Data's ``db:picker`` (the table drop-down) and its items ``db:pick:<name>``,
``db:first``, ``db:prev``, ``db:next``, ``db:last``, ``db:cell:<row>:<column>`` (row
numbers from 1 as shown, columns from 0); Execute SQL's ``db:sql`` (the editor),
``db:run``, ``db:clear``, ``db:result:<row>:<column>``; the open bar's ``db:open-path``,
``db:open-confirm``, ``db:open-cancel``; the close dialog's ``db:close-cancel``,
``db:close-discard``, ``db:close-save``.

See docs/apps/database.md for keys, files, caps and what it does not do.
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.apps import _sqlite as sq
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["MAX_PENDING", "MAX_PENDING_CHARS", "MAX_SQL", "MAX_STATEMENTS", "PAGE_ROWS", "Database"]

#: The most characters the SQL editor holds (typing or pasting past it is refused).
MAX_SQL = 20_000
#: Statements one execution may hold.
MAX_STATEMENTS = 200
#: Unwritten statements a window keeps (past it: write the changes first).
MAX_PENDING = 1000
#: Characters of unwritten statements a window keeps.
MAX_PENDING_CHARS = 200_000
#: Rows one page of Browse Data shows.
PAGE_ROWS = 100
#: Undo steps of the SQL editor.
MAX_UNDO = 100
DIRTY_MARK = "• "
SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db3")

TOOLBAR_H = 44
BAR_H = 44
TABS_H = 36
STATUS_H = 26
ROW_H = 24
HEAD_H = 26
CTRL_H = 40
MSG_H = 62
TOOLBAR = (
    ("db:open", "Open Database"),
    ("db:write", "Write Changes"),
    ("db:revert", "Revert Changes"),
)
TABS = (("structure", "Database Structure"), ("browse", "Browse Data"), ("sql", "Execute SQL"))
PAGING = (("db:first", "First"), ("db:prev", "Previous"), ("db:next", "Next"), ("db:last", "Last"))
CLOSE_TARGETS = ("db:close-cancel", "db:close-discard", "db:close-save")
OPEN_TARGETS = ("db:open-path", "db:open-confirm", "db:open-cancel")


# -- helpers -------------------------------------------------------------------------------


def _resolve(raw: str, home: str, base: str) -> str:
    raw = raw.strip()
    if raw == "~":
        return home
    if raw.startswith("~/"):
        return posixpath.normpath(home + raw[1:])
    if raw.startswith("/"):
        return posixpath.normpath(raw)
    return posixpath.normpath(f"{base.rstrip('/')}/{raw}")


def _name(state: dict) -> str:
    return posixpath.basename(state["path"]) if state["path"] else ""


def _bytes(ctx: AppContext, state: dict) -> bytes:
    """The database file's bytes now (``b""`` for a new database not yet written).
    Raises :class:`FsError`."""
    try:
        return ctx.files().read(state["path"], ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT" and state["new"]:
            return b""
        raise


def _status(state: dict, text: str, error: bool = False) -> None:
    state["status"], state["error"] = text, error


def _sql_span(f: dict) -> tuple[int, int]:
    a, c = f["anchor"], f["caret"]
    if a is None or a == c:
        return c, c
    return min(a, c), max(a, c)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    line = max(0, min(line, len(lines) - 1))
    return sum(len(s) + 1 for s in lines[:line]) + max(0, min(col, len(lines[line])))


class _Geom:
    """Where everything is for a content size and the bars shown."""

    __slots__ = (
        "bar",
        "body",
        "cols",
        "ctrl",
        "editor",
        "msg",
        "results",
        "rows",
        "status",
        "tabs",
    )

    def __init__(self, width: int, height: int, state: dict) -> None:
        y = TOOLBAR_H
        self.bar: Rect | None = None
        if state["open"] is not None:
            self.bar = Rect(0, y, width, BAR_H)
            y += BAR_H
        self.tabs = Rect(0, y, width, TABS_H)
        y += TABS_H
        self.status = Rect(0, max(y, height - STATUS_H), width, STATUS_H)
        self.body = Rect(0, y, width, max(0, self.status.y - y))
        self.ctrl = Rect(8, y + 6, width - 16, CTRL_H - 8)
        cw, ch = tp.grid()
        avail = max(0, self.status.y - (y + CTRL_H) - MSG_H - 8)
        self.rows = max(3, min(12, (avail * 2 // 5) // ch))
        self.editor = Rect(10, y + CTRL_H, max(cw, width - 20 - tp.BAR - 4), self.rows * ch)
        self.cols = max(1, self.editor.width // cw)
        self.msg = Rect(8, self.editor.bottom + 8, width - 16, MSG_H - 8)
        top = self.msg.bottom + 4
        self.results = Rect(8, top, width - 16, max(0, self.status.y - top - 4))


def _toolbar(width: int) -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in TOOLBAR:
        w = measure(label, "sans", 14) + 24
        out.append((name, label, Rect(x, 6, w, 32)))
        x += w + 6
    return out


def _tab_rects(tabs: Rect) -> list[tuple[str, str, Rect]]:
    out = []
    x = 8
    for name, label in TABS:
        w = measure(label, "sans", 14) + 28
        out.append((name, label, Rect(x, tabs.y + 4, w, tabs.height - 4)))
        x += w + 2
    return out


def _bar_controls(width: int, bar: Rect) -> dict[str, Rect]:
    widths = [measure(label, "sans", 14) + 24 for label in ("Open", "Cancel")]
    field_w = max(160, min(420, width - 40 - sum(widths)))
    out = {"db:open-path": Rect(8, bar.y + 6, field_w, 32)}
    x = 8 + field_w + 6
    for name, w in zip(("db:open-confirm", "db:open-cancel"), widths):
        out[name] = Rect(x, bar.y + 6, w, 32)
        x += w + 6
    return out


def _browse_controls(g: _Geom, state: dict, table: str | None) -> dict[str, Rect]:
    y = g.ctrl.y
    label_w = measure("Table:", "sans", 14)
    picker_w = max(160, min(280, measure(table or "", "sans", 14) + 48))
    out = {"picker": Rect(g.ctrl.x + label_w + 8, y, picker_w, 30)}
    x = out["picker"].right + 16
    for name, label in PAGING:
        w = measure(label, "sans", 14) + 20
        out[name] = Rect(x, y, w, 30)
        x += w + 4
    out["range"] = Rect(x + 8, y, 0, 30)
    return out


def _run_controls(g: _Geom) -> dict[str, Rect]:
    out = {}
    x = g.ctrl.x
    for name, label in (("db:run", "Execute all (Ctrl+Return)"), ("db:clear", "Clear")):
        w = measure(label, "sans", 14) + 24
        out[name] = Rect(x, g.ctrl.y, w, 30)
        x += w + 6
    return out


def _col_widths(columns: tuple, rows: tuple) -> tuple[int, ...]:
    key = ("widths", columns, rows)

    def build() -> tuple[int, ...]:
        out = []
        for i, name in enumerate(columns):
            w = measure(str(name), "sans-bold", 13)
            for row in rows[:60]:
                if i < len(row):
                    w = max(w, measure(row[i], "sans", 13))
            out.append(max(56, min(260, w + 18)))
        return tuple(out)

    return sq.cached_view(key, build)


def _close_rects(width: int, height: int) -> tuple[Rect, dict[str, Rect]]:
    w = max(260, min(460, width - 40))
    h = 160
    box = Rect((width - w) // 2, max(0, (height - h) // 2), w, h)
    controls = {}
    x = box.right - 16
    for name, label in reversed(
        (("db:close-cancel", "Cancel"), ("db:close-discard", "Discard"), ("db:close-save", "Save"))
    ):
        bw = measure(label, "sans", 14) + 32
        x -= bw
        controls[name] = Rect(x, box.bottom - 48, bw, 34)
        x -= 8
    return box, controls


# -- painting pieces (reused while what they show is unchanged) ----------------------------


def _paint_grid(
    p: Painter,
    prefix: str,
    columns: tuple,
    rows: tuple,
    first_number: int,
    rect: Rect,
    pane: str,
    selected: tuple[int, int] | None,
) -> None:
    """A grid of ``rows`` under ``columns`` in ``rect``, scrolled by the window's pane offset;
    cells are ``<prefix>:<row number>:<column>``."""
    pal = p.palette
    widths = _col_widths(columns, rows)
    numw = max(40, measure(str(first_number + len(rows)), "sans", 13) + 16)
    p.box(rect, pal["field"], key=(prefix, "bg"))
    head = Rect(rect.x, rect.y, rect.width, HEAD_H)
    view = Rect(rect.x, rect.y + HEAD_H, rect.width, max(0, rect.height - HEAD_H))
    header = pal.get("header", pal["button"])
    p.paint(
        Box(header, pal["border"], 1), Rect(rect.x, rect.y, numw, HEAD_H), key=(prefix, "corner")
    )
    x = rect.x + numw
    th = line_height("sans-bold", 13)
    tl = line_height("sans", 13)
    for i, name in enumerate(columns):
        w = widths[i]
        if x >= rect.right:
            break
        cell = Rect(x, rect.y, w, HEAD_H)
        p.paint(
            Box(header, pal["border"], 1),
            cell,
            key=(prefix, "head", i),
            semantic=Semantic("columnheader", str(name)),
            clip=head,
        )
        p.paint(
            UiTextBold(str(name), 13, pal["text"]),
            Rect(x + 8, rect.y + (HEAD_H - th) // 2, measure(str(name), "sans-bold", 13), th),
            key=(prefix, "head-text", i),
            clip=Rect(x + 4, rect.y, max(0, min(w - 8, rect.right - x - 4)), HEAD_H),
        )
        x += w
    total = len(rows) * ROW_H
    top = p.scroll(pane, view, total)
    first = top // ROW_H
    count = view.height // ROW_H + 2
    with p.clipped(view):
        for r in range(first, min(len(rows), first + count)):
            y = view.y + r * ROW_H - top
            number = first_number + r
            p.paint(
                Box(header, pal["border"], 1),
                Rect(rect.x, y, numw, ROW_H),
                key=(prefix, "rowhead", number),
                semantic=Semantic("rowheader", str(number)),
            )
            p.paint(
                UiText(str(number), 13, pal["muted"]),
                Rect(rect.x + 6, y + (ROW_H - tl) // 2, measure(str(number), "sans", 13), tl),
                key=(prefix, "rownum", number),
            )
            x = rect.x + numw
            row = rows[r]
            for c, w in enumerate(widths):
                if x >= rect.right:
                    break
                value = row[c] if c < len(row) else ""
                target = f"{prefix}:{number}:{c}"
                on = selected == (number, c)
                fill = pal["selection"] if on else pal["field"]
                p.paint(
                    Box(fill, pal["border"], 1),
                    Rect(x, y, w, ROW_H),
                    key=(prefix, "cell", number, c),
                    target=target,
                    semantic=Semantic("gridcell", f"{columns[c]} {number}", value, False, True),
                    state=NodeState(selected=True) if on else None,
                )
                ink = pal["muted"] if value == "NULL" else pal["text"]
                p.paint(
                    UiText(value, 13, ink),
                    Rect(x + 6, y + (ROW_H - tl) // 2, measure(value, "sans", 13), tl),
                    key=(prefix, "cell-text", number, c),
                    target=target,
                    clip=Rect(x + 2, y, max(0, w - 4), ROW_H),
                )
                x += w


class Database(App):
    id = "database"
    label = "DB Browser for SQLite"
    kind = "native"
    default_size = (1000, 640)
    min_size = (760, 440)
    opens = SUFFIXES
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        label = ctx.theme.label(self.id, self.label) if ctx.theme is not None else self.label
        state: dict[str, Any] = {
            "label": label,
            "path": None,
            "new": False,
            "pending": [],
            "tab": "structure",
            "table": None,
            "offset": 0,
            "picker": False,
            "object": None,
            "cell": None,
            "sql": tp.field(""),
            "undo": [],
            "redo": [],
            "group": None,
            "result": None,
            "focus": "tabs",
            "open": None,
            "dialog": None,
            "status": "",
            "error": False,
            "drag": None,
        }
        if argument:
            path = _resolve(argument, ctx.home, ctx.cwd)
            if ctx.files().is_dir(path, ctx.home):
                raise AppError(f"{path} is a folder, not a database")
            self._load(ctx, state, path)
        else:
            _status(state, "Open a database: Open Database (Ctrl+O) and type its path.")
        return state

    def _load(self, ctx: AppContext, state: dict, path: str) -> bool:
        """Open ``path`` in this window; on failure keep everything and show why."""
        name = posixpath.basename(path)
        files = ctx.files()
        new = False
        try:
            data = files.read(path, ctx.home)
        except FsError as exc:
            if exc.code != "ENOENT":
                _status(state, f"Could not open “{name}”: {exc.strerror_text}.", True)
                return False
            data, new = b"", True
        try:
            sq.check(data)
            tables = [o[1] for o in sq.structure(data, []) if o[0] in ("table", "view")]
        except sq.DbError as exc:
            _status(state, f"Could not open “{name}”: {exc}.", True)
            return False
        state.update(
            {
                "path": path,
                "new": new,
                "pending": [],
                "table": tables[0] if tables else None,
                "offset": 0,
                "picker": False,
                "object": None,
                "cell": None,
                "result": None,
            }
        )
        if new:
            _status(state, f"“{name}” is a new database: Write Changes creates it.")
        else:
            _status(state, "")
            add_recent(ctx.machine, path, self.id)
        return True

    def title(self, state: dict) -> str:
        if not state["path"]:
            return state["label"]
        return f"{DIRTY_MARK if state['pending'] else ''}{_name(state)} — {state['label']}"

    def document(self, state: dict) -> str:
        return state["path"] or ""

    # -- what paint needs from the file ------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        if not state["path"]:
            return None
        try:
            data = _bytes(ctx, state)
        except FsError as exc:
            return ("error", f"Could not read “{_name(state)}”: {exc.strerror_text}.")
        pending = state["pending"]
        try:
            objects = sq.structure(data, pending)
        except sq.DbError as exc:
            return ("error", f"“{_name(state)}”: {exc}.")
        tables = [o[1] for o in objects if o[0] in ("table", "view")]
        table = state["table"] if state["table"] in tables else (tables[0] if tables else None)
        view = None
        if state["tab"] == "browse" and table is not None:
            view = (
                table,
                state["offset"],
                *sq.browse(data, pending, table, state["offset"], PAGE_ROWS),
            )
        return ("ok", objects, view)

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        g = _Geom(p.width, p.height, state)
        p.box(Rect(0, 0, p.width, TOOLBAR_H), pal.get("header", pal["button"]), key="toolbar")
        loaded = state["path"] is not None
        for name, label, rect in _toolbar(p.width):
            disabled = (name == "db:revert" and not state["pending"]) or (
                name == "db:write" and not (state["pending"] or state["new"])
            )
            p.button(
                name,
                label,
                rect,
                disabled=disabled,
                suggested=name == "db:write" and bool(state["pending"]),
            )
        if g.bar is not None:
            p.box(g.bar, pal["window"], key="bar-bg")
            controls = _bar_controls(p.width, g.bar)
            tp.paint_field(
                p,
                "db:open-path",
                state["open"],
                controls["db:open-path"],
                label="Database to open",
                focused=state["focus"] == "open" and state["dialog"] is None,
                placeholder="Type a path, like ~/Documents/shop.db",
            )
            p.button("db:open-confirm", "Open", controls["db:open-confirm"], suggested=True)
            p.button("db:open-cancel", "Cancel", controls["db:open-cancel"])
        # tabs
        p.box(g.tabs, pal["window"], key="tabs-bg")
        p.box(Rect(0, g.tabs.bottom - 1, p.width, 1), pal["border"], key="tabs-line")
        for name, label, rect in _tab_rects(g.tabs):
            on = state["tab"] == name
            p.paint(
                RoundedBox(
                    pal["field"] if on else pal["button"],
                    6,
                    pal["accent"] if on else pal["border"],
                    2 if on else 1,
                ),
                rect,
                key=("tab", name),
                target=f"db:tab:{name}",
                semantic=Semantic("tab", label, None, False, True),
                state=NodeState(selected=on),
            )
            h = line_height("sans", 14)
            p.paint(
                UiText(label, 14, pal["text"]),
                Rect(rect.x + 14, rect.y + (rect.height - h) // 2, measure(label, "sans", 14), h),
                key=("tab-label", name),
                target=f"db:tab:{name}",
            )
        problem = key[1] if isinstance(key, tuple) and key[0] == "error" else None
        if not loaded or problem is not None:
            text = problem or "No database is open."
            p.text(
                text,
                16,
                g.body.y + 20,
                size=14,
                color=ERROR if problem else pal["muted"],
                width=p.width - 32,
                key="empty",
            )
        elif state["tab"] == "structure":
            self._paint_structure(p, state, g, key[1])
        elif state["tab"] == "browse":
            self._paint_browse(p, state, g, key[1], key[2])
        if state["tab"] == "sql":
            self._paint_sql(p, state, g)
        # status bar
        st = g.status
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        ty = st.y + (st.height - line_height("sans", 13)) // 2
        n = len(state["pending"])
        right = f"{n} unwritten change{'s' if n != 1 else ''}" if n else ("UTF-8" if loaded else "")
        rw = measure(right, "sans", 13)
        if right:
            p.text(right, st.right - rw - 12, ty, size=13, color=pal["muted"], key="status-right")
        if state["status"]:
            width = max(0, st.width - rw - 40)
            p.paint(
                UiText(state["status"], 13, ERROR if state["error"] else pal["muted"]),
                Rect(
                    10,
                    ty,
                    min(width, measure(state["status"], "sans", 13)),
                    line_height("sans", 13),
                ),
                key="status",
                semantic=Semantic("alert" if state["error"] else "status", state["status"]),
                clip=Rect(10, st.y, width, st.height),
            )
        if state["focus"] == "tabs" and state["dialog"] is None and state["open"] is None:
            label = dict(TABS)[state["tab"]]
            p.focus(f"db:tab:{state['tab']}", role="tab", label=label)
        if (
            state["picker"]
            and state["dialog"] is None
            and isinstance(key, tuple)
            and key[0] == "ok"
        ):
            self._paint_picker(p, state, g, key[1], key[2])
        if state["dialog"] is not None:
            self._paint_close(p, state)

    def _paint_structure(self, p: Painter, state: dict, g: _Geom, objects: tuple) -> None:
        pal = p.palette
        rect = Rect(8, g.body.y + 8, p.width - 16, max(0, g.body.height - 16))
        p.box(rect, pal["field"], radius=6, stroke=pal["border"], key="tree-bg")
        head = Rect(rect.x + 1, rect.y + 1, rect.width - 2, HEAD_H)
        p.box(head, pal.get("header", pal["button"]), key="tree-head")
        cols = ((0, "Name"), (280, "Type"), (420, "Schema"))
        th = line_height("sans-bold", 13)
        for x, label in cols:
            p.paint(
                UiTextBold(label, 13, pal["text"]),
                Rect(
                    head.x + 10 + x,
                    head.y + (HEAD_H - th) // 2,
                    measure(label, "sans-bold", 13),
                    th,
                ),
                key=("tree-col", label),
                semantic=Semantic("columnheader", label),
            )
        lines: list[tuple] = []
        for kind, name, sql, columns in objects:
            lines.append(("object", kind, name, " ".join(sql.split())))
            for col, decl, notnull, pk in columns:
                extra = " ".join(
                    x for x in ("PRIMARY KEY" if pk else "", "NOT NULL" if notnull else "") if x
                )
                lines.append(("column", name, col, f"{decl} {extra}".strip()))
        view = Rect(rect.x + 1, head.bottom, rect.width - 2, max(0, rect.bottom - head.bottom - 1))
        top = p.scroll("structure", view, len(lines) * ROW_H)
        tl = line_height("sans", 13)
        first = top // ROW_H
        with p.clipped(view):
            for i in range(first, min(len(lines), first + view.height // ROW_H + 2)):
                y = view.y + i * ROW_H - top
                line = lines[i]
                if line[0] == "object":
                    _o, kind, name, sql = line
                    on = state["object"] == name
                    target = f"db:object:{name}"
                    p.paint(
                        Box(pal["selection"] if on else pal["field"]),
                        Rect(view.x, y, view.width, ROW_H),
                        key=("obj", name),
                        target=target,
                        semantic=Semantic("treeitem", name, kind, False, True),
                        state=NodeState(selected=on, expanded=kind in ("table", "view")),
                    )
                    cells = (
                        (0, name, pal["text"], True),
                        (280, kind, pal["muted"], False),
                        (420, sql, pal["muted"], False),
                    )
                else:
                    _c, owner, col, decl = line
                    target = f"db:object:{owner}"
                    cells = (
                        (24, col, pal["text"], False),
                        (280, "column", pal["muted"], False),
                        (420, decl, pal["muted"], False),
                    )
                for x, text, ink, bold in cells:
                    width = (view.width - 430) if x == 420 else 250
                    prim = UiTextBold(text, 13, ink) if bold else UiText(text, 13, ink)
                    font = "sans-bold" if bold else "sans"
                    p.paint(
                        prim,
                        Rect(
                            view.x + 10 + x,
                            y + (ROW_H - tl) // 2,
                            min(width, measure(text, font, 13)),
                            tl,
                        ),
                        key=("tree-text", i, x),
                        target=target,
                        clip=Rect(view.x + 10 + x, y, max(0, width), ROW_H),
                    )
        if not objects:
            p.text(
                "This database has no tables yet: create one in Execute SQL.",
                rect.x + 12,
                head.bottom + 10,
                size=13,
                color=pal["muted"],
                key="tree-empty",
            )

    def _paint_browse(
        self, p: Painter, state: dict, g: _Geom, objects: tuple, view: tuple | None
    ) -> None:
        pal = p.palette
        table = view[0] if view is not None else None
        controls = _browse_controls(g, state, table)
        tl = line_height("sans", 14)
        p.text("Table:", g.ctrl.x, g.ctrl.y + (30 - tl) // 2, size=14, key="table-label")
        pr = controls["picker"]
        p.paint(
            RoundedBox(pal["field"], 6, pal["accent"] if state["picker"] else pal["border"], 1),
            pr,
            key="picker",
            target="db:picker",
            semantic=Semantic("combobox", "Table", table or "", False, True),
            state=NodeState(expanded=state["picker"]),
        )
        shown = (table or "(no tables)") + "  ▾"
        p.paint(
            UiText(shown, 14, pal["text"]),
            Rect(
                pr.x + 10,
                pr.y + (pr.height - tl) // 2,
                min(pr.width - 16, measure(shown, "sans", 14)),
                tl,
            ),
            key="picker-text",
            target="db:picker",
            clip=Rect(pr.x + 4, pr.y, pr.width - 8, pr.height),
        )
        if view is None:
            return
        _t, offset, columns, rows, total = view
        if isinstance(total, str):
            p.text(total, g.ctrl.x, g.ctrl.bottom + 12, size=13, color=ERROR, key="browse-error")
            return
        for name, label in PAGING:
            disabled = (name in ("db:first", "db:prev") and offset == 0) or (
                name in ("db:next", "db:last") and offset + PAGE_ROWS >= total
            )
            p.button(name, label, controls[name], disabled=disabled)
        shown = f"{offset + 1} - {offset + len(rows)} of {total}" if rows else f"0 of {total}"
        rr = controls["range"]
        p.text(shown, rr.x, rr.y + (30 - tl) // 2, size=14, color=pal["muted"], key="range")
        cell = state["cell"]
        selected = (cell[1], cell[2]) if cell and cell[0] == "browse" else None
        rect = Rect(8, g.ctrl.bottom + 8, p.width - 16, max(0, g.status.y - g.ctrl.bottom - 12))
        _paint_grid(p, "db:cell", columns, rows, offset + 1, rect, "grid", selected)

    def _paint_picker(
        self, p: Painter, state: dict, g: _Geom, objects: tuple, view: tuple | None
    ) -> None:
        if state["tab"] != "browse":
            return
        pal = p.palette
        tables = [o[1] for o in objects if o[0] in ("table", "view")]
        pr = _browse_controls(g, state, view[0] if view else None)["picker"]
        p.paint(
            Box((0, 0, 0, 0)),
            Rect(0, 0, p.width, p.height),
            key="picker-dismiss",
            target="db:picker",
        )
        h = len(tables) * 28 + 8
        menu = Rect(pr.x, pr.bottom + 2, max(pr.width, 200), h)
        p.paint(
            RoundedBox(pal["field"], 6, pal["border"], 1),
            menu,
            key="picker-menu",
            semantic=Semantic("listbox", "Tables"),
        )
        tl = line_height("sans", 14)
        for i, name in enumerate(tables):
            row = Rect(menu.x + 4, menu.y + 4 + i * 28, menu.width - 8, 28)
            on = view is not None and view[0] == name
            p.paint(
                RoundedBox(pal["selection"] if on else pal["field"], 4),
                row,
                key=("pick", name),
                target=f"db:pick:{name}",
                semantic=Semantic("option", name, None, False, True),
                state=NodeState(selected=on),
            )
            p.paint(
                UiText(name, 14, pal["text"]),
                Rect(row.x + 8, row.y + (28 - tl) // 2, measure(name, "sans", 14), tl),
                key=("pick-text", name),
                target=f"db:pick:{name}",
            )

    def _paint_sql(self, p: Painter, state: dict, g: _Geom) -> None:
        pal = p.palette
        cw, ch = tp.grid()
        for name, rect in _run_controls(g).items():
            label = "Execute all (Ctrl+Return)" if name == "db:run" else "Clear"
            p.button(
                name,
                label,
                rect,
                suggested=name == "db:run",
                disabled=state["path"] is None and name == "db:run",
            )
        f = state["sql"]
        text = f["text"]
        lines = text.split("\n")
        wrap = tp.Wrap(lines, g.cols)
        top = max(0, min((p.scroll_offset("sql") or 0) // ch, max(0, wrap.total - g.rows)))
        focused = state["focus"] == "sql" and state["dialog"] is None and state["open"] is None
        area = Rect(0, g.editor.y - 4, p.width, g.rows * ch + 8)
        p.paint(
            RoundedBox(
                pal["field"], 4, pal["accent"] if focused else pal["border"], 2 if focused else 1
            ),
            Rect(4, area.y, p.width - 8, area.height),
            key="sql-bg",
            target="db:sql",
            semantic=Semantic("textbox", "SQL", text, False, True),
            state=NodeState(focused=focused),
        )
        s, e = _sql_span(f)
        if s != e:
            a, b = _line_col(text, s), _line_col(text, e)
            for i, c0, n in tp.selection_boxes(wrap, top, g.rows, a, b):
                p.paint(
                    Box(pal["selection"]),
                    Rect(g.editor.x + c0 * cw, g.editor.y + i * ch, n * cw, ch),
                    key=("sql-sel", i),
                    target="db:sql",
                )
        if text:
            tp.paint_rows(
                p,
                wrap,
                top,
                g.rows,
                g.editor.x,
                g.editor.y,
                color=pal["text"],
                target="db:sql",
                pane=None,
                key="sql-row",
            )
        else:
            p.text(
                "Type SQL here, then press Ctrl+Return or F5",
                g.editor.x,
                g.editor.y,
                size=14,
                color=pal["muted"],
                key="sql-hint",
            )
        line, col = _line_col(text, f["caret"])
        row, cell = wrap.row_of(line, col)
        caret = Rect(g.editor.x + cell * cw, g.editor.y + (row - top) * ch, 2, ch)
        if focused and top <= row < top + g.rows:
            p.paint(Box(pal["text"]), caret, key="sql-caret", target="db:sql")
        track = Rect(p.width - tp.BAR - 8, g.editor.y, tp.BAR, g.rows * ch)
        tp.paint_bar(p, "sql", track, g.rows, wrap.total, top)
        p.scroll("sql", g.editor, wrap.total * ch, top * ch)
        if focused:
            p.focus(
                "db:sql",
                role="textbox",
                label="SQL",
                value=text,
                caret=caret,
                line=line,
                column=col,
                offset=f["caret"],
                text_entry=True,
            )
        # the message and the results
        result = state["result"]
        p.box(g.msg, pal["window"], radius=4, stroke=pal["border"], key="msg-bg")
        if result is not None:
            ink = ERROR if result["error"] else pal["text"]
            for i, text_line in enumerate(result["message"].split("\n")[:3]):
                p.paint(
                    UiText(text_line, 13, ink),
                    Rect(
                        g.msg.x + 8,
                        g.msg.y + 4 + i * 17,
                        min(g.msg.width - 16, measure(text_line, "sans", 13)),
                        line_height("sans", 13),
                    ),
                    key=("msg", i),
                    semantic=Semantic("alert" if result["error"] else "status", text_line)
                    if i == 1
                    else None,
                    clip=Rect(g.msg.x + 4, g.msg.y, g.msg.width - 8, g.msg.height),
                )
            if result["columns"]:
                cell = state["cell"]
                selected = (cell[1], cell[2]) if cell and cell[0] == "result" else None
                columns = tuple(result["columns"])
                rows = tuple(tuple(r) for r in result["rows"])
                _paint_grid(p, "db:result", columns, rows, 1, g.results, "results", selected)

    def _paint_close(self, p: Painter, state: dict) -> None:
        pal = p.palette
        p.paint(Box((0, 0, 0, 70)), Rect(0, 0, p.width, p.height), key="scrim")
        box, controls = _close_rects(p.width, p.height)
        title = "Write Changes?"
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
        message = f"Do you want to save the changes made to the database file “{_name(state)}”?"
        p.text(message, box.x + 16, box.y + 50, size=13, width=box.width - 32, key="dialog-text")
        p.button("db:close-cancel", "Cancel", controls["db:close-cancel"])
        p.button("db:close-discard", "Discard", controls["db:close-discard"])
        p.button("db:close-save", "Save", controls["db:close-save"], suggested=True, focused=True)
        p.focus("db:close-save", role="button", label="Save")

    # -- commands ----------------------------------------------------------------------
    def _tables(self, ctx: AppContext, state: dict) -> list[str]:
        if not state["path"]:
            return []
        try:
            objects = sq.structure(_bytes(ctx, state), state["pending"])
        except (FsError, sq.DbError):
            return []
        return [o[1] for o in objects if o[0] in ("table", "view")]

    def _total(self, ctx: AppContext, state: dict) -> int:
        table = self._current_table(ctx, state)
        if table is None:
            return 0
        try:
            _c, _r, total = sq.browse(
                _bytes(ctx, state), state["pending"], table, state["offset"], PAGE_ROWS
            )
        except (FsError, sq.DbError):
            return 0
        return total if isinstance(total, int) else 0

    def _current_table(self, ctx: AppContext, state: dict) -> str | None:
        tables = self._tables(ctx, state)
        return state["table"] if state["table"] in tables else (tables[0] if tables else None)

    def _set_tab(self, ctx: AppContext, state: dict, tab: str) -> None:
        state["tab"] = tab
        state["picker"] = False
        state["focus"] = "sql" if tab == "sql" else "tabs"
        if state["cell"] and (state["cell"][0] == "result") != (tab == "sql"):
            state["cell"] = None

    def _page(self, ctx: AppContext, state: dict, command: str) -> None:
        total = self._total(ctx, state)
        last = max(0, (total - 1) // PAGE_ROWS * PAGE_ROWS)
        offset = {
            "db:first": 0,
            "db:prev": max(0, state["offset"] - PAGE_ROWS),
            "db:next": min(last, state["offset"] + PAGE_ROWS),
            "db:last": last,
        }[command]
        if offset != state["offset"]:
            state["offset"] = offset
            state["cell"] = None
            ctx.set_scroll_offset("grid", None)

    def _run(self, ctx: AppContext, state: dict) -> None:
        if not state["path"]:
            _status(state, "Open a database first.", True)
            return
        f = state["sql"]
        s, e = _sql_span(f)
        source = f["text"][s:e] if s != e else f["text"]
        statements = sq.split_statements(source)
        if not statements:
            state["result"] = {
                "columns": [],
                "rows": [],
                "more": False,
                "error": True,
                "message": "Execution finished with errors.\nResult: there is no SQL to execute",
            }
            return
        if len(statements) > MAX_STATEMENTS:
            state["result"] = {
                "columns": [],
                "rows": [],
                "more": False,
                "error": True,
                "message": f"Execution finished with errors.\nResult: at most {MAX_STATEMENTS} statements run at once",
            }
            return
        if len(state["pending"]) + len(statements) > MAX_PENDING or (
            sum(map(len, state["pending"])) + sum(map(len, statements)) > MAX_PENDING_CHARS
        ):
            state["result"] = {
                "columns": [],
                "rows": [],
                "more": False,
                "error": True,
                "message": "Execution finished with errors.\nResult: too many unwritten changes: write them first (Ctrl+S)",
            }
            return
        try:
            data = _bytes(ctx, state)
            out = sq.execute(data, state["pending"], statements)
        except FsError as exc:
            _status(state, f"Could not read “{_name(state)}”: {exc.strerror_text}.", True)
            return
        except sq.DbError as exc:
            _status(state, f"“{_name(state)}”: {exc}.", True)
            return
        state["pending"] = out["pending"]
        state["cell"] = None
        ctx.set_scroll_offset("results", None)
        res = out["result"]
        if out["error"] is not None:
            at = statements[out["ran"]]
            short = " ".join(at.split())
            short = short if len(short) <= 120 else short[:119] + "…"
            state["result"] = {
                "columns": [],
                "rows": [],
                "more": False,
                "error": True,
                "message": f"Execution finished with errors.\nResult: {out['error']}\nAt statement {out['ran'] + 1}: {short}",
            }
            return
        if res is not None and res["columns"]:
            n = len(res["rows"])
            more = f" (the first {n} are shown)" if res["more"] else ""
            what = f"{n}{'+' if res['more'] else ''} row{'s' if n != 1 else ''} returned{more}"
        else:
            changes = out["changes"]
            what = (
                f"query executed successfully. {changes} row{'s' if changes != 1 else ''} affected"
            )
        ran = len(statements)
        state["result"] = {
            "columns": res["columns"] if res else [],
            "rows": res["rows"] if res else [],
            "more": bool(res and res["more"]),
            "error": False,
            "message": f"Execution finished without errors.\nResult: {what}\n{ran} statement{'s' if ran != 1 else ''} executed.",
        }

    def _write(self, ctx: AppContext, state: dict) -> bool:
        if not state["path"]:
            return True
        if not state["pending"] and not state["new"]:
            _status(state, "There are no changes to write.")
            return True
        try:
            data = sq.serialize(_bytes(ctx, state), state["pending"])
            ctx.files().write(state["path"], ctx.home, data)
        except FsError as exc:
            _status(state, f"Could not write “{_name(state)}”: {exc.strerror_text}.", True)
            return False
        except sq.DbError as exc:
            _status(state, f"Could not write “{_name(state)}”: {exc}.", True)
            return False
        state["pending"] = []
        state["new"] = False
        _status(state, f"Wrote the changes to “{_name(state)}”.")
        add_recent(ctx.machine, state["path"], self.id)
        return True

    def _revert(self, ctx: AppContext, state: dict) -> None:
        if not state["pending"]:
            _status(state, "There are no changes to revert.")
            return
        n = len(state["pending"])
        state["pending"] = []
        state["cell"] = None
        _status(state, f"Reverted {n} unwritten change{'s' if n != 1 else ''}.")

    def _show_open(self, state: dict) -> None:
        state["open"] = tp.field("")
        state["focus"] = "open"
        state["picker"] = False

    def _do_open(self, ctx: AppContext, state: dict) -> None:
        raw = state["open"]["text"].strip()
        if not raw:
            _status(state, "Type the path of a database to open.", True)
            return
        base = posixpath.dirname(state["path"]) if state["path"] else ctx.home
        path = _resolve(raw, ctx.home, base)
        if ctx.files().is_dir(path, ctx.home):
            _status(state, f"Could not open “{raw}”: it is a folder.", True)
            return
        if state["path"] is not None and (state["pending"] or path != state["path"]):
            # keep this database: the other opens in a window of its own (after a check)
            try:
                data = ctx.files().read(path, ctx.home)
                sq.check(data)
            except FsError as exc:
                if exc.code != "ENOENT":
                    _status(state, f"Could not open “{raw}”: {exc.strerror_text}.", True)
                    return
            except sq.DbError as exc:
                _status(state, f"Could not open “{posixpath.basename(path)}”: {exc}.", True)
                return
            try:
                ctx.launch(self.id, path)
            except AppError as exc:
                _status(state, f"Could not open “{raw}”: {exc}", True)
                return
            state["open"], state["focus"] = None, "tabs"
            return
        if self._load(ctx, state, path):
            state["open"], state["focus"] = None, "tabs"
            for pane in ("grid", "results", "structure"):
                ctx.set_scroll_offset(pane, None)

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        if not state["pending"]:
            return True
        if state["dialog"] is None:
            state["dialog"] = {"kind": "close"}
            state["picker"] = False
        return False

    def _close_control(self, ctx: AppContext, state: dict, target: str) -> None:
        if target == "db:close-cancel":
            state["dialog"] = None
        elif target == "db:close-discard":
            state["dialog"] = None
            ctx.close()
        else:
            state["dialog"] = None
            if self._write(ctx, state):
                ctx.close()

    # -- the SQL editor ----------------------------------------------------------------
    def _edit(self, state: dict, start: int, end: int, new: str, kind: str) -> None:
        f = state["sql"]
        text = f["text"]
        if len(new) > end - start and len(text) - (end - start) + len(new) > MAX_SQL:
            raise InvalidInput(f"the SQL editor holds at most {MAX_SQL} characters")
        old = text[start:end]
        if not old and not new:
            return
        before = [f["caret"], f["anchor"]]
        f["text"] = text[:start] + new + text[end:]
        f["caret"], f["anchor"] = start + len(new), None
        undo = state["undo"]
        last = undo[-1] if undo and state["group"] == kind else None
        if (
            last is not None
            and kind == "type"
            and not old
            and start == last["at"] + len(last["new"])
        ):
            last["new"] += new
        elif last is not None and kind == "backspace" and not new and end == last["at"]:
            last["at"], last["old"] = start, old + last["old"]
        else:
            undo.append({"at": start, "old": old, "new": new, "before": before})
            del undo[:-MAX_UNDO]
        state["group"] = kind if kind in ("type", "backspace") else None
        state["redo"] = []

    def _undo(self, state: dict, redo: bool = False) -> None:
        src, dst = (state["redo"], state["undo"]) if redo else (state["undo"], state["redo"])
        if not src:
            return
        step = src.pop()
        f = state["sql"]
        at, old, new = step["at"], step["old"], step["new"]
        if redo:
            f["text"] = f["text"][:at] + new + f["text"][at + len(old) :]
            f["caret"], f["anchor"] = at + len(new), None
        else:
            f["text"] = f["text"][:at] + old + f["text"][at + len(new) :]
            f["caret"], f["anchor"] = step["before"]
        dst.append(step)
        state["group"] = None

    def _sql_insert(self, state: dict, text: str, kind: str) -> None:
        s, e = _sql_span(state["sql"])
        self._edit(state, s, e, text, kind if s == e else "replace")

    def _sql_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        f = state["sql"]
        text = f["text"]
        s, e = _sql_span(f)
        cmd = ctx.shortcut
        if name in ("Enter", "Shift+Enter"):
            self._sql_insert(state, "\n", "newline")
            return True
        if name == "Tab":
            self._sql_insert(state, "    ", "type")
            return True
        if name in ("Backspace", "Delete"):
            if s != e:
                self._edit(state, s, e, "", "cut")
            elif name == "Backspace" and s > 0:
                self._edit(state, s - 1, s, "", "backspace")
            elif name == "Delete" and s < len(text):
                self._edit(state, s, s + 1, "", "delete")
            return True
        if name == cmd("Primary+a"):
            f["anchor"], f["caret"] = (0 if text else None), len(text)
            return True
        if name in (cmd("Primary+c"), cmd("Primary+x")):
            if s != e:
                ctx.clipboard = text[s:e]
                if name == cmd("Primary+x"):
                    self._edit(state, s, e, "", "cut")
            return True
        if name == cmd("Primary+v"):
            clip = ctx.clipboard.replace("\r\n", "\n")
            if clip:
                self._sql_insert(state, clip, "paste")
            return True
        base = name.replace("Shift+", "")
        line, col = _line_col(text, f["caret"])
        moves = {
            "ArrowLeft": s if s != e and not chord.shift else max(0, f["caret"] - 1),
            "ArrowRight": e if s != e and not chord.shift else min(len(text), f["caret"] + 1),
            "ArrowUp": _offset(text, line - 1, col) if line > 0 else 0,
            "ArrowDown": _offset(text, line + 1, col) if line < text.count("\n") else len(text),
            "Home": f["caret"] - col,
            "End": f["caret"] - col + len(text.split("\n")[line]),
            "Ctrl+Home": 0,
            "Ctrl+End": len(text),
            "Ctrl+ArrowLeft": tp.word_left(text, f["caret"]),
            "Ctrl+ArrowRight": tp.word_right(text, f["caret"]),
        }
        if base in moves:
            if chord.shift:
                if f["anchor"] is None:
                    f["anchor"] = f["caret"]
            else:
                f["anchor"] = None
            f["caret"] = moves[base]
            if f["anchor"] == f["caret"]:
                f["anchor"] = None
            state["group"] = None
            return True
        if chord.char is not None:
            self._sql_insert(state, chord.char, "type")
            return True
        return False

    def _reveal(self, ctx: AppContext, state: dict) -> None:
        g = _Geom(ctx.width, ctx.height, state)
        _cw, ch = tp.grid()
        text = state["sql"]["text"]
        wrap = tp.Wrap(text.split("\n"), g.cols)
        row, _cell = wrap.row_of(*_line_col(text, state["sql"]["caret"]))
        top = (ctx.scroll_offset("sql") or 0) // ch
        if row < top:
            top = row
        elif row >= top + g.rows:
            top = row - g.rows + 1
        top = max(0, min(top, max(0, wrap.total - g.rows)))
        ctx.set_scroll_offset("sql", top * ch or None)

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        if state["dialog"] is not None:
            if name == "Escape":
                state["dialog"] = None
            elif name == "Enter":
                self._close_control(ctx, state, "db:close-save")
            return True
        if state["picker"] and name == "Escape":
            state["picker"] = False
            return True
        if name == cmd("Primary+s"):
            self._write(ctx, state)
            return True
        if name == cmd("Primary+o"):
            self._show_open(state)
            return True
        if name == cmd("Primary+w"):
            if self.can_close(ctx, state):
                ctx.close()
            return True
        for i, (tab, _label) in enumerate(TABS):
            if name == cmd(f"Primary+{i + 1}"):
                self._set_tab(ctx, state, tab)
                return True
        if state["focus"] == "open" and state["open"] is not None:
            if name == "Enter":
                self._do_open(ctx, state)
                return True
            if name == "Escape":
                state["open"], state["focus"] = None, "tabs"
                return True
            return tp.field_key(ctx, state["open"], chord)
        if state["tab"] == "sql":
            if name in ("F5", cmd("Primary+Enter"), "Ctrl+Enter"):
                self._run(ctx, state)
                return True
            if name == cmd("Primary+z"):
                self._undo(state)
                self._reveal(ctx, state)
                return True
            if name in (cmd("Primary+y"), cmd("Primary+Shift+z")):
                self._undo(state, redo=True)
                self._reveal(ctx, state)
                return True
            if state["focus"] == "sql":
                taken = self._sql_key(ctx, state, name, chord)
                if taken:
                    self._reveal(ctx, state)
                return taken
            if state["focus"] == "grid":
                return self._grid_key(ctx, state, name)
            return False
        if state["tab"] == "browse":
            if name == "PageDown":
                self._page(ctx, state, "db:next")
                return True
            if name == "PageUp":
                self._page(ctx, state, "db:prev")
                return True
            return self._grid_key(ctx, state, name)
        if state["tab"] == "structure":
            return self._structure_key(ctx, state, name)
        return False

    def _grid_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        cell = state["cell"]
        if cell is None:
            return False
        if name == ctx.shortcut("Primary+c"):
            value = self._cell_value(ctx, state)
            if value is not None:
                ctx.clipboard = value
            return True
        dr, dc = {
            "ArrowUp": (-1, 0),
            "ArrowDown": (1, 0),
            "ArrowLeft": (0, -1),
            "ArrowRight": (0, 1),
        }.get(name, (0, 0))
        if not dr and not dc:
            return False
        columns, rows, first = self._grid_data(ctx, state)
        r = max(first, min(first + len(rows) - 1, cell[1] + dr))
        c = max(0, min(len(columns) - 1, cell[2] + dc))
        state["cell"] = [cell[0], r, c]
        return True

    def _grid_data(self, ctx: AppContext, state: dict) -> tuple[list, list, int]:
        cell = state["cell"]
        if cell[0] == "result":
            res = state["result"] or {"columns": [], "rows": []}
            return res["columns"], res["rows"], 1
        table = self._current_table(ctx, state)
        if table is None:
            return [], [], 1
        try:
            columns, rows, _total = sq.browse(
                _bytes(ctx, state), state["pending"], table, state["offset"], PAGE_ROWS
            )
        except (FsError, sq.DbError):
            return [], [], 1
        return list(columns), list(rows), state["offset"] + 1

    def _cell_value(self, ctx: AppContext, state: dict) -> str | None:
        _columns, rows, first = self._grid_data(ctx, state)
        _k, r, c = state["cell"]
        i = r - first
        if 0 <= i < len(rows) and 0 <= c < len(rows[i]):
            return rows[i][c]
        return None

    def _structure_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        if not state["path"]:
            return False
        try:
            objects = sq.structure(_bytes(ctx, state), state["pending"])
        except (FsError, sq.DbError):
            return False
        names = [o[1] for o in objects]
        if not names:
            return False
        if name in ("ArrowDown", "ArrowUp"):
            i = names.index(state["object"]) if state["object"] in names else -1
            i = max(0, min(len(names) - 1, i + (1 if name == "ArrowDown" else -1)))
            state["object"] = names[i]
            return True
        if name == "Enter" and state["object"] in names:
            self._browse_object(ctx, state, state["object"], objects)
            return True
        return False

    def _browse_object(self, ctx: AppContext, state: dict, name: str, objects: tuple) -> None:
        kinds = {o[1]: o[0] for o in objects}
        if kinds.get(name) in ("table", "view"):
            if state["table"] != name:
                state["table"], state["offset"], state["cell"] = name, 0, None
                ctx.set_scroll_offset("grid", None)
            self._set_tab(ctx, state, "browse")

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["dialog"] is not None:
            return False
        if state["focus"] == "open" and state["open"] is not None:
            tp.field_type(state["open"], text)
            return True
        if state["tab"] == "sql" and state["focus"] == "sql":
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            text = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
            if text:
                self._sql_insert(state, text, "type" if len(text) == 1 else "paste")
                self._reveal(ctx, state)
            return True
        return False

    # -- pointer -----------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if state["dialog"] is not None:
            if target not in CLOSE_TARGETS:
                raise UnknownTarget(target)
            self._close_control(ctx, state, target)
            return None
        if target in ("db:open", "db:write", "db:revert"):
            state["picker"] = False
            if target == "db:open":
                if state["open"] is not None:
                    state["open"], state["focus"] = None, "tabs"
                else:
                    self._show_open(state)
            elif target == "db:write":
                self._write(ctx, state)
            else:
                self._revert(ctx, state)
            return None
        if target in OPEN_TARGETS:
            if state["open"] is None:
                raise UnknownTarget(target)
            if target == "db:open-path":
                state["focus"] = "open"
                if point is not None:
                    rect = _bar_controls(ctx.width, _Geom(ctx.width, ctx.height, state).bar)[
                        "db:open-path"
                    ]
                    state["open"]["caret"] = tp.field_index(state["open"], rect, point[0])
                    state["open"]["anchor"] = None
            elif target == "db:open-cancel":
                state["open"], state["focus"] = None, "tabs"
            else:
                self._do_open(ctx, state)
            return None
        if target.startswith("db:tab:"):
            tab = target[7:]
            if tab not in dict(TABS):
                raise UnknownTarget(target)
            self._set_tab(ctx, state, tab)
            return None
        if target == "db:picker":
            if state["tab"] != "browse" or not state["path"]:
                raise UnknownTarget(target)
            state["picker"] = not state["picker"]
            return None
        if target.startswith("db:pick:"):
            name = target[8:]
            if state["tab"] != "browse" or name not in self._tables(ctx, state):
                raise UnknownTarget(target)
            state["picker"] = False
            if name != self._current_table(ctx, state):
                ctx.set_scroll_offset("grid", None)
            state["table"], state["offset"], state["cell"] = name, 0, None
            return None
        state["picker"] = False
        if target in ("db:first", "db:prev", "db:next", "db:last"):
            if state["tab"] != "browse" or self._current_table(ctx, state) is None:
                raise UnknownTarget(target)
            self._page(ctx, state, target)
            return None
        if target.startswith("db:object:"):
            name = target[10:]
            objects = self._objects(ctx, state)
            if state["tab"] != "structure" or name not in {o[1] for o in objects}:
                raise UnknownTarget(target)
            state["object"] = name
            state["focus"] = "tabs"
            return None
        if target.startswith(("db:cell:", "db:result:")):
            kind = "browse" if target.startswith("db:cell:") else "result"
            if (kind == "browse") != (state["tab"] == "browse") or (
                kind == "result" and state["tab"] != "sql"
            ):
                raise UnknownTarget(target)
            parts = target.split(":")
            if len(parts) != 4 or not parts[2].isdigit() or not parts[3].isdigit():
                raise UnknownTarget(target)
            state["cell"] = [kind, int(parts[2]), int(parts[3])]
            if self._cell_value(ctx, state) is None:
                state["cell"] = None
                raise UnknownTarget(target)
            state["focus"] = "grid" if kind == "result" else "tabs"
            return None
        if state["tab"] == "sql":
            if target == "db:sql":
                state["focus"] = "sql"
                if point is not None:
                    self._place(ctx, state, point, extend="Shift" in modifiers)
                return None
            if target == "db:run":
                self._run(ctx, state)
                return None
            if target == "db:clear":
                f = state["sql"]
                if f["text"]:
                    self._edit(state, 0, len(f["text"]), "", "cut")
                state["result"], state["cell"] = None, None
                state["focus"] = "sql"
                return None
            if tp.parse_bar(target, "sql") is not None:
                g = _Geom(ctx.width, ctx.height, state)
                _cw, ch = tp.grid()
                ctx.set_scroll_offset(
                    "sql", (ctx.scroll_offset("sql") or 0) + max(1, g.rows - 1) * ch
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
        if (
            target.startswith("db:object:")
            and state["dialog"] is None
            and state["tab"] == "structure"
        ):
            self.activate(ctx, state, target, point, modifiers)
            self._browse_object(ctx, state, target[10:], self._objects(ctx, state))
            return None
        return self.activate(ctx, state, target, point, modifiers)

    def _objects(self, ctx: AppContext, state: dict) -> tuple:
        if not state["path"]:
            return ()
        try:
            return sq.structure(_bytes(ctx, state), state["pending"])
        except (FsError, sq.DbError):
            return ()

    def _place(
        self, ctx: AppContext, state: dict, point: tuple[int, int], extend: bool = False
    ) -> None:
        g = _Geom(ctx.width, ctx.height, state)
        cw, ch = tp.grid()
        f = state["sql"]
        text = f["text"]
        lines = text.split("\n")
        wrap = tp.Wrap(lines, g.cols)
        top = max(0, min((ctx.scroll_offset("sql") or 0) // ch, max(0, wrap.total - g.rows)))
        row = max(0, min(wrap.total - 1, top + (point[1] - g.editor.y) // ch))
        line, col = wrap.pos_at(row, point[0] - g.editor.x, cw)
        offset = sum(len(s) + 1 for s in lines[:line]) + col
        if extend:
            if f["anchor"] is None:
                f["anchor"] = f["caret"]
        else:
            f["anchor"] = None
        f["caret"] = offset
        if f["anchor"] == offset:
            f["anchor"] = None
        state["group"] = None

    def is_drag_surface(self, target: str, button: int) -> bool:
        return button == 0 and (target == "db:sql" or tp.parse_bar(target, "sql") is not None)

    def cursor(self, target: str) -> str | None:
        return "text" if target == "db:sql" else None

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
        if state["dialog"] is not None or state["tab"] != "sql":
            return
        if target != "db:sql":
            g = _Geom(ctx.width, ctx.height, state)
            _cw, ch = tp.grid()
            wrap = tp.Wrap(state["sql"]["text"].split("\n"), g.cols)
            px = tp.bar_drag(
                state, target, "sql", phase, point[1], g.editor.y, ctx.scroll_offset("sql") or 0
            )
            if px is not None:
                top = max(0, min((px + ch // 2) // ch, max(0, wrap.total - g.rows)))
                ctx.set_scroll_offset("sql", top * ch or None)
            return
        if phase == "down":
            state["focus"] = "sql"
            state["picker"] = False
            self._place(ctx, state, point, extend="Shift" in modifiers)
            if clicks >= 2:
                f = state["sql"]
                s, e = tp.word_at(f["text"], f["caret"])
                f["anchor"], f["caret"] = (s, e) if s != e else (None, f["caret"])
            state["drag"] = {"kind": "sql"}
        elif phase in ("move", "up") and isinstance(state["drag"], dict):
            self._place(ctx, state, point, extend=True)
            if phase == "up":
                state["drag"] = None
        elif phase == "cancel":
            state["drag"] = None


register(Database())
