"""JSON files the desktop keeps in the user's home (settings, notifications, recent files).

They are written as the machine's user, through the permission-checked filesystem, like a
settings daemon running in the user's session: they snapshot, fork and hash with the rest of
the machine, and an agent with a terminal can read them (as it could ``dconf`` on Ubuntu).
A missing file reads as the default; so does one that is not the JSON the module wrote
(the next write replaces it).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from cwgym.machine.filesystem import DIR, FILE, ROOT_INO, FsError

if TYPE_CHECKING:
    from cwgym.machine.machine import Machine

__all__ = ["UserDataError", "peek", "read_json", "write_json"]


class UserDataError(ValueError):
    """A desktop data file could not be written (the user's home refuses it)."""


def _path(machine: Machine, relative: str) -> str:
    return f"{machine.home}/{relative}"


def peek(machine: Machine, relative: str) -> bytes | None:
    """The bytes of the regular file ``~/relative``, or ``None`` when there is none.

    A plain walk down the directory entries (no symlink followed, nothing raised): the
    desktop asks for these files on every action, and most homes have none of them.
    """
    fs = machine.fs
    node = fs.inode(ROOT_INO)
    for part in f"{machine.home}/{relative}".split("/"):
        if not part:
            continue
        if node.kind != DIR:
            return None
        ino = fs.child(node, part)
        if ino is None:
            return None
        node = fs.inode(ino)
    return node.data if node.kind == FILE else None


def read_json(machine: Machine, relative: str, default: Any) -> Any:
    """The JSON value of ``~/relative``; ``default`` when it is missing or unreadable."""
    data = peek(machine, relative)
    if data is None:
        return default
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return default
    return value if isinstance(value, type(default)) else default


def write_json(machine: Machine, relative: str, value: Any) -> None:
    """Write ``value`` to ``~/relative`` as the user (folders made as needed), in a canonical
    form (sorted keys, two-space indent) so equal values are equal bytes."""
    user = machine.user_fs()
    path = _path(machine, relative)
    folder = path.rsplit("/", 1)[0]
    data = (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
    try:
        current = ""
        for part in [p for p in folder.split("/") if p]:
            current += "/" + part
            if not user.exists(current, "/"):
                user.mkdir(current, "/", 0o755)
        user.write(path, "/", data, mode=0o644)
    except FsError as exc:
        raise UserDataError(f"cannot write ~/{relative}: {exc}") from None
