"""Vector envs: Gymnasium's sync and async ones over ComputerEnv, cwgym's in-process one and
its shared-memory variant give the same trajectories for the same seeds."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from rl_kit import same

from cwgym.environment import World
from cwgym.rl import ComputerVectorEnv, SharedMemoryVectorEnv

TERMINAL = "cwgym/terminal-ops-backup-script-v0"  # text observations
EASY = "cwgym/easy-trash-file-v1"  # Box observations only (the sb3 preset)
COMMANDS = ["ls ~/Downloads", "cat ~/Admin/backup-request.txt", "mkdir -p ~/bin", "echo 1 >> ~/crontab.txt"]


def _terminal_actions(step: int, n: int) -> tuple:
    return tuple(
        json.dumps({"family": "terminal.v1", "op": "execute", "payload": {"command": COMMANDS[(step + i) % 4]}})
        if (step + i) % 5 else "not json"
        for i in range(n)
    )


def _make(kind: str, env_id: str, n: int, **kwargs):
    if kind == "cwgym":
        return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    if kind == "cwgym-shared":
        return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", workers=2, **kwargs)
    if kind == "sync":
        return gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs)
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="async", **kwargs)  # shared memory, Text included


def _trajectory(kind: str, env_id: str, n: int, steps: int, actions, **kwargs) -> list:
    envs = _make(kind, env_id, n, **kwargs)
    try:
        out = [envs.reset(seed=21)]
        for step in range(steps):
            out.append(envs.step(actions(step, n)))
        return out
    finally:
        envs.close()


@pytest.mark.parametrize("kind", ["sync", "async", "cwgym-shared"])
def test_every_vectorization_gives_the_same_trajectories(kind):
    # max_episode_steps=4 makes episodes end so autoreset happens along the way
    expected = _trajectory("cwgym", TERMINAL, 3, 11, _terminal_actions, max_episode_steps=4)
    got = _trajectory(kind, TERMINAL, 3, 11, _terminal_actions, max_episode_steps=4)
    assert len(expected) == len(got)
    for mine, theirs in zip(expected, got):  # observations, rewards, terminations, truncations
        assert all(same(a, b) for a, b in zip(mine[:-1], theirs[:-1]))
    truncations = np.array([t[3] for t in expected[1:]])
    assert truncations.any(), "no episode ended: autoreset was not exercised"


@pytest.mark.parametrize("kind", ["sync", "async", "cwgym-shared"])
def test_box_observations_agree_with_gymnasiums_shared_memory_too(kind):
    rng = np.random.default_rng(4)
    size = gym.make(EASY).action_space.n
    table = [rng.integers(0, size, size=4) for _ in range(9)]
    expected = _trajectory("cwgym", EASY, 4, 9, lambda step, n: table[step])
    got = _trajectory(kind, EASY, 4, 9, lambda step, n: table[step])
    assert len(expected) == len(got)
    for mine, theirs in zip(expected, got):
        assert all(same(a, b) for a, b in zip(mine[:-1], theirs[:-1]))


def test_infos_agree_with_sync():
    expected = _trajectory("cwgym", TERMINAL, 2, 5, _terminal_actions, max_episode_steps=3)
    got = _trajectory("sync", TERMINAL, 2, 5, _terminal_actions, max_episode_steps=3)
    for mine, theirs in zip(expected, got):
        assert same(mine[-1], theirs[-1])


def test_the_vector_entry_point_declares_its_autoreset_mode_and_spaces():
    envs = gym.make_vec(EASY, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs, ComputerVectorEnv) and envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    single = gym.make(EASY)
    assert envs.single_observation_space == single.observation_space and envs.single_action_space == single.action_space
    obs, _ = envs.reset(seed=0)
    assert obs in envs.observation_space and obs["elements"].shape == (3, *single.observation_space["elements"].shape)
    shared = gym.make_vec(EASY, num_envs=3, vectorization_mode="vector_entry_point", workers=2)
    assert isinstance(shared, SharedMemoryVectorEnv) and shared.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    shared.close()
    shared.close()  # closing twice is harmless


def test_next_step_autoreset_returns_the_first_observation_with_reward_zero():
    envs = gym.make_vec(TERMINAL, num_envs=1, vectorization_mode="vector_entry_point", max_episode_steps=1)
    envs.reset(seed=3)
    _, _, _, truncated, _ = envs.step(_terminal_actions(1, 1))
    assert truncated[0]
    obs, reward, terminated, truncated, info = envs.step(_terminal_actions(2, 1))
    assert reward[0] == 0.0 and not terminated[0] and not truncated[0]
    assert info["outcome"]["status"][0] == "reset" and obs["terminal"] == ("",)
    envs.close()


def test_worlds_are_built_once_and_reset_by_restoring_the_template(monkeypatch):
    built = []
    original = World.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(World, "__init__", counting)
    envs = gym.make_vec(EASY, num_envs=4, vectorization_mode="vector_entry_point")
    assert len(built) == 1  # one template world; the others are forks of it
    worlds = [e.world for e in envs._batch.episodes]
    assert len({id(w) for w in worlds}) == 4
    for seed in range(3):
        envs.reset(seed=seed)
    envs.step(np.zeros(4, dtype=np.int64))
    assert len(built) == 1 and [e.world for e in envs._batch.episodes] == worlds


def test_reset_mask_resets_only_the_chosen_envs():
    envs = gym.make_vec(TERMINAL, num_envs=2, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    obs, *_ = envs.step(_terminal_actions(1, 2))
    assert obs["terminal"][0] and obs["terminal"][1]
    obs, info = envs.reset(options={"reset_mask": np.array([True, False])})
    assert obs["terminal"][0] == "" and obs["terminal"][1] != "" and info["_outcome"].tolist() == [True, False]


def test_render_returns_one_frame_per_env():
    for workers in (0, 2):
        envs = gym.make_vec(EASY, num_envs=2, vectorization_mode="vector_entry_point", workers=workers, render_mode="rgb_array")
        envs.reset(seed=0)
        frames = envs.render()
        assert len(frames) == 2 and all(f.shape == (800, 1280, 3) for f in frames)
        envs.close()
