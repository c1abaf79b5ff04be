"""The caret in ``semantic.v1`` (``focus.caret``, the terminal's input line as its element's
value) and the ``caret`` observation key built on it."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import cwgym.rl  # noqa: F401  (registers the envs)
from cwgym import EnvironmentConfig, World
from cwgym.resources import load_world
from cwgym.rl.expert import expert_demonstration, expert_rollout
from cwgym.rl.observation_keys import OBSERVATION_KEYS
from cwgym.rl.observation_keys.caret import WIDTH, caret_features

MACHINE = "workstation"
OBS = ["elements", "instruction", "instruction_shown", "focus_tokens", "element_values", "caret"]


def _act(family: str, op: str, **payload: object) -> dict:
    return {"family": family, "op": op, "machine": MACHINE, "payload": payload}


@pytest.fixture(scope="module")
def desktop():
    world = World(load_world("ubuntu-workstation"), seed=11)
    return world.environment(EnvironmentConfig.desktop("ada", [MACHINE]))


def _view(env, *actions: dict) -> dict:
    out = env.step(list(actions))
    return out["observation"]["channels"]["semantic.v1"][MACHINE]


def test_semantic_v1_reports_the_editor_caret_after_each_caret_key(desktop):
    _view(desktop, _act("application.v1", "launch", kind="editor"))
    view = _view(desktop, _act("keyboard.v1", "type", text="abc\ndef"))
    assert view["focus"]["caret"] == {"line": 1, "column": 3, "offset": 7}
    seen = []
    for key in ("Home", "ctrl+End", "ArrowUp", "ArrowLeft", "shift+ArrowRight", "ctrl+Home"):
        seen.append(_view(desktop, _act("keyboard.v1", "key", key=key))["focus"]["caret"])
    assert seen == [
        {"line": 1, "column": 0, "offset": 4},
        {"line": 1, "column": 3, "offset": 7},
        {"line": 0, "column": 3, "offset": 3},
        {"line": 0, "column": 2, "offset": 2},
        {"line": 0, "column": 3, "offset": 3},
        {"line": 0, "column": 0, "offset": 0},
    ]


def test_semantic_v1_reports_the_terminal_input_line_and_its_caret(desktop):
    _view(desktop, _act("application.v1", "launch", kind="terminal"))
    view = _view(desktop, _act("keyboard.v1", "type", text="mkdir x"))
    target = view["focus"]["target"]
    row = next(e for e in view["elements"] if e["id"] == target)
    assert (row["role"], row["value"]) == ("textbox", "mkdir x")
    assert view["focus"]["caret"]["offset"] == 7
    view = _view(desktop, _act("keyboard.v1", "key", key="ArrowLeft"))
    assert view["focus"]["caret"]["offset"] == 6


def test_caret_features_of_a_caret_in_a_value():
    assert caret_features(None, "abc").tolist() == [0.0] * WIDTH
    row = caret_features({"line": 1, "column": 0, "offset": 4}, "abc\ndef")
    assert row[0] == 1 and row[1] == pytest.approx(1 / 63) and row[3] == pytest.approx(4 / 1023)
    assert row[4:].tolist() == [0.0, 1.0, 0.0, 0.0, 1.0, 1.0]  # line start, last line, after "\n"
    assert caret_features({"line": 0, "column": 6, "offset": 6}, "mkdir ")[4:].tolist() == [1, 0, 1, 1, 1, 1]
    assert caret_features({"line": 0, "column": 5, "offset": 5}, "mkdir")[9] == 0


def test_the_caret_key_space_is_a_box_of_ten_and_reads_semantic_v1():
    cls = OBSERVATION_KEYS["caret"]
    assert cls.channel == "semantic.v1" and cls.uses_table


def _steps(env_id: str) -> tuple[list, list[str]]:
    env = gym.make(env_id, obs=OBS)
    try:
        demo = expert_demonstration(env, 3)
        keys = [s.action["payload"].get("key") or s.action["op"] for s in demo.steps]
        return expert_rollout(env, 3, demonstration=demo), keys
    finally:
        env.close()


def _rest(observation: dict) -> list:
    return [observation[k] for k in sorted(observation) if k != "caret"]


def _same(a: list, b: list) -> bool:
    return all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b, strict=True))


def test_the_caret_key_alone_tells_apart_the_steps_around_ctrl_end():
    transitions, keys = _steps("cwgym/easy-append-line-v1")
    at = keys.index("Ctrl+End")
    before, after = transitions[at].observation, transitions[at + 1].observation
    assert _same(_rest(before), _rest(after))  # without the caret the two are one state
    assert not np.array_equal(before["caret"], after["caret"])
    assert after["caret"][4] == 1  # at the end of the text
    assert transitions[at].observation["caret"] in OBSERVATION_KEYS["caret"](_config()).space


def test_the_caret_key_follows_the_arrows_and_the_selection_on_delete_line():
    transitions, keys = _steps("cwgym/easy-delete-line-v1")
    lines = [round(float(t.observation["caret"][1]) * 63) for t in transitions]
    down, select = keys.index("ArrowDown"), keys.index("Shift+ArrowDown")
    assert lines[down + 1] == lines[down] + 1
    assert lines[select + 1] == lines[select] + 1


def test_the_caret_key_tells_a_typed_space_on_the_terminal_line():
    transitions, _keys = _steps("cwgym/easy-terminal-mkdir-v1")
    after_space = [float(t.observation["caret"][9]) for t in transitions]
    offsets = [float(t.observation["caret"][3]) for t in transitions if t.observation["caret"][0]]
    assert 1.0 in after_space and 0.0 in after_space
    assert len(offsets) >= 3 and len(set(offsets)) == len(offsets)  # every typed step moves it


def _config():
    env = gym.make("cwgym/easy-append-line-v1", obs=OBS)
    try:
        return env.unwrapped.config
    finally:
        env.close()
