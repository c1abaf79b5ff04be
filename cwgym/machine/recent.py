"""Recently used documents: the desktop's library of what applications opened and saved.

Applications call :func:`add_recent` when they open or save a document; the list lives in
``~/.local/share/cwgym/recent.json`` (newest first, one entry per path, at most
:data:`KEPT`), so it snapshots and hashes with the machine, and a change to it is the
``library`` effect tag.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from cwgym.machine._userdata import UserDataError, read_json, write_json

if TYPE_CHECKING:
    from cwgym.machine.machine import Machine

__all__ = ["KEPT", "RECENT_FILE", "UserDataError", "add_recent", "recent"]

RECENT_FILE = ".local/share/cwgym/recent.json"
#: How many documents the list keeps.
KEPT = 50


def recent(machine: Machine) -> list[dict[str, Any]]:
    """The recent documents, newest first: ``{path, app, time_us}``."""
    items = read_json(machine, RECENT_FILE, [])
    return [r for r in items if isinstance(r, dict) and isinstance(r.get("path"), str)]


def add_recent(machine: Machine, path: str, app: str) -> None:
    """Put ``path`` (opened or saved by ``app``) first in the list.

    Best effort, like a desktop's recent-files store: a home that refuses the write leaves
    the list as it was and the application goes on.
    """
    if not isinstance(path, str) or not path:
        raise ValueError("a recent document needs a path")
    items = [r for r in recent(machine) if r["path"] != path]
    items.insert(0, {"path": path, "app": str(app), "time_us": machine.clock.now_us})
    with contextlib.suppress(UserDataError):
        write_json(machine, RECENT_FILE, items[:KEPT])
