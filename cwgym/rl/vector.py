"""cwgym's own vector env: many worlds stepped in one process into preallocated arrays.

``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")`` builds it
through :func:`make_vector_env`. All N worlds are forks of one template world, so they
share everything they have not changed (copy-on-write), and a reset is a snapshot restore.
Observations' ``Box`` entries are written straight into the batch arrays; ``Text`` entries
come as tuples of strings, as Gymnasium batches them.

Autoreset is Gymnasium's default *next step* mode (``metadata["autoreset_mode"]``): the
step after an episode ends resets that env, returning its first observation with reward
0. Seeds follow :class:`~gymnasium.vector.SyncVectorEnv`: ``reset(seed=s)`` seeds env ``i``
with ``s + i``, and an autoreset draws the next instance from that env's generator, so the
same seeds give the same trajectories as ``SyncVectorEnv`` and ``AsyncVectorEnv`` over
``ComputerEnv``.

``workers > 0`` runs the envs in that many processes instead
(:class:`~cwgym.rl.shared_memory.SharedMemoryVectorEnv`), writing the ``Box`` entries into shared
memory.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space, create_empty_array, iterate

from cwgym.render import Renderer
from cwgym.rl.batch import METADATA, Batch, BatchedVectorEnv, reset_arguments
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.config import task_config
from cwgym.rl.shared_memory import SharedMemoryVectorEnv

__all__ = ["ComputerVectorEnv", "make_vector_env"]


class ComputerVectorEnv(BatchedVectorEnv):
    """N envs of one configuration stepped in this process (see the module docstring).

    Args:
        num_envs: how many worlds.
        procedure, **kwargs: the configuration, as for :class:`~cwgym.rl.env.ComputerEnv`
            (``max_episode_steps`` truncates here: there is no ``TimeLimit`` wrapper).
        render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``; ``render()`` returns a tuple.
        copy: return copies of the observation arrays (``False``: the arrays are reused
            by the next step).
    """

    def __init__(self, num_envs: int, procedure: str, *, render_mode: str | None = None, copy: bool = True, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if render_mode is not None and render_mode not in METADATA["render_modes"]:
            raise ValueError(f"render_mode must be one of {METADATA['render_modes']} or None, got {render_mode!r}")
        self.config = task_config({"procedure": procedure, **kwargs})
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.copy = copy
        blueprint = Blueprint(self.config)
        self.single_observation_space = blueprint.observations.space
        self.single_action_space = blueprint.actions.space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = create_empty_array(self.single_observation_space, n=num_envs, fn=np.zeros)
        box_keys = blueprint.observations.box_keys
        rows = [{k: self._observations[k][i] for k in box_keys} for i in range(num_envs)]
        self._batch = Batch(blueprint, rows)
        self._text_keys = self._batch.text_keys
        self._renderers: list[Renderer] = []

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        seeds, mask, options = reset_arguments(self.num_envs, seed, options)
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        texts, infos = self._batch.reset(seeds, options, mask)
        return self._collect(texts), self._infos(infos)

    def step(self, actions: Any) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        return self._result(*self._batch.step(list(iterate(self.action_space, actions))))

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        if len(self._renderers) != self.num_envs:
            self._renderers = [Renderer() for _ in range(self.num_envs)]
        return tuple(self._batch.render(self.render_mode, self._renderers))

    def close_extras(self, **kwargs: Any) -> None:
        self._renderers = []


def make_vector_env(
    num_envs: int = 1,
    *,
    backend: str = "local",
    workers: int = 0,
    context: str | None = None,
    actors: int | None = None,
    address: str | None = None,
    checkpoint_every: int | None = None,
    max_restarts: int | None = None,
    **kwargs: Any,
) -> VectorEnv:
    """The ``vector_entry_point`` of every cwgym env: in process, in ``workers`` processes,
    or in Ray actors.

    ``backend="local"`` runs the worlds in this process (:class:`ComputerVectorEnv`), or in
    ``workers`` processes (:class:`~cwgym.rl.shared_memory.SharedMemoryVectorEnv`, started
    with ``context``). ``backend="ray"`` runs them in ``actors`` Ray actors
    (:class:`~cwgym.rl.ray.RayVectorEnv`, with ``address``, ``checkpoint_every`` and
    ``max_restarts``; Ray is imported only then). ``kwargs`` are the env's configuration plus
    ``render_mode`` and ``copy``.

    Raises:
        ValueError: an unknown backend, or an option the chosen backend does not take.
    """
    ray_options = {"actors": actors, "address": address, "checkpoint_every": checkpoint_every, "max_restarts": max_restarts}
    if backend == "local":
        given = [name for name, value in ray_options.items() if value is not None]
        if given:
            raise ValueError(f"make_vector_env: {', '.join(given)} only apply with backend='ray', not 'local'")
        if workers:
            return SharedMemoryVectorEnv(num_envs, workers=workers, context=context, **kwargs)
        if context is not None:
            raise ValueError("context applies only with workers > 0")
        return ComputerVectorEnv(num_envs, **kwargs)
    if backend == "ray":
        given = [name for name, value in (("workers", workers), ("context", context)) if value]
        if given:
            raise ValueError(f"make_vector_env: {', '.join(given)} only apply with backend='local', not 'ray'")
        from cwgym.rl.ray import RayVectorEnv

        return RayVectorEnv(num_envs, **{k: v for k, v in ray_options.items() if v is not None}, **kwargs)
    raise ValueError(f"make_vector_env: backend must be one of 'local', 'ray', got {backend!r}")
