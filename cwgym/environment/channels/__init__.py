"""Observation channels: what ``observe()`` returns for each granted channel.

A channel is an object with a ``version`` and ``observe(runtime, session) -> value`` (see
:mod:`cwgym.environment.extension`); the built-in channels key their value by machine and
are the modules of this package, each registering itself in :data:`CHANNELS` (adding a
channel is adding a module). Owners add their own to one world with
``World.register_observation_channel``. ``observe`` never rasterizes.
"""

from __future__ import annotations

from cwgym.environment.extension import ObservationChannel
from cwgym.kernel.registry import Registry

__all__ = ["CHANNELS", "ObservationChannel"]

#: The built-in observation channels, by name (``terminal.v1``, ...).
CHANNELS: Registry[ObservationChannel] = Registry("observation channel", __name__)
