"""``terminal``: a window over the machine's shell (GNOME Terminal's part of it).

The window shows a scrollback and, under it, the line being typed after the prompt
``user@host:cwd$ `` (the home folder shown as ``~``). Enter runs the line through
:meth:`~cwgym.desktop.framework.AppContext.run_terminal`, the machine's one shell, so the
acting session's ``terminal.v1`` channel shows the result as if it had run it there; a
session without ``terminal.v1`` can still run commands here.

Published: the scrollback as the buffer ``window:<id>:terminal`` (kind ``terminal``;
every finished line, the echoed command lines included, not the line being typed), the
rows with hard-wrap :class:`~cwgym.scene.TextLine` provenance, the scroll pane
``pane:scrollback`` and the focus ``terminal-input`` (role ``textbox``, value the typed
line, caret the cell of the insertion point).

Keys: characters, Backspace, Delete, ArrowLeft/ArrowRight, Home/End (also Ctrl+A,
Ctrl+E), Ctrl+ArrowLeft/ArrowRight by words, Ctrl+Backspace/Ctrl+W delete a word, Ctrl+U
and Ctrl+K cut to the start or end, ArrowUp/ArrowDown walk the history, Ctrl+C abandons
the line (``^C`` and a new prompt), Enter runs it, Ctrl+Shift+C copies the selection (or,
without one, the last line the last command printed), Ctrl+Shift+V and Shift+Insert
paste, Shift+PageUp/PageDown scroll by a page, Ctrl+Shift+Home/End to the top or bottom.
The copy, paste, select-all and scroll-to-end shortcuts use the theme's primary modifier
(Ctrl on Ubuntu: ``Primary+Shift+c``); the line-editing keys are the terminal's control
characters and stay Ctrl under every theme.
Tab is taken and does nothing (there is no completion). Pointer: a drag over the text
selects, Shift with a press extends the selection, a double click (or a second press on
the same place) selects a word (a third press the line), the secondary button opens a
menu (Copy, Paste, Select All, Reset and Clear), the wheel scrolls whole rows, and the
scroll bar drags.

The view's offset is the window's (pane ``scrollback``, in pixels); while none is stored
the view follows the output at the bottom.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from cwgym.apps import _textpane as tp
from cwgym.apps import register
from cwgym.desktop.framework import App, AppContext, AppError, InvalidInput, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.scene import Box, NodeState, Rect, Semantic

__all__ = ["INPUT_MAX", "MAX_HISTORY", "MAX_SCROLLBACK_CHARS", "MAX_SCROLLBACK_LINES", "Terminal"]

#: The scrollback keeps at most this many lines and characters (oldest dropped first).
MAX_SCROLLBACK_LINES = 5_000
MAX_SCROLLBACK_CHARS = 1_000_000
#: Commands remembered for ArrowUp/ArrowDown.
MAX_HISTORY = 1_000
#: The most characters the input line holds: typing or pasting past it fails the action
#: with ``invalid`` before any of it runs.
INPUT_MAX = 65_536

PAD = 6
BACKGROUND = (48, 10, 36, 255)  # Ubuntu's aubergine
FOREGROUND = (238, 238, 236, 255)
CURSOR = (128, 128, 128, 255)
SELECTION = (118, 118, 180, 255)
TARGET = "terminal-input"
#: The scroll pane (``pane:scrollback``); its offset is the window's.
PANE = "scrollback"
MENU = (
    ("copy", "Copy"),
    ("paste", "Paste"),
    ("select-all", "Select All"),
    ("clear", "Reset and Clear"),
)

_CSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")
_CLEARS = ("\x1b[3J", "\x1b[2J", "\x1bc")


# -- geometry ------------------------------------------------------------------------------


def _layout(width: int, height: int) -> tuple[Rect, int, int, Rect]:
    """``(pane, cols, rows, track)``: the text grid and the scroll bar's track."""
    cw, ch = tp.grid()
    pane_w = max(cw, width - 2 * PAD - tp.BAR - 2)
    rows = max(1, (height - 2 * PAD) // ch)
    pane = Rect(PAD, PAD, pane_w, rows * ch)
    cols = max(1, pane_w // cw)
    track = Rect(width - tp.BAR - 2, PAD, tp.BAR, rows * ch)
    return pane, cols, rows, track


def _input_lines(state: dict) -> list[str]:
    return (state["prompt"] + state["input"]).split("\n")


def _all_lines(state: dict) -> list[str]:
    return state["lines"] + _input_lines(state)


def _caret_pos(state: dict) -> tuple[int, int]:
    """The caret as a position ``(line, column)`` among all painted lines."""
    head = (state["prompt"] + state["input"])[: len(state["prompt"]) + state["caret"]]
    parts = head.split("\n")
    return len(state["lines"]) + len(parts) - 1, len(parts[-1])


def _top(stored: int | None, wrap: tp.Wrap, rows: int) -> int:
    """The first row shown: the window's stored offset of :data:`PANE` (in pixels) as a
    row, or the last page when none is stored (the view follows the output)."""
    bottom = max(0, wrap.total - rows)
    if stored is None:
        return bottom
    return max(0, min(stored // tp.grid()[1], bottom))


def _set_top(ctx: AppContext, row: int | None) -> None:
    """Show from ``row`` on; ``None`` follows the output (the window stores no offset)."""
    ctx.set_scroll_offset(PANE, None if row is None else row * tp.grid()[1])


# -- output --------------------------------------------------------------------------------


def _overstrike(line: str) -> str:
    """A line as a terminal shows it: ``\\r`` returns to the start, ``\\b`` steps back."""
    if "\r" not in line and "\b" not in line:
        return line
    cells: list[str] = []
    col = 0
    for ch in line:
        if ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(0, col - 1)
        else:
            if col < len(cells):
                cells[col] = ch
            else:
                cells.append(ch)
            col += 1
    return "".join(cells)


def _expand_tabs(line: str) -> str:
    if "\t" not in line:
        return line
    out: list[str] = []
    col = 0
    for ch in line:
        if ch == "\t":
            n = tp.TAB - col % tp.TAB
            out.append(" " * n)
            col += n
        else:
            out.append(ch)
            col += 1
    return "".join(out)


def screen_lines(text: str) -> list[str]:
    """What a stream of output adds to the screen: one string per line, escapes removed.

    Escape sequences are dropped, ``\\r`` and ``\\b`` overwrite, tabs expand to stops every
    8 columns, other control characters go; a final line break ends the last line rather
    than starting an empty one.
    """
    if not text:
        return []
    text = _CSI.sub("", text.replace("\r\n", "\n"))
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for line in lines:
        line = _expand_tabs(_overstrike(line))
        if not line.isprintable():
            line = "".join(ch for ch in line if ch.isprintable())
        out.append(line)
    return out


def _split_clear(stdout: str) -> tuple[bool, str]:
    """Whether the output clears the screen, and what it writes after the last clear."""
    cut = -1
    for seq in _CLEARS:
        at = stdout.rfind(seq)
        if at >= 0:
            cut = max(cut, at + len(seq))
    if cut < 0:
        return False, stdout
    return True, stdout[cut:]


def prompt_for(user: str, host: str, cwd: str, home: str) -> tuple[str, str]:
    """``(prompt, title)`` for the shell at ``cwd``: ``ada@host:~/x$ `` and ``ada@host: ~/x``."""
    where = cwd
    if home and home != "/" and (cwd == home or cwd.startswith(home + "/")):
        where = "~" + cwd[len(home) :]
    mark = "#" if user == "root" else "$"
    return f"{user}@{host}:{where}{mark} ", f"{user}@{host}: {where}"


class Terminal(App):
    id = "terminal"
    label = "Terminal"
    kind = "builtin"
    keyboard_route = "terminal"
    default_size = (720, 480)
    min_size = (320, 200)

    # -- lifecycle ---------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        if argument:
            folder = argument if argument.startswith("/") else f"{ctx.cwd.rstrip('/')}/{argument}"
            try:
                ok = ctx.files().is_dir(folder, ctx.cwd)
            except FsError:
                ok = False
            if not ok:
                raise AppError(f"not a folder: {argument}")
            # The window opens "in" the folder: the machine's one shell moves there.
            if ctx.run(f"cd -- {shlex.quote(folder)}").exit_code != 0:
                raise AppError(f"cannot enter {argument}")
        state: dict[str, Any] = {
            "lines": [],
            "truncated": False,
            "prompt": "",
            "title": "",
            "input": "",
            "caret": 0,
            "history": [],
            "recall": None,
            "draft": "",
            "sel": None,
            "output": None,
            "menu": None,
            "drag": None,
            "clicks": None,
        }
        self._refresh_prompt(ctx, state)
        return state

    def title(self, state: dict) -> str:
        return state["title"]

    def _refresh_prompt(self, ctx: AppContext, state: dict) -> None:
        m = ctx.machine
        state["prompt"], state["title"] = prompt_for(m.user, m.hostname, ctx.cwd, ctx.home)

    # -- painting ----------------------------------------------------------------------
    def paint(self, p: Painter, state: dict, key: Any) -> None:
        cw, ch = tp.grid()
        pane, cols, rows, track = _layout(p.width, p.height)
        lines = _all_lines(state)
        wrap = tp.Wrap(lines, cols)
        top = _top(p.scroll_offset(PANE), wrap, rows)
        p.paint(
            Box(BACKGROUND),
            Rect(0, 0, p.width, p.height),
            key="bg",
            target=TARGET,
            semantic=Semantic("textbox", "Terminal", state["input"], False, True),
            state=NodeState(focused=True),
        )
        sel = _selection(state)
        if sel is not None:
            for i, c0, n in tp.selection_boxes(wrap, top, rows, sel[0], sel[1]):
                p.paint(Box(SELECTION), Rect(pane.x + c0 * cw, pane.y + i * ch, n * cw, ch), key=("sel", i), target=TARGET)
        line, col = _caret_pos(state)
        row, cell = wrap.row_of(line, col)
        caret = Rect(pane.x + cell * cw, pane.y + (row - top) * ch, cw, ch)
        if top <= row < top + rows:
            p.paint(Box(CURSOR), caret, key="cursor", target=TARGET)
        tp.paint_rows(
            p, wrap, top, rows, pane.x, pane.y,
            color=FOREGROUND, target=TARGET, pane=f"window:{p.window}:terminal", key="row",
            line_limit=len(state["lines"]),
        )
        tp.paint_bar(p, PANE, track, rows, wrap.total, top, dark=True)
        p.scroll(PANE, pane, wrap.total * ch, top * ch)
        shown = {wrap.locate(r)[0] for r in range(top, min(top + rows, wrap.total))}
        back = [i for i in shown if i < len(state["lines"])]
        first = min(back) if back else len(state["lines"])
        p.buffer("terminal", state["lines"], first, len(back), truncated=state["truncated"])
        p.focus(
            TARGET,
            role="textbox",
            label="Terminal",
            value=state["input"],
            caret=caret,
            line=line,
            column=col,
            offset=state["caret"],
            text_entry=True,
        )
        if state["menu"] is not None:
            tp.paint_menu(p, state["menu"], [(t, label, t != "copy" or _can_copy(state)) for t, label in MENU])

    # -- the scrollback ----------------------------------------------------------------
    def _append(self, ctx: AppContext, state: dict, new: list[str]) -> None:
        """Add lines to the scrollback, dropping the oldest past the bounds."""
        lines = state["lines"]
        lines.extend(new)
        drop = max(0, len(lines) - MAX_SCROLLBACK_LINES)
        total = sum(len(s) for s in lines[drop:])
        while total > MAX_SCROLLBACK_CHARS and drop < len(lines) - 1:
            total -= len(lines[drop])
            drop += 1
        if total > MAX_SCROLLBACK_CHARS:  # one line longer than the whole budget: keep its end
            lines[-1] = lines[-1][-MAX_SCROLLBACK_CHARS:]
            state["truncated"] = True
        if drop == 0:
            return
        stored = ctx.scroll_offset(PANE)
        if stored is not None:
            _pane, cols, _rows, _track = _layout(ctx.width, ctx.height)
            gone = sum(tp.row_count(s, cols) for s in lines[:drop])
            _set_top(ctx, max(0, stored // tp.grid()[1] - gone))
        del lines[:drop]
        state["truncated"] = True
        out = state["output"]
        if out is not None:
            state["output"] = [max(0, out[0] - drop), out[1] - drop] if out[1] > drop else None
        state["sel"] = None

    def _clear(self, ctx: AppContext, state: dict) -> None:
        state["lines"] = []
        state["truncated"] = False
        _set_top(ctx, None)
        state["sel"] = None
        state["output"] = None

    def _run(self, ctx: AppContext, state: dict) -> None:
        line = state["input"]
        self._append(ctx, state, _input_lines(state))
        state["input"], state["caret"] = "", 0
        state["recall"], state["draft"] = None, ""
        state["sel"] = None
        if line.strip():
            history = state["history"]
            # Ubuntu's HISTCONTROL=ignoreboth: no repeats, nothing that starts with a space
            if not line.startswith(" ") and (not history or history[-1] != line):
                history.append(line)
                del history[:-MAX_HISTORY]
            result = ctx.run_terminal(line)
            cleared, stdout = _split_clear(result.stdout)
            if cleared or result.clear:
                self._clear(ctx, state)
            out = screen_lines(stdout) + screen_lines(result.stderr)
            self._append(ctx, state, out)
            end = len(state["lines"])
            state["output"] = [max(0, end - len(out)), end] if out else None
        self._refresh_prompt(ctx, state)

    # -- editing the line --------------------------------------------------------------
    def _insert(self, state: dict, text: str) -> None:
        if len(state["input"]) + len(text) > INPUT_MAX:
            raise InvalidInput(f"the input line holds at most {INPUT_MAX} characters")
        c = state["caret"]
        state["input"] = state["input"][:c] + text + state["input"][c:]
        state["caret"] = c + len(text)

    def _typed(self, ctx: AppContext, state: dict, text: str) -> None:
        """Typed text: a line break runs the line so far, other characters are inserted."""
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = ["".join(ch for ch in part if ch.isprintable()) for part in text.split("\n")]
        # refuse before running any line: the first part joins the line being typed, each
        # later one starts a new line after Enter
        if len(state["input"]) + len(parts[0]) > INPUT_MAX or any(len(p) > INPUT_MAX for p in parts[1:]):
            raise InvalidInput(f"the input line holds at most {INPUT_MAX} characters")
        for i, clean in enumerate(parts):
            if clean:
                self._insert(state, clean)
            if i < len(parts) - 1:
                self._run(ctx, state)
        _set_top(ctx, None)

    def _paste(self, ctx: AppContext, state: dict) -> None:
        """Paste the clipboard into the line (line breaks stay in it, as bracketed paste does)."""
        text = ctx.clipboard.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
        clean = "".join(ch for ch in text if ch.isprintable() or ch == "\n")
        if clean:
            self._insert(state, clean)
        _set_top(ctx, None)
        state["menu"] = None

    def _copy(self, ctx: AppContext, state: dict) -> None:
        text = _copy_text(state)
        if text is not None:
            ctx.clipboard = text
        state["menu"] = None

    def _scroll_by(self, ctx: AppContext, state: dict, rows_delta: int) -> bool:
        _pane, cols, rows, _track = _layout(ctx.width, ctx.height)
        wrap = tp.Wrap(_all_lines(state), cols)
        top = _top(ctx.scroll_offset(PANE), wrap, rows)
        bottom = max(0, wrap.total - rows)
        new = max(0, min(bottom, top + rows_delta))
        if new == top:
            return False
        _set_top(ctx, None if new >= bottom else new)
        return True

    def _scroll_to_px(self, ctx: AppContext, state: dict, px: int | None) -> None:
        if px is None:
            return
        _cw, ch = tp.grid()
        _pane, cols, rows, _track = _layout(ctx.width, ctx.height)
        wrap = tp.Wrap(_all_lines(state), cols)
        bottom = max(0, wrap.total - rows)
        new = max(0, min(bottom, (px + ch // 2) // ch))
        _set_top(ctx, None if new >= bottom else new)

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        taken = self._key(ctx, state, chord)
        if taken:
            state["clicks"] = None
        return taken

    def _key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        if state["menu"] is not None:
            state["menu"] = None
            if name == "Escape":
                return True
        text, c = state["input"], state["caret"]
        _pane, _cols, rows, _track = _layout(ctx.width, ctx.height)
        scrolling = {
            "Shift+PageUp": -max(1, rows - 1),
            "Shift+PageDown": max(1, rows - 1),
            "Shift+ArrowUp": -1,
            "Shift+ArrowDown": 1,
        }
        if name in scrolling:
            self._scroll_by(ctx, state, scrolling[name])
            return True
        cmd = ctx.shortcut
        if name == cmd("Primary+Shift+Home"):
            self._scroll_by(ctx, state, -(10**9))
            return True
        if name == cmd("Primary+Shift+End"):
            _set_top(ctx, None)
            return True
        if name in (cmd("Primary+Shift+c"), "Ctrl+Insert"):
            self._copy(ctx, state)
            return True
        if name in (cmd("Primary+Shift+v"), "Shift+Insert"):
            self._paste(ctx, state)
            return True
        if name == cmd("Primary+Shift+a"):
            state["sel"] = _select_all(state)
            return True
        if name == "Escape":
            if state["sel"] is not None:
                state["sel"] = None
                return True
            return False
        if name == "Enter":
            self._run(ctx, state)
            return True
        if name == "Ctrl+c":
            self._append(ctx, state, [*_input_lines(state)[:-1], _input_lines(state)[-1] + "^C"])
            state["input"], state["caret"] = "", 0
            state["recall"], state["draft"] = None, ""
            _set_top(ctx, None)
            return True
        if name in ("ArrowUp", "ArrowDown"):
            self._recall(state, -1 if name == "ArrowUp" else 1)
            _set_top(ctx, None)
            return True
        edits = {
            "Backspace": lambda: (text[: c - 1] + text[c:], c - 1) if c > 0 else (text, c),
            "Delete": lambda: (text[:c] + text[c + 1 :], c),
            "Ctrl+d": lambda: (text[:c] + text[c + 1 :], c),
            "Ctrl+Backspace": lambda: (text[: _word_start(text, c)] + text[c:], _word_start(text, c)),
            "Ctrl+w": lambda: (text[: _space_word_start(text, c)] + text[c:], _space_word_start(text, c)),
            "Ctrl+u": lambda: (text[c:], 0),
            "Ctrl+k": lambda: (text[:c], c),
            "ArrowLeft": lambda: (text, max(0, c - 1)),
            "ArrowRight": lambda: (text, min(len(text), c + 1)),
            "Ctrl+ArrowLeft": lambda: (text, _word_start(text, c)),
            "Ctrl+ArrowRight": lambda: (text, _word_end(text, c)),
            "Home": lambda: (text, 0),
            "Ctrl+a": lambda: (text, 0),
            "End": lambda: (text, len(text)),
            "Ctrl+e": lambda: (text, len(text)),
        }
        if name in edits:
            state["input"], state["caret"] = edits[name]()
            _set_top(ctx, None)
            return True
        if name in ("Tab", "Shift+Tab"):
            return True
        if chord.char is not None:
            self._insert(state, chord.char)
            _set_top(ctx, None)
            return True
        return False

    def _recall(self, state: dict, step: int) -> None:
        history = state["history"]
        recall = state["recall"]
        if step < 0:
            if not history:
                return
            if recall is None:
                state["draft"] = state["input"]
                recall = len(history) - 1
            else:
                recall = max(0, recall - 1)
        else:
            if recall is None:
                return
            recall += 1
            if recall >= len(history):
                state["recall"] = None
                state["input"] = state["draft"]
                state["caret"] = len(state["input"])
                return
        state["recall"] = recall
        state["input"] = history[recall]
        state["caret"] = len(state["input"])

    def type(self, ctx: AppContext, state: dict, text: str) -> bool:
        state["menu"] = None
        state["clicks"] = None
        self._typed(ctx, state, text)
        return True

    # -- pointer -----------------------------------------------------------------------
    def activate(
        self, ctx: AppContext, state: dict, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()
    ) -> Any:
        if target == "menu-dismiss":
            state["menu"] = None
            return None
        if target == TARGET:
            state["menu"] = None
            return None
        if target == "copy":
            self._copy(ctx, state)
            return None
        if target == "paste":
            self._paste(ctx, state)
            return None
        if target == "select-all":
            state["sel"] = _select_all(state)
            state["menu"] = None
            return None
        if target == "clear":
            self._clear(ctx, state)
            state["menu"] = None
            return None
        if tp.parse_bar(target, PANE) is not None:
            state["menu"] = None
            _pane, _cols, rows, _track = _layout(ctx.width, ctx.height)
            self._scroll_by(ctx, state, max(1, rows - 1))
            return None
        raise UnknownTarget(target)

    def is_drag_surface(self, target: str, button: int) -> bool:
        if target == TARGET:
            return button in (0, 2)
        return button == 0 and tp.parse_bar(target, PANE) is not None

    def cursor(self, target: str) -> str | None:
        if target == TARGET:
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
        cw, ch = tp.grid()
        pane, cols, rows, track = _layout(ctx.width, ctx.height)
        if target != TARGET:
            wrap = tp.Wrap(_all_lines(state), cols)
            px = tp.bar_drag(state, target, PANE, phase, point[1], track.y, _top(ctx.scroll_offset(PANE), wrap, rows) * ch)
            self._scroll_to_px(ctx, state, px)
            return
        if button == 2:
            if phase == "down":
                state["menu"] = [point[0], point[1]]
            return
        if phase == "cancel":
            state["drag"] = None
            return
        if phase == "down" and state["menu"] is not None:
            state["menu"] = None
            state["drag"] = None
            return
        wrap = tp.Wrap(_all_lines(state), cols)
        top = _top(ctx.scroll_offset(PANE), wrap, rows)
        row = top + (point[1] - pane.y) // ch
        if row < top:
            self._scroll_by(ctx, state, -1)
        elif row >= top + rows:
            self._scroll_by(ctx, state, 1)
        row = max(0, min(wrap.total - 1, row))
        pos = list(wrap.pos_at(row, point[0] - pane.x, cw))
        if phase == "down":
            sel = state["sel"]
            if "Shift" in modifiers and clicks == 1 and sel:
                # Shift+press extends the selection from its fixed end
                anchor = list(sel[:2])
                state["drag"] = {"kind": "text", "from": [anchor, anchor], "unit": 1}
                state["sel"] = [*anchor, *pos] if anchor != pos else None
                state["clicks"] = None
                return
            n = tp.click_count(state, pos, ctx.now_us, clicks)
            start, end = _unit(wrap.lines, pos, n)
            state["drag"] = {"kind": "text", "from": [list(start), list(end)], "unit": n}
            state["sel"] = [*start, *end] if start != end else None
            return
        drag = state["drag"] if isinstance(state["drag"], dict) and state["drag"].get("kind") == "text" else None
        if drag is None:
            return
        s0, e0 = (tuple(x) for x in drag["from"])
        s1, e1 = _unit(wrap.lines, pos, drag["unit"])
        if s1 < s0:
            state["sel"] = [*e0, *s1]
        else:
            state["sel"] = [*s0, *max(e0, e1)]
        if state["sel"][:2] == state["sel"][2:]:
            state["sel"] = None
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
        if not dy or "Shift" in modifiers or "Ctrl" in modifiers:
            return False
        return self._scroll_by(ctx, state, tp.rows_for_wheel(dy))


# -- selections and copying ----------------------------------------------------------------


def _selection(state: dict) -> tuple[tuple[int, int], tuple[int, int]] | None:
    sel = state["sel"]
    if not sel:
        return None
    a, b = (sel[0], sel[1]), (sel[2], sel[3])
    if a == b:
        return None
    return (a, b) if a < b else (b, a)


def _select_all(state: dict) -> list[int] | None:
    lines = _all_lines(state)
    end = [len(lines) - 1, len(lines[-1])]
    return [0, 0, *end] if end != [0, 0] else None


def _can_copy(state: dict) -> bool:
    return _copy_text(state) is not None


def _copy_text(state: dict) -> str | None:
    """The selection's text, else the last non-empty line the last command printed."""
    sel = _selection(state)
    lines = _all_lines(state)
    if sel is not None:
        (l0, c0), (l1, c1) = sel
        if l0 == l1:
            return lines[l0][c0:c1]
        return "\n".join([lines[l0][c0:], *lines[l0 + 1 : l1], lines[l1][:c1]])
    out = state["output"]
    if out is None:
        return None
    for line in reversed(state["lines"][out[0] : out[1]]):
        if line.strip():
            return line
    return None


def _unit(lines: list[str], pos: list[int], n: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The span a press of ``n`` clicks covers at ``pos``: a point, a word or a line."""
    line, col = pos
    if n == 2:
        s, e = tp.word_at(lines[line], col)
        return (line, s), (line, e)
    if n == 3:
        return (line, 0), (line, len(lines[line]))
    return (line, col), (line, col)


def _word_start(text: str, c: int) -> int:
    i = c
    while i > 0 and not (text[i - 1].isalnum() or text[i - 1] == "_"):
        i -= 1
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
        i -= 1
    return i


def _word_end(text: str, c: int) -> int:
    i, n = c, len(text)
    while i < n and not (text[i].isalnum() or text[i] == "_"):
        i += 1
    while i < n and (text[i].isalnum() or text[i] == "_"):
        i += 1
    return i


def _space_word_start(text: str, c: int) -> int:
    """Where readline's Ctrl+W (unix-word-rubout) stops: the previous whitespace."""
    i = c
    while i > 0 and text[i - 1].isspace():
        i -= 1
    while i > 0 and not text[i - 1].isspace():
        i -= 1
    return i


register(Terminal())
