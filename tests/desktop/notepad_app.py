"""``notepad_test``: a small test application that exercises the whole framework.

It ships with the tests, not the package: :mod:`desktop_fixture` imports this module,
which registers it in ``cwgym.apps.APPS`` for the test session, and a world lists it in
``installed_apps`` to get it. A
window holds a one-line note field, a Save button, a level slider (a drag surface), a
scrolling list of thirty items and a status line. It opens a ``.note`` file given as the
argument (a desktop icon of such a file opens here), saves through the user's
permission-checked files, copies and pastes through the machine clipboard, and publishes
its note as an ``editor`` buffer.

Keys: Tab and Shift+Tab move the focus (note, Save, slider); in the note, characters,
Backspace, Delete, ArrowLeft/ArrowRight, Home/End edit, Enter or Ctrl+S saves, Ctrl+C and
Ctrl+V copy and paste the whole note; on Save, Enter or Space saves; on the slider,
ArrowLeft/ArrowRight move it by 5.
"""

from __future__ import annotations

from typing import Any

from cwgym.apps import APPS, register
from cwgym.desktop.framework import App, AppContext, AppError, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, UiText
from cwgym.text import line_height, measure, shape

ITEMS = 30
ROW = 28
FOCUS_ORDER = ("note", "save", "slider")
DEFAULT_NAME = "untitled.note"


