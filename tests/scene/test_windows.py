"""Window occlusion: who covers whom, and the part of each window one can click."""

from __future__ import annotations

from cwgym.scene import Rect, Scene, SceneWindow, compute_occlusion


def win(i, bounds, z, **kw):
    return SceneWindow(i, f"w{i}", "files", bounds, bounds, z=z, **kw)


def test_occlusion_by_higher_windows_only():
    ws = [
        win(0, Rect(0, 0, 100, 100), 0),
        win(1, Rect(50, 0, 100, 100), 1),
        win(2, Rect(500, 500, 10, 10), 2),
    ]
    compute_occlusion(ws, Rect(0, 0, 1000, 1000))
    assert [w.occluded_by for w in ws] == [[1], [], []]
    assert ws[0].exposed == Rect(0, 0, 50, 100)
    assert ws[1].exposed == ws[1].bounds


def test_minimized_windows_neither_cover_nor_show():
    ws = [win(0, Rect(0, 0, 100, 100), 0), win(1, Rect(0, 0, 100, 100), 1, minimized=True)]
    compute_occlusion(ws, Rect(0, 0, 1000, 1000))
    assert ws[0].occluded_by == [] and ws[0].exposed == ws[0].bounds
    assert ws[1].exposed is None


def test_fully_hidden_and_offscreen():
    ws = [
        win(0, Rect(10, 10, 50, 50), 0),
        win(1, Rect(0, 0, 100, 100), 1),
        win(2, Rect(-200, 0, 100, 100), 2),
    ]
    compute_occlusion(ws, Rect(0, 0, 1000, 1000))
    assert ws[0].occluded_by == [1] and ws[0].exposed is None
    assert ws[2].exposed is None


def test_exposed_is_clipped_to_the_screen_and_covers():
    ws = [win(0, Rect(-50, -50, 200, 200), 0)]
    compute_occlusion(ws, Rect(0, 0, 1000, 1000), covers=[Rect(0, 0, 1000, 28)])
    assert ws[0].exposed == Rect(0, 28, 150, 122)


def test_scene_sorts_windows_bottom_to_top_and_looks_them_up():
    s = Scene(300, 300)
    s.add_window(win(7, Rect(0, 0, 100, 100), 1))
    s.add_window(win(3, Rect(50, 50, 100, 100), 0))
    s.stamp()
    assert [w.id for w in s.windows] == [3, 7]
    assert s.window(3).occluded_by == [7]
    assert s.window(99) is None
