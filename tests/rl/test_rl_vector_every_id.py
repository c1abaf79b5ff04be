"""Every registered id under every vector env with default arguments: Gymnasium's
``SyncVectorEnv`` and ``AsyncVectorEnv`` (shared memory on, its default) and cwgym's own
give the same observations and rewards for the same seeds and actions, so no
vectorization silently returns something else (stale text, wrong rows)."""

from __future__ import annotations

import gymnasium as gym
import pytest
from rl_kit import IDS, same, short

N, STEPS = 2, 2
KINDS = {
    "sync": {"vectorization_mode": "sync"},
    "async": {"vectorization_mode": "async"},
}


def _rollout(env_id: str, **make_kwargs) -> list:
    envs = gym.make_vec(env_id, num_envs=N, **make_kwargs)
    try:
        envs.action_space.seed(5)
        actions = [envs.action_space.sample() for _ in range(STEPS)]
        out = [envs.reset(seed=9)[0]]
        for action in actions:
            obs, reward, terminated, truncated, _ = envs.step(action)
            out.append((obs, reward, terminated, truncated))
        return out
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_gymnasiums_vector_envs_agree_with_cwgyms_for_every_id(env_id):
    expected = _rollout(env_id, vectorization_mode="vector_entry_point")
    for kind, make_kwargs in KINDS.items():
        got = _rollout(env_id, **make_kwargs)
        assert same(expected, got), f"{kind} differs from cwgym's vector env on {env_id}"


def test_some_id_has_text_observations():
    """The check above covers ``Text`` in shared memory only if some id observes text."""
    assert any(isinstance(s, gym.spaces.Text) for i in IDS for s in _leaves(gym.make(i).observation_space))


def _leaves(space):
    return [leaf for sub in space.spaces.values() for leaf in _leaves(sub)] if isinstance(space, gym.spaces.Dict) else [space]


def test_without_copies_async_text_is_a_live_view_of_the_shared_buffer():
    terminal = next(i for i in IDS if "terminal" in gym.make(i).observation_space.spaces)
    envs = gym.make_vec(terminal, num_envs=2, vectorization_mode="async", vector_kwargs={"copy": False})
    try:
        obs, _ = envs.reset(seed=3)
        view = obs["terminal"]
        before = tuple(view)
        command = '{"family": "terminal.v1", "op": "execute", "payload": {"command": "echo live-view"}}'
        envs.step((command, command))
        assert tuple(view) != before and all("live-view" in text for text in view)
        assert view[0] == view[:1][0] and len(view) == 2
    finally:
        envs.close()
