"""Pointer hit testing: z-order, clips, transforms, disabled controls, occlusion."""

from __future__ import annotations

from itertools import pairwise

from scene_fixture import BLACK, GREY, WHITE, desktop_scene

from cwgym.scene import (
    AssetImage,
    Box,
    Node,
    Rect,
    Region,
    RoundedBox,
    RoundedClip,
    Scene,
    Semantic,
    Text,
    Transform,
    UiText,
    node_id,
)
from cwgym.scene.hit import HitPart


def node(key, bounds, prim, **kw) -> Node:
    return Node(id=node_id(None, key), bounds=bounds, primitive=prim, **kw)


def ids(scene, stack):
    return [scene.node(h.node) for h in stack]


def test_topmost_window_wins_where_windows_overlap():
    s = desktop_scene()
    # window 1's OK button lies at (310..390, 240..264); window 0's frame is below it
    hit = s.hit_test(320, 250)
    assert hit is not None and hit.interaction == "window:1:content:ok"
    # the label painted over the button carries the same interaction
    assert s.hit_test(316, 246).interaction == "window:1:content:ok"
    # window 0's OK button is not covered
    assert s.hit_test(115, 125).interaction == "window:0:content:ok"


def test_opaque_non_interactive_node_blocks_what_is_below():
    s = desktop_scene()
    # window 0's close button is at (478..494, 86..102): uncovered
    assert s.hit_test(485, 90).interaction == "window:0:close"
    # a frame point of window 1 above window 0's body: the frame is opaque, no control
    assert s.hit_test(450, 290) is None
    stack = s.hit_stack(450, 290)
    assert stack[0].window == 1 and stack[0].opaque and not stack[0].interactive
    assert any(h.window == 0 for h in stack[1:]), "covered nodes are still listed"


def test_hit_stack_is_topmost_first_with_flags():
    s = desktop_scene()
    stack = s.hit_stack(316, 246)
    zs = [h.z for h in stack]
    assert zs == sorted(zs, reverse=True)
    top = stack[0]
    assert top.interaction == "window:1:content:ok" and top.interactive and not top.opaque
    assert stack[1].interaction == "window:1:content:ok" and stack[1].opaque  # white button box
    assert stack[-1].node == node_id(None, "wallpaper")
    assert s.hit_stack(-1, 5) == [] and s.hit_stack(800, 5) == []


def test_disabled_control_receives_no_hit_and_blocks():
    s = desktop_scene()
    assert s.hit_test(30, 90) is None  # disabled "Files" launcher
    assert [h.disabled for h in s.hit_stack(30, 90)][:1] == [True]
    files = s.find("shell:launch:files")[0]
    assert s.reachable_point(files.id) is None
    assert not s.hit_reaches(files.id, 30, 90)


def test_clip_limits_hits_in_world_space():
    s = Scene(200, 200)
    inside = s.add(
        node("btn", Rect(0, 0, 100, 100), Region(), interaction="a", clip=Rect(0, 0, 50, 50))
    )
    assert s.hit_test(10, 10) is inside
    assert s.hit_test(60, 10) is None
    assert s.reachable_point(inside.id) == (25, 25)  # centre of the visible part


def test_rounded_clip_corner_misses():
    s = Scene(100, 100)
    s.add(
        node(
            "r",
            Rect(0, 0, 40, 40),
            RoundedBox(WHITE, 20),
            interaction="round",
            rounded_clip=RoundedClip(0, 0, 40, 40, 20),
        )
    )
    assert s.hit_test(20, 20).interaction == "round"
    assert s.hit_test(1, 1) is None


def test_transformed_nodes_hit_in_screen_space():
    s = Scene(400, 400)
    moved = s.add(
        node(
            "m",
            Rect(0, 0, 20, 10),
            Region(),
            interaction="m",
            transform=Transform.translate(100, 100),
        )
    )
    scaled = s.add(
        node(
            "s",
            Rect(0, 0, 10, 10),
            Region(),
            interaction="s",
            transform=Transform.scale(2048, 2048, 200, 0),
        )
    )
    rotated = s.add(
        node(
            "r",
            Rect(0, 0, 20, 10),
            Region(),
            interaction="r",
            transform=Transform(0, 1024, -1024, 0, 300, 300),
        )
    )
    assert s.hit_test(105, 105) is moved and s.hit_test(5, 5) is None
    assert s.hit_test(219, 19) is scaled and s.hit_test(220, 5) is None
    # rotated 90°: local x runs down the screen, local y runs left
    assert s.hit_test(295, 315) is rotated
    assert s.hit_test(305, 305) is None
    assert s.hit_reaches(rotated.id, *s.reachable_point(rotated.id))


