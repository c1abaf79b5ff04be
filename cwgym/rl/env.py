"""``ComputerEnv``: one procedure in one world as a Gymnasium environment.

One class, configured by an ``envs/*.json`` entry (the keyword arguments of
:class:`~cwgym.rl.config.TaskConfig`). Construction builds the world once and stages
nothing; ``reset(seed=...)`` draws the procedure instance from the seed and restores the
template snapshot; ``step`` sends the decoded action through the agent's session and
rewards what the procedure's verifier sees.

Seeds: ``reset(seed=s)`` stages instance ``s`` (and seeds ``np_random`` with ``s``);
``reset()`` without a seed stages a seed drawn from ``np_random`` in the configuration's
``train_seeds`` range (``test_seeds`` with ``split: "test"`` or ``options={"split":
"test"}``). ``options={"instance": s}`` stages instance ``s`` without reseeding.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from cwgym.render import Renderer
from cwgym.rl.blueprint import Blueprint
from cwgym.rl.config import TaskConfig, task_config
from cwgym.rl.episode import Episode, instance_seed
from cwgym.rl.render import ansi_screen, rgb_frame

__all__ = ["ComputerEnv"]


class ComputerEnv(gym.Env[dict, Any]):
    """A task of the procedure library as a Gymnasium env (see ``docs/rl.md``).

    Args:
        procedure: the library id of the task.
        render_mode: ``None``, ``"rgb_array"`` (an ``(H, W, 3)`` frame) or ``"ansi"``
            (a text screen).
        **kwargs: the rest of :class:`~cwgym.rl.config.TaskConfig`.

    Raises:
        TypeError: an unknown keyword argument or a value of the wrong type.
        ValueError: a value out of range or one the grant does not allow.
        KeyError: no procedure with that id.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(self, procedure: str, render_mode: str | None = None, **kwargs: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self._kwargs = {"procedure": procedure, **kwargs}
        self.config: TaskConfig = task_config(self._kwargs)
        self.render_mode = render_mode
        self._blueprint = Blueprint(self.config)
        self._episode = Episode(self._blueprint)
        self._renderer: Renderer | None = None
        self.observation_space = self._blueprint.observations.space
        self.action_space = self._blueprint.actions.space

    # -- the Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        info = self._episode.reset(instance_seed(self.np_random, self.config, seed, options or {}))
        return self._episode.observe(), info

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        reward, terminated, truncated, info = self._episode.step(action)
        return self._episode.observe(), reward, terminated, truncated, info

    def render(self) -> np.ndarray | str | None:
        if self.render_mode is None:
            gym.logger.warn("render() needs a render_mode: make the env with render_mode='rgb_array' or 'ansi'")
            return None
        if self._episode.actor is None:
            raise gym.error.ResetNeeded("reset the env before rendering it")
        if self.render_mode == "ansi":
            return ansi_screen(self._episode)
        if self._renderer is None:
            self._renderer = Renderer()
        return rgb_frame(self._episode, self._renderer)

    def close(self) -> None:
        self._renderer = None

    def action_masks(self) -> np.ndarray:
        """Which actions can do something on the screen now, one ``bool`` per action (per
        dimension value for a ``MultiDiscrete`` space), as sb3-contrib's ``MaskablePPO``
        asks for it; the same array as ``info["action_mask"]`` (see :mod:`cwgym.rl.masks`).

        Raises:
            ResetNeeded: before the first reset.
            ValueError: the interface's space is not discrete (``Text``, ``Box``, ``OneOf``).
        """
        if self._episode.actor is None:
            raise gym.error.ResetNeeded("reset the env before asking for its action mask")
        mask = self._episode.action_mask()
        if mask is None:
            raise ValueError(f"interface {self.config.interface!r} has no action mask: its action space is {self.action_space}")
        return mask.copy()

    # -- what the env exposes besides the API -----------------------------------------------
    @property
    def episode(self) -> Episode:
        """The owner-side :class:`~cwgym.rl.episode.Episode` this env steps: its world,
        procedure instance, element table, verification and blueprint (read-only; for the
        expert, evaluators and tests, never for an agent, which gets observations)."""
        return self._episode

    @property
    def instruction(self) -> str:
        """The current instance's instruction (after a reset)."""
        if self._episode.instance is None:
            raise gym.error.ResetNeeded("reset the env first")
        return self._episode.instance.instruction

    @property
    def world_name(self) -> str:
        """The name of the world definition the env runs in."""
        return self._blueprint.world_name

    @property
    def machine(self) -> str:
        """The machine the agent's session acts on."""
        return self._blueprint.machine

    @property
    def action_codec(self) -> Any:
        """The codec turning this env's actions into envelopes (its parts and families)."""
        return self._blueprint.actions

    def state_hash(self) -> str:
        """The world's state hash now: what a replay of the same actions must reach."""
        if self._episode.actor is None:
            raise gym.error.ResetNeeded("reset the env first")
        return self._episode.world.state_hash()

    # -- pickling -------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {
            "kwargs": self._kwargs,
            "render_mode": self.render_mode,
            "np_random": self._np_random,
            "np_random_seed": self._np_random_seed,
            "spec": self.spec,
            "episode": self._episode.state(),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        kwargs = dict(state["kwargs"])
        self.__init__(kwargs.pop("procedure"), render_mode=state["render_mode"], **kwargs)
        self._np_random = state["np_random"]
        self._np_random_seed = state["np_random_seed"]
        self.spec = state["spec"]
        if state["episode"] is not None:
            self._episode.resume(state["episode"])

    def __repr__(self) -> str:
        return f"<ComputerEnv {self.spec.id if self.spec else self.config.procedure}>"
