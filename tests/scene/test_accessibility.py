"""The accessibility tree: one entry per control, merged from every node painted for it."""

from __future__ import annotations

from scene_fixture import BLACK, GREY, WHITE, desktop_scene

from cwgym.scene import Box, Focus, Node, NodeState, Rect, Scene, UiText, node_id


def by_id(scene):
    return {a.id: a for a in scene.accessibility()}


def test_one_entry_per_interaction_merging_nodes():
    s = desktop_scene()
    ax = s.accessibility()
    targets = [a.id for a in ax]
    assert len(targets) == len(set(targets))
    ok = by_id(s)["window:1:content:ok"]
    box, label = s.find("window:1:content:ok")
    assert ok.nodes == [box.id, label.id]
    assert (ok.role, ok.name, ok.value) == ("button", "OK", None)
    assert ok.bounds == Rect(310, 240, 80, 24)  # union of box (310,240,80,24) and label
    assert ok.window == 1 and ok.enabled and ok.focusable
    assert ok.z == max(box.z, label.z)
    assert [a.order for a in ax] == list(range(len(ax)))


def test_hit_is_a_point_that_reaches_the_control():
    s = desktop_scene()
    for a in s.accessibility():
        if a.hit is None:
            continue
        hit = s.hit_test(*a.hit)
        assert hit is not None and hit.interaction == a.id


def test_disabled_and_covered_controls_have_no_hit():
    s = desktop_scene()
    ax = by_id(s)
    files = ax["shell:launch:files"]
    assert not files.enabled and files.hit is None
    s.add(Node(node_id(None, "sheet"), Rect(0, 0, 800, 600), Box(GREY), z=10_000))
    s.stamp()
    assert all(a.hit is None for a in s.accessibility())


def test_state_and_focus():
    s = desktop_scene()
    ax = by_id(s)
    assert ax["window:1:content:check"].checked is True
    assert ax["window:1:content:check"].selected is None
    assert ax["window:1:content:ok"].focused  # scene focus names it
    assert not ax["window:0:content:ok"].focused
    assert ax["window:0:close"].window == 0


def test_name_falls_back_to_painted_text_and_window_from_node():
    s = Scene(100, 100)
    s.add(Node(1, Rect(0, 0, 50, 20), Box(WHITE), interaction="shell:menu", window=None))
    s.add(
        Node(
            2,
            Rect(0, 0, 50, 20),
            UiText("Menu", 12, BLACK),
            interaction="shell:menu",
            window=4,
            state=NodeState(expanded=False, focused=True),
        )
    )
    s.stamp()
    (a,) = s.accessibility()
    assert (a.role, a.name, a.window, a.expanded, a.focused) == ("", "Menu", 4, False, True)
    assert a.hit == (25, 10)


def test_revision_is_a_content_digest():
    a = {x.id: x.revision for x in desktop_scene().accessibility()}
    b = {x.id: x.revision for x in desktop_scene("reverse").accessibility()}
    assert a == b
    s = desktop_scene()
    s.focus = Focus()
    s.stamp()
    c = {x.id: x.revision for x in s.accessibility()}
    assert c["window:1:content:ok"] != a["window:1:content:ok"]
    assert c["window:0:content:ok"] == a["window:0:content:ok"]
