"""The application framework: the :class:`App` base class and its :class:`AppContext`.

An application is a module (in ``cwgym/apps/``) that defines a subclass of :class:`App`
and registers an instance in ``cwgym.apps.APPS`` (``cwgym.apps.register``). The
registry lives in the apps layer, above this one: the desktop never imports it but is
handed it (``Seat(..., apps=APPS)``) and reads it through :class:`AppLookup`, so adding an
application is adding a module and the desktop stays free of any particular one.

An application owns its state: the JSON-like value :meth:`App.create` returns, kept on the
window (dicts with ``str`` keys, lists, str, int, float, bool, None — nothing else, so it
freezes, hashes and exports as it is). The desktop hands that state to the event hooks,
which change it in place; ``paint`` only reads it. Everything an application does to the
machine goes through its :class:`AppContext`: the user's permission-checked files, the
shell, the clipboard and the clock.

Hooks (all optional but :meth:`App.create` and :meth:`App.paint`):

* ``create(ctx, argument) -> state`` — a new window's state; raise :class:`AppError` to
  refuse (``action_failed``).
* ``paint(p, state, key)`` — draw the content with the :class:`~cwgym.desktop.painter.Painter`;
  ``key`` is what ``paint_key`` returned for this composition.
* ``paint_key(ctx, state)`` — anything besides ``state`` the painting depends on (for
  instance a folder listing): handed to ``paint`` and part of the repaint cache key, so
  it must be hashable and compare equal exactly when it paints the same. Default ``None``.
* ``title(state)`` / ``document(state)`` — what the title bar says, what it presents.
* ``location(state)`` — where a navigating application is (a browser's URL): a change is
  the ``navigate`` effect. Default ``""``.
* ``tabs(state)`` / ``active_tab(state)`` — the titles of the window's tabs and the
  selected one (the scene's ``SceneWindow.tabs`` and ``active_tab``). Default: none, 0.
* ``activate(ctx, state, target, point, modifiers)`` — a click on
  ``window:<id>:content:<target>`` (``point`` in content coordinates, ``None`` from
  ``application.v1 shell``; ``modifiers`` the pointer's, like ``("Ctrl", "Shift")``);
  returns the action's value. Raise :class:`UnknownTarget` for a target it does not have.
* ``double_click(ctx, state, target, point, modifiers)`` — defaults to ``activate``.
* ``key(ctx, state, chord) -> bool`` and ``type(ctx, state, text) -> bool`` — keyboard
  input while the window is focused; ``False`` means "not mine". Every text an
  application keeps from typing has a documented cap on its length; input that would go
  past it raises :class:`InvalidInput` (the action fails with ``invalid``) before it
  changes anything.
* ``drag(ctx, state, target, phase, point, button, modifiers, clicks)`` — pointer capture
  on one of the targets :meth:`App.is_drag_surface` accepts; ``phase`` is ``down``,
  ``move``, ``up`` or ``cancel``; ``clicks`` is 2 when the press is a
  ``pointer.v1 double_click``, else 1.
* ``wheel(ctx, state, target, point, dx, dy, modifiers) -> bool`` — the application's own
  use of the wheel, asked before the desktop scrolls a pane.
* ``cursor(target)`` — the cursor hint over one of its targets (``crosshair``...).
* ``can_close(ctx, state) -> bool`` — asked before the window manager closes the window
  (its ✕ button, ``Alt+F4``, the window menu's Close, ``application.v1 close``). Return
  ``False`` to keep the window open — typically after showing a "save changes?" dialog
  in the state; the window is then raised and focused so the dialog shows. Default
  ``True``. An application closing itself with :meth:`AppContext.close` is not asked.

Modifier names are ``Ctrl``, ``Alt``, ``Shift`` and ``Meta``, in that order. Command
shortcuts are the theme's: write them with the placeholder ``Primary`` and ask the context
(``ctx.pressed(chord, "Primary+s")``, ``ctx.shortcut("Primary+s")``, ``ctx.primary``), so
``Primary+s`` is Ctrl+S on Ubuntu and Cmd+S (``Meta+s``) on a theme whose primary modifier
is ``Meta``. Text-editing keys (``Ctrl+ArrowLeft``, ``Ctrl+Backspace``) and a terminal's
control characters (``Ctrl+c``) are the same under every theme and stay literal.

Scroll offsets live on the window, by pane name (the scene's ``pane:<name>`` scroll
areas): the desktop's wheel moves them, :meth:`Painter.scroll` publishes them and
:meth:`AppContext.scroll_offset` / :meth:`AppContext.set_scroll_offset` let an
application's own scrolling (keys, its scroll bars, keeping a caret in view) read and move
them. A change to them is reported as the ``scroll`` effect, not ``content``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from cwgym.desktop.keys import shortcut

if TYPE_CHECKING:
    from cwgym.desktop.keys import Chord
    from cwgym.desktop.painter import Painter
    from cwgym.machine.context import CommandResult
    from cwgym.machine.filesystem import UserFS
    from cwgym.machine.machine import Machine

__all__ = ["App", "AppContext", "AppError", "AppLookup", "InvalidInput", "UnknownTarget"]


class AppError(Exception):
    """An application refuses what it was asked (the action fails with ``action_failed``)."""


class UnknownTarget(Exception):
    """An application has no control answering to a target."""


class InvalidInput(Exception):
    """An application refuses input as invalid — typing or pasting past a text's cap.

    The action fails with ``invalid`` and the window is left as it was: raise it before
    changing anything nested in the state (the desktop puts back the state's top-level
    values and the window's scroll offsets, not what lists and dicts inside hold).
    """


class AppContext:
    """What an application may reach while it handles an event.

    Attributes:
        machine: the machine (trusted); prefer the helpers below.
        window: the window id.
        width, height: the size of the window's content area in pixels.
        primary: the theme's primary modifier (``Ctrl`` or ``Meta``), what ``Primary``
            stands for in a shortcut.
        theme: the desktop's shell theme (``None`` without one): an application reads its
            traits, such as ``kiosk`` (the browser then shows no tab strip or toolbar).
    """

    __slots__ = (
        "_closing",
        "_grants",
        "_latch",
        "_launch",
        "_scroll",
        "height",
        "machine",
        "primary",
        "theme",
        "width",
        "window",
    )

    def __init__(
        self,
        machine: Machine,
        window: int,
        size: tuple[int, int],
        grants: frozenset[str],
        launch: Callable[[str, str | None], int] | None = None,
        latch: Callable[[dict], None] | None = None,
        scroll: dict[str, int] | None = None,
        primary: str = "Ctrl",
        theme: Any = None,
    ) -> None:
        self.machine = machine
        self.primary = primary
        self.theme = theme
        self.window = window
        self.width, self.height = size
        self._grants = grants
        self._launch = launch
        self._latch = latch
        self._scroll = scroll if scroll is not None else {}
        self._closing = False

    # -- the window ----------------------------------------------------------------------
    def close(self) -> None:
        """Close this window once the current event is handled (the application's own
        Close, or "Discard" in its unsaved-changes dialog). :meth:`App.can_close` is not
        asked. Outside an event (``create``, ``paint_key``) it does nothing."""
        self._closing = True

    @property
    def close_requested(self) -> bool:
        """Whether :meth:`close` was called during this event."""
        return self._closing

    def scroll_offset(self, name: str) -> int | None:
        """The window's stored offset of the pane ``pane:<name>`` in pixels, or ``None``
        when it stores none (never scrolled, or reset with ``set_scroll_offset(name,
        None)``). It may exceed what the pane's extent allows now: clamp before use."""
        return self._scroll.get(name)

    def set_scroll_offset(self, name: str, value: int | None) -> None:
        """Move the pane ``pane:<name>`` to ``value`` pixels (``None``: forget the offset,
        which the application reads as its default — the top, or the bottom of a
        terminal that follows its output). Reported as the ``scroll`` effect."""
        if not isinstance(name, str) or not name:
            raise ValueError("a scroll pane needs a name")
        if value is None:
            self._scroll.pop(name, None)
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("a scroll offset is an int (pixels) or None")
        self._scroll[name] = max(0, value)

    # -- the theme's keys ----------------------------------------------------------------
    def shortcut(self, spec: str) -> str:
        """The chord name ``spec`` stands for under this theme (``Primary+s`` -> ``Ctrl+s``
        on Ubuntu), to compare with :attr:`Chord.name <cwgym.desktop.keys.Chord.name>`."""
        return shortcut(spec, self.primary)

    def pressed(self, chord: Chord, *specs: str) -> bool:
        """Whether ``chord`` is any of the shortcuts ``specs`` under this theme."""
        name = chord.name
        primary = self.primary
        return any(shortcut(spec, primary) == name for spec in specs)

    # -- the machine ---------------------------------------------------------------------
    def launch(self, app_id: str, argument: str | None = None) -> int:
        """Open another application window (the file manager opening a text file in the
        editor); returns its window id. Raises :class:`AppError` when it cannot open."""
        if self._launch is None:
            raise AppError(f"no desktop to launch {app_id!r} on")
        return self._launch(app_id, argument)

    def run_terminal(self, command: str) -> CommandResult:
        """Run a line typed into a terminal window: like :meth:`run`, and the result is
        also latched into the acting session's ``terminal.v1`` channel, as a
        ``terminal.v1 execute`` would be."""
        result = self.machine.execute(command)
        if self._latch is not None:
            self._latch(result.to_plain())
        return result

    def files(self) -> UserFS:
        """The filesystem as the machine's user (permission-checked)."""
        return self.machine.user_fs()

    @property
    def cwd(self) -> str:
        return self.machine.shell.cwd

    @property
    def home(self) -> str:
        return self.machine.home

    def run(self, command: str) -> CommandResult:
        """Run a command line in the machine's shell (shared with every session)."""
        return self.machine.execute(command)

    @property
    def clipboard(self) -> str:
        return self.machine.clipboard

    @clipboard.setter
    def clipboard(self, text: str) -> None:
        self.machine.clipboard = str(text)

    @property
    def now_us(self) -> int:
        """Logical time in microseconds."""
        return self.machine.clock.now_us

    def granted(self, family: str) -> bool:
        """Whether the acting session holds ``family`` (for cross-family gates)."""
        return family in self._grants


class App:
    """Base class of an application. Subclass, set the class attributes, register an instance.

    Attributes:
        id: the application id (``launch`` kind, ``shell:launch:<id>``).
        label: the label when the theme has none for this id.
        kind: ``builtin``, ``native`` or ``web``.
        catalogued: False for applications outside the catalogue (test fixtures): they are
            listed only where installed.
        keyboard_route: what ``Focus.keyboard.route`` says while the window is focused
            (``application``, ``terminal``, ``editor``).
        default_size: the outer size of a new window.
        min_size: the smallest outer size a resize may reach.
        opens: file name suffixes a desktop icon opens with this application.
        focus_keys: top-level keys of the state that hold the application's keyboard focus
            (reported under the ``focus`` effect tag rather than ``content``).
    """

    id: str = ""
    label: str = ""
    kind: str = "native"
    catalogued: bool = True
    keyboard_route: str = "application"
    default_size: tuple[int, int] = (720, 480)
    min_size: tuple[int, int] = (240, 160)
    opens: tuple[str, ...] = ()
    focus_keys: tuple[str, ...] = ()

    def create(self, ctx: AppContext, argument: str | None) -> Any:
        raise NotImplementedError

    def paint(self, p: Painter, state: Any, key: Any) -> None:
        """Draw the window's content; ``key`` is what :meth:`paint_key` returned."""
        raise NotImplementedError

    def title(self, state: Any) -> str:
        return self.label

    def document(self, state: Any) -> str:
        return ""

    def location(self, state: Any) -> str:
        """Where the window has navigated to (a browser's tab, history entry and URL); a
        change is reported as the ``navigate`` effect. Default ``""``: not a navigator."""
        return ""

    def tabs(self, state: Any) -> list[str]:
        """The titles of the window's tabs, in order (none by default)."""
        return []

    def active_tab(self, state: Any) -> int:
        """The index of the selected tab in :meth:`tabs`."""
        return 0

    def paint_key(self, ctx: AppContext, state: Any) -> Any:
        """What the window shows beyond its own state, read from the machine: it keys the
        repaint cache. It may read the machine's files, clipboard and clock to the minute,
        nothing else (the compositor recomposes when one of those changes, not when a
        process starts or a shell variable is set)."""
        return None

    def can_close(self, ctx: AppContext, state: Any) -> bool:
        """Whether the window manager may close the window now (see the module docs)."""
        return True

    def activate(
        self,
        ctx: AppContext,
        state: Any,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        raise UnknownTarget(target)

    def double_click(
        self,
        ctx: AppContext,
        state: Any,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        return self.activate(ctx, state, target, point, modifiers)

    def key(self, ctx: AppContext, state: Any, chord: Chord) -> bool:
        return False

    def type(self, ctx: AppContext, state: Any, text: str) -> bool:
        return False

    def is_drag_surface(self, target: str, button: int) -> bool:
        return False

    def drag(
        self,
        ctx: AppContext,
        state: Any,
        target: str,
        phase: str,
        point: tuple[int, int],
        button: int,
        modifiers: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> None:
        return None

    def cursor(self, target: str) -> str | None:
        """The cursor over (or while dragging) ``target``; ``None`` for the default choice."""
        return None

    def wheel(
        self,
        ctx: AppContext,
        state: Any,
        target: str | None,
        point: tuple[int, int],
        dx: int,
        dy: int,
        modifiers: tuple[str, ...],
    ) -> bool:
        return False


class AppLookup(Protocol):
    """What the desktop needs of an application registry: the application of an id.

    ``cwgym.apps.APPS`` (a :class:`~cwgym.kernel.registry.Registry`) is one; so is a plain
    ``dict`` of id -> :class:`App`.
    """

    def get(self, name: str, default: None = None, /) -> App | None: ...

