"""``SeatLike``: what the compositor, input routing, launcher and autostart need of a seat.

:class:`~cwgym.desktop.seat.Seat` is the façade that binds a desktop to its machine,
theme and grants, and it calls into :mod:`~cwgym.desktop.compositor`,
:mod:`~cwgym.desktop.routing` and :mod:`~cwgym.desktop.launcher`; those modules in turn
need a seat to work on. They name this protocol rather than the class, so the façade
depends on them and never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cwgym.desktop.framework import App, AppContext, AppLookup
    from cwgym.desktop.scene_cache import SceneCache
    from cwgym.desktop.state import Desktop, Window
    from cwgym.desktop.themes.base import ShellView, Theme
    from cwgym.machine.machine import Machine
    from cwgym.scene import Rect, Scene

__all__ = ["SeatLike"]


class SeatLike(Protocol):
    """A desktop in use (see :class:`~cwgym.desktop.seat.Seat` for each member)."""

    desk: Desktop
    machine: Machine
    theme: Theme | None
    actions: frozenset[str]
    cache: SceneCache
    shell: bool
    apps: AppLookup
    web_apps: Mapping[str, tuple[str, str]]

    @property
    def native(self) -> tuple[int, int]: ...

    def to_native(self, width: int, height: int, x: int, y: int) -> tuple[int, int]: ...

    def from_native(self, width: int, height: int, x: int, y: int) -> tuple[int, int]: ...

    def content_rect(self, win: Window) -> Rect: ...

    def local(self, win: Window, native: tuple[int, int]) -> tuple[int, int]: ...

    def app(self, win: Window) -> App | None: ...

    def app_context(self, win: Window, *, scroll: dict[str, int] | None = None) -> AppContext: ...

    def app_call(self, win: Window, hook: str, *args: Any, **kwargs: Any) -> Any: ...

    def paint_keys(self, windows: list[Window]) -> list[Any]: ...

    def close(self, win: Window) -> bool: ...

    def require_shell(self) -> None: ...

    def shell_view(self) -> ShellView: ...

    def scene(self, width: int, height: int) -> Scene: ...

    def launch(self, kind: Any, argument: Any = None) -> int: ...
