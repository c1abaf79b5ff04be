"""A node covered whole by one blocker above it is answered without cutting its rectangle
into pieces (HitIndex._covered_whole): the quick answer is the full subtraction's, and
reachable_point finds no point exactly when no pixel of the node takes its clicks."""

from __future__ import annotations

import random

from scene_fixture import GREY, WHITE

from cwgym.scene import Box, Node, Rect, Scene, Semantic, Text, node_id
from cwgym.scene.hit import _SHIFT

SIDE = 48  # a small screen: the pixel-by-pixel reference stays cheap


def _scene(seed: int, shared: bool = True) -> Scene:
    """A random scene; with ``shared``, several nodes may carry one control's interaction."""
    rng = random.Random(seed)
    scene = Scene(SIDE, SIDE)
    for k in range(rng.randint(2, 14)):
        x, y = rng.randint(-8, SIDE), rng.randint(-8, SIDE)
        w, h = rng.randint(0, 40), rng.randint(0, 40)
        kind = rng.choice(["control", "control", "blocker", "window", "text", "disabled"])
        if kind == "window":  # a big opaque rectangle, the usual cover
            x, y, w, h = rng.randint(-4, 10), rng.randint(-4, 10), rng.randint(20, 60), rng.randint(20, 60)
        kw: dict = {"z": rng.randint(0, 6)}
        if kind in ("control", "disabled"):
            kw["interaction"] = rng.choice(["a", "b", "c", f"c{k}"]) if shared else f"c{k}"
            if kind == "disabled":
                kw["semantic"] = Semantic(role="button", label="x", disabled=True)
        primitive = Text("t", 12, WHITE) if kind == "text" else Box(GREY if kind != "control" else WHITE)
        scene.add(Node(id=node_id(None, f"n{k}"), bounds=Rect(x, y, w, h), primitive=primitive, **kw))
    return scene


def _reachable_pixels(scene: Scene, node: int) -> int:
    return sum(scene.hit_reaches(node, x, y) for x in range(SIDE) for y in range(SIDE))


def test_the_quick_answer_is_the_full_subtractions():
    quick = 0
    for seed in range(300):
        scene = _scene(seed)
        index = scene._index()
        for rec in index._by_id.values():
            if rec.interaction is None or rec.disabled:
                continue
            if index._covered_whole(rec):
                quick += 1
                # the answer without the shortcut: subtracting every blocker leaves nothing
                pieces = [Rect(rec.x0, rec.y0, rec.x1 - rec.x0, rec.y1 - rec.y0)]
                covered = False
                for other in index._by_id.values():
                    if other is rec or not other.fast:
                        continue
                    above = index._bucket((rec.y0 >> _SHIFT) * index._cols + (rec.x0 >> _SHIFT))
                    if other not in above or above.index(other) > above.index(rec):
                        continue
                    if other.opaque or (other.interaction is not None and (other.interaction != rec.interaction or other.disabled)):
                        pieces = [q for p in pieces for q in p.subtract(Rect(other.x0, other.y0, other.x1 - other.x0, other.y1 - other.y0))]
                        covered = covered or not pieces
                assert covered and index._uncovered(rec) == []
    assert quick > 20  # the scenes cover nodes whole often enough to test the shortcut


def test_reachable_point_is_none_exactly_when_no_pixel_reaches_the_node():
    # one node per control: a node under an opaque node of its own control counts that node
    # as a blocker (an over-strict answer the mask does not see: it asks every node of a row)
    for seed in range(120):
        scene = _scene(seed, shared=False)
        for n in scene.painted():
            if n.interaction is None:
                continue
            point = scene.reachable_point(n.id)
            if point is None:
                assert _reachable_pixels(scene, n.id) == 0, (seed, n.id)
            else:
                assert scene.hit_reaches(n.id, *point)


def test_a_button_behind_a_window_is_covered_and_one_beside_it_is_not():
    scene = Scene(200, 200)
    hidden = scene.add(Node(id=node_id(None, "hidden"), bounds=Rect(20, 20, 30, 10), primitive=Box(WHITE), interaction="hidden"))
    shown = scene.add(Node(id=node_id(None, "shown"), bounds=Rect(150, 20, 30, 10), primitive=Box(WHITE), interaction="shown"))
    scene.add(Node(id=node_id(None, "window"), bounds=Rect(0, 0, 120, 120), primitive=Box(GREY), z=3))
    index = scene._index()
    assert index._covered_whole(index._by_id[hidden.id])
    assert not index._covered_whole(index._by_id[shown.id])
    assert scene.reachable_point(hidden.id) is None
    assert scene.reachable_point(shown.id) == (165, 25)


