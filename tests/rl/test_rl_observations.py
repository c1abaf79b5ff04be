"""Observation spaces follow the grant; the element table, text and token ids are
deterministic; the agent's info carries verdicts, not answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from cwgym.rl.elements import FEATURES, LABEL_BUCKETS, ROLES, bucket, element_table
from cwgym.rl.env import ComputerEnv
from cwgym.rl.text import CHARSET, fit, token_ids, tokens, vocabulary

ROOT = Path(__file__).resolve().parents[2]


def _env(**kwargs) -> ComputerEnv:
    return ComputerEnv(**{"procedure": "easy-new-folder", **kwargs})


def test_the_dict_is_keyed_by_what_the_grant_gives():
    env = _env(obs=["pixels", "elements", "instruction"], viewport=[84, 84], elements=32)
    space = env.observation_space
    assert sorted(space) == ["elements", "instruction", "pixels"]
    assert space["pixels"] == gym.spaces.Box(0, 255, (84, 84, 3), np.uint8)
    assert space["elements"] == gym.spaces.Box(0.0, 1.0, (32, len(FEATURES)), np.float32)
    assert isinstance(space["instruction"], gym.spaces.Text)
    obs, info = env.reset(seed=3)
    assert obs in space and obs["instruction"] == info["instruction"] == env.instruction
    assert obs["pixels"].flags["C_CONTIGUOUS"] and obs["pixels"].std() > 0
    with pytest.raises(ValueError, match=r"terminal\.v1"):
        _env(obs=["terminal"])


def test_the_sb3_preset_keeps_only_boxes():
    env = _env(obs=["elements", "instruction"], preset="sb3", tokens=16, token_vocab=512)
    assert all(isinstance(s, gym.spaces.Box) for s in env.observation_space.values())
    assert sorted(env.observation_space) == ["elements", "instruction_tokens"]
    obs, info = env.reset(seed=3)
    tokens = obs["instruction_tokens"]
    assert tokens.dtype == np.float32 and tokens.min() >= 0.0 and tokens.max() <= 1.0  # ids scaled like the table's
    assert np.array_equal(np.rint(tokens * 511).astype(np.int64), token_ids(info["instruction"], 16, 512))
    terminal = ComputerEnv(procedure="ops-backup-script", actions=["terminal.v1"], observations=["terminal.v1"],
                           obs=["terminal", "instruction"], interface="envelopes", preset="sb3")
    assert sorted(terminal.observation_space) == ["instruction_tokens", "terminal_tokens"]


def test_the_element_table_rows_are_the_semantic_controls_topmost_first():
    env = _env(obs=["elements", "instruction"], interface="click-element", elements=96)
    obs, info = env.reset(seed=0)
    table, rows = obs["elements"], info["elements"]
    n = len(rows)
    assert table[:n, 0].all() and not table[n:].any()
    assert rows[0]["id"].startswith("shell:") and rows[-1]["id"] == "shell:icon:home"  # the desktop is painted first
    files = next(i for i, e in enumerate(rows) if e["id"] == "shell:launch:files")
    role, label = table[files, 1], table[files, 2]
    assert ROLES[round(role * len(ROLES))] == "button" and round(label * LABEL_BUCKETS) == bucket("Files")
    b = rows[files]["bounds"]
    assert table[files, 3:7] == pytest.approx([b["x"] / 1280, b["y"] / 800, (b["x"] + b["width"]) / 1280, (b["y"] + b["height"]) / 800])
    env.step(files)
    obs, _, _, _, info = env.step(files)
    window_rows = [i for i, e in enumerate(info["elements"]) if "window" in e]
    assert window_rows and obs["elements"][window_rows, 12].all()
    assert not any(e["role"] == "grip" for e in info["elements"])  # skip_roles


def test_mentioned_marks_the_controls_the_instruction_names():
    env = _env(procedure="easy-open-app", obs=["elements", "instruction"], interface="click-element", elements=96)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        mentioned = [info["elements"][i]["label"] for i in np.flatnonzero(obs["elements"][:, FEATURES.index("mentioned")])]
        app = info["instruction"].removeprefix("Open ").removesuffix(" from the dock.")
        assert app in mentioned  # the launcher, and any other control whose words it uses
        assert all(set(tokens(label)) <= set(tokens(info["instruction"])) for label in mentioned)
    view = {"screen": {"width": 100, "height": 100}, "elements": [
        {"id": "a", "role": "icon", "label": "notes.txt", "bounds": {"x": 0, "y": 0, "width": 10, "height": 10}},
        {"id": "b", "role": "button", "label": "Save As…", "bounds": {"x": 0, "y": 0, "width": 10, "height": 10}},
        {"id": "c", "role": "button", "label": "", "bounds": {"x": 0, "y": 0, "width": 10, "height": 10}},
    ]}
    words = frozenset(tokens("Open notes.txt and save it"))
    # rows are topmost first (c, b, a): an empty label and a label with a word missing are not mentioned
    assert element_table(view, 4, instruction=words).array[:3, 14].tolist() == [0.0, 0.0, 1.0]
    assert not element_table(view, 4).array[:, 14].any()  # without an instruction, nothing is mentioned


def test_an_empty_view_gives_an_empty_table():
    assert not element_table(None, 4).array.any()
    assert not element_table({"elements": []}, 4).array.any()


def test_text_is_fitted_to_the_charset_and_length():
    assert fit("héllo ☃", 100) == "héllo ?"
    assert fit("abcdef", 3) == "abc" and fit("abcdef", 3, keep="tail") == "def"
    assert gym.spaces.Text(10, min_length=0, charset=CHARSET).contains(fit("a\tb\n“c”…", 10))


def test_tokens_vocabulary_and_ids():
    assert tokens("Save it as notes.txt!") == ["save", "it", "as", "notes", ".", "txt", "!"]
    ids = token_ids("a b", 4, 100)
    assert ids[2:].tolist() == [0, 0] and (ids[:2] > 0).all()
    assert token_ids("a b c", 2, 100, keep="tail").tolist() == token_ids("b c", 2, 100).tolist()
    assert vocabulary('Rename "draft.txt" to final.txt.', 10) == [" ", "Rename", "draft.txt", "draft", "to", "final.txt", "final"]
    assert len(vocabulary("a b c d e f", 3)) == 3


def test_hashed_ids_do_not_depend_on_the_process_or_pythonhashseed():
    code = ("from cwgym.rl.text import token_ids; from cwgym.rl.elements import bucket; "
            "print(token_ids('Open Files from the dock', 8, 4096).tolist(), bucket('Files'))")
    outs = set()
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        outs.add(out.stdout)
    assert outs == {f"{token_ids('Open Files from the dock', 8, 4096).tolist()} {bucket('Files')}\n"}


def test_the_terminal_entry_is_the_latest_result_as_a_terminal_shows_it():
    env = gym.make("cwgym/terminal-ops-backup-script-v0")
    obs, _ = env.reset(seed=1)
    assert obs["terminal"] == ""
    act = {"family": "terminal.v1", "op": "execute", "payload": {"command": "echo out; echo err >&2; exit 3"}}
    obs = env.step(json.dumps(act))[0]
    assert obs["terminal"] == "out\nerr\n[exit 3]"


def test_info_carries_verdicts_and_the_answers_only_when_revealed():
    env = gym.make("cwgym/terminal-ops-backup-script-v0")
    _, info = env.reset(seed=1)
    verification = info["verification"]
    assert verification["passed"] is False and set(verification) == {"passed", "score", "checks"}
    assert all(set(c) == {"kind", "subject", "passed"} for c in verification["checks"])
    revealed = gym.make("cwgym/terminal-ops-backup-script-v0", reveal=True).reset(seed=1)[1]["verification"]
    assert any(c["expected"] for c in revealed["checks"])
    json.dumps(info)  # plain data
