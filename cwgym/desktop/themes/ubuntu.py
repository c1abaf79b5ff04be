"""The Ubuntu 24.04 (GNOME, Yaru) shell: top bar, left dock, app grid, desktop icons.

Layout on the native 1280x800 screen: a 32 px black top bar with the workspace pill
(``shell:activities``) on the left, the clock in the middle and status symbols on the
right; a 68 px dock on the left with 48 px launchers (``shell:launch:<app>``) from y=47
every 58 px and the Show Apps button (``shell:launcher``) at the bottom; windows live in
the remaining work area, with 36 px header bars.

Keys: Super (``Meta``), ``Meta+Space`` and ``Ctrl+Escape`` open the app grid, ``Alt+Tab``
(``Meta+Tab``) steps the switcher, ``Alt+F4`` closes, ``Meta+Up`` maximizes,
``Meta+Down`` restores or minimizes and ``Meta+H`` minimizes the focused window;
application shortcuts use ``Ctrl``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.desktop.themes import register
from cwgym.desktop.themes.base import DockEntry, FrameView, ShellView, Theme
from cwgym.scene import (
    AssetImage,
    Backdrop,
    Box,
    Color,
    NodeState,
    Primitive,
    Rect,
    Region,
    RoundedBox,
    SceneBuilder,
    Semantic,
    Shadow,
    Symbol,
    UiText,
    UiTextBold,
)
from cwgym.text import ellipsize, line_height, measure, shape

__all__ = ["ASSETS", "SYMBOLS", "UbuntuTheme"]

#: Asset images this theme paints (names from the renderer's asset registry).
ASSETS = ("file", "folder", "wallpaper")
#: Symbols this theme paints (names from the renderer's symbol set).
SYMBOLS = (
    "app-grid",
    "battery",
    "bell",
    "chevron-left",
    "chevron-right",
    "close",
    "file",
    "folder",
    "home",
    "maximize",
    "minimize",
    "network-wired",
    "restore",
    "search",
    "settings",
    "volume",
    "volume-muted",
    "wifi",
)

TOP_BAR = 32
DOCK_W = 68
DOCK_ICON = 48
DOCK_FIRST_Y = 47
DOCK_STEP = 58
SCREEN = (1280, 800)

ORANGE: Color = (233, 84, 32, 255)
WHITE: Color = (255, 255, 255, 255)
BLACK: Color = (0, 0, 0, 255)


def _centered(text: str, font: str, size: int, cx: int, y: int) -> Rect:
    w = measure(text, font, size)
    return Rect(cx - w // 2, y, w, line_height(font, size))


class UbuntuTheme(Theme):
    name = "ubuntu"
    typeface = "ubuntu"
    screen = SCREEN
    background: Color = (44, 0, 30, 255)
    title_bar = 36
    labels: ClassVar[dict[str, str]] = {
        "files": "Files",
        "browser": "Firefox",
        "terminal": "Terminal",
        "editor": "Text Editor",
        "calendar": "Calendar",
        "mail": "Thunderbird Mail",
        "docs": "LibreOffice Writer",
        "notes": "Notes",
        "contacts": "Contacts",
        "settings": "Settings",
        "calculator": "Calculator",
        "clock": "Clocks",
        "photos": "Image Viewer",
        "music": "Rhythmbox",
        "maps": "Maps",
        "weather": "Weather",
        "code": "Visual Studio Code",
        "gimp": "GNU Image Manipulation Program",
        "pinta": "Pinta",
        "spreadsheet": "LibreOffice Calc",
        "database": "DB Browser for SQLite",
        "kdenlive": "Kdenlive",
    }
    dock_order = ("browser", "mail", "files", "terminal", "editor", "music", "docs")
    primary = "Ctrl"
    shell_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "launcher": ("Meta", "Meta+Space", "Ctrl+Escape"),
        "switcher-next": ("Alt+Tab", "Meta+Tab"),
        "switcher-previous": ("Shift+Alt+Tab", "Shift+Meta+Tab"),
    }
    window_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "close": ("Alt+F4",),
        "maximize": ("Meta+Up",),
        "restore-or-minimize": ("Meta+Down",),
        "minimize": ("Meta+H",),
    }
    wallpaper: Primitive = AssetImage("wallpaper")
    fonts: ClassVar[dict[str, str]] = {"ui": "sans", "ui-bold": "sans-bold"}
    palette: ClassVar[dict[str, Color]] = {
        "window": (250, 250, 250, 255),
        "text": (46, 46, 46, 255),
        "muted": (128, 128, 128, 255),
        "accent": ORANGE,
        "accent_text": WHITE,
        "field": WHITE,
        "border": (205, 205, 205, 255),
        "selection": (233, 84, 32, 70),
        "button": (238, 238, 238, 255),
        "header": (235, 235, 235, 255),
        "header_inactive": (246, 246, 246, 255),
    }
    dark_palette: ClassVar[dict[str, Color]] = {
        "window": (36, 36, 36, 255),
        "text": (238, 238, 238, 255),
        "muted": (154, 154, 154, 255),
        "accent": ORANGE,
        "accent_text": WHITE,
        "field": (48, 48, 48, 255),
        "border": (70, 70, 70, 255),
        "selection": (233, 84, 32, 110),
        "button": (58, 58, 58, 255),
        "header": (48, 48, 48, 255),
        "header_inactive": (40, 40, 40, 255),
    }

    def _ui(self, text: str, size: int, color: Color) -> UiText:
        return UiText(text, size, color, self.fonts["ui"])

    def _bold(self, text: str, size: int, color: Color) -> UiTextBold:
        return UiTextBold(text, size, color, self.fonts["ui-bold"])

    # -- geometry ---------------------------------------------------------------------
    def work_area(self) -> Rect:
        return Rect(DOCK_W, TOP_BAR, SCREEN[0] - DOCK_W, SCREEN[1] - TOP_BAR)

    def covers(self) -> list[Rect]:
        return [Rect(0, 0, SCREEN[0], TOP_BAR), Rect(0, TOP_BAR, DOCK_W, SCREEN[1] - TOP_BAR)]

    # -- below windows ----------------------------------------------------------------
    def paint_below(self, b: SceneBuilder, view: ShellView) -> None:
        b.paint(self.wallpaper, Rect(0, 0, *SCREEN), key="wallpaper")
        if not view.shell:
            return
        area = self.work_area()
        cell_w, cell_h = 96, 104
        rows = max(1, (area.height - 16) // cell_h)
        for i, ic in enumerate(view.icons):
            col, row = divmod(i, rows)
            x, y = area.x + 12 + col * cell_w, area.y + 12 + row * cell_h
            selected = view.selected_icon == ic.target
            cell = Rect(x, y, cell_w - 4, cell_h - 4)
            b.paint(
                RoundedBox((233, 84, 32, 110) if selected else (0, 0, 0, 0), 8),
                cell,
                key=("icon-cell", ic.target),
                interaction=ic.target,
                semantic=Semantic("icon", ic.label),
                state=NodeState(selected=selected),
            )
            b.paint(AssetImage("file" if ic.kind == "file" else "folder"), Rect(x + 22, y + 6, 48, 48), key=("icon", ic.target), interaction=ic.target)
            if ic.kind == "home":
                b.paint(Symbol("home", WHITE, 20), Rect(x + 36, y + 24, 20, 20), key=("icon-badge", ic.target), interaction=ic.target)
            label = ellipsize(ic.label, self.fonts["ui"], 13, cell_w - 12)
            b.paint(
                self._ui(label, 13, WHITE),
                _centered(label, self.fonts["ui"], 13, x + (cell_w - 4) // 2, y + 60),
                key=("icon-label", ic.target),
                interaction=ic.target,
            )

    # -- window frames ----------------------------------------------------------------
    def paint_frame(self, b: SceneBuilder, frame: FrameView) -> None:
        wid, r = frame.id, frame.bounds
        pal = self.palette_for(frame.dark)
        radius = 0 if frame.maximized else 12
        if not frame.maximized:
            b.paint(
                Shadow((0, 0, 0, 90 if frame.focused else 50), 18 if frame.focused else 10, 0, 4, 0, radius),
                r,
                key="shadow",
            )
        b.paint(RoundedBox(pal["window"], radius, (190, 190, 190, 255), 1), r, key="frame")
        header = Rect(r.x, r.y, r.width, self.title_bar)
        b.paint(
            RoundedBox(pal["header"] if frame.focused else pal["header_inactive"], radius),
            header,
            key="header",
            z=1,
        )
        b.paint(
            Region(),
            header,
            key="drag",
            interaction=f"window:{wid}:drag",
            semantic=Semantic("titlebar", frame.title),
            z=2,
        )
        buttons = (
            ("close", "close", "Close"),
            ("maximize", "restore" if frame.maximized else "maximize", "Restore" if frame.maximized else "Maximize"),
            ("minimize", "minimize", "Minimize"),
        )
        right = r.right - 10
        for op, symbol, label in buttons:
            rect = Rect(right - 24, r.y + 6, 24, 24)
            b.paint(
                RoundedBox(pal["button"] if frame.dark else (218, 218, 218, 255) if frame.focused else (232, 232, 232, 255), 12),
                rect,
                key=("button", op),
                interaction=f"window:{wid}:{op}",
                semantic=Semantic("button", label),
                z=3,
            )
            b.paint(Symbol(symbol, pal["text"], 16), Rect(rect.x + 4, rect.y + 4, 16, 16), key=("glyph", op), interaction=f"window:{wid}:{op}", z=4)
            right -= 32
        room = max(0, right - r.x - 48)
        title = ellipsize(frame.title, self.fonts["ui-bold"], 14, room)
        tr = _centered(title, self.fonts["ui-bold"], 14, r.x + r.width // 2, r.y + 9)
        if tr.right > right:
            tr = Rect(right - tr.width, tr.y, tr.width, tr.height)
        b.paint(self._bold(title, 14, pal["text"] if frame.focused else pal["muted"]), tr, key="title", z=3)
        if frame.maximized:
            return
        edge, corner = 4, 12
        edges = {
            "n": Rect(r.x + corner, r.y, r.width - 2 * corner, edge),
            "s": Rect(r.x + corner, r.bottom - edge, r.width - 2 * corner, edge),
            "w": Rect(r.x, r.y + corner, edge, r.height - 2 * corner),
            "e": Rect(r.right - edge, r.y + corner, edge, r.height - 2 * corner),
            "nw": Rect(r.x, r.y, corner, corner),
            "ne": Rect(r.right - corner, r.y, corner, corner),
            "sw": Rect(r.x, r.bottom - corner, corner, corner),
            "se": Rect(r.right - corner, r.bottom - corner, corner, corner),
        }
        for name in ("n", "s", "w", "e", "nw", "ne", "sw", "se"):
            b.paint(
                Region(),
                edges[name],
                key=("resize", name),
                interaction=f"window:{wid}:resize:{name}",
                semantic=Semantic("grip", f"Resize {name}"),
                z=900,
            )

    # -- above windows ----------------------------------------------------------------
    def paint_above(self, b: SceneBuilder, view: ShellView) -> None:
        b.paint(Box(BLACK), Rect(0, 0, SCREEN[0], TOP_BAR), key="topbar")
        b.paint(
            RoundedBox((60, 60, 60, 255), 11),
            Rect(10, 5, 58, 22),
            key="activities",
            interaction="shell:activities",
            semantic=Semantic("button", "Activities"),
        )
        for i, w in enumerate((18, 7, 7)):
            x = 18 + sum((18, 7, 7)[:i]) + 5 * i
            b.paint(RoundedBox(WHITE if i == 0 else (170, 170, 170, 255), 3), Rect(x, 13, w, 6), key=("ws", i), interaction="shell:activities")
        clock_rect = _centered(view.clock, self.fonts["ui-bold"], 14, SCREEN[0] // 2, 7)
        open_kind = (view.panel or {}).get("kind")
        b.paint(
            RoundedBox((255, 255, 255, 40) if open_kind == "calendar" else (0, 0, 0, 0), 11),
            Rect(clock_rect.x - 10, 5, clock_rect.width + 20, 22),
            key="clock-button",
            interaction="shell:calendar",
            semantic=Semantic("button", view.clock),
        )
        b.paint(self._bold(view.clock, 14, WHITE), clock_rect, key="clock", interaction="shell:calendar")
        if view.setting("notifications") and not view.setting("do_not_disturb"):
            b.paint(RoundedBox(WHITE, 3), Rect(clock_rect.right + 6, 13, 6, 6), key="clock-dot", interaction="shell:calendar")
        b.paint(
            RoundedBox((255, 255, 255, 40) if open_kind == "quick-settings" else (0, 0, 0, 0), 11),
            Rect(SCREEN[0] - 88, 5, 80, 22),
            key="status-button",
            interaction="shell:quick-settings",
            semantic=Semantic("button", "System"),
        )
        network_up = view.setting("wifi", True) and not view.setting("airplane_mode", False)
        volume = "volume-muted" if view.setting("muted", False) else "volume"
        for i, symbol in enumerate(("battery", volume, "network-wired" if network_up else "wifi")):
            color = WHITE if symbol != "wifi" else (255, 255, 255, 90)
            b.paint(Symbol(symbol, color, 16), Rect(SCREEN[0] - 30 - 24 * i, 8, 16, 16), key=("status", i), interaction="shell:quick-settings")
        b.paint(Box((30, 30, 30, 240)), Rect(0, TOP_BAR, DOCK_W, SCREEN[1] - TOP_BAR), key="dock")
        grid_y = SCREEN[1] - 10 - DOCK_ICON
        for i, entry in enumerate(view.dock):
            y = DOCK_FIRST_Y + DOCK_STEP * i
            if y + DOCK_ICON > grid_y - 10:
                break
            self._dock_icon(b, entry, y)
        b.paint(
            RoundedBox((255, 255, 255, 40) if (view.panel or {}).get("kind") == "launcher" else (0, 0, 0, 0), 10),
            Rect(10, grid_y, DOCK_ICON, DOCK_ICON),
            key="show-apps",
            interaction="shell:launcher",
            semantic=Semantic("button", "Show Apps"),
        )
        b.paint(Symbol("app-grid", WHITE, 24), Rect(22, grid_y + 12, 24, 24), key="show-apps-glyph", interaction="shell:launcher")

    def _dock_icon(self, b: SceneBuilder, entry: DockEntry, y: int) -> None:
        target = f"shell:launch:{entry.app}"
        if entry.focused:
            b.paint(RoundedBox((255, 255, 255, 45), 10), Rect(6, y - 4, 56, 56), key=("dock-focus", entry.app))
        if entry.running:
            b.paint(RoundedBox(ORANGE, 3), Rect(1, y + 21, 5, 6), key=("dock-running", entry.app))
        for k, (prim, rect) in enumerate(self.icon(entry.app, 10, y, DOCK_ICON, entry.label)):
            b.paint(
                prim,
                rect,
                key=("dock", entry.app, k),
                interaction=target,
                semantic=Semantic("button", entry.label) if k == 0 else None,
                state=NodeState(selected=entry.focused) if k == 0 and entry.running else None,
            )

    # -- panels -----------------------------------------------------------------------
    def paint_panel(self, b: SceneBuilder, view: ShellView) -> Any:
        panel = view.panel or {}
        kind = panel.get("kind")
        if kind == "launcher":
            return self._launcher(b, view, panel)
        if kind == "switcher":
            self._switcher(b, view, panel)
        elif kind == "context":
            self._context(b, view, panel)
        elif kind == "calendar":
            self._calendar(b, view)
        elif kind == "quick-settings":
            self._quick_settings(b, view)
        return None

    def _calendar(self, b: SceneBuilder, view: ShellView) -> None:
        """The clock's panel: notifications on the left, the month on the right."""
        dark, text, muted = (54, 54, 54, 250), WHITE, (190, 190, 190, 255)
        width, height = 660, 420
        x, y = (SCREEN[0] - width) // 2, TOP_BAR + 6
        b.paint(Shadow((0, 0, 0, 110), 16, 0, 4, 0, 14), Rect(x, y, width, height), key="cal-shadow")
        b.paint(RoundedBox(dark, 16), Rect(x, y, width, height), key="cal-panel", semantic=Semantic("dialog", "Notifications and calendar"))
        ui, bold = self.fonts["ui"], self.fonts["ui-bold"]
        # notifications
        list_x, list_w = x + 16, 356
        if not view.notices:
            b.paint(Symbol("bell", muted, 48), Rect(list_x + list_w // 2 - 24, y + 130, 48, 48), key="cal-bell")
            msg = "No Notifications"
            b.paint(self._ui(msg, 16, muted), _centered(msg, ui, 16, list_x + list_w // 2, y + 190), key="cal-none")
        row_h = 66
        for i, (nid, app, summary, body, when) in enumerate(view.notices[:5]):
            ry = y + 16 + i * (row_h + 8)
            target = f"shell:notification:{nid}"
            b.paint(RoundedBox((74, 74, 74, 255), 12), Rect(list_x, ry, list_w, row_h), key=("note", nid), interaction=target, semantic=Semantic("button", f"{app}: {summary}"))
            head = ellipsize(f"{app} · {when}", ui, 12, list_w - 60)
            b.paint(self._ui(head, 12, muted), Rect(list_x + 12, ry + 8, measure(head, ui, 12), line_height(ui, 12)), key=("note-app", nid), interaction=target)
            title = ellipsize(summary, bold, 14, list_w - 24)
            b.paint(self._bold(title, 14, text), Rect(list_x + 12, ry + 25, measure(title, bold, 14), line_height(bold, 14)), key=("note-title", nid), interaction=target)
            if body:
                line = ellipsize(body, ui, 13, list_w - 24)
                b.paint(self._ui(line, 13, muted), Rect(list_x + 12, ry + 44, measure(line, ui, 13), line_height(ui, 13)), key=("note-body", nid), interaction=target)
            b.paint(RoundedBox((96, 96, 96, 255), 10), Rect(list_x + list_w - 30, ry + 8, 20, 20), key=("note-x", nid), interaction=f"{target}:dismiss", semantic=Semantic("button", f"Dismiss {summary}"))
            b.paint(Symbol("close", text, 12), Rect(list_x + list_w - 26, ry + 12, 12, 12), key=("note-x-glyph", nid), interaction=f"{target}:dismiss")
        bottom = y + height - 44
        dnd = bool(view.setting("do_not_disturb"))
        label = "Do Not Disturb"
        b.paint(self._ui(label, 14, text), Rect(list_x, bottom + 8, measure(label, ui, 14), line_height(ui, 14)), key="cal-dnd-label", interaction="shell:toggle:do_not_disturb")
        sx = list_x + measure(label, ui, 14) + 12
        b.paint(RoundedBox(ORANGE if dnd else (110, 110, 110, 255), 11), Rect(sx, bottom + 6, 44, 22), key="cal-dnd", interaction="shell:toggle:do_not_disturb", semantic=Semantic("switch", label), state=NodeState(checked=dnd))
        b.paint(RoundedBox(WHITE, 9), Rect(sx + (24 if dnd else 2), bottom + 8, 18, 18), key="cal-dnd-knob", interaction="shell:toggle:do_not_disturb")
        clear = "Clear"
        cw = measure(clear, ui, 14) + 28
        b.paint(RoundedBox((80, 80, 80, 255), 8), Rect(list_x + list_w - cw, bottom + 2, cw, 30), key="cal-clear", interaction="shell:notifications:clear", semantic=Semantic("button", clear, disabled=not view.notices))
        b.paint(self._ui(clear, 14, text if view.notices else muted), _centered(clear, ui, 14, list_x + list_w - cw // 2, bottom + 8), key="cal-clear-label", interaction="shell:notifications:clear")
        # the month
        if view.month is None:
            return
        title, first, days, today = view.month
        mx, mw = x + width - 16 - 252, 252
        b.paint(Box((80, 80, 80, 255)), Rect(mx - 12, y + 16, 1, height - 32), key="cal-rule")
        b.paint(self._bold(title, 15, text), _centered(title, bold, 15, mx + mw // 2, y + 20), key="cal-title", interaction="shell:calendar:today", semantic=Semantic("button", title))
        for name, glyph, gx in (("prev", "chevron-left", mx), ("next", "chevron-right", mx + mw - 28)):
            b.paint(RoundedBox((74, 74, 74, 255), 14), Rect(gx, y + 14, 28, 28), key=("cal-nav", name), interaction=f"shell:calendar:{name}", semantic=Semantic("button", "Previous month" if name == "prev" else "Next month"))
            b.paint(Symbol(glyph, text, 16), Rect(gx + 6, y + 20, 16, 16), key=("cal-nav-glyph", name), interaction=f"shell:calendar:{name}")
        cell = mw // 7
        for i, wd in enumerate("MTWTFSS"):
            b.paint(self._ui(wd, 12, muted), _centered(wd, ui, 12, mx + i * cell + cell // 2, y + 56), key=("cal-wd", i))
        for day in range(1, days + 1):
            index = first + day - 1
            row, col = divmod(index, 7)
            cx, cy = mx + col * cell, y + 78 + row * 36
            if day == today:
                b.paint(RoundedBox(ORANGE, 15), Rect(cx + (cell - 30) // 2, cy, 30, 30), key=("cal-today", day))
            b.paint(self._ui(str(day), 14, text if col < 5 else muted if day != today else text), _centered(str(day), ui, 14, cx + cell // 2, cy + 6), key=("cal-day", day))

    def _quick_settings(self, b: SceneBuilder, view: ShellView) -> None:
        """The status icons' panel: volume, the toggles, and a way to Settings."""
        dark, text, muted = (54, 54, 54, 250), WHITE, (190, 190, 190, 255)
        ui = self.fonts["ui"]
        width, height = 360, 276
        x, y = SCREEN[0] - width - 8, TOP_BAR + 6
        b.paint(Shadow((0, 0, 0, 110), 16, 0, 4, 0, 14), Rect(x, y, width, height), key="qs-shadow")
        b.paint(RoundedBox(dark, 16), Rect(x, y, width, height), key="qs-panel", semantic=Semantic("dialog", "Quick Settings"))
        b.paint(RoundedBox((74, 74, 74, 255), 16), Rect(x + width - 48, y + 12, 32, 32), key="qs-settings", interaction="shell:quick-settings:settings", semantic=Semantic("button", "Settings"))
        b.paint(Symbol("settings", text, 16), Rect(x + width - 40, y + 20, 16, 16), key="qs-settings-glyph", interaction="shell:quick-settings:settings")
        muted_on = bool(view.setting("muted"))
        volume = int(view.setting("volume", 50))
        vy = y + 60
        b.paint(RoundedBox((74, 74, 74, 255), 14), Rect(x + 16, vy - 6, 28, 28), key="qs-mute", interaction="shell:toggle:muted", semantic=Semantic("switch", "Mute"), state=NodeState(checked=muted_on))
        b.paint(Symbol("volume-muted" if muted_on else "volume", text, 16), Rect(x + 22, vy, 16, 16), key="qs-mute-glyph", interaction="shell:toggle:muted")
        track_x, track_w = x + 56, width - 76
        stop_w = track_w // 11
        b.paint(RoundedBox((100, 100, 100, 255), 3), Rect(track_x, vy + 5, stop_w * 11, 6), key="qs-track", semantic=Semantic("slider", "Volume", str(volume)))
        b.paint(RoundedBox(ORANGE if not muted_on else muted, 3), Rect(track_x, vy + 5, stop_w * (volume // 10) + stop_w // 2, 6), key="qs-level")
        for i in range(11):
            b.paint(Region(), Rect(track_x + i * stop_w, vy - 6, stop_w, 28), key=("qs-stop", i), interaction=f"shell:volume:{i * 10}")
        b.paint(RoundedBox(WHITE, 9), Rect(track_x + stop_w * (volume // 10) + stop_w // 2 - 9, vy - 1, 18, 18), key="qs-knob")
        labels = {"wifi": "Wi-Fi", "bluetooth": "Bluetooth", "airplane_mode": "Airplane Mode", "dark_style": "Dark Style", "night_light": "Night Light", "do_not_disturb": "Do Not Disturb"}
        pill_w, pill_h = (width - 44) // 2, 44
        for i, name in enumerate(labels):
            row, col = divmod(i, 2)
            px, py = x + 16 + col * (pill_w + 12), y + 104 + row * (pill_h + 12)
            on = bool(view.setting(name))
            target = f"shell:toggle:{name}"
            b.paint(RoundedBox(ORANGE if on else (80, 80, 80, 255), 22), Rect(px, py, pill_w, pill_h), key=("qs-toggle", name), interaction=target, semantic=Semantic("switch", labels[name]), state=NodeState(checked=on))
            label = ellipsize(labels[name], ui, 14, pill_w - 24)
            b.paint(self._ui(label, 14, text), Rect(px + 16, py + (pill_h - line_height(ui, 14)) // 2, measure(label, ui, 14), line_height(ui, 14)), key=("qs-toggle-label", name), interaction=target)

    def _launcher(self, b: SceneBuilder, view: ShellView, panel: dict) -> Any:
        area = self.work_area()
        b.paint(Backdrop((24, 24, 24, 225), 24), area, key="launcher")
        search = panel.get("search", "")
        field = Rect(area.x + (area.width - 360) // 2, area.y + 24, 360, 36)
        b.paint(
            RoundedBox((255, 255, 255, 235), 18),
            field,
            key="launcher-search",
            interaction="shell:launcher:search",
            semantic=Semantic("searchbox", "Type to search", search, False, True),
            state=NodeState(focused=True),
        )
        b.paint(Symbol("search", (90, 90, 90, 255), 16), Rect(field.x + 12, field.y + 10, 16, 16), key="launcher-search-glyph", interaction="shell:launcher:search")
        h = line_height(self.fonts["ui"], 15)
        text_x = field.x + 36
        if search:
            b.paint(self._ui(search, 15, (30, 30, 30, 255)), Rect(text_x, field.y + (36 - h) // 2, measure(search, self.fonts["ui"], 15), h), key="launcher-search-text", interaction="shell:launcher:search")
        else:
            hint = "Type to search"
            b.paint(self._ui(hint, 15, (120, 120, 120, 255)), Rect(text_x, field.y + (36 - h) // 2, measure(hint, self.fonts["ui"], 15), h), key="launcher-search-hint", interaction="shell:launcher:search")
        caret = Rect(text_x + (shape(search, self.fonts["ui"], 15).caret_x(len(search)) if search else 0), field.y + (36 - h) // 2, 1, h)
        b.paint(Box((30, 30, 30, 255)), caret, key="launcher-caret")
        cols, cell_w, cell_h = 6, 150, 132
        top = area.y + 92
        left = area.x + (area.width - cols * cell_w) // 2
        rows = max(1, (area.bottom - top) // cell_h)
        if not view.grid:
            msg = "No results"
            b.paint(self._ui(msg, 18, WHITE), _centered(msg, self.fonts["ui"], 18, area.x + area.width // 2, top + 40), key="launcher-empty")
        for i, entry in enumerate(view.grid[: cols * rows]):
            row, col = divmod(i, cols)
            x, y = left + col * cell_w, top + row * cell_h
            target = f"shell:grid:{entry.app}"
            b.paint(
                RoundedBox((255, 255, 255, 30) if i == 0 and search else (0, 0, 0, 0), 14),
                Rect(x + 8, y, cell_w - 16, cell_h - 8),
                key=("grid-cell", entry.app),
                interaction=target,
                semantic=Semantic("button", entry.label),
                state=NodeState(selected=i == 0 and bool(search)),
            )
            for k, (prim, rect) in enumerate(self.icon(entry.app, x + (cell_w - 64) // 2, y + 12, 64, entry.label)):
                b.paint(prim, rect, key=("grid", entry.app, k), interaction=target)
            label = ellipsize(entry.label, self.fonts["ui"], 14, cell_w - 24)
            b.paint(self._ui(label, 14, WHITE), _centered(label, self.fonts["ui"], 14, x + cell_w // 2, y + 88), key=("grid-label", entry.app), interaction=target)
        return ("shell:launcher:search", b.id_for("launcher-search"), caret, search)

    def _switcher(self, b: SceneBuilder, view: ShellView, panel: dict) -> None:
        items = view.switcher
        index = panel.get("index", 0)
        tile, gap = 96, 12
        width = max(240, len(items) * (tile + gap) + gap)
        height = tile + 64
        x = (SCREEN[0] - width) // 2
        y = (SCREEN[1] - height) // 2
        b.paint(Shadow((0, 0, 0, 120), 20, 0, 4, 0, 16), Rect(x, y, width, height), key="switcher-shadow")
        b.paint(RoundedBox((40, 40, 40, 245), 16), Rect(x, y, width, height), key="switcher")
        for i, (wid, title, app) in enumerate(items):
            tx = x + gap + i * (tile + gap)
            target = f"shell:switcher:{wid}"
            chosen = i == index
            b.paint(
                RoundedBox((255, 255, 255, 50) if chosen else (0, 0, 0, 0), 12),
                Rect(tx, y + gap, tile, tile),
                key=("switch-cell", wid),
                interaction=target,
                semantic=Semantic("button", title),
                state=NodeState(selected=chosen),
            )
            for k, (prim, rect) in enumerate(self.icon(app, tx + 16, y + gap + 16, 64, title)):
                b.paint(prim, rect, key=("switch", wid, k), interaction=target)
        if items:
            title = ellipsize(items[min(index, len(items) - 1)][1], self.fonts["ui"], 14, width - 24)
            b.paint(self._ui(title, 14, WHITE), _centered(title, self.fonts["ui"], 14, x + width // 2, y + tile + 2 * gap + 4), key="switcher-title")

    def _context(self, b: SceneBuilder, view: ShellView, panel: dict) -> None:
        items = view.context
        width, item_h = 220, 32
        height = item_h * len(items) + 12
        x = max(0, min(panel.get("x", 0), SCREEN[0] - width))
        y = max(TOP_BAR, min(panel.get("y", 0), SCREEN[1] - height))
        b.paint(Shadow((0, 0, 0, 90), 12, 0, 3, 0, 10), Rect(x, y, width, height), key="context-shadow")
        b.paint(RoundedBox(WHITE, 10, (200, 200, 200, 255), 1), Rect(x, y, width, height), key="context")
        for i, (target, label) in enumerate(items):
            iy = y + 6 + i * item_h
            selected = panel.get("index") == i
            b.paint(
                RoundedBox((233, 84, 32, 40) if selected else (0, 0, 0, 0), 6),
                Rect(x + 6, iy, width - 12, item_h),
                key=("context-item", target),
                interaction=target,
                semantic=Semantic("menuitem", label),
                state=NodeState(selected=selected),
            )
            b.paint(self._ui(label, 14, (40, 40, 40, 255)), Rect(x + 18, iy + (item_h - line_height(self.fonts["ui"], 14)) // 2, measure(label, self.fonts["ui"], 14), line_height(self.fonts["ui"], 14)), key=("context-label", target), interaction=target)


THEME = register(UbuntuTheme())
