"""Helpers the rl tests share: the registered ids (read from the suite files, no env built),
a policy of random actions that are well-formed for every interface, and rollouts."""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import data_equivalence

import cwgym.rl  # noqa: F401  (registers the envs)
from cwgym.rl.specs import load_suites

ENTRIES = load_suites()
IDS = [e.id for e in ENTRIES]
BY_ID = {e.id: e for e in ENTRIES}


def ids(suite: str | None = None) -> list[str]:
    return [e.id for e in ENTRIES if suite is None or e.suite == suite]


def short(env_id: str) -> str:
    return env_id.removeprefix("cwgym/")


_TEXT_ACTIONS = (
    {"family": "pointer.v1", "op": "click", "payload": {"x": 34, "y": 129}},
    {"family": "pointer.v1", "op": "double_click", "payload": {"x": 640, "y": 400}},
    {"family": "keyboard.v1", "op": "key", "payload": {"key": "Enter"}},
    {"family": "keyboard.v1", "op": "type", "payload": {"text": "hello"}},
    {"family": "terminal.v1", "op": "execute", "payload": {"command": "ls ~"}},
    {"family": "terminal.v1", "op": "execute", "payload": {"command": "echo x >> ~/notes.txt"}},
    {"family": "filesystem.v1", "op": "read", "payload": {"path": "notes.txt"}},
)


class RandomPolicy:
    """Seeded random actions: samples of the space, or for a JSON interface, envelopes of
    the families it takes (and now and then malformed text)."""

    def __init__(self, env: gym.Env, seed: int = 0) -> None:
        self.env = env
        self.rng = np.random.default_rng(seed)
        self.env.action_space.seed(seed)
        families = env.unwrapped._blueprint.actions.families
        self.text = [json.dumps(a) for a in _TEXT_ACTIONS if a["family"] in families] + ["{not json", "[]"]

    def __call__(self) -> Any:
        if isinstance(self.env.action_space, gym.spaces.Text):
            return self.text[self.rng.integers(len(self.text))]
        return self.env.action_space.sample()


def rollout(env: gym.Env, seed: int, actions: list[Any]) -> list[tuple]:
    """``reset(seed)`` then the actions (resetting after an episode ends); every result."""
    out: list[tuple] = [env.reset(seed=seed)]
    for action in actions:
        result = env.step(action)
        out.append(result)
        if result[2] or result[3]:
            out.append(env.reset())
    return out


def same(a: Any, b: Any) -> bool:
    return data_equivalence(a, b, exact=True)


def mask_allows(mask: np.ndarray, space: gym.spaces.Space, action: Any) -> bool:
    """Whether an action mask (``info["action_mask"]``) lets ``action`` of ``space`` through:
    its index for ``Discrete``, each dimension's value for ``MultiDiscrete`` (the
    dimensions' masks concatenated, as sb3-contrib reads them)."""
    if isinstance(space, gym.spaces.Discrete):
        return bool(mask[int(action)])
    offsets = np.concatenate([[0], np.cumsum(space.nvec)[:-1]])
    return all(mask[offset + int(value)] for offset, value in zip(offsets, np.asarray(action).reshape(-1)))
