"""JSON files the desktop keeps in the user's home (settings, notifications, recent files).

They are written as the machine's user, through the permission-checked filesystem, like a
settings daemon running in the user's session: they snapshot, fork and hash with the rest of
the machine, and an agent with a terminal can read them (as it could ``dconf`` on Ubuntu).
A missing file reads as the default; so does one that is not the JSON the module wrote
(the next write replaces it).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cwgym.machine.filesystem import DIR, FILE, ROOT_INO, FsError

if TYPE_CHECKING:
    from cwgym.machine.filesystem import Filesystem, Inode
    from cwgym.machine.machine import Machine

__all__ = ["UserDataError", "peek", "peek_all", "read_json", "write_json"]


class UserDataError(ValueError):
    """A desktop data file could not be written (the user's home refuses it)."""


def _path(machine: Machine, relative: str) -> str:
    return f"{machine.home}/{relative}"


@lru_cache(maxsize=256)
def _parts(path: str, relative: str = "") -> tuple[str, ...]:
    """The names along ``path`` (and on along ``relative``), empty ones left out."""
    return tuple(part for part in f"{path}/{relative}".split("/") if part)


@lru_cache(maxsize=256)
def _split(relative: str) -> tuple[str, str]:
    folder, _, name = relative.rpartition("/")
    return folder, name


def _walk(fs: Filesystem, node: Inode | None, parts: tuple[str, ...]) -> Inode | None:
    """The inode ``parts`` lead to from the folder ``node``: a plain walk down the directory
    entries (no symlink followed, nothing raised), ``None`` where it ends early."""
    inodes = fs.inodes
    for part in parts:
        if node is None or node.kind != DIR:
            return None
        ino = (node.entries or {}).get(part)
        if ino is None:
            if fs.case_sensitive:
                return None
            ino = fs.child(node, part)
            if ino is None:
                return None
        node = inodes.get(ino)
    return node


def peek(machine: Machine, relative: str) -> bytes | None:
    """The bytes of the regular file ``~/relative``, or ``None`` when there is none.

    A plain walk down the directory entries (no symlink followed, nothing raised): the
    desktop asks for these files on every action, and most homes have none of them.
    """
    fs = machine.fs
    node = _walk(fs, fs.inodes.get(ROOT_INO), _parts(machine.home, relative))
    return node.data if node is not None and node.kind == FILE else None


#: What :func:`peek_all` found, by (filesystem digest, home, relative paths): a digest
#: names the whole tree, so an answer never goes stale. Emptied when full.
_FOUND: dict[tuple[bytes, str, tuple[str, ...]], tuple[bytes | None, ...]] = {}
_FOUND_KEPT = 256


def peek_all(machine: Machine, relatives: tuple[str, ...]) -> tuple[bytes | None, ...]:
    """:func:`peek` of each of ``relatives``.

    The desktop looks its files up before and after every action, mostly in a tree the
    action did not change: answers are kept by the filesystem's content digest, and a
    new tree is walked once, each folder once.
    """
    fs = machine.fs
    key = (fs.digest(), machine.home, relatives)
    found = _FOUND.get(key)
    if found is not None:
        return found
    home = _walk(fs, fs.inodes.get(ROOT_INO), _parts(machine.home))
    folders: dict[str, Inode | None] = {"": home}
    out = []
    for relative in relatives:
        folder, name = _split(relative)
        if folder not in folders:
            folders[folder] = _walk(fs, home, _parts(folder))
        node = _walk(fs, folders[folder], (name,))
        out.append(node.data if node is not None and node.kind == FILE else None)
    if len(_FOUND) >= _FOUND_KEPT:
        _FOUND.clear()
    found = _FOUND[key] = tuple(out)
    return found


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
