"""The machines subsystem: every computer of a world, by id, in topology order.

It builds each machine from the world definition, freezes them in O(1) (their file trees
are copy-on-write), digests each one incrementally, and writes and checks their snapshot
documents (:mod:`cwgym.machine.snapshot`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from cwgym.kernel.subsystem import SUBSYSTEMS, SnapshotError, Subsystem, convert
from cwgym.machine.machine import Machine
from cwgym.machine.snapshot import MachineDoc, machine_doc, machine_from_doc
from cwgym.protocol.definition import Computer, DefinitionError

__all__ = ["Machines"]


class Machines(Subsystem):
    """Machine id -> :class:`~cwgym.machine.machine.Machine`, in the order they joined."""

    name = "machines"
    order = 20
    sections = ("machines",)

    __slots__ = ("_by_id", "_runtime")

    def __init__(self, runtime: Any, machines: dict[str, Machine]) -> None:
        self._runtime = runtime
        self._by_id = machines

    # -- mapping ---------------------------------------------------------------------
    def __getitem__(self, machine_id: str) -> Machine:
        return self._by_id[machine_id]

    def get(self, machine_id: str) -> Machine | None:
        return self._by_id.get(machine_id)

    def __contains__(self, machine_id: object) -> bool:
        return machine_id in self._by_id

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def items(self) -> list[tuple[str, Machine]]:
        return list(self._by_id.items())

    def add(self, computer: Computer) -> Machine:
        """Build and add the machine a computer definition describes."""
        runtime = self._runtime
        machine = Machine(computer, runtime.definition.profile(computer.profile), runtime.clock, runtime.sleep)
        self._by_id[computer.id] = _wired(runtime, machine)
        return machine

    def remove(self, machine_id: str) -> None:
        del self._by_id[machine_id]

    # -- subsystem -------------------------------------------------------------------
    @classmethod
    def build(cls, runtime: Any) -> Machines:
        machines = cls(runtime, {})
        for computer in runtime.definition.computers:
            machines.add(computer)
        return machines

    @classmethod
    def thaw(cls, runtime: Any, frozen: tuple) -> Machines:
        return cls(runtime, {mid: _wired(runtime, Machine.thaw(mf, runtime.clock, runtime.sleep)) for mid, mf in frozen})

    @classmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Machines:
        docs = convert(sections["machines"], list[MachineDoc], "machines")
        machines: dict[str, Machine] = {}
        for index, doc in enumerate(docs):
            where = f"machines[{index}]"
            if doc.id in machines:
                raise SnapshotError(f"{where}.id", f"machine {doc.id!r} appears twice")
            if doc.computer.id != doc.id:
                raise SnapshotError(f"{where}.computer.id", f"is {doc.computer.id!r}, not the machine's id {doc.id!r}")
            try:
                profile = runtime.definition.profile(doc.computer.profile)
            except (DefinitionError, KeyError):
                raise SnapshotError(f"{where}.computer.profile", f"no profile {doc.computer.profile!r} in the definition") from None
            machines[doc.id] = _wired(runtime, machine_from_doc(doc, profile, runtime.clock, runtime.sleep, where))
        return cls(runtime, machines)

    def freeze(self) -> tuple:
        return tuple((mid, m.freeze()) for mid, m in self._by_id.items())

    def digest(self) -> list[Any]:
        return [[(mid, m.digest()) for mid, m in self._by_id.items()]]

    def export(self) -> dict[str, Any]:
        return {"machines": [machine_doc(m) for m in self._by_id.values()]}

    def inspect(self) -> dict[str, Any]:
        computers = {}
        for mid, machine in self._by_id.items():
            computers[mid] = {
                "hostname": machine.hostname,
                "user": machine.user,
                "home": machine.home,
                "profile": machine.profile.id,
                "cwd": machine.shell.cwd,
                "inodes": len(machine.fs.inodes),
                "processes": [msgspec.to_builtins(p) for p in machine.procs.frozen()[0]],
                "clipboard": machine.clipboard,
                "installed_apps": machine.installed_apps,
            }
        return {"computers": computers}


SUBSYSTEMS.register(Machines.name, Machines)


def _wired(runtime: Any, machine: Machine) -> Machine:
    """``machine`` with its programs' way to the world's network (``runtime.net_port``)."""
    port = getattr(runtime, "net_port", None)
    machine.net = port(machine.id) if port is not None else None
    return machine
