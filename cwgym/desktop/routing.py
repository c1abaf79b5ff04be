"""Input routing: pointer.v1 through hit testing, keyboard.v1 through the focus.

Pointer
    Coordinates are in the viewport the actor names (``width``/``height``, by default the
    last one it named, at first the theme's native screen) and are hit-tested against the
    scene at that viewport, then mapped back to native screen pixels. ``down`` remembers
    the control under the pointer and its bounds; ``up`` fires it only when released
    inside those bounds. A ``down`` on a title bar (``window:<id>:drag``), a resize grip
    or an application drag surface captures the pointer: later ``move`` and ``up`` go to
    the capture without hit testing. ``button`` 2 on ``down`` opens the context panel.
    ``modifiers`` reach the application: a click's ``activate`` gets those held at the
    press, a drag each phase's own. A ``double_click`` on an application's drag surface
    is a press with ``clicks=2`` and a release.

Keyboard
    A key goes, in order, to: the shell's own keys (the theme's
    :attr:`~cwgym.desktop.themes.base.Theme.shell_keys`; on Ubuntu Meta, Meta+Space,
    Ctrl+Escape: the launcher; Alt+Tab, Shift+Alt+Tab: the switcher), the open shell
    panel, the focused window's application, and the window manager's keys (the theme's
    :attr:`~cwgym.desktop.themes.base.Theme.window_keys`; on Ubuntu Alt+F4 — which asks
    the application first, :meth:`~cwgym.desktop.framework.App.can_close` — Meta+Up,
    Meta+Down, Meta+H). Inside an open panel the keys are the same under every theme:
    Escape closes it; Enter, Space or a lone Alt accepts the switcher, arrows and Tab move
    it; Enter launches the app grid's first match; arrows and Enter drive a context
    menu. Typed text goes to the open panel or the focused application; with neither it
    is ``invalid``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cwgym.desktop.launcher as launcher
import cwgym.desktop.wm as wm
from cwgym.desktop.keys import MODIFIERS, Chord, parse_key
from cwgym.protocol import errors
from cwgym.protocol.errors import ActionError

if TYPE_CHECKING:
    from cwgym.desktop.seatlike import SeatLike
    from cwgym.scene import Node, Scene

__all__ = ["MAX_COORD", "MAX_VIEWPORT", "POINTER_OPS", "key", "pointer", "type_text"]

MAX_COORD = 32768
MAX_VIEWPORT = 8192
POINTER_OPS = ("click", "double_click", "down", "move", "up", "cancel", "wheel")


def _invalid() -> ActionError:
    return ActionError(errors.INVALID)


def _int(payload: dict, name: str, default: Any = None) -> Any:
    value = payload.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (float("inf"), float("-inf")):
        raise _invalid()
    return int(value // 1)


def _modifiers(payload: dict) -> tuple[str, ...]:
    raw = payload.get("modifiers") or []
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise _invalid()
    mods = set()
    for m in raw:
        name = MODIFIERS.get(m.lower()) if isinstance(m, str) else None
        if name is None:
            raise _invalid()
        mods.add(name)
    return tuple(m for m in ("Ctrl", "Alt", "Shift", "Meta") if m in mods)


# -- pointer ------------------------------------------------------------------------------


def pointer(seat: SeatLike, op: str, payload: dict) -> Any:
    """Run one pointer.v1 operation; returns its value (see the module docstring)."""
    if op not in POINTER_OPS:
        raise ActionError(errors.INVALID, errors.UNSUPPORTED_OPERATION)
    if "x" not in payload or "y" not in payload:
        raise _invalid()
    x = max(-MAX_COORD, min(MAX_COORD, _int(payload, "x")))
    y = max(-MAX_COORD, min(MAX_COORD, _int(payload, "y")))
    desk = seat.desk
    last = desk.viewport or list(seat.native)
    width, height = _int(payload, "width", last[0]), _int(payload, "height", last[1])
    width = max(1, min(MAX_VIEWPORT, width))
    height = max(1, min(MAX_VIEWPORT, height))
    if "width" in payload or "height" in payload:
        desk.viewport = [width, height]
    button = _int(payload, "button", 0)
    mods = _modifiers(payload)
    scene = seat.scene(width, height)
    native = seat.to_native(width, height, x, y)
    if op == "wheel":
        return {"handled": _wheel(seat, scene, x, y, native, _int(payload, "delta_x", 0), _int(payload, "delta_y", 0), mods)}
    if op == "move":
        return {"cursor": _move(seat, scene, x, y, native, mods)}
    if op == "cancel":
        _cancel(seat)
        return None
    if op == "down":
        _down(seat, scene, x, y, native, button, (width, height), mods)
        return None
    if op == "up":
        return _up(seat, x, y, native, (width, height), mods)
    if op == "click":
        _down(seat, scene, x, y, native, button, (width, height), mods)
        return _up(seat, x, y, native, (width, height), mods)
    return _double_click(seat, scene, x, y, native, button, (width, height), mods)


def _window_under(seat: SeatLike, scene: Scene, x: int, y: int) -> int | None:
    """The window whose paint is topmost under ``(x, y)`` (None over the shell or desktop)."""
    for hit in scene.hit_stack(x, y):
        if hit.window is not None:
            return hit.window
        if hit.opaque or hit.interactive:
            return None
    return None


def _node_rect(scene: Scene, node: Node) -> list[int]:
    r = scene.visible_bounds(node.id) or node.screen_bounds()
    return [r.x, r.y, r.width, r.height]


def _down(
    seat: SeatLike,
    scene: Scene,
    x: int,
    y: int,
    native: tuple[int, int],
    button: int,
    viewport: tuple[int, int],
    mods: tuple[str, ...] = (),
    clicks: int = 1,
) -> None:
    desk = seat.desk
    desk.press = None
    hit = scene.hit_test(x, y)
    target = hit.interaction if hit is not None else None
    wid = _window_under(seat, scene, x, y)
    win = desk.windows.get(wid) if wid is not None else None
    app_surface = None
    if win is not None and target is not None and target.startswith(f"window:{wid}:content:"):
        local_target = target.split(":", 3)[3]
        app = seat.app(win)
        if app is not None and app.is_drag_surface(local_target, button):
            app_surface = local_target
    if not seat.shell:
        return
    if desk.panel is not None and (target is None or not launcher.keeps_panel_open(desk.panel.get("kind"), target)):
        desk.panel = None  # pressing outside an open panel closes it and goes no further
        return
    if button == 2 and app_surface is None:
        if target is not None and target.startswith("shell:icon:"):
            desk.selected_icon = target
            launcher.open_context(seat, *native, {"type": "icon", "target": target})
        elif win is not None:
            wm.focus(desk, win)
            launcher.open_context(seat, *native, {"type": "window", "window": win.id})
        elif target is None:
            launcher.open_context(seat, *native, {"type": "desktop"})
        return
    if win is not None and desk.focused != win.id:
        wm.focus(desk, win)
    if win is not None and target is not None and target.startswith(f"window:{win.id}:"):
        op = target.split(":", 3)[2:]
        origin, start = list(win.bounds), list(native)
        if op == ["drag"]:
            desk.press = {"capture": "move", "window": win.id, "origin": origin, "start": start, "button": button}
            return
        if op[0] == "resize" and len(op) == 2 and op[1] in wm.CURSORS:
            desk.press = {"capture": f"resize:{op[1]}", "window": win.id, "origin": origin, "start": start, "button": button}
            return
        if app_surface is not None:
            desk.press = {"capture": "app", "window": win.id, "target": app_surface, "button": button}
            local = seat.local(win, native)
            seat.app_call(win, "drag", app_surface, "down", local, button, modifiers=mods, clicks=clicks)
            return
    if target is None:
        if win is None:
            desk.selected_icon = None
        return
    desk.press = {
        "target": target,
        "rect": _node_rect(scene, hit),
        "viewport": list(viewport),
        "button": button,
        "window": win.id if win is not None else None,
        "modifiers": list(mods),
    }


def _captured(seat: SeatLike, native: tuple[int, int], phase: str, mods: tuple[str, ...] = ()) -> str:
    desk = seat.desk
    press = desk.press or {}
    win = desk.windows.get(press.get("window"))
    capture = press.get("capture")
    if win is None:
        return "default"
    if capture == "move":
        wm.move(seat.theme, win, press["origin"], press["start"], native)
        return "grabbing"
    if capture is not None and capture.startswith("resize:"):
        edge = capture[7:]
        app = seat.app(win)
        min_size = app.min_size if app is not None else (160, 100)
        wm.resize(seat.theme, win, edge, press["origin"], press["start"], native, min_size)
        return wm.CURSORS[edge]
    if capture == "app":
        seat.app_call(win, "drag", press["target"], phase, seat.local(win, native), press.get("button", 0), modifiers=mods)
        app = seat.app(win)
        return (app.cursor(press["target"]) if app is not None else None) or "grabbing"
    return "default"


def _move(seat: SeatLike, scene: Scene, x: int, y: int, native: tuple[int, int], mods: tuple[str, ...] = ()) -> str:
    press = seat.desk.press
    if press is not None and press.get("capture"):
        return _captured(seat, native, "move", mods)
    hit = scene.hit_test(x, y)
    if hit is None:
        return "default"
    target = hit.interaction or ""
    parts = target.split(":", 3)
    if target.startswith("window:") and len(parts) >= 3:
        if parts[2] == "resize" and len(parts) == 4:
            return wm.CURSORS.get(parts[3], "default")
        if parts[2] == "drag":
            return "grab"
        if parts[2] == "content" and len(parts) == 4 and parts[1].isdigit():
            win = seat.desk.windows.get(int(parts[1]))
            app = seat.app(win) if win is not None else None
            if app is not None:
                cursor = app.cursor(parts[3])
                if cursor is not None:
                    return cursor
                if app.is_drag_surface(parts[3], 0):
                    return "grab"
    sem = hit.semantic or next((n.semantic for n in scene.find(target) if n.semantic is not None), None)
    if sem is not None and sem.role in ("textbox", "searchbox"):
        return "text"
    return "pointer"


def _up(seat: SeatLike, x: int, y: int, native: tuple[int, int], viewport: tuple[int, int], mods: tuple[str, ...] = ()) -> Any:
    desk = seat.desk
    press = desk.press
    if press is None:
        return None
    if press.get("capture"):
        _captured(seat, native, "up", mods)
        desk.press = None
        return None
    desk.press = None
    rx, ry, rw, rh = press["rect"]
    px, py = x, y
    if list(viewport) != press["viewport"]:
        px, py = seat.from_native(*press["viewport"], *native)
    if not (rx <= px < rx + rw and ry <= py < ry + rh):
        return None  # released outside the pressed control: no click
    # a click counts the modifiers held when it was pressed
    return launcher.activate(seat, press["target"], native, pointer=True, modifiers=tuple(press.get("modifiers", ())))


def _cancel(seat: SeatLike) -> None:
    desk = seat.desk
    press = desk.press
    desk.press = None
    if press is None or not press.get("capture"):
        return
    win = desk.windows.get(press.get("window"))
    if win is None:
        return
    if press["capture"] == "app":
        seat.app_call(win, "drag", press["target"], "cancel", (0, 0), press.get("button", 0))
    elif not win.maximized:
        win.set_bounds(*press["origin"])


def _double_click(
    seat: SeatLike,
    scene: Scene,
    x: int,
    y: int,
    native: tuple[int, int],
    button: int,
    viewport: tuple[int, int],
    mods: tuple[str, ...] = (),
) -> Any:
    hit = scene.hit_test(x, y)
    target = hit.interaction if hit is not None else None
    desk = seat.desk
    if seat.shell and target is not None and desk.panel is None:
        parts = target.split(":", 3)
        if target.startswith("window:") and len(parts) >= 3 and parts[1].isdigit():
            win = desk.windows.get(int(parts[1]))
            if win is not None and parts[2] == "drag":
                desk.press = None
                wm.focus(desk, win)
                wm.toggle_maximize(desk, seat.theme, win)
                return None
            if win is not None and parts[2] == "content" and len(parts) == 4:
                app = seat.app(win)
                if app is not None and not app.is_drag_surface(parts[3], button):
                    desk.press = None
                    wm.focus(desk, win)
                    return seat.app_call(win, "double_click", parts[3], seat.local(win, native), modifiers=mods)
        if target.startswith("shell:icon:"):
            desk.press = None
            desk.selected_icon = target
            return launcher.open_icon(seat, target)
    # elsewhere a click; an application's drag surface gets a press counting two clicks
    _down(seat, scene, x, y, native, button, viewport, mods, clicks=2)
    return _up(seat, x, y, native, viewport, mods)


def _wheel(seat: SeatLike, scene: Scene, x: int, y: int, native: tuple[int, int], dx: int, dy: int, mods: tuple[str, ...]) -> bool:
    if not seat.shell or seat.desk.panel is not None or (dx == 0 and dy == 0):
        return False
    wid = _window_under(seat, scene, x, y)
    win = seat.desk.windows.get(wid) if wid is not None else None
    if win is None:
        return False
    hit = scene.hit_test(x, y)
    prefix = f"window:{win.id}:content:"
    target = hit.interaction[len(prefix):] if hit is not None and (hit.interaction or "").startswith(prefix) else None
    if seat.app_call(win, "wheel", target, seat.local(win, native), dx, dy, mods):
        return True
    areas = [a for a in seat.scene(*seat.native).scrolls if a.window == win.id and a.bounds.contains(*native)]
    areas.sort(key=lambda a: (a.bounds.area, a.target))
    shift = "Shift" in mods
    for area in areas:
        if area.horizontal:
            delta = dx or (dy if shift else 0)
            view = area.bounds.width
        else:
            delta = 0 if shift else dy
            view = area.bounds.height
        if not delta:
            continue
        new = max(0, min(area.offset + delta, area.extent - view))
        if new != area.offset:
            name = area.target[len(prefix) + len("pane:"):]
            win.scroll[name] = new
            return True
    return False


# -- keyboard -----------------------------------------------------------------------------


def key(seat: SeatLike, name: Any) -> None:
    """Press the key ``name`` (see :mod:`cwgym.desktop.keys`); ``invalid`` when it is no key."""
    if not isinstance(name, str):
        raise _invalid()
    try:
        chord = parse_key(name)
    except KeyError:
        raise _invalid() from None
    desk = seat.desk
    if seat.shell:
        action = seat.theme.shell_action(chord)
        if action == "launcher":
            launcher.toggle_launcher(seat)
            return
        if action in ("switcher-next", "switcher-previous"):
            launcher.switcher_step(seat, 1 if action == "switcher-next" else -1)
            return
        if desk.panel is not None:
            _panel_key(seat, chord)
            return
    win = desk.windows.get(desk.focused) if desk.focused is not None else None
    if win is not None and not win.minimized:
        if seat.app_call(win, "key", chord):
            return
        if seat.shell:
            _window_key(seat, win, chord)


def _window_key(seat: SeatLike, win: Any, chord: Chord) -> None:
    desk = seat.desk
    action = seat.theme.window_action(chord)
    if action == "close":
        seat.close(win)
    elif action == "maximize":
        wm.maximize(desk, seat.theme, win)
    elif action == "restore-or-minimize":
        if win.maximized:
            wm.restore(desk, win)
        else:
            wm.minimize(desk, win)
    elif action == "minimize":
        wm.minimize(desk, win)


def _panel_key(seat: SeatLike, chord: Chord) -> None:
    desk = seat.desk
    panel = desk.panel
    kind = panel.get("kind")
    if chord.is_("Escape"):
        desk.panel = None
        return
    if kind == "launcher":
        if chord.is_("Enter"):
            matches = launcher.launcher_matches(seat, panel.get("search", ""))
            if matches:
                desk.panel = None
                launcher.activate_app(seat, matches[0])
        elif chord.is_("Backspace"):
            panel["search"] = panel.get("search", "")[:-1]
        elif chord.char is not None:
            panel["search"] = _searched(panel, chord.char)
    elif kind == "switcher":
        if chord.is_("Enter", "Alt", "Space"):
            launcher.switcher_commit(seat)
        elif chord.is_("ArrowRight", "Tab"):
            launcher.switcher_step(seat, 1)
        elif chord.is_("ArrowLeft", "Shift+Tab"):
            launcher.switcher_step(seat, -1)
    elif kind == "context":
        items = panel.get("items") or []
        index = panel.get("index")
        if chord.is_("ArrowDown", "ArrowUp") and items:
            step = 1 if chord.key == "ArrowDown" else -1
            panel["index"] = (step - 1) // 2 % len(items) if index is None else (index + step) % len(items)
        elif chord.is_("Enter") and index is not None:
            launcher.activate(seat, items[index][0])


def _searched(panel: dict, typed: str) -> str:
    """The app grid's search text with ``typed`` added; ``invalid`` past
    :data:`~cwgym.desktop.launcher.SEARCH_MAX` characters (the panel unchanged)."""
    search = panel.get("search", "") + typed
    if len(search) > launcher.SEARCH_MAX:
        raise _invalid()
    return search


def type_text(seat: SeatLike, text: Any) -> None:
    """Type ``text`` into the open panel or the focused application; else ``invalid``
    (so is text past the cap of the field it goes to)."""
    if not isinstance(text, str):
        raise _invalid()
    desk = seat.desk
    if seat.shell and desk.panel is not None:
        if desk.panel.get("kind") != "launcher":
            raise _invalid()
        desk.panel["search"] = _searched(desk.panel, "".join(ch for ch in text if ch.isprintable()))
        return
    win = desk.windows.get(desk.focused) if desk.focused is not None else None
    if win is None or win.minimized or not seat.app_call(win, "type", text):
        raise _invalid()