def test_reaches_answers_as_reachable_point_does():
    # the mask's question, asked with the same candidates in another order: the answers agree
    # on every control, including those whose centre is covered and whose point is found later
    found_later = 0
    for seed in range(300):
        for shared in (True, False):
            scene = _scene(seed, shared=shared)
            index = scene._index()
            for n in scene.painted():
                point = scene.reachable_point(n.id)
                assert scene.reaches(n.id) is (point is not None), (seed, shared, n.id)
                rec = index._by_id.get(n.id)
                if point is not None:
                    found_later += point != (rec.x0 + (rec.x1 - rec.x0) // 2, rec.y0 + (rec.y1 - rec.y0) // 2)
    assert found_later > 20  # the scenes hide centres often enough to test the search


def _windows_scene(seed: int) -> Scene:
    """A random 240 x 240 scene of controls (some sharing an interaction) and window-sized
    opaque rectangles, large enough for :meth:`HitIndex.reaching`'s shortcut."""
    rng = random.Random(seed)
    scene = Scene(240, 240)
    for k in range(rng.randint(4, 24)):
        kw: dict = {"z": rng.randint(0, 6)}
        if rng.random() < 0.3:  # a window's background
            x, y, w, h = rng.randint(-20, 200), rng.randint(-20, 200), rng.randint(64, 180), rng.randint(64, 180)
            scene.add(Node(id=node_id(None, f"n{k}"), bounds=Rect(x, y, w, h), primitive=Box(GREY), **kw))
            continue
        x, y, w, h = rng.randint(-8, 240), rng.randint(-8, 240), rng.randint(1, 70), rng.randint(1, 70)
        kw["interaction"] = rng.choice(["a", "b", "c", f"c{k}"])
        if rng.random() < 0.1:
            kw["semantic"] = Semantic(role="button", label="x", disabled=True)
        scene.add(Node(id=node_id(None, f"n{k}"), bounds=Rect(x, y, w, h), primitive=Box(WHITE), **kw))
    return scene


def test_reaching_answers_every_control_as_reachable_point_does():
    shortcuts = 0
    for seed in range(400):
        scene = _windows_scene(seed)
        expected: dict[str, bool] = {}
        for n in scene.painted():
            if n.interaction is not None and scene._index()._by_id.get(n.id) is not None:
                expected[n.interaction] = expected.get(n.interaction, False) or scene.reachable_point(n.id) is not None
        answers = scene.reaching({"a", "b", "c", *(f"c{k}" for k in range(24))})
        assert answers == expected, seed
        index = scene._index()
        shortcuts += sum(1 for rec in index._by_id.values() if rec.interaction and index._covered_whole(rec))
    assert shortcuts > 50  # controls lie under window backgrounds often enough to test the shortcut


def test_reaching_over_parts_answers_as_one_index_does():
    """An index stacked from parts (a compositor's chunks, each walked once and shared by
    scenes) answers as ``reachable_point`` does on the same nodes; a part asked again, in
    another stack, answers from what it kept."""
    from cwgym.scene.hit import HitIndex, HitPart

    compared = 0
    for seed in range(300):
        scene = _windows_scene(seed)
        painted = scene.painted()
        rng = random.Random(seed)
        cuts = sorted(rng.sample(range(1, len(painted)), min(3, len(painted) - 1)))
        pieces = [painted[a:b] for a, b in zip([0, *cuts], [*cuts, len(painted)])]
        parts = [HitPart(piece, 240, 240) for piece in pieces]
        wanted = {"a", "b", "c", *(f"c{k}" for k in range(24))}
        whole: dict[str, bool] = {}
        for n in painted:
            if n.interaction is not None and scene._index()._by_id.get(n.id) is not None:
                whole[n.interaction] = whole.get(n.interaction, False) or scene.reachable_point(n.id) is not None
        assert HitIndex.from_parts(parts, 240, 240).reaching(wanted) == whole, seed
        assert HitIndex.from_parts(parts, 240, 240).reaching(wanted) == whole, seed  # the parts' kept walk
        if len(parts) > 1:  # the top part alone, then again under the rest
            top = HitIndex(pieces[-1], 240, 240).reaching(wanted)
            assert HitIndex.from_parts(parts[-1:], 240, 240).reaching(wanted) == top, seed
        compared += len(whole)
    assert compared > 1000


def _answers(scene: Scene) -> tuple:
    """Everything the hit index answers about ``scene``, from a fresh index."""
    scene._hits = None
    index = scene._index()
    nodes = scene.painted()
    points = [(x, y) for x in range(0, 240, 7) for y in range(0, 240, 11)]
    return (
        [scene.reachable_point(n.id) for n in nodes],
        [scene.reaches(n.id) for n in nodes],
        [index._uncovered(index._by_id[n.id]) if n.id in index._by_id else None for n in nodes],
        scene.reaching({"a", "b", "c", *(f"c{k}" for k in range(24))}),
        [scene.hit_test(x, y) for x, y in points],
        [scene.hit_stack(x, y) for x, y in points],
    )


def test_the_tile_size_changes_no_answer(monkeypatch):
    """Tiles only say where to look: 64-, 128- and 256-pixel tiles give the same points,
    pieces and hits (the pieces are cut in 64-pixel cells whatever the tiles, so the click
    points an earlier index found are kept)."""
    import cwgym.scene.hit as hit

    for seed in range(150):
        scene = _windows_scene(seed)
        expected = _answers(scene)
        for shift in (6, 8):
            monkeypatch.setattr(hit, "_SHIFT", shift)
            monkeypatch.setattr(hit, "_TILE", 1 << shift)
            assert _answers(scene) == expected, (seed, shift)
            monkeypatch.undo()
