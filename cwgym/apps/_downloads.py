"""Saving a file the user downloads into ``~/Downloads``, as a browser or a mail client does.

The file keeps its own name, made safe for the filesystem (no ``/``, ``\\`` or control
characters; a blank name or a dot name becomes the caller's fallback). A name already taken
becomes ``<stem> (1)<ext>``, ``(2)``..., so nothing is overwritten and there is no dialog.
``~/Downloads`` is made when missing; the file joins the desktop's recent documents. Every
write goes through the machine user's permission checks: a ``Downloads`` the user cannot
write is an :class:`~cwgym.machine.filesystem.FsError`, and nothing is written.
"""

from __future__ import annotations

import posixpath
from typing import Any

from cwgym.machine.filesystem import FsError
from cwgym.machine.recent import add_recent

__all__ = ["DOWNLOADS", "free_path", "safe_name", "save_download"]

#: The folder of the home downloads go to.
DOWNLOADS = "Downloads"
#: How many ``(N)`` names are tried before the folder counts as full.
TRIES = 999


def safe_name(name: str, fallback: str) -> str:
    """``name`` as a file name of the machine (``fallback`` when nothing usable is left)."""
    clean = "".join("_" if ch in "/\\" or not ch.isprintable() else ch for ch in name).strip()
    return clean if clean not in ("", ".", "..") else fallback


def free_path(ufs: Any, home: str, folder: str, name: str) -> str:
    """``folder/name``, or ``folder/<stem> (N)<ext>`` with the first free ``N`` from 1."""
    stem, ext = posixpath.splitext(name)
    candidate = posixpath.join(folder, name)
    n = 1
    while ufs.exists(candidate, home, follow=False):
        if n > TRIES:
            raise FsError("EEXIST", candidate)
        candidate = posixpath.join(folder, f"{stem} ({n}){ext}")
        n += 1
    return candidate


def save_download(machine: Any, name: str, data: bytes, app: str, fallback: str = "download") -> str:
    """Write ``data`` into the machine user's ``~/Downloads`` as ``name`` (see the module
    docstring); returns the path written.

    Raises:
        FsError: the folder or the file cannot be written.
    """
    ufs = machine.user_fs()
    home = machine.home
    folder = posixpath.join(home, DOWNLOADS)
    if not ufs.exists(folder, home):
        ufs.mkdir(folder, home)
    path = free_path(ufs, home, folder, safe_name(name, fallback))
    ufs.write(path, home, data)
    add_recent(machine, path, app)
    return path
