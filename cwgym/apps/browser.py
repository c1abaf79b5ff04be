"""The web browser: a Firefox-like window — a tab strip, back, forward and reload, the
address bar, and the page laid out below them.

Each window is its own browser (its tabs, their histories, its cookies), held in the
window's state (:mod:`cwgym.apps._browser_model`); pages come over the world's network from
the window's machine, through the same engine ``browser.v1`` drives
(:mod:`cwgym.web.engine`), and are laid out by :mod:`cwgym.web.layout` — the one layout
that both draws the page and answers where a click lands.

Targets (``window:<id>:content:<target>``): ``tab:<n>``, ``tab-close:<n>``, ``new-tab``,
``back``, ``forward``, ``reload``, ``address``, ``page`` (the page's background),
``el:<element id>`` (a page element: link, button, field, checkbox, radio, select, or text),
``opt:<element id>:<index>`` (an option of an open select), and the page's scroll bar.

Keyboard, as in Firefox: Ctrl+L (or Alt+D, F6) focuses the address bar with its text
selected, Enter there loads what was typed (the omnibox rules), Escape puts the URL back;
Ctrl+T opens a tab, Ctrl+W closes one (the last closes the window), Ctrl+Tab and
Ctrl+Shift+Tab (or Ctrl+PageDown/PageUp) move between tabs, Alt+Left and Alt+Right go back
and forward, F5 or Ctrl+R reloads; Tab and Shift+Tab move between the address bar and the
page's controls; in a field, Enter submits its form (a text area takes it as a new line);
Space toggles a checkbox or chooses a radio, Enter or Space presses a button or follows a
link, ArrowUp/ArrowDown pick a select's option; elsewhere Space, PageDown, PageUp, the
arrows, Home and End scroll the page.

Native widgets (see ``docs/browser.md``): a disclosure's summary (``el:<id>``) toggles it on
a click, Enter or Space; a slider (``slider:<id>``, a drag surface) jumps to the step under a
press and follows a drag, and ArrowLeft/ArrowRight (or Down/Up), PageDown/PageUp (ten
steps), Home and End step it; a number field's spinner buttons (``el:<id>:up``,
``el:<id>:down``) and ArrowUp/ArrowDown step it, and it takes only what a number can be
typed with; a time field takes ``HH:MM`` as it is typed. A page's dialog is drawn over the
page pane; behind it the page is inert — a click there (``backdrop``) fails ``invalid`` —
and Tab moves among the dialog's controls.

More widgets: a field with suggestions shows, while focused and holding text, a dropdown of
those starting with it (``sug:<id>:<i>``); a click or ArrowDown/ArrowUp and Enter picks one
(without submitting), Escape closes it. A reorderable list's rows (``row:<id>:<k>``, drag
surfaces) are dragged to another row's place; with a row focused, ArrowUp/ArrowDown move the
focus and Alt+ArrowUp/Alt+ArrowDown move the row. A date field's calendar button
(``el:<id>:calendar``, or Alt+ArrowDown) opens its month (``cal:<id>:prev`` / ``next``,
``day:<id>:<YYYY-MM-DD>``; PageUp/PageDown change the month, Escape closes); the month
shown starts at the field's date, else at the machine's logical date. A colour field
(``el:<id>``, or Enter/Space) opens its palette (``swatch:<id>:<i>``; the arrows move
through it, Escape closes).

Kiosk: under a theme whose ``kiosk`` is true the window shows no tab strip and no toolbar;
the page fills the window, and the keyboard shortcuts still work.

The cross-family gate: loading what the address bar holds and clicking into the page need
``browser.v1``; without it they are denied ``browser_family_required``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import msgspec

from cwgym.apps import _browser_model as model
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.desktop.framework import App, AppContext, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.kernel.calendar import civil
from cwgym.kernel.clock import WORLD_EPOCH_S
from cwgym.protocol import errors
from cwgym.protocol.page import (
    PALETTE,
    Button,
    Checkbox,
    Details,
    Element,
    Heading,
    Input,
    Link,
    Page,
    Radio,
    Range,
    Select,
    SortList,
    TextArea,
    color_value,
    date_parts,
    range_value,
    step_bounds,
    stepped,
    suggestion_matches,
)
from cwgym.protocol.page import Text as PageText
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText
from cwgym.text import ellipsize, line_height, measure
from cwgym.web import engine
from cwgym.web import session as bs
from cwgym.web.engine import Browser, EngineError
from cwgym.web.layout import (
    HSCROLL_BAR,
    Control,
    DialogBox,
    LayoutError,
    PageLayout,
    Piece,
    calendar_pieces,
    caret_index,
    control_pieces,
    palette_pieces,
    slider_value_at,
    sort_row_at,
    suggestion_pieces,
)
from cwgym.web.layout import layout_page as _layout_page
from cwgym.web.omnibox import DEFAULT_ENGINE, OmniboxError, check_engine

__all__ = ["PANE", "BrowserApp", "browse"]

#: The page's scroll pane (``pane:page``).
PANE = "page"
#: Heights of the tab strip and the toolbar; the page starts below both.
TABS_H = 36
TOOLBAR_H = 42
CHROME_H = TABS_H + TOOLBAR_H
#: Width of the page's scroll bar.
BAR_W = 12
#: Pixels an arrow key scrolls; PageDown scrolls a view less this overlap.
LINE_STEP = 40
PAGE_OVERLAP = 40
#: The longest text a page field holds (typing past it is refused as ``invalid``).
FIELD_MAX = 4096
PAGE_BG = (255, 255, 255, 255)
TAB_STRIP = (240, 240, 244, 255)
TAB_ACTIVE = (255, 255, 255, 255)
OPTION_H = 28
BACKDROP = (0, 0, 0, 90)
#: What a number field can be typed with (a browser refuses other keys there).
NUMBER_CHARS = frozenset("0123456789.-+eE")

_TEXT_FIELDS = (Input, TextArea)
#: The window's state for the newer widgets: the highlighted suggestion (-1: none), the field
#: whose suggestions were closed (until it is typed into), the month a calendar shows
#: (``YYYY-MM``) and the reorderable list row being dragged.
_POPUP_STATE: dict[str, Any] = {"pick": -1, "shut": None, "month": None, "moving": None}


# -- geometry ------------------------------------------------------------------------------


def page_rect(width: int, height: int, kiosk: bool = False) -> Rect:
    """Where the page is shown, in content coordinates (all of it in a kiosk)."""
    top = 0 if kiosk else CHROME_H
    return Rect(0, top, max(0, width - BAR_W), max(0, height - top))


def _kiosk(ctx: AppContext) -> bool:
    """Whether the window's desktop theme is a kiosk (no browser chrome)."""
    return bool(getattr(getattr(ctx, "theme", None), "kiosk", False))


def _area(ctx: AppContext) -> Rect:
    return page_rect(ctx.width, ctx.height, _kiosk(ctx))


