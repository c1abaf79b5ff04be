"""``docs``: a word processor in the manner of LibreOffice Writer.

A window holds one document: paragraphs with a style (Body Text, Heading 1-3, List Bullet,
List Number) and bold and italic spans (the model is :mod:`cwgym.apps._richtext`), laid
out with proportional fonts on a white sheet. It opens and saves Markdown (``.md``) and a
native JSON format (``.cwdoc``); any other file given to it is read as Markdown. The
title is ``<file name> — <the theme's label>`` (``report.md — LibreOffice Writer``), with
``• `` in front while there are unsaved changes; a new document is ``Untitled 1``.

Layout (content coordinates): the toolbar (Open, Save, Save As…, Undo, Redo, the
paragraph style box, Bold, Italic, Toggle Unordered List, Toggle Ordered List); the open
bar when shown; the page (the scroll pane ``pane:page``); the status bar (a message or
the paragraph, the style, and the word and character count).

Control targets (``window:<id>:content:<target>``): ``open``, ``save``, ``save-as``,
``undo``, ``redo``, ``style`` (opens the style list) and its items ``style:<id>`` for
``body``, ``h1``, ``h2``, ``h3``, ``bullet``, ``number`` (they also answer while the list
is shut), ``bold``, ``italic``, ``bullets``, ``numbering``; ``page`` (the document: a
drag surface; a press places the caret, a drag selects); the open bar's ``open-path``,
``open-confirm``, ``open-cancel``; the Save As dialog's ``save-name``, ``save-folder``,
``save-cancel``, ``save-confirm``; the unsaved-changes dialog's ``close-cancel``,
``close-discard``, ``close-save``; the context menu's ``menu:cut``, ``menu:copy``,
``menu:paste``, ``menu:select-all`` and ``menu-dismiss``.

See docs/apps/docs.md for keys, files, caps and what it does not do.
"""

from __future__ import annotations

import bisect
import copy
import posixpath
from typing import Any

from cwgym.apps import _richtext as rt
from cwgym.apps import _save_dialog as sd
from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, Text, UiText, UiTextBold
from cwgym.text import line_height, measure

__all__ = ["MAX_CHARS", "MAX_PARAGRAPHS", "MAX_PARA_CHARS", "MAX_UNDO", "Docs"]

#: The most characters a document holds (typing or pasting past it is refused).
MAX_CHARS = 100_000
#: The most paragraphs a document holds.
MAX_PARAGRAPHS = 2_000
#: The most characters one paragraph holds.
MAX_PARA_CHARS = 10_000
#: Undo steps kept.
MAX_UNDO = 100
UNTITLED = "Untitled 1"
DIRTY_MARK = "• "
SUFFIXES = (".md", ".markdown", ".cwdoc")

TOOLBAR_H = 46
BAR_H = 44
STATUS_H = 26
SHEET_W = 794
GAP = 24
MARGIN_Y = 56
ITALIC_INK = (92, 52, 150, 255)
SHEET = (255, 255, 255, 255)
PAGE_BG = (214, 214, 214, 255)
INK = (30, 30, 30, 255)
TEXT_BUTTONS = (
    ("open", "Open"),
    ("save", "Save"),
    ("save-as", "Save As…"),
    ("undo", "Undo"),
    ("redo", "Redo"),
)
TOGGLES = (
    ("bold", "B", "Bold"),
    ("italic", "I", "Italic"),
    ("bullets", "•≡", "Toggle Unordered List"),
    ("numbering", "1≡", "Toggle Ordered List"),
)
MENU = (
    ("menu:cut", "Cut"),
    ("menu:copy", "Copy"),
    ("menu:paste", "Paste"),
    ("menu:select-all", "Select All"),
)
DIALOG_TARGETS = {
    "save-as": ("save-name", "save-folder", "save-cancel", "save-confirm"),
    "close": ("close-cancel", "close-discard", "close-save"),
}
ROLES = {
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "bullet": "listitem",
    "number": "listitem",
    "body": "paragraph",
}


# -- geometry ------------------------------------------------------------------------------


def _toolbar(width: int) -> dict[str, Rect]:
    out: dict[str, Rect] = {}
    x = 8
    for name, label in TEXT_BUTTONS:
        w = measure(label, "sans", 14) + 22
        out[name] = Rect(x, 7, w, 32)
        x += w + 4
    x += 8
    out["style"] = Rect(x, 7, 150, 32)
    x += 158
    for name, _glyph, _label in TOGGLES:
        out[name] = Rect(x, 7, 36, 32)
        x += 40
    return out


class _Geom:
    __slots__ = ("bar", "sheet_w", "sheet_x", "status", "text_w", "text_x", "view")

    def __init__(self, width: int, height: int, state: dict) -> None:
        y = TOOLBAR_H
        self.bar: Rect | None = None
        if state["open"] is not None:
            self.bar = Rect(0, y, width, BAR_H)
            y += BAR_H
        self.status = Rect(0, max(y, height - STATUS_H), width, STATUS_H)
        self.view = Rect(0, y, width, max(0, self.status.y - y))
        self.sheet_w = max(240, min(SHEET_W, width - 2 * GAP))
        self.sheet_x = (width - self.sheet_w) // 2
        margin = 72 if self.sheet_w >= 600 else 28
        self.text_x = self.sheet_x + margin
        self.text_w = self.sheet_w - 2 * margin


def _bar_controls(width: int, bar: Rect) -> dict[str, Rect]:
    widths = [measure(label, "sans", 14) + 24 for label in ("Open File", "Cancel")]
    field_w = max(160, min(420, width - 40 - sum(widths)))
    out = {"open-path": Rect(8, bar.y + 6, field_w, 32)}
    x = 8 + field_w + 6
    for name, w in zip(("open-confirm", "open-cancel"), widths):
        out[name] = Rect(x, bar.y + 6, w, 32)
        x += w + 6
    return out


DIALOG = sd.DialogStyle(260, 440, "Save Document?", "Name (.md or .cwdoc)")


def _dialog_rects(width: int, height: int, kind: str) -> tuple[Rect, dict[str, Rect]]:
    return sd.dialog_rects(width, height, kind, DIALOG)


