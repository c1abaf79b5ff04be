"""Registering every ``envs/*.json`` entry with Gymnasium.

Entry points are strings and kwargs are the entry's JSON, so each spec round-trips through
``EnvSpec.to_json()``. Importing :mod:`cwgym.rl` (which ``import cwgym`` does) registers
them all, and ``gymnasium.make("cwgym:cwgym/<name>-v0")`` imports ``cwgym`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable

import gymnasium as gym

from cwgym.rl.specs import EnvEntry, load_suites

__all__ = ["ENTRY_POINT", "VECTOR_ENTRY_POINT", "register_envs"]

ENTRY_POINT = "cwgym.rl.env:ComputerEnv"
VECTOR_ENTRY_POINT = "cwgym.rl.vector:make_vector_env"


def register_envs(entries: Iterable[EnvEntry] | None = None, *, strict: bool = False) -> list[str]:
    """Register ``entries`` (every suite's by default) and return their ids.

    An id already registered with the same spec is left alone, so calling this again is
    harmless; one registered differently is replaced (Gymnasium warns).
    """
    if entries is None:
        entries = load_suites(strict=strict)
    ids = []
    for e in entries:
        existing = gym.registry.get(e.id)
        if existing is None or existing.kwargs != e.kwargs or existing.max_episode_steps != e.max_episode_steps:
            gym.register(
                id=e.id,
                entry_point=ENTRY_POINT,
                vector_entry_point=VECTOR_ENTRY_POINT,
                max_episode_steps=e.max_episode_steps,
                kwargs=dict(e.kwargs),
            )
        ids.append(e.id)
    return ids
