"""``settings``: Settings, in the manner of GNOME Settings — Wi-Fi, Bluetooth, Appearance,
Sound, Displays, Notifications and Users, one panel each, chosen in a side bar.

Every value it shows and changes is one of the machine's settings
(:mod:`cwgym.machine.settings`, kept in ``~/.config/cwgym/settings.json``): a change goes
through :func:`~cwgym.machine.settings.change_setting`, the same call the top bar's quick
settings make, and the window paints :func:`~cwgym.machine.settings.read_settings` (read
when it paints, so a change made elsewhere — quick settings, another Settings window, a
file written by hand — shows at once). The window's own state is only the panel shown and
the keyboard focus.

Control targets (``window:<id>:content:<target>``):

* the side bar: ``panel:wifi``, ``panel:bluetooth``, ``panel:appearance``,
  ``panel:sound``, ``panel:displays``, ``panel:notifications``, ``panel:users`` (role
  ``tab``);
* Wi-Fi: ``toggle:wifi``, ``toggle:airplane_mode``; Bluetooth: ``toggle:bluetooth``;
  Appearance: ``style:default``, ``style:dark`` (role ``radio``), ``toggle:dark_style``;
  Sound: ``volume`` (role ``slider``: a click or a drag sets the volume where the pointer
  is), ``toggle:muted``; Displays: ``scale:100`` ... ``scale:200`` (role ``radio``),
  ``toggle:night_light``; Notifications: ``toggle:do_not_disturb``. Switches have role
  ``switch`` and say ``checked``. A control of a panel that is not shown is an unknown
  target.

Keys: ``Tab`` / ``Shift+Tab`` move the focus between the side bar and the panel's
controls; in the side bar ``ArrowUp`` / ``ArrowDown`` (``Home`` / ``End``) choose the panel;
``Space`` or ``Enter`` flips the focused switch or picks the focused choice; on the volume
slider ``ArrowLeft`` / ``ArrowRight`` step 1, ``PageDown`` / ``PageUp`` step 10, ``Home`` /
``End`` go to 0 / 100; on a scale or style choice ``ArrowLeft`` / ``ArrowRight`` pick the
previous or next one; ``Alt+1`` … ``Alt+7`` open the panels in side-bar order.

The Users panel lists the machine's accounts (name, user id, home folder) and changes
nothing: in cwgym a machine's accounts are part of its world definition (there is no
``useradd`` or ``passwd`` to change them), so the panel is read-only and says so.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from cwgym.apps import register
from cwgym.apps._palette import ERROR
from cwgym.desktop.framework import App, AppContext, AppError, UnknownTarget
from cwgym.desktop.keys import Chord
from cwgym.desktop.painter import Painter
from cwgym.machine.filesystem import FsError
from cwgym.machine.settings import (
    SETTINGS,
    SETTINGS_FILE,
    UserDataError,
    change_setting,
    read_settings,
)
from cwgym.scene import Box, NodeState, Rect, RoundedBox, Semantic, Symbol, UiText, UiTextBold
from cwgym.text import line_height, measure, wrap

__all__ = ["PANELS", "Settings"]

#: ``(id, label, symbol)`` of each panel, in side-bar order.
PANELS = (
    ("wifi", "Wi-Fi", "wifi"),
    ("bluetooth", "Bluetooth", "settings"),
    ("appearance", "Appearance", "star"),
    ("sound", "Sound", "volume"),
    ("displays", "Displays", "view-grid"),
    ("notifications", "Notifications", "bell"),
    ("users", "Users", "user"),
)
_PANEL_IDS = tuple(p for p, _l, _s in PANELS)
_PANEL_LABEL = {p: label for p, label, _s in PANELS}
SCALES = SETTINGS["display_scale"].allowed
STYLES = (("default", "Default"), ("dark", "Dark"))
#: The volume slider's marks (a click on one sets that volume).
MARKS = tuple(range(0, 101, 10))
#: The panels' controls, in Tab order.
CONTROLS = {
    "wifi": ("toggle:wifi", "toggle:airplane_mode"),
    "bluetooth": ("toggle:bluetooth",),
    "appearance": ("style:default", "style:dark", "toggle:dark_style"),
    "sound": ("volume", "toggle:muted"),
    "displays": (*(f"scale:{s}" for s in SCALES), "toggle:night_light"),
    "notifications": ("toggle:do_not_disturb",),
    "users": (),
}
_TOGGLE_LABELS = {
    "wifi": ("Wi-Fi", ""),
    "airplane_mode": ("Airplane Mode", "Turns off Wi-Fi: the computer reaches no other machine"),
    "bluetooth": ("Bluetooth", ""),
    "dark_style": ("Dark Style", "Applications and the desktop use dark colours"),
    "muted": ("Mute", "Silence every sound"),
    "night_light": ("Night Light", "Warmer colours reduce blue light"),
    "do_not_disturb": ("Do Not Disturb", "Notification banners are hidden; they stay in the list"),
}
USERS_NOTE = (
    "This computer's accounts come with its definition: Settings shows them but cannot add, "
    "remove or change them."
)

SIDE_W = 220
SIDE_ROW = 44
ROW_H = 60
GROUP_R = 10
TITLE_Y = 20
BANNER_H = 40


# -- geometry ------------------------------------------------------------------------------


def _column(width: int) -> tuple[int, int]:
    """The x and width of the panel's content column."""
    avail = max(0, width - SIDE_W)
    w = max(160, min(640, avail - 48))
    return SIDE_W + max(24, (avail - w) // 2), w


def _side_rect(i: int) -> Rect:
    return Rect(8, 12 + i * SIDE_ROW, SIDE_W - 16, SIDE_ROW - 4)


def _switch_rect(row: Rect) -> Rect:
    return Rect(row.right - 62, row.y + (row.height - 26) // 2, 46, 26)


class _Layout:
    """Where each control of a panel is painted (shared by paint, clicks and drags)."""

    def __init__(self, width: int, panel: str, banner: bool) -> None:
        x, w = _column(width)
        top = 64 + (BANNER_H if banner else 0)
        self.x, self.w, self.top = x, w, top
        self.rows: list[tuple[str, Rect]] = []  # (toggle name, row) in paint order
        self.rects: dict[str, Rect] = {}
        if panel == "wifi":
            self._toggle_rows(["wifi", "airplane_mode"], top)
            self.network = Rect(x, top + 2 * ROW_H + 44, w, ROW_H)
        elif panel == "bluetooth":
            self._toggle_rows(["bluetooth"], top)
        elif panel == "appearance":
            tw = (w - 16) // 2
            self.rects["style:default"] = Rect(x, top + 28, tw, 120)
            self.rects["style:dark"] = Rect(x + tw + 16, top + 28, tw, 120)
            self._toggle_rows(["dark_style"], top + 172)
        elif panel == "sound":
            self.volume_row = Rect(x, top, w, 104)
            self.track = Rect(x + 20, top + 52, max(40, w - 40 - 70), 6)
            self.rects["volume"] = Rect(self.track.x - 10, top + 38, self.track.width + 20, 28)
            for n in MARKS:
                mx = self.track.x + self.track.width * n // 100
                self.rects[f"volume:{n}"] = Rect(mx - 15, top + 70, 30, 24)
            self._toggle_rows(["muted"], top + 104 + 16)
        elif panel == "displays":
            self.scale_row = Rect(x, top, w, 96)
            bw = max(44, min(84, (w - 40 - 8 * (len(SCALES) - 1)) // len(SCALES)))
            for i, s in enumerate(SCALES):
                self.rects[f"scale:{s}"] = Rect(x + 20 + i * (bw + 8), top + 46, bw, 34)
            self._toggle_rows(["night_light"], top + 96 + 16)
        elif panel == "notifications":
            self._toggle_rows(["do_not_disturb"], top)

    def _toggle_rows(self, names: list[str], y: int) -> None:
        for i, name in enumerate(names):
            row = Rect(self.x, y + i * ROW_H, self.w, ROW_H)
            self.rows.append((name, row))
            self.rects[f"toggle:{name}"] = _switch_rect(row)


def _volume_at(layout: _Layout, x: int) -> int:
    t = layout.track
    return max(0, min(100, round((x - t.x) * 100 / max(1, t.width))))


@functools.lru_cache(maxsize=32)
def _damage(data: bytes) -> str:
    """What is wrong with the settings file's bytes ("" when it is a JSON object whose
    known names hold allowed values)."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return "it is not JSON"
    if not isinstance(value, dict):
        return "it is not a JSON object"
    for name in sorted(value):
        setting = SETTINGS.get(name)
        if setting is None:
            continue
        v = value[name]
        ok = (
            isinstance(v, bool)
            if setting.kind is bool
            else (
                isinstance(v, int)
                and not isinstance(v, bool)
                and (setting.allowed is None or v in setting.allowed)
            )
        )
        if not ok:
            return f"{name} holds {json.dumps(v)}"
    return ""


def _file_problem(ctx: AppContext) -> str:
    """The banner for a settings file that is there but not readable as settings."""
    path = f"{ctx.home}/{SETTINGS_FILE}"
    try:
        data = ctx.files().read(path, ctx.home)
    except FsError as exc:
        if exc.code == "ENOENT":
            return ""
        return (
            f"Could not read ~/{SETTINGS_FILE}: {exc.strerror_text}. Settings shows the defaults."
        )
    bad = _damage(data)
    if not bad:
        return ""
    return (
        f"The settings file ~/{SETTINGS_FILE} is damaged ({bad}): Settings shows the default for "
        "what it cannot read, and the next change rewrites the file."
    )


def _connection(address: str, hostname: str) -> tuple[str, str]:
    """The network's name and the detail line, from the machine's address."""
    parts = address.split(".")
    name = "cwgym-" + "-".join(parts[:3]) if len(parts) == 4 else f"{hostname}-net"
    return name, f"Connected · IPv4 address {address}"


class Settings(App):
    id = "settings"
    label = "Settings"
    kind = "native"
    default_size = (900, 620)
    min_size = (560, 420)
    focus_keys = ("focus",)

    # -- lifecycle -------------------------------------------------------------------------
    def create(self, ctx: AppContext, argument: str | None) -> dict[str, Any]:
        panel = "wifi"
        if argument:
            if argument not in _PANEL_IDS:
                raise AppError(
                    f"Settings has no panel {argument!r} (panels: {', '.join(_PANEL_IDS)})"
                )
            panel = argument
        return {"panel": panel, "focus": "sidebar", "error": ""}

    def title(self, state: dict) -> str:
        return ""  # the theme's label: "Settings"

    # -- painting ----------------------------------------------------------------------------
    def paint_key(self, ctx: AppContext, state: dict) -> Any:
        machine = ctx.machine
        users = tuple((u.name, u.uid, u.home) for u in machine.users)
        address = getattr(machine.computer, "address", "") or ""
        values = tuple(read_settings(machine).items())
        return values, users, address, machine.hostname, _file_problem(ctx)

    def paint(self, p: Painter, state: dict, key: Any) -> None:
        values, users, address, hostname, problem = key
        settings = dict(values)
        pal = p.palette
        panel = state["panel"]
        focus = state["focus"]
        # the side bar
        p.box(Rect(0, 0, SIDE_W, p.height), pal.get("header", pal["button"]), key="set-side")
        p.box(Rect(SIDE_W - 1, 0, 1, p.height), pal["border"], key="set-side-edge")
        for i, (pid, label, symbol) in enumerate(PANELS):
            r = _side_rect(i)
            on = panel == pid
            p.paint(
                RoundedBox(pal["selection"] if on else (0, 0, 0, 0), 8),
                r,
                key=("set-tab", pid),
                target=f"panel:{pid}",
                semantic=Semantic("tab", label, None, False, True),
                state=NodeState(selected=on, focused=True if on and focus == "sidebar" else None),
            )
            p.paint(
                Symbol(symbol, pal["text"], 16),
                Rect(r.x + 12, r.y + 12, 16, 16),
                key=("set-tab-i", pid),
                target=f"panel:{pid}",
            )
            p.paint(
                UiText(label, 14, pal["text"]),
                Rect(
                    r.x + 40,
                    r.y + (r.height - line_height("sans", 14)) // 2,
                    measure(label, "sans", 14),
                    line_height("sans", 14),
                ),
                key=("set-tab-l", pid),
                target=f"panel:{pid}",
            )
            if on and focus == "sidebar":
                p.paint(
                    RoundedBox((0, 0, 0, 0), 8, pal["accent"], 2),
                    r,
                    key="set-tab-ring",
                    target=f"panel:{pid}",
                )
                p.focus(f"panel:{pid}", role="tab", label=label, value=None)
        banner = state["error"] or problem
        layout = _Layout(p.width, panel, bool(banner))
        title = _PANEL_LABEL[panel]
        p.paint(
            UiTextBold(title, 20, pal["text"]),
            Rect(layout.x, TITLE_Y, measure(title, "sans-bold", 20), line_height("sans-bold", 20)),
            key="set-title",
            semantic=Semantic("heading", title),
        )
        if banner:
            for i, line in enumerate(wrap(banner, "sans", 13, layout.w)[:2]):
                p.text(
                    line,
                    layout.x,
                    56 + 17 * i,
                    size=13,
                    color=ERROR,
                    width=layout.w,
                    key=("set-banner", i),
                )
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(layout.x, 54, layout.w, BANNER_H - 4),
                key="set-alert",
                semantic=Semantic("alert", banner),
            )
        getattr(self, f"_paint_{panel}")(
            p, state, settings, layout, users=users, address=address, hostname=hostname
        )
        for name, row in layout.rows:
            self._toggle_row(p, name, row, settings[name], focus)

    def _group(self, p: Painter, rect: Rect, key: str) -> None:
        pal = p.palette
        p.paint(RoundedBox(pal["field"], GROUP_R, pal["border"], 1), rect, key=("set-group", key))

    def _toggle_row(self, p: Painter, name: str, row: Rect, on: bool, focus: str) -> None:
        pal = p.palette
        label, sub = _TOGGLE_LABELS[name]
        self._group(p, row, name)
        if sub:
            p.text(label, row.x + 16, row.y + 10, size=14, key=("set-rl", name))
            p.text(
                sub,
                row.x + 16,
                row.y + 32,
                size=12,
                color=pal["muted"],
                width=row.width - 100,
                key=("set-rs", name),
            )
        else:
            p.text(
                label,
                row.x + 16,
                row.y + (row.height - line_height("sans", 14)) // 2,
                size=14,
                key=("set-rl", name),
            )
        target = f"toggle:{name}"
        sw = _switch_rect(row)
        focused = focus == target
        p.paint(
            RoundedBox(
                pal["accent"] if on else pal["border"],
                13,
                pal["text"] if focused else None,
                2 if focused else 0,
            ),
            sw,
            key=("set-sw", name),
            target=target,
            semantic=Semantic("switch", label, "on" if on else "off", False, True),
            state=NodeState(checked=on, focused=True if focused else None),
        )
        p.paint(
            RoundedBox((255, 255, 255, 255), 11),
            Rect(sw.x + (22 if on else 2), sw.y + 2, 22, 22),
            key=("set-knob", name),
            target=target,
        )
        if focused:
            p.focus(target, role="switch", label=label, value="on" if on else "off")

    def _choice(
        self,
        p: Painter,
        target: str,
        label: str,
        rect: Rect,
        on: bool,
        focus: str,
        big: bool = False,
    ) -> None:
        pal = p.palette
        focused = focus == target
        p.paint(
            RoundedBox(
                pal["accent"] if on and not big else pal["button"],
                8,
                pal["accent"] if on or focused else pal["border"],
                2 if on or focused else 1,
            ),
            rect,
            key=("set-choice", target),
            target=target,
            semantic=Semantic("radio", label, "selected" if on else None, False, True),
            state=NodeState(checked=on, focused=True if focused else None),
        )
        ink = pal["accent_text"] if on and not big else pal["text"]
        w, h = measure(label, "sans", 14), line_height("sans", 14)
        ly = rect.bottom - h - 10 if big else rect.y + (rect.height - h) // 2
        p.paint(
            UiText(label, 14, ink),
            Rect(rect.x + (rect.width - w) // 2, ly, w, h),
            key=("set-choice-l", target),
            target=target,
        )
        if focused:
            p.focus(target, role="radio", label=label, value="selected" if on else None)

    def _note(self, p: Painter, text: str, x: int, y: int, width: int, key: str) -> None:
        for i, line in enumerate(wrap(text, "sans", 13, max(1, width))[:3]):
            p.text(line, x, y + 18 * i, size=13, color=p.palette["muted"], key=(key, i))

    # the panels
    def _paint_wifi(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        pal = p.palette
        y = layout.top + 2 * ROW_H + 20
        p.text("Connection", layout.x, y, size=13, bold=True, color=pal["muted"], key="set-conn-h")
        row = layout.network
        if settings["airplane_mode"]:
            self._note(
                p,
                "Airplane Mode is on: the computer reaches no network.",
                layout.x,
                row.y + 4,
                layout.w,
                "set-conn-off",
            )
        elif not settings["wifi"]:
            self._note(
                p,
                "Wi-Fi is turned off: the computer reaches no network.",
                layout.x,
                row.y + 4,
                layout.w,
                "set-conn-off",
            )
        else:
            name, detail = _connection(info["address"], info["hostname"])
            self._group(p, row, "conn")
            p.paint(
                Symbol("wifi", pal["text"], 16),
                Rect(row.x + 16, row.y + 22, 16, 16),
                key="set-conn-i",
            )
            p.paint(
                UiTextBold(name, 14, pal["text"]),
                Rect(
                    row.x + 44,
                    row.y + 10,
                    measure(name, "sans-bold", 14),
                    line_height("sans-bold", 14),
                ),
                key="set-conn-name",
                semantic=Semantic("status", f"Connected to {name}", detail),
            )
            p.text(
                detail,
                row.x + 44,
                row.y + 32,
                size=12,
                color=pal["muted"],
                width=row.width - 60,
                key="set-conn-detail",
            )

    def _paint_bluetooth(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        y = layout.top + ROW_H + 20
        if settings["bluetooth"] and not settings["airplane_mode"]:
            text = f"Visible as “{info['hostname']}”. No devices found nearby."
        elif settings["bluetooth"]:
            text = "Airplane Mode is on: Bluetooth is not in use."
        else:
            text = "Bluetooth is turned off."
        self._note(p, text, layout.x, y, layout.w, "set-bt-note")

    def _paint_appearance(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        pal = p.palette
        p.text(
            "Style", layout.x, layout.top, size=13, bold=True, color=pal["muted"], key="set-style-h"
        )
        dark = settings["dark_style"]
        for style, label in STYLES:
            target = f"style:{style}"
            rect = layout.rects[target]
            on = dark == (style == "dark")
            self._choice(p, target, label, rect, on, state["focus"], big=True)
            preview = Rect(rect.x + 16, rect.y + 14, rect.width - 32, rect.height - 52)
            fill = (36, 36, 36, 255) if style == "dark" else (250, 250, 250, 255)
            bar = (48, 48, 48, 255) if style == "dark" else (235, 235, 235, 255)
            p.paint(
                RoundedBox(fill, 6, pal["border"], 1),
                preview,
                key=("set-prev", style),
                target=target,
            )
            p.paint(
                RoundedBox(bar, 6),
                Rect(preview.x, preview.y, preview.width, 16),
                key=("set-prev-bar", style),
                target=target,
            )

    def _paint_sound(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        pal = p.palette
        row = layout.volume_row
        volume, muted = settings["volume"], settings["muted"]
        self._group(p, row, "volume")
        p.text("Output Volume", row.x + 16, row.y + 12, size=14, key="set-vol-l")
        shown = f"{volume} %" + (" (muted)" if muted else "")
        p.text(
            shown,
            row.right - 16 - measure(shown, "sans", 13),
            row.y + 13,
            size=13,
            color=pal["muted"],
            key="set-vol-v",
        )
        t = layout.track
        hit = layout.rects["volume"]
        focused = state["focus"] == "volume"
        p.paint(
            RoundedBox((0, 0, 0, 0), 6, pal["accent"] if focused else None, 2 if focused else 0),
            hit,
            key="set-vol-hit",
            target="volume",
            semantic=Semantic("slider", "Volume", str(volume), False, True),
            state=NodeState(focused=True) if focused else None,
        )
        p.paint(RoundedBox(pal["border"], 3), t, key="set-vol-track", target="volume")
        fill_w = t.width * volume // 100
        if fill_w:
            p.paint(
                RoundedBox(pal["muted"] if muted else pal["accent"], 3),
                Rect(t.x, t.y, fill_w, t.height),
                key="set-vol-fill",
                target="volume",
            )
        p.paint(
            RoundedBox((255, 255, 255, 255), 9, pal["border"], 1),
            Rect(t.x + fill_w - 9, t.y - 6, 18, 18),
            key="set-vol-knob",
            target="volume",
        )
        p.paint(
            Symbol("volume-muted" if muted else "volume", pal["text"], 16),
            Rect(t.right + 20, t.y - 5, 16, 16),
            key="set-vol-icon",
        )
        for n in MARKS:
            r = layout.rects[f"volume:{n}"]
            mx = r.x + r.width // 2
            p.paint(
                Box(pal["border"]), Rect(mx, r.y, 1, 5), key=("set-mark", n), target=f"volume:{n}"
            )
            text = str(n)
            tw = measure(text, "sans", 11)
            p.paint(
                UiText(text, 11, pal["muted"]),
                Rect(mx - tw // 2, r.y + 7, tw, line_height("sans", 11)),
                key=("set-mark-l", n),
                target=f"volume:{n}",
                semantic=Semantic("button", f"Volume {n} %", None, False, True),
            )
        if focused:
            p.focus("volume", role="slider", label="Volume", value=str(volume))

    def _paint_displays(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        row = layout.scale_row
        self._group(p, row, "scale")
        p.text("Scale", row.x + 16, row.y + 14, size=14, key="set-scale-l")
        for s in SCALES:
            target = f"scale:{s}"
            self._choice(
                p,
                target,
                f"{s} %",
                layout.rects[target],
                settings["display_scale"] == s,
                state["focus"],
            )

    def _paint_notifications(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        return

    def _paint_users(
        self, p: Painter, state: dict, settings: dict, layout: _Layout, **info: Any
    ) -> None:
        pal = p.palette
        users = info["users"]
        self._note(p, USERS_NOTE, layout.x, layout.top, layout.w, "set-users-note")
        y = layout.top + 48
        p.paint(
            Box((0, 0, 0, 0)),
            Rect(layout.x, layout.top, layout.w, 40),
            key="set-users-why",
            semantic=Semantic("note", USERS_NOTE),
        )
        self._group(p, Rect(layout.x, y, layout.w, ROW_H * len(users)), "users")
        for i, (name, uid, home) in enumerate(users):
            ry = y + i * ROW_H
            if i:
                p.box(
                    Rect(layout.x + 1, ry, layout.w - 2, 1), pal["border"], key=("set-user-sep", i)
                )
            p.paint(
                Box((0, 0, 0, 0)),
                Rect(layout.x, ry, layout.w, ROW_H),
                key=("set-user", name),
                semantic=Semantic("listitem", name, f"uid {uid}, home {home}"),
            )
            p.paint(
                Symbol("user", pal["text"], 16),
                Rect(layout.x + 16, ry + 22, 16, 16),
                key=("set-user-i", name),
            )
            p.paint(
                UiTextBold(name, 14, pal["text"]),
                Rect(
                    layout.x + 44,
                    ry + 10,
                    measure(name, "sans-bold", 14),
                    line_height("sans-bold", 14),
                ),
                key=("set-user-n", name),
            )
            kind = (
                "Administrator"
                if uid == 0
                else "Standard"
                if 1000 <= uid < 65534
                else "System account"
            )
            p.text(
                f"{kind} · uid {uid} · {home}",
                layout.x + 44,
                ry + 32,
                size=12,
                color=pal["muted"],
                width=layout.w - 60,
                key=("set-user-d", name),
            )

    # -- changes -------------------------------------------------------------------------------
    def _set(self, ctx: AppContext, state: dict, name: str, value: Any) -> dict:
        try:
            change_setting(ctx.machine, name, value)
        except (ValueError, UserDataError) as exc:  # UserDataError first: it is a ValueError
            state["error"] = f"Could not change {SETTINGS[name].label}: {exc}."
            return {"setting": name, "value": read_settings(ctx.machine)[name]}
        state["error"] = ""
        return {"setting": name, "value": value}

    def _press(self, ctx: AppContext, state: dict, target: str) -> Any:
        """What a click (without a point) or Space on ``target`` of the shown panel does."""
        settings = read_settings(ctx.machine)
        head, _, arg = target.partition(":")
        if head == "toggle":
            return self._set(ctx, state, arg, not settings[arg])
        if head == "style":
            return self._set(ctx, state, "dark_style", arg == "dark")
        if head == "scale":
            return self._set(ctx, state, "display_scale", int(arg))
        return {"setting": "volume", "value": settings["volume"]}  # the slider: focus only

    # -- events ----------------------------------------------------------------------------------
    def activate(
        self,
        ctx: AppContext,
        state: dict,
        target: str,
        point: tuple[int, int] | None,
        modifiers: tuple[str, ...] = (),
    ) -> Any:
        head, _, arg = target.partition(":")
        if head == "panel" and arg in _PANEL_IDS:
            self._switch(state, arg)
            return arg
        if state["panel"] == "sound" and head == "volume" and arg in {str(n) for n in MARKS}:
            state["focus"] = "volume"
            return self._set(ctx, state, "volume", int(arg))
        if target not in CONTROLS[state["panel"]]:
            raise UnknownTarget(target)
        state["focus"] = target
        if target == "volume" and point is not None:
            layout = _Layout(ctx.width, state["panel"], bool(state["error"] or _file_problem(ctx)))
            return self._set(ctx, state, "volume", _volume_at(layout, point[0]))
        return self._press(ctx, state, target)

    def is_drag_surface(self, target: str, button: int) -> bool:
        return button == 0 and target == "volume"

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
        if target != "volume" or state["panel"] != "sound" or phase not in ("down", "move", "up"):
            return
        state["focus"] = "volume"
        layout = _Layout(ctx.width, "sound", bool(state["error"] or _file_problem(ctx)))
        value = _volume_at(layout, point[0])
        if read_settings(ctx.machine)["volume"] != value:
            self._set(ctx, state, "volume", value)

    def _switch(self, state: dict, panel: str) -> None:
        state["panel"] = panel
        state["focus"] = "sidebar"
        state["error"] = ""

    def key(self, ctx: AppContext, state: dict, chord: Chord) -> bool:
        name = chord.name
        panel = state["panel"]
        focus = state["focus"]
        order = ("sidebar", *CONTROLS[panel])
        if name.startswith("Alt+") and name[4:].isdigit() and 1 <= int(name[4:]) <= len(PANELS):
            self._switch(state, _PANEL_IDS[int(name[4:]) - 1])
            return True
        if name in ("Tab", "Shift+Tab"):
            i = order.index(focus) if focus in order else 0
            state["focus"] = order[(i + (-1 if chord.shift else 1)) % len(order)]
            return True
        if focus == "sidebar" or focus not in order:
            i = _PANEL_IDS.index(panel)
            moves = {"ArrowUp": i - 1, "ArrowDown": i + 1, "Home": 0, "End": len(PANELS) - 1}
            if name in moves:
                self._switch(state, _PANEL_IDS[max(0, min(len(PANELS) - 1, moves[name]))])
                return True
            return False
        if focus == "volume":
            volume = read_settings(ctx.machine)["volume"]
            steps = {
                "ArrowLeft": -1,
                "ArrowDown": -1,
                "ArrowRight": 1,
                "ArrowUp": 1,
                "PageDown": -10,
                "PageUp": 10,
            }
            if name in steps:
                value = max(0, min(100, volume + steps[name]))
            elif name in ("Home", "End"):
                value = 0 if name == "Home" else 100
            else:
                return False
            if value != volume:
                self._set(ctx, state, "volume", value)
            return True
        if name in ("Space", "Enter"):
            self._press(ctx, state, focus)
            return True
        if name in ("ArrowLeft", "ArrowRight") and focus.startswith(("scale:", "style:")):
            group = [c for c in CONTROLS[panel] if c.startswith(focus.split(":")[0] + ":")]
            i = group.index(focus) + (1 if name == "ArrowRight" else -1)
            if 0 <= i < len(group):
                state["focus"] = group[i]
                self._press(ctx, state, group[i])
            return True
        return False


register(Settings())
