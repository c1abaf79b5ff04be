"""cwgym: a deterministic simulated computer world for computer-use agents, as Gymnasium envs.

An owner holds a :class:`World`; an agent holds only an :class:`Environment` for its
session. A run is a pure function of (engine version, definition, seed, actions).
"""

from cwgym._version import __version__, engine_version
from cwgym.environment import Environment, Snapshot, World
from cwgym.protocol import EnvironmentConfig, load_definition

__all__ = [
    "Environment",
    "EnvironmentConfig",
    "Snapshot",
    "World",
    "__version__",
    "engine_version",
    "load_definition",
]

import cwgym.rl  # noqa: F401  (registers every env of envs/*.json with Gymnasium)
