"""A composed desktop's hit index is stacked from its cached chunks' hit records; it answers
every pointer query exactly as an index measured over the whole scene does."""

from __future__ import annotations

import pytest
from desktop_fixture import app, desktop, key, ok, point, ptr, type_, world

from cwgym.scene.hit import HitIndex

STATES = {
    "desktop": [],
    "overlapping windows": [app("launch", kind="notepad_test"), type_("alpha"), app("launch", kind="files"), app("launch", kind="terminal")],
    "panel open": [app("launch", kind="files"), key("Meta")],
    "moved window": [app("launch", kind="notepad_test"), app("launch", kind="files"), "move"],
}


@pytest.mark.parametrize("viewport", [(1280, 800), (84, 84)])
@pytest.mark.parametrize("state", sorted(STATES))
def test_stacked_chunk_index_answers_as_a_whole_scene_index(state, viewport):
    w = world()
    env = desktop(w)
    for action in STATES[state]:
        if action == "move":  # drag the focused window's title bar over the other one
            x, y = point(env.scene(1280, 800), "window:1:drag")
            ok(env, ptr("down", x, y))
            ok(env, ptr("up", x - 200, y + 150))
        else:
            ok(env, action)
    width, height = viewport
    scene = w.scene(env.id, width, height)
    assert scene._pieces is not None  # the compositor declared its chunks
    whole = HitIndex(scene.painted(), width, height)
    stacked = scene._index()
    step = max(1, width // 160)
    for x in range(0, width, step):
        for y in range(0, height, step):
            assert stacked.hit_stack(x, y) == whole.hit_stack(x, y), (x, y)
    for n in scene.painted():
        assert stacked.reachable_point(n.id) == whole.reachable_point(n.id), n.interaction
        assert stacked.visible(n.id) == whole.visible(n.id)


@pytest.mark.parametrize("state", sorted(STATES))
def test_semantic_elements_agree_with_the_accessibility_tree(state):
    """The projection's lean element pass names, states and places each control as the
    scene's accessibility tree does (which merges the same nodes with a hit index)."""
    from cwgym.desktop.semantic import semantic_view

    w = world()
    env = desktop(w)
    for action in STATES[state]:
        if action == "move":
            x, y = point(env.scene(1280, 800), "window:1:drag")
            ok(env, ptr("down", x, y))
            ok(env, ptr("up", x - 200, y + 150))
        else:
            ok(env, action)
    scene = w.scene(env.id, 1280, 800)
    view = semantic_view(scene)
    tree = {ax.id: ax for ax in scene.accessibility()}
    assert view["elements"], "a desktop always shows controls"
    for e in view["elements"]:
        ax = tree[e["id"]]
        assert (e["role"], e["label"], e.get("value"), e.get("window")) == (ax.role, ax.name, ax.value, ax.window)
        assert (e["enabled"], e["focused"]) == (ax.enabled, ax.focused)
        assert (e.get("checked"), e.get("selected"), e.get("expanded")) == (ax.checked, ax.selected, ax.expanded)
        b = e["bounds"]
        assert ax.bounds.contains_rect(type(ax.bounds)(b["x"], b["y"], b["width"], b["height"]))
    shown = {e["id"] for e in view["elements"]}
    assert all(ax.id in shown for ax in tree.values() if ax.hit is not None)  # every reachable control is listed
