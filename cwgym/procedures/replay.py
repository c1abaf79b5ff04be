"""Replaying a demonstration: its recorded grants and actions, nothing else."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwgym.procedures.demonstration import Demonstration

if TYPE_CHECKING:
    from cwgym.environment.world import World


def replay(world: World, demonstration: Demonstration | dict) -> str:
    """Grant the demonstration's sessions and send its actions to ``world``, in order.

    Sent to a freshly staged world, this reaches the demonstration's ``state_hash``: the
    steps are ordinary actions, so the frames never need storing. Returns the state hash
    reached.
    """
    if isinstance(demonstration, dict):
        import msgspec

        demonstration = msgspec.convert(demonstration, Demonstration)
    envs = {record.id: world.environment(record.config) for record in demonstration.sessions}
    for session_id, action in demonstration.actions():
        envs[session_id].step([action])
    return world.state_hash()