def test_text_and_icons_let_clicks_through():
    s = Scene(100, 100)
    below = s.add(node("btn", Rect(0, 0, 50, 50), Box(WHITE), interaction="b", z=0))
    s.add(node("label", Rect(0, 0, 50, 50), Text("hello", 12, BLACK), z=1))
    s.add(node("icon", Rect(0, 0, 50, 50), AssetImage("x"), z=2))
    assert s.hit_test(10, 10) is below
    s.add(node("sheet", Rect(0, 0, 20, 20), Box(GREY), z=3))
    assert s.hit_test(10, 10) is None
    assert s.hit_test(30, 30) is below
    s.add(node("glass", Rect(20, 20, 20, 20), Box((0, 0, 0, 0)), z=3))  # fully transparent
    assert s.hit_test(30, 30) is below


def test_equal_z_uses_insertion_order():
    s = Scene(100, 100)
    s.add(node("first", Rect(0, 0, 50, 50), Region(), interaction="first"))
    s.add(node("second", Rect(0, 0, 50, 50), Region(), interaction="second"))
    assert s.hit_test(5, 5).interaction == "second"
    s.add(node("under", Rect(0, 0, 50, 50), Region(), interaction="under", z=-1))
    assert s.hit_test(5, 5).interaction == "second"


def test_reachable_point_none_when_fully_covered():
    s = Scene(300, 300)
    btn = s.add(node("btn", Rect(10, 10, 100, 40), Box(WHITE), interaction="btn"))
    s.add(node("cover", Rect(0, 0, 200, 200), Box(GREY), z=5))
    assert s.reachable_point(btn.id) is None
    assert s.hit_stack(50, 30)[1].node == btn.id


def test_reachable_point_lands_in_exposed_part():
    s = Scene(300, 300)
    btn = s.add(node("btn", Rect(10, 10, 100, 40), Box(WHITE), interaction="btn"))
    s.add(node("cover", Rect(0, 0, 80, 200), Box(GREY), z=5))
    pt = s.reachable_point(btn.id)
    assert pt is not None
    x, y = pt
    assert 80 <= x < 110 and 10 <= y < 50
    assert s.hit_test(x, y) is btn and s.hit_reaches(btn.id, x, y)


def test_reachable_point_finds_a_sliver_between_grid_samples():
    s = Scene(300, 300)
    btn = s.add(node("btn", Rect(0, 0, 160, 160), Box(WHITE), interaction="btn"))
    # everything but a 2-pixel column at x = 3..4 is covered: no grid point lands there
    s.add(node("c1", Rect(0, 0, 3, 160), Box(GREY), z=1))
    s.add(node("c2", Rect(5, 0, 155, 160), Box(GREY), z=1))
    pt = s.reachable_point(btn.id)
    assert pt is not None and pt[0] in (3, 4)
    assert s.hit_reaches(btn.id, *pt)


def test_reachable_point_is_deterministic_and_centre_first():
    s = desktop_scene()
    ok = s.find("window:1:content:ok")[0]
    assert s.reachable_point(ok.id) == (350, 252)
    assert s.reachable_point(ok.id) == desktop_scene().reachable_point(ok.id)


def test_reachable_point_none_for_inert_or_offscreen():
    s = Scene(100, 100)
    inert = s.add(node("t", Rect(0, 0, 10, 10), UiText("x", 10, BLACK)))
    off = s.add(node("o", Rect(200, 200, 10, 10), Region(), interaction="o"))
    assert s.reachable_point(inert.id) is None
    assert s.reachable_point(off.id) is None
    assert s.reachable_point(12345) is None


def test_hit_reaches_requires_point_on_the_node():
    s = Scene(100, 100)
    a = s.add(node("a", Rect(0, 0, 10, 10), Region(), interaction="x"))
    s.add(node("b", Rect(50, 50, 10, 10), Region(), interaction="x"))
    assert s.hit_reaches(a.id, 5, 5)
    assert not s.hit_reaches(a.id, 55, 55)  # same control, but not this node


def test_disabled_semantic_on_non_hit_node():
    s = Scene(100, 100)
    s.add(
        node(
            "btn",
            Rect(0, 0, 50, 50),
            Box(WHITE),
            interaction="b",
            semantic=Semantic("button", "B", disabled=True),
        )
    )
    assert s.hit_test(5, 5) is None


