"""The builder: groups compose transforms, clips, z and opacity; ids come from keys."""

from __future__ import annotations

import pytest

from cwgym.scene import Box, Rect, RoundedClip, SceneBuilder, Transform, node_id


def test_groups_nest():
    b = SceneBuilder(500, 500)
    with b.group(
        window=2,
        transform=Transform.translate(100, 100),
        clip=Rect(100, 100, 200, 200),
        z=10,
        opacity=128,
    ):
        with b.group(
            transform=Transform.translate(5, 5),
            clip=Rect(0, 0, 150, 150),
            z=1,
            rounded_clip=RoundedClip(0, 0, 150, 150, 4),
        ):
            n = b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 10, 10), key="k", z=2)
        m = b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 10, 10), key="m", window=None)
    assert n.window == 2 and n.id == node_id(2, "k")
    assert n.transform == Transform.translate(105, 105)
    assert n.clip == Rect(100, 100, 50, 50)
    assert n.z == 13 and n.opacity == 128
    assert n.rounded_clip == RoundedClip(0, 0, 150, 150, 4)
    assert n.screen_bounds() == Rect(105, 105, 10, 10)
    assert m.window is None and m.id == node_id(None, "m") and m.rounded_clip is None


def test_disjoint_nested_clips_hide_everything():
    b = SceneBuilder(100, 100)
    with b.group(clip=Rect(0, 0, 10, 10)), b.group(clip=Rect(50, 50, 10, 10)):
        n = b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 100, 100), interaction="x")
    s = b.finish()
    assert n.clip.empty
    assert s.hit_test(55, 55) is None and s.reachable_point(n.id) is None


def test_auto_keys_and_duplicates():
    b = SceneBuilder(100, 100)
    a = b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 1, 1))
    c = b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 1, 1))
    assert a.id != c.id and a.id == node_id(None, ("#", 0))
    b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 1, 1), key="same")
    with pytest.raises(ValueError, match="duplicate"):
        b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 1, 1), key="same")


def test_finish_stamps():
    b = SceneBuilder(100, 100)
    b.paint(Box((0, 0, 0, 255)), Rect(0, 0, 1, 1))
    s = b.finish()
    assert s.digest and s.nodes[0].revision
