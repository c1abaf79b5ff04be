"""How ``code`` (Visual Studio Code) lays out and paints its window (a helper module, not an
application): the activity bar, the explorer side bar, the tab strip, the text area with
its line-number gutter, the find widget, the terminal panel, the status bar, the Command
Palette and the dialogs. :class:`Geom` is shared with the event handlers in ``code.py``,
so what is clicked is where it was painted.
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.apps import _code_commands as cmds
from cwgym.apps import _code_model as model
from cwgym.apps import _code_terminal as term
from cwgym.apps import _textpane as tp
from cwgym.apps._save_dialog import button_row
from cwgym.desktop.painter import Painter
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, Text, UiText, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["DARK", "PALETTE_ROWS", "Geom", "paint"]

# VS Code's Dark Modern colours.
EDITOR_BG = (31, 31, 31, 255)
SIDE_BG = (24, 24, 24, 255)
BORDER = (43, 43, 43, 255)
TEXT = (204, 204, 204, 255)
MUTED = (157, 157, 157, 255)
LINE_NO = (110, 118, 129, 255)
CURRENT_LINE = (40, 40, 40, 255)
SELECTION = (38, 79, 120, 255)
MATCH = (234, 92, 0, 85)
ACCENT = (0, 120, 212, 255)
STATUS_BG = (0, 122, 204, 255)
WHITE = (255, 255, 255, 255)
WIDGET_BG = (37, 37, 38, 255)
ROW_SELECTED = (4, 57, 94, 255)
ROW_FOCUSED_BORDER = (0, 120, 212, 255)
ERROR = (241, 76, 76, 255)
SCRIM = (0, 0, 0, 90)
#: The palette the window's widgets (fields, buttons) are drawn with.
DARK = {
    "window": EDITOR_BG,
    "text": TEXT,
    "muted": MUTED,
    "accent": ACCENT,
    "accent_text": WHITE,
    "field": (49, 49, 49, 255),
    "border": (69, 69, 69, 255),
    "selection": SELECTION,
    "button": (49, 49, 49, 255),
    "header": SIDE_BG,
    "header_inactive": SIDE_BG,
}

ACT_W = 48
SIDE_W = 248
TABS_H = 35
STATUS_H = 24
PANEL_HEAD = 30
SIDE_HEAD = 35
SECTION_H = 24
ROW_H = 22
FIND_ROW = 32
PAL_ROW = 24
#: Rows the Command Palette shows at once.
PALETTE_ROWS = 12
UI = 13


class Geom:
    """Where everything is for a content size and a window state."""

    __slots__ = (
        "activity",
        "body",
        "cols",
        "gutter",
        "pane",
        "panel",
        "rows",
        "side",
        "status",
        "tabs",
        "term",
        "track",
        "tree",
    )

    def __init__(self, width: int, height: int, state: dict) -> None:
        cw, ch = tp.grid()
        bottom = max(TABS_H + ch + 8, height - STATUS_H)
        self.status = Rect(0, bottom, max(1, width), STATUS_H)
        self.activity = Rect(0, 0, ACT_W, bottom)
        x0 = ACT_W
        self.side: Rect | None = None
        self.tree: Rect | None = None
        if state["sidebar"]:
            sw = min(SIDE_W, max(140, (width - ACT_W) // 3))
            self.side = Rect(ACT_W, 0, sw, bottom)
            top = SIDE_HEAD + SECTION_H
            self.tree = Rect(ACT_W, top, sw, max(1, bottom - top))
            x0 += sw
        main_w = max(cw * 4, width - x0)
        body_bottom = bottom
        self.panel: Rect | None = None
        self.term: Rect | None = None
        if state["panel"]:
            ph = max(120, min(340, (bottom - TABS_H) * 2 // 5))
            self.panel = Rect(x0, bottom - ph, main_w, ph)
            self.term = Rect(x0 + 4, bottom - ph + PANEL_HEAD, main_w - 8, ph - PANEL_HEAD)
            body_bottom = bottom - ph
        self.tabs = Rect(x0, 0, main_w, TABS_H)
        self.body = Rect(x0, TABS_H, main_w, max(ch + 4, body_bottom - TABS_H))
        tab = state["tabs"][state["active"]] if state["active"] >= 0 else None
        lines = tab["text"].count("\n") + 1 if tab is not None else 1
        digits = max(3, len(str(lines)))
        self.gutter = Rect(x0, self.body.y, (digits + 3) * cw, self.body.height)
        pane_w = max(cw, main_w - self.gutter.width - tp.BAR - 12)
        self.rows = max(1, (self.body.height - 4) // ch)
        self.cols = max(1, pane_w // cw)
        self.pane = Rect(self.gutter.right, self.body.y + 2, pane_w, self.rows * ch)
        self.track = Rect(x0 + main_w - tp.BAR - 2, self.body.y + 2, tp.BAR, self.rows * ch)

    # -- overlays ------------------------------------------------------------------------
    def find_box(self, show_replace: bool) -> Rect:
        fw = max(240, min(470, self.body.width - 30))
        fh = (FIND_ROW * 2 if show_replace else FIND_ROW) + 8
        return Rect(self.body.right - fw - 18, self.body.y, fw, fh)

    def find_controls(self, show_replace: bool) -> dict[str, Rect]:
        """The find widget's controls by target."""
        box = self.find_box(show_replace)
        y = box.y + 4
        right = box.right - 6
        out = {"command:closeFindWidget": Rect(right - 24, y + 3, 24, 24)}
        out["command:editor.action.nextMatchFindAction"] = Rect(right - 50, y + 3, 24, 24)
        out["command:editor.action.previousMatchFindAction"] = Rect(right - 76, y + 3, 24, 24)
        count = Rect(right - 156, y + 3, 78, 24)
        out["count"] = count
        out["command:toggleFindCaseSensitive"] = Rect(count.x - 32, y + 3, 28, 24)
        fx = box.x + 24
        out["command:editor.action.startFindReplaceAction"] = Rect(
            box.x + 3, y + 3, 18, box.height - 14
        )
        out["find-query"] = Rect(fx, y, max(40, count.x - 36 - fx), 30)
        if show_replace:
            y2 = y + FIND_ROW
            out["replace-query"] = Rect(fx, y2, out["find-query"].width, 30)
            rx = fx + out["find-query"].width + 4
            out["command:editor.action.replaceOne"] = Rect(rx, y2 + 3, 28, 24)
            out["command:editor.action.replaceAll"] = Rect(rx + 32, y2 + 3, 28, 24)
        return out


