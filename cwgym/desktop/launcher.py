"""The desktop shell's controls: launching apps, the app grid, switcher, context panel, icons.

(This is the GNOME-style *desktop* shell — dock, top bar, panels — not the POSIX shell of
:mod:`cwgym.machine.shell`.)

Every shell control is reached through :func:`activate` with its interaction target,
whether a pointer click found it by hit testing or ``application.v1 shell`` named it, so
both reach the same handler. Targets (the theme paints them):

========================  =====================================================
``shell:launch:<app>``     dock launcher: focus the app's top window, else launch it
``shell:launcher``         Show Apps: open or close the app grid
``shell:activities``       the top bar's workspace pill: same as ``shell:launcher``
``shell:launcher:search``  the app grid's search field (while it is open)
``shell:grid:<app>``       an app grid entry (while it is open): like the dock
``shell:switcher``         open the window switcher (or step it, when open)
``shell:switcher:<id>``    a switcher entry (while it is open): focus that window
``shell:context:<action>`` a context panel entry (while it is open)
``shell:icon:home``        the Home desktop icon; ``shell:icon:file:<name>`` one per
                           entry of ``~/Desktop``: a click selects, a double click opens
``shell:home``             show the desktop (close panels, minimize every window)
``shell:calendar`` ...     the top bar's clock and status icons and their panels
                           (:mod:`cwgym.desktop.topbar`)
``window:<id>:<op>``       ``close`` (the application may keep the window open:
                           :meth:`~cwgym.desktop.framework.App.can_close`), ``minimize``,
                           ``maximize`` (toggles), ``restore``,
                           ``focus``, ``drag`` and ``resize:<edge>`` (focus only
                           without a pointer), ``content:<target>`` (the application)
========================  =====================================================

A kiosk theme (``Theme.kiosk``) paints none of these but the application's content: there,
``shell:`` targets and window targets other than ``focus`` and ``content:<target>`` are
``unknown_shell_target``, no context panel opens, and every window is born maximized.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cwgym.desktop.wm as wm
from cwgym.desktop import topbar
from cwgym.desktop.framework import AppError, UnknownTarget
from cwgym.desktop.state import Window
from cwgym.desktop.themes.base import DockEntry, IconView, ShellView
from cwgym.machine.filesystem import FsError
from cwgym.protocol import errors
from cwgym.protocol.catalogue import CATALOGUE, LABELS, canonical_id, kind_of
from cwgym.protocol.errors import ActionError

if TYPE_CHECKING:
    from cwgym.desktop.seatlike import SeatLike

__all__ = [
    "CHROME",
    "NOT_IMPLEMENTED",
    "PANEL_TARGETS",
    "SEARCH_MAX",
    "activate",
    "close_panel",
    "home",
    "in_panel",
    "keeps_panel_open",
    "launch",
    "launcher_matches",
    "list_apps",
    "offered",
    "open_context",
    "open_icon",
    "shell_view",
    "switcher_step",
    "toggle_launcher",
]

#: The most characters the app grid's search field holds; typing past it is ``invalid``.
SEARCH_MAX = 256

#: Target prefixes inside each kind of open panel.
PANEL_TARGETS = {
    "launcher": ("shell:grid:", "shell:launcher:search"),
    "switcher": ("shell:switcher:",),
    "context": ("shell:context:",),
    **topbar.PANEL_TARGETS,
}
#: Target prefixes of the dock and the top bar, which stay usable over the app grid.
CHROME = ("shell:launch:", "shell:launcher", "shell:activities", *topbar.OPENERS)
_PANEL_OPENERS = ("shell:launcher", "shell:activities", "shell:switcher", *topbar.OPENERS)
#: The first part of the top bar's targets (:mod:`cwgym.desktop.topbar` handles them).
_TOP_BAR_HEADS = ("calendar", "notification", "notifications", "quick-settings", "toggle", "volume")


def _unknown() -> ActionError:
    return ActionError(errors.INVALID, errors.UNKNOWN_SHELL_TARGET)


def _failed() -> ActionError:
    return ActionError(errors.ACTION_FAILED)


# -- the catalogue as this seat sees it -----------------------------------------------------


def installed(seat: SeatLike) -> list[str]:
    """Installed application ids (aliases resolved), catalogue order, then others sorted,
    then the world's web apps (``metadata.desktop_apps``) when the browser is installed."""
    ids = {canonical_id(a) for a in seat.machine.installed_apps}
    ordered = [a for a in CATALOGUE if a in ids]
    web = sorted(a for a in seat.web_apps if a not in ids) if "browser" in ids else []
    return ordered + sorted(ids - set(ordered)) + web


