"""application.v1: what is installed, launching, window control and the shell's controls.

Every operation but ``list`` needs a desktop shell (a machine whose world definition names
a desktop theme this engine has); without one it is ``invalid``/``no_desktop_shell``.

| op | payload | value |
|---|---|---|
| ``list`` | ``{installed?: bool = true}`` | ``[{id, label, kind, installed, launchable, blocked_by}]`` |
| ``launch`` | ``{kind, argument?}`` | ``{window}`` |
| ``focus``, ``close`` | ``{window}`` | ``null`` |
| ``minimize``, ``maximize``, ``restore`` | ``{window?}`` (default: the focused one) | ``null`` |
| ``home``, ``launcher``, ``switcher`` | ``{}`` | ``null`` |
| ``shell`` | ``{target}`` | what a click on that control returns |
"""

from __future__ import annotations

from typing import Any

from cwgym.desktop import shell, wm
from cwgym.desktop.seat import Seat
from cwgym.environment.families import ActionContext, invalid, unsupported


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
        wm.close(seat.desk, _window(seat, payload))

    def _op_minimize(self, seat: Seat, payload: dict[str, Any]) -> Any:
        wm.minimize(seat.desk, _window(seat, payload, default_focused=True))

    def _op_maximize(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload, default_focused=True)
        wm.focus(seat.desk, win)
        wm.maximize(seat.desk, seat.theme, win)

    def _op_restore(self, seat: Seat, payload: dict[str, Any]) -> Any:
        win = _window(seat, payload, default_focused=True)
        wm.restore(seat.desk, win)

    def _op_home(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.require_shell()
        shell.home(seat)

    def _op_launcher(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.require_shell()
        shell.toggle_launcher(seat, open_only=True)

    def _op_switcher(self, seat: Seat, payload: dict[str, Any]) -> Any:
        seat.require_shell()
        shell.switcher_step(seat)

    def _op_shell(self, seat: Seat, payload: dict[str, Any]) -> Any:
        target = payload.get("target")
        if not isinstance(target, str):
            raise invalid()
        return seat.activate(target)
