"""The owner's view of files in a world: paths relative to the user's home, reads that
never change state, and a digest of what the files hold (not when they were touched)."""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from cwgym.machine.filesystem import DIR, FILE, FsError

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


_OCTAL_MODE = re.compile(r"^0?[0-7]{3,4}$")


def is_octal_mode(text: str) -> bool:
    """Whether ``text`` is a permission mode as procedures write it: octal, ``"0755"`` or ``"755"``."""
    return bool(_OCTAL_MODE.match(text))


def abspath(machine: Machine, path: str) -> str:
    """``path`` on ``machine``: absolute as given, ``~/x`` and ``x`` under the user's home."""
    if path == "~":
        return machine.home
    if path.startswith("~/"):
        path = path[2:]
    if path.startswith("/"):
        return path
    return f"{machine.home.rstrip('/')}/{path}"


def read_file(machine: Machine, path: str) -> bytes | None:
    """A regular file's bytes, or ``None`` when there is no such file."""
    try:
        inode = machine.fs.inodes[machine.fs.resolve(abspath(machine, path))]
    except (FsError, KeyError):
        return None
    return inode.data if inode.kind == FILE else None


def kind_at(machine: Machine, path: str) -> str | None:
    """``"file"``, ``"dir"``, another inode kind, or ``None`` when nothing is there."""
    try:
        inode = machine.fs.inodes[machine.fs.resolve(abspath(machine, path))]
    except (FsError, KeyError):
        return None
    return inode.kind


def mode_at(machine: Machine, path: str) -> int | None:
    """The permission bits of what is at ``path``, or ``None`` when nothing is there."""
    try:
        inode = machine.fs.inodes[machine.fs.resolve(abspath(machine, path))]
    except (FsError, KeyError):
        return None
    return inode.mode & 0o7777


def listing(machine: Machine, path: str) -> list[str] | None:
    """The names in the folder at ``path``, sorted, or ``None`` when it is not a folder."""
    if kind_at(machine, path) != DIR:
        return None
    return machine.fs.list_path(abspath(machine, path))


def read_text(machine: Machine, path: str) -> str | None:
    """A regular file's text (undecodable bytes replaced), or ``None`` when there is no such file."""
    data = read_file(machine, path)
    return None if data is None else data.decode("utf-8", "replace")


def content_digest(world: World) -> str:
    """A digest of every machine's tree: paths, kinds, modes, owners and contents.

    Times are left out, so reading a file or running a command that writes nothing keeps
    it; it moves exactly when a phase changes what the files hold.
    """
    digest = hashlib.sha256()
    for machine_id in sorted(world.inspect()["state"]["computers"]):
        machine = world.machine(machine_id)
        for path, inode in machine.fs.iter_tree("/"):
            body = inode.data if inode.kind == FILE else (inode.target or "").encode()
            digest.update(f"{machine_id}\0{path}\0{inode.kind}\0{inode.mode:o}\0{inode.uid}\0{inode.gid}\0".encode())
            digest.update(hashlib.sha256(body).digest())
    return digest.hexdigest()
