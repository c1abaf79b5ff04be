"""Desktop state: one session's windows, stacking, focus and shell on one machine.

Everything here is plain data. A :class:`Desktop` freezes into an immutable tuple for
snapshots, thaws back, and converts to and from the plain dicts that ``inspect``, the state
hash and exported snapshots carry.

An application's own state is a JSON-like value (dicts with ``str`` keys, lists, str,
int, float, bool, None) kept on its :class:`Window`. The window holds it either decoded
(``state``) or as its canonical msgpack encoding (``blob``), whichever was needed last:
freezing an untouched window reuses the encoding, so a snapshot costs the number of
windows, not the size of what they hold. Code that is about to change an application's
state takes it with :meth:`Window.touch`, which drops the stale encoding.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.kernel.digest import canonical, u64

__all__ = ["Desktop", "Window"]

_decode = msgspec.msgpack.decode


def _bytes_or_none(value: Any) -> bytes | None:
    return None if value is None else canonical(value)


def _value_or_none(blob: bytes | None) -> Any:
    return None if blob is None else _decode(blob)


class Window:
    """One window: geometry, stacking flags, what it shows, and its application's state.

    Attributes:
        id: window id (per session, increasing from 0).
        app: application id (``editor``, ``terminal`` ...).
        title, document: what the title bar says and the path/URL it presents.
        x, y, width, height: outer frame in native screen pixels (decoration included).
        minimized, maximized: window state.
        restore: the frame ``[x, y, width, height]`` to return to from maximized.
        scroll: scroll offsets of the window's panes in pixels, by pane name (moved by the
            desktop's wheel and by the application: ``AppContext.set_scroll_offset``).
    """

    __slots__ = (
        "_blob",
        "_digest",
        "_split",
        "_state",
        "app",
        "document",
        "height",
        "id",
        "maximized",
        "minimized",
        "restore",
        "scroll",
        "title",
        "width",
        "x",
        "y",
    )

    def __init__(
        self,
        window_id: int,
        app: str,
        bounds: tuple[int, int, int, int],
        state: Any = None,
        *,
        title: str = "",
        document: str = "",
    ) -> None:
        self.id = window_id
        self.app = app
        self.title = title
        self.document = document
        self.x, self.y, self.width, self.height = bounds
        self.minimized = False
        self.maximized = False
        self.restore: list[int] | None = None
        self.scroll: dict[str, int] = {}
        self._state = state
        self._blob: bytes | None = None
        self._digest: int | None = None
        self._split: tuple[int, int] | None = None

    # -- application state ------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The application's state for reading. Use :meth:`touch` before changing it."""
        if self._blob is not None and self._state is None:
            self._state = _decode(self._blob)
        return self._state

    def touch(self) -> Any:
        """The application's state, about to be changed: forgets the cached encoding."""
        state = self.state
        self._blob = None
        self._digest = None
        self._split = None
        return state

    def replace_state(self, state: Any) -> None:
        """Give the window a new application state."""
        self._state = state
        self._blob = None
        self._digest = None
        self._split = None

    @property
    def blob(self) -> bytes:
        """The canonical encoding of the application state (cached until :meth:`touch`)."""
        if self._blob is None:
            self._blob = canonical(self._state)
        return self._blob

    @property
    def state_digest(self) -> int:
        """A 64-bit digest of the application state."""
        if self._digest is None:
            self._digest = u64(self.blob)
        return self._digest

    def split_digests(self, focus_keys: tuple[str, ...]) -> tuple[int, int]:
        """Digests of the state without and with only ``focus_keys`` (content, focus)."""
        if self._split is None:
            state = self.state
            if focus_keys and isinstance(state, dict):
                focus = {k: state[k] for k in focus_keys if k in state}
                rest = {k: v for k, v in state.items() if k not in focus_keys}
                self._split = (u64(canonical(rest)), u64(canonical(focus)))
            else:
                self._split = (self.state_digest, 0)
        return self._split

    # -- geometry ---------------------------------------------------------------------
    @property
    def bounds(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.width, self.height

    def set_bounds(self, x: int, y: int, width: int, height: int) -> None:
        self.x, self.y, self.width, self.height = x, y, width, height

    # -- freezing ---------------------------------------------------------------------
    def meta(self) -> tuple:
        """Everything but the application state, as an immutable tuple."""
        return (
            self.id,
            self.app,
            self.title,
            self.document,
            self.x,
            self.y,
            self.width,
            self.height,
            self.minimized,
            self.maximized,
            tuple(self.restore) if self.restore is not None else None,
            tuple(sorted(self.scroll.items())),
        )

    def frozen(self) -> tuple:
        return (self.meta(), self.blob)

    @classmethod
    def thaw(cls, value: tuple) -> Window:
        meta, blob = value
        wid, app, title, document, x, y, w, h, minimized, maximized, restore, scroll = meta
        win = cls(wid, app, (x, y, w, h), None, title=title, document=document)
        win.minimized, win.maximized = minimized, maximized
        win.restore = list(restore) if restore is not None else None
        win.scroll = dict(scroll)
        win._blob = blob
        return win

    def plain(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "app": self.app,
            "title": self.title,
            "document": self.document,
            "bounds": [self.x, self.y, self.width, self.height],
            "minimized": self.minimized,
            "maximized": self.maximized,
            "restore": list(self.restore) if self.restore is not None else None,
            "scroll": dict(sorted(self.scroll.items())),
            "state": _decode(self.blob),
        }

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> Window:
        win = cls(d["id"], d["app"], tuple(d["bounds"]), d["state"], title=d["title"], document=d["document"])
        win.minimized, win.maximized = d["minimized"], d["maximized"]
        win.restore = list(d["restore"]) if d["restore"] is not None else None
        win.scroll = {str(k): int(v) for k, v in d["scroll"].items()}
        return win


class Desktop:
    """A session's desktop on one machine.

    Attributes:
        windows: window id -> :class:`Window`.
        stack: window ids bottom to top (minimized windows keep their place).
        focused: the focused window, or ``None``.
        next_id: the id the next window gets.
        panel: the open shell panel as a plain dict (``{"kind": "launcher", "search":
            ""}``, ``{"kind": "switcher", "order": [...], "index": 1}``, ``{"kind":
            "context", ...}``), or ``None``.
        selected_icon: the selected desktop icon's target, or ``None``.
        press: the pointer press in progress (target, bounds, capture), or ``None``.
        viewport: the pointer viewport ``[width, height]`` last addressed, or ``None``.
    """

    __slots__ = ("focused", "next_id", "panel", "press", "selected_icon", "stack", "viewport", "windows")

    def __init__(self) -> None:
        self.windows: dict[int, Window] = {}
        self.stack: list[int] = []
        self.focused: int | None = None
        self.next_id = 0
        self.panel: dict[str, Any] | None = None
        self.selected_icon: str | None = None
        self.press: dict[str, Any] | None = None
        self.viewport: list[int] | None = None

    # -- queries ----------------------------------------------------------------------
    def window(self, window_id: Any) -> Window | None:
        if type(window_id) is not int:
            return None
        return self.windows.get(window_id)

    def visible_stack(self) -> list[Window]:
        """Windows that are not minimized, bottom to top."""
        return [self.windows[i] for i in self.stack if not self.windows[i].minimized]

    def top_visible(self) -> Window | None:
        for wid in reversed(self.stack):
            if not self.windows[wid].minimized:
                return self.windows[wid]
        return None

    def running_apps(self) -> list[str]:
        return sorted({w.app for w in self.windows.values()})

    # -- freezing ---------------------------------------------------------------------
    def frozen(self) -> tuple:
        return (
            tuple(self.windows[i].frozen() for i in sorted(self.windows)),
            tuple(self.stack),
            self.focused,
            self.next_id,
            _bytes_or_none(self.panel),
            self.selected_icon,
            _bytes_or_none(self.press),
            tuple(self.viewport) if self.viewport is not None else None,
        )

    @classmethod
    def thaw(cls, value: tuple) -> Desktop:
        windows, stack, focused, next_id, panel, selected, press, viewport = value
        d = cls()
        for frozen in windows:
            win = Window.thaw(frozen)
            d.windows[win.id] = win
        d.stack = list(stack)
        d.focused = focused
        d.next_id = next_id
        d.panel = _value_or_none(panel)
        d.selected_icon = selected
        d.press = _value_or_none(press)
        d.viewport = list(viewport) if viewport is not None else None
        return d

    def plain(self) -> dict[str, Any]:
        return {
            "windows": [self.windows[i].plain() for i in sorted(self.windows)],
            "stack": list(self.stack),
            "focused": self.focused,
            "next_id": self.next_id,
            "panel": _value_or_none(_bytes_or_none(self.panel)),
            "selected_icon": self.selected_icon,
            "press": _value_or_none(_bytes_or_none(self.press)),
            "viewport": list(self.viewport) if self.viewport is not None else None,
        }

    @classmethod
    def from_plain(cls, p: dict[str, Any]) -> Desktop:
        d = cls()
        for wp in p["windows"]:
            win = Window.from_plain(wp)
            d.windows[win.id] = win
        d.stack = [int(i) for i in p["stack"]]
        if sorted(d.stack) != sorted(d.windows):
            raise ValueError("desktop stack does not list exactly its windows")
        d.focused = p["focused"]
        d.next_id = int(p["next_id"])
        d.panel = p["panel"]
        d.selected_icon = p["selected_icon"]
        d.press = p["press"]
        d.viewport = list(p["viewport"]) if p["viewport"] is not None else None
        return d
