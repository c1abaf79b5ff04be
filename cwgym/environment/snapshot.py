"""``Snapshot``: the opaque in-memory checkpoint of a whole world.

It holds a :class:`~cwgym.environment.runtime.RuntimeFrozen`: every subsystem frozen in
O(1) (file trees are copy-on-write maps, so nothing is copied). The portable form is the
JSON document ``World.export_snapshot`` writes; each subsystem writes and checks its own
sections of it (machines in :mod:`cwgym.machine.snapshot`, sessions in
:mod:`cwgym.environment.session`, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cwgym.environment.runtime import RuntimeFrozen

__all__ = ["Snapshot"]


class Snapshot:
    """An opaque checkpoint of a whole world. Cheap to take; restore or fork it."""

    __slots__ = ("_frozen",)

    def __init__(self, frozen: RuntimeFrozen) -> None:
        self._frozen = frozen

    @property
    def frozen(self) -> RuntimeFrozen:
        """The frozen runtime (immutable) this snapshot holds."""
        return self._frozen

    def __repr__(self) -> str:
        f = self._frozen
        clock = dict(f.subsystems).get("kernel", (None, None))[1]
        return f"<Snapshot engine={f.engine_version} tick={clock} journal={f.journal[1]}>"
