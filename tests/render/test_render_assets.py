"""The asset registry: every name draws something of its own and is documented."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import render_scenes
import skia

from cwgym.render import ASSET_NAMES, asset_kind, draw_asset, is_known, unknown_assets
from cwgym.render.assets import ICON_NAMES, SYMBOL_NAMES, describe, draw_placeholder
from cwgym.render.surface import Target
from cwgym.scene import AssetImage, Rect, SceneBuilder, Symbol

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rendering.md"
REQUIRED = {
    "terminal", "calendar", "settings", "trash", "close", "minimize", "maximize", "search", "chevron-down",
    "chevron-up", "chevron-left", "chevron-right", "folder", "file", "app-grid", "wifi",
    "volume", "battery", "power", "wallpaper",
}  # fmt: skip


def _draw(name: str, color=None, size: int = 48) -> np.ndarray:
    target = Target(size, size)
    target.canvas.clear(skia.Color4f(0, 0, 0, 0))
    draw_asset(target.canvas, name, size, size, color)
    return target.pixels.copy()


def test_application_icons_are_the_desktop_themes_not_assets():
    # one icon set per application id: the theme's primitives (cwgym.desktop.icons)
    assert set(ICON_NAMES) == {"avatar", "file", "folder", "trash"}
    for app in ("browser", "files", "editor", "calculator", "notes", "photos"):
        assert not is_known(app)


def test_the_names_the_desktop_needs_are_registered():
    assert set(ASSET_NAMES) >= REQUIRED
    assert list(ASSET_NAMES) == sorted(set(ASSET_NAMES))
    assert set(ICON_NAMES) | set(SYMBOL_NAMES) | {"wallpaper"} == set(ASSET_NAMES)


@pytest.mark.parametrize("name", ASSET_NAMES)
def test_every_asset_draws_something_that_is_not_the_placeholder(name):
    pixels = _draw(name)
    covered = (pixels[:, :, 3] > 0).sum()
    assert covered > 48 * 48 // 40, name
    placeholder = Target(48, 48)
    placeholder.canvas.clear(skia.Color4f(0, 0, 0, 0))
    draw_placeholder(placeholder.canvas, 48, 48)
    assert not np.array_equal(pixels, placeholder.pixels)
    assert is_known(name) and asset_kind(name) in ("icon", "symbol", "wallpaper") and describe(name)


@pytest.mark.parametrize("name", ASSET_NAMES)
def test_every_asset_name_is_documented(name):
    assert f"`{name}`" in DOCS.read_text()


def test_assets_are_distinct_drawings():
    seen = {}
    for name in ASSET_NAMES:
        key = _draw(name).tobytes()
        assert key not in seen, f"{name} draws the same as {seen.get(key)}"
        seen[key] = name


def test_a_colour_makes_a_symbol_or_a_silhouette_of_that_colour():
    for name in ("close", "terminal", "wallpaper"):
        pixels = _draw(name, (10, 200, 30, 255))
        opaque = pixels[pixels[:, :, 3] == 255]
        assert len(opaque) and (opaque[:, :3] == (10, 200, 30)).all()


def test_unknown_names_draw_a_placeholder_and_are_reported():
    b = SceneBuilder(100, 50)
    b.paint(AssetImage("no-such-icon"), Rect(0, 0, 40, 40))
    b.paint(Symbol("no-such-symbol", (255, 255, 255, 255)), Rect(50, 0, 40, 40))
    b.paint(AssetImage("folder"), Rect(0, 0, 40, 40))
    scene = b.finish()
    assert unknown_assets(scene) == ["no-such-icon", "no-such-symbol"]
    assert unknown_assets(scene.nodes[2:]) == []
    assert (_draw("no-such-icon")[:, :, 3] == 255).all()


@pytest.mark.parametrize("name", sorted(render_scenes.BUILDERS))
def test_the_test_scenes_use_only_known_assets(name):
    assert unknown_assets(render_scenes.build(name)) == []