def offered(seat: SeatLike) -> list[str]:
    """The installed applications the shell offers (dock, app grid): those this engine
    implements and the world's web apps. An installed catalogue id without an
    implementation stays in ``application.v1 list``, not launchable, and is not offered."""
    return [a for a in installed(seat) if a in seat.web_apps or seat.apps.get(a) is not None]


def label(seat: SeatLike, app_id: str) -> str:
    """What the shell calls ``app_id``: the theme's name, the catalogue's, the app's own."""
    if app_id in seat.web_apps:
        return seat.web_apps[app_id][0]
    app = seat.apps.get(app_id)
    default = LABELS.get(app_id) or (app.label if app is not None and app.label else app_id)
    return seat.theme.label(app_id, default) if seat.theme is not None else default


def _known(seat: SeatLike, app_id: str) -> bool:
    return app_id in LABELS or seat.apps.get(app_id) is not None or app_id in seat.web_apps


def list_apps(seat: SeatLike, include_uninstalled: bool) -> list[dict[str, Any]]:
    """``application.v1 list`` entries (see the module docs of the family)."""
    have = installed(seat)
    have_set = set(have)
    ids = list(have)
    if include_uninstalled:
        ids = [a for a in CATALOGUE] + [a for a in have if a not in CATALOGUE]
    out = []
    for app_id in ids:
        web = app_id in seat.web_apps
        app = seat.apps.get("browser" if web else app_id)
        is_installed = app_id in have_set
        blocked = _blocked(seat, app_id, is_installed)
        launchable = blocked is None
        out.append(
            {
                "id": app_id,
                "label": label(seat, app_id),
                "kind": "web" if web else app.kind if app is not None else kind_of(app_id),
                "installed": is_installed,
                "launchable": launchable,
                "blocked_by": blocked,
            }
        )
    return out


#: ``blocked_by`` of an installed catalogue id this engine has no application for.
NOT_IMPLEMENTED = "application_not_implemented"


def _blocked(seat: SeatLike, app_id: str, is_installed: bool) -> str | None:
    if not is_installed:
        return errors.APPLICATION_NOT_INSTALLED
    if app_id not in seat.web_apps and seat.apps.get(app_id) is None:
        return NOT_IMPLEMENTED
    if not seat.shell:
        return errors.NO_DESKTOP_SHELL
    if _needs_browser(seat, app_id) and "browser.v1" not in seat.actions:
        return errors.BROWSER_FAMILY_REQUIRED
    return None


def _needs_browser(seat: SeatLike, app_id: str) -> bool:
    """The browser, and a world's web app (a browser window at its URL; the world's check
    keeps web app ids apart from the catalogue's)."""
    return app_id == "browser" or app_id in seat.web_apps


# -- launching ------------------------------------------------------------------------------