class NotepadTest(App):
    id = "notepad_test"
    label = "Test Notepad"
    catalogued = False
    default_size = (560, 420)
    min_size = (320, 260)
    opens = (".note",)
    focus_keys = ("focus",)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        text, path = "", None
        if argument:
            path = argument if argument.startswith("/") else f"{ctx.cwd.rstrip('/')}/{argument}"
            try:
                text = ctx.files().read(path, ctx.cwd).decode("utf-8", "replace").rstrip("\n")
            except FsError as exc:
                if exc.code != "ENOENT":
                    raise AppError(str(exc)) from None
        return {
            "text": text,
            "saved": text,
            "path": path,
            "caret": len(text),
            "focus": "note",
            "level": 50,
            "selected": None,
            "status": "",
        }

    def title(self, state: dict) -> str:
        name = state["path"].rsplit("/", 1)[-1] if state["path"] else "Untitled"
        return ("*" if state["text"] != state["saved"] else "") + name

    def document(self, state: dict) -> str:
        return state["path"] or ""

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        w, h = p.width, p.height
        focus = state["focus"]
        p.text("Note", 16, 12, size=13, color=p.palette["muted"])
        p.textbox(
            "note",
            state["text"],
            Rect(16, 32, max(40, w - 136), 34),
            label="Note",
            focused=focus == "note",
            caret=state["caret"],
            placeholder="Write something",
        )
        p.button("save", "Save", Rect(w - 104, 32, 88, 34), focused=focus == "save", suggested=True)
        if focus == "save":
            p.focus("save", role="button", label="Save")
        self._slider(p, state, Rect(16, 80, w - 32, 24), focus == "slider")
        self._list(p, state, Rect(16, 116, w - 32, max(ROW, h - 156)))
        if state["status"]:
            p.text(state["status"], 16, h - 30, size=13, color=p.palette["muted"], width=w - 32)
        p.buffer("editor", state["text"].split("\n"), 0, 1)

    def _slider(self, p: Painter, state: dict, r: Rect, focused: bool) -> None:
        level = state["level"]
        p.paint(
            Box((0, 0, 0, 0)),
            r,
            key="slider",
            target="slider",
            semantic=Semantic("slider", "Level", str(level), False, True),
            state=NodeState(focused=True) if focused else None,
        )
        p.box(Rect(r.x, r.y + r.height // 2 - 2, r.width, 4), p.palette["border"], radius=2, key="slider-track", target="slider")
        knob_x = r.x + (r.width - 16) * level // 100
        p.box(Rect(r.x, r.y + r.height // 2 - 2, knob_x - r.x + 8, 4), p.palette["accent"], radius=2, key="slider-fill", target="slider")
        p.paint(RoundedBox(p.palette["field"], 8, p.palette["accent"] if focused else p.palette["border"], 2), Rect(knob_x, r.y + 4, 16, 16), key="slider-knob", target="slider")
        if focused:
            p.focus("slider", role="slider", label="Level", value=str(level))

    def _list(self, p: Painter, state: dict, r: Rect) -> None:
        offset = p.scroll("items", r, ITEMS * ROW)
        p.box(r, p.palette["field"], stroke=p.palette["border"], key="list-bg")
        first = offset // ROW
        with p.clipped(r, dy=-offset):
            for i in range(first, min(ITEMS, first + r.height // ROW + 2)):
                row = Rect(r.x + 1, r.y + i * ROW, r.width - 2, ROW)
                selected = state["selected"] == i
                p.paint(
                    Box(p.palette["selection"] if selected else (0, 0, 0, 0)),
                    row,
                    key=("row", i),
                    target=f"item:{i}",
                    semantic=Semantic("listitem", f"Item {i + 1}"),
                    state=NodeState(selected=selected),
                )
                label = f"Item {i + 1}"
                lh = line_height("sans", 14)
                p.paint(UiText(label, 14, p.palette["text"]), Rect(row.x + 10, row.y + (ROW - lh) // 2, measure(label, "sans", 14), lh), key=("row-label", i), target=f"item:{i}")

    # -- behaviour ---------------------------------------------------------------------
    def _save(self, ctx: AppContext, state: dict) -> None:
        path = state["path"] or f"{ctx.home}/Documents/{DEFAULT_NAME}"
        try:
            ctx.files().write(path, ctx.cwd, (state["text"] + "\n").encode())
        except FsError:
            state["status"] = "Could not save"
            return
        state["path"] = path
        state["saved"] = state["text"]
        state["status"] = f"Saved {path.rsplit('/', 1)[-1]}"

    def _insert(self, state: dict, text: str) -> None:
        text = text.replace("\n", " ")
        c = state["caret"]
        state["text"] = state["text"][:c] + text + state["text"][c:]
        state["caret"] = c + len(text)

    def _level_at(self, ctx: AppContext, x: int) -> int:
        width = max(1, ctx.width - 32 - 16)
        return max(0, min(100, (x - 16 - 8) * 100 // width))

    def activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        if target == "note":
            state["focus"] = "note"
            if point is not None:
                state["caret"] = shape(state["text"], "sans", 14).index_at(point[0] - 24) if state["text"] else 0
            return None
        if target == "save":
            state["focus"] = "save"
            self._save(ctx, state)
            return None
        if target == "slider":
            state["focus"] = "slider"
            if point is not None:
                state["level"] = self._level_at(ctx, point[0])
            return None
        if target.startswith("item:") and target[5:].isdigit() and int(target[5:]) < ITEMS:
            state["selected"] = int(target[5:])
            return None
        raise UnknownTarget(target)

    def double_click(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        result = self.activate(ctx, state, target, point, modifiers)
        if target.startswith("item:"):
            state["status"] = f"Opened Item {int(target[5:]) + 1}"
        return result

    def is_drag_surface(self, target: str, button: int) -> bool:
        return target == "slider" and button == 0

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
        if phase == "cancel":
            return
        state["focus"] = "slider"
        state["level"] = self._level_at(ctx, point[0])

    def cursor(self, target: str) -> str | None:
        return "grab" if target == "slider" else None

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        focus = state["focus"]
        if chord.is_("Tab", "Shift+Tab"):
            step = -1 if chord.shift else 1
            state["focus"] = FOCUS_ORDER[(FOCUS_ORDER.index(focus) + step) % len(FOCUS_ORDER)]
            return True
        if ctx.pressed(chord, "Primary+s"):
            self._save(ctx, state)
            return True
        if focus == "save":
            if chord.is_("Enter", "Space"):
                self._save(ctx, state)
                return True
            return False
        if focus == "slider":
            if chord.is_("ArrowLeft", "ArrowRight"):
                state["level"] = max(0, min(100, state["level"] + (5 if chord.key == "ArrowRight" else -5)))
                return True
            return False
        text, c = state["text"], state["caret"]
        if chord.is_("Enter"):
            self._save(ctx, state)
        elif chord.is_("Backspace"):
            if c > 0:
                state["text"], state["caret"] = text[: c - 1] + text[c:], c - 1
        elif chord.is_("Delete"):
            state["text"] = text[:c] + text[c + 1 :]
        elif chord.is_("ArrowLeft", "ArrowRight"):
            state["caret"] = max(0, min(len(text), c + (1 if chord.key == "ArrowRight" else -1)))
        elif chord.is_("Home", "End"):
            state["caret"] = 0 if chord.key == "Home" else len(text)
        elif ctx.pressed(chord, "Primary+c"):
            ctx.clipboard = text
        elif ctx.pressed(chord, "Primary+v"):
            self._insert(state, ctx.clipboard)
        elif chord.char is not None:
            self._insert(state, chord.char)
        else:
            return False
        return True

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        if state["focus"] != "note":
            return False
        self._insert(state, text)
        return True


if NotepadTest.id not in APPS:
    register(NotepadTest())
