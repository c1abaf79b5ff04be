"""application.v1: what is installed, launching, window control and the shell's controls.

Every operation but ``list`` needs a desktop shell (a machine whose world definition names
a desktop theme this engine has); without one it is ``invalid``/``no_desktop_shell``.

| op | payload | value |
|---|---|---|
| ``list`` | ``{installed?: bool = true}`` | ``[{id, label, kind, installed, launchable, blocked_by}]`` |
| ``launch`` | ``{kind, argument?}`` | ``{window}`` |
| ``focus``, ``close`` | ``{window}`` | ``null`` (``close`` asks the application first) |
| ``minimize``, ``maximize``, ``restore`` | ``{window?}`` (default: the focused one) | ``null`` |
| ``home``, ``launcher``, ``switcher`` | ``{}`` | ``null`` |
| ``shell`` | ``{target}`` | what a click on that control returns |

On a kiosk theme (``Theme.kiosk``) ``minimize``, ``restore``, ``home``, ``launcher`` and
``switcher`` are ``invalid``/``unsupported_operation`` and ``maximize`` changes nothing:
every window fills the screen.
"""

from __future__ import annotations

from typing import Any

from cwgym.desktop import wm
from cwgym.desktop.seat import Seat
from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.machine.filesystem import FsError
from cwgym.protocol import errors
from cwgym.render import to_png


def _window(seat: Seat, payload: dict[str, Any], *, default_focused: bool = False) -> Any:
    seat.require_shell()
    desk = seat.desk
    if "window" not in payload and default_focused:
        win = desk.windows.get(desk.focused) if desk.focused is not None else None
    else:
        win = desk.window(payload.get("window"))
    if win is None:
        raise invalid()
    return win


class ApplicationFamily:
    version = "1"

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        handler = getattr(self, f"_op_{op}", None)
        if handler is None:
            raise unsupported()
        if op == "shell":
            return self._op_shell(ctx.seat(), payload, ctx)
        return handler(ctx.seat(), payload)

    def _op_list(self, seat: Seat, payload: dict[str, Any]) -> Any:
        only_installed = payload.get("installed", True)
        if not isinstance(only_installed, bool):
            raise invalid()
        return seat.list_apps(include_uninstalled=not only_installed)

    def _op_launch(self, seat: Seat, payload: dict[str, Any]) -> Any:
        return {"window": seat.launch(payload.get("kind"), payload.get("argument"))}

    def _op_focus(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload)
        seat.desk.panel = None
        wm.focus(seat.desk, win)

    def _op_close(self, seat: Seat, payload: dict[str, Any]) -> Any:
        # the application may keep the window open (unsaved changes): it then shows its
        # dialog, the window is raised, and the action still succeeds with null
        seat.close(_window(seat, payload))

    def _op_minimize(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload, default_focused=True)
        seat.require_window_manager()  # a kiosk keeps every window on screen
        wm.minimize(seat.desk, win)

    def _op_maximize(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload, default_focused=True)
        wm.focus(seat.desk, win)
        wm.maximize(seat.desk, seat.theme, win)

    def _op_restore(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload, default_focused=True)
        seat.require_window_manager()
        wm.restore(seat.desk, win)

    def _op_home(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.home()

    def _op_launcher(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.open_launcher()

    def _op_switcher(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.step_switcher()

    def _op_shell(self, seat: Seat, payload: dict[str, Any], ctx: ActionContext) -> Any:
        target = payload.get("target")
        if not isinstance(target, str):
            raise invalid()
        if target == "shell:screenshot":
            return screenshot(ctx, seat)
        return seat.activate(target)


def screenshot(ctx: ActionContext, seat: Seat) -> dict[str, str]:
    """Save the screen as a PNG in the user's Pictures folder, at the viewport the actor
    last addressed (the native screen before any pointer action). Needs pixels.v1."""
    seat.require_shell()
    if "pixels.v1" not in ctx.session.config.observations:
        raise errors.ActionError(errors.DENIED, errors.PIXELS_NOT_GRANTED)
    width, height = seat.desk.viewport or seat.native
    frame = ctx.runtime.visual(ctx.session.id, width, height, "render", gate=False)
    machine = ctx.machine
    fs = machine.user_fs()
    folder = f"{machine.home}/Pictures"
    try:
        if not fs.exists(folder, "/"):
            fs.mkdir(folder, "/")
        index = 0
        while fs.exists(f"{folder}/screen-{index}.png", "/"):
            index += 1
        path = f"{folder}/screen-{index}.png"
        fs.write(path, "/", to_png(frame["rgba"], width, height))
    except FsError:
        raise errors.ActionError(errors.ACTION_FAILED) from None
    ctx.journal("filesystem.write", {"path": path, "bytes": -1, "append": False})
    return {"path": path}


FAMILIES.register("application.v1", ApplicationFamily())
