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
(:class:`~cwgym.rl.shared.SharedMemoryVectorEnv`), writing the ``Box`` entries into shared
memory.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, create_empty_array, iterate

from cwgym.render import Renderer
from cwgym.rl.config import task_config
from cwgym.rl.core import Blueprint, Episode, instance_seed
from cwgym.rl.render import ansi_screen, rgb_frame

__all__ = ["Batch", "BatchedVectorEnv", "ComputerVectorEnv", "make_vector_env"]

METADATA = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}


class Batch:
    """Episodes stepped one after another, writing their ``Box`` observations into rows.

    ``rows[i]`` maps each ``Box`` key to env ``i``'s slice of the batch arrays. Used in
    process by :class:`ComputerVectorEnv` and in each worker of the shared-memory variant.
    """

    def __init__(self, blueprint: Blueprint, rows: list[dict[str, np.ndarray]]) -> None:
        self.bp = blueprint
        self.config = blueprint.config
        self.rows = rows
        self.episodes = [Episode(blueprint) for _ in rows]
        self.rngs: list[np.random.Generator | None] = [None] * len(rows)
        self.autoreset = np.zeros(len(rows), dtype=np.bool_)
        self.text_keys = [k for k in blueprint.observations.keys if k not in blueprint.observations.box_keys]

    def _reset_one(self, i: int, seed: int | None, options: dict[str, Any]) -> tuple[dict, dict]:
        if seed is not None:
            self.rngs[i], _ = seeding.np_random(seed)
        elif self.rngs[i] is None:
            self.rngs[i], _ = seeding.np_random()
        info = self.episodes[i].reset(instance_seed(self.rngs[i], self.config, seed, options))
        obs = self.episodes[i].observe(self.rows[i])
        return {k: obs[k] for k in self.text_keys}, info

    def reset(self, seeds: list[int | None], options: dict[str, Any] | None, mask: list[bool] | None = None) -> tuple[list, list]:
        options = dict(options or {})
        texts: list[dict | None] = [None] * len(self.rows)
        infos: list[dict | None] = [None] * len(self.rows)
        for i, seed in enumerate(seeds):
            if mask is not None and not mask[i]:
                continue
            self.autoreset[i] = False
            texts[i], infos[i] = self._reset_one(i, seed, options)
        return texts, infos

    def step(self, actions: list[Any]) -> tuple[list[float], list[bool], list[bool], list[dict], list[dict]]:
        n = len(self.rows)
        rewards, terms, truncs = [0.0] * n, [False] * n, [False] * n
        texts: list[dict] = [{}] * n
        infos: list[dict] = [{}] * n
        for i, action in enumerate(actions):
            if self.autoreset[i]:
                texts[i], infos[i] = self._reset_one(i, None, {})
            else:
                episode = self.episodes[i]
                rewards[i], terms[i], truncs[i], infos[i] = episode.step(action)
                obs = episode.observe(self.rows[i])
                texts[i] = {k: obs[k] for k in self.text_keys}
            self.autoreset[i] = terms[i] or truncs[i]
        return rewards, terms, truncs, texts, infos

    def render(self, mode: str, renderers: list[Renderer]) -> list[Any]:
        if mode == "ansi":
            return [ansi_screen(e) for e in self.episodes]
        return [rgb_frame(e, r) for e, r in zip(self.episodes, renderers)]


class BatchedVectorEnv(VectorEnv):
    """What cwgym's vector envs share: text entries and infos gathered from per-env lists.

    A subclass sets ``_observations`` (the batch arrays, its ``Box`` entries written by the
    envs), ``_text_keys`` and ``copy``.
    """

    metadata: ClassVar[dict[str, Any]] = METADATA
    _observations: dict[str, Any]
    _text_keys: list[str]
    copy: bool

    def _result(self, rewards: list[float], terms: list[bool], truncs: list[bool], texts: list[dict], infos: list[dict]) -> tuple:
        """A step's per-env lists as the vector API returns them."""
        return (
            self._collect(texts),
            np.array(rewards, dtype=np.float64),
            np.array(terms, dtype=np.bool_),
            np.array(truncs, dtype=np.bool_),
            self._infos(infos),
        )

    def _collect(self, texts: list[dict | None]) -> dict:
        """The batch observation, its text entries taken from ``texts`` (``None``: unchanged)."""
        for key in self._text_keys:
            current = self._observations[key]
            self._observations[key] = tuple(t[key] if t is not None else current[i] for i, t in enumerate(texts))
        if not self.copy:
            return self._observations
        return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in self._observations.items()}  # text tuples are immutable

    def _infos(self, infos: list[dict | None]) -> dict:
        out: dict = {}
        for i, info in enumerate(infos):
            if info is not None:
                out = self._add_info(out, info, i)
        return out


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
        seeds, mask, options = _reset_args(self.num_envs, seed, options)
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


def _reset_args(n: int, seed: Any, options: dict | None) -> tuple[list, list[bool] | None, dict]:
    if seed is None:
        seeds = [None] * n
    elif isinstance(seed, (int, np.integer)):
        seeds = [int(seed) + i for i in range(n)]
    else:
        seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"reset takes {n} seeds (one per env), got {len(seeds)}")
    options = dict(options or {})
    mask = options.pop("reset_mask", None)
    if mask is not None:
        mask = np.asarray(mask, dtype=np.bool_)
        if mask.shape != (n,) or not mask.any():
            raise ValueError(f"options['reset_mask'] must be {n} booleans with at least one True")
        mask = [bool(m) for m in mask]
    return seeds, mask, options


def make_vector_env(num_envs: int = 1, *, workers: int = 0, context: str | None = None, **kwargs: Any) -> VectorEnv:
    """The ``vector_entry_point`` of every cwgym env: in process, or in ``workers`` processes.

    ``kwargs`` are the env's configuration plus ``render_mode`` and ``copy``.
    """
    if workers:
        from cwgym.rl.shared import SharedMemoryVectorEnv

        return SharedMemoryVectorEnv(num_envs, workers=workers, context=context, **kwargs)
    if context is not None:
        raise ValueError("context applies only with workers > 0")
    return ComputerVectorEnv(num_envs, **kwargs)