class _Flow:
    """The document laid out at a width: where each paragraph starts (from the text top)."""

    __slots__ = ("height", "layouts", "tops")

    def __init__(self, doc: list, width: int) -> None:
        self.layouts = [rt.layout(p, width) for p in doc]
        self.tops = []
        y = 0
        for lay in self.layouts:
            self.tops.append(y)
            y += lay.height
        self.height = y

    def caret(self, pos: list) -> tuple[int, int, int]:
        """``(x from the text's left edge, y from the text top, height)`` of the caret."""
        p, o = pos
        lay = self.layouts[p]
        i = lay.line_of(o)
        _a, _b, y, h, _s = lay.lines[i]
        return lay.indent + lay.x_of(o, i), self.tops[p] + lay.space_before + y, h

    def locate(self, x: int, y: int) -> list:
        """The position nearest to ``(x, y)`` (from the text's left edge and top)."""
        if not self.layouts:
            return [0, 0]
        p = max(0, bisect.bisect_right(self.tops, y) - 1)
        lay = self.layouts[p]
        rel = y - self.tops[p] - lay.space_before
        line = 0
        for i, (_a, _b, ly, lh, _s) in enumerate(lay.lines):
            if rel >= ly:
                line = i
            if rel < ly + lh:
                break
        return [p, lay.offset_at(line, x - lay.indent)]


# -- document helpers ----------------------------------------------------------------------


def _empty_doc() -> list:
    return [rt.para("body")]


def _new_doc(path: str | None, doc: list, kind: str) -> dict[str, Any]:
    return {
        "path": path,
        "format": kind,
        "doc": doc or _empty_doc(),
        "dirty": False,
        "caret": [0, 0],
        "anchor": None,
        "pending": None,
        "goal": None,
        "undo": [],
        "redo": [],
        "group": None,
        "space_typed": False,
    }


def _order(a: list, b: list) -> tuple[list, list]:
    return (a, b) if (a[0], a[1]) <= (b[0], b[1]) else (b, a)


def _span(state: dict) -> tuple[list, list]:
    c, a = state["caret"], state["anchor"]
    if a is None or a == c:
        return c, c
    return _order(a, c)


def _kind_of(path: str) -> str:
    return "cwdoc" if path.lower().endswith(".cwdoc") else "md"


def _savable(path: str) -> bool:
    return path.lower().endswith(SUFFIXES)


def _resolve(raw: str, home: str, base: str) -> str:
    raw = raw.strip()
    if raw == "~":
        return home
    if raw.startswith("~/"):
        return posixpath.normpath(home + raw[1:])
    if raw.startswith("/"):
        return posixpath.normpath(raw)
    return posixpath.normpath(f"{base.rstrip('/')}/{raw}")


def _check_caps(doc: list) -> None:
    if len(doc) > MAX_PARAGRAPHS:
        raise rt.BadFile(f"it has more than {MAX_PARAGRAPHS} paragraphs")
    total = 0
    for p in doc:
        n = rt.length(p)
        if n > MAX_PARA_CHARS:
            raise rt.BadFile(f"a paragraph is longer than {MAX_PARA_CHARS} characters")
        total += n
    if total > MAX_CHARS:
        raise rt.BadFile(f"it has more than {MAX_CHARS} characters")


def _load(ctx: AppContext, path: str) -> tuple[list, str]:
    """The document in ``path`` and its format; :class:`FsError` or :class:`rt.BadFile`."""
    data = ctx.files().read(path, ctx.home)
    if b"\0" in data:
        raise rt.BadFile("it is not a text document")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise rt.BadFile("it is not UTF-8 text") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    kind = _kind_of(path)
    doc = rt.from_cwdoc(text) if kind == "cwdoc" else rt.from_markdown(text)
    _check_caps(doc)
    return doc, kind


def _word_span(text: str, o: int) -> tuple[int, int] | None:
    """The word the caret is strictly inside of (Writer formats it without a selection)."""
    if 0 < o < len(text) and text[o - 1].isalnum() and text[o].isalnum():
        s, e = tp.word_at(text, o)
        return s, e
    return None


