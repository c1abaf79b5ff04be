"""Incremental frames are byte-identical to full renders, over many random small edits.

The edits come from ``edits.edit`` with a fixed local ``random.Random(seed)``, so every
run sees the same sequence of scenes.
"""

from __future__ import annotations

import random

import msgspec
import pytest
import render_scenes
from edits import edit

from cwgym.render import Renderer, render_scene
from cwgym.scene import Backdrop, Box, Rect, Scene, SceneBuilder, Shadow, Text, UiText

CASES = [
    ("desktop", 1280, 800, 1),
    ("desktop", 84, 84, 2),
    ("desktop", 320, 240, 3),
    ("primitives", 320, 240, 4),
    ("primitives", 1280, 800, 5),
    ("clips", 320, 240, 6),
    ("transforms", 320, 240, 7),
    ("translucent", 320, 240, 8),
    ("text", 84, 84, 9),
]


@pytest.mark.parametrize(("name", "width", "height", "seed"), CASES)
def test_incremental_frames_equal_full_renders_over_random_edits(name, width, height, seed):
    rng = random.Random(seed)
    scene = render_scenes.build(name, width, height)
    renderer = Renderer()
    assert renderer.render(scene) == render_scene(scene)
    modes = []
    for step in range(40):
        scene = edit(scene, rng, step)
        assert renderer.render(scene) == render_scene(scene), (
            f"step {step}: {renderer.last_mode} {renderer.last_damage}"
        )
        modes.append(renderer.last_mode)
    assert modes.count("partial") >= len(modes) // 2


def _terminal(lines: list[str]) -> Scene:
    b = SceneBuilder(400, 240, background=(40, 40, 40, 255))
    b.paint(Shadow((0, 0, 0, 160), 18, 0, 6, 0, 12), Rect(20, 20, 360, 200), key="shadow")
    b.paint(Box((23, 20, 33, 255)), Rect(20, 20, 360, 200), key="screen")
    for k, line in enumerate(lines):
        b.paint(
            Text(line, 14, (220, 220, 220, 255), "mono"),
            Rect(28, 28 + 18 * k, 340, 17),
            key=("line", k),
        )
    return b.finish()


def test_a_keystroke_repaints_only_its_line():
    renderer = Renderer()
    renderer.render(_terminal(["$ ls", "a b c", "$ ec"]))
    after = _terminal(["$ ls", "a b c", "$ ech"])
    frame = renderer.render(after)
    assert renderer.last_mode == "partial"
    assert renderer.last_damage == [Rect(28, 28 + 36, 340, 17)]
    assert frame == render_scene(after)


def test_an_unchanged_scene_returns_the_cached_frame():
    renderer = Renderer()
    scene = _terminal(["$ ls"])
    first = renderer.render(scene)
    assert renderer.render(scene) is first and renderer.last_mode == "cached"
    assert renderer.render(_terminal(["$ ls"])) is first  # equal content, new object


def test_a_changed_old_scene_cannot_fool_the_cache():
    renderer = Renderer()
    scene = _terminal(["$ ls", "one"])
    renderer.render(scene)
    # the caller reuses and edits the same scene object (and re-stamps it, as Scene requires)
    scene.nodes[-1] = msgspec.structs.replace(
        scene.nodes[-1], primitive=Text("two", 14, (220, 220, 220, 255), "mono")
    )
    scene.stamp()
    assert renderer.render(scene) == render_scene(scene)
    assert renderer.last_mode == "partial"


def test_resize_background_and_reordering_render_in_full():
    renderer = Renderer()
    renderer.render(_terminal(["x"]))
    bigger = render_scenes.scale_scene(_terminal(["x"]), 200, 120)
    assert renderer.render(bigger) == render_scene(bigger) and renderer.last_mode == "full"
    assert len(renderer.render(bigger)) == 200 * 120 * 4

    a = SceneBuilder(100, 50, background=(0, 0, 0, 255))
    a.paint(Box((255, 0, 0, 255)), Rect(0, 0, 60, 50), key="red")
    a.paint(Box((0, 0, 255, 255)), Rect(40, 0, 60, 50), key="blue")
    first = a.finish()
    renderer.render(first)
    swapped = Scene(
        100,
        50,
        (0, 0, 0, 255),
        nodes=[msgspec.structs.replace(n, revision=0) for n in reversed(first.nodes)],
    )
    swapped.stamp()
    assert renderer.render(swapped) == render_scene(swapped) and renderer.last_mode == "full"
    recoloured = Scene(
        100,
        50,
        (9, 9, 9, 255),
        nodes=[msgspec.structs.replace(n, revision=0) for n in swapped.nodes],
    )
    recoloured.stamp()
    assert renderer.render(recoloured) == render_scene(recoloured) and renderer.last_mode == "full"