def palette_box(width: int, rows: int) -> tuple[Rect, Rect]:
    """The Command Palette's box and its input field."""
    pw = max(200, min(620, width - 40))
    x = (width - pw) // 2
    box = Rect(x, 6, pw, 44 + max(1, rows) * PAL_ROW + 6)
    return box, Rect(x + 8, 12, pw - 16, 30)


def palette_row(box: Rect, i: int) -> Rect:
    return Rect(box.x + 4, box.y + 44 + i * PAL_ROW, box.width - 8, PAL_ROW)


def dialog_rects(width: int, height: int, kind: str) -> tuple[Rect, dict[str, Rect]]:
    """The dialog box and its controls, centred in the content."""
    w = max(260, min(460, width - 40))
    h = 176 if kind == "save-as" else 150
    box = Rect((width - w) // 2, max(0, (height - h) // 3), w, h)
    controls: dict[str, Rect] = {}
    if kind == "save-as":
        controls["save-path"] = Rect(box.x + 16, box.y + 66, w - 32, 32)
        labels = (("dialog:cancel", "Cancel"), ("dialog:save-as", "Save"))
    else:
        labels = (
            ("dialog:save", "Save"),
            ("dialog:dont-save", "Don't Save"),
            ("dialog:cancel", "Cancel"),
        )
    controls.update(button_row(box, labels, padding=28, height=32, inset=46))
    return box, controls


def tab_rects(g: Geom, state: dict) -> list[tuple[Rect, Rect]]:
    """Each tab's rectangle and its close button's."""
    out = []
    x = g.tabs.x
    for tab in state["tabs"]:
        w = min(220, measure(tab["name"], "sans", UI) + 58)
        r = Rect(x, 0, w, TABS_H)
        out.append((r, Rect(r.right - 26, 8, 20, 20)))
        x += w
    return out


def activity_buttons(g: Geom) -> list[tuple[str, str, str, Rect]]:
    """``(target, label, glyph, rect)`` of the activity bar's buttons."""
    return [
        (
            "command:workbench.action.toggleSidebarVisibility",
            "Explorer",
            "❐",
            Rect(0, 4, ACT_W, 44),
        ),
        (
            "command:workbench.action.showCommands",
            "Show All Commands",
            "⚙",
            Rect(0, g.activity.bottom - 48, ACT_W, 44),
        ),
    ]


def section_buttons(g: Geom) -> list[tuple[str, str, Rect]]:
    """``(target, glyph, rect)`` of the explorer section's buttons (right to left)."""
    assert g.side is not None
    y = SIDE_HEAD + 2
    right = g.side.right - 6
    return [
        (
            "command:workbench.files.action.collapseExplorerFolders",
            "⊟",
            Rect(right - 22, y, 20, 20),
        ),
        ("command:explorer.newFolder", "⊞", Rect(right - 46, y, 20, 20)),
        ("command:explorer.newFile", "✚", Rect(right - 70, y, 20, 20)),
    ]


def status_items(g: Geom, state: dict) -> list[tuple[str | None, str, Rect]]:
    """``(target, text, rect)`` of the status bar's right-hand items, right to left."""
    tab = state["tabs"][state["active"]] if state["active"] >= 0 else None
    if tab is None:
        return []
    text = tab["text"]
    caret = tab["caret"]
    line = text.count("\n", 0, caret)
    col = caret - (text.rfind("\n", 0, caret) + 1)
    items = [
        (None, model.language(tab["path"] or tab["name"])),
        (None, tab["eol"]),
        (None, "UTF-8"),
        (None, "Spaces: 4"),
        ("command:workbench.action.gotoLine", f"Ln {line + 1}, Col {col + 1}"),
    ]
    out = []
    x = g.status.right - 8
    for target, label in items:
        w = measure(label, "sans", 12) + 16
        x -= w
        out.append((target, label, Rect(x, g.status.y, w, g.status.height)))
    return out


# -- painting ------------------------------------------------------------------------------


def _glyph_button(
    p: Painter,
    target: str,
    label: str,
    glyph: str,
    rect: Rect,
    *,
    reason: str | None = None,
    on: bool = False,
    size: int = 14,
) -> None:
    """An icon button of a command; disabled (with the reason as its value) when it
    cannot run now."""
    disabled = reason is not None
    p.paint(
        RoundedBox(
            (255, 255, 255, 28) if on else (0, 0, 0, 0), 4, ACCENT if on else None, 1 if on else 0
        ),
        rect,
        key=("gb", target),
        target=target,
        semantic=Semantic("button", label, reason, disabled, True),
        state=NodeState(checked=on) if on else None,
    )
    w = measure(glyph, "sans", size)
    h = line_height("sans", size)
    p.paint(
        UiText(glyph, size, (110, 110, 110, 255) if disabled else TEXT),
        Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
        key=("gb-glyph", target),
        target=target,
    )


def _reason(state: dict, target: str) -> str | None:
    return cmds.unmet(state, cmds.BY_ID[target[len("command:") :]])


def paint(p: Painter, state: dict, key: Any) -> None:
    p.palette = DARK
    primary, rows, quick = key
    g = Geom(p.width, p.height, state)
    p.box(Rect(0, 0, p.width, p.height), EDITOR_BG, key="bg")
    _paint_activity(p, state, g)
    if g.side is not None:
        _paint_side(p, state, g, rows)
    _paint_tabs(p, state, g)
    modal = state["dialog"] is not None or state["palette"] is not None
    if state["active"] >= 0:
        _paint_text(p, state, g, modal)
        if state["find"] is not None:
            _paint_find(p, state, g, modal)
    else:
        _paint_watermark(p, g, primary)
    if g.panel is not None:
        _paint_panel(p, state, g, modal)
    _paint_status(p, state, g)
    if state["palette"] is not None and state["dialog"] is None:
        _paint_palette(p, state, primary, quick)
    if state["dialog"] is not None:
        _paint_dialog(p, state)


def _paint_activity(p: Painter, state: dict, g: Geom) -> None:
    p.box(g.activity, SIDE_BG, key="activity")
    for target, label, glyph, rect in activity_buttons(g):
        on = target.endswith("toggleSidebarVisibility") and state["sidebar"]
        _glyph_button(p, target, label, glyph, rect, on=on, size=20)


def _paint_side(p: Painter, state: dict, g: Geom, rows: tuple) -> None:
    side = g.side
    assert side is not None and g.tree is not None
    p.box(side, SIDE_BG, key="side")
    p.box(Rect(side.right - 1, 0, 1, side.height), BORDER, key="side-border")
    p.text("EXPLORER", side.x + 20, 10, size=11, color=MUTED, key="side-title")
    root = state["root"]
    focused = state["focus"] == "explorer" and state["dialog"] is None and state["palette"] is None
    if root is None:
        p.text(
            "You have not yet opened a folder.",
            side.x + 20,
            SIDE_HEAD + 10,
            size=UI,
            color=TEXT,
            width=side.width - 30,
            key="no-folder",
        )
        b = Rect(side.x + 20, SIDE_HEAD + 40, side.width - 40, 28)
        p.button("command:workbench.action.files.openFolder", "Open Folder", b, suggested=True)
        if focused:
            p.focus("command:workbench.action.files.openFolder", role="button", label="Open Folder")
        return
    name = posixpath.basename(root.rstrip("/")) or root
    head = Rect(side.x, SIDE_HEAD, side.width, SECTION_H)
    p.paint(
        Box(SIDE_BG),
        head,
        key="section",
        target="explorer-root",
        semantic=Semantic("treeitem", name, root, False, True),
        state=NodeState(expanded=not state["root_closed"]),
    )
    chevron = "▸" if state["root_closed"] else "▾"
    p.text(
        f"{chevron} {name.upper()}",
        side.x + 6,
        SIDE_HEAD + 4,
        size=11,
        color=TEXT,
        bold=True,
        width=side.width - 90,
        key="section-name",
        target="explorer-root",
    )
    for target, glyph, rect in section_buttons(g):
        title = cmds.BY_ID[target[len("command:") :]].title.split(": ", 1)[-1].rstrip(".")
        _glyph_button(p, target, title, glyph, rect, reason=_reason(state, target), size=13)
    at = next((i for i, r in enumerate(rows) if r.rel == state["tree_sel"]), None)
    if focused and (at is None or state["root_closed"]):
        p.focus("explorer-root", role="treeitem", label=name, value=root)
    if state["root_closed"]:
        return
    tree = g.tree
    extent = len(rows) * ROW_H
    offset = p.scroll("explorer", tree, extent)
    first = offset // ROW_H
    count = tree.height // ROW_H + 2
    sel = state["tree_sel"]
    shown = rows[first : first + count]
    p.reuse(
        ("code-tree", tree, shown, first, offset, sel, focused),
        _paint_rows,
        tree,
        shown,
        first,
        offset,
        sel,
        focused,
    )
    if focused and at is not None:
        r = rows[at]
        p.focus(f"explore:{r.rel}", role="treeitem", label=r.name, value=r.rel)


def _paint_rows(
    p: Painter, tree: Rect, shown: tuple, first: int, offset: int, sel: str | None, focused: bool
) -> None:
    with p.clipped(tree):
        for i, r in enumerate(shown):
            y = tree.y + (first + i) * ROW_H - offset
            rect = Rect(tree.x, y, tree.width - 1, ROW_H)
            chosen = r.rel == sel
            p.paint(
                Box(
                    ROW_SELECTED
                    if chosen and focused
                    else (55, 55, 61, 255)
                    if chosen
                    else SIDE_BG,
                    ROW_FOCUSED_BORDER if chosen and focused else None,
                    1 if chosen and focused else 0,
                ),
                rect,
                key=("row", r.rel),
                target=f"explore:{r.rel}",
                semantic=Semantic("treeitem", r.name, r.rel, False, True),
                state=NodeState(selected=chosen, expanded=r.open if r.folder else None),
            )
            x = tree.x + 12 + r.depth * 12
            if r.folder:
                p.paint(
                    UiText("▾" if r.open else "▸", 12, MUTED),
                    Rect(x, y + 3, 10, 16),
                    key=("chev", r.rel),
                    target=f"explore:{r.rel}",
                )
            label = r.name if r.readable else f"{r.name} (cannot be read)"
            w = max(0, tree.right - x - 22)
            p.text(
                label,
                x + 14,
                y + 3,
                size=UI,
                color=TEXT,
                width=w,
                key=("name", r.rel),
                target=f"explore:{r.rel}",
            )


def _paint_tabs(p: Painter, state: dict, g: Geom) -> None:
    p.box(g.tabs, SIDE_BG, key="tabs")
    for i, ((r, close), tab) in enumerate(zip(tab_rects(g, state), state["tabs"])):
        active = i == state["active"]
        dirty = tab["text"] != tab["saved"]
        p.paint(
            Box(EDITOR_BG if active else SIDE_BG),
            r,
            key=("tab", i),
            target=f"tab:{i}",
            semantic=Semantic("tab", tab["name"], "modified" if dirty else None, False, True),
            state=NodeState(selected=active),
        )
        if active:
            p.box(Rect(r.x, 0, r.width, 2), ACCENT, key=("tab-top", i), target=f"tab:{i}")
        p.box(Rect(r.right - 1, 0, 1, TABS_H), BORDER, key=("tab-sep", i), target=f"tab:{i}")
        p.text(
            tab["name"],
            r.x + 12,
            10,
            size=UI,
            color=WHITE if active else MUTED,
            width=r.width - 44,
            key=("tab-name", i),
            target=f"tab:{i}",
        )
        _glyph_button(
            p,
            f"tab-close:{i}",
            f"Close {tab['name']}",
            "●" if dirty else "×",
            close,
            size=12 if dirty else 16,
        )


def _paint_watermark(p: Painter, g: Geom, primary: str) -> None:
    lines = (
        ("Show All Commands", "Primary+Shift+p"),
        ("Go to File", "Primary+p"),
        ("Find in File", "Primary+f"),
        ("Toggle Terminal", "Primary+`"),
    )
    y = g.body.y + max(20, g.body.height // 2 - 60)
    for i, (label, spec) in enumerate(lines):
        keys = cmds.key_label(_spell(spec, primary))
        lw = measure(label, "sans", UI)
        cx = g.body.x + g.body.width // 2
        p.text(label, cx - lw - 10, y + i * 26, size=UI, color=MUTED, key=("wm", i))
        p.text(keys, cx + 10, y + i * 26, size=UI, color=TEXT, key=("wm-k", i))


def _spell(spec: str, primary: str) -> str:
    from cwgym.desktop.keys import shortcut

    return shortcut(spec, primary)


def _paint_text(p: Painter, state: dict, g: Geom, modal: bool) -> None:
    cw, ch = tp.grid()
    tab = state["tabs"][state["active"]]
    text = tab["text"]
    lines = text.split("\n")
    wrap = tp.Wrap(lines, g.cols)
    stored = p.scroll_offset("text")
    top = max(0, min((stored or 0) // ch, max(0, wrap.total - g.rows)))
    focused = state["focus"] == "text" and not modal
    p.paint(
        Box(EDITOR_BG),
        g.body,
        key="text-bg",
        target="text",
        semantic=Semantic("textbox", tab["name"], text, False, True),
        state=NodeState(focused=focused),
    )
    a, c = tab["anchor"], tab["caret"]
    line = text.count("\n", 0, c)
    col = c - (text.rfind("\n", 0, c) + 1)
    row, cell = wrap.row_of(line, col)
    if (a is None or a == c) and top <= row < top + g.rows:
        p.box(
            Rect(g.gutter.x, g.pane.y + (row - top) * ch, g.body.width - tp.BAR - 4, ch),
            CURRENT_LINE,
            key="current-line",
            target="text",
        )
    # line numbers
    end = min(top + g.rows, wrap.total)
    for r in range(top, end):
        ln, k = wrap.locate(r)
        if k:
            continue
        label = str(ln + 1)
        x = g.gutter.right - 20 - len(label) * cw
        p.paint(
            Text(label, tp.SIZE, TEXT if ln == line else LINE_NO, "mono"),
            Rect(x, g.pane.y + (r - top) * ch, len(label) * cw, ch),
            key=("ln", ln),
            target="text",
        )
    # find matches in the lines shown
    find = state["find"]
    if find is not None and find["query"]["text"]:
        first_line = wrap.locate(top)[0]
        last_line = wrap.locate(max(top, end - 1))[0]
        starts = _line_starts(lines, first_line, last_line + 1)
        lo, hi = starts[0], starts[-1] + len(lines[last_line])
        q = find["query"]["text"]
        window = text[lo:hi]
        for n, at in enumerate(model.find_all(window, q, find["case"])):
            if n >= 500:
                break
            s0, s1 = lo + at, lo + at + len(q)
            pa = (text.count("\n", 0, s0), s0 - (text.rfind("\n", 0, s0) + 1))
            pb = (text.count("\n", 0, s1), s1 - (text.rfind("\n", 0, s1) + 1))
            for i, c0, w in tp.selection_boxes(wrap, top, g.rows, pa, pb):
                p.paint(
                    Box(MATCH),
                    Rect(g.pane.x + c0 * cw, g.pane.y + i * ch, w * cw, ch),
                    key=("match", n, i),
                    target="text",
                )
    if a is not None and a != c:
        s, e = min(a, c), max(a, c)
        pa = (text.count("\n", 0, s), s - (text.rfind("\n", 0, s) + 1))
        pb = (text.count("\n", 0, e), e - (text.rfind("\n", 0, e) + 1))
        for i, c0, w in tp.selection_boxes(wrap, top, g.rows, pa, pb):
            p.paint(
                Box(SELECTION),
                Rect(g.pane.x + c0 * cw, g.pane.y + i * ch, w * cw, ch),
                key=("sel", i),
                target="text",
            )
    tp.paint_rows(
        p,
        wrap,
        top,
        g.rows,
        g.pane.x,
        g.pane.y,
        color=TEXT,
        target="text",
        pane=f"window:{p.window}:editor",
        key="row",
    )
    caret = Rect(g.pane.x + cell * cw, g.pane.y + (row - top) * ch, cw, ch)
    if focused and top <= row < top + g.rows:
        p.paint(
            Box((174, 175, 173, 255)), Rect(caret.x, caret.y, 2, ch), key="caret", target="text"
        )
    tp.paint_bar(p, "text", g.track, g.rows, wrap.total, top, dark=True)
    p.scroll("text", g.pane, wrap.total * ch, top * ch)
    shown = sorted({wrap.locate(r)[0] for r in range(top, end)})
    p.buffer("editor", lines, shown[0] if shown else 0, len(shown))
    if focused:
        p.focus(
            "text",
            role="textbox",
            label=tab["name"],
            value=text,
            caret=caret,
            line=line,
            column=col,
            offset=c,
            text_entry=True,
        )


def _line_starts(lines: list[str], first: int, last: int) -> list[int]:
    start = sum(len(x) + 1 for x in lines[:first])
    out = [start]
    for i in range(first, last - 1):
        start += len(lines[i]) + 1
        out.append(start)
    return out


def _paint_find(p: Painter, state: dict, g: Geom, modal: bool) -> None:
    find = state["find"]
    show = find["show_replace"]
    box = g.find_box(show)
    controls = g.find_controls(show)
    p.paint(
        RoundedBox(WIDGET_BG, 4, BORDER, 1), box, key="find-bg", semantic=Semantic("dialog", "Find")
    )
    tab = state["tabs"][state["active"]]
    _glyph_button(
        p,
        "command:editor.action.startFindReplaceAction",
        "Toggle Replace",
        "▾" if show else "▸",
        controls["command:editor.action.startFindReplaceAction"],
        size=12,
    )
    focus = state["focus"] if not modal else None
    tp.paint_field(
        p,
        "find-query",
        find["query"],
        controls["find-query"],
        label="Find",
        focused=focus == "find",
        placeholder="Find",
    )
    _glyph_button(
        p,
        "command:toggleFindCaseSensitive",
        "Match Case",
        "Aa",
        controls["command:toggleFindCaseSensitive"],
        on=find["case"],
        size=12,
    )
    total, current = find_status(tab, find)
    label = (
        "No results"
        if find["query"]["text"] and not total
        else f"{current or '?'} of {total}"
        if total
        else ""
    )
    cr = controls["count"]
    p.text(
        label,
        cr.x + 2,
        cr.y + 4,
        size=12,
        color=ERROR if label == "No results" else TEXT,
        width=cr.width,
        key="find-count",
    )
    for target, name, glyph in (
        ("command:editor.action.previousMatchFindAction", "Previous Match", "↑"),
        ("command:editor.action.nextMatchFindAction", "Next Match", "↓"),
        ("command:closeFindWidget", "Close", "×"),
    ):
        _glyph_button(p, target, name, glyph, controls[target], size=15)
    if show:
        tp.paint_field(
            p,
            "replace-query",
            find["replace"],
            controls["replace-query"],
            label="Replace",
            focused=focus == "replace",
            placeholder="Replace",
        )
        _glyph_button(
            p,
            "command:editor.action.replaceOne",
            "Replace",
            "↵",
            controls["command:editor.action.replaceOne"],
        )
        _glyph_button(
            p,
            "command:editor.action.replaceAll",
            "Replace All",
            "↵*",
            controls["command:editor.action.replaceAll"],
            size=12,
        )


def find_status(tab: dict, find: dict) -> tuple[int, int]:
    """``(matches, which one the selection is, 1-based; 0 when none)``."""
    q = find["query"]["text"]
    if not q:
        return 0, 0
    found = model.find_all(tab["text"], q, find["case"])
    a, c = tab["anchor"], tab["caret"]
    current = 0
    if a is not None:
        s = min(a, c)
        if abs(c - a) == len(q):
            for i, at in enumerate(found):
                if at == s:
                    current = i + 1
                    break
    return len(found), current


def _paint_panel(p: Painter, state: dict, g: Geom, modal: bool) -> None:
    panel = g.panel
    assert panel is not None and g.term is not None
    p.box(panel, SIDE_BG, key="panel")
    p.box(Rect(panel.x, panel.y, panel.width, 1), BORDER, key="panel-border")
    p.text("TERMINAL", panel.x + 16, panel.y + 8, size=11, color=TEXT, key="panel-title")
    p.box(
        Rect(panel.x + 14, panel.y + 24, measure("TERMINAL", "sans", 11) + 4, 1),
        TEXT,
        key="panel-title-line",
    )
    right = panel.right - 10
    _glyph_button(
        p,
        "command:workbench.action.togglePanel",
        "Hide Panel",
        "×",
        Rect(right - 24, panel.y + 4, 24, 22),
        size=15,
    )
    _glyph_button(
        p,
        "command:workbench.action.terminal.clear",
        "Clear Terminal",
        "≣",
        Rect(right - 52, panel.y + 4, 24, 22),
        reason=_reason(state, "command:workbench.action.terminal.clear"),
        size=13,
    )
    if state["term"] is not None:
        term.paint(p, state["term"], g.term, state["focus"] == "terminal" and not modal)


def _paint_status(p: Painter, state: dict, g: Geom) -> None:
    st = g.status
    p.box(st, STATUS_BG if state["root"] is not None else (104, 33, 122, 255), key="status-bg")
    ty = st.y + (st.height - line_height("sans", 12)) // 2
    items = status_items(g, state)
    left_w = (items[-1][2].x if items else st.right) - 20
    if state["status"]:
        p.text(
            state["status"],
            10,
            ty,
            size=12,
            color=(255, 214, 214, 255) if state["error"] else WHITE,
            width=max(0, left_w - 10),
            key="status-text",
        )
    for target, label, rect in items:
        if target is not None:
            p.paint(
                Box(STATUS_BG if state["root"] is not None else (104, 33, 122, 255)),
                rect,
                key=("si", label),
                target=target,
                semantic=Semantic("button", "Go to Line/Column", label, False, True),
            )
        p.text(label, rect.x + 8, ty, size=12, color=WHITE, key=("st", rect.x), target=target)


def _paint_palette(p: Painter, state: dict, primary: str, quick: tuple) -> None:
    pal = state["palette"]
    items = palette_items(state, quick)
    sel = pal["sel"]
    first = (
        max(0, min(sel - PALETTE_ROWS + 1, len(items) - PALETTE_ROWS)) if sel >= PALETTE_ROWS else 0
    )
    shown = items[first : first + PALETTE_ROWS]
    box, field = palette_box(p.width, len(shown))
    p.paint(
        RoundedBox(WIDGET_BG, 6, BORDER, 1),
        box,
        key="palette-bg",
        semantic=Semantic("dialog", "Command Palette"),
    )
    placeholder = {
        "open-file": "Type the path of a file to open",
        "open-folder": "Type the path of a folder to open",
        "new-file": "Type a file name (relative to the workspace folder)",
        "new-folder": "Type a folder name (relative to the workspace folder)",
    }.get(
        pal["prompt"] or "",
        "Search files by name (append : to go to a line, or start with > for commands)",
    )
    tp.paint_field(
        p,
        "palette-input",
        pal,
        field,
        label="Command Palette",
        focused=state["focus"] == "palette",
        placeholder=placeholder,
    )
    if not shown:
        p.text(
            palette_hint(state),
            box.x + 16,
            box.y + 48,
            size=UI,
            color=MUTED,
            width=box.width - 32,
            key="pal-hint",
        )
        return
    for i, item in enumerate(shown):
        index = first + i
        r = palette_row(box, i)
        chosen = index == sel
        _kind, _value, title, reason, keys = item
        p.paint(
            RoundedBox(ROW_SELECTED if chosen else WIDGET_BG, 3),
            r,
            key=("pal-row", index),
            target=f"palette:{index}",
            semantic=Semantic("option", title, reason, False, True),
            state=NodeState(selected=chosen),
        )
        kw = 0
        if keys:
            label = cmds.key_label(_spell(keys[0], primary))
            kw = measure(label, "sans", 12) + 10
            p.text(
                label,
                r.right - kw,
                r.y + 5,
                size=12,
                color=MUTED,
                key=("pal-key", index),
                target=f"palette:{index}",
            )
        color = (120, 120, 120, 255) if reason else TEXT
        shown_title = f"{title} — {reason}" if reason else title
        p.text(
            shown_title,
            r.x + 10,
            r.y + 4,
            size=UI,
            color=color,
            width=max(0, r.width - kw - 24),
            key=("pal-title", index),
            target=f"palette:{index}",
        )


def palette_items(
    state: dict, quick: tuple
) -> list[tuple[str, str, str, str | None, tuple[str, ...]]]:
    """The palette's rows: ``(kind, value, title, reason it cannot run, keys)``."""
    pal = state["palette"]
    text = pal["text"]
    if pal["prompt"] is not None:
        return []
    if text.startswith(">"):
        return [
            ("command", c.id, c.title, cmds.unmet(state, c), c.keys)
            for c in cmds.filter_commands(text[1:])
        ]
    if text.startswith(":"):
        return []
    return [("file", f, f, None, ()) for f in quick]


def palette_hint(state: dict) -> str:
    pal = state["palette"]
    text = pal["text"]
    prompt = pal["prompt"]
    if prompt is not None:
        what = {
            "open-file": "open the file",
            "open-folder": "open the folder",
            "new-file": "create the file",
            "new-folder": "create the folder",
        }[prompt]
        return f"Press Enter to {what}, Escape to cancel."
    if text.startswith(">"):
        return "No matching commands"
    if text.startswith(":"):
        if state["active"] < 0:
            return "Open a text editor first to go to a line."
        tab = state["tabs"][state["active"]]
        total = tab["text"].count("\n") + 1
        spec = text[1:].strip()
        if not spec:
            return f"Current line: {tab['text'].count(chr(10), 0, tab['caret']) + 1}. Type a line number between 1 and {total}."
        return f"Go to line {spec} (press Enter)."
    if state["root"] is None:
        return "Open a folder to search its files, or start with > for commands."
    return "No matching results"


def _paint_dialog(p: Painter, state: dict) -> None:
    dialog = state["dialog"]
    kind = dialog["kind"]
    p.paint(Box(SCRIM), Rect(0, 0, p.width, p.height), key="scrim")
    box, controls = dialog_rects(p.width, p.height, kind)
    title = "Save As" if kind == "save-as" else "Visual Studio Code"
    p.paint(
        RoundedBox(WIDGET_BG, 8, BORDER, 1), box, key="dialog", semantic=Semantic("dialog", title)
    )
    p.paint(
        UiTextBold(title, 15, TEXT),
        Rect(box.x + 16, box.y + 14, measure(title, "sans-bold", 15), line_height("sans-bold", 15)),
        key="dialog-title",
    )
    if kind == "save-as":
        p.text(
            "Path of the file to save",
            box.x + 16,
            box.y + 44,
            size=12,
            color=MUTED,
            key="dialog-label",
        )
        tp.paint_field(
            p, "save-path", dialog["path"], controls["save-path"], label="Save As", focused=True
        )
        if dialog["error"]:
            p.text(
                dialog["error"],
                box.x + 16,
                box.y + 102,
                size=12,
                color=ERROR,
                width=box.width - 32,
                key="dialog-error",
            )
        p.button("dialog:cancel", "Cancel", controls["dialog:cancel"])
        p.button("dialog:save-as", "Save", controls["dialog:save-as"], suggested=True)
        return
    name = state["tabs"][dialog["tab"]]["name"]
    p.text(
        f"Do you want to save the changes you made to {name}?",
        box.x + 16,
        box.y + 46,
        size=UI,
        color=TEXT,
        width=box.width - 32,
        key="dialog-text",
    )
    p.text(
        "Your changes will be lost if you don't save them.",
        box.x + 16,
        box.y + 70,
        size=12,
        color=MUTED,
        width=box.width - 32,
        key="dialog-text2",
    )
    p.button("dialog:save", "Save", controls["dialog:save"], suggested=True, focused=True)
    p.button("dialog:dont-save", "Don't Save", controls["dialog:dont-save"])
    p.button("dialog:cancel", "Cancel", controls["dialog:cancel"])
    p.focus("dialog:save", role="button", label="Save")