class Docs(App):
    id = "docs"
    label = "LibreOffice Writer"
    kind = "native"
    default_size = (980, 660)
    min_size = (760, 400)
    opens = SUFFIXES
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        label = ctx.theme.label(self.id, self.label) if ctx.theme is not None else self.label
        state = _new_doc(None, [], "cwdoc")
        state.update(
            {
                "label": label,
                "focus": "page",
                "open": None,
                "dialog": None,
                "menu": None,
                "styles": False,
                "status": "",
                "error": False,
                "drag": None,
                "clicks": None,
                "clip": None,
            }
        )
        if argument:
            path = _resolve(argument, ctx.home, ctx.cwd)
            files = ctx.files()
            if files.is_dir(path, ctx.home):
                raise AppError(f"{path} is a folder, not a document")
            if not files.exists(path, ctx.home):
                state.update(_new_doc(path, [], _kind_of(path)))
                state["status"] = (
                    f"“{posixpath.basename(path)}” is new: it is created when you save."
                )
                return state
            try:
                doc, kind = _load(ctx, path)
            except FsError as exc:
                state["status"], state["error"] = (
                    f"Could not open “{posixpath.basename(path)}”: {exc.strerror_text}.",
                    True,
                )
                return state
            except rt.BadFile as exc:
                state["status"], state["error"] = (
                    f"Could not open “{posixpath.basename(path)}”: {exc}.",
                    True,
                )
                return state
            state.update(_new_doc(path, doc, kind))
            add_recent(ctx.machine, path, self.id)
        return state

    def title(self, state: dict) -> str:
        return f"{DIRTY_MARK if state['dirty'] else ''}{self._doc_name(state)} — {state['label']}"

    def document(self, state: dict) -> str:
        return state["path"] or ""

    @staticmethod
    def _doc_name(state: dict) -> str:
        return posixpath.basename(state["path"]) if state["path"] else UNTITLED

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        pal = p.palette
        g = _Geom(p.width, p.height, state)
        doc = state["doc"]
        dialog = state["dialog"]
        cur = doc[state["caret"][0]]
        self._paint_toolbar(p, state, cur)
        if g.bar is not None:
            p.box(g.bar, pal["window"], key="bar-bg")
            controls = _bar_controls(p.width, g.bar)
            tp.paint_field(
                p,
                "open-path",
                state["open"],
                controls["open-path"],
                label="File to open",
                focused=state["focus"] == "open" and dialog is None,
                placeholder="Type a path, like ~/Documents/report.md",
            )
            p.button("open-confirm", "Open File", controls["open-confirm"], suggested=True)
            p.button("open-cancel", "Cancel", controls["open-cancel"])
        # the page
        flow = _Flow(doc, g.text_w)
        extent = GAP + MARGIN_Y + flow.height + MARGIN_Y + GAP
        top = p.scroll("page", g.view, extent)
        focused = state["focus"] == "page" and dialog is None
        p.paint(Box(PAGE_BG), g.view, key="page-bg", target="page")
        with p.clipped(g.view):
            base = g.view.y + GAP - top
            sheet_h = max(extent - 2 * GAP, g.view.height - 2 * GAP)
            p.paint(
                Box(SHEET, (190, 190, 190, 255), 1),
                Rect(g.sheet_x, base, g.sheet_w, sheet_h),
                key="sheet",
                target="page",
                semantic=Semantic("textbox", self._doc_name(state), rt.plain(doc), False, True),
                state=NodeState(focused=focused),
            )
            ty = base + MARGIN_Y
            self._paint_text(p, state, flow, g, ty, top)
            cx, cy, ch = flow.caret(state["caret"])
            caret = Rect(g.text_x + cx, ty + cy, 2, ch)
            if focused:
                p.paint(Box(INK), caret, key="caret", target="page")
        if focused:
            p.focus(
                "page",
                role="textbox",
                label=self._doc_name(state),
                value=rt.plain(doc),
                caret=caret,
                line=state["caret"][0],
                column=state["caret"][1],
                offset=self._offset(state, state["caret"]),
                text_entry=True,
            )
        self._paint_status(p, state, g, cur)
        if state["styles"] and dialog is None:
            self._paint_styles(p, state, cur)
        if dialog is not None:
            self._paint_dialog(p, state, dialog)
        elif state["menu"] is not None:
            s, e = _span(state)
            has = s != e
            tp.paint_menu(
                p,
                state["menu"],
                [(t, label, has or t in ("menu:paste", "menu:select-all")) for t, label in MENU],
            )

    def _paint_toolbar(self, p: Painter, state: dict, cur: dict) -> None:
        pal = p.palette
        rects = _toolbar(p.width)
        p.box(Rect(0, 0, p.width, TOOLBAR_H), pal.get("header", pal["button"]), key="toolbar")
        for name, label in TEXT_BUTTONS:
            disabled = (name == "undo" and not state["undo"]) or (
                name == "redo" and not state["redo"]
            )
            p.button(
                name,
                label,
                rects[name],
                disabled=disabled,
                suggested=name == "save" and state["dirty"],
            )
        r = rects["style"]
        style_name = rt.STYLE_NAMES[cur["style"]]
        p.paint(
            RoundedBox(pal["field"], 6, pal["accent"] if state["styles"] else pal["border"], 1),
            r,
            key="style-box",
            target="style",
            semantic=Semantic("combobox", "Paragraph Style", style_name, False, True),
            state=NodeState(expanded=state["styles"]),
        )
        h = line_height("sans", 14)
        shown = style_name + "  ▾"
        p.paint(
            UiText(shown, 14, pal["text"]),
            Rect(r.x + 10, r.y + (r.height - h) // 2, measure(shown, "sans", 14), h),
            key="style-text",
            target="style",
        )
        s, e = _span(state)
        fmt = self._format_here(state)
        styles = {d["style"] for d in state["doc"][s[0] : e[0] + 1]}
        checked = {
            "bold": bool(fmt & rt.BOLD),
            "italic": bool(fmt & rt.ITALIC),
            "bullets": styles == {"bullet"},
            "numbering": styles == {"number"},
        }
        for name, glyph, label in TOGGLES:
            r = rects[name]
            on = checked[name]
            p.paint(
                RoundedBox(
                    pal["selection"] if on else pal["button"],
                    6,
                    pal["accent"] if on else pal["border"],
                    1,
                ),
                r,
                key=("toggle", name),
                target=name,
                semantic=Semantic("togglebutton", label, None, False, True),
                state=NodeState(checked=on),
            )
            font = "sans-bold" if name == "bold" else "sans"
            w = measure(glyph, font, 15)
            gh = line_height(font, 15)
            prim = (
                UiTextBold(glyph, 15, pal["text"])
                if name == "bold"
                else UiText(glyph, 15, ITALIC_INK if name == "italic" else pal["text"])
            )
            p.paint(
                prim,
                Rect(r.x + (r.width - w) // 2, r.y + (r.height - gh) // 2, w, gh),
                key=("toggle-glyph", name),
                target=name,
            )

    def _paint_text(
        self, p: Painter, state: dict, flow: _Flow, g: _Geom, ty: int, top: int
    ) -> None:
        pal = p.palette
        doc = state["doc"]
        view_top = top - GAP - MARGIN_Y
        view_bottom = view_top + g.view.height
        first = max(0, bisect.bisect_right(flow.tops, view_top) - 1)
        s, e = _span(state)
        number = 0
        # list numbers count the run of numbered paragraphs up to the first painted one
        i = first - 1
        while i >= 0 and doc[i]["style"] == "number":
            number += 1
            i -= 1
        for pi in range(first, len(doc)):
            pt = flow.tops[pi]
            if pt > view_bottom:
                break
            para = doc[pi]
            lay = flow.layouts[pi]
            style = para["style"]
            number = number + 1 if style == "number" else 0
            y0 = ty + pt + lay.space_before
            body_h = lay.lines[-1][2] + lay.lines[-1][3]
            text = lay.text
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(g.text_x, y0, g.text_w, body_h),
                key=("para", pi),
                target="page",
                semantic=Semantic(ROLES[style], text, rt.STYLE_NAMES[style]),
            )
            if style in rt.LISTS:
                marker = "•" if style == "bullet" else f"{number}."
                mh = line_height("sans", lay.size)
                p.paint(
                    Text(marker, lay.size, INK, "sans"),
                    Rect(g.text_x + 6, y0 + 2, measure(marker, "sans", lay.size), mh),
                    key=("marker", pi),
                    target="page",
                )
            # the selection on this paragraph
            if s != e and s[0] <= pi <= e[0]:
                a = s[1] if pi == s[0] else 0
                b = e[1] if pi == e[0] else len(text)
                for li, (la, lb, ly, lh, _segs) in enumerate(lay.lines):
                    x0, x1 = max(a, la), min(b, lb)
                    eol = pi < e[0] and li == len(lay.lines) - 1
                    if x0 < x1 or (eol and x0 <= x1):
                        px0 = lay.indent + lay.x_of(x0, li)
                        px1 = lay.indent + lay.x_of(x1, li) + (6 if eol else 0)
                        p.paint(
                            Box(pal["selection"]),
                            Rect(g.text_x + px0, y0 + ly, px1 - px0, lh),
                            key=("sel", pi, li),
                            target="page",
                        )
            for li, (_la, _lb, ly, lh, segs) in enumerate(lay.lines):
                for k, (_ss, _se, sx, font, fmt, piece) in enumerate(segs):
                    if not piece:
                        continue
                    ink = ITALIC_INK if fmt & rt.ITALIC else INK
                    fh = line_height(font, lay.size)
                    p.paint(
                        Text(piece, lay.size, ink, font),
                        Rect(
                            g.text_x + lay.indent + sx,
                            y0 + ly + (lh - fh) // 2,
                            measure(piece, font, lay.size),
                            fh,
                        ),
                        key=("seg", pi, li, k),
                        target="page",
                    )

    def _paint_status(self, p: Painter, state: dict, g: _Geom, cur: dict) -> None:
        pal = p.palette
        st = g.status
        p.box(st, pal.get("header", pal["button"]), key="status-bg")
        ty = st.y + (st.height - line_height("sans", 13)) // 2
        doc = state["doc"]
        total_w = sum(rt.words(rt.text_of(d)) for d in doc)
        total_c = sum(rt.length(d) for d in doc)
        s, e = _span(state)
        if s != e:
            frag = rt.fragment(doc, s, e)
            sel = "\n".join(rt.text_of(d) for d in frag)
            count = f"Selected: {rt.words(sel)} words, {len(sel) - sel.count(chr(10))} characters"
        else:
            count = f"{total_w} word{'s' if total_w != 1 else ''}, {total_c} character{'s' if total_c != 1 else ''}"
        cw = measure(count, "sans", 13)
        p.paint(
            UiText(count, 13, pal["muted"]),
            Rect(st.right - cw - 12, ty, cw, line_height("sans", 13)),
            key="count",
            semantic=Semantic("status", count),
        )
        where = f"Paragraph {state['caret'][0] + 1} of {len(doc)}   {rt.STYLE_NAMES[cur['style']]}"
        left = state["status"] or where
        width = max(0, st.width - cw - 40)
        p.paint(
            UiText(left, 13, ERROR if state["status"] and state["error"] else pal["muted"]),
            Rect(10, ty, min(width, measure(left, "sans", 13)), line_height("sans", 13)),
            key="status",
            semantic=Semantic("alert" if state["error"] and state["status"] else "status", left),
            clip=Rect(10, st.y, width, st.height),
        )

    def _paint_styles(self, p: Painter, state: dict, cur: dict) -> None:
        pal = p.palette
        r = _toolbar(p.width)["style"]
        p.paint(
            Box((0, 0, 0, 0)),
            Rect(0, 0, p.width, p.height),
            key="styles-dismiss",
            target="styles-dismiss",
        )
        menu = Rect(r.x, r.bottom + 2, 190, len(rt.STYLES) * 30 + 8)
        p.paint(
            RoundedBox(pal["field"], 8, pal["border"], 1),
            menu,
            key="styles-menu",
            semantic=Semantic("menu", "Paragraph Styles"),
        )
        h = line_height("sans", 14)
        for i, style in enumerate(rt.STYLES):
            row = Rect(menu.x + 4, menu.y + 4 + i * 30, menu.width - 8, 30)
            on = cur["style"] == style
            name = rt.STYLE_NAMES[style]
            p.paint(
                RoundedBox(pal["selection"] if on else pal["field"], 4),
                row,
                key=("style-item", style),
                target=f"style:{style}",
                semantic=Semantic("menuitem", name, None, False, True),
                state=NodeState(checked=on),
            )
            p.paint(
                UiText(name, 14, pal["text"]),
                Rect(row.x + 10, row.y + (30 - h) // 2, measure(name, "sans", 14), h),
                key=("style-label", style),
                target=f"style:{style}",
            )

    def _paint_dialog(self, p: Painter, state: dict, dialog: dict) -> None:
        sd.paint_dialog(p, dialog, state["focus"], DIALOG, f"Save changes to “{self._doc_name(state)}” before closing?")

    # -- positions ---------------------------------------------------------------------
    @staticmethod
    def _offset(state: dict, pos: list) -> int:
        doc = state["doc"]
        return sum(rt.length(d) + 1 for d in doc[: pos[0]]) + pos[1]

    def _format_here(self, state: dict) -> int:
        """The format the toolbar shows: the selection's shared format, else typing's."""
        s, e = _span(state)
        doc = state["doc"]
        if s != e:
            out = rt.BOLD | rt.ITALIC
            for pi in range(s[0], e[0] + 1):
                a = s[1] if pi == s[0] else 0
                b = e[1] if pi == e[0] else rt.length(doc[pi])
                for _t, f in rt.slice_runs(doc[pi]["runs"], a, b):
                    out &= f
            return out
        if state["pending"] is not None:
            return state["pending"]
        p, o = state["caret"]
        return rt.fmt_at(doc[p], o)

    def _flow(self, ctx: AppContext, state: dict) -> tuple[_Geom, _Flow]:
        g = _Geom(ctx.width, ctx.height, state)
        return g, _Flow(state["doc"], g.text_w)

    def _reveal(self, ctx: AppContext, state: dict) -> None:
        g, flow = self._flow(ctx, state)
        _x, y, h = flow.caret(state["caret"])
        y += GAP + MARGIN_Y
        top = ctx.scroll_offset("page") or 0
        extent = GAP + MARGIN_Y + flow.height + MARGIN_Y + GAP
        if y < top:
            top = max(0, y - 8)
        elif y + h > top + g.view.height:
            top = y + h - g.view.height + 8
        top = max(0, min(top, max(0, extent - g.view.height)))
        ctx.set_scroll_offset("page", top or None)

    # -- editing -----------------------------------------------------------------------
    def _replace(
        self, state: dict, first: int, count: int, new: list, caret: list, kind: str
    ) -> None:
        """Replace paragraphs ``[first, first + count)`` by ``new`` as one undo step (or a
        step that grows the last one: typing, backspacing in one paragraph)."""
        doc = state["doc"]
        old = doc[first : first + count]
        paras = len(doc) - count + len(new)
        chars = (
            sum(rt.length(d) for d in doc)
            - sum(rt.length(d) for d in old)
            + sum(rt.length(d) for d in new)
        )
        grows = chars > sum(rt.length(d) for d in doc) or paras > len(doc)
        if grows:
            if paras > MAX_PARAGRAPHS:
                raise InvalidInput(f"a document holds at most {MAX_PARAGRAPHS} paragraphs")
            if chars > MAX_CHARS:
                raise InvalidInput(f"a document holds at most {MAX_CHARS} characters")
            if any(rt.length(d) > MAX_PARA_CHARS for d in new):
                raise InvalidInput(f"a paragraph holds at most {MAX_PARA_CHARS} characters")
        before = [list(state["caret"]), list(state["anchor"]) if state["anchor"] else None]
        undo = state["undo"]
        last = undo[-1] if undo and state["group"] == kind else None
        if (
            last is not None
            and kind in ("type", "backspace", "delete")
            and last["at"] == first
            and len(last["new"]) == 1 == count == len(new)
        ):
            last["new"] = rt.copy_doc(new)
            last["after"] = list(caret)
        else:
            undo.append(
                {
                    "at": first,
                    "old": rt.copy_doc(old),
                    "new": rt.copy_doc(new),
                    "before": before,
                    "after": list(caret),
                }
            )
            del undo[:-MAX_UNDO]
        doc[first : first + count] = rt.copy_doc(new)
        state["caret"], state["anchor"] = list(caret), None
        state["group"] = kind if kind in ("type", "backspace", "delete") else None
        state["redo"] = []
        state["dirty"] = True
        state["goal"] = None

    def _splice(self, state: dict, start: list, end: list, frag: list, kind: str) -> None:
        first, count, new, caret = rt.splice(state["doc"], start, end, frag)
        self._replace(state, first, count, new, caret, kind)

    def _type_text(self, state: dict, text: str, kind: str) -> None:
        """Typing or pasting plain text: line breaks make paragraphs in the current style."""
        s, e = _span(state)
        doc = state["doc"]
        fmt = state["pending"] if state["pending"] is not None else rt.fmt_at(doc[s[0]], s[1])
        pieces = text.split("\n")
        style = doc[s[0]]["style"]
        frag = [{"style": style, "runs": rt.normalize([[t, fmt]])} for t in pieces]
        if (
            kind == "type"
            and s == e
            and state["group"] == "type"
            and state["space_typed"]
            and not text[:1].isspace()
        ):
            state["group"] = None  # a new word starts a new undo step
        self._splice(state, s, e, frag, kind if s == e else "replace")
        state["space_typed"] = text[-1:].isspace()
        state["pending"] = None

    def _enter(self, state: dict) -> None:
        s, e = _span(state)
        doc = state["doc"]
        if s != e:
            self._splice(state, s, e, [], "replace")
            s = state["caret"]
        p, o = s
        para = doc[p]
        style = para["style"]
        n = rt.length(para)
        if style in rt.LISTS and n == 0:
            self._replace(state, p, 1, [rt.para("body")], [p, 0], "style")
            return
        head = {"style": style, "runs": rt.slice_runs(para["runs"], 0, o)}
        tail_style = style if o < n or style in rt.LISTS else "body"
        tail = {"style": tail_style, "runs": rt.slice_runs(para["runs"], o, n)}
        self._replace(state, p, 1, [head, tail], [p + 1, 0], "enter")

    def _backspace(self, state: dict, word: bool = False) -> None:
        s, e = _span(state)
        doc = state["doc"]
        if s != e:
            self._splice(state, s, e, [], "cut")
            return
        p, o = s
        if o == 0:
            if doc[p]["style"] in rt.LISTS:
                self._replace(
                    state,
                    p,
                    1,
                    [{"style": "body", "runs": rt.copy_doc([doc[p]])[0]["runs"]}],
                    [p, 0],
                    "style",
                )
            elif p > 0:
                self._splice(state, [p - 1, rt.length(doc[p - 1])], [p, 0], [], "merge")
            return
        text = rt.text_of(doc[p])
        start = tp.word_left(text, o) if word else o - 1
        self._splice(state, [p, start], [p, o], [], "cut" if word else "backspace")

    def _delete(self, state: dict, word: bool = False) -> None:
        s, e = _span(state)
        doc = state["doc"]
        if s != e:
            self._splice(state, s, e, [], "cut")
            return
        p, o = s
        n = rt.length(doc[p])
        if o >= n:
            if p + 1 < len(doc):
                self._splice(state, [p, o], [p + 1, 0], [], "merge")
            return
        text = rt.text_of(doc[p])
        end = tp.word_right(text, o) if word else o + 1
        self._splice(state, [p, o], [p, end], [], "cut" if word else "delete")

    def _toggle_format(self, state: dict, flag: int) -> None:
        s, e = _span(state)
        doc = state["doc"]
        if s == e:
            p, o = s
            span = _word_span(rt.text_of(doc[p]), o)
            if span is None:
                base = state["pending"] if state["pending"] is not None else rt.fmt_at(doc[p], o)
                state["pending"] = base ^ flag
                return
            s, e = [p, span[0]], [p, span[1]]
            caret, anchor = list(state["caret"]), None
        else:
            caret, anchor = list(state["caret"]), list(state["anchor"])
        on = not all(
            rt.all_have(
                doc[pi]["runs"],
                s[1] if pi == s[0] else 0,
                e[1] if pi == e[0] else rt.length(doc[pi]),
                flag,
            )
            for pi in range(s[0], e[0] + 1)
        )
        new = []
        for pi in range(s[0], e[0] + 1):
            a = s[1] if pi == s[0] else 0
            b = e[1] if pi == e[0] else rt.length(doc[pi])
            new.append(
                {"style": doc[pi]["style"], "runs": rt.set_format(doc[pi]["runs"], a, b, flag, on)}
            )
        self._replace(state, s[0], e[0] - s[0] + 1, new, caret, "format")
        state["anchor"] = anchor
        state["undo"][-1]["after"] = caret
        state["pending"] = None

    def _set_style(self, state: dict, style: str, toggle: bool = False) -> None:
        s, e = _span(state)
        doc = state["doc"]
        paras = doc[s[0] : e[0] + 1]
        if toggle and all(d["style"] == style for d in paras):
            style = "body"
        if all(d["style"] == style for d in paras):
            return
        caret, anchor = list(state["caret"]), list(state["anchor"]) if state["anchor"] else None
        new = [{"style": style, "runs": [list(r) for r in d["runs"]]} for d in paras]
        self._replace(state, s[0], len(paras), new, caret, "style")
        state["anchor"] = anchor

    def _undo(self, state: dict) -> bool:
        if not state["undo"]:
            return False
        step = state["undo"].pop()
        doc = state["doc"]
        doc[step["at"] : step["at"] + len(step["new"])] = rt.copy_doc(step["old"])
        state["caret"], state["anchor"] = list(step["before"][0]), step["before"][1]
        state["redo"].append(step)
        self._after_history(state)
        return True

    def _redo(self, state: dict) -> bool:
        if not state["redo"]:
            return False
        step = state["redo"].pop()
        doc = state["doc"]
        doc[step["at"] : step["at"] + len(step["old"])] = rt.copy_doc(step["new"])
        state["caret"], state["anchor"] = list(step["after"]), None
        state["undo"].append(step)
        self._after_history(state)
        return True

    def _after_history(self, state: dict) -> None:
        state["group"] = None
        state["goal"] = None
        state["pending"] = None
        state["dirty"] = True
        doc = state["doc"]
        p = max(0, min(state["caret"][0], len(doc) - 1))
        state["caret"] = [p, max(0, min(state["caret"][1], rt.length(doc[p])))]
        if state["anchor"] is not None:
            a = max(0, min(state["anchor"][0], len(doc) - 1))
            state["anchor"] = [a, max(0, min(state["anchor"][1], rt.length(doc[a])))]

    def _copy(self, ctx: AppContext, state: dict, cut: bool) -> None:
        s, e = _span(state)
        if s == e:
            return
        frag = rt.fragment(state["doc"], s, e)
        text = "\n".join(rt.text_of(d) for d in frag)
        ctx.clipboard = text
        state["clip"] = {"text": text, "paras": frag}
        if cut:
            self._splice(state, s, e, [], "cut")

    def _paste(self, ctx: AppContext, state: dict) -> None:
        text = ctx.clipboard.replace("\r\n", "\n").replace("\r", "\n")
        if not text:
            return
        clip = state["clip"]
        if clip is not None and clip["text"] == text:
            s, e = _span(state)
            self._splice(state, s, e, rt.copy_doc(clip["paras"]), "paste")
            return
        text = "".join(" " if ch == "\t" else ch for ch in text if ch.isprintable() or ch in "\n\t")
        self._type_text(state, text, "paste")

    def _select_all(self, state: dict) -> None:
        doc = state["doc"]
        state["anchor"] = [0, 0]
        state["caret"] = [len(doc) - 1, rt.length(doc[-1])]
        if state["anchor"] == state["caret"]:
            state["anchor"] = None
        state["pending"] = None

    # -- caret moves -------------------------------------------------------------------
    def _move(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        base = name.replace("Shift+", "")
        doc = state["doc"]
        p, o = state["caret"]
        s, e = _span(state)
        goal = None
        if base == "ArrowLeft":
            if s != e and not chord.shift:
                new = list(s)
            else:
                new = [p, o - 1] if o > 0 else ([p - 1, rt.length(doc[p - 1])] if p > 0 else [p, o])
        elif base == "ArrowRight":
            if s != e and not chord.shift:
                new = list(e)
            else:
                new = (
                    [p, o + 1]
                    if o < rt.length(doc[p])
                    else ([p + 1, 0] if p + 1 < len(doc) else [p, o])
                )
        elif base == "Ctrl+ArrowLeft":
            text = rt.text_of(doc[p])
            new = (
                [p, tp.word_left(text, o)]
                if o > 0
                else ([p - 1, rt.length(doc[p - 1])] if p > 0 else [p, o])
            )
        elif base == "Ctrl+ArrowRight":
            text = rt.text_of(doc[p])
            new = (
                [p, tp.word_right(text, o)]
                if o < len(text)
                else ([p + 1, 0] if p + 1 < len(doc) else [p, o])
            )
        elif base == "Ctrl+ArrowUp":
            new = [p, 0] if o > 0 or p == 0 else [p - 1, 0]
        elif base == "Ctrl+ArrowDown":
            new = [p + 1, 0] if p + 1 < len(doc) else [p, rt.length(doc[p])]
        elif base in ("Home", "End"):
            _g, flow = self._flow(ctx, state)
            lay = flow.layouts[p]
            a, b, _y, _h, _s = lay.lines[lay.line_of(o)]
            last = lay.line_of(o) == len(lay.lines) - 1
            new = [p, a] if base == "Home" else [p, b if last or b == a else b - 1]
        elif base == "Ctrl+Home":
            new = [0, 0]
        elif base == "Ctrl+End":
            new = [len(doc) - 1, rt.length(doc[-1])]
        elif base in ("ArrowUp", "ArrowDown", "PageUp", "PageDown"):
            g, flow = self._flow(ctx, state)
            x, y, h = flow.caret([p, o])
            goal = state["goal"] if state["goal"] is not None else x
            step = {"ArrowUp": -1, "ArrowDown": 1}.get(base)
            if step is not None:
                lay = flow.layouts[p]
                li = lay.line_of(o)
                if step < 0:
                    if li > 0:
                        new = [p, lay.offset_at(li - 1, goal - lay.indent)]
                    elif p > 0:
                        up = flow.layouts[p - 1]
                        new = [p - 1, up.offset_at(len(up.lines) - 1, goal - up.indent)]
                    else:
                        new = [0, 0]
                else:
                    if li < len(lay.lines) - 1:
                        new = [p, lay.offset_at(li + 1, goal - lay.indent)]
                    elif p + 1 < len(doc):
                        down = flow.layouts[p + 1]
                        new = [p + 1, down.offset_at(0, goal - down.indent)]
                    else:
                        new = [p, rt.length(doc[p])]
            else:
                dy = g.view.height - 40
                target_y = y + h // 2 + (dy if base == "PageDown" else -dy)
                if target_y < 0:
                    new = [0, 0]
                elif target_y >= flow.height:
                    new = [len(doc) - 1, rt.length(doc[-1])]
                else:
                    new = flow.locate(goal, target_y)
                top = (ctx.scroll_offset("page") or 0) + (dy if base == "PageDown" else -dy)
                ctx.set_scroll_offset("page", max(0, top) or None)
        else:
            return False
        if chord.shift:
            if state["anchor"] is None:
                state["anchor"] = [p, o]
        else:
            state["anchor"] = None
        state["caret"] = new
        if state["anchor"] == new:
            state["anchor"] = None
        state["goal"] = goal
        state["group"] = None
        state["pending"] = None
        return True

    # -- files -------------------------------------------------------------------------
    def _write(self, ctx: AppContext, state: dict, path: str) -> str | None:
        kind = _kind_of(path)
        text = rt.to_cwdoc(state["doc"]) if kind == "cwdoc" else rt.to_markdown(state["doc"])
        try:
            ctx.files().write(path, ctx.home, text.encode("utf-8"))
        except FsError as exc:
            return exc.strerror_text
        state["path"], state["format"], state["dirty"] = path, kind, False
        state["status"], state["error"] = f"Saved “{posixpath.basename(path)}”.", False
        add_recent(ctx.machine, path, self.id)
        return None

    def _save(self, ctx: AppContext, state: dict, then: str | None = None) -> bool:
        if state["path"] is None or not _savable(state["path"]):
            self._open_save_as(ctx, state, then)
            return False
        problem = self._write(ctx, state, state["path"])
        if problem is not None:
            state["status"], state["error"] = (
                f"Could not save “{self._doc_name(state)}”: {problem}.",
                True,
            )
            return False
        return True

    def _open_save_as(self, ctx: AppContext, state: dict, then: str | None = None) -> None:
        if state["path"]:
            folder, name = posixpath.split(state["path"])
            if not _savable(name):
                name = posixpath.splitext(name)[0] + ".md"
        else:
            name = f"{UNTITLED}.cwdoc"
            docs = f"{ctx.home}/Documents"
            folder = docs if ctx.files().is_dir(docs, ctx.home) else ctx.home
        shown = (
            "~" + folder[len(ctx.home) :]
            if folder == ctx.home or folder.startswith(ctx.home + "/")
            else folder
        )
        namefield = tp.field(name)
        namefield["anchor"], namefield["caret"] = 0, len(posixpath.splitext(name)[0])
        state["dialog"] = {
            "kind": "save-as",
            "name": namefield,
            "folder": tp.field(shown),
            "error": "",
            "then": then,
        }
        state["focus"] = "save-name"
        state["menu"], state["styles"] = None, False

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
        if not _savable(name):
            dialog["error"] = "Save as .md (Markdown) or .cwdoc (this application's format)."
            return
        folder = _resolve(folder_raw, ctx.home, ctx.home)
        if not ctx.files().is_dir(folder, ctx.home):
            dialog["error"] = f"There is no folder “{folder_raw}”."
            return
        problem = self._write(ctx, state, posixpath.join(folder, name))
        if problem is not None:
            dialog["error"] = f"Could not save “{name}”: {problem}."
            return
        state["dialog"] = None
        state["focus"] = "page"
        if dialog["then"] == "close":
            ctx.close()

    def _show_open(self, state: dict) -> None:
        state["open"] = tp.field("")
        state["focus"] = "open"
        state["menu"], state["styles"] = None, False

    def _do_open(self, ctx: AppContext, state: dict) -> None:
        raw = state["open"]["text"].strip()
        if not raw:
            state["status"], state["error"] = "Type the path of a document to open.", True
            return
        base = posixpath.dirname(state["path"]) if state["path"] else ctx.home
        path = _resolve(raw, ctx.home, base)
        try:
            doc, kind = _load(ctx, path)
        except FsError as exc:
            state["status"], state["error"] = f"Could not open “{raw}”: {exc.strerror_text}.", True
            return
        except rt.BadFile as exc:
            state["status"], state["error"] = (
                f"Could not open “{posixpath.basename(path)}”: {exc}.",
                True,
            )
            return
        state["open"], state["focus"] = None, "page"
        state["status"], state["error"] = "", False
        pristine = (
            not state["dirty"]
            and state["path"] is None
            and not any(rt.length(d) for d in state["doc"])
        )
        if not pristine:
            try:
                ctx.launch(self.id, path)
            except AppError:
                state["status"], state["error"] = f"Could not open “{raw}”.", True
            return
        state.update(_new_doc(path, doc, kind))
        ctx.set_scroll_offset("page", None)
        add_recent(ctx.machine, path, self.id)

    def can_close(self, ctx: AppContext, state: dict) -> bool:
        if not state["dirty"]:
            return True
        state["menu"], state["styles"] = None, False
        if state["dialog"] is None:
            state["dialog"] = {"kind": "close"}
            state["focus"] = "page"
        return False

    def _close_save(self, ctx: AppContext, state: dict) -> None:
        state["dialog"] = None
        if state["path"] is None or not _savable(state["path"]):
            self._open_save_as(ctx, state, "close")
            return
        if self._save(ctx, state):
            ctx.close()

    # -- keys --------------------------------------------------------------------------
    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        before = (state["caret"], state["anchor"], len(state["undo"]), state["redo"])
        taken = self._key(ctx, state, chord)
        if taken:
            state["clicks"] = None
            if state["dialog"] is None and state["focus"] == "page":
                after = (state["caret"], state["anchor"], len(state["undo"]), state["redo"])
                if after != before or state["group"] is not None:
                    self._reveal(ctx, state)
        return taken

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        cmd = ctx.shortcut
        if state["menu"] is not None or state["styles"]:
            state["menu"], state["styles"] = None, False
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
        if name == cmd("Primary+w"):
            if self.can_close(ctx, state):
                ctx.close()
            return True
        if state["focus"] == "open" and state["open"] is not None:
            if name == "Enter":
                self._do_open(ctx, state)
                return True
            if name == "Escape":
                state["open"], state["focus"] = None, "page"
                return True
            return tp.field_key(ctx, state["open"], chord)
        if name == cmd("Primary+z"):
            self._undo(state)
            return True
        if name in (cmd("Primary+y"), cmd("Primary+Shift+z")):
            self._redo(state)
            return True
        if name == cmd("Primary+b"):
            self._toggle_format(state, rt.BOLD)
            return True
        if name == cmd("Primary+i"):
            self._toggle_format(state, rt.ITALIC)
            return True
        for digit, style in (("0", "body"), ("1", "h1"), ("2", "h2"), ("3", "h3")):
            if name == cmd(f"Primary+{digit}"):
                self._set_style(state, style)
                return True
        if name == "F12":
            self._set_style(state, "number", toggle=True)
            return True
        if name == "Shift+F12":
            self._set_style(state, "bullet", toggle=True)
            return True
        if name == cmd("Primary+a"):
            self._select_all(state)
            return True
        if name in (cmd("Primary+c"), "Ctrl+Insert"):
            self._copy(ctx, state, cut=False)
            return True
        if name in (cmd("Primary+x"), "Shift+Delete"):
            self._copy(ctx, state, cut=True)
            return True
        if name in (cmd("Primary+v"), "Shift+Insert"):
            self._paste(ctx, state)
            return True
        if name in ("Enter", "Shift+Enter"):
            self._enter(state)
            return True
        if name in ("Backspace", "Shift+Backspace", "Ctrl+Backspace"):
            self._backspace(state, word=name == "Ctrl+Backspace")
            return True
        if name in ("Delete", "Ctrl+Delete"):
            self._delete(state, word=name == "Ctrl+Delete")
            return True
        if name == "Escape":
            if state["anchor"] is not None:
                state["anchor"] = None
                return True
            return False
        if self._move(ctx, state, name, chord):
            return True
        if chord.char is not None:
            self._type_text(state, chord.char, "type")
            return True
        return False

    def _dialog_key(self, ctx: AppContext, state: dict, name: str, chord: Chord) -> bool:
        dialog = state["dialog"]
        if name == "Escape":
            state["dialog"], state["focus"] = None, "page"
            return True
        if dialog["kind"] == "close":
            if name == "Enter":
                self._close_save(ctx, state)
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

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        dialog = state["dialog"]
        if dialog is not None and dialog["kind"] != "save-as":
            return False
        state["menu"], state["styles"], state["clicks"] = None, False, None
        if dialog is not None:
            tp.field_type(dialog["folder" if state["focus"] == "save-folder" else "name"], text)
            dialog["error"] = ""
            return True
        if state["focus"] == "open" and state["open"] is not None:
            tp.field_type(state["open"], text)
            return True
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(" " if ch == "\t" else ch for ch in text if ch.isprintable() or ch in "\n\t")
        if not text:
            return True
        if "\n" in text:
            # typed line breaks are Enter: a new paragraph in the next style; past a cap
            # nothing of the text is kept
            backup = copy.deepcopy(state)
            try:
                for i, piece in enumerate(text.split("\n")):
                    if i:
                        self._enter(state)
                    if piece:
                        self._type_text(state, piece, "type")
            except InvalidInput:
                state.clear()
                state.update(backup)
                raise
        else:
            self._type_text(state, text, "type")
        self._reveal(ctx, state)
        return True

    # -- pointer -----------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        dialog = state["dialog"]
        if target in ("menu-dismiss", "styles-dismiss"):
            state["menu"], state["styles"] = None, False
            return None
        if dialog is not None:
            if target not in DIALOG_TARGETS[dialog["kind"]]:
                raise UnknownTarget(target)
            return self._dialog_control(ctx, state, target, point)
        if target.startswith("menu:"):
            state["menu"] = None
            command = target[5:]
            if command in ("cut", "copy"):
                self._copy(ctx, state, cut=command == "cut")
            elif command == "paste":
                self._paste(ctx, state)
            elif command == "select-all":
                self._select_all(state)
            else:
                raise UnknownTarget(target)
            state["focus"] = "page"
            self._reveal(ctx, state)
            return None
        if target.startswith("style:"):
            style = target[6:]
            if style not in rt.STYLES:
                raise UnknownTarget(target)
            state["styles"] = False
            self._set_style(state, style)
            state["focus"] = "page"
            return None
        state["menu"] = None
        if target == "style":
            state["styles"] = not state["styles"]
            return None
        state["styles"] = False
        if target in ("bold", "italic"):
            self._toggle_format(state, rt.BOLD if target == "bold" else rt.ITALIC)
            state["focus"] = "page"
            return None
        if target in ("bullets", "numbering"):
            self._set_style(state, "bullet" if target == "bullets" else "number", toggle=True)
            state["focus"] = "page"
            return None
        if target == "page":
            state["focus"] = "page"
            if point is not None:
                self._press(ctx, state, point, "Shift" in modifiers, 1)
            return None
        if target in ("open", "save", "save-as", "undo", "redo"):
            if target == "open":
                if state["open"] is not None:
                    state["open"], state["focus"] = None, "page"
                else:
                    self._show_open(state)
            elif target == "save":
                self._save(ctx, state)
            elif target == "save-as":
                self._open_save_as(ctx, state)
            else:
                (self._undo if target == "undo" else self._redo)(state)
                self._reveal(ctx, state)
            return None
        if state["open"] is not None and target in ("open-path", "open-confirm", "open-cancel"):
            if target == "open-path":
                state["focus"] = "open"
                if point is not None:
                    g = _Geom(ctx.width, ctx.height, state)
                    rect = _bar_controls(ctx.width, g.bar)["open-path"]
                    state["open"]["caret"] = tp.field_index(state["open"], rect, point[0])
                    state["open"]["anchor"] = None
            elif target == "open-cancel":
                state["open"], state["focus"] = None, "page"
            else:
                self._do_open(ctx, state)
            return None
        raise UnknownTarget(target)

    def _dialog_control(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None
    ) -> None:
        dialog = state["dialog"]
        if target in ("save-name", "save-folder"):
            state["focus"] = target
            f = dialog["name" if target == "save-name" else "folder"]
            if point is not None:
                _box, controls = _dialog_rects(ctx.width, ctx.height, "save-as")
                f["caret"] = tp.field_index(f, controls[target], point[0])
                f["anchor"] = None
        elif target in ("save-cancel", "close-cancel"):
            state["dialog"], state["focus"] = None, "page"
        elif target == "save-confirm":
            self._confirm_save_as(ctx, state)
        elif target == "close-discard":
            state["dialog"] = None
            ctx.close()
        elif target == "close-save":
            self._close_save(ctx, state)

    def _point_pos(self, ctx: AppContext, state: dict, point: tuple[int, int]) -> list:
        g, flow = self._flow(ctx, state)
        top = ctx.scroll_offset("page") or 0
        extent = GAP + MARGIN_Y + flow.height + MARGIN_Y + GAP
        top = max(0, min(top, max(0, extent - g.view.height)))
        y = point[1] - g.view.y + top - GAP - MARGIN_Y
        return flow.locate(point[0] - g.text_x, max(0, min(y, max(0, flow.height - 1))))

    def _press(
        self, ctx: AppContext, state: dict, point: tuple[int, int], extend: bool, clicks: int
    ) -> None:
        pos = self._point_pos(ctx, state, point)
        state["goal"], state["group"], state["pending"] = None, None, None
        if extend:
            anchor = state["anchor"] if state["anchor"] is not None else state["caret"]
            state["anchor"], state["caret"] = (None if anchor == pos else anchor), pos
            state["drag"] = {"from": list(anchor), "to": list(anchor), "unit": 1}
            return
        n = tp.click_count(state, pos, ctx.now_us, clicks)
        text = rt.text_of(state["doc"][pos[0]])
        if n == 2:
            s, e = tp.word_at(text, pos[1])
        elif n == 3:
            s, e = 0, len(text)
        else:
            s = e = pos[1]
        state["anchor"] = [pos[0], s] if s != e else None
        state["caret"] = [pos[0], e] if s != e else pos
        state["drag"] = {"from": [pos[0], s], "to": [pos[0], e], "unit": n}

    def double_click(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        if target == "page" and state["dialog"] is None and point is not None:
            state["focus"], state["menu"], state["styles"] = "page", None, False
            self._press(ctx, state, point, False, 2)
            state["drag"] = None
            return None
        return self.activate(ctx, state, target, point, modifiers)

    def is_drag_surface(self, target: str, button: int) -> bool:
        return target == "page" and button in (0, 2)

    def cursor(self, target: str) -> str | None:
        return "text" if target == "page" else None

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
        if state["dialog"] is not None or target != "page":
            return
        if button == 2:
            if phase == "down":
                state["menu"], state["styles"] = [point[0], point[1]], False
                state["focus"] = "page"
            return
        if phase == "down":
            if state["menu"] is not None or state["styles"]:
                state["menu"], state["styles"] = None, False
                return
            state["focus"] = "page"
            self._press(ctx, state, point, "Shift" in modifiers and clicks == 1, clicks)
            return
        if phase == "cancel":
            state["drag"] = None
            return
        drag = state["drag"]
        if not isinstance(drag, dict):
            return
        pos = self._point_pos(ctx, state, point)
        lo, hi = drag["from"], drag["to"]
        if drag["unit"] > 1:
            text = rt.text_of(state["doc"][pos[0]])
            s, e = tp.word_at(text, pos[1]) if drag["unit"] == 2 else (0, len(text))
        else:
            s = e = pos[1]
        if (pos[0], s) < (lo[0], lo[1]):
            anchor, caret = list(hi), [pos[0], s]
        else:
            anchor, caret = list(lo), max([pos[0], e], list(hi))
        state["anchor"], state["caret"] = (None if anchor == caret else anchor), caret
        if phase == "up":
            state["drag"] = None


register(Docs())