def test_damage_under_a_blurring_backdrop_grows_to_the_whole_backdrop():
    def scene(label: str) -> Scene:
        b = SceneBuilder(300, 200, background=(255, 255, 255, 255))
        b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 150, 200), key="half")
        b.paint(UiText(label, 14, (200, 0, 0, 255)), Rect(120, 90, 60, 17), key="label")
        b.paint(Backdrop((255, 255, 255, 60), 12, 10), Rect(100, 50, 160, 100), key="glass")
        return b.finish()

    renderer = Renderer()
    renderer.render(scene("one"))
    after = scene("two")
    assert renderer.render(after) == render_scene(after)
    assert renderer.last_mode == "partial"
    assert any(r.contains_rect(Rect(100, 50, 160, 100)) for r in renderer.last_damage)


def test_shadow_edges_at_damage_borders_stay_identical():
    renderer = Renderer()
    for k in range(12):
        b = SceneBuilder(320, 200, background=(250, 250, 250, 255))
        b.paint(Shadow((0, 0, 0, 150), 16, 0, 5, 0, 10), Rect(60, 40, 200, 120), key="shadow")
        b.paint(Box((255, 255, 255, 255)), Rect(60, 40, 200, 120), key="window")
        # a small box sliding across the shadow's soft edge
        b.paint(Box((233, 84, 32, 255)), Rect(40 + 17 * k, 150 + k, 9, 9), key="dot")
        scene = b.finish()
        assert renderer.render(scene) == render_scene(scene), k


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (320, 240)])
def test_draws_called_clip_invariant_are_the_same_under_any_region_clip(width, height):
    """The one assumption a repaint makes about skia, checked on every node of the test scenes."""
    import numpy as np

    from cwgym.render.draw import Context
    from cwgym.render.painter import clear, clip_invariant, paint_node, paintable
    from cwgym.render.surface import Target

    rng = random.Random(width)
    full, part = Target(width, height), Target(width, height)
    checked = 0
    for name in sorted(render_scenes.BUILDERS):
        scene = render_scenes.build(name, width, height)
        for node, area in paintable(scene.painted(), scene.viewport):
            if not clip_invariant(node):
                continue
            clear(full.canvas, (90, 60, 30, 255))
            paint_node(Context(full), node, area)
            for _ in range(3):
                x0, y0 = rng.randrange(area.x, area.right), rng.randrange(area.y, area.bottom)
                region = Rect(
                    x0,
                    y0,
                    rng.randrange(1, area.right - x0 + 1),
                    rng.randrange(1, area.bottom - y0 + 1),
                )
                clear(part.canvas, (90, 60, 30, 255))
                paint_node(Context(part), node, area, region)
                ys, xs = slice(region.y, region.bottom), slice(region.x, region.right)
                assert np.array_equal(part.pixels[ys, xs], full.pixels[ys, xs]), (
                    name,
                    node.primitive,
                )
                checked += 1
    assert checked > 300


def test_a_change_that_paints_nothing_keeps_the_frame():
    from cwgym.scene import Focus, Keyboard

    def scene(route: str) -> Scene:
        b = SceneBuilder(100, 50)
        b.paint(Box((255, 0, 0, 255)), Rect(0, 0, 50, 50), key="button")
        b.set_focus(Focus(keyboard=Keyboard(route=route)))
        return b.finish()

    renderer = Renderer()
    first = renderer.render(scene("none"))
    assert renderer.render(scene("panel")) is first  # only the focus record changed
    assert renderer.last_mode == "partial" and renderer.last_damage == []


def test_a_failed_frame_does_not_poison_the_next_one():
    from cwgym.scene import Image

    good = _terminal(["$ ls"])
    b = SceneBuilder(400, 240, background=(40, 40, 40, 255))
    b.paint(Image(2, 2, b"\x00" * 3), Rect(0, 0, 2, 2))
    renderer = Renderer()
    renderer.render(good)
    with pytest.raises(ValueError):
        renderer.render(b.finish())
    assert renderer.render(_terminal(["$ ls -l"])) == render_scene(_terminal(["$ ls -l"]))
