"""The owner-side verifier of an episode: the procedure's checks against the agent's world.

A procedure whose checks name captured values (``{{@invoice}}``: the invoice number the
work assigned) binds them from the world after its phases, by rules that say where to look
(the newest line of a register, the record this person made). The agent's world is
checked the same way: every capture rule is read from the world as it is now, in phase
order (a rule may use an earlier capture), and the checks run with what was found. A rule
that finds nothing leaves its name unbound, so the checks that need it fail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwgym.procedures import Verification, verify_with
from cwgym.procedures.captures import read_captures

if TYPE_CHECKING:
    from cwgym.environment.world import World
    from cwgym.procedures import Instance

__all__ = ["capture_values", "check"]


def capture_values(world: World, instance: Instance) -> dict[str, Any]:
    """Every capture rule of the instance read from ``world`` now (unmatched ones left out).

    The procedures' one binder, :func:`cwgym.procedures.captures.read_captures`.
    """
    return read_captures(world, instance)


def check(world: World, instance: Instance) -> Verification:
    """The instance's verification in ``world``, with captures read from it."""
    has_captures = any(phase.capture for phase in instance.phases)
    return verify_with(world, instance, capture_values(world, instance) if has_captures else None)