def launch(seat: SeatLike, kind: Any, argument: Any = None) -> int:
    """Open a new window of ``kind``; returns its id.

    Refusals: ``no_desktop_shell``, ``application_not_installed``,
    ``browser_family_required``; an installed application this engine does not implement
    yet, or one that refuses the argument, fails with ``action_failed``.
    """
    if not isinstance(kind, str) or (argument is not None and not isinstance(argument, str)):
        raise ActionError(errors.INVALID)
    seat.require_shell()
    app_id = canonical_id(kind)
    if not _known(seat, app_id) or app_id not in set(installed(seat)):
        raise ActionError(errors.NOT_FOUND, errors.APPLICATION_NOT_INSTALLED)
    if _needs_browser(seat, app_id) and "browser.v1" not in seat.actions:
        raise ActionError(errors.DENIED, errors.BROWSER_FAMILY_REQUIRED)
    if app_id in seat.web_apps:  # a web app: the browser at its URL
        app_id, argument = "browser", seat.web_apps[app_id][1]
    app = seat.apps.get(app_id)
    if app is None:
        raise _failed()
    desk = seat.desk
    bounds = seat.theme.place(app.default_size, len(desk.windows))
    win = Window(desk.next_id, app_id, (bounds.x, bounds.y, bounds.width, bounds.height))
    win.maximized = seat.theme.kiosk  # a kiosk's windows fill the screen from the start
    try:
        state = app.create(seat.app_context(win), argument)
    except AppError:
        raise _failed() from None
    win.replace_state(state)
    win.title = app.title(state) or label(seat, app_id)
    win.document = app.document(state)
    desk.next_id += 1
    desk.windows[win.id] = win
    desk.stack.append(win.id)
    desk.focused = win.id
    desk.panel = None
    return win.id


def activate_app(seat: SeatLike, app_id: str) -> int:
    """What a dock launcher does: show the app's highest window, else launch it."""
    desk = seat.desk
    for wid in reversed(desk.stack):
        if desk.windows[wid].app == app_id:
            wm.focus(desk, desk.windows[wid])
            desk.panel = None
            return wid
    return launch(seat, app_id)


def _show(seat: SeatLike, app_id: str) -> Any:
    """What opening ``app_id`` from the top bar gives: the dock's action when the shell
    offers the application, else nothing."""
    return {"window": activate_app(seat, app_id)} if app_id in offered(seat) else None


def home(seat: SeatLike) -> None:
    """Show the desktop: close the panel and minimize every window."""
    desk = seat.desk
    desk.panel = None
    for wid in desk.stack:
        desk.windows[wid].minimized = True
    desk.focused = None


# -- panels ---------------------------------------------------------------------------------


def close_panel(seat: SeatLike) -> None:
    seat.desk.panel = None


def toggle_launcher(seat: SeatLike, *, open_only: bool = False) -> None:
    desk = seat.desk
    if desk.panel is not None and desk.panel.get("kind") == "launcher":
        if not open_only:
            desk.panel = None
        return
    desk.panel = {"kind": "launcher", "search": ""}


def launcher_matches(seat: SeatLike, search: str) -> list[str]:
    """Installed apps the search text matches: label prefix first, then substrings, by label."""
    apps = sorted(offered(seat), key=lambda a: (label(seat, a).casefold(), a))
    needle = search.strip().casefold()
    if not needle:
        return apps
    prefix = [a for a in apps if label(seat, a).casefold().startswith(needle) or a.startswith(needle)]
    rest = [a for a in apps if a not in prefix and (needle in label(seat, a).casefold() or needle in a)]
    return prefix + rest


def switcher_step(seat: SeatLike, step: int = 1) -> None:
    """Open the switcher on the next window (most recent first), or move its selection."""
    desk = seat.desk
    if desk.panel is not None and desk.panel.get("kind") == "switcher":
        order = desk.panel["order"]
        if order:
            desk.panel["index"] = (desk.panel["index"] + step) % len(order)
        return
    order = list(reversed(desk.stack))
    if not order:
        return
    desk.panel = {"kind": "switcher", "order": order, "index": (1 if len(order) > 1 else 0) if step > 0 else len(order) - 1}


