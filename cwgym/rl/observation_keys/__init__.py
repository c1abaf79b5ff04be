"""The observation keys: every entry an env's observation ``Dict`` can have is one module here.

A key is an :class:`ObservationKey` subclass registered under its name with
:func:`observation_key`. It says which observation channel it reads (the grant must
include it), builds its Gymnasium space for a configuration and fills its entry from an
episode. :data:`OBSERVATION_KEYS` imports every public module of this package the first
time it is read, so adding a key is adding a module::

    @observation_key("instruction_length")
    class InstructionLength(ObservationKey):
        def __init__(self, config):
            super().__init__(config)
            self.space = spaces.Box(0, config.text_length, (1,), dtype=np.int64)

        def encode(self, episode, out):
            return self.box(np.array([len(episode.instance.instruction)]), out, fresh=True)

A key registered from anywhere else (a test, a user's module imported before the env is
made) works the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np

from cwgym.kernel.registry import Registry

if TYPE_CHECKING:
    from gymnasium import spaces

    from cwgym.environment import Environment
    from cwgym.procedures import Instance
    from cwgym.rl.config import TaskConfig
    from cwgym.rl.elements import ElementTable

__all__ = ["OBSERVATION_KEYS", "EpisodeView", "ObservationKey", "observation_key"]


class EpisodeView(Protocol):
    """What a key may read of an episode (:class:`cwgym.rl.episode.Episode` is one).

    Everything here is the agent's own: its session, the instance's instruction, the
    element table of its ``semantic.v1`` view, its ``terminal.v1`` latch.
    """

    actor: Environment
    instance: Instance
    steps: int
    table: ElementTable | None
    pointer_held: bool

    def semantic_view(self) -> dict | None: ...

    def terminal(self) -> dict | None: ...


class ObservationKey:
    """One entry of the observation ``Dict``, built for one configuration.

    A subclass sets :attr:`space` in ``__init__`` and implements :meth:`encode`; the class
    attributes say what it needs.
    """

    #: The observation channel the key reads; a configuration must grant it (``None``: none).
    channel: ClassVar[str | None] = None
    #: The key reads ``episode.table``: the episode builds the element table every step.
    uses_table: ClassVar[bool] = False
    #: The key the ``sb3`` preset puts in this one's place (a ``Box`` form of a ``Text`` key).
    sb3: ClassVar[str | None] = None

    space: spaces.Space

    def __init__(self, config: TaskConfig) -> None:
        self.config = config

    def encode(self, episode: EpisodeView, out: np.ndarray | None) -> Any:
        """The entry for ``episode`` now. A ``Box`` key writes into ``out`` when it is given
        (a row of a vector env's batch array) and returns it; else it returns a new array."""
        raise NotImplementedError(f"{type(self).__name__}.encode")

    @staticmethod
    def box(value: np.ndarray, out: np.ndarray | None, *, fresh: bool = False) -> np.ndarray:
        """``value`` written into ``out``, or as an array of its own without ``out`` (a copy,
        unless ``fresh`` says ``value`` is already one nobody else holds)."""
        if out is None:
            return value if fresh else value.copy()
        np.copyto(out, value)
        return out


#: Every observation key, by name.
OBSERVATION_KEYS: Registry[type[ObservationKey]] = Registry("observation key", __name__)


def observation_key(name: str) -> Callable[[type[ObservationKey]], type[ObservationKey]]:
    """Register the decorated :class:`ObservationKey` subclass as ``name``."""

    def register(cls: type[ObservationKey]) -> type[ObservationKey]:
        OBSERVATION_KEYS.register(name, cls)
        return cls

    return register
