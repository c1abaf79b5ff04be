"""cwgym: a deterministic simulated computer world for computer-use agents, as Gymnasium envs.

An owner holds a :class:`World`; an agent holds only an :class:`Environment` for its
session. A run is a pure function of (engine version, definition, seed, actions).
:func:`register_procedure` makes a task written as data a Gymnasium env.
"""

from cwgym._version import __version__, engine_version
from cwgym.environment import Environment, Snapshot, World
from cwgym.protocol import EnvironmentConfig, load_definition

# importing cwgym.rl registers every env of envs/*.json with Gymnasium
from cwgym.rl.registration import register_procedure

__all__ = [
    "Environment",
    "EnvironmentConfig",
    "Snapshot",
    "World",
    "__version__",
    "engine_version",
    "load_definition",
    "register_procedure",
]
