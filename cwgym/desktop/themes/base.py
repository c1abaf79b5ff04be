"""What a shell theme is: geometry, labels, palette, and how it paints the shell.

A theme is one module in :mod:`cwgym.desktop.themes` that registers a :class:`Theme`
instance. The desktop's behaviour (launching, focus, panels, window management) is the
same for every theme; a theme decides where things are and what they look like. Hit
testing runs on what the theme paints, so a theme only has to paint each control with its
interaction target (see ``docs/desktop.md`` for the targets) — nothing else is needed for
a shell to be drivable.

Themes paint through a :class:`~cwgym.scene.SceneBuilder` into fixed z layers the
compositor sets up (``below`` for the wallpaper and desktop icons, one band per window for
its frame, ``above`` for panels and bars, ``panel`` for open shell panels).

A theme also owns what differs between platforms besides looks: the primary modifier of
application shortcuts (:attr:`Theme.primary`), the shell's and the window manager's keys
(:attr:`Theme.shell_keys`, :attr:`Theme.window_keys`), the clock's text
(:meth:`Theme.clock_text`), the wallpaper and the fonts. :meth:`Theme.check` (run when a
theme is registered) refuses a theme that names an unknown action, key or font.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cwgym.desktop.clock import clock_text
from cwgym.desktop.icons import icon as tile_icon
from cwgym.desktop.keys import PRIMARY_MODIFIERS, parse_key
from cwgym.scene import FONTS, AssetImage, Color, Primitive, Rect, SceneBuilder

if TYPE_CHECKING:
    from cwgym.desktop.keys import Chord

__all__ = ["FONT_ROLES", "SHELL_ACTIONS", "WINDOW_ACTIONS", "DockEntry", "FrameView", "IconView", "ShellView", "Theme"]

#: What a key of :attr:`Theme.shell_keys` may do: open or close the app grid, step the
#: window switcher forwards or backwards.
SHELL_ACTIONS = ("launcher", "switcher-next", "switcher-previous")
#: What a key of :attr:`Theme.window_keys` may do to the focused window.
WINDOW_ACTIONS = ("close", "maximize", "minimize", "restore-or-minimize")
#: The roles of :attr:`Theme.fonts`: interface text, bold interface text (titles, the clock).
FONT_ROLES = ("ui", "ui-bold")


@dataclass(frozen=True)
class DockEntry:
    """One application in the dock or the app grid."""

    app: str
    label: str
    running: bool = False
    focused: bool = False


@dataclass(frozen=True)
class IconView:
    """One desktop icon: its target, label and what it stands for."""

    target: str
    label: str
    kind: str  # "home", "folder", "file"


@dataclass(frozen=True)
class FrameView:
    """What a window's decoration shows."""

    id: int
    title: str
    app: str
    bounds: Rect
    focused: bool
    maximized: bool
    dark: bool = False  # the machine's dark style is on (:meth:`Theme.palette_for`)


@dataclass(frozen=True, eq=False)
class ShellView:
    """Everything the shell paints besides windows, as plain values.

    ``panel`` is the open panel's plain state; :meth:`key` is everything else, hashable.
    """

    clock: str
    dock: tuple[DockEntry, ...]
    grid: tuple[DockEntry, ...]  # the launcher's matches, in order
    icons: tuple[IconView, ...]
    selected_icon: str | None
    panel: dict[str, Any] | None
    switcher: tuple[tuple[int, str, str], ...] = ()  # (window, title, app)
    context: tuple[tuple[str, str], ...] = ()  # (target, label)
    shell: bool = True
    status: tuple = ()  # ((setting, value), ..., ("notifications", any)): status icons, quick settings
    notices: tuple[tuple[int, str, str, str, str], ...] = ()  # (id, app, summary, body, "HH:MM"), newest first
    month: tuple[str, int, int, int] | None = None  # the calendar panel's (title, first weekday, days, today)

    def key(self) -> tuple:
        return (self.clock, self.dock, self.grid, self.icons, self.selected_icon, self.switcher, self.context,
                self.shell, self.status, self.notices, self.month)

    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's value as :attr:`status` carries it."""
        return next((value for key, value in self.status if key == name), default)