def switcher_commit(seat: SeatLike) -> None:
    desk = seat.desk
    panel = desk.panel or {}
    order = panel.get("order") or []
    desk.panel = None
    if order:
        win = desk.windows.get(order[panel.get("index", 0) % len(order)])
        if win is not None:
            wm.focus(desk, win)


def open_context(seat: SeatLike, x: int, y: int, subject: dict[str, Any]) -> None:
    """Open the context panel at ``(x, y)`` (native pixels) for a desktop, icon or window
    (a kiosk has none: nothing opens)."""
    if seat.theme.kiosk:
        return
    kind = subject["type"]
    if kind == "window":
        win = seat.desk.windows[subject["window"]]
        items = [
            ["shell:context:minimize", "Minimize"],
            ["shell:context:restore", "Restore"] if win.maximized else ["shell:context:maximize", "Maximize"],
            ["shell:context:close", "Close"],
        ]
    elif kind == "icon":
        items = [["shell:context:open", "Open"]]
        if subject["target"].startswith("shell:icon:file:"):
            items.append(["shell:context:open-terminal", "Open in Terminal"])
    else:
        items = [
            ["shell:context:new-folder", "New Folder"],
            ["shell:context:open-desktop", "Show Desktop in Files"],
            ["shell:context:open-terminal", "Open in Terminal"],
        ]
    seat.desk.panel = {"kind": "context", "x": x, "y": y, "subject": subject, "items": items, "index": None}


def _context_action(seat: SeatLike, action: str) -> Any:
    desk = seat.desk
    panel = desk.panel or {}
    subject = panel.get("subject") or {}
    if not any(item[0] == f"shell:context:{action}" for item in panel.get("items", ())):
        raise _unknown()
    desk.panel = None
    desktop_dir = f"{seat.machine.home}/Desktop"
    if subject.get("type") == "window":
        win = desk.windows.get(subject.get("window"))
        if win is None:
            return None
        if action == "close":
            seat.close(win)
        elif action == "minimize":
            wm.minimize(desk, win)
        elif action == "maximize":
            wm.focus(desk, win)
            wm.maximize(desk, seat.theme, win)
        elif action == "restore":
            wm.focus(desk, win)
            wm.restore(desk, win)
        return None
    if action == "open":
        return open_icon(seat, subject["target"])
    if action == "new-folder":
        fs = seat.machine.user_fs()
        name, n = "New Folder", 1
        try:
            while fs.exists(f"{desktop_dir}/{name}", desktop_dir):
                n += 1
                name = f"New Folder {n}"
            fs.mkdir(f"{desktop_dir}/{name}", desktop_dir)
        except FsError:
            raise _failed() from None
        desk.selected_icon = f"shell:icon:file:{name}"
        return None
    if action == "open-desktop":
        return {"window": launch(seat, "files", desktop_dir)}
    if action == "open-terminal":
        folder = desktop_dir
        target = subject.get("target", "")
        if target.startswith("shell:icon:file:"):
            path = f"{desktop_dir}/{target.removeprefix('shell:icon:file:')}"
            folder = path if seat.machine.user_fs().is_dir(path, desktop_dir) else desktop_dir
        return {"window": launch(seat, "terminal", folder)}
    raise _unknown()


# -- desktop icons --------------------------------------------------------------------------


def desktop_icons(seat: SeatLike) -> tuple[IconView, ...]:
    """Home, then the entries of ``~/Desktop`` (folders first, then by name)."""
    icons = [IconView("shell:icon:home", "Home", "home")]
    folder = f"{seat.machine.home}/Desktop"
    fs = seat.machine.user_fs()
    try:
        names = fs.listdir(folder, folder)
    except FsError:
        names = []
    entries = []
    for name in names:
        if name.startswith("."):
            continue
        is_dir = fs.is_dir(f"{folder}/{name}", folder)
        entries.append((not is_dir, name.casefold(), name, "folder" if is_dir else "file"))
    for _, _, name, kind in sorted(entries):
        icons.append(IconView(f"shell:icon:file:{name}", name, kind))
    return tuple(icons)


