"""The file manager's layout and painting.

:func:`layout` is a pure function of the content size and the window state, shared by the
painting and by the event hooks (which need to know where the list, its scroll bar and the
sidebar are). Painting reads the state and the :class:`~cwgym.apps._files_model.Listing`
(the application's ``paint_key``) and nothing else.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cwgym.apps import _files_model as model
from cwgym.desktop.painter import Painter
from cwgym.scene import (
    AssetImage,
    Box,
    NodeState,
    Rect,
    RoundedBox,
    Semantic,
    Symbol,
    UiText,
)
from cwgym.text import ellipsize, line_height, measure, shape

#: The scroll panes (``pane:list``, ``pane:side``); their offsets are the window's, the
#: list's showing the active tab (an inactive tab keeps its own in ``tab["scroll"]``).
LIST = "list"
SIDE = "side"

TOOL_H = 44
ACTION_H = 36
TAB_H = 32
STATUS_H = 26
NOTICE_H = 34
EDIT_H = 46
EDIT_ERR_H = 20
HEAD_H = 28
ROW_H = 32
SIDE_ROW = 30
TILE_W = 112
TILE_H = 104
BAR_W = 10
ICON_BTN = 34
FONT = "sans"
SIZE = 14
SMALL = 13

#: Toolbar icon buttons: target, symbol, label (the view toggle's label depends on the view).
TOOL_LEFT = (("files-back", "chevron-left", "Back"), ("files-forward", "chevron-right", "Forward"), ("files-up", "arrow-up", "Go Up"))
TOOL_RIGHT = (("files-search", "search", "Search"), ("files-reload", "refresh", "Reload"), ("files-view", "view-grid", "Grid View"), ("files-newtab", "plus", "New Tab"))


class Layout(NamedTuple):
    toolbar: Rect
    pathbar: Rect
    actions: tuple[tuple[str, str, Rect], ...]  # (target, label, rect)
    tabs: Rect
    sidebar: Rect
    main: Rect
    notice: Rect | None
    edit: Rect | None
    head: Rect | None
    list: Rect
    status: Rect


def action_buttons(state: dict) -> list[tuple[str, str]]:
    """The action bar's buttons for the active tab's location: ``(target, label)``."""
    loc = state["tabs"][state["active"]]["loc"]
    out = []
    if loc == model.TRASH:
        out += [("files-restore", "Restore"), ("files-empty-trash", "Empty Trash")]
    out += [
        ("files-new-folder", "New Folder"),
        ("files-new-file", "New File"),
        ("files-open", "Open"),
        ("files-cut", "Cut"),
        ("files-copy", "Copy"),
        ("files-paste", "Paste"),
        ("files-rename", "Rename"),
        ("files-delete", "Delete Permanently" if loc == model.TRASH else "Move to Trash"),
        ("files-star", "Star"),
        ("files-hidden", "Show Hidden"),
    ]
    return out


def side_width(width: int) -> int:
    return 184 if width >= 760 else 150


def layout(width: int, height: int, state: dict) -> Layout:
    """Where everything goes in a ``width`` x ``height`` content area."""
    toolbar = Rect(0, 0, width, TOOL_H)
    left = 8 + len(TOOL_LEFT) * (ICON_BTN + 4) + 4
    right = 8 + len(TOOL_RIGHT) * (ICON_BTN + 4)
    pathbar = Rect(left, 6, max(40, width - left - right - 4), 32)
    # the action bar flows onto as many rows as the width needs
    actions = []
    x, y = 8, TOOL_H + 2
    for target, label in action_buttons(state):
        w = measure(label, FONT, SIZE) + 24
        if x + w > width - 8 and x > 8:
            x, y = 8, y + ACTION_H
        actions.append((target, label, Rect(x, y, w, ACTION_H - 6)))
        x += w + 6
    top = y + ACTION_H
    tabs = Rect(0, top, width, TAB_H)
    top += TAB_H
    status = Rect(0, max(top, height - STATUS_H), width, STATUS_H)
    sw = side_width(width)
    body_h = max(0, status.y - top)
    sidebar = Rect(0, top, sw, body_h)
    main = Rect(sw + 1, top, max(0, width - sw - 1), body_h)
    y = main.y
    notice = edit = None
    if state.get("notice"):
        notice = Rect(main.x, y, main.width, NOTICE_H)
        y += NOTICE_H
    if state.get("edit"):
        h = EDIT_H + (EDIT_ERR_H if state["edit"].get("error") or state["edit"].get("hint") else 0)
        edit = Rect(main.x, y, main.width, h)
        y += h
    head = Rect(main.x, y, main.width, HEAD_H)
    y += HEAD_H
    lst = Rect(main.x, y, main.width, max(0, main.bottom - y))
    return Layout(toolbar, pathbar, tuple(actions), tabs, sidebar, main, notice, edit, head, lst, status)


# -- list geometry -------------------------------------------------------------------------


def grid_columns(lst: Rect) -> int:
    return max(1, (lst.width - BAR_W) // TILE_W)


def extent(state: dict, lst: Rect, count: int) -> int:
    """The full height of the list's content for ``count`` rows."""
    if state["view"] == "grid":
        cols = grid_columns(lst)
        return -(-count // cols) * TILE_H + 8
    return count * ROW_H


def row_rect(state: dict, lst: Rect, index: int) -> Rect:
    """Row ``index``'s rectangle in unscrolled list coordinates (content space)."""
    if state["view"] == "grid":
        cols = grid_columns(lst)
        cell = max(TILE_W, (lst.width - BAR_W - 4) // cols)
        r, c = divmod(index, cols)
        return Rect(lst.x + 4 + c * cell + (cell - TILE_W) // 2, lst.y + 4 + r * TILE_H, TILE_W - 4, TILE_H - 4)
    return Rect(lst.x, lst.y + index * ROW_H, max(0, lst.width - BAR_W), ROW_H)


def max_scroll(state: dict, lst: Rect, count: int) -> int:
    return max(0, extent(state, lst, count) - lst.height)


def bar_geometry(view: int, ext: int, track: Rect, offset: int) -> tuple[int, int, int]:
    """``(thumb_length, thumb_top, max_offset)`` of a scroll bar along ``track``."""
    limit = max(0, ext - view)
    thumb = max(24, min(track.height, track.height * view // max(1, ext)))
    top = track.y + ((track.height - thumb) * offset // limit if limit else 0)
    return thumb, top, limit


def bar_track(r: Rect) -> Rect:
    return Rect(r.right - BAR_W, r.y, BAR_W, r.height)


def side_entries(listing: model.Listing) -> list[tuple[str, str, str, str | None]]:
    """Sidebar rows: ``(target, label, symbol, location it stands for)``; ``None`` is a gap."""
    home = listing.home
    rows: list[tuple[str, str, str, str | None]] = [
        ("files-browse", "Browse", "folder", None),
        ("files-quick-access", "Quick Access", "app-grid", model.QUICK),
        ("files-recents", "Recent", "document", model.RECENT),
        ("files-starred", "Starred", "star", model.STARRED),
        ("", "", "", None),
        ("files-home", "Home", "home", home),
    ]
    symbols = dict(model.PLACES)
    for place in listing.places:
        rows.append((f"files-place:{place}", place, symbols[place], model.join(home, place)))
    rows += [
        ("files-gallery", "Gallery", "pictures", None),
        ("", "", "", None),
        ("files-trash", "Trash", "trash", model.TRASH),
        ("files-root", "Computer", "network-wired", "/"),
    ]
    return rows


def side_extent(entries: list) -> int:
    return sum(SIDE_ROW if e[0] else 12 for e in entries) + 8


# -- painting ------------------------------------------------------------------------------


def _sem_text(p: Painter, text: str, x: int, y: int, width: int, *, color=None, size: int = SIZE, target: str | None = None, key: Any = None, bold: bool = False) -> None:
    if width <= 0 or not text:
        return
    p.text(text, x, y, size=size, color=color, width=width, target=target, key=key, bold=bold)


def _icon_button(p: Painter, target: str, symbol: str, label: str, rect: Rect, *, disabled: bool = False, checked: bool | None = None) -> None:
    pal = p.palette
    fill = pal["selection"] if checked else (0, 0, 0, 0)
    p.paint(
        RoundedBox(fill, 6),
        rect,
        key=("tool", target),
        target=target,
        semantic=Semantic("button", label, None, disabled, True),
        state=NodeState(checked=checked) if checked is not None else None,
    )
    p.paint(
        Symbol(symbol, pal["muted"] if disabled else pal["text"], 16),
        Rect(rect.x + (rect.width - 16) // 2, rect.y + (rect.height - 16) // 2, 16, 16),
        key=("tool-glyph", target),
        target=target,
    )


def _text_field(p: Painter, name: str, field: dict, rect: Rect, label: str, focused: bool, placeholder: str = "") -> None:
    """A one-line field with a selection highlight (``anchor`` .. ``caret``)."""
    text = field["text"]
    p.textbox(name, text, rect, label=label, focused=focused, caret=field["caret"], placeholder=placeholder)
    a, c = sorted((field.get("anchor", field["caret"]), field["caret"]))
    if focused and a != c and text:
        # the selection tints the text over the field (it names the field's target, so
        # it does not hide the field from clicks)
        run = shape(text, FONT, SIZE)
        x0, x1 = run.caret_x(a), run.caret_x(c)
        h = line_height(FONT, SIZE)
        inner = Rect(rect.x + 8, rect.y + 2, max(0, rect.width - 16), max(0, rect.height - 4))
        p.paint(Box(p.palette["selection"]), Rect(inner.x + x0, rect.y + (rect.height - h) // 2, max(1, x1 - x0), h), key=("field-sel", name), target=name, clip=inner)


def paint(p: Painter, state: dict, listing: model.Listing) -> None:
    w, h = p.width, p.height
    lay = layout(w, h, state)
    tab = state["tabs"][state["active"]]
    pal = p.palette
    header_fill = pal.get("header", pal["button"])
    p.box(lay.toolbar, header_fill, key="toolbar-bg")
    selected = set(tab["selected"])
    rows = listing.rows
    sel_rows = [r for r in rows if r.path in selected]
    loc = tab["loc"]
    virtual = loc in model.VIRTUAL
    # toolbar
    tools = []
    x = 8
    for target, symbol, label in TOOL_LEFT:
        disabled = (target == "files-back" and not tab["back"]) or (target == "files-forward" and not tab["forward"]) or (target == "files-up" and (virtual or loc == "/"))
        tools.append((target, symbol, label, Rect(x, 5, ICON_BTN, ICON_BTN), disabled, None))
        x += ICON_BTN + 4
    x = w - 8 - len(TOOL_RIGHT) * (ICON_BTN + 4) + 4
    for target, symbol, label in TOOL_RIGHT:
        checked = None
        if target == "files-view":
            symbol, label = ("view-list", "List View") if state["view"] == "grid" else ("view-grid", "Grid View")
        if target == "files-search":
            checked = tab["search"] is not None
        tools.append((target, symbol, label, Rect(x, 5, ICON_BTN, ICON_BTN), False, checked))
        x += ICON_BTN + 4
    p.reuse(("files-tools", tuple(tools)), _paint_tools, tools)
    _paint_pathbar(p, state, tab, lay.pathbar, listing)
    # action bar
    p.box(Rect(0, TOOL_H, w, lay.tabs.y - TOOL_H), header_fill, key="actionbar-bg")
    starred_all = bool(sel_rows) and all(r.starred for r in sel_rows)
    actions = []
    for target, label, rect in lay.actions:
        disabled = False
        if target in ("files-cut", "files-copy", "files-rename", "files-star") and loc == model.TRASH:
            disabled = True
        elif target in ("files-open", "files-cut", "files-copy", "files-rename", "files-delete", "files-star", "files-restore"):
            disabled = not sel_rows
        elif target in ("files-new-folder", "files-new-file"):
            disabled = virtual
        elif target == "files-paste":
            disabled = virtual or not listing.paste
        elif target == "files-empty-trash":
            disabled = not rows
        checked = {"files-hidden": state["hidden"], "files-star": starred_all}.get(target)
        actions.append((target, label, rect, disabled, checked))
    p.reuse(("files-actions", tuple(actions)), _paint_actions, actions)
    p.box(Rect(0, lay.tabs.y - 1, w, 1), pal["border"], key="actionbar-line")
    _paint_tabs(p, state, lay.tabs)
    _paint_sidebar(p, state, lay.sidebar, listing)
    p.box(Rect(lay.sidebar.right, lay.sidebar.y, 1, lay.sidebar.height), pal["border"], key="sidebar-line")
    if lay.notice is not None:
        _paint_notice(p, state["notice"], lay.notice)
    if lay.edit is not None:
        _paint_edit(p, state, lay.edit)
    with_location = virtual or bool(tab["search"] and tab["search"]["text"].strip())
    head = (lay.head, state["view"], tab["sort"], tab["desc"], tab["loc"] == model.TRASH, with_location)
    p.reuse(("files-head", head), _paint_head, state, tab, lay.head, with_location)
    _paint_list(p, state, tab, lay.list, listing)
    _paint_status(p, state, tab, lay.status, listing, sel_rows)


def _paint_tools(p: Painter, tools: list) -> None:
    for target, symbol, label, rect, disabled, checked in tools:
        _icon_button(p, target, symbol, label, rect, disabled=disabled, checked=checked)


def _paint_actions(p: Painter, actions: list) -> None:
    for action in actions:
        _action_button(p, *action)


def _action_button(p: Painter, target: str, label: str, rect: Rect, disabled: bool, checked: bool | None) -> None:
    pal = p.palette
    fill = pal["selection"] if checked else pal["button"]
    p.paint(
        RoundedBox(fill, 6, pal["border"], 1),
        rect,
        key=("action", target),
        target=target,
        semantic=Semantic("button", label, None, disabled, True),
        state=NodeState(checked=checked) if checked is not None else None,
    )
    tw = measure(label, FONT, SIZE)
    lh = line_height(FONT, SIZE)
    p.paint(
        UiText(label, SIZE, pal["muted"] if disabled else pal["text"]),
        Rect(rect.x + (rect.width - tw) // 2, rect.y + (rect.height - lh) // 2, tw, lh),
        key=("action-label", target),
        target=target,
    )


def folder_title(loc: str, home: str) -> str:
    if loc in model.VIRTUAL:
        return model.VIRTUAL[loc]
    if loc == home:
        return "Home"
    return model.basename(loc)


def _crumbs(loc: str, home: str) -> list[tuple[str, str]]:
    """Path bar segments ``(label, path)``: from Home for a path inside it, else from ``/``."""
    if model.inside(loc, home):
        out = [("Home", home)]
        rest = loc[len(home) :].strip("/")
        base = home
    else:
        out = [("/", "/")]
        rest = loc.strip("/")
        base = "/"
    for part in rest.split("/") if rest else []:
        base = model.join(base, part)
        out.append((part, base))
    return out


def _paint_pathbar(p: Painter, state: dict, tab: dict, r: Rect, listing: model.Listing) -> None:
    pal = p.palette
    focus = state["focus"]
    if tab["search"] is not None:
        field = Rect(r.x, r.y, max(40, r.width - 36), r.height)
        _text_field(p, "files-search-entry", tab["search"], field, "Search", focus == "search", "Search files")
        _icon_button(p, "files-search-clear", "close", "Clear Search", Rect(field.right + 4, r.y, 32, r.height))
        return
    if state.get("entry") is not None:
        _text_field(p, "files-location-entry", state["entry"], r, "Location", focus == "location", "Type a path")
        return
    # the bar itself: a click on its empty part starts typing a location (as Ctrl+L)
    p.paint(
        RoundedBox(pal["field"], 6, pal["border"], 1),
        r,
        key="pathbar",
        target="files-pathbar",
        semantic=Semantic("button", "Edit Location", None, False, True),
    )
    loc = tab["loc"]
    if loc in model.VIRTUAL:
        _sem_text(p, model.VIRTUAL[loc], r.x + 12, r.y + (r.height - line_height(FONT, SIZE)) // 2, r.width - 24, target="files-pathbar", key="pathbar-virtual", bold=True)
        return
    crumbs = _crumbs(loc, listing.home)
    widths = [measure(label, "sans-bold" if i == len(crumbs) - 1 else FONT, SIZE) + 16 for i, (label, _) in enumerate(crumbs)]
    sep = 14
    room = r.width - 8
    first = 0
    while first < len(crumbs) - 1 and sum(widths[first:]) + sep * (len(crumbs) - first - 1) > room:
        first += 1
    x = r.x + 4
    lh = line_height(FONT, SIZE)
    for i in range(first, len(crumbs)):
        label, path = crumbs[i]
        last = i == len(crumbs) - 1
        width = min(widths[i], r.right - 4 - x)
        if width <= 8:
            break
        target = f"files-location:{path}"
        cell = Rect(x, r.y + 3, width, r.height - 6)
        p.paint(
            RoundedBox(pal["button"] if last else (0, 0, 0, 0), 5),
            cell,
            key=("crumb", i),
            target=target,
            semantic=Semantic("button", label, None, False, True),
            state=NodeState(selected=last),
        )
        _sem_text(p, label, x + 8, r.y + (r.height - lh) // 2, width - 16, target=target, key=("crumb-label", i), bold=last)
        x += width
        if not last:
            p.paint(Symbol("chevron-right", pal["muted"], 12), Rect(x + 1, r.y + (r.height - 12) // 2, 12, 12), key=("crumb-sep", i), target="files-pathbar")
            x += sep


def _paint_tabs(p: Painter, state: dict, r: Rect) -> None:
    pal = p.palette
    p.box(r, pal.get("header", pal["button"]), key="tabs-bg")
    tabs = state["tabs"]
    n = len(tabs)
    width = max(60, min(220, (r.width - 16) // n))
    x = r.x + 8
    for i, tab in enumerate(tabs):
        label = folder_title(tab["loc"], state["home"])
        active = i == state["active"]
        cell = Rect(x, r.y + 3, width - 4, r.height - 6)
        if cell.right > r.right:
            break
        p.paint(
            RoundedBox(pal["field"] if active else (0, 0, 0, 0), 6, pal["border"] if active else None, 1 if active else 0),
            cell,
            key=("tab", i),
            target=f"files-tab:{i}",
            semantic=Semantic("tab", label, None, False, True),
            state=NodeState(selected=active),
        )
        _sem_text(p, label, cell.x + 10, cell.y + (cell.height - line_height(FONT, SMALL)) // 2, cell.width - 40, size=SMALL, target=f"files-tab:{i}", key=("tab-label", i), bold=active)
        close = Rect(cell.right - 24, cell.y + (cell.height - 20) // 2, 20, 20)
        p.paint(
            RoundedBox((0, 0, 0, 0), 4),
            close,
            key=("tab-close", i),
            target=f"files-closetab:{i}",
            semantic=Semantic("button", f"Close {label}", None, False, True),
        )
        p.paint(Symbol("close", pal["muted"], 12), Rect(close.x + 4, close.y + 4, 12, 12), key=("tab-close-glyph", i), target=f"files-closetab:{i}")
        x += width


def _paint_sidebar(p: Painter, state: dict, r: Rect, listing: model.Listing) -> None:
    pal = p.palette
    p.box(r, pal.get("header", pal["button"]), key="sidebar-bg")
    entries = side_entries(listing)
    ext = side_extent(entries)
    offset = p.scroll(SIDE, r, ext)
    loc = state["tabs"][state["active"]]["loc"]
    p.reuse(("files-sidebar", r, tuple(entries), ext, offset, loc), _paint_places, r, entries, ext, offset, loc)


def _paint_places(p: Painter, r: Rect, entries: list, ext: int, offset: int, loc: str) -> None:
    pal = p.palette
    lh = line_height(FONT, SIZE)
    with p.clipped(r, dy=-offset):
        y = r.y + 4
        for target, label, symbol, where in entries:
            if not target:
                p.box(Rect(r.x + 12, y + 5, r.width - 24, 1), pal["border"], key=("side-gap", y))
                y += 12
                continue
            current = where is not None and where == loc
            cell = Rect(r.x + 6, y, r.width - 12 - (BAR_W if ext > r.height else 0), SIDE_ROW - 2)
            p.paint(
                RoundedBox(pal["selection"] if current else (0, 0, 0, 0), 6),
                cell,
                key=("side", target),
                target=target,
                semantic=Semantic("listitem", label, None, False, True),
                state=NodeState(selected=current),
            )
            p.paint(Symbol(symbol, pal["text"], 16), Rect(cell.x + 8, cell.y + (cell.height - 16) // 2, 16, 16), key=("side-glyph", target), target=target)
            _sem_text(p, label, cell.x + 32, cell.y + (cell.height - lh) // 2, cell.width - 40, target=target, key=("side-label", target))
            y += SIDE_ROW
    if ext > r.height:
        _paint_bar(p, SIDE, r, offset, ext)


def _paint_bar(p: Painter, name: str, view: Rect, offset: int, ext: int) -> None:
    track = bar_track(view)
    thumb, top, limit = bar_geometry(view.height, ext, track, offset)
    target = f"pane:{name}:{track.height}:{thumb}:{limit}"
    pal = p.palette
    p.paint(
        Box((0, 0, 0, 12)),
        track,
        key=("bar", name),
        target=target,
        semantic=Semantic("scrollbar", "Scroll bar", str(offset), False, False),
    )
    p.paint(RoundedBox(pal["muted"], 4), Rect(track.x + 2, top, track.width - 4, thumb), key=("thumb", name), target=target)


def _paint_notice(p: Painter, notice: dict, r: Rect) -> None:
    pal = p.palette
    error = notice.get("error", False)
    fill = (253, 226, 226, 255) if error else (226, 236, 250, 255)
    ink = (150, 20, 20, 255) if error else pal["text"]
    p.paint(
        Box(fill),
        r,
        key="notice",
        semantic=Semantic("alert" if error else "status", notice["text"]),
    )
    close = Rect(r.right - 30, r.y + (r.height - 24) // 2, 24, 24)
    _sem_text(p, notice["text"], r.x + 12, r.y + (r.height - line_height(FONT, SIZE)) // 2, close.x - r.x - 20, color=ink, key="notice-text")
    p.paint(RoundedBox((0, 0, 0, 0), 4), close, key="notice-close", target="files-dismiss", semantic=Semantic("button", "Dismiss", None, False, True))
    p.paint(Symbol("close", ink, 12), Rect(close.x + 6, close.y + 6, 12, 12), key="notice-close-glyph", target="files-dismiss")


def _paint_edit(p: Painter, state: dict, r: Rect) -> None:
    pal = p.palette
    edit = state["edit"]
    p.box(r, pal["button"], key="edit-bg")
    title = {"new-folder": "Folder Name", "new-file": "File Name", "rename": "Rename"}[edit["kind"]]
    ok = {"new-folder": "Create", "new-file": "Create", "rename": "Rename"}[edit["kind"]]
    lh = line_height(FONT, SIZE)
    tw = measure(title, "sans-bold", SIZE)
    _sem_text(p, title, r.x + 12, r.y + (EDIT_H - lh) // 2, tw + 1, bold=True, key="edit-title")
    bw_ok = measure(ok, FONT, SIZE) + 24
    bw_cancel = measure("Cancel", FONT, SIZE) + 24
    fx = r.x + 24 + tw
    field = Rect(fx, r.y + 7, max(60, r.right - fx - bw_ok - bw_cancel - 28), 32)
    _text_field(p, "files-name", edit, field, title, state["focus"] == "name")
    p.button("files-name-ok", ok, Rect(field.right + 8, r.y + 7, bw_ok, 32), suggested=True)
    p.button("files-name-cancel", "Cancel", Rect(field.right + 14 + bw_ok, r.y + 7, bw_cancel, 32))
    message = edit.get("error") or edit.get("hint")
    if message:
        ink = (170, 20, 20, 255) if edit.get("error") else pal["muted"]
        p.paint(UiText(message, SMALL, ink), Rect(field.x, r.y + EDIT_H - 4, measure(message, FONT, SMALL), line_height(FONT, SMALL)), key="edit-error", semantic=Semantic("alert" if edit.get("error") else "status", message))


def _columns(lst_or_head: Rect, with_location: bool) -> dict[str, tuple[int, int]]:
    """Column ``(x, width)`` by name in a list row of this rectangle's width."""
    x, w = lst_or_head.x, max(0, lst_or_head.width - BAR_W)
    star_w, size_w, date_w = 32, 90, 110
    loc_w = min(200, max(80, w // 4)) if with_location else 0
    name_w = max(40, w - star_w - size_w - date_w - loc_w - 8)
    cols = {"name": (x + 8, name_w)}
    cx = x + 8 + name_w
    if with_location:
        cols["location"] = (cx, loc_w)
        cx += loc_w
    cols["size"] = (cx, size_w)
    cx += size_w
    cols["date"] = (cx, date_w)
    cx += date_w
    cols["star"] = (cx, star_w)
    return cols


def _paint_head(p: Painter, state: dict, tab: dict, r: Rect, with_location: bool) -> None:
    pal = p.palette
    p.box(r, pal["window"], key="head-bg")
    p.box(Rect(r.x, r.bottom - 1, r.width, 1), pal["border"], key="head-line")
    lh = line_height(FONT, SMALL)
    if state["view"] == "grid":
        _sem_text(p, "Sort by", r.x + 12, r.y + (r.height - lh) // 2, 60, size=SMALL, color=pal["muted"], key="head-sortby")
        x = r.x + 16 + measure("Sort by", FONT, SMALL)
        for key, label in (("name", "Name"), ("size", "Size"), ("date", "Modified")):
            w = measure(label, FONT, SMALL) + 30
            _head_cell(p, tab, key, label, Rect(x, r.y, w, r.height))
            x += w + 4
        return
    cols = _columns(r, with_location)
    for key, label in (("name", "Name"), ("size", "Size"), ("date", "Modified")):
        cx, cw = cols[key]
        _head_cell(p, tab, key, label, Rect(cx - 4, r.y, cw, r.height))
    if with_location:
        cx, cw = cols["location"]
        title = "Original Location" if tab["loc"] == model.TRASH else "Location"
        _sem_text(p, title, cx, r.y + (r.height - lh) // 2, cw - 8, size=SMALL, color=pal["muted"], key="head-location")


def _head_cell(p: Painter, tab: dict, key: str, label: str, cell: Rect) -> None:
    pal = p.palette
    active = tab["sort"] == key
    target = f"files-sort:{key}"
    direction = ("descending" if tab["desc"] else "ascending") if active else None
    p.paint(
        Box((0, 0, 0, 0)),
        cell,
        key=("head", key),
        target=target,
        semantic=Semantic("columnheader", label, direction, False, True),
        state=NodeState(selected=active),
    )
    lh = line_height("sans-bold" if active else FONT, SMALL)
    r = p.text(label, cell.x + 4, cell.y + (cell.height - lh) // 2, size=SMALL, bold=active, color=pal["text"] if active else pal["muted"], width=max(0, cell.width - 24), target=target, key=("head-label", key))
    if active:
        p.paint(Symbol("chevron-down" if tab["desc"] else "chevron-up", pal["text"], 12), Rect(r.right + 4, cell.y + (cell.height - 12) // 2, 12, 12), key=("head-arrow", key), target=target)


def _paint_list(p: Painter, state: dict, tab: dict, lst: Rect, listing: model.Listing) -> None:
    pal = p.palette
    rows = listing.rows
    p.paint(Box(pal["field"]), lst, key="list-bg", target="files-list", semantic=Semantic("list", "Files", None, False, True))
    if listing.error or not rows:
        message = listing.error or listing.empty
        ink = (150, 20, 20, 255) if listing.error else pal["muted"]
        tw = min(measure(message, FONT, SIZE), max(0, lst.width - 24))
        p.paint(
            UiText(ellipsize(message, FONT, SIZE, max(0, lst.width - 24)), SIZE, ink),
            Rect(lst.x + (lst.width - tw) // 2, lst.y + min(80, lst.height // 3), tw, line_height(FONT, SIZE)),
            key="list-message",
            semantic=Semantic("alert" if listing.error else "status", message),
        )
        if state["focus"] == "list":
            p.focus("files-list", role="list", label="Files")
        return
    ext = extent(state, lst, len(rows))
    offset = p.scroll(LIST, lst, ext)
    selected = set(tab["selected"])
    with_location = tab["loc"] in model.VIRTUAL or bool(tab["search"] and tab["search"]["text"].strip())
    cols = _columns(lst, with_location)
    columns = tuple(cols.items())
    grid = state["view"] == "grid"
    if grid:
        cols_n = grid_columns(lst)
        first = (offset // TILE_H) * cols_n
        last = min(len(rows), ((offset + lst.height) // TILE_H + 1) * cols_n)
    else:
        first = offset // ROW_H
        last = min(len(rows), (offset + lst.height) // ROW_H + 1)
    focus_row = tab.get("cursor")
    focus_index = None
    with p.clipped(lst, dy=-offset):
        for i in range(first, last):
            row = rows[i]
            if row.path == focus_row:
                focus_index = i
            rect, chosen = row_rect(state, lst, i), row.path in selected
            if grid:
                p.reuse(("files-tile", i, row, rect, chosen, listing.home), _paint_tile, i, row, rect, chosen, listing)
            else:
                key = ("files-row", i, row, rect, chosen, columns, with_location, listing.today, listing.home)
                p.reuse(key, _paint_row, i, row, rect, chosen, cols, with_location, listing)
    if ext > lst.height:
        _paint_bar(p, LIST, lst, offset, ext)
    if state["focus"] == "list":
        if focus_index is not None:
            p.focus(f"open:{focus_index}", role="row" if not grid else "listitem", label=row_label(rows[focus_index]))
        else:
            p.focus("files-list", role="list", label="Files")


def row_label(row: model.Row) -> str:
    """A row's accessible name: the file name, with ``/`` after a folder's (``Matters/``),
    as the reference engine labels them (procedures target rows by this label)."""
    return row.name + "/" if row.kind == "dir" else row.name


def _row_detail(row: model.Row, listing: model.Listing) -> tuple[str, str]:
    if row.kind == "dir":
        size = model.format_items(row.size)
    elif row.kind == "link":
        size = "Broken link"
    else:
        size = model.format_size(row.size) if row.size >= 0 else "—"
    date = model.format_day_time(row.mtime, listing.today) if row.kind != "other" or row.mtime else "—"
    return size, date


def _paint_row(p: Painter, i: int, row: model.Row, r: Rect, selected: bool, cols: dict, with_location: bool, listing: model.Listing) -> None:
    pal = p.palette
    target = f"open:{i}"
    ink = pal["muted"] if row.cut else pal["text"]
    p.paint(
        Box(pal["selection"] if selected else (0, 0, 0, 0)),
        r,
        key=("row", i),
        target=target,
        semantic=Semantic("row", row_label(row), "folder" if row.kind == "dir" else "file", False, True),
        state=NodeState(selected=selected),
    )
    nx, nw = cols["name"]
    p.paint(AssetImage("folder" if row.kind == "dir" else "file"), Rect(nx, r.y + 4, 24, 24), key=("row-icon", i), target=target)
    lh = line_height(FONT, SIZE)
    ty = r.y + (r.height - lh) // 2
    _sem_text(p, row.name, nx + 32, ty, nw - 40, color=ink, target=target, key=("row-name", i))
    size, date = _row_detail(row, listing)
    if with_location:
        lx, lw = cols["location"]
        _sem_text(p, row.location, lx, ty, lw - 8, color=pal["muted"], target=target, key=("row-location", i))
    sx, sw = cols["size"]
    _sem_text(p, size, sx, ty, sw - 8, color=pal["muted"], target=target, key=("row-size", i))
    dx, dw = cols["date"]
    _sem_text(p, date, dx, ty, dw - 8, color=pal["muted"], target=target, key=("row-date", i))
    if not row.path.startswith(model.trash_dirs(listing.home)[0] + "/"):
        stx, _ = cols["star"]
        _star(p, i, row, Rect(stx + 4, r.y + 6, 20, 20))


def _star(p: Painter, i: int, row: model.Row, r: Rect) -> None:
    pal = p.palette
    target = f"files-star:{i}"
    p.paint(
        RoundedBox((0, 0, 0, 0), 4),
        r,
        key=("star", i),
        target=target,
        semantic=Semantic("button", f"Unstar {row.name}" if row.starred else f"Star {row.name}", None, False, True),
        state=NodeState(checked=row.starred),
    )
    p.paint(Symbol("star", pal["accent"] if row.starred else pal["border"], 14), Rect(r.x + 3, r.y + 3, 14, 14), key=("star-glyph", i), target=target)


def _paint_tile(p: Painter, i: int, row: model.Row, r: Rect, selected: bool, listing: model.Listing) -> None:
    pal = p.palette
    target = f"open:{i}"
    p.paint(
        RoundedBox(pal["selection"] if selected else (0, 0, 0, 0), 8),
        r,
        key=("row", i),
        target=target,
        semantic=Semantic("listitem", row_label(row), "folder" if row.kind == "dir" else "file", False, True),
        state=NodeState(selected=selected),
    )
    p.paint(AssetImage("folder" if row.kind == "dir" else "file"), Rect(r.x + (r.width - 56) // 2, r.y + 8, 56, 56), key=("row-icon", i), target=target)
    name = ellipsize(row.name, FONT, SMALL, r.width - 8)
    tw = measure(name, FONT, SMALL)
    p.paint(UiText(name, SMALL, pal["muted"] if row.cut else pal["text"]), Rect(r.x + (r.width - tw) // 2, r.y + 70, tw, line_height(FONT, SMALL)), key=("row-name", i), target=target)
    if not row.path.startswith(model.trash_dirs(listing.home)[0] + "/"):
        _star(p, i, row, Rect(r.right - 22, r.y + 2, 20, 20))


def _paint_status(p: Painter, state: dict, tab: dict, r: Rect, listing: model.Listing, sel_rows: list) -> None:
    pal = p.palette
    p.box(r, pal.get("header", pal["button"]), key="status-bg")
    p.box(Rect(r.x, r.y, r.width, 1), pal["border"], key="status-line")
    n = len(listing.rows)
    if len(sel_rows) == 1:
        row = sel_rows[0]
        detail = model.format_items(row.size) if row.kind == "dir" else model.format_size(max(0, row.size))
        text = f"“{row.name}” selected ({detail})"
    elif sel_rows:
        text = f"{len(sel_rows)} items selected"
    else:
        text = "1 item" if n == 1 else f"{n} items"
    if state["hidden"]:
        text += " · hidden files shown"
    lh = line_height(FONT, SMALL)
    p.paint(UiText(ellipsize(text, FONT, SMALL, max(0, r.width - 24)), SMALL, pal["muted"]), Rect(r.x + 12, r.y + (r.height - lh) // 2, min(measure(text, FONT, SMALL), max(0, r.width - 24)), lh), key="status-text", semantic=Semantic("status", text))
