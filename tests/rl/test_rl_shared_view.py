"""The RL layer reads the scene cache's own semantic view (Runtime.peek) instead of a fresh
copy each step: what it reads equals the actor's fresh view, the same screen gives the same
object, and nothing an agent receives in ``info`` is that shared view."""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np


def _fresh_view(episode):
    runtime = episode.world.runtime
    return runtime.observe(runtime.session(episode.actor.id))["channels"]["semantic.v1"][episode.blueprint.machine]


def test_the_peeked_view_equals_a_fresh_one_and_is_kept_while_the_screen_stays():
    env = gym.make("cwgym/easy-rename-file-v1")
    episode = env.unwrapped._episode
    runtime = episode.world.runtime
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=2)
    kept = 0
    for _ in range(40):
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(100)))
            continue
        view = episode.semantic_view()
        assert view == _fresh_view(episode)
        again = runtime.peek(runtime.session(episode.actor.id))["channels"]["semantic.v1"][episode.blueprint.machine]
        assert again is view  # the same screen: the cache's one projection
        kept += 1
    assert kept > 10


def test_changing_info_rows_leaves_the_shared_view_and_later_steps_alone():
    env = gym.make("cwgym/easy-rename-file-v1")
    episode = env.unwrapped._episode
    _, info = env.reset(seed=4)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    view = episode.semantic_view()
    before = copy.deepcopy(view)
    labels = [row["label"] for row in info["elements"]]
    for row in info["elements"]:  # an agent scribbling over what it was given
        row["label"] = "scribbled"
        row["bounds"]["x"] = -1
    assert view == before
    assert [row["label"] for row in episode.table.rows] == labels
    # a step that leaves the screen as it was reads the same view: its rows are untouched
    _, _, _, _, again = env.step(env.action_space.n - 1 if hasattr(env.action_space, "n") else 0)
    if episode.semantic_view() is view:
        assert [row["label"] for row in again["elements"]] == labels
    assert all(row["label"] != "scribbled" and row["bounds"]["x"] >= 0 for row in again["elements"])


def test_the_actor_still_gets_its_own_copy():
    env = gym.make("cwgym/easy-rename-file-v1")
    episode = env.unwrapped._episode
    env.reset(seed=6)
    mine = episode.actor.observe()["channels"]["semantic.v1"][episode.blueprint.machine]
    shared = episode.world.runtime.peek(episode.world.runtime.session(episode.actor.id))["channels"]["semantic.v1"][
        episode.blueprint.machine
    ]
    assert mine == shared and mine is not shared
    assert all(a is not b and a["bounds"] is not b["bounds"] for a, b in zip(mine["elements"], shared["elements"]))
    mine["elements"][0]["bounds"]["x"] = -5
    assert shared["elements"][0]["bounds"]["x"] != -5