def open_icon(seat: SeatLike, target: str) -> dict[str, int]:
    """What a double click on a desktop icon does: open it in the application for it."""
    home_dir = seat.machine.home
    if target == "shell:icon:home":
        return {"window": launch(seat, "files", home_dir)}
    if not target.startswith("shell:icon:file:"):
        raise _unknown()
    name = target.removeprefix("shell:icon:file:")
    path = f"{home_dir}/Desktop/{name}"
    fs = seat.machine.user_fs()
    if not fs.exists(path, home_dir):
        raise _unknown()
    if fs.is_dir(path, home_dir):
        return {"window": launch(seat, "files", path)}
    have = installed(seat)
    for app_id in have:
        app = seat.apps.get(app_id)
        if app is not None and any(name.endswith(suffix) for suffix in app.opens):
            return {"window": launch(seat, app_id, path)}
    return {"window": launch(seat, "editor", path)}


# -- the view the theme paints --------------------------------------------------------------


def shell_view(seat: SeatLike) -> ShellView:
    desk = seat.desk
    if not seat.shell:
        return ShellView("", (), (), (), None, None, shell=False)
    have = offered(seat)
    order = [a for a in seat.theme.dock_order if a in have] + [a for a in have if a not in seat.theme.dock_order]
    running = {w.app for w in desk.windows.values()}
    focused = desk.windows[desk.focused].app if desk.focused is not None else None
    dock = tuple(DockEntry(a, label(seat, a), a in running, a == focused) for a in order)
    panel = desk.panel
    grid: tuple[DockEntry, ...] = ()
    switcher: tuple[tuple[int, str, str], ...] = ()
    context: tuple[tuple[str, str], ...] = ()
    if panel is not None:
        kind = panel.get("kind")
        if kind == "launcher":
            grid = tuple(DockEntry(a, label(seat, a), a in running) for a in launcher_matches(seat, panel.get("search", "")))
        elif kind == "switcher":
            switcher = tuple(
                (wid, desk.windows[wid].title, desk.windows[wid].app) for wid in panel["order"] if wid in desk.windows
            )
        elif kind == "context":
            context = tuple((t, lab) for t, lab in panel["items"])
    calendar_open = panel is not None and panel.get("kind") == topbar.CALENDAR
    unix_seconds = seat.machine.clock.unix_seconds()
    return ShellView(
        seat.theme.clock_text(unix_seconds),
        dock,
        grid,
        desktop_icons(seat),
        desk.selected_icon,
        panel,
        switcher,
        context,
        True,
        topbar.status(seat),
        topbar.notices(seat, lambda app_id: label(seat, app_id)) if calendar_open else (),
        topbar.month_view(unix_seconds, panel.get("month", 0)) if calendar_open else None,
    )


# -- activation -----------------------------------------------------------------------------


def in_panel(kind: str | None, target: str) -> bool:
    """Whether ``target`` is a control of the open panel of ``kind``."""
    return kind is not None and target.startswith(PANEL_TARGETS.get(kind, ()))


def keeps_panel_open(kind: str | None, target: str) -> bool:
    """Whether a press on ``target`` leaves the open panel of ``kind`` open: a control of
    the panel, the top bar's clock and status icons (which switch to their panel), or (over
    the app grid) the dock and the top bar. Any other press closes it."""
    return in_panel(kind, target) or target in topbar.OPENERS or (kind == "launcher" and target.startswith(CHROME))


