"""The copy-on-write map behaves like a dict whose frozen views never change."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cwgym.kernel import CowMap

ops = st.lists(
    st.tuples(st.sampled_from(["set", "delete", "freeze"]), st.integers(0, 300), st.integers()),
    max_size=200,
)


@given(ops)
def test_matches_a_dict_and_frozen_views_are_stable(operations):
    cow: CowMap = CowMap()
    model: dict = {}
    frozen_views = []
    for op, key, value in operations:
        if op == "set":
            cow.set(key, value)
            model[key] = value
        elif op == "delete" and key in model:
            cow.delete(key)
            del model[key]
        elif op == "freeze":
            frozen_views.append((cow.freeze(), dict(model)))
    assert dict(cow.items()) == model
    assert len(cow) == len(model)
    for view, expected in frozen_views:
        assert dict(view.items()) == expected
        assert len(view) == len(expected)


def test_thawed_copies_are_independent():
    a: CowMap = CowMap()
    for i in range(100):
        a.set(i, i)
    frozen = a.freeze()
    b = CowMap(frozen)
    b.set(5, "b")
    a.set(5, "a")
    assert frozen.get(5) == 5
    assert b[5] == "b" and a[5] == "a"


def test_string_keys_are_ordered_and_placed_without_hash():
    m: CowMap = CowMap()
    for name in ["zeta", "alpha", "mu"]:
        m.set(name, 1)
    assert m.keys() == ["alpha", "mu", "zeta"]
