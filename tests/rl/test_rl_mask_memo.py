"""The click-element mask is kept per screen content (cwgym.rl.masks): a kept answer is the
one a fresh hit test gives, step after step, while the screen changes and stays."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from cwgym.rl.actions import ClickElementCodec, FlatCodec
from cwgym.rl.masks import reachable_rows


def _click_part(env):
    codec = env.unwrapped.action_codec
    parts = list(zip(codec.parts, codec.offsets)) if isinstance(codec, FlatCodec) else [(codec, 0)]
    return next((p, o) for p, o in parts if isinstance(p, ClickElementCodec))


def test_the_kept_click_mask_equals_a_fresh_hit_test_every_step():
    env = gym.make("cwgym/easy-rename-file-v1")
    part, offset = _click_part(env)
    episode = env.unwrapped._episode
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=11)
    screens = set()
    for _ in range(60):
        rows = episode.table.rows
        scene = episode.world.scene(episode.actor.id, episode.config.width, episode.config.height)
        screens.add(scene.digest)
        fresh = reachable_rows(scene, [row["id"] for row in rows])
        kept = info["action_mask"][offset : offset + len(rows)]
        assert list(kept) == fresh
        assert not info["action_mask"][offset + len(rows) : offset + part.size].any()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(1000)))
    assert len(screens) > 3  # the screen changed, and the kept answers followed it