def test_index_rebuilt_after_add():
    s = Scene(100, 100)
    assert s.hit_test(5, 5) is None
    n = s.add(node("late", Rect(0, 0, 10, 10), Region(), interaction="late"))
    assert s.hit_test(5, 5) is n


def test_points_outside_the_viewport_hit_nothing():
    s = Scene(100, 100)
    s.add(node("big", Rect(-50, -50, 300, 300), Region(), interaction="big"))
    assert s.hit_test(50, 50).interaction == "big"
    assert (
        s.hit_test(-1, 50) is None and s.hit_test(100, 50) is None and s.hit_test(50, 100) is None
    )
    assert s.visible_bounds(node_id(None, "big")) == Rect(0, 0, 100, 100)


def test_duplicate_ids_are_refused():
    import pytest

    s = Scene(100, 100)
    s.add(node("a", Rect(0, 0, 1, 1), Region()))
    with pytest.raises(ValueError, match="duplicate"):
        s.add(node("a", Rect(0, 0, 1, 1), Region()))
    s.nodes.append(node("a", Rect(0, 0, 1, 1), Region()))  # bypassing add
    with pytest.raises(ValueError, match="duplicate"):
        s.stamp()


class _Piece:
    """A run of nodes the way a compositor chunk carries them."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.hits = None


def _answers(scene, points):
    """Everything the pointer queries say about a scene, for comparing two indexes."""
    out = [(scene.hit_test(x, y), scene.hit_stack(x, y)) for x, y in points]
    for n in scene.painted():
        out.append((n.id, scene.reachable_point(n.id), scene.visible_bounds(n.id)))
    return out


def test_an_index_stacked_from_pieces_answers_as_the_whole_scene():
    whole = desktop_scene()
    painted = whole.painted()
    points = [(x, y) for x in range(0, whole.width, 7) for y in range(0, whole.height, 11)]
    expected = _answers(whole, points)
    cuts = [0, len(painted) // 3, len(painted) // 3, 2 * len(painted) // 3, len(painted)]
    pieces = [_Piece(painted[a:b]) for a, b in pairwise(cuts)]
    stacked = Scene(whole.width, whole.height, nodes=painted)
    assert stacked.composed_of(pieces)
    assert _answers(stacked, points) == expected
    assert all(p.hits is not None for p in pieces if p.nodes)  # measured once, kept on the piece


def test_pieces_out_of_painter_order_or_incomplete_are_ignored():
    whole = desktop_scene()
    painted = whole.painted()
    half = len(painted) // 2
    scene = Scene(whole.width, whole.height, nodes=painted)
    assert not scene.composed_of([_Piece(painted[half:]), _Piece(painted[:half])])
    assert not scene.composed_of([_Piece(painted[:half])])
    assert scene.hit_stack(320, 250) == whole.hit_stack(320, 250)  # the whole index serves
    scene.composed_of([_Piece(painted[:half]), _Piece(painted[half:])])
    scene.add(node("late", Rect(300, 240, 20, 20), Box(WHITE), z=10**9, interaction="late"))
    assert scene.hit_test(305, 245).interaction == "late"  # adding a node drops the pieces


def test_extend_adds_nodes_at_once_and_refuses_a_duplicate_without_adding_any():
    whole = desktop_scene()
    painted = whole.painted()
    scene = Scene(whole.width, whole.height)
    scene.extend(painted[:5])
    scene.extend(painted[5:])
    assert scene.painted() == painted and scene.node(painted[-1].id) is painted[-1]
    before = list(scene.nodes)
    extra = node("extra", Rect(0, 0, 5, 5), Box(WHITE))
    try:
        scene.extend([extra, painted[3]])
    except ValueError as exc:
        assert str(painted[3].id) in str(exc)
    else:
        raise AssertionError("a duplicate id was accepted")
    assert scene.nodes == before and scene.node(extra.id) is None and scene.node(painted[3].id) is painted[3]


def test_tiles_cut_on_demand_are_the_tiles_bucketed_whole():
    whole = desktop_scene()
    painted = whole.painted()
    lazy = HitPart(painted, whole.width, whole.height)
    eager = HitPart(painted, whole.width, whole.height)
    eager._bucket_all()
    tiles = range(((whole.width + 63) // 64) * ((whole.height + 63) // 64))
    def cut(part):
        return [[(r.node.id, r.x0, r.y0, r.x1, r.y1) for r in part.tile(i)] for i in tiles]

    assert cut(lazy) == cut(eager) and any(cut(eager))
    assert lazy._whole  # past a few tiles the part buckets everything at once