def activate(
    seat: SeatLike,
    target: Any,
    point: tuple[int, int] | None = None,
    *,
    pointer: bool = False,
    modifiers: tuple[str, ...] = (),
) -> Any:
    """Drive the control ``target``; ``point`` is where a pointer clicked (native pixels)
    with ``modifiers`` held (they reach an application's ``activate``).

    Returns the action's value (``{"window": id}`` for launches, the application's value
    for its content). Refuses an unknown target with ``unknown_shell_target``.
    """
    if not isinstance(target, str):
        raise ActionError(errors.INVALID)
    desk = seat.desk
    panel_kind = desk.panel.get("kind") if desk.panel is not None else None
    if panel_kind is not None and not in_panel(panel_kind, target):
        # The dock and the top bar stay usable over the app grid; any other click outside
        # an open panel only closes it. A named target closes it and goes on.
        if pointer and not keeps_panel_open(panel_kind, target):
            desk.panel = None
            return None
        if target not in _PANEL_OPENERS:
            desk.panel = None
    if target.startswith("window:"):
        return _window_target(seat, target, point, modifiers)
    if not target.startswith("shell:"):
        raise _unknown()
    if "application.v1" not in seat.actions:
        raise ActionError(errors.DENIED, errors.APPLICATION_FAMILY_REQUIRED)
    seat.require_shell()
    if seat.theme.kiosk:  # a kiosk paints no shell control
        raise _unknown()
    head, _, rest = target[6:].partition(":")
    if head in _TOP_BAR_HEADS:
        try:
            return topbar.activate(seat, target, lambda app_id: _show(seat, app_id))
        except LookupError:
            raise _unknown() from None
    if head == "launch" and rest:
        if not _known(seat, rest) or rest not in set(offered(seat)):
            raise _unknown()
        return {"window": activate_app(seat, rest)}
    if head == "grid" and rest:
        if panel_kind != "launcher" or rest not in set(offered(seat)):
            raise _unknown()
        desk.panel = None
        return {"window": activate_app(seat, rest)}
    if target in ("shell:launcher", "shell:activities"):
        toggle_launcher(seat)
        return None
    if target == "shell:launcher:search":
        if panel_kind != "launcher":
            raise _unknown()
        return None
    if target == "shell:switcher":
        switcher_step(seat)
        return None
    if head == "switcher" and rest:
        if panel_kind != "switcher" or not rest.isdigit() or int(rest) not in desk.windows:
            raise _unknown()
        desk.panel = None
        wm.focus(desk, desk.windows[int(rest)])
        return None
    if head == "context" and rest:
        if panel_kind != "context":
            raise _unknown()
        return _context_action(seat, rest)
    if head == "icon" and rest:
        if target not in {ic.target for ic in desktop_icons(seat)}:
            raise _unknown()
        desk.selected_icon = target
        return None
    if target == "shell:home":
        home(seat)
        return None
    raise _unknown()


def _window_target(seat: SeatLike, target: str, point: tuple[int, int] | None, modifiers: tuple[str, ...] = ()) -> Any:
    seat.require_shell()
    parts = target.split(":", 3)
    if len(parts) < 3 or not parts[1].isdigit():
        raise _unknown()
    desk = seat.desk
    win = desk.windows.get(int(parts[1]))
    if win is None:
        raise _unknown()
    op = parts[2]
    if seat.theme.kiosk and op not in ("focus", "content"):  # no frame, buttons or grips
        raise _unknown()
    wm.focus(desk, win)
    if op == "close":
        seat.close(win)  # the application may keep it open (unsaved changes)
        return None
    if op == "minimize":
        wm.minimize(desk, win)
        return None
    if op == "maximize":
        wm.toggle_maximize(desk, seat.theme, win)
        return None
    if op == "restore":
        wm.restore(desk, win)
        return None
    if op in ("focus", "drag"):
        return None
    if op == "resize" and len(parts) == 4 and parts[3] in wm.CURSORS:
        return None
    if op == "content" and len(parts) == 4 and parts[3]:
        local = None
        if point is not None:
            content = seat.content_rect(win)
            local = (point[0] - content.x, point[1] - content.y)
        try:
            return seat.app_call(win, "activate", parts[3], local, modifiers=modifiers)
        except UnknownTarget:
            raise _unknown() from None
    raise _unknown()
