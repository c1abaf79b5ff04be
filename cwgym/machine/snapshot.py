"""A machine in the portable snapshot document, and the checks an imported one must pass.

``MachineDoc`` is what ``World.export_snapshot`` writes for one machine: its computer
definition, every inode, the shell state, the process table and the clipboard.
:func:`machine_from_doc` rebuilds a :class:`~cwgym.machine.machine.Machine` from one and
refuses, with a :class:`~cwgym.kernel.subsystem.SnapshotError` naming the field, anything a
running machine could not have produced: a directory that contains itself, an entry that
resolves to nothing, an inode no directory reaches, a mode, owner or time out of range.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import msgspec

from cwgym.kernel.clock import MAX_TICK, Clock
from cwgym.kernel.digest import value_digest
from cwgym.kernel.subsystem import SnapshotError
from cwgym.machine.filesystem import (
    DIR,
    FILE,
    MAX_NAME,
    NULLDEV,
    ROOT_INO,
    SYMLINK,
    Filesystem,
    Inode,
)
from cwgym.machine.machine import Machine
from cwgym.machine.processes import Process, ProcessTable
from cwgym.machine.shell.state import ShellState
from cwgym.protocol.definition import Computer, Profile

__all__ = ["InodeDoc", "MachineDoc", "ShellDoc", "check_tree", "machine_doc", "machine_from_doc"]

Tick = Annotated[int, msgspec.Meta(ge=0)]  # the upper end (64-bit unsigned) is checked in check_tree
Id32 = Annotated[int, msgspec.Meta(ge=0, le=(1 << 32) - 1)]
Ino = Annotated[int, msgspec.Meta(ge=1, le=(1 << 63) - 1)]
Mode = Annotated[int, msgspec.Meta(ge=0, le=0o7777)]
Count = Annotated[int, msgspec.Meta(ge=0, le=(1 << 31) - 1)]
KINDS = (DIR, FILE, SYMLINK, NULLDEV)


class InodeDoc(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    ino: Ino
    kind: str
    mode: Mode
    uid: Id32
    gid: Id32
    nlink: Count
    atime: Tick
    mtime: Tick
    ctime: Tick
    btime: Tick
    parent: Ino
    data: bytes = b""
    entries: dict[str, Ino] | None = None
    target: str | None = None


class ShellDoc(msgspec.Struct, forbid_unknown_fields=True):
    cwd: str
    vars: dict[str, str]
    exported: list[str]
    functions: dict[str, str]
    last_status: Annotated[int, msgspec.Meta(ge=0, le=255)]
    umask: Mode


class MachineDoc(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    computer: Computer
    case_sensitive: bool
    next_ino: Ino
    inodes: list[InodeDoc]
    shell: ShellDoc
    processes: list[Process]
    next_pid: Annotated[int, msgspec.Meta(ge=2, le=(1 << 31) - 1)]
    clipboard: str


def machine_doc(machine: Machine) -> MachineDoc:
    """``machine`` as its snapshot document (entries sorted: the document is canonical)."""
    fs = machine.fs
    inodes = [
        InodeDoc(
            ino, i.kind, i.mode, i.uid, i.gid, i.nlink, i.atime, i.mtime, i.ctime, i.btime,
            i.parent, i.data, dict(sorted(i.entries.items())) if i.entries is not None else None, i.target,
        )
        for ino, i in fs.inodes.items()
    ]
    shell = machine.shell
    procs, next_pid = machine.procs.frozen()
    return MachineDoc(
        machine.id, machine.computer, fs.case_sensitive, fs.next_ino, inodes,
        ShellDoc(shell.cwd, dict(sorted(shell.vars.items())), sorted(shell.exported),
                 dict(sorted(shell.functions.items())), shell.last_status, shell.umask),
        list(procs), next_pid, machine.clipboard,
    )


def check_tree(inodes: list[InodeDoc], next_ino: int, where: str) -> None:
    """Refuse an inode table a filesystem could not hold.

    The root (inode 1) is a directory that is its own parent; every other directory is
    listed by exactly one directory, which is its ``parent``; every entry names a valid
    file name and an inode that exists; every inode is reached from the root; a file's
    link count is the number of entries naming it; ``next_ino`` is above every inode.
    """
    table: dict[int, int] = {}
    for index, doc in enumerate(inodes):
        at = f"{where}.inodes[{index}]"
        if doc.ino in table:
            raise SnapshotError(f"{at}.ino", f"inode {doc.ino} appears twice")
        table[doc.ino] = index
        if doc.kind not in KINDS:
            raise SnapshotError(f"{at}.kind", f"{doc.kind!r} is not one of {', '.join(KINDS)}")
        if (doc.entries is not None) != (doc.kind == DIR):
            raise SnapshotError(f"{at}.entries", "only directories have entries, and every directory has them")
        if doc.kind == SYMLINK and not doc.target:
            raise SnapshotError(f"{at}.target", "a symbolic link needs a target")
        if doc.kind != FILE and doc.data:
            raise SnapshotError(f"{at}.data", f"a {doc.kind} holds no data")
        if max(doc.atime, doc.mtime, doc.ctime, doc.btime) > MAX_TICK:
            raise SnapshotError(f"{at}", "a timestamp is outside the clock's range")
        if doc.ino >= next_ino:
            raise SnapshotError(f"{where}.next_ino", f"{next_ino} is not above inode {doc.ino}")
    if ROOT_INO not in table:
        raise SnapshotError(f"{where}.inodes", "there is no root directory (inode 1)")
    root = inodes[table[ROOT_INO]]
    if root.kind != DIR or root.parent != ROOT_INO:
        raise SnapshotError(f"{where}.inodes[{table[ROOT_INO]}]", "the root must be a directory that is its own parent")
    links: dict[int, int] = {}
    seen = {ROOT_INO}
    pending = [ROOT_INO]
    while pending:
        ino = pending.pop()
        index = table[ino]
        for name, child in sorted((inodes[index].entries or {}).items()):
            at = f"{where}.inodes[{index}].entries[{name!r}]"
            if not name or "/" in name or name in (".", "..") or "\0" in name or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME:
                raise SnapshotError(at, "not a valid file name")
            if child not in table:
                raise SnapshotError(at, f"names inode {child}, which does not exist")
            target = inodes[table[child]]
            if target.kind == DIR:
                if child in seen:
                    raise SnapshotError(at, f"directory {child} is listed twice (a directory cannot contain itself)")
                if target.parent != ino:
                    raise SnapshotError(f"{where}.inodes[{table[child]}].parent", f"is {target.parent}, but directory {ino} lists it")
                seen.add(child)
                pending.append(child)
            else:
                links[child] = links.get(child, 0) + 1
                seen.add(child)
    for index, doc in enumerate(inodes):
        if doc.ino not in seen:
            raise SnapshotError(f"{where}.inodes[{index}]", f"inode {doc.ino} is not reachable from the root")
        if doc.kind != DIR and links.get(doc.ino, 0) != doc.nlink:
            raise SnapshotError(f"{where}.inodes[{index}].nlink", f"is {doc.nlink}, but {links.get(doc.ino, 0)} entries name it")


def machine_from_doc(
    doc: MachineDoc, profile: Profile, clock: Clock, sleep: Callable[[int], None], where: str
) -> Machine:
    """The machine a checked document describes (see :func:`check_tree`)."""
    check_tree(doc.inodes, doc.next_ino, where)
    machine = Machine(doc.computer, profile, clock, sleep, build=False)
    machine.computer_digest = value_digest((msgspec.to_builtins(doc.computer), msgspec.to_builtins(profile)))
    inodes = []
    for d in doc.inodes:
        inode = Inode(d.ino, d.kind, d.mode, d.uid, d.gid, d.btime)
        inode.nlink, inode.atime, inode.mtime, inode.ctime = d.nlink, d.atime, d.mtime, d.ctime
        inode.parent, inode.data, inode.target = d.parent, d.data, d.target
        inode.entries = dict(d.entries) if d.entries is not None else None
        inodes.append(inode)
    machine.fs = Filesystem.from_inodes(clock, doc.case_sensitive, inodes, doc.next_ino)
    machine.fs.viewer = machine.cred
    s = doc.shell
    if not s.cwd.startswith("/"):
        raise SnapshotError(f"{where}.shell.cwd", "must be an absolute path")
    machine.shell = ShellState(s.cwd, dict(s.vars), set(s.exported), dict(s.functions), s.last_status, s.umask)
    pids = [p.pid for p in doc.processes]
    if len(set(pids)) != len(pids) or any(pid < 1 or pid >= doc.next_pid for pid in pids):
        raise SnapshotError(f"{where}.processes", f"pids must be distinct and below next_pid {doc.next_pid}")
    machine.procs = ProcessTable(tuple(doc.processes), doc.next_pid)
    machine.clipboard = doc.clipboard
    return machine
