"""Node ids: content digests of a window and a painter's key, memoized only when that is safe."""

from __future__ import annotations

from cwgym.kernel.digest import u64
from cwgym.scene import node_id


def test_node_ids_are_the_digest_of_the_key_whether_memoized_or_not():
    for window, key in [(None, "wallpaper"), (3, ("row", "a.txt")), (3, ("row", 1)), (3, ("row", True)), (3, ["row", 1]), (3, ("row", 1.0))]:
        assert node_id(window, key) == node_id(window, key) == u64(("cwgym.scene.node", window, key))
    # equal under ==, different keys: the memo never answers one for the other
    assert node_id(3, ("row", 1)) != node_id(3, ("row", True)) != node_id(3, ("row", 1.0))
