"""The repaint cache on a web task's resets: a scene composed through the warm cache (the
layout kept from another viewport, chunks kept from earlier resets) is the scene a cold
cache composes, after the page, the window or the viewport changed."""

from __future__ import annotations

import numpy as np
import pytest

from cwgym.desktop import compositor
from cwgym.desktop.scene_cache import SCENES_KEPT, SceneCache
from cwgym.rl.env import ComputerEnv
from cwgym.rl.specs import entry

VIEWPORTS = [(320, 420), (160, 210), (84, 84)]


def _env(kind: str) -> ComputerEnv:
    return ComputerEnv(**entry(f"cwgym/web-{kind}-v0").kwargs)


def _seat(env: ComputerEnv):
    episode = env.episode
    runtime = episode.world.runtime
    return runtime.seat(runtime.session(episode.actor.id), env.machine)


def _cold(seat, width: int, height: int):
    """The scene and projection ``seat`` composes with an empty cache."""
    warm = seat.cache
    seat.cache = SceneCache()
    try:
        scene = compositor.compose(seat, width, height)
        return scene.digest, seat.cache.projection(scene)
    finally:
        seat.cache = warm


def _assert_warm_is_cold(env: ComputerEnv) -> None:
    seat = _seat(env)
    for width, height in VIEWPORTS:
        scene = compositor.compose(seat, width, height)
        assert (scene.digest, seat.cache.projection(scene)) == _cold(seat, width, height), (width, height)


def _click(env: ComputerEnv, role: str) -> None:
    rows = env.episode.table.rows
    index = next(i for i, row in enumerate(rows) if row["role"] == role)
    env.step(index)  # the flat interface's first actions click the table's rows
    row = env.episode.table.rows[index]
    assert row.get("checked") or row.get("focused"), row


@pytest.mark.parametrize("kind", ["click-checkboxes", "enter-text"])
def test_warm_cache_composes_what_a_cold_one_does_as_the_world_changes(kind: str) -> None:
    env = _env(kind)
    env.reset(seed=3)
    _assert_warm_is_cold(env)
    for seed in (4, 3, 5):  # other pages, then one the cache has seen
        env.reset(seed=seed)
        _assert_warm_is_cold(env)
    role = "checkbox" if kind == "click-checkboxes" else "textbox"
    _click(env, role)  # the page's state: a box ticked, a field focused
    _assert_warm_is_cold(env)
    seat = _seat(env)
    seat.close(seat.desk.windows[0])  # the window: the page goes, the kiosk shows its bare screen
    assert not seat.desk.windows
    _assert_warm_is_cold(env)


def test_observations_after_warm_resets_are_those_of_a_fresh_env() -> None:
    warm = _env("click-button")
    for seed in range(6):
        warm.reset(seed=seed)
    for seed in (2, 9):
        obs, info = warm.reset(seed=seed)
        fresh_obs, fresh_info = _env("click-button").reset(seed=seed)
        assert obs.keys() == fresh_obs.keys()
        for key in obs:
            np.testing.assert_array_equal(obs[key], fresh_obs[key])
        np.testing.assert_array_equal(info.pop("action_mask"), fresh_info.pop("action_mask"))
        assert info == fresh_info
        assert warm.state_hash() == _env_hash("click-button", seed)


def _env_hash(kind: str, seed: int) -> str:
    env = _env(kind)
    env.reset(seed=seed)
    return env.state_hash()


def test_layouts_are_bounded_and_keyed_by_state() -> None:
    env = _env("click-button")
    env.reset(seed=0)
    seat = _seat(env)
    for seed in range(SCENES_KEPT + 8):
        env.reset(seed=seed)
        compositor.compose(seat, *VIEWPORTS[1])
    assert len(seat.cache.layouts) == SCENES_KEPT
    assert 1 <= len(seat.cache.shells) <= SCENES_KEPT


def test_a_desktop_shell_composes_its_new_view_at_every_viewport() -> None:
    """On a desktop theme the shell's view (its dock's running marks, the focused window's
    title) changes as windows open: the layout kept for one state is never another's."""
    env = ComputerEnv(**entry("cwgym/easy-rename-file-v1").kwargs)
    env.reset(seed=1)
    seat = _seat(env)
    viewports = [seat.native, (640, 400)]
    for app in ("files", "editor", "terminal"):
        for width, height in viewports:
            scene = compositor.compose(seat, width, height)
            assert (scene.digest, seat.cache.projection(scene)) == _cold(seat, width, height), (app, width, height)
        seat.launch(app)
