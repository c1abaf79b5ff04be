"""Replaying a demonstration: its recorded grants and actions, nothing else.

:func:`replay` sends a :class:`Demonstration`'s actions to a world you staged.
:func:`replay_episode` starts from an ``episodes.jsonl`` line, expert or human: it stages
the record's procedure, seed and world in a fresh world, grants the same sessions, sends
the same envelopes in order, and returns the end state hash, whether it is the recorded
one, and the procedure's own verdict on the replayed world. It is how a human
demonstration recorded by ``cwgym play`` is checked the way an expert one is: the
recording proves nothing by itself, its replay does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cwgym.procedures.demonstration import Demonstration
from cwgym.procedures.verification import Verification

if TYPE_CHECKING:
    from cwgym.environment.world import World

__all__ = ["RecordError", "Replayed", "replay", "replay_episode"]

#: What a record must hold to be replayed.
REQUIRED = ("procedure", "seed", "sessions", "steps", "state_hash")


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


class RecordError(ValueError):
    """A record that cannot be replayed: a missing field, an unknown session, a step index."""


@dataclass(frozen=True)
class Replayed:
    """The end of a replay: the state hash, whether it matched, and the verdict."""

    state_hash: str
    matches: bool
    verification: Verification

    @property
    def verified(self) -> bool:
        """The replay ends in the recorded state and the procedure's checks pass there."""
        return self.matches and self.verification.passed


def replay_episode(record: dict[str, Any]) -> Replayed:
    """Run ``record``'s steps again in a freshly staged world; see the module docstring.

    Raises:
        RecordError: the record lacks a field, grants a session the world gives another
            id, or has a step naming a session it did not grant (the step index is named).
    """
    from cwgym.environment.world import World
    from cwgym.procedures.library import load_procedure
    from cwgym.procedures.stage import stage
    from cwgym.procedures.verification import verify
    from cwgym.resources import load_world

    missing = [name for name in REQUIRED if name not in record]
    if missing:
        raise RecordError(f"the record has no {', '.join(missing)}")
    procedure = load_procedure(record["procedure"])
    world = World(load_world(record.get("world") or procedure.world), seed=int(record.get("world_seed", 0)))
    instance = stage(world, procedure, int(record["seed"]))
    sessions = {}
    for session in record["sessions"]:
        env = world.environment(session["config"])
        if env.id != session["id"]:
            raise RecordError(f"session {session['id']!r} replays as {env.id!r}: the world or its grant differs")
        sessions[session["id"]] = env
    for index, step in enumerate(record["steps"]):
        env = sessions.get(step.get("session_id"))
        if env is None:
            raise RecordError(f"step {index} acts through session {step.get('session_id')!r}, which the record does not grant")
        env.step([step["action"]])
    state_hash = world.state_hash()
    return Replayed(state_hash, state_hash == record["state_hash"], verify(world, instance))