def _dialog_origin(area: Rect, box: DialogBox) -> tuple[int, int]:
    """Where a dialog's box goes: centred in the page pane (its top at the pane's top
    when it is taller)."""
    w, h = box.layout.width, box.layout.height
    return area.x + max(0, (area.width - w) // 2), area.y + max(0, (area.height - h) // 2)


def _tab_rects(width: int, count: int) -> list[Rect]:
    w = max(60, min(240, (width - 48) // max(1, count)))
    return [Rect(6 + i * w, 4, w - 4, TABS_H - 4) for i in range(count)]


def _toolbar(width: int) -> dict[str, Rect]:
    y = TABS_H + 5
    return {
        "back": Rect(8, y, 32, 32),
        "forward": Rect(44, y, 32, 32),
        "reload": Rect(80, y, 32, 32),
        "address": Rect(120, y, max(40, width - 132), 32),
    }


# -- the browser a window holds -------------------------------------------------------------


def _engine_of(ctx: AppContext) -> str:
    net = ctx.machine.net
    template = getattr(net, "search_engine", None) if net is not None else None
    if not template:
        return DEFAULT_ENGINE
    return check_engine(template)


def _reset_view(ctx: AppContext, state: dict[str, Any], url: str) -> None:
    state["focus"] = None
    state["element"] = None
    state["caret"] = 0
    state["anchor"] = None
    state["menu"] = None
    state.update(_POPUP_STATE)
    state["address"] = tp.field(_shown_url(url))
    ctx.set_scroll_offset(PANE, None)


def _shown_url(url: str) -> str:
    return "" if url == "about:blank" else url


def browse(ctx: AppContext, state: dict[str, Any], op: Callable[..., Browser]) -> Browser:
    """Run ``op(browser, request_fn, resolves)`` on the window's browser and keep the
    result; a new page (another URL, tab or history entry) resets the view to its top."""
    before = model.browser_of(state)
    fs = ctx.files()
    jar = model.load_cookies(fs, ctx.home)
    if jar != _sorted_jar(before.state.cookies):  # another window of the profile changed them
        before = msgspec.structs.replace(before, state=msgspec.structs.replace(before.state, cookies=jar))
    after = op(before, model.request_fn(ctx.machine), model.resolves(ctx.machine))
    if after.download is not None:  # a file, not a page: into ~/Downloads, the page stays
        model.keep_download(ctx.machine, after.download)
    if _sorted_jar(after.state.cookies) != jar:
        model.save_cookies(fs, ctx.home, after.state.cookies)
    model.store(state, after)
    was, now = before.state, after.state
    if (was.active, was.active_tab.index, was.current) != (now.active, now.active_tab.index, now.current) or before.page() is not after.page():
        _reset_view(ctx, state, after.url)
    return after


def _sorted_jar(jar: tuple) -> tuple:
    return tuple(sorted(jar, key=lambda j: j.host))


def _require_browser_family(ctx: AppContext) -> None:
    if not ctx.granted("browser.v1"):
        raise errors.ActionError(errors.DENIED, errors.BROWSER_FAMILY_REQUIRED)


class BrowserApp(App):
    id = "browser"
    label = "Web Browser"
    kind = "builtin"
    default_size = (1040, 720)
    min_size = (420, 300)
    focus_keys = ("focus", "element", "caret", "anchor", "menu", "pick", "shut", "month", "moving")

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        try:
            search = _engine_of(ctx)
        except ValueError:
            search = DEFAULT_ENGINE
        state = model.new_state(engine.open_browser(search))
        state.update({"focus": "address", "element": None, "caret": 0, "anchor": None, "menu": None,
                      "address": tp.field(), "drag": None, **_POPUP_STATE})
        if argument:
            browse(ctx, state, lambda b, rf, rs: engine.navigate(b, argument, rf, rs))
        return state

    def title(self, state: dict) -> str:
        b = model.browser_of(state)
        return f"{b.page().title or b.url} — Mozilla Firefox"

    def document(self, state: dict) -> str:
        return _shown_url(model.session_of(state).current.url)

    def tabs(self, state: dict) -> list[str]:
        b = model.browser_of(state)
        return [b.page(t.id).title or t.current.url for t in b.state.tabs]

    def active_tab(self, state: dict) -> int:
        s = model.session_of(state)
        return next(i for i, t in enumerate(s.tabs) if t.id == s.active)

    def location(self, state: dict) -> str:
        """Where the window is in its browsing: the active tab, its place in its history and
        the URL there (a change is the ``navigate`` effect)."""
        s = model.session_of(state)
        return f"{s.active}:{s.active_tab.index}:{s.current.url}"

    # -- what browser.v1 does in the window ---------------------------------------------
    def run(self, ctx: AppContext, state: dict, op: Callable[..., Browser]) -> None:
        """Apply a ``browser.v1`` op (``op(browser, request_fn, resolves)``) to the window."""
        browse(ctx, state, op)

    def scroll_to(self, ctx: AppContext, state: dict, where: tuple[str | None, int]) -> None:
        """``browser.v1 scroll``: the page to ``y`` (``(None, y)``), or the wide table
        ``row`` to ``x`` (``(row, x)``); kept within what the content allows."""
        row, px = where
        area = _area(ctx)
        layout = layout_page(model.laid_out(model.browser_of(state)), area.width)
        if row is None:
            ctx.set_scroll_offset(PANE, min(px, max(0, layout.height - area.height)))
            return
        wide = next((h for h in layout.hscrolls if h.id == row), None)
        if wide is None:
            raise EngineError("not_found", f"the page has no horizontally scrolling row {row!r}")
        ctx.set_scroll_offset(f"row:{row}", min(px, max(0, wide.extent - wide.rect.width)))

    # -- painting ----------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        return "kiosk" if _kiosk(ctx) else None

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        b = model.browser_of(state)
        kiosk = key == "kiosk"
        if not kiosk:
            self._paint_tabs(p, b)
            self._paint_toolbar(p, state, b)
        self._paint_page(p, state, b, kiosk)

    def _paint_tabs(self, p: Painter, b: Browser) -> None:
        pal = p.palette
        p.box(Rect(0, 0, p.width, TABS_H), TAB_STRIP, key="tab-strip")
        tabs = b.state.tabs
        rects = _tab_rects(p.width, len(tabs))
        for tab, rect in zip(tabs, rects):
            active = tab.id == b.state.active
            title = b.page(tab.id).title or _shown_url(tab.current.url) or "New Tab"
            name = f"tab:{tab.id}"
            p.paint(RoundedBox(TAB_ACTIVE if active else TAB_STRIP, 6, pal["border"] if active else None, 1 if active else 0),
                    rect, key=("tab", tab.id), target=name,
                    semantic=Semantic("tab", title, None, False, True), state=NodeState(selected=active))
            h = line_height("sans", 13)
            p.text(title, rect.x + 10, rect.y + (rect.height - h) // 2, size=13, width=max(0, rect.width - 40),
                   key=("tab-title", tab.id), target=name)
            close = Rect(rect.right - 24, rect.y + (rect.height - 20) // 2, 20, 20)
            p.paint(UiText("×", 16, pal["muted"]), close, key=("tab-close", tab.id), target=f"tab-close:{tab.id}",
                    semantic=Semantic("button", f"Close {title}", None, False, True))
        last = rects[-1] if rects else Rect(0, 4, 0, 0)
        plus = Rect(last.right + 6, 6, 28, 26)
        p.paint(UiText("+", 18, pal["text"]), plus, key="new-tab", target="new-tab",
                semantic=Semantic("button", "Open a new tab", None, False, True))

    def _paint_toolbar(self, p: Painter, state: dict, b: Browser) -> None:
        pal = p.palette
        p.box(Rect(0, TABS_H, p.width, TOOLBAR_H), TAB_ACTIVE, key="toolbar")
        p.box(Rect(0, CHROME_H - 1, p.width, 1), pal["border"], key="toolbar-rule")
        bar = _toolbar(p.width)
        labels = {"back": ("←", "Back", bs.can_go_back(b.state)),
                  "forward": ("→", "Forward", bs.can_go_forward(b.state)),
                  "reload": ("⟳", "Reload", b.url != "about:blank")}
        for name, (glyph, label, enabled) in labels.items():
            rect = bar[name]
            ink = pal["text"] if enabled else pal["muted"]
            p.paint(RoundedBox(TAB_ACTIVE, 6), rect, key=("tool", name), target=name,
                    semantic=Semantic("button", label, None, not enabled, True))
            w, h = measure(glyph, "sans", 16), line_height("sans", 16)
            p.paint(UiText(glyph, 16, ink), Rect(rect.x + (rect.width - w) // 2, rect.y + (rect.height - h) // 2, w, h),
                    key=("tool-glyph", name), target=name)
        tp.paint_field(p, "address", state["address"], bar["address"], label="Search or enter address",
                       focused=state["focus"] == "address", placeholder="Search or enter address")

    def _paint_page(self, p: Painter, state: dict, b: Browser, kiosk: bool) -> None:
        area = page_rect(p.width, p.height, kiosk)
        page = model.laid_out(b)
        layout = layout_page(page, area.width)
        p.paint(Box(PAGE_BG), area, key="page-bg", target="page",
                semantic=Semantic("document", page.title, b.url, False, False))
        offset = p.scroll(PANE, area, layout.height)
        self._paint_bar(p, area, layout.height, offset)
        values = b.values()
        index = _index(page)
        focused = state["element"] if state["focus"] == "page" else None
        top, bottom = offset, offset + area.height
        with p.clipped(area, dy=area.y - offset):
            hoff = {h.id: p.scroll(f"row:{h.id}", h.rect, h.extent, horizontal=True) for h in layout.hscrolls}
            views = {h.id: h.rect for h in layout.hscrolls}
            for h in layout.hscrolls:
                if h.rect.bottom > top and h.rect.y < bottom:
                    _paint_row_bar(p, h, hoff[h.id])
            p.reuse(("page", model.page_text(page), area.width, top, bottom, tuple(sorted(hoff.items()))),
                    _paint_static, layout, top, bottom, hoff)
            for control in layout.controls:
                if control.rect.bottom <= top or control.rect.y >= bottom or control.id not in index:
                    continue
                self._paint_control(p, state, control, index[control.id], values.get(control.id), control.id == focused,
                                    hoff, views)
            if focused is not None and focused in index and layout.control(focused) is not None and layout.dialog is None:
                self._paint_popup(p, state, layout.control(focused), index[focused], values.get(focused))
        if layout.dialog is not None:
            self._paint_dialog(p, state, layout.dialog, area, index, values, focused)

    def _paint_dialog(self, p: Painter, state: dict, box: DialogBox, area: Rect, index: dict[str, Element],
                      values: dict[str, str], focused: str | None) -> None:
        """The dialog over the page: a backdrop over the whole pane (the inert page behind),
        the framed box, its content and its controls."""
        ox, oy = _dialog_origin(area, box)
        inner = box.layout
        frame = Rect(ox, oy, inner.width, inner.height)
        p.paint(Box(BACKDROP), area, key="backdrop", target="backdrop", z=20)
        p.paint(RoundedBox(PAGE_BG, 8, p.palette["border"], 1), frame, key=("dialog", box.id), target=f"el:{box.id}",
                semantic=Semantic("dialog", box.title), z=21, clip=area)
        for i, piece in enumerate(inner.pieces):
            p.paint(piece.primitive, piece.rect.translate(ox, oy), key=("dpc", i),
                    target=f"el:{piece.element}" if piece.element else f"el:{box.id}",
                    semantic=piece.semantic, state=piece.state, z=21, clip=area)
        for control in inner.controls:
            if control.id in index:
                self._paint_control(p, state, control, index[control.id], values.get(control.id), control.id == focused,
                                    {}, {}, (ox, oy), 21, area)
        if focused is not None and focused in index and inner.control(focused) is not None:
            self._paint_popup(p, state, _moved(inner.control(focused), ox, oy), index[focused], values.get(focused))

    def _paint_popup(self, p: Painter, state: dict, control: Control, element: Element, value: str | None) -> None:
        """The focused control's open popup: a select's options, a field's suggestions, a
        date field's month or a colour field's palette."""
        if isinstance(element, Select):
            if state["menu"] == element.id:
                self._paint_options(p, control, element, value)
            return
        for i, piece in enumerate(_popup(state, control, element, value)):
            p.paint(piece.primitive, piece.rect, key=("popup", element.id, i), target=piece.element or "page",
                    semantic=piece.semantic, state=piece.state, z=30)

    def _paint_control(self, p: Painter, state: dict, control: Any, element: Element, value: str | None,
                       focused: bool, hoff: dict[str, int], views: dict[str, Rect], at: tuple[int, int] = (0, 0),
                       z: int = 0, clip: Rect | None = None) -> None:
        caret_at = state["caret"] if focused else None
        expanded = _expanded(state, element, value) if focused else (False if _has_popup(element) else None)
        pieces, caret = control_pieces(control, element, value, focused=focused, caret=caret_at, expanded=expanded)
        dx = (-hoff.get(control.hscroll, 0) if control.hscroll else 0) + at[0]
        dy = at[1]
        clip = views.get(control.hscroll) if control.hscroll else clip
        kind = "slider" if isinstance(element, Range) else "el"
        target = f"{kind}:{control.id}"
        part = "row" if isinstance(element, SortList) else "el"
        for i, piece in enumerate(pieces):
            p.paint(piece.primitive, piece.rect.translate(dx, dy), key=("ctl", control.id, i),
                    target=f"{part}:{piece.element}" if piece.element and piece.element != control.id else target,
                    semantic=piece.semantic, state=piece.state, clip=clip, z=z)
        if focused:
            role = _role_of(pieces)
            text_entry = _is_text_field(element)
            shown = _value_of(element, value)
            label = control.label
            if isinstance(element, SortList) and element.items:
                order = shown.split("\n")
                row = min(max(0, caret_at or 0), len(order) - 1)
                target, role, label = f"row:{control.id}:{row}", "option", order[row]
            p.focus(target, role=role, label=label, value=shown if text_entry or _is_color(element) else None,
                    caret=caret.translate(dx, dy) if caret is not None else None,
                    column=caret_at or 0, offset=caret_at or 0, text_entry=text_entry)

    def _paint_options(self, p: Painter, control: Control, select: Select, value: str | None) -> None:
        pal = p.palette
        chosen = _value_of(select, value)
        box = Rect(control.rect.x, control.rect.bottom + 2, max(control.rect.width, 160), OPTION_H * len(select.options) + 8)
        p.paint(RoundedBox(PAGE_BG, 4, pal["border"], 1), box, key=("menu", select.id), target=f"el:{select.id}",
                semantic=Semantic("listbox", select.label or select.name), z=30)
        for i, option in enumerate(select.options):
            row = Rect(box.x + 4, box.y + 4 + i * OPTION_H, box.width - 8, OPTION_H)
            on = option.value == chosen
            p.paint(Box(pal["selection"] if on else PAGE_BG), row, key=("opt", select.id, i), target=f"opt:{select.id}:{i}",
                    semantic=Semantic("option", option.label, None, False, True), state=NodeState(selected=on), z=30)
            h = line_height("sans", 14)
            p.paint(UiText(ellipsize(option.label, "sans", 14, row.width - 16), 14, pal["text"]),
                    Rect(row.x + 8, row.y + (row.height - h) // 2, min(row.width - 16, measure(option.label, "sans", 14)), h),
                    key=("opt-label", select.id, i), target=f"opt:{select.id}:{i}", z=30)

    def _paint_bar(self, p: Painter, area: Rect, extent: int, offset: int) -> None:
        if extent <= area.height or area.height <= 0:
            return
        track = Rect(area.right, area.y, BAR_W, area.height)
        pos, thumb, limit = tp.bar_geometry(track.height, area.height, extent, offset, 1)
        target = f"pane:{PANE}:{track.height}:{thumb}:{limit}"
        p.paint(Box((0, 0, 0, 18)), track, key="bar", target=target,
                semantic=Semantic("scrollbar", "Scroll", str(offset), False, False))
        p.paint(RoundedBox((0, 0, 0, 110), 3), Rect(track.x + 2, track.y + pos, track.width - 4, thumb), key="thumb", target=target)

    # -- pointer -----------------------------------------------------------------------
    def activate(self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None,
                 modifiers: tuple[str, ...] = ()) -> Any:
        if target == "backdrop":
            raise InvalidInput("the page behind the dialog is inert")
        if target.startswith(("el:", "opt:", "slider:", "sug:", "cal:", "day:", "swatch:", "row:")):
            _require_browser_family(ctx)
            if target.startswith("opt:"):
                return self._choose_option(ctx, state, target)
            if target.startswith("slider:"):
                return self._slide(ctx, state, target, point)
            if target.startswith(("sug:", "cal:", "day:", "swatch:", "row:")):
                return self._popup_target(ctx, state, target)
            if target.endswith((":up", ":down")) and target.count(":") == 2:
                return self._spin(ctx, state, target)
            if target.endswith(":calendar") and target.count(":") == 2:
                return self._toggle_calendar(ctx, state, target.split(":")[1], target)
            return self._activate_element(ctx, state, target[3:], point)
        if target == "page":
            state["focus"], state["element"], state["menu"] = None, None, None
            return None
        if target == "address":
            state["focus"], state["menu"] = "address", None
            tp.field_select_all(state["address"])
            return None
        if target in ("back", "forward", "reload"):
            self._history(ctx, state, target)
            return None
        if target == "new-tab":
            self._new_tab(ctx, state)
            return None
        if target.startswith(("tab:", "tab-close:")):
            kind, _, raw = target.partition(":")
            if not raw.isdigit():
                raise UnknownTarget(target)
            tab = int(raw)
            if model.session_of(state).tab(tab) is None:
                raise UnknownTarget(target)
            if kind == "tab":
                browse(ctx, state, lambda b, rf, rs: engine.switch_tab(b, tab))
            else:
                self._close_tab(ctx, state, tab)
            return None
        if tp.parse_bar(target, PANE) is not None or target.startswith("pane:row:"):
            return None  # the drag moved it; a wide table's bar answers the wheel
        raise UnknownTarget(target)

    def _activate_element(self, ctx: AppContext, state: dict, element_id: str, point: tuple[int, int] | None) -> None:
        b = model.browser_of(state)
        page = model.laid_out(b)
        element = _index(page).get(element_id)
        if element is None:
            raise UnknownTarget(f"el:{element_id}")
        state["menu"] = None if state["menu"] != element_id else state["menu"]
        if isinstance(element, (Link, Button)):
            self._follow(ctx, state, element_id)
        elif _is_color(element):
            self._focus(state, element_id)
            state["menu"] = None if state["menu"] == element_id else element_id
        elif isinstance(element, SortList):
            self._focus(state, element_id)
            state["caret"] = 0
        elif isinstance(element, (Checkbox, Radio, Details)):
            _act(ctx, state, lambda b, rf, rs: model.click(b, element_id, rf))
            self._focus(state, element_id)
        elif isinstance(element, _TEXT_FIELDS) and not (isinstance(element, Input) and element.type == "hidden"):
            self._focus(state, element_id)
            value = _value_of(element, b.values().get(element_id))
            caret = len(value)
            control = _where(ctx, page, element_id) if point is not None else None
            if control is not None and point is not None:
                was = state["caret"] if state["focus"] == "page" and state["element"] == element_id else None
                caret = caret_index(control, element, b.values().get(element_id), point[0], point[1], caret=was)
            state["caret"], state["anchor"] = caret, None
        elif isinstance(element, Range):
            self._focus(state, element_id)
        elif isinstance(element, Select):
            self._focus(state, element_id)
            state["menu"] = None if state["menu"] == element_id else element_id
        else:
            state["focus"], state["element"], state["menu"] = None, None, None

    def _choose_option(self, ctx: AppContext, state: dict, target: str) -> None:
        _, element_id_index = target.split(":", 1)
        element_id, _, raw = element_id_index.rpartition(":")
        page = model.browser_of(state).page()
        element = _index(page).get(element_id)
        if not isinstance(element, Select) or not raw.isdigit() or int(raw) >= len(element.options):
            raise UnknownTarget(target)
        value = element.options[int(raw)].value
        _act(ctx, state, lambda b, rf, rs: model.fill(b, element_id, value))
        self._focus(state, element_id)
        state["menu"] = None

    def _popup_target(self, ctx: AppContext, state: dict, target: str) -> None:
        """A suggestion, a calendar's month buttons or day, a palette's swatch, or a
        reorderable list's row (focused)."""
        kind, rest = target.split(":", 1)
        element_id, _, part = rest.rpartition(":")
        page = model.laid_out(model.browser_of(state))
        element = _index(page).get(element_id)
        value = _value_of(element, model.browser_of(state).values().get(element_id))
        if kind == "row" and isinstance(element, SortList) and part.isdigit() and int(part) < len(element.items):
            self._focus(state, element_id)
            state["caret"], state["menu"] = int(part), None
            return
        if kind == "sug" and isinstance(element, Input) and part.isdigit():
            matches = suggestion_matches(element, value)
            if int(part) < len(matches):
                return self._choose(ctx, state, element, matches[int(part)], shut=True)
        if kind == "cal" and _is_date(element) and part in ("prev", "next"):
            year, month = _shown_month(state, element, value, ctx)
            month += 1 if part == "next" else -1
            year, month = (year + 1, 1) if month > 12 else (year - 1, 12) if month < 1 else (year, month)
            if 1 <= year <= 9999:
                state["month"] = f"{year:04d}-{month:02d}"
            self._focus(state, element_id)
            state["menu"] = element_id
            return
        if kind == "day" and _is_date(element) and date_parts(part) is not None:
            return self._choose(ctx, state, element, part)
        if kind == "swatch" and _is_color(element) and part.isdigit() and int(part) < len(PALETTE):
            return self._choose(ctx, state, element, PALETTE[int(part)][1])
        raise UnknownTarget(target)

    def _choose(self, ctx: AppContext, state: dict, element: Input, value: str, *, shut: bool = False) -> None:
        """Put ``value`` in a field from its popup, and close the popup (a suggestion's
        list stays shut until the field is typed into)."""
        _act(ctx, state, lambda b, rf, rs: model.fill(b, element.id, value))
        self._focus(state, element.id)
        state["caret"], state["anchor"], state["menu"], state["pick"] = len(value), None, None, -1
        if shut:
            state["shut"] = element.id

    def _toggle_calendar(self, ctx: AppContext, state: dict, element_id: str, target: str) -> None:
        """A date field's calendar button: open its month (at the field's date, else the
        machine's), or close it."""
        b = model.browser_of(state)
        element = _index(model.laid_out(b)).get(element_id)
        if not _is_date(element):
            raise UnknownTarget(target)
        self._focus(state, element_id)
        if state["menu"] == element_id:
            state["menu"] = None
            return
        value = _value_of(element, b.values().get(element_id))
        state["menu"], state["month"] = element_id, None
        year, month = _shown_month(state, element, value, ctx)
        state["month"] = f"{year:04d}-{month:02d}"
        state["caret"], state["anchor"] = len(value), None

    def _move_row(self, ctx: AppContext, state: dict, element: SortList, source: int, dest: int) -> None:
        """Move a reorderable list's row ``source`` to ``dest``; the focus follows it."""
        b = model.browser_of(state)
        order = _value_of(element, b.values().get(element.id)).split("\n")
        dest = max(0, min(len(order) - 1, dest))
        if 0 <= source < len(order) and dest != source:
            order.insert(dest, order.pop(source))
            text = "\n".join(order)
            _act(ctx, state, lambda b, rf, rs: model.fill(b, element.id, text))
        self._focus(state, element.id)
        state["caret"] = dest

    def _slide(self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None) -> None:
        """A press on a slider: the step under it (just focus, without a point)."""
        element_id = target.split(":", 1)[1]
        page = model.laid_out(model.browser_of(state))
        element = _index(page).get(element_id)
        if not isinstance(element, Range):
            raise UnknownTarget(target)
        control = _where(ctx, page, element_id) if point is not None else None
        if control is not None and point is not None:
            value = slider_value_at(control, element, point[0])
            _act(ctx, state, lambda b, rf, rs: model.fill(b, element_id, value))
        self._focus(state, element_id)

    def _spin(self, ctx: AppContext, state: dict, target: str) -> None:
        """A number field's ▲ or ▼: one step up or down."""
        _, element_id, part = target.split(":")
        element = _index(model.browser_of(state).page()).get(element_id)
        if not (isinstance(element, Input) and element.type == "number"):
            raise UnknownTarget(target)
        self._step(ctx, state, element, 1 if part == "up" else -1)

    def _step(self, ctx: AppContext, state: dict, element: Input | Range, steps: int, *, to: str | None = None) -> None:
        b = model.browser_of(state)
        current = _value_of(element, b.values().get(element.id))
        if to is not None:
            low, high, _ = step_bounds(element)
            value = range_value(element, str(low if to == "min" else high))  # type: ignore[arg-type]
        else:
            value = stepped(element, range_value(element, current) if isinstance(element, Range) else current, steps)
        if value != current:
            _act(ctx, state, lambda b, rf, rs: model.fill(b, element.id, value))
        self._focus(state, element.id)
        state["caret"], state["anchor"] = len(value), None

    def is_drag_surface(self, target: str, button: int) -> bool:
        return button == 0 and (tp.parse_bar(target, PANE) is not None or target.startswith(("slider:", "row:")))

    def drag(self, ctx: AppContext, state: dict, target: str, phase: str, point: tuple[int, int], button: int,
             modifiers: tuple[str, ...] = (), clicks: int = 1) -> None:
        if target.startswith("slider:"):
            if phase in ("down", "move"):
                _require_browser_family(ctx)
                self._slide(ctx, state, target, point)
            return
        if target.startswith("row:"):
            self._drag_row(ctx, state, target, phase, point)
            return
        current = ctx.scroll_offset(PANE) or 0
        offset = tp.bar_drag(state, target, PANE, phase, point[1], _area(ctx).y, current)
        if offset is not None:
            ctx.set_scroll_offset(PANE, offset)

    def _drag_row(self, ctx: AppContext, state: dict, target: str, phase: str, point: tuple[int, int]) -> None:
        """A reorderable list's row: pressed, it is focused; released over another row's
        place, it moves there."""
        _require_browser_family(ctx)
        if phase == "down":
            self._popup_target(ctx, state, target)
            state["moving"] = {"id": state["element"], "row": state["caret"]}
            return
        moving, element_id = state.get("moving"), target.split(":", 1)[1].rpartition(":")[0]
        if phase == "move" or moving is None or moving["id"] != element_id:
            return
        state["moving"] = None
        if phase != "up":
            return
        page = model.laid_out(model.browser_of(state))
        element = _index(page).get(element_id)
        control = _where(ctx, page, element_id)
        if isinstance(element, SortList) and control is not None:
            self._move_row(ctx, state, element, moving["row"], sort_row_at(control, element, point[1]))

    def cursor(self, target: str) -> str | None:
        if target.startswith(("el:", "opt:", "slider:", "backdrop", "sug:", "cal:", "day:", "swatch:")):
            return None
        return "text" if target == "address" else None

    # -- keyboard ----------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        if name in ("Ctrl+l", "Alt+d", "F6"):
            state["focus"], state["menu"] = "address", None
            tp.field_select_all(state["address"])
            return True
        if name == "Ctrl+t":
            self._new_tab(ctx, state)
            return True
        if name == "Ctrl+w":
            self._close_tab(ctx, state, model.session_of(state).active)
            return True
        if name in ("Ctrl+Tab", "Ctrl+PageDown", "Ctrl+Shift+Tab", "Ctrl+PageUp"):
            s = model.session_of(state)
            ids = [t.id for t in s.tabs]
            step = -1 if name in ("Ctrl+Shift+Tab", "Ctrl+PageUp") else 1
            tab = ids[(ids.index(s.active) + step) % len(ids)]
            if tab != s.active:
                browse(ctx, state, lambda b, rf, rs: engine.switch_tab(b, tab))
            return True
        if name in ("Alt+ArrowLeft", "Alt+ArrowRight"):
            self._history(ctx, state, "back" if name == "Alt+ArrowLeft" else "forward")
            return True
        if name in ("F5", "Ctrl+r"):
            self._history(ctx, state, "reload")
            return True
        if name in ("Tab", "Shift+Tab"):
            self._cycle(ctx, state, -1 if chord.shift else 1)
            return True
        if state["focus"] == "address":
            return self._address_key(ctx, state, chord)
        if state["focus"] == "page" and state["element"] is not None:
            handled = self._element_key(ctx, state, chord)
            if handled is not None:
                return handled
        return self._scroll_key(ctx, state, name)

    def _address_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        field = state["address"]
        if chord.is_("Enter"):
            _require_browser_family(ctx)
            typed = field["text"].strip()
            if not typed:
                return True
            try:
                browse(ctx, state, lambda b, rf, rs: engine.navigate(b, typed, rf, rs))
            except OmniboxError:
                raise errors.ActionError(errors.INVALID) from None
            return True
        if chord.is_("Escape"):
            state["address"] = tp.field(_shown_url(model.session_of(state).current.url))
            state["focus"] = None
            return True
        return tp.field_key(ctx, field, chord)

    def _element_key(self, ctx: AppContext, state: dict, chord: Chord) -> bool | None:
        """A key for the focused page control; ``None`` when the control does not take it."""
        b = model.browser_of(state)
        element_id = state["element"]
        element = _index(model.laid_out(b)).get(element_id)
        if element is None:
            state["focus"], state["element"] = None, None
            return None
        name = chord.name
        handled = self._widget_key(ctx, state, element, b.values().get(element_id), name)
        if handled is not None:
            return handled
        if isinstance(element, Details) and chord.is_("Enter", "Space"):
            _require_browser_family(ctx)
            _act(ctx, state, lambda b, rf, rs: model.click(b, element_id, rf))
            self._focus(state, element_id)
            return True
        if isinstance(element, Range):
            steps = {"ArrowRight": 1, "ArrowUp": 1, "ArrowLeft": -1, "ArrowDown": -1, "PageUp": 10, "PageDown": -10}
            if name in steps or name in ("Home", "End"):
                _require_browser_family(ctx)
                self._step(ctx, state, element, steps.get(name, 0), to={"Home": "min", "End": "max"}.get(name))
                return True
            return None
        if isinstance(element, Input) and element.type == "number" and name in ("ArrowUp", "ArrowDown"):
            _require_browser_family(ctx)
            self._step(ctx, state, element, 1 if name == "ArrowUp" else -1)
            return True
        if _is_text_field(element):
            if chord.is_("Enter"):
                if isinstance(element, TextArea):
                    self.type(ctx, state, "\n")
                    return True
                _require_browser_family(ctx)
                self._submit(ctx, state, element_id)
                return True
            field = {"text": _value_of(element, b.values().get(element_id)), "caret": state["caret"], "anchor": state["anchor"]}
            before = field["text"]
            if isinstance(element, TextArea) and name in ("ArrowUp", "ArrowDown"):
                return True
            if not tp.field_key(ctx, field, chord):
                return None
            _check_typed(element, field["text"], before)
            self._set_field(ctx, state, element_id, field, before)
            return True
        if isinstance(element, (Link, Button)) and chord.is_("Enter", "Space"):
            _require_browser_family(ctx)
            self._follow(ctx, state, element_id)
            return True
        if isinstance(element, (Checkbox, Radio)) and chord.is_("Space"):
            _require_browser_family(ctx)
            _act(ctx, state, lambda b, rf, rs: model.click(b, element_id, rf))
            self._focus(state, element_id)
            return True
        if isinstance(element, Select):
            if chord.is_("Enter", "Space"):
                state["menu"] = None if state["menu"] == element_id else element_id
                return True
            if chord.is_("Escape") and state["menu"] is not None:
                state["menu"] = None
                return True
            if chord.is_("ArrowDown", "ArrowUp") and element.options:
                _require_browser_family(ctx)
                values = [o.value for o in element.options]
                chosen = _value_of(element, b.values().get(element_id))
                i = values.index(chosen) if chosen in values else 0
                j = max(0, min(len(values) - 1, i + (1 if chord.is_("ArrowDown") else -1)))
                _act(ctx, state, lambda b, rf, rs: model.fill(b, element_id, values[j]))
                self._focus(state, element_id)
                state["menu"] = element_id if state["menu"] == element_id else None
                return True
        return None

    def _widget_key(self, ctx: AppContext, state: dict, element: Element, typed: str | None, name: str) -> bool | None:
        """Keys of a field's suggestions, a date field's calendar, a colour field's palette
        and a reorderable list; ``None`` when the key is not theirs."""
        value = _value_of(element, typed)
        if isinstance(element, SortList) and element.items:
            row, last = min(max(0, state["caret"]), len(element.items) - 1), len(element.items) - 1
            moves = {"ArrowUp": row - 1, "ArrowDown": row + 1, "Home": 0, "End": last}
            if name in ("Alt+ArrowUp", "Alt+ArrowDown"):
                _require_browser_family(ctx)
                self._move_row(ctx, state, element, row, row + (1 if name == "Alt+ArrowDown" else -1))
                return True
            if name in moves:
                state["caret"] = max(0, min(last, moves[name]))
                return True
            return None
        if not isinstance(element, Input):
            return None
        if _is_color(element):
            if name in ("Enter", "Space"):
                state["menu"] = None if state["menu"] == element.id else element.id
                return True
            if name == "Escape" and state["menu"] == element.id:
                state["menu"] = None
                return True
            steps = {"ArrowRight": 1, "ArrowLeft": -1, "ArrowDown": 4, "ArrowUp": -4}
            if state["menu"] == element.id and name in steps:
                _require_browser_family(ctx)
                colours = [h for _, h in PALETTE]
                at = colours.index(value) if value in colours else -steps[name] if steps[name] > 0 else len(colours)
                chosen = colours[max(0, min(len(colours) - 1, at + steps[name]))]
                _act(ctx, state, lambda b, rf, rs: model.fill(b, element.id, chosen))
                return True
            return None
        if _is_date(element):
            if name == "Alt+ArrowDown":
                _require_browser_family(ctx)
                self._toggle_calendar(ctx, state, element.id, f"el:{element.id}:calendar")
                return True
            if state["menu"] == element.id and name == "Escape":
                state["menu"] = None
                return True
            if state["menu"] == element.id and name in ("PageUp", "PageDown"):
                self._popup_target(ctx, state, f"cal:{element.id}:{'prev' if name == 'PageUp' else 'next'}")
                return True
        matches = suggestion_matches(element, value)
        if not matches:
            return None
        shown = state.get("shut") != element.id
        pick = state.get("pick", -1) if shown else -1
        if name == "ArrowDown":
            state["shut"], state["pick"] = None, min(len(matches) - 1, pick + 1)
            return True
        if shown and name == "ArrowUp":
            state["pick"] = max(-1, pick - 1)
            return True
        if shown and name == "Enter" and 0 <= pick < len(matches):
            _require_browser_family(ctx)
            self._choose(ctx, state, element, matches[pick], shut=True)
            return True
        if shown and name == "Escape":
            state["shut"], state["pick"] = element.id, -1
            return True
        return None

    def _scroll_key(self, ctx: AppContext, state: dict, name: str) -> bool:
        area = _area(ctx)
        layout = layout_page(model.laid_out(model.browser_of(state)), area.width)
        limit = max(0, layout.height - area.height)
        current = _offset(ctx, layout, area)
        page_step = max(LINE_STEP, area.height - PAGE_OVERLAP)
        moves = {"Space": current + page_step, "PageDown": current + page_step, "Shift+Space": current - page_step,
                 "PageUp": current - page_step, "ArrowDown": current + LINE_STEP, "ArrowUp": current - LINE_STEP,
                 "Home": 0, "End": limit}
        if name not in moves:
            return False
        ctx.set_scroll_offset(PANE, max(0, min(limit, moves[name])))
        return True

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["focus"] == "address":
            tp.field_type(state["address"], text)
            return True
        if state["focus"] != "page" or state["element"] is None:
            return False
        b = model.browser_of(state)
        element_id = state["element"]
        element = _index(b.page()).get(element_id)
        if not _is_text_field(element):
            return False
        value = _value_of(element, b.values().get(element_id))
        field = {"text": value, "caret": max(0, min(state["caret"], len(value))), "anchor": state["anchor"]}
        if isinstance(element, TextArea):
            text = "".join(ch for ch in text.replace("\r\n", "\n").replace("\r", "\n") if ch.isprintable() or ch == "\n")
            s, e = sorted((field["caret"], field["anchor"] if field["anchor"] is not None else field["caret"]))
            if len(value) - (e - s) + len(text) > FIELD_MAX:
                raise InvalidInput(f"a field holds at most {FIELD_MAX} characters")
            field["text"], field["caret"], field["anchor"] = value[:s] + text + value[e:], s + len(text), None
        else:
            tp.field_type(field, text)
            _check_typed(element, field["text"], value)
        self._set_field(ctx, state, element_id, field, value)
        return True

    # -- what the controls do ------------------------------------------------------------
    def _set_field(self, ctx: AppContext, state: dict, element_id: str, field: dict, before: str) -> None:
        if len(field["text"]) > FIELD_MAX:
            raise InvalidInput(f"a field holds at most {FIELD_MAX} characters")
        if field["text"] != before:
            text = field["text"]
            _act(ctx, state, lambda b, rf, rs: model.fill(b, element_id, text, check=False))
            state["pick"] = -1  # what the field suggests is worked out afresh, and shown again
            if state.get("shut") == element_id:
                state["shut"] = None
        state["caret"], state["anchor"] = field["caret"], field["anchor"]

    def _focus(self, state: dict, element_id: str) -> None:
        state["focus"], state["element"] = "page", element_id

    def _follow(self, ctx: AppContext, state: dict, element_id: str) -> None:
        _act(ctx, state, lambda b, rf, rs: model.click(b, element_id, rf))

    def _submit(self, ctx: AppContext, state: dict, element_id: str) -> None:
        with contextlib.suppress(EngineError):  # a field outside any form: Enter does nothing, as in Firefox
            browse(ctx, state, lambda b, rf, rs: model.submit(b, element_id, rf))

    def _history(self, ctx: AppContext, state: dict, which: str) -> None:
        s = model.session_of(state)
        if which == "back" and not bs.can_go_back(s):
            return
        if which == "forward" and not bs.can_go_forward(s):
            return
        op = {"back": engine.back, "forward": engine.forward, "reload": engine.reload}[which]
        browse(ctx, state, lambda b, rf, rs: op(b, rf))
        if which == "reload":
            _reset_view(ctx, state, model.session_of(state).current.url)

    def _new_tab(self, ctx: AppContext, state: dict) -> None:
        browse(ctx, state, lambda b, rf, rs: engine.new_tab(b, None, rf, rs))
        state["focus"] = "address"
        state["address"] = tp.field()

    def _close_tab(self, ctx: AppContext, state: dict, tab: int) -> None:
        if len(model.session_of(state).tabs) == 1:
            ctx.close()
            return
        browse(ctx, state, lambda b, rf, rs: engine.close_tab(b, tab))

    def _cycle(self, ctx: AppContext, state: dict, step: int) -> None:
        """Tab / Shift+Tab: the next control in document order, the address bar between
        the last and the first."""
        area = _area(ctx)
        page = model.laid_out(model.browser_of(state))
        layout = layout_page(page, area.width)
        inside = layout.dialog.layout.controls if layout.dialog is not None else layout.controls  # a dialog keeps Tab
        order = [*(() if _kiosk(ctx) else ("address",)), *(c.id for c in inside)]
        if not order:
            return
        here = "address" if state["focus"] == "address" else state["element"] if state["focus"] == "page" else None
        i = order.index(here) if here in order else (-1 if step > 0 else 0)
        nxt = order[(i + step) % len(order)]
        state["menu"] = None
        if nxt == "address":
            state["focus"], state["element"] = "address", None
            tp.field_select_all(state["address"])
            return
        self._focus(state, nxt)
        element = _index(page).get(nxt)
        value = _value_of(element, model.browser_of(state).values().get(nxt)) if element is not None else ""
        state["caret"], state["anchor"] = (0 if isinstance(element, SortList) else len(value)), None
        state["pick"] = -1
        control = layout.control(nxt) if layout.dialog is None else None
        if control is not None:  # scroll it into view
            current = _offset(ctx, layout, area)
            if control.rect.y < current or control.rect.bottom > current + area.height:
                limit = max(0, layout.height - area.height)
                ctx.set_scroll_offset(PANE, max(0, min(limit, control.rect.y - 24)))


# -- helpers -------------------------------------------------------------------------------


def layout_page(page: Page, width: int) -> PageLayout:
    """The page's layout at ``width``, or, for a page too large to lay out, the browser's
    own page saying so (naming the element where it stopped)."""
    try:
        return _layout_page(page, width)
    except LayoutError as exc:
        return _layout_page(_too_large(page.title, str(exc)), width)


def _too_large(title: str, why: str) -> Page:
    return Page("This page is too large to show", (
        Heading("This page is too large to show", id="error-title"),
        PageText(f"{title}: {why}", id="error-detail"),
    ))


_indexes: dict[int, tuple[Page, dict[str, Element]]] = {}


def _index(page: Page) -> dict[str, Element]:
    """Element id -> element of ``page`` (memoised on the page object)."""
    hit = _indexes.get(id(page))
    if hit is not None and hit[0] is page:
        return hit[1]
    index = {e.id: e for e, _ in model.walk(page) if e.id}
    if len(_indexes) > 256:
        _indexes.clear()
    _indexes[id(page)] = (page, index)
    return index


def _act(ctx: AppContext, state: dict, op: Callable[..., Browser]) -> Browser:
    """:func:`browse` for the user's own gestures: what the page refuses (a value a field
    cannot take, the page behind a dialog) fails the action ``invalid``."""
    try:
        return browse(ctx, state, op)
    except EngineError as exc:
        raise InvalidInput(exc.message) from None


def _where(ctx: AppContext, page: Page, element_id: str) -> Control | None:
    """The control of ``element_id`` where it is on screen, in content coordinates (a wide
    table's scroll and the page's, or the dialog's place, applied)."""
    area = _area(ctx)
    layout = layout_page(page, area.width)
    if layout.dialog is not None:
        control = layout.dialog.layout.control(element_id)
        return _moved(control, *_dialog_origin(area, layout.dialog)) if control is not None else None
    control = layout.control(element_id)
    if control is None:
        return None
    dx = -(ctx.scroll_offset(f"row:{control.hscroll}") or 0) if control.hscroll else 0
    return _moved(control, dx, area.y - _offset(ctx, layout, area))


def _moved(control: Control, dx: int, dy: int) -> Control:
    return msgspec.structs.replace(control, rect=control.rect.translate(dx, dy), inner=control.inner.translate(dx, dy))


#: The starts of a valid ``HH:MM``: what a time field holds while it is typed into.
_TIME_PREFIX = re.compile(r"[0-2]?|[01]\d|2[0-3]|(?:[01]\d|2[0-3]):(?:[0-5]\d?)?")


def _check_typed(element: Element, text: str, before: str) -> None:
    """Refuse what a number or time field cannot be typed into: a number field takes the
    characters of a number, a time field ``HH:MM`` as it grows (``1``, ``12``, ``12:``,
    ``12:3``, ``12:34``)."""
    if not isinstance(element, Input) or text == before:
        return
    if element.type == "number" and not set(text) <= NUMBER_CHARS:
        raise InvalidInput(f"{element.id} takes a number")
    if element.type == "time" and not _TIME_PREFIX.fullmatch(text):
        raise InvalidInput(f"{element.id} takes a time as HH:MM")


def _is_color(element: Element | None) -> bool:
    return isinstance(element, Input) and element.type == "color"


def _is_date(element: Element | None) -> bool:
    return isinstance(element, Input) and element.type == "date"


def _is_text_field(element: Element | None) -> bool:
    """A field the keyboard types into (a colour field is a button)."""
    return isinstance(element, _TEXT_FIELDS) and not _is_color(element)


def _has_popup(element: Element) -> bool:
    return isinstance(element, Input) and (element.type in ("date", "color") or bool(element.suggestions))


def _expanded(state: dict, element: Element, value: str | None) -> bool | None:
    """Whether a focused control's popup is open (None: it has none)."""
    if not _has_popup(element):
        return None
    return bool(_popup(state, None, element, value))


def _popup(state: dict, control: Control | None, element: Element, value: str | None) -> tuple[Piece, ...]:
    """The pieces of the focused field's open popup (any non-empty tuple when ``control``
    is None: only whether one is open is asked)."""
    if not isinstance(element, Input):
        return ()
    shown = _value_of(element, value)
    if state["menu"] == element.id and element.type == "date":
        if control is None:
            return (None,)  # type: ignore[return-value]
        year, month = _shown_month(state, element, shown, None)
        return calendar_pieces(control, year, month, shown)
    if state["menu"] == element.id and element.type == "color":
        return (None,) if control is None else palette_pieces(control, shown)  # type: ignore[return-value]
    matches = suggestion_matches(element, shown) if state.get("shut") != element.id else ()
    if not matches:
        return ()
    return (None,) if control is None else suggestion_pieces(control, matches, state.get("pick", -1))  # type: ignore[return-value]


def _shown_month(state: dict, element: Input, value: str, ctx: AppContext | None) -> tuple[int, int]:
    """The month a date field's calendar shows: the one it was moved to, else the field's
    date's, else the machine's logical date's (January 2026 when no clock is at hand)."""
    kept = state.get("month")
    if kept and state["menu"] == element.id:
        parts = date_parts(f"{kept}-01")
        if parts is not None:
            return parts[0], parts[1]
    parts = date_parts(value)
    if parts is not None:
        return parts[0], parts[1]
    if ctx is None:
        return 2026, 1
    year, month, *_ = civil(WORLD_EPOCH_S + ctx.now_us // 1_000_000)
    return year, month


def _value_of(element: Element | None, value: str | None) -> str:
    """What a field shows: the typed value, else the element's own."""
    if value is not None:
        return value
    if isinstance(element, Range):
        return range_value(element)
    if isinstance(element, SortList):
        return "\n".join(element.items)
    if _is_color(element):
        return color_value(element)  # type: ignore[arg-type]
    if isinstance(element, (Input, TextArea, Select)):
        if isinstance(element, Select) and not element.value and element.options:
            return element.options[0].value
        return element.value
    return ""


def _offset(ctx: AppContext, layout: PageLayout, area: Rect) -> int:
    stored = ctx.scroll_offset(PANE) or 0
    return max(0, min(stored, max(0, layout.height - area.height)))


def _role_of(pieces: tuple) -> str:
    """The role of the piece of a control that carries its semantic."""
    return next((pc.semantic.role for pc in pieces if pc.semantic is not None), "")


def _paint_row_bar(p: Painter, wide: Any, offset: int) -> None:
    """The scroll bar along the bottom of a table wider than the page."""
    track = Rect(wide.rect.x, wide.rect.bottom - HSCROLL_BAR, wide.rect.width, HSCROLL_BAR)
    pos, thumb, _ = tp.bar_geometry(track.width, wide.rect.width, wide.extent, offset, 1)
    p.paint(Box((0, 0, 0, 18)), track, key=("row-bar", wide.id), target=f"pane:row:{wide.id}",
            semantic=Semantic("scrollbar", "Scroll sideways", str(offset), False, False))
    p.paint(RoundedBox((0, 0, 0, 110), 3), Rect(track.x + pos, track.y + 2, thumb, track.height - 4),
            key=("row-thumb", wide.id), target=f"pane:row:{wide.id}")


def _paint_static(p: Painter, layout: PageLayout, top: int, bottom: int, hoff: dict[str, int]) -> None:
    views = {h.id: h.rect for h in layout.hscrolls}
    for i, piece in layout.visible(top, bottom):
        rect, clip = piece.rect, None
        if piece.hscroll:  # a wide table's piece: shifted by its scroll, clipped to its view
            rect, clip = rect.translate(-hoff.get(piece.hscroll, 0), 0), views.get(piece.hscroll)
        p.paint(piece.primitive, rect, key=("pc", i), target=f"el:{piece.element}" if piece.element else "page",
                semantic=piece.semantic, state=piece.state, clip=clip)


register(BrowserApp())
