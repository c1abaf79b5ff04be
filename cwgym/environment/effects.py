"""Action effects: what an accepted action changed, as the actor can see it.

A projection of the target machine's actor-visible state is taken before and after
dispatch; the effect's tags name the parts that differ and ``state`` digests the after.
Layers that add visible state (the desktop) add parts to the projection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.kernel.digest import u64
from cwgym.protocol import effects
from cwgym.protocol.envelope import ActionEffect

if TYPE_CHECKING:
    from cwgym.environment.session import Session
    from cwgym.environment.world import World
    from cwgym.machine.machine import Machine


def visible_projection(world: World, session: Session, machine: Machine) -> dict[str, Any]:
    """Tag -> value of each actor-visible part of ``machine`` for ``session``."""
    return {effects.TERMINAL: session.terminal.get(machine.id)}


def effect_between(before: dict[str, Any], after: dict[str, Any], machine: Machine, session: Session) -> ActionEffect:
    changed = sorted(tag for tag in after if before.get(tag) != after[tag])
    state = u64((machine.digest(), sorted((k, v) for k, v in after.items() if v is not None)))
    return ActionEffect(changed=changed, state=state)
