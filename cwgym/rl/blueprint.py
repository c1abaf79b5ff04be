"""``Blueprint``: what every env of one configuration shares, built once.

A blueprint loads the procedure and the world definition, builds the world once, takes the
template snapshot every reset restores, and builds the action and observation codecs.
Every :class:`~cwgym.rl.episode.Episode` of the configuration runs in the blueprint's own
world or in a fork of its template (copy-on-write), so the vector envs' worlds share
everything they have not changed.
"""

from __future__ import annotations

from cwgym.environment import World
from cwgym.procedures import load_procedure
from cwgym.protocol.config import EnvironmentConfig
from cwgym.resources import load_world
from cwgym.rl.actions import build_codec
from cwgym.rl.config import TaskConfig
from cwgym.rl.observations import ObservationCodec

__all__ = ["Blueprint"]


class Blueprint:
    """What every env of one configuration shares: procedure, template world, codecs.

    Raises:
        KeyError: no such procedure in the library.
        ValueError: the procedure runs in another world, or the configuration does not fit
            the grant.
    """

    def __init__(self, config: TaskConfig) -> None:
        self.config = config
        self.observations = ObservationCodec(config)  # an unknown or ungranted key fails before any world is built
        self.procedure = load_procedure(config.procedure)
        world_name = config.world or self.procedure.world
        if world_name != self.procedure.world:
            raise ValueError(f"procedure {config.procedure!r} runs in world {self.procedure.world!r}, not {world_name!r}")
        self.world_name = world_name
        self.world = World(load_world(world_name), seed=config.world_seed)
        self.template = self.world.snapshot()
        self.machine = config.machine or self.procedure.machine
        try:
            user = self.world.machine(self.machine).user
        except KeyError:
            raise ValueError(f"world {world_name!r} has no machine {self.machine!r}") from None
        self.grant = EnvironmentConfig(
            actor=user, machines=[self.machine], actions=list(config.actions), observations=list(config.observations)
        )
        self.world.fork().environment(self.grant)  # an unknown family or channel fails here, at construction
        self.actions = build_codec(config)
        self.footprints: dict = {}
        self._used = False

    def new_world(self) -> World:
        """A world for one more episode runner: the blueprint's own first, then forks."""
        if not self._used:
            self._used = True
            return self.world
        return self.world.fork(self.template)
