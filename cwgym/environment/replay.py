"""Replay: rebuild a world from (definition, seed, trajectory) and check it lands the same.

Grants, agent actions and topology edits are re-issued in order; every other entry
(command output, folders made at login) is a consequence and must reappear by itself.
With ``verify``, each action whose entry recorded a state hash (see
``World.enable_replay_verification``) is checked right after it runs, and the first
mismatch raises :class:`~cwgym.protocol.errors.ReplayDiverged`; the regenerated journal
must also equal the given one entry for entry.
"""

from __future__ import annotations

from typing import Any

import msgspec

from cwgym.environment.world import World
from cwgym.protocol.config import EnvironmentConfig
from cwgym.protocol.errors import ReplayDiverged


def replay(definition: Any, seed: int, trajectory: list[dict], *, verify: bool = True) -> World:
    """A world that has been through ``trajectory``; raises ``ReplayDiverged`` on a mismatch."""
    world = World(definition, seed)
    runtime = world.runtime
    if any("state" in (e.get("data") or {}) for e in trajectory if e.get("kind") == "agent.action"):
        world.enable_replay_verification(True)
    for index, entry in enumerate(trajectory):
        kind, data = entry.get("kind"), entry.get("data") or {}
        if kind == "session.granted":
            config = msgspec.convert(data["config"], EnvironmentConfig)
            runtime.grant(runtime.check_config(config), data["session"])
        elif kind == "agent.action":
            runtime.step(data["session"], [data.get("action")])
            recorded = data.get("state")
            if verify and recorded is not None:
                actual = world.trajectory()[-1]["data"].get("state")
                if actual != recorded:
                    raise ReplayDiverged(index, recorded, actual or "")
        elif kind == "topology.add_computer":
            world.add_computer(data["computer"], data["node"], data["links"])
        elif kind == "topology.remove_computer":
            world.remove_computer(data["computer"])
    if verify:
        regenerated = world.trajectory()
        for index, (want, got) in enumerate(zip(trajectory, regenerated)):
            if want != got:
                raise ReplayDiverged(index, _digest(want), _digest(got))
        if len(regenerated) != len(trajectory):
            raise ReplayDiverged(min(len(regenerated), len(trajectory)), "", "")
    return world


def _digest(entry: dict) -> str:
    from cwgym.kernel.digest import canonical, sha256_hex

    return sha256_hex(canonical(entry))
