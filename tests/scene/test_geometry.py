"""Rectangles, exposure and transforms: the integer geometry windows and hit testing use."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cwgym.scene import IDENTITY, Rect, RoundedClip, Transform, bounding_box, exposed

small = st.integers(min_value=-20, max_value=20)
size = st.integers(min_value=0, max_value=20)
rects = st.builds(Rect, small, small, size, size)


def pixels(r: Rect) -> set[tuple[int, int]]:
    return {(x, y) for x in range(r.x, r.right) for y in range(r.y, r.bottom)}


def test_rect_basics():
    r = Rect(10, 20, 30, 40)
    assert (r.right, r.bottom, r.area, r.center) == (40, 60, 1200, (25, 40))
    assert r.contains(10, 20) and r.contains(39, 59)
    assert not r.contains(40, 20) and not r.contains(10, 60) and not r.contains(9, 20)
    assert Rect(0, 0, 0, 5).empty and Rect(0, 0, 0, 5).area == 0
    assert r.to_plain() == {"x": 10, "y": 20, "width": 30, "height": 40}


def test_rect_rejects_non_int_geometry():
    with pytest.raises(TypeError):
        Rect(0, 0, 1.5, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Transform(1024.0, 0, 0, 1024, 0, 0)  # type: ignore[arg-type]


def test_intersect_union_examples():
    a, b = Rect(0, 0, 10, 10), Rect(5, 5, 10, 10)
    assert a.intersect(b) == Rect(5, 5, 5, 5)
    assert a.intersect(Rect(10, 0, 5, 5)) is None  # touching edges share no pixel
    assert a.union(b) == Rect(0, 0, 15, 15)
    assert a.union(Rect(100, 100, 0, 0)) == a
    assert bounding_box([]) is None
    assert bounding_box([a, Rect(0, 0, 0, 0), b]) == Rect(0, 0, 15, 15)


def test_subtract_example_order():
    outer, hole = Rect(0, 0, 10, 10), Rect(3, 4, 2, 2)
    assert outer.subtract(hole) == [
        Rect(0, 0, 10, 4),  # above
        Rect(0, 4, 3, 2),  # left
        Rect(5, 4, 5, 2),  # right
        Rect(0, 6, 10, 4),  # below
    ]
    assert outer.subtract(Rect(50, 50, 5, 5)) == [outer]
    assert outer.subtract(Rect(-5, -5, 30, 30)) == []
    assert Rect(0, 0, 0, 10).subtract(hole) == []


@given(rects, rects)
def test_intersect_is_pixel_intersection(a, b):
    inter = a.intersect(b)
    common = pixels(a) & pixels(b)
    assert (pixels(inter) if inter else set()) == common
    assert a.intersects(b) == bool(common)


@given(rects, rects)
def test_union_contains_both(a, b):
    u = a.union(b)
    assert pixels(a) | pixels(b) <= pixels(u)
    assert u.contains_rect(a) or a.empty
    assert u.contains_rect(b) or b.empty


@given(rects, rects)
def test_subtract_pieces_are_disjoint_and_exact(a, b):
    pieces = a.subtract(b)
    assert len(pieces) <= 4
    seen: set[tuple[int, int]] = set()
    for p in pieces:
        assert not p.empty
        px = pixels(p)
        assert not (px & seen), "pieces overlap"
        seen |= px
    assert seen == pixels(a) - pixels(b)


def brute_largest(bounds: Rect, covers: list[Rect]) -> int:
    covered = set().union(*(pixels(c) for c in covers)) if covers else set()
    best = 0
    for x0 in range(bounds.x, bounds.right):
        for y0 in range(bounds.y, bounds.bottom):
            if (x0, y0) in covered:
                continue
            for x1 in range(x0 + 1, bounds.right + 1):
                if (x1 - 1, y0) in covered:
                    break
                for y1 in range(y0 + 1, bounds.bottom + 1):
                    if any((x, y1 - 1) in covered for x in range(x0, x1)):
                        break
                    best = max(best, (x1 - x0) * (y1 - y0))
    return best


cover_lists = st.lists(
    st.builds(Rect, st.integers(0, 9), st.integers(0, 9), st.integers(0, 6), st.integers(0, 6)),
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(
    st.builds(Rect, st.integers(0, 3), st.integers(0, 3), st.integers(0, 8), st.integers(0, 8)),
    cover_lists,
)
def test_exposed_is_the_largest_uncovered_rectangle(bounds, covers):
    got = exposed(bounds, covers)
    best = brute_largest(bounds, covers)
    if best == 0:
        assert got is None
        return
    assert got is not None
    assert bounds.contains_rect(got)
    assert not any(got.intersects(c) for c in covers)
    assert got.area == best


def test_exposed_examples_and_tie_break():
    b = Rect(0, 0, 100, 100)
    assert exposed(b, []) == b
    assert exposed(b, [Rect(-10, -10, 200, 200)]) is None
    assert exposed(Rect(0, 0, 0, 10), []) is None
    # a window covering the lower part leaves the title strip
    assert exposed(Rect(152, 98, 969, 614), [Rect(100, 126, 1100, 700)]) == Rect(152, 98, 969, 28)
    # ...but a tall uncovered column beats a short strip when it is larger
    assert exposed(Rect(152, 98, 969, 614), [Rect(200, 126, 1000, 700)]) == Rect(152, 98, 48, 614)
    # a cover in the middle: the two side columns (40x100) beat the bands (100x30):
    # equal areas are broken by smallest y, then smallest x
    assert exposed(b, [Rect(40, 30, 20, 40)]) == Rect(0, 0, 40, 100)
    # top band and bottom band tie: the upper one wins
    assert exposed(Rect(0, 0, 10, 30), [Rect(0, 10, 10, 10)]) == Rect(0, 0, 10, 10)


def test_exposed_ignores_cover_order():
    covers = [Rect(10, 10, 30, 30), Rect(50, 0, 10, 80), Rect(0, 60, 100, 5)]
    b = Rect(0, 0, 100, 100)
    assert exposed(b, covers) == exposed(b, list(reversed(covers)))


def test_transform_identity_and_translate():
    assert IDENTITY.is_identity and IDENTITY.apply(7, -3) == (7, -3)
    t = Transform.translate(100, 50)
    assert t.is_translation and not t.is_identity
    assert t.apply(5, 6) == (105, 56)
    assert t.inverse_apply(105, 56) == (5, 6)
    assert t.map_rect(Rect(0, 0, 10, 10)) == Rect(100, 50, 10, 10)
    assert t.to_plain() == {"a": 1024, "b": 0, "c": 0, "d": 1024, "tx": 100, "ty": 50}


def test_transform_scale_rounds_down():
    half = Transform.scale(512, 512, 10, 10)
    assert half.apply(3, 3) == (11, 11)  # 1.5 floors to 1
    assert half.apply(-3, -3) == (8, 8)  # -1.5 floors to -2
    assert half.inverse_apply(11, 11) == (2, 2)
    double = Transform.scale(2048)
    assert double.inverse_apply(7, 9) == (3, 4)
    assert double.map_rect(Rect(1, 1, 4, 4)) == Rect(2, 2, 8, 8)


def test_transform_rotation_and_singular():
    rot = Transform(0, 1024, -1024, 0, 100, 100)  # 90° clockwise on screen (y down)
    assert rot.apply(10, 0) == (100, 110)
    assert rot.apply(0, 10) == (90, 100)
    assert rot.inverse_apply(100, 110) == (10, 0)
    assert rot.map_rect(Rect(0, 0, 20, 10)) == Rect(90, 100, 10, 20)
    assert Transform(0, 0, 0, 0, 0, 0).inverse_apply(1, 1) is None


@given(
    st.integers(-4096, 4096),
    st.integers(-4096, 4096),
    st.integers(-4096, 4096),
    st.integers(-4096, 4096),
    small,
    small,
    small,
    small,
)
def test_inverse_apply_round_trips_integer_maps(a, b, c, d, tx, ty, x, y):
    # integer scales and axis swaps are exactly invertible on whole pixels
    for t in (
        Transform(a - a % 1024, 0, 0, d - d % 1024, tx, ty),
        Transform(0, b - b % 1024, c - c % 1024, 0, tx, ty),
    ):
        if t.determinant == 0:
            assert t.inverse_apply(x, y) is None
            continue
        sx, sy = t.apply(x, y)
        assert t.inverse_apply(sx, sy) == (x, y)


def test_then_composes_translations_exactly():
    inner, outer = Transform.translate(5, 7), Transform.translate(100, 200)
    both = inner.then(outer)
    assert both == Transform.translate(105, 207)
    s = Transform.scale(2048).then(Transform.translate(10, 10))
    assert s.apply(3, 4) == (16, 18)


def test_rounded_clip_corners():
    rc = RoundedClip(0, 0, 20, 20, 10)
    assert rc.contains(10, 10) and rc.contains(0, 10) and rc.contains(10, 0)
    assert not rc.contains(0, 0) and not rc.contains(19, 19) and not rc.contains(1, 1)
    assert rc.contains(3, 3)  # centre (3.5, 3.5) is 9.2 px from the corner centre (10, 10)
    assert not rc.contains(20, 10)
    assert RoundedClip(0, 0, 20, 20, 0).contains(0, 0)


def test_map_rect_is_the_bounding_box_of_the_mapped_corners():
    rng = random.Random(11)
    for _ in range(5000):
        t = Transform(rng.randrange(-3000, 3000), rng.choice([0, 0, 0, rng.randrange(-900, 900)]), rng.choice([0, 0, 0, rng.randrange(-900, 900)]),
                      rng.randrange(-3000, 3000), rng.randrange(-100, 100), rng.randrange(-100, 100))
        r = Rect(rng.randrange(-500, 500), rng.randrange(-500, 500), rng.randrange(-5, 400), rng.randrange(-5, 400))
        corners = [t.apply(x, y) for x in (r.x, r.x + r.width) for y in (r.y, r.y + r.height)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        assert t.map_rect(r) == Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