class Theme:
    """A shell style. Subclasses set the attributes and implement the ``paint_*`` methods.

    Attributes:
        name: the ``desktop_themes`` value that selects it (``"ubuntu"``).
        typeface: the scene's ``typeface``.
        screen: the native logical screen ``(width, height)``.
        background: the scene background colour.
        labels: application labels this shell shows (overriding the catalogue's).
        dock_order: applications the dock shows first, in order (then other installed
            ones in catalogue order).
        title_bar: height of a window's title bar.
        palette: colours applications use for their content.
        dark_palette: the same colours under the machine's dark style (empty: the theme has
            no dark variant and keeps :attr:`palette`).
        primary: the modifier application shortcuts use (``Ctrl``, or ``Meta`` for a
            Cmd-style platform): what ``Primary`` stands for in ``Primary+s``.
        shell_keys: action (one of :data:`SHELL_ACTIONS`) -> the key names that do it,
            whatever has the focus.
        window_keys: action (one of :data:`WINDOW_ACTIONS`) -> the key names that do it to
            the focused window when its application does not take the key.
        wallpaper: what fills the screen under everything (a primitive).
        fonts: role (:data:`FONT_ROLES`) -> the text layer's font key the shell paints it in.
        kiosk: a single-purpose screen (:mod:`cwgym.desktop.themes.kiosk`): every window
            fills the screen with no decoration, the window manager neither moves,
            resizes, minimizes nor restores one, there are no shell panels, and
            applications show no chrome of their own (the browser hides its tab strip and
            toolbar).

    The application icons are the theme's too (:meth:`icon`): the default is the vector
    tile set of :mod:`cwgym.desktop.icons`, which a theme may replace with its own.
    """

    name = ""
    typeface: str | None = None
    screen = (1280, 800)
    background: Color = (0, 0, 0, 255)
    labels: ClassVar[dict[str, str]] = {}
    dock_order: tuple[str, ...] = ()
    title_bar = 36
    palette: ClassVar[dict[str, Color]] = {}
    dark_palette: ClassVar[dict[str, Color]] = {}
    primary = "Ctrl"
    shell_keys: ClassVar[dict[str, tuple[str, ...]]] = {}
    window_keys: ClassVar[dict[str, tuple[str, ...]]] = {}
    wallpaper: Primitive = AssetImage("wallpaper")
    fonts: ClassVar[dict[str, str]] = {"ui": "sans", "ui-bold": "sans-bold"}
    kiosk = False

    # -- behaviour ----------------------------------------------------------------------
    def palette_for(self, dark: bool) -> dict[str, Color]:
        """The colours windows are painted with: :attr:`dark_palette` when the machine's
        dark style is on and the theme has one, else :attr:`palette`."""
        return self.dark_palette if dark and self.dark_palette else self.palette

    def clock_text(self, unix_seconds: int) -> str:
        """The top bar's clock at ``unix_seconds`` of logical time (GNOME's ``Sep 17  09:00``
        unless a theme says otherwise)."""
        return clock_text(unix_seconds)

    def icon(self, app: str, x: int, y: int, size: int, label: str = "") -> list[tuple[Primitive, Rect]]:
        """``app``'s icon as primitives in the square ``(x, y, size, size)``, bottom first
        (the dock, the app grid and the switcher paint it)."""
        return tile_icon(app, x, y, size, label)

    def shell_action(self, chord: Chord) -> str | None:
        """The :attr:`shell_keys` action ``chord`` does, or ``None``."""
        return self._key_table("shell_keys").get(chord.name)

    def window_action(self, chord: Chord) -> str | None:
        """The :attr:`window_keys` action ``chord`` does, or ``None``."""
        return self._key_table("window_keys").get(chord.name)

    def _key_table(self, group: str) -> dict[str, str]:
        """Chord name -> action of one key group, built once per theme instance."""
        tables = self.__dict__.setdefault("_key_tables", {})
        table = tables.get(group)
        if table is None:
            table = tables[group] = {
                parse_key(name).name: action for action, names in getattr(self, group).items() for name in names
            }
        return table

    def check(self) -> None:
        """Refuse (``ValueError``) a theme naming an unknown action, key, modifier or font."""
        if self.primary not in PRIMARY_MODIFIERS:
            raise ValueError(f"theme {self.name!r}: primary must be one of {PRIMARY_MODIFIERS}, got {self.primary!r}")
        for group, allowed in (("shell_keys", SHELL_ACTIONS), ("window_keys", WINDOW_ACTIONS)):
            seen: dict[str, str] = {}
            for action, names in getattr(self, group).items():
                if action not in allowed:
                    raise ValueError(f"theme {self.name!r}: {group} has unknown action {action!r} (known: {', '.join(allowed)})")
                for name in names:
                    try:
                        chord = parse_key(name).name
                    except KeyError:
                        raise ValueError(f"theme {self.name!r}: {group}[{action!r}] names no key: {name!r}") from None
                    if seen.setdefault(chord, action) != action:
                        raise ValueError(f"theme {self.name!r}: {group} binds {chord} to both {seen[chord]!r} and {action!r}")
        if set(self.fonts) != set(FONT_ROLES) or not set(self.fonts.values()) <= set(FONTS):
            raise ValueError(f"theme {self.name!r}: fonts maps {', '.join(FONT_ROLES)} to font keys of {FONTS}, got {self.fonts!r}")

    # -- geometry ---------------------------------------------------------------------
    def work_area(self) -> Rect:
        """The part of the screen windows live in (maximized windows fill it)."""
        return Rect(0, 0, *self.screen)

    def covers(self) -> list[Rect]:
        """Shell surfaces that always hide windows beneath them (bars, docks)."""
        return []

    def content_rect(self, bounds: Rect, maximized: bool) -> Rect:
        """A window's client area for its outer bounds."""
        return Rect(bounds.x, bounds.y + self.title_bar, bounds.width, max(0, bounds.height - self.title_bar))

    def place(self, size: tuple[int, int], index: int) -> Rect:
        """Bounds of a new window of ``size``, the ``index``-th open window (cascaded)."""
        area = self.work_area()
        width, height = min(size[0], area.width), min(size[1], area.height)
        step = 32 * (index % 6)
        x = area.x + (area.width - width) // 2 - 80 + step
        y = area.y + (area.height - height) // 2 - 60 + step
        x = max(area.x, min(x, area.right - width))
        y = max(area.y, min(y, area.bottom - height))
        return Rect(x, y, width, height)

    def label(self, app_id: str, default: str) -> str:
        return self.labels.get(app_id, default)

    # -- painting ---------------------------------------------------------------------
    def paint_below(self, b: SceneBuilder, view: ShellView) -> None:
        """Wallpaper and desktop icons (under every window)."""
        raise NotImplementedError

    def paint_frame(self, b: SceneBuilder, frame: FrameView) -> None:
        """One window's decoration, in screen coordinates, with its window controls."""
        raise NotImplementedError

    def paint_above(self, b: SceneBuilder, view: ShellView) -> None:
        """Bars and docks (over every window)."""
        raise NotImplementedError

    def paint_panel(self, b: SceneBuilder, view: ShellView) -> tuple[str, int, Rect, str] | None:
        """The open panel (launcher, switcher, context menu), over everything.

        Returns, for a panel with a text field, ``(target, node id, caret rect, text)``.
        """
        raise NotImplementedError
