"""What cwgym's vector envs share: episodes stepped into batch rows, results gathered per env.

:class:`Batch` steps episodes one after another, writing their ``Box`` observations into
rows of the batch arrays: the in-process :class:`~cwgym.rl.vector.ComputerVectorEnv` runs
one, and each worker of :class:`~cwgym.rl.shared_memory.SharedMemoryVectorEnv` runs one
over its slice of the envs. :class:`BatchedVectorEnv` is their common ``VectorEnv`` base.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from cwgym.render import Renderer
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.episode import Episode, instance_seed
from cwgym.rl.render import ansi_screen, rgb_frame

__all__ = ["METADATA", "Batch", "BatchedVectorEnv", "reset_arguments"]

METADATA = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}


class Batch:
    """Episodes stepped one after another, writing their ``Box`` observations into rows.

    ``rows[i]`` maps each ``Box`` key to env ``i``'s slice of the batch arrays. Used in
    process by :class:`ComputerVectorEnv` and in each worker of the shared-memory variant.
    """

    def __init__(self, blueprint: Blueprint, rows: list[dict[str, np.ndarray]]) -> None:
        self.blueprint = blueprint
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
    envs), ``_text_keys`` and ``copy``. Each env's latest ``info["action_mask"]`` is kept
    for :meth:`action_masks`.
    """

    metadata: ClassVar[dict[str, Any]] = METADATA
    _observations: dict[str, Any]
    _text_keys: list[str]
    copy: bool
    _masks: np.ndarray | None = None

    def action_masks(self) -> np.ndarray:
        """Each env's action mask now, ``(num_envs, actions)`` ``bool`` (a copy): what
        sb3-contrib's ``MaskablePPO`` asks a vector env for (see :mod:`cwgym.rl.masks`).

        Raises:
            ValueError: the interface's space is not discrete, or no env has been reset.
        """
        if self._masks is None:
            raise ValueError("no action masks: reset the env first (only discrete interfaces have masks)")
        return self._masks.copy()

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
                mask = info.get("action_mask")
                if mask is not None:
                    if self._masks is None:
                        self._masks = np.ones((self.num_envs, len(mask)), dtype=np.bool_)
                    self._masks[i] = mask
        return out


def reset_arguments(n: int, seed: Any, options: dict | None) -> tuple[list, list[bool] | None, dict]:
    """A vector ``reset``'s arguments per env: ``(seeds, mask, options)``.

    An int seed ``s`` gives env ``i`` the seed ``s + i`` (as ``SyncVectorEnv``);
    ``options["reset_mask"]`` (taken out of the options) picks the envs to reset.
    """
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
