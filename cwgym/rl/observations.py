"""The observation codec: the agent's view of its session, as a ``Dict`` space.

The configuration's ``obs`` names the keys; each is an entry of the
:data:`~cwgym.rl.observation_keys.OBSERVATION_KEYS` registry (one module of
:mod:`cwgym.rl.observation_keys` each), which says what it needs granted, builds its space
and fills it:

======================  ===============================================  ===============
key                     space                                            needs
======================  ===============================================  ===============
``pixels``              ``Box(0, 255, (H, W, 3), uint8)``                ``pixels.v1``
``marks``               ``Box(0, 255, (H, W, 3), uint8)``                ``pixels.v1``, ``semantic.v1``
``elements``            ``Box(0, 1, (K, 15), float32)``                  ``semantic.v1``
``element_values``      ``Box(0, 1, (K, 2), float32)``                   ``semantic.v1``
``focus_tokens``        ``Box(0, 1, (tokens,), float32)``                ``semantic.v1``
``instruction_shown``   ``Box(0, 1, (tokens,), float32)``                ``semantic.v1``
``a11y``                ``Text(text_length)``                            ``semantic.v1``
``terminal``            ``Text(text_length)``                            ``terminal.v1``
``terminal_tokens``     ``Box(0, 1, (tokens,), float32)``                ``terminal.v1``
``instruction``         ``Text(text_length)``                            —
``instruction_tokens``  ``Box(0, 1, (tokens,), float32)``                —
======================  ===============================================  ===============

The ``sb3`` preset puts each key's ``sb3`` form in its place (``instruction`` and
``terminal`` become their token ids scaled to ``[0, 1]`` as ``id / (token_vocab - 1)``), so
every entry is a ``Box`` of values in ``[0, 1]``, as the element table's ids are:
stable-baselines3's default policies feed observations to their networks unscaled, and raw
ids in the thousands drown the table's features (PPO on ``easy-open-desktop-file`` reached
39% on test seeds with raw ids, 100% with them scaled or left out).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from cwgym.rl.config import TaskConfig
from cwgym.rl.observation_keys import OBSERVATION_KEYS, EpisodeView, ObservationKey

__all__ = ["ObservationCodec", "observation_names"]


def observation_names(config: TaskConfig) -> list[str]:
    """The observation keys of ``config``, after its preset, checked against the registry
    and the grant.

    Raises:
        ValueError: an unknown key (named, with the registered ones), or a key whose
            channel the configuration does not grant.
    """
    names: list[str] = []
    for name in config.obs:
        key = _known(name)
        if key.channel is not None and key.channel not in config.observations:
            raise ValueError(f"observation {name!r} needs the {key.channel} channel granted")
        if config.preset == "sb3" and key.sb3 is not None:
            name = key.sb3
            _known(name)
        if name not in names:
            names.append(name)
    return names


def _known(name: str) -> type[ObservationKey]:
    key = OBSERVATION_KEYS.get(name)
    if key is None:
        raise ValueError(f"unknown observation key {name!r}; registered: {', '.join(OBSERVATION_KEYS.names())}")
    return key


class ObservationCodec:
    """Builds the ``Dict`` space of a configuration and fills observations of an episode.

    Raises:
        ValueError: as :func:`observation_names`.
    """

    def __init__(self, config: TaskConfig) -> None:
        self.config = config
        self.keys = observation_names(config)
        self.entries: list[tuple[str, ObservationKey]] = [(name, OBSERVATION_KEYS[name](config)) for name in self.keys]
        self.space = spaces.Dict({name: entry.space for name, entry in self.entries})
        self.box_keys = [name for name, entry in self.entries if isinstance(entry.space, spaces.Box)]
        self.wants_table = any(entry.uses_table for _, entry in self.entries)

    def encode(self, episode: EpisodeView, out: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
        """The observation of ``episode`` now. ``Box`` entries are written into ``out``'s
        arrays when given (a vector env's rows), else into fresh arrays."""
        if out is None:
            return {name: entry.encode(episode, None) for name, entry in self.entries}
        return {name: entry.encode(episode, out.get(name)) for name, entry in self.entries}
