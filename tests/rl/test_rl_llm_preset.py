"""The ``llm`` preset and what it rests on: the ``a11y`` text key, the ``marks`` screenshot
and the element forms of the JSON-text interface (``click``, ``double_click``, ``fill``)."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from rl_kit import IDS, short

ENV = "cwgym/easy-new-folder-v1"


@pytest.mark.parametrize("env_id", IDS, ids=short)
def test_every_id_has_an_llm_preset_of_text_in_and_text_out(env_id):
    env = gym.make(env_id, preset="llm")
    obs, _ = env.reset(seed=1)
    assert isinstance(env.action_space, gym.spaces.Text)
    assert obs and all(isinstance(value, str) for value in obs.values())
    assert env.observation_space.contains(obs)


def test_a11y_numbers_elements_as_the_element_table_does():
    env = gym.make(ENV, preset="llm")
    obs, _ = env.reset(seed=3)
    rows = env.unwrapped.episode.table.rows
    for index, row in enumerate(rows):
        label = " ".join(row["label"].split())  # the text form collapses runs of spaces
        assert f'[{index}] {row["role"]} "{label}"' in obs["a11y"]
    assert obs["a11y"].startswith('Screen "Desktop" 1280x800')


def test_marks_draw_ids_over_the_pixels_and_leave_the_rest():
    env = gym.make(ENV, preset="text", obs=["pixels", "marks"], interface="screen")
    obs, _ = env.reset(seed=3)
    pixels, marks = obs["pixels"], obs["marks"]
    assert marks.shape == pixels.shape and marks.dtype == np.uint8
    changed = np.any(marks != pixels, axis=2)
    assert 0.001 < changed.mean() < 0.2  # outlines and tags, not a repaint
    b = env.unwrapped.episode.table.rows[0]["bounds"]
    assert changed[b["y"], b["x"]:b["x"] + b["width"]].all()  # the top edge of row 0 is outlined


def _step(env, action) -> dict:
    return env.step(json.dumps(action))[4]


def test_element_forms_expand_to_pointer_and_keyboard_envelopes():
    env = gym.make(ENV, preset="llm")
    env.reset(seed=3)

    def row(label: str) -> int:
        return next(i for i, r in enumerate(env.unwrapped.episode.table.rows) if r["label"] == label)

    info = _step(env, {"click": row("Files")})
    assert info["outcome"] == {"status": "ok", "actions": 1}
    info = _step(env, [{"click": row("New Folder")}])
    box = next(i for i, r in enumerate(env.unwrapped.episode.table.rows) if r["role"] == "textbox")
    info = _step(env, {"fill": box, "text": "Receipts"})
    assert info["outcome"] == {"status": "ok", "actions": 3}  # click, Ctrl+a, type
    assert env.unwrapped.episode.table.rows[box]["value"] == "Receipts"


@pytest.mark.parametrize(("action", "reason"), [
    ({"click": 999}, "empty_element"),
    ({"click": -1}, "empty_element"),
    ({"click": True}, "malformed_action"),
    ({"click": "6"}, "malformed_action"),
    ({"fill": 6}, "malformed_action"),
    ({"fill": 6, "text": 3}, "malformed_action"),
    ({"click": 6, "fill": 6, "text": "x"}, "malformed_action"),
    ({"click": 6, "extra": 1}, "malformed_action"),
])
def test_bad_element_forms_are_refused_and_change_nothing(action, reason):
    env = gym.make(ENV, preset="llm")
    env.reset(seed=3)
    before = env.unwrapped.state_hash()
    info = _step(env, action)
    assert info["outcome"] == {"status": "refused", "reason": reason}
    assert env.unwrapped.state_hash() == before


def test_without_element_ids_in_view_an_element_form_is_refused():
    env = gym.make(ENV, preset="text", interface="screen", obs=["pixels"])
    env.reset(seed=3)
    assert _step(env, {"click": 0})["outcome"] == {"status": "refused", "reason": "empty_element"}
