"""The element table is built row by row; it must be, bit for bit, the table the
column-wise numpy definition gives (``docs/rl.md``: bounds over the screen, clipped; ids
divided in float32)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cwgym.rl.elements import FEATURES, LABEL_BUCKETS, ROLES, bucket, element_table
from cwgym.rl.text import tokens

_ROLE_ID = {role: index for index, role in enumerate(ROLES)}


def column_wise(view, rows, skip_roles=(), instruction=frozenset()):
    """The table as the module docstring defines it, one numpy column at a time."""
    array = np.zeros((rows, len(FEATURES)), dtype=np.float32)
    if not view:
        return array
    chosen = [e for e in reversed(view.get("elements") or ()) if e.get("role") not in frozenset(skip_roles)][:rows]
    n = len(chosen)
    if not n:
        return array
    screen = view.get("screen") or {}
    size = np.array([screen.get("width") or 1, screen.get("height") or 1] * 2, dtype=np.float64)
    boxes = np.array([(b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]) for b in (e["bounds"] for e in chosen)],
                     dtype=np.float64)
    boxes = np.clip(boxes / size, 0.0, 1.0)
    table = array[:n]
    table[:, 0] = 1.0
    table[:, 1] = [_ROLE_ID.get(e.get("role", ""), _ROLE_ID["other"]) for e in chosen]
    table[:, 1] /= len(ROLES)
    table[:, 2] = [bucket(e.get("label") or "") for e in chosen]
    table[:, 2] /= LABEL_BUCKETS
    table[:, 3:7] = boxes
    table[:, 7] = (boxes[:, 0] + boxes[:, 2]) / 2
    table[:, 8] = (boxes[:, 1] + boxes[:, 3]) / 2
    table[:, 9] = [e.get("enabled", True) for e in chosen]
    table[:, 10] = [bool(e.get("focused")) for e in chosen]
    table[:, 11] = [bool(e.get("checked") or e.get("selected")) for e in chosen]
    table[:, 12] = ["window" in e for e in chosen]
    table[:, 13] = [bucket(e["value"]) if e.get("value") else 0 for e in chosen]
    table[:, 13] /= LABEL_BUCKETS
    if instruction:
        table[:, 14] = [bool(w := frozenset(tokens(e.get("label") or ""))) and w <= instruction for e in chosen]
    return array


def random_view(rng: random.Random) -> dict:
    elements = []
    for i in range(rng.randint(0, 40)):
        e = {"id": f"e{i}", "role": rng.choice([*ROLES, "weird", None]),
             "bounds": {"x": rng.randint(-50, 1400), "y": rng.randint(-50, 900),
                        "width": rng.randint(0, 700), "height": rng.randint(0, 500)}}
        if rng.random() < 0.8:
            e["label"] = rng.choice(["", "Open Files", "ok", "notes.txt", "Submit", "café au lait", "a b c"])
        if rng.random() < 0.3:
            e["value"] = rng.choice(["", "v", "123", "http://tasks.web/"])
        if rng.random() < 0.5:
            e["window"] = rng.randint(0, 3)
        for flag in ("enabled", "focused", "checked", "selected"):
            if rng.random() < 0.4:
                e[flag] = rng.random() < 0.5
        elements.append(e)
    screen = rng.choice([{"width": 320, "height": 420}, {"width": 1280, "height": 800}, {"width": 84, "height": 84}, {}])
    return {"elements": elements, "screen": screen}


@pytest.mark.parametrize("seed", range(8))
def test_rows_are_the_column_wise_table_bit_for_bit(seed):
    rng = random.Random(seed)
    for _ in range(200):
        view = random_view(rng)
        rows = rng.choice([1, 4, 32])
        skip = rng.choice([(), ("text",), ("button", "text")])
        instruction = rng.choice([frozenset(), frozenset({"open", "files", "ok", "submit"})])
        table = element_table(view, rows, skip, instruction)
        expected = column_wise(view, rows, skip, instruction)
        assert table.array.dtype == np.float32 and table.array.shape == expected.shape
        assert table.array.tobytes() == expected.tobytes()


def test_an_empty_view_is_all_zero():
    assert not element_table(None, 4).array.any()
    assert not element_table({"elements": [], "screen": {"width": 10, "height": 10}}, 4).array.any()


def test_rows_of_a_shared_view_are_made_once_and_are_the_rows_made_afresh():
    # a scene cache's own view keeps an unchanged window's element dicts from screen to
    # screen; their rows are remembered, and every table equals the one built without memory
    import gymnasium as gym

    env = gym.make("cwgym/easy-rename-file-v1")
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=1_000_003)
    episode = env.unwrapped._episode
    seen: set[int] = set()
    kept = 0
    for _ in range(40):
        view = episode.semantic_view()
        words = episode.words
        ids = {id(e) for e in view["elements"]}
        kept += len(ids & seen)
        seen |= ids
        shared = element_table(view, 64, (), words, shared=episode._peeked)
        fresh = element_table(view, 64, (), words)
        assert shared.array.tobytes() == fresh.array.tobytes()
        assert shared.rows == fresh.rows
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))  # a Discrete space
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
    assert kept > 100  # element dicts are kept across screens often enough to test the memory
