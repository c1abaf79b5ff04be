"""Scene deltas: the cheap no-change answer, node changes and damage rectangles."""

from __future__ import annotations

from scene_fixture import BLACK, WHITE, desktop_scene

from cwgym.scene import Box, Focus, Node, Rect, Scene, SceneDelta, UiText, coalesce

VIEW = Rect(0, 0, 800, 600)


def test_equal_digests_short_circuit_without_touching_nodes():
    old, new = desktop_scene(), desktop_scene()

    class Boom(list):
        def __iter__(self):
            raise AssertionError("diff walked the nodes")

    new._painted = Boom(new.painted())  # any node walk would raise
    delta = new.diff(old)
    assert delta == SceneDelta(changed=False)
    assert delta.damage == [] and delta.updated == []


def test_updated_node_damages_old_and_new_positions():
    old = desktop_scene()
    new = desktop_scene()
    ok = new.find("window:0:content:ok")[0]
    ok.bounds = Rect(10, 140, 80, 24)  # moved down by 100 px (local), screen y 220
    new.stamp()
    d = new.diff(old)
    assert d.changed and d.updated == [ok.id] and d.added == [] and d.removed == []
    assert not (d.background or d.resized or d.focus) and d.windows == []
    assert d.damage == [Rect(110, 120, 80, 24), Rect(110, 220, 80, 24)]


def test_added_removed_and_window_changes():
    old = desktop_scene()
    new = desktop_scene()
    gone = new.nodes.pop(1)  # the terminal launcher
    new.add(Node(99, Rect(700, 550, 20, 20), Box(WHITE), z=10_000))
    new.windows[0].title = "Elsewhere"
    new.stamp()
    d = new.diff(old)
    assert d.added == [99] and d.removed == [gone.id] and d.windows == [0]
    assert d.damage == [Rect(10, 10, 48, 48), Rect(700, 550, 20, 20)]


def test_focus_background_and_resize():
    old = desktop_scene()
    new = desktop_scene()
    new.focus = Focus()
    new.stamp()
    d = new.diff(old)
    assert d.changed and d.focus and d.damage == []
    new.background = (1, 2, 3, 255)
    new.stamp()
    d = new.diff(old)
    assert d.background and d.damage == [VIEW]
    small = Scene(400, 300)
    small.stamp()
    d = small.diff(old)
    assert d.resized and d.damage == [Rect(0, 0, 400, 300)] and len(d.removed) == len(old.nodes)


def test_unstamped_scenes_are_stamped_by_diff():
    a, b = Scene(10, 10), Scene(10, 10)
    a.add(Node(1, Rect(0, 0, 2, 2), UiText("x", 10, BLACK)))
    d = a.diff(b)
    assert d.changed and d.added == [1] and a.digest and b.digest


def test_shadow_damage_includes_blur():
    from cwgym.scene import Shadow

    old = Scene(100, 100)
    old.stamp()
    new = Scene(100, 100)
    new.add(Node(1, Rect(20, 20, 10, 10), Shadow((0, 0, 0, 80), 4, 2, 2)))
    assert new.diff(old).damage == [Rect(18, 18, 18, 18)]


def test_coalesce_merges_overlaps_deterministically():
    rects = [Rect(0, 0, 10, 10), Rect(5, 5, 10, 10), Rect(50, 50, 5, 5), Rect(15, 0, 5, 5), None]
    merged = coalesce(rects, VIEW)
    assert merged == [Rect(0, 0, 20, 15), Rect(50, 50, 5, 5)]
    assert coalesce(list(reversed(rects)), VIEW) == merged
    assert coalesce([Rect(-10, -10, 20, 20), Rect(900, 0, 5, 5)], VIEW) == [Rect(0, 0, 10, 10)]
    many = [Rect(20 * i, 0, 5, 5) for i in range(30)]
    assert coalesce(many, VIEW) == [Rect(0, 0, 585, 5)]
