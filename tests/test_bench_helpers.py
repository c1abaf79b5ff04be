"""The benchmarks' random valid actions cover every kind of action interface."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from benchmarks.bench_rl import valid_choice


@pytest.mark.parametrize(("env_id", "parts"), [
    ("cwgym/easy-close-window-v1", 1),  # one click codec, not a flat combination
    ("cwgym/easy-rename-file-v1", 4),  # click + double click + keys + type-token
])
def test_valid_choices_stay_inside_each_part_the_screen_offers(env_id, parts):
    env = gym.make(env_id)
    codec = env.unwrapped._blueprint.actions
    rng = np.random.default_rng(0)
    picks = {valid_choice(codec, 10, rng) for _ in range(400)}
    assert all(env.action_space.contains(p) for p in picks)
    offsets = getattr(codec, "offsets", [0])
    assert len(offsets) == parts
    assert {max(o for o in offsets if o <= p) for p in picks} == set(offsets)  # every part is used
