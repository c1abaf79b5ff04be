"""Autostart: the windows a graphical login opens from ``~/.config/autostart/*.desktop``.

As on a freedesktop.org desktop, each ``.desktop`` file in the user's autostart folder
names an application to start at login. Files are read in name order (byte order, so
the windows' stacking is the same everywhere), as the machine's user, from the
``[Desktop Entry]`` group:

=========================  ===============================================================
key                        meaning
=========================  ===============================================================
``Exec``                   the application id (``editor``, ``files``, ``terminal`` ...),
                           then at most one argument (a path; ``~`` is the home folder).
                           Field codes such as ``%f`` and ``%U`` are dropped.
``Type``                   ``Application`` (any other type is skipped)
``Hidden``                 ``true`` skips the entry
``X-GNOME-Autostart-enabled``  ``false`` skips the entry
``X-Cwgym-Bounds``         ``x,y,width,height``: the window's frame on the native screen
``X-Cwgym-Maximized``      ``true`` opens the window maximized
``X-Cwgym-Minimized``      ``true`` opens the window minimized
``X-Cwgym-Once``           ``true`` starts the entry at the next login only: the file is
                           removed once its window has opened
=========================  ===============================================================

An entry that cannot start (unknown or uninstalled application, a refused argument,
malformed bounds) opens nothing and is reported, as a desktop logs a failed autostart and
carries on; the others still open. On a kiosk theme (``Theme.kiosk``) the window opens
full-screen whatever ``X-Cwgym-Bounds`` and ``X-Cwgym-Minimized`` say, and the file is
reported with an error saying they were not applied. Procedures use one-shot autostart
files to lay out a desktop before an episode (a window at a seeded place, a document
already open) without opening it again at every later login of the same world.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import cwgym.desktop.wm as wm
from cwgym.machine.filesystem import FsError
from cwgym.protocol.errors import ActionError

if TYPE_CHECKING:
    from cwgym.desktop.seatlike import SeatLike

__all__ = ["AUTOSTART_DIR", "AutostartEntry", "Started", "parse_entry", "run_autostart"]

#: The autostart folder, relative to the home folder.
AUTOSTART_DIR = ".config/autostart"
_GROUP = "[Desktop Entry]"
_TRUE = frozenset({"true", "1", "yes"})
_KIOSK_UNAPPLIED = "X-Cwgym-Bounds and X-Cwgym-Minimized do not apply on a kiosk: the window fills the screen"


class AutostartEntry(NamedTuple):
    """What one ``.desktop`` file asks for."""

    app: str
    argument: str | None = None
    bounds: tuple[int, int, int, int] | None = None
    maximized: bool = False
    minimized: bool = False
    once: bool = False


class Started(NamedTuple):
    """One autostart file's result: the window it opened, or why it opened none."""

    name: str
    window: int | None = None
    error: str | None = None
    once: bool = False


def parse_entry(text: str, home: str) -> AutostartEntry | None:
    """The entry of a ``.desktop`` file's text; ``None`` when it is skipped (hidden, disabled,
    not an application).

    Raises:
        ValueError: no ``Exec`` key, or ``X-Cwgym-Bounds`` that are not four integers with
            a positive width and height.
    """
    keys: dict[str, str] = {}
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line
            continue
        if group == _GROUP and "=" in line:
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), value.strip())
    if keys.get("Type", "Application") != "Application":
        return None
    if keys.get("Hidden", "").lower() in _TRUE or keys.get("X-GNOME-Autostart-enabled", "true").lower() not in _TRUE:
        return None
    words = [w for w in keys.get("Exec", "").split() if not (len(w) == 2 and w[0] == "%")]
    if not words:
        raise ValueError("no Exec key (the application to start)")
    argument = " ".join(words[1:]) or None
    if argument is not None and (argument == "~" or argument.startswith("~/")):
        argument = home + argument[1:]
    bounds = None
    if "X-Cwgym-Bounds" in keys:
        try:
            x, y, width, height = (int(v) for v in keys["X-Cwgym-Bounds"].split(","))
        except ValueError:
            raise ValueError(f"X-Cwgym-Bounds must be x,y,width,height, got {keys['X-Cwgym-Bounds']!r}") from None
        if width <= 0 or height <= 0:
            raise ValueError(f"X-Cwgym-Bounds needs a positive width and height, got {keys['X-Cwgym-Bounds']!r}")
        bounds = (x, y, width, height)
    return AutostartEntry(
        app=words[0],
        argument=argument,
        bounds=bounds,
        maximized=keys.get("X-Cwgym-Maximized", "").lower() in _TRUE,
        minimized=keys.get("X-Cwgym-Minimized", "").lower() in _TRUE,
        once=keys.get("X-Cwgym-Once", "").lower() in _TRUE,
    )


def run_autostart(seat: SeatLike) -> list[Started]:
    """Open the windows of the machine user's autostart files on ``seat``'s desktop."""
    machine = seat.machine
    ufs = machine.user_fs()
    folder = f"{machine.home}/{AUTOSTART_DIR}"
    try:
        names = sorted(n for n in ufs.listdir(folder, "/") if n.endswith(".desktop"))
    except FsError:
        return []
    started = []
    for name in names:
        try:
            entry = parse_entry(ufs.read(f"{folder}/{name}", "/").decode("utf-8", "replace"), machine.home)
        except (FsError, ValueError) as exc:
            started.append(Started(name, error=str(exc)))
            continue
        if entry is None:
            continue
        try:
            wid = seat.launch(entry.app, entry.argument)
        except ActionError as exc:
            started.append(Started(name, error=exc.error.reason or exc.error.code))
            continue
        win = seat.desk.windows[wid]
        kiosk = seat.theme is not None and seat.theme.kiosk
        if entry.bounds is not None and not kiosk:
            win.set_bounds(*entry.bounds)
        if entry.maximized:
            wm.maximize(seat.desk, seat.theme, win)
        if entry.minimized and not kiosk:
            wm.minimize(seat.desk, win)
        unapplied = kiosk and (entry.bounds is not None or entry.minimized)
        if entry.once:
            try:
                ufs.unlink(f"{folder}/{name}", "/")
            except FsError as exc:
                started.append(Started(name, window=wid, error=str(exc)))
                continue
        # on a kiosk the window is open, full-screen, and the journal says what was not done
        started.append(Started(name, window=wid, error=_KIOSK_UNAPPLIED if unapplied else None, once=entry.once))
    return started
