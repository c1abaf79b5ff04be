"""Node ids: content digests of a window and a painter's key, memoized only when that is safe."""

from __future__ import annotations

import random

from cwgym.kernel.digest import u64
from cwgym.scene import Box, Node, Rect, RoundedClip, Transform, node_id


def test_node_ids_are_the_digest_of_the_key_whether_memoized_or_not():
    for window, key in [(None, "wallpaper"), (3, ("row", "a.txt")), (3, ("row", 1)), (3, ("row", True)), (3, ["row", 1]), (3, ("row", 1.0))]:
        assert node_id(window, key) == node_id(window, key) == u64(("cwgym.scene.node", window, key))
    # equal under ==, different keys: the memo never answers one for the other
    assert node_id(3, ("row", 1)) != node_id(3, ("row", True)) != node_id(3, ("row", 1.0))


def test_visible_bounds_is_the_transformed_bounds_cut_by_each_clip_in_turn():
    rng = random.Random(5)

    def rect():
        return Rect(rng.randrange(-50, 300), rng.randrange(-50, 300), rng.randrange(-5, 200), rng.randrange(-5, 200))

    for i in range(3000):
        t = rng.choice([Transform.translate(rng.randrange(-40, 40), rng.randrange(-40, 40)), Transform.scale(rng.randrange(200, 3000), rng.randrange(200, 3000))])
        clip = rect() if rng.random() < 0.6 else None
        rc = RoundedClip(*(lambda r: (r.x, r.y, r.width, r.height))(rect()), 4) if rng.random() < 0.3 else None
        viewport = rect() if rng.random() < 0.7 else None
        n = Node(id=i + 1, bounds=rect(), primitive=Box((0, 0, 0, 255)), transform=t, clip=clip, rounded_clip=rc)
        expected = t.map_rect(n.bounds)
        for c in (clip, rc.rect if rc is not None else None, viewport):
            if expected is not None and c is not None:
                expected = expected.intersect(c)
        assert n.visible_bounds(viewport) == expected
