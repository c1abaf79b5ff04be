"""A kiosk: a 320x420 screen that is nothing but the topmost window's content.

The MiniWoB++ tasks show an agent a small screen holding one web page and nothing else;
this theme is that screen. There is no top bar, dock, desktop icon, app grid, switcher or
context menu, and windows have no decoration: every window is opened maximized over the
whole native screen (``SCREEN``), so the topmost one is all that shows.

The window manager keeps it so (see ``docs/desktop.md``, "The kiosk"): ``application.v1``
``minimize``, ``restore``, ``home``, ``launcher`` and ``switcher`` are refused with
``invalid``/``unsupported_operation``, ``maximize`` is a no-op (the window already fills
the screen), and since no frame, button or grip is painted, window targets other than
``window:<id>:focus`` and ``window:<id>:content:<target>``, and every ``shell:`` target,
answer ``unknown_shell_target``. Applications still launch through ``application.v1`` and
autostart, and ``focus`` and ``close`` work as on any desktop.

Keys: the kiosk keeps no shell or window-manager shortcut, so every key goes to the
focused application (``Alt+F4`` does not close the page, ``Alt+Tab`` switches nothing).
Applications read :attr:`~cwgym.desktop.themes.base.Theme.kiosk` to drop their own chrome
(the browser shows no tab strip or toolbar).
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.desktop.themes import register
from cwgym.desktop.themes.base import FrameView, ShellView, Theme
from cwgym.scene import Box, Color, Primitive, Rect, SceneBuilder

__all__ = ["SCREEN", "KioskTheme"]

#: The native screen: twice MiniWoB++'s 160 x 210, which the web suite observes it at (a
#: page laid out at 160 px would wrap every label; halving 320 px keeps it sharp).
SCREEN = (320, 420)

WHITE: Color = (255, 255, 255, 255)
BLACK: Color = (0, 0, 0, 255)


class KioskTheme(Theme):
    """Full-screen, undecorated windows on a 320x420 screen (see the module docstring)."""

    name = "kiosk"
    kiosk = True
    typeface = None
    screen = SCREEN
    background: Color = BLACK
    title_bar = 0
    primary = "Ctrl"
    shell_keys: ClassVar[dict[str, tuple[str, ...]]] = {}
    window_keys: ClassVar[dict[str, tuple[str, ...]]] = {}
    wallpaper: Primitive = Box(BLACK)
    palette: ClassVar[dict[str, Color]] = {
        "window": WHITE,
        "text": BLACK,
        "muted": (118, 118, 118, 255),
        "accent": (0, 102, 204, 255),
        "accent_text": WHITE,
        "field": WHITE,
        "border": (169, 169, 169, 255),
        "selection": (0, 102, 204, 70),
        "button": (239, 239, 239, 255),
        "header": (239, 239, 239, 255),
        "header_inactive": (246, 246, 246, 255),
    }

    # -- geometry ---------------------------------------------------------------------
    def work_area(self) -> Rect:
        return Rect(0, 0, *SCREEN)

    def covers(self) -> list[Rect]:
        return []

    def content_rect(self, bounds: Rect, maximized: bool) -> Rect:
        """No decoration: the client area is the whole window."""
        return Rect(bounds.x, bounds.y, bounds.width, bounds.height)

    def place(self, size: tuple[int, int], index: int) -> Rect:
        """Every window fills the screen, whatever size its application asks for."""
        return self.work_area()

    # -- painting ---------------------------------------------------------------------
    def paint_below(self, b: SceneBuilder, view: ShellView) -> None:
        """The plain screen an empty kiosk shows (no desktop icons)."""
        b.paint(self.wallpaper, Rect(0, 0, *SCREEN), key="wallpaper")

    def paint_frame(self, b: SceneBuilder, frame: FrameView) -> None:
        """Nothing: no title bar, border, buttons or resize grips."""

    def paint_above(self, b: SceneBuilder, view: ShellView) -> None:
        """Nothing: no bars, no dock."""

    def paint_panel(self, b: SceneBuilder, view: ShellView) -> Any:
        """Nothing: a kiosk opens no panel."""
        return None


THEME = register(KioskTheme())
