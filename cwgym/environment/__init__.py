"""The two handles: ``World`` for the owner, ``Environment`` for the actor."""

from cwgym.environment.actor import Environment
from cwgym.environment.snapshot import Snapshot
from cwgym.environment.world import World

__all__ = ["Environment", "Snapshot", "World"]
