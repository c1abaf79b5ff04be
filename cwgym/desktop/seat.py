"""A :class:`Seat`: one session's desktop state bound to its machine, theme and grants.

The environment builds a seat for each action that touches the desktop (and for each
scene); everything a seat changes lives in its :class:`~cwgym.desktop.state.Desktop`,
which the session owns. The seat itself holds nothing worth keeping but the repaint
cache handed to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import cwgym.desktop.compositor as compositor
import cwgym.desktop.launcher as launcher
import cwgym.desktop.routing as routing
import cwgym.desktop.wm as wm
from cwgym.desktop.framework import App, AppContext, AppError, AppLookup, InvalidInput
from cwgym.protocol import errors
from cwgym.protocol.errors import ActionError
from cwgym.scene import Rect, Scene

if TYPE_CHECKING:
    from cwgym.desktop.state import Desktop, Window
    from cwgym.desktop.themes.base import ShellView, Theme
    from cwgym.machine.machine import Machine

__all__ = ["Seat"]


class Seat:
    """A desktop in use (see the module docstring).

    Attributes:
        desk: the session's desktop state on this machine.
        machine: the machine it runs on.
        theme: the machine's shell theme, or ``None`` when it has none.
        actions: the session's granted action families.
        observations: the session's granted observation channels.
        cache: the repaint cache (outside the world state).
        shell: whether there is a desktop shell to drive (a theme and ``application.v1``).
        apps: the applications, by id (``cwgym.apps.APPS``; the desktop layer cannot
            import it, so it is handed in).
        web_apps: the world's web apps (``metadata.desktop_apps``): id -> ``(label, url)``,
            each a browser window opened at its URL.
    """

    __slots__ = ("actions", "apps", "cache", "desk", "latch", "machine", "observations", "shell", "theme", "web_apps")

    def __init__(
        self,
        desk: Desktop,
        machine: Machine,
        theme: Theme | None,
        actions: frozenset[str],
        observations: frozenset[str] = frozenset(),
        cache: compositor.SceneCache | None = None,
        latch: Callable[[dict], None] | None = None,
        apps: AppLookup | None = None,
        web_apps: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        self.apps: AppLookup = apps if apps is not None else {}
        self.web_apps: Mapping[str, tuple[str, str]] = web_apps if web_apps is not None else {}
        self.latch = latch
        self.desk = desk
        self.machine = machine
        self.theme = theme
        self.actions = actions
        self.observations = observations
        self.cache = cache if cache is not None else compositor.SceneCache()
        self.shell = theme is not None and "application.v1" in actions

    # -- geometry -------------------------------------------------------------------
    @property
    def native(self) -> tuple[int, int]:
        """The logical screen everything is laid out on."""
        return self.theme.screen if self.theme is not None else compositor.NO_THEME_SCREEN

    def to_native(self, width: int, height: int, x: int, y: int) -> tuple[int, int]:
        """A viewport point in native screen pixels."""
        s = compositor.scale_for(self.native, width, height)
        if s is None:
            return x, y
        return s.inverse_apply(x, y) or (x, y)

    def from_native(self, width: int, height: int, x: int, y: int) -> tuple[int, int]:
        """A native point in a ``width`` x ``height`` viewport."""
        s = compositor.scale_for(self.native, width, height)
        return (x, y) if s is None else s.apply(x, y)

    def content_rect(self, win: Window) -> Rect:
        return self.theme.content_rect(Rect(win.x, win.y, win.width, win.height), win.maximized)

    def local(self, win: Window, native: tuple[int, int]) -> tuple[int, int]:
        """A native point in ``win``'s content coordinates."""
        c = self.content_rect(win)
        return native[0] - c.x, native[1] - c.y

    # -- applications ---------------------------------------------------------------
    def app(self, win: Window) -> App | None:
        """The application of ``win`` (``None`` when none is registered for its id)."""
        return self.apps.get(win.app)

    def app_context(self, win: Window, *, scroll: dict[str, int] | None = None) -> AppContext:
        """A context for a hook on ``win``; it moves the window's own scroll offsets
        unless given another ``scroll`` dict (a copy, for hooks that must not change it)."""
        if self.theme is not None:
            c = self.content_rect(win)
            size = (c.width, c.height)
        else:
            size = (win.width, win.height)
        return AppContext(
            self.machine,
            win.id,
            size,
            self.actions,
            self._launch_from_app,
            self.latch,
            win.scroll if scroll is None else scroll,
            self.theme.primary if self.theme is not None else "Ctrl",
            self.theme,
        )

    def _launch_from_app(self, app_id: str, argument: str | None) -> int:
        try:
            return self.launch(app_id, argument)
        except ActionError as exc:
            raise AppError(f"cannot open {app_id!r}: {exc.error.code}") from None

    def app_call(self, win: Window, hook: str, *args: Any, **kwargs: Any) -> Any:
        """Call an application hook with the window's state (marked changed) and context.

        When the hook asked to close the window (:meth:`AppContext.close`) and returned
        normally, the window closes now. :class:`~cwgym.desktop.framework.AppError` fails
        the action with ``action_failed``; :class:`~cwgym.desktop.framework.InvalidInput`
        with ``invalid``, the state's top-level values and the scroll offsets put back.
        """
        app = self.apps.get(win.app)
        if app is None:
            return False if hook in ("key", "type", "wheel") else True if hook == "can_close" else None
        state = win.touch()
        ctx = self.app_context(win)
        saved = (dict(state) if isinstance(state, dict) else None, dict(win.scroll))
        try:
            result = getattr(app, hook)(ctx, state, *args, **kwargs)
        except AppError:
            raise ActionError(errors.ACTION_FAILED) from None
        except InvalidInput:
            if saved[0] is not None:  # the application refused before changing anything nested
                state.clear()
                state.update(saved[0])
            win.scroll.clear()
            win.scroll.update(saved[1])
            raise ActionError(errors.INVALID) from None
        finally:
            win.title = app.title(state) or win.title
            win.document = app.document(state)
        if ctx.close_requested and self.desk.windows.get(win.id) is win:
            wm.close(self.desk, win)
        return result

    def paint_keys(self, windows: list[Window]) -> list[Any]:
        out = []
        for win in windows:
            app = self.apps.get(win.app)
            ctx = self.app_context(win, scroll=dict(win.scroll))
            out.append(app.paint_key(ctx, win.state) if app is not None else None)
        return out

    def close(self, win: Window) -> bool:
        """Close ``win`` as the window manager does, asking its application first
        (:meth:`~cwgym.desktop.framework.App.can_close`). When the application keeps it
        open, the window is raised and focused (its dialog shows) and this returns
        ``False``; the action still succeeds."""
        if not self.app_call(win, "can_close"):
            if self.desk.windows.get(win.id) is win:
                wm.focus(self.desk, win)
            return False
        if self.desk.windows.get(win.id) is win:
            wm.close(self.desk, win)
        return True

    # -- shell ----------------------------------------------------------------------
    def require_shell(self) -> None:
        """Refuse with ``no_desktop_shell`` when there is no shell to drive."""
        if not self.shell:
            raise ActionError(errors.INVALID, errors.NO_DESKTOP_SHELL)

    def require_window_manager(self) -> None:
        """Refuse with ``unsupported_operation`` on a kiosk (``Theme.kiosk``), whose windows
        stay full-screen and which has no desktop, app grid or switcher to show."""
        self.require_shell()
        if self.theme.kiosk:
            raise ActionError(errors.INVALID, errors.UNSUPPORTED_OPERATION)

    def shell_view(self) -> ShellView:
        return launcher.shell_view(self)

    def label(self, app_id: str) -> str:
        return launcher.label(self, app_id)

    # -- the operations the families call -------------------------------------------
    def scene(self, width: int, height: int) -> Scene:
        """The composed scene at this viewport (typed; cached by content)."""
        return compositor.compose(self, width, height)

    def list_apps(self, include_uninstalled: bool = False) -> list[dict[str, Any]]:
        return launcher.list_apps(self, include_uninstalled)

    def launch(self, kind: Any, argument: Any = None) -> int:
        return launcher.launch(self, kind, argument)

    def activate(self, target: Any) -> Any:
        return launcher.activate(self, target)

    def home(self) -> None:
        """Show the desktop (``application.v1 home``): close panels, minimize every window."""
        self.require_window_manager()
        launcher.home(self)

    def open_launcher(self) -> None:
        """Open the app grid (``application.v1 launcher``); already open, it stays open."""
        self.require_window_manager()
        launcher.toggle_launcher(self, open_only=True)

    def step_switcher(self) -> None:
        """Open the window switcher, or move its selection on (``application.v1 switcher``)."""
        self.require_window_manager()
        launcher.switcher_step(self)

    def pointer(self, op: str, payload: dict) -> Any:
        return routing.pointer(self, op, payload)

    def key(self, name: Any) -> None:
        routing.key(self, name)

    def type_text(self, text: Any) -> None:
        routing.type_text(self, text)
