"""``Subsystem``: one piece of world state that snapshots, hashes, exports and inspects itself.

A world is a runtime plus an ordered set of subsystems (the kernel's clock and random
streams, the topology, the machines, the sessions, ...). Each subsystem lives beside the
state it owns and implements the same six operations, so the runtime handles every one of
them with a loop, and adding a subsystem is adding a class and registering it in
:data:`SUBSYSTEMS`; nothing else changes:

============  ======================================================================
``build``     a fresh subsystem from the world definition (a new world, ``reset``)
``freeze``    an immutable value a snapshot holds, O(1) or proportional to what changed
``thaw``      the subsystem again from a ``freeze`` value (``restore`` and ``fork``)
``digest``    the values it adds to ``state_hash``, in order (state, never history)
``export``    its sections of the portable snapshot document, as plain data
``load``      the subsystem from those sections, validating every field it reads
``inspect``   its part of the owner's ``World.inspect()`` view, as plain data
============  ======================================================================

Subsystems are ordered by ``(order, name)``: build, thaw and load run in that order (so a
machine can use the kernel's clock), and the state hash, the export document and the
inspection are composed in it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, TypeVar

import msgspec

from cwgym.kernel.registry import Registry

__all__ = ["SUBSYSTEMS", "SnapshotError", "Subsystem", "convert", "ordered"]

T = TypeVar("T")


class SnapshotError(ValueError):
    """An exported snapshot section that cannot be loaded; names the field that is wrong.

    ``code`` is ``serialization`` for a value of the wrong shape or type and ``invalid``
    for a well-formed value no world could hold.
    """

    def __init__(self, where: str, problem: str, code: str = "invalid") -> None:
        self.where = where
        self.problem = problem
        self.code = code
        super().__init__(f"{code}: snapshot {where}: {problem}")


class Subsystem(ABC):
    """Base class of a piece of world state; see the module docstring for the contract.

    ``runtime`` is the world's :class:`~cwgym.environment.runtime.Runtime` (typed loosely
    here: the kernel sits below it). Subclasses set ``name``, ``order`` and ``sections``.
    """

    #: the registry name, unique in a world
    name: ClassVar[str] = ""
    #: position among subsystems (lower first)
    order: ClassVar[int] = 100
    #: the keys this subsystem owns in the exported snapshot document
    sections: ClassVar[tuple[str, ...]] = ()

    @classmethod
    @abstractmethod
    def build(cls, runtime: Any) -> Subsystem:
        """See the module docstring."""

    @classmethod
    @abstractmethod
    def thaw(cls, runtime: Any, frozen: Any) -> Subsystem:
        """See the module docstring."""

    @classmethod
    @abstractmethod
    def load(cls, runtime: Any, sections: dict[str, Any]) -> Subsystem:
        """See the module docstring."""

    @abstractmethod
    def freeze(self) -> Any:
        """See the module docstring."""

    @abstractmethod
    def digest(self) -> list[Any]:
        """See the module docstring."""

    @abstractmethod
    def export(self) -> dict[str, Any]:
        """See the module docstring."""

    @abstractmethod
    def inspect(self) -> dict[str, Any]:
        """See the module docstring."""


#: Every kind of subsystem a new world is built with, by name.
SUBSYSTEMS: Registry[type[Subsystem]] = Registry("subsystem")


def ordered(kinds: list[type[Subsystem]]) -> list[type[Subsystem]]:
    """``kinds`` in build order: by ``(order, name)``."""
    return sorted(kinds, key=lambda kind: (kind.order, kind.name))


def convert(value: Any, kind: type[T], where: str) -> T:
    """``value`` converted to ``kind`` (a msgspec type), or a :class:`SnapshotError` whose
    message names the field, e.g. ``machines[0].inodes[3].mode``."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        text = str(exc)
        problem, _, at = text.rpartition(" - at `")
        if at:
            where += at.rstrip("`").removeprefix("$")
        else:
            problem = text
        raise SnapshotError(where, problem, "serialization") from None
