"""Snapshots: the opaque in-memory checkpoint and the portable JSON document.

``Snapshot`` holds a ``WorldFrozen``: every component of the world frozen in O(1) (the
file trees are copy-on-write maps, so nothing is copied). ``SnapshotDocument`` is the
portable form ``export_snapshot`` writes and ``import_snapshot`` validates field by field.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.kernel.journal import JournalEntry
from cwgym.kernel.scheduler import Task
from cwgym.machine.processes import Process
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.definition import Computer, Link, Node

SNAPSHOT_FORMAT = "cwgym-snapshot/1"


class WorldFrozen(msgspec.Struct, frozen=True):
    engine_version: str
    definition_digest: str
    extensions: tuple
    seed: int
    clock: int
    rng: tuple
    ids: tuple
    scheduler: tuple
    computers: tuple
    nodes: tuple
    links: tuple
    machines: tuple  # ((id, MachineFrozen), ...) in topology order
    sessions: tuple
    next_session: int
    journal: Any
    verify_steps: bool


class Snapshot:
    """An opaque checkpoint of a whole world. Cheap to take; restore or fork it."""

    __slots__ = ("_frozen",)

    def __init__(self, frozen: WorldFrozen) -> None:
        self._frozen = frozen

    def __repr__(self) -> str:
        f = self._frozen
        return f"<Snapshot engine={f.engine_version} tick={f.clock} journal={f.journal[1]}>"


class InodeDoc(msgspec.Struct, array_like=True):
    ino: int
    kind: str
    mode: int
    uid: int
    gid: int
    nlink: int
    atime: int
    mtime: int
    ctime: int
    btime: int
    parent: int
    data: bytes = b""
    entries: dict[str, int] | None = None
    target: str | None = None


class ShellDoc(msgspec.Struct):
    cwd: str
    vars: dict[str, str]
    exported: list[str]
    functions: dict[str, str]
    last_status: int
    umask: int


class MachineDoc(msgspec.Struct):
    id: str
    computer: Computer
    case_sensitive: bool
    next_ino: int
    inodes: list[InodeDoc]
    shell: ShellDoc
    processes: list[Process]
    next_pid: int
    clipboard: str


class SessionDoc(msgspec.Struct):
    id: str
    config: EnvironmentConfig
    terminal: dict[str, Any]
    focus: str | None
    desktops: dict[str, Any] = {}


class KernelDoc(msgspec.Struct):
    seed: int
    clock: int
    rng: dict[str, int]
    ids: dict[str, int]
    scheduler: list[Task]
    next_task: int


class SnapshotDocument(msgspec.Struct):
    format: str
    engine_version: str
    definition_digest: str
    extensions: list[list[str]]
    kernel: KernelDoc
    computers: list[Computer]
    nodes: list[Node]
    links: list[Link]
    machines: list[MachineDoc]
    sessions: list[SessionDoc]
    next_session: int
    journal: list[JournalEntry]
    verify_steps: bool
    state_hash: str
